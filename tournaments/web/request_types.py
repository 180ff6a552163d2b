"""What a request carries in BoB, for the type checker: views annotate ``request`` with these.

The attributes are set by middleware (``request.htmx`` by django-htmx's) or guaranteed by a
role decorator of :mod:`tournaments.web.permissions` (a logged-in account); the classes are
never instantiated.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """Any request: django-htmx's middleware tells whether htmx sent it (``request.htmx``)."""

    htmx: HtmxDetails


class AccountHttpRequest(HtmxHttpRequest):
    """A request of a logged-in account: what ``login_required``, ``organiser_required`` and
    ``judge_required`` let through."""

    user: User
