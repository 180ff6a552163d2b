"""The physical dice the dashboard's stage buttons need, listed under their dice field for
the values typed so far: "Close the stage and seat the next" (:func:`~tournaments.actions.
stage_advance.advance_dice_ahead`) and "Seat the first stage" (:func:`~tournaments.actions.
stage_advance.start_dice_ahead`). Each is the write itself, played with made-up dice and
rolled back, which is why this is an action although it keeps nothing; the list itself is
:func:`~tournaments.queries.dice_needed.listed_dice`, also used for a refused close."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.engine.dice import DiceError, DieKind
from rules.engine.dice_ahead import DiceAhead
from tournaments.actions.stage_advance import StageError, advance_dice_ahead, start_dice_ahead
from tournaments.domain.typed_dice import parse_typed_dice
from tournaments.models import Tournament
from tournaments.queries.dice_needed import AdvanceDice, listed_dice


def advance_dice(tournament: Tournament, typed: str) -> AdvanceDice:
    """The dice closing the open stage and seating the next needs after ``typed`` (the
    field's text); nothing is stored."""
    return _listed(tournament, typed, advance_dice_ahead)


def start_dice(tournament: Tournament, typed: str) -> AdvanceDice:
    """The dice seating the first stage needs after ``typed``; nothing is stored."""
    return _listed(tournament, typed, start_dice_ahead)


def _listed(
    tournament: Tournament,
    typed: str,
    ahead_of: Callable[[Tournament, Sequence[int]], DiceAhead | None],
) -> AdvanceDice:
    try:
        values = parse_typed_dice(typed, DieKind.D6)
        ahead = ahead_of(tournament, values)
    except (DiceError, StageError) as error:
        return AdvanceDice(shown=True, error=str(error))
    return listed_dice(tournament, ahead)
