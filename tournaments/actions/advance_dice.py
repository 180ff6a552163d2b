"""The physical dice the dashboard's "Close the stage and seat the next" needs, listed under
its dice field for the values typed so far (:func:`~tournaments.actions.stage_advance.
advance_dice_ahead`: the close itself, played with made-up dice and rolled back, which is
why this is an action although it keeps nothing); the list itself is
:func:`~tournaments.queries.dice_needed.listed_dice`, also used for a refused close."""

from __future__ import annotations

from rules.engine.dice import DiceError, DieKind
from tournaments.actions.stage_advance import StageError, advance_dice_ahead
from tournaments.domain.typed_dice import parse_typed_dice
from tournaments.models import Tournament
from tournaments.queries.dice_needed import AdvanceDice, listed_dice


def advance_dice(tournament: Tournament, typed: str) -> AdvanceDice:
    """The dice closing the open stage and seating the next needs after ``typed`` (the
    field's text); nothing is stored."""
    try:
        values = parse_typed_dice(typed, DieKind.D6)
        ahead = advance_dice_ahead(tournament, values)
    except (DiceError, StageError) as error:
        return AdvanceDice(shown=True, error=str(error))
    return listed_dice(tournament, ahead)
