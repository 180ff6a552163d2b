"""The tournament's players by the id their rolls record: whose die each typed value is in
a roll-off, and how a stage's close names the players it reports."""

from __future__ import annotations

from tournaments.domain.typed_dice import subject_names
from tournaments.models import Player, Tournament


def registered_player_names(tournament: Tournament) -> dict[str, str]:
    """The display name of every player registered in ``tournament`` (withdrawn ones too),
    by player id as text: whose die each typed value is, for a roll-off among them."""
    return subject_names(Player.objects.filter(registrations__tournament=tournament))
