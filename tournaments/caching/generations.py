"""A tournament's cache generation: a token that changes whenever its data changes.

Everything cached from a tournament's data (the anonymous page cache, the standings) is
keyed by, or stamped with, the tournament's current generation, so one new token makes all
of it stale at once and nothing needs to know which keys to delete. The token lives in the
shared cache (Redis in production, the ``var/cache`` files in the embedded default), so a
change committed by any process — a web request, a Celery worker, a management command —
is seen by every web process on its next read. It must never be kept in a process's own
memory (the ``local`` cache), or changes made elsewhere would not show.

Writes do not bump the generation themselves: :func:`mark_changed` notes the tournament and
the generation is bumped once the surrounding transaction commits (``on_commit``), so a
rolled-back change never invalidates anything and a page rendered during the transaction
is never cached under the new generation. The model signals in
:mod:`tournaments.caching.change_tracking` call it for every saved or deleted row; the few bulk
writes that send no signals (``update()``, ``bulk_create()``) call it explicitly.
"""

from __future__ import annotations

import uuid
from functools import cache as memoize

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models import Model

from tournaments.models import Tournament

#: An expired generation is simply replaced by a new one (the caches miss once).
GENERATION_SECONDS = 24 * 3600
_PENDING_ATTRIBUTE = "bob_changed_tournaments"


def _key(slug: str) -> str:
    return f"bob:generation:{slug}"


def _new_token() -> str:
    return uuid.uuid4().hex[:16]


#: Tournaments whose new generation this process could not store (the shared cache was
#: unreachable), given one as soon as it can be stored again. Without this, a cache that
#: comes back with its data (Redis restarted from its append-only file) would serve the
#: pages of the old generation for as long as they are kept, although the data changed
#: meanwhile. Kept in the process that made the change, the only one that knows.
_owed: set[str] = set()


def current(slug: str) -> str:
    """The tournament's generation: one cache read while it is set (and, first, any new
    generation this process still owes the shared cache)."""
    if _owed:
        bump()
    key = _key(slug)
    token = cache.get(key)
    if token is None:
        token = _new_token()
        if not cache.add(key, token, GENERATION_SECONDS):
            token = cache.get(key) or token
    return token


def bump(*slugs: str) -> None:
    """Give the tournaments a new generation now (outside a transaction, or on commit); one
    the cache cannot store now is owed, and stored at the next use of the cache that
    works."""
    owed = {*slugs, *_owed}
    if not owed:
        return
    failed = cache.set_many({_key(slug): _new_token() for slug in owed}, GENERATION_SECONDS)
    _owed.clear()
    _owed.update(key.removeprefix(_key("")) for key in failed or ())


@memoize
def _upward(lookup: str) -> tuple[type[Model], str, str]:
    """For a ``Tournament`` lookup (``"stages__sessions"``): the model at its end
    (``Session``), the field of that model the values are matched against (``"pk"``) and the
    path from it up to the tournament's slug (``"stage__tournament__slug"``).

    The tournaments are then found by following foreign keys up from the written rows (an
    index lookup per row), never by joining every tournament down to its rows.
    """
    model: type[Model] = Tournament
    path: list[str] = ["slug"]
    match = "pk"
    for part in lookup.split("__"):
        if part == "pk":
            continue
        field = model._meta.get_field(part)
        if field.concrete:  # a forward key of the model reached so far: the values are its ids
            match = part
            break
        # A reverse relation (``stages``): down to its model, whose key points back up.
        back, below = field.remote_field, field.related_model
        assert back is not None and isinstance(below, type), lookup
        path.insert(0, back.name)
        model = below
    return model, match, "__".join(path)


class _Pending:
    """The tournaments changed in the connection's current transaction, by slug or by a
    ``Tournament`` lookup (``"pk"``, ``"stages__sessions"``...) and a value."""

    def __init__(self) -> None:
        self.slugs: set[str] = set()
        self.lookups: dict[str, set] = {}

    def slugs_to_bump(self) -> set[str]:
        """One indexed query per kind of written row, from the rows up to their tournament:
        its cost depends on the rows written, not on how many tournaments there are."""
        slugs = set(self.slugs)
        for lookup, values in self.lookups.items():
            model, match, path = _upward(lookup)
            rows = model._default_manager.filter(**{f"{match}__in": values})
            slugs.update(rows.values_list(path, flat=True).distinct())
        slugs.discard(None)
        return slugs


def _pending(using: str) -> _Pending:
    connection = transaction.get_connection(using)
    pending = getattr(connection, _PENDING_ATTRIBUTE, None)
    if pending is None:
        pending = _Pending()
        setattr(connection, _PENDING_ATTRIBUTE, pending)
    return pending


def _flush(using: str) -> None:
    connection = transaction.get_connection(using)
    pending = getattr(connection, _PENDING_ATTRIBUTE, None)
    if pending is None:
        return
    # Taken before the query below, which runs in autocommit and may not re-enter.
    setattr(connection, _PENDING_ATTRIBUTE, None)
    bump(*pending.slugs_to_bump())


def mark_changed(
    *,
    slug: str | None = None,
    lookup: str = "pk",
    value=None,
    using: str = DEFAULT_DB_ALIAS,
) -> None:
    """Bump the generation of the tournament with ``slug`` (or matching ``lookup=value``,
    e.g. ``mark_changed(value=tournament.pk)`` or ``lookup="stages__sessions"``) once the
    current transaction commits; at once outside a transaction.

    Every call registers the (cheap, idempotent) flush, so changes noted in a transaction
    that was rolled back are bumped with the next commit rather than lost or blocking it.
    """
    pending = _pending(using)
    if slug is not None:
        pending.slugs.add(slug)
    if value is not None:
        pending.lookups.setdefault(lookup, set()).add(value)
    transaction.on_commit(lambda: _flush(using), using=using, robust=True)
