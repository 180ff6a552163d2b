"""The physical dice the dashboard's "Close the stage and seat the next" needs, listed under
its dice field for the values typed so far (:func:`~tournaments.actions.stage_advance.
advance_dice_ahead`: the close itself, played with made-up dice and rolled back)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.dice import DiceError, DieKind
from rules.engine.dice_ahead import DiceAhead
from tournaments.actions.stage_advance import StageError, advance_dice_ahead
from tournaments.domain.typed_dice import DiceRound, dice_rounds, parse_typed_dice
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


def advance_dice(tournament: Tournament, typed: str) -> AdvanceDice:
    """The dice closing the open stage and seating the next needs after ``typed`` (the
    field's text); nothing is stored."""
    try:
        values = parse_typed_dice(typed, DieKind.D6)
        ahead = advance_dice_ahead(tournament, values)
    except (DiceError, StageError) as error:
        return AdvanceDice(shown=True, error=str(error))
    if ahead is None:
        return AdvanceDice(shown=True)
    rounds = dice_rounds(ahead.next, registered_player_names(tournament), squad_names(tournament))
    return AdvanceDice(shown=True, ahead=ahead, rounds=rounds)
