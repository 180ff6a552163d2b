"""Announcing the seed of the app's next stage-deciding roll: its hash goes on the public
Dice page before anyone rolls, the seed itself only with the rolls (RULES.md §14)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from rules.engine.dice import new_seed, seed_commitment
from tournaments.caching import generations
from tournaments.models import SeedAnnouncement, Session, Tournament


def _pending(tournament: Tournament, purpose: str, session: Session | None):
    return SeedAnnouncement.objects.filter(
        tournament=tournament, session=session, purpose=purpose, used_at__isnull=True
    )


def announce_seed(
    tournament: Tournament, purpose: str, session: Session | None = None
) -> SeedAnnouncement:
    """The announced, not yet used seed for ``purpose`` (a new one when there is none)."""
    announced = _pending(tournament, purpose, session).first()
    if announced is not None:
        return announced
    seed = new_seed()
    try:
        with transaction.atomic():
            return SeedAnnouncement.objects.create(
                tournament=tournament,
                session=session,
                purpose=purpose,
                seed=str(seed),
                commitment=seed_commitment(seed),
            )
    except IntegrityError:  # announced meanwhile by another request: that one holds
        return _pending(tournament, purpose, session).get()


def close_announcement(
    tournament: Tournament, purpose: str, session: Session | None = None
) -> None:
    """The announced seed was rolled with (or set aside for typed dice): the next roll gets a
    new one. The row stays, so the page can show when its hash was published. (An update
    sends no signal: the tournament's cached pages are told here.)"""
    if _pending(tournament, purpose, session).update(used_at=timezone.now()):
        generations.mark_changed(value=tournament.pk)
