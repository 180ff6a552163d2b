"""Whose die each typed value is: the players a roll-off is among, by the id their rolls record."""

from __future__ import annotations

from tournaments.domain.typed_dice import subject_names
from tournaments.models import Player, Tournament


def registered_player_names(tournament: Tournament) -> dict[str, str]:
    """Whose die each typed value is, for a roll-off among the tournament's players."""
    return subject_names(Player.objects.filter(registrations__tournament=tournament))
