"""Whether the tournament's squad order can still change (decision 59): the squad draw rolls
its dice in that order (RULES §3, §4), so once a draw was made, even one undone since (its
dice stay in the log), another order would make the recorded draw unreplayable."""

from __future__ import annotations

from tournaments.domain.roll_purposes import DRAW_PURPOSES
from tournaments.models import DiceRoll, Seat, Tournament


def squad_order_fixed(tournament: Tournament) -> bool:
    """Whether a squad draw was made: a seat holds a squad or a draw's die is recorded."""
    return (
        Seat.objects.filter(session__stage__tournament=tournament, squad__isnull=False).exists()
        or DiceRoll.objects.filter(tournament=tournament, purpose_code__in=DRAW_PURPOSES).exists()
    )
