"""What other apps hear about a seat: a player who forfeits a session (a no-show, or a
withdrawal once the session has started) has their figures leave play on the judge's board
(decision 34). The board app listens (``table.forfeits``); the tournament app never imports
it."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

from tournaments.models import Seat

#: Sent once the forfeit is committed, with ``seat`` (the forfeited Seat) and ``actor``.
seat_forfeited = Signal()


def announce_forfeit(seat: Seat, *, actor) -> None:
    """Tell the listeners after the current transaction commits: a board that cannot be
    changed (a judge editing it at that moment) never undoes the forfeit itself."""
    transaction.on_commit(
        lambda: seat_forfeited.send(sender=Seat, seat=seat, actor=actor), robust=True
    )
