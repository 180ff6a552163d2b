"""What a finished game adds to the result it proposes, beyond kills and losses (RULES §6, §7).

:func:`table.result_from_game.propose_result` replays the deaths; this module completes its
breakdowns from the rest of the game's record, so that the judge's result form is filled in
every field it has:

* **objectives**: each flag a marine brought home through its own claw (the engine's
  ``flag_scored`` step, on the game's current line) is an objective row worth the
  stipulation's ``flag_value`` (what the step says the player scored);
* **stall breaker**: each round of the TPK stall breaker the engine measured
  (``progress.stall`` of the latest state) is a row of the points each squad got;
* **alien tokens** take the points the tournament's catalogue gives their alien (the one
  source of truth for token values; a game keeps the rules data of its setup, which the
  organiser may have changed since), when the catalogue gives exactly one value;
* **survivors**: squads with a marine still on the board; a marine out through a docking
  claw left play (safe, but no longer in play), as the engine's TPK rule counts it;
* **the end**: the game's outcome (why, in which round, the winners), so the page can say
  whether the game is over.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules.engine.narration import format_param
from rules.engine.session_records import Outcome
from rules.engine.state import MARINE, GameState
from table.models import Snapshot
from table.seating import game_player_id
from table.step_log import narration_language
from tournaments.domain.scoring import (
    AlienTokens,
    ObjectivePoints,
    SeatBreakdown,
    StallBreakerRound,
)
from tournaments.domain.stored_labels import FLAG_BROUGHT_HOME
from tournaments.models import Seat

#: The engine step of a flag brought home (``rules.engine.flags.bring_home``).
FLAG_SCORED = "flag_scored"


@dataclass(frozen=True)
class GameEnd:
    """How a finished game ended: the engine's reason code and its text in the page's
    language, its round, the winning seats (player ids, several on a tie) and their names."""

    reason: str
    reason_text: str
    round: int
    winners: tuple[int, ...]
    winner_names: tuple[str, ...]


def flag_objectives(line: Sequence[Snapshot]) -> dict[str, list[ObjectivePoints]]:
    """The flags brought home along ``line``, by the game's player id (``p<seat order>``)."""
    found: dict[str, list[ObjectivePoints]] = defaultdict(list)
    for snapshot in line:
        for step in snapshot.steps or ():
            if step.get("code") != FLAG_SCORED:
                continue
            params = step.get("params") or {}
            found[str(params.get("player", ""))].append(
                ObjectivePoints(FLAG_BROUGHT_HOME, int(params.get("points", 0) or 0))
            )
    return found


def stall_rounds(state: GameState) -> dict[str, list[StallBreakerRound]]:
    """The stall breaker's points of each round it scored, by the game's player id."""
    found: dict[str, list[StallBreakerRound]] = defaultdict(list)
    for record in state.progress.stall:
        for player, points in record.points.items():
            found[player].append(StallBreakerRound(record.round, int(points)))
    return found


def catalogue_tokens(
    tokens: Sequence[AlienTokens], value_of: Mapping[str, int | None]
) -> tuple[AlienTokens, ...]:
    """``tokens`` valued as the catalogue says (``value_of``: alien type -> its single
    value, None when it has none or several), counts of the same type and value merged."""
    merged: dict[tuple[str, int], int] = {}
    for token in tokens:
        value = value_of.get(token.alien_type)
        key = (token.alien_type, token.value if value is None else value)
        merged[key] = merged.get(key, 0) + token.count
    return tuple(AlienTokens(alien, value, count) for (alien, value), count in merged.items())


def survivors(state: GameState, seats: Sequence[Seat]) -> tuple[int, ...]:
    """Seats whose squad still has a marine in play: on the board (a Dreadnought's pilot
    counts, a vehicle not). A marine out through a docking claw, by a move or a judge's
    removal, left play (RULES §10) and is no survivor, in every stipulation (game engine
    decision 18)."""
    alive = {
        f.player
        for f in state.figures
        if f.side == MARINE and f.unit != "tarantula" and not f.is_dreadnought
    }
    return tuple(seat.player_id for seat in seats if game_player_id(seat) in alive)


def game_end(outcome: Outcome | None, seats: Sequence[Seat]) -> GameEnd | None:
    """The outcome in terms of the session's seats (None while the game goes on)."""
    if outcome is None:
        return None
    by_id = {game_player_id(seat): seat for seat in seats}
    winners = [by_id[p] for p in outcome.winners if p in by_id]
    return GameEnd(
        reason=outcome.reason,
        reason_text=format_param("ending", outcome.reason, narration_language()),
        round=outcome.round,
        winners=tuple(seat.player_id for seat in winners),
        winner_names=tuple(seat.player.display_name for seat in winners),
    )


def complete_breakdowns(
    breakdowns: Sequence[SeatBreakdown],
    seats: Sequence[Seat],
    line: Sequence[Snapshot],
    state: GameState,
    token_values: Mapping[str, int | None],
) -> tuple[SeatBreakdown, ...]:
    """``breakdowns`` (one per seat, in seat order) with the game's objectives, stall
    breaker rounds and catalogue token values."""
    flags = flag_objectives(line)
    stall = stall_rounds(state)
    out = []
    for seat, breakdown in zip(seats, breakdowns, strict=True):
        player = game_player_id(seat)
        out.append(
            replace(
                breakdown,
                alien_tokens=catalogue_tokens(breakdown.alien_tokens, token_values),
                objectives=(*breakdown.objectives, *flags.get(player, ())),
                stall_breaker=(*breakdown.stall_breaker, *stall.get(player, ())),
            )
        )
    return tuple(out)
