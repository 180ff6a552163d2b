"""A long page's sections as the address of a redirect: after a save, the organiser lands
at the section saved (``#id``), not at the top of the page, which on a phone is many
screens away from the form just sent."""

from __future__ import annotations

from django.http import HttpResponseRedirect
from django.urls import reverse


def redirect_to_section(viewname: str, section: str, **kwargs: object) -> HttpResponseRedirect:
    """A redirect to the page ``viewname`` (its URL's ``kwargs``), at its part ``section``."""
    return HttpResponseRedirect(f"{reverse(viewname, kwargs=kwargs)}#{section}")
