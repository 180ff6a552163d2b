"""Counting failed log-ins in the database, atomically (the log-in throttle's writes).

An attempt is *reserved* before the password is checked: inside one transaction the
counters of its scopes are locked, and either one has reached its limit (the attempt is
refused and the password never checked) or each is raised by one. So however many
attempts arrive at once, at most ``limit`` passwords are checked per scope and window. A
successful log-in gives back what it reserved. Counters live in the database, so the
throttle works the same on every web process and while Redis is away.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments.models import LoginFailureCount

FORGET_AFTER = timedelta(days=1)


@dataclass(frozen=True)
class Scope:
    """One counter: its hashed key and the failures it allows per window."""

    key: str
    limit: int


@dataclass(frozen=True)
class Reservation:
    """The outcome of :func:`reserve_attempt`: allowed, or refused until ``retry_at``."""

    allowed: bool
    retry_at: datetime | None = None


def reserve_attempt(scopes: list[Scope], window_seconds: int) -> Reservation:
    """Count one more attempt in every scope, unless one of them is used up."""
    now = timezone.now()
    keys = sorted(scope.key for scope in scopes)  # one lock order: no deadlock
    with transaction.atomic():
        LoginFailureCount.objects.bulk_create(
            [LoginFailureCount(key=key, window_ends=now) for key in keys], ignore_conflicts=True
        )
        counters = {
            counter.key: counter
            for counter in LoginFailureCount.objects.select_for_update()
            .filter(key__in=keys)
            .order_by("key")
        }
        retry_at = [
            counters[scope.key].window_ends
            for scope in scopes
            if counters[scope.key].window_ends > now and counters[scope.key].failures >= scope.limit
        ]
        if retry_at:
            return Reservation(allowed=False, retry_at=max(retry_at))
        window_ends = now + timedelta(seconds=window_seconds)
        for key in keys:
            counter = counters[key]
            if counter.window_ends <= now:  # a new window starts with this attempt
                counter.failures, counter.window_ends = 1, window_ends
            else:
                counter.failures += 1
            counter.save(update_fields=["failures", "window_ends"])
    # Counters whose window ended long ago are of no use any more.
    LoginFailureCount.objects.filter(window_ends__lt=now - FORGET_AFTER).delete()
    return Reservation(allowed=True)


def release_attempt(cleared: list[str], returned: list[str]) -> None:
    """After a successful log-in: the ``cleared`` counters start afresh, the ``returned``
    ones give back the attempt reserved for it."""
    with transaction.atomic():
        LoginFailureCount.objects.filter(key__in=cleared).delete()
        LoginFailureCount.objects.filter(key__in=returned, failures__gt=0).update(
            failures=F("failures") - 1
        )
