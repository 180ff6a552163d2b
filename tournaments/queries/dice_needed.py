"""What the dashboard lists under the dice field of "Close the stage and seat the next": the
physical dice the close still needs, in rolling order, named with who rolls them and what
for. Worked out from the close's dry run (:func:`~tournaments.actions.stage_advance.
advance_dice_ahead`, an action: it plays the close and rolls it back) or from the answer a
refused close carries; this module only reads the names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.engine.dice_ahead import DiceAhead
from tournaments.domain.typed_dice import DiceRound, dice_rounds
from tournaments.models import Tournament
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.tournament_catalogue import squad_names


@dataclass(frozen=True)
class AdvanceDice:
    """What the advance form says about physical dice: nothing until they are chosen
    (``shown``), then the dice still needed, in rolling order, or what is wrong."""

    shown: bool = False
    ahead: DiceAhead | None = None
    rounds: tuple[DiceRound, ...] = ()
    error: str = ""


def listed_dice(
    tournament: Tournament, ahead: DiceAhead | None, players: Mapping[str, str] | None = None
) -> AdvanceDice:
    """What the form lists for ``ahead`` (the dry run's answer, which a refused close
    carries: :class:`~tournaments.actions.stage_advance.DiceRefused`, so the page is not
    worked out again); ``players``: :func:`registered_player_names`, when the caller read
    them already."""
    if ahead is None:
        return AdvanceDice(shown=True)
    names = registered_player_names(tournament) if players is None else players
    return AdvanceDice(
        shown=True, ahead=ahead, rounds=dice_rounds(ahead.next, names, squad_names(tournament))
    )
