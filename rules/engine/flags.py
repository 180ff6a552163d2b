"""Catch the Flag (RULES §6): placing the flags, finding, picking up, carrying, dropping
and bringing them home.

* Placement (:func:`place_flags`): one flag per squad (``one_per_squad``), two
  (``two_for_three``) or one (``one_for_all``), on the map's flag spots in reading order;
  ``hidden_flags`` places them hidden.
* A hidden flag is found when a marine-side figure sees its square (figures do not block
  that sight, as for blips); a marine-side figure (not a vehicle) ending a move on a
  flag's square picks it up (:func:`after_move`). A carried flag has no square: it goes
  where its carrier goes.
* When its carrier is killed or taken off the board, the flag drops on the carrier's
  last square (:func:`drop_flags`).
* A carrier leaving play through its own squad's docking claw scores the stipulation's
  ``flag_value`` for its player and the flag leaves play (:func:`bring_home`); through
  another claw, the flag drops on the claw square it left from.
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine.geometry import Square
from rules.engine.kill_scores import add_score
from rules.engine.los import line_of_sight
from rules.engine.narration import Step
from rules.engine.state import MARINE, Flag, GameState

#: How many flags each ``flags`` setting places, by the number of squads.
FLAG_COUNTS = {
    "one_per_squad": lambda squads: squads,
    "two_for_three": lambda squads: 2 if squads >= 3 else 1,
    "one_for_all": lambda squads: 1,
}
VEHICLES = ("tarantula",)


def flags_to_place(state: GameState) -> bool:
    """Whether the map's flag spots still wait for their flags: a Catch the Flag state
    without flags yet (no other stipulation uses the spots)."""
    return state.stipulation.type == "catch_the_flag" and not state.flags


def place_flags(state: GameState) -> GameState:
    """The state with the stipulation's flags on the map's flag spots (a Catch the Flag
    state without flags yet; any other state is returned as it is)."""
    if not flags_to_place(state):
        return state
    switches = state.stipulation.switches
    rule = FLAG_COUNTS.get(
        str(switches.get("flags", "one_per_squad")), FLAG_COUNTS["one_per_squad"]
    )
    spots = sorted(state.board.flag_spots, key=lambda sq: (sq[1], sq[0]))
    count = min(len(spots), rule(len(state.players)))
    hidden = bool(switches.get("hidden_flags", False))
    flags = tuple(Flag(f"flag-{n + 1}", spots[n], None, hidden) for n in range(count))
    return state.replace(flags=flags)


def _with_flag(state: GameState, flag: Flag) -> GameState:
    return state.replace(flags=tuple(flag if f.id == flag.id else f for f in state.flags))


def _sees(state: GameState, sq: Square) -> bool:
    return any(
        line_of_sight(state, mine, sq, for_firing=False).visible
        for f in state.figures
        if f.side == MARINE
        for mine in f.squares
    )


def after_move(state: GameState, figure_id: str) -> tuple[GameState, list[Step]]:
    """After a marine-side move: hidden flags now in sight are found; the mover picks up
    a flag lying on its square."""
    steps: list[Step] = []
    for flag in state.flags:
        if flag.hidden and flag.square is not None and _sees(state, flag.square):
            state = _with_flag(state, replace(flag, hidden=False))
            steps.append(Step("flag_found", {"flag": flag.id, "square": list(flag.square)}))
    figure = state.figure(figure_id)
    if figure.unit in VEHICLES or figure.is_dreadnought or figure.side != MARINE:
        return state, steps
    carrying = any(f.carried_by == figure_id for f in state.flags)
    for flag in state.flags:
        if not carrying and flag.square is not None and flag.square in figure.squares:
            state = _with_flag(state, Flag(flag.id, None, figure_id, False))
            steps.append(Step("flag_picked_up", {"flag": flag.id, "figure": figure_id}))
            carrying = True
    return state, steps


def drop_flags(before: GameState, after: GameState) -> tuple[GameState, list[Step]]:
    """``after`` with the flags whose carrier is gone dropped on the carrier's last square
    in ``before``."""
    steps: list[Step] = []
    for flag in after.flags:
        carrier = flag.carried_by
        if carrier is None or after.has_figure(carrier) or not before.has_figure(carrier):
            continue
        squares = before.figure(carrier).squares
        if not squares:
            continue
        where = squares[0]
        after = _with_flag(after, Flag(flag.id, where, None, False))
        steps.append(Step("flag_dropped", {"flag": flag.id, "square": list(where)}))
    return after, steps


def bring_home(state: GameState, figure_id: str, claw: str | None) -> tuple[GameState, list[Step]]:
    """The figure ``figure_id`` is leaving play through ``claw``: a flag it carries scores
    if the claw is its squad's (and leaves play), else drops where the figure stands."""
    flag = next((f for f in state.flags if f.carried_by == figure_id), None)
    if flag is None:
        return state, []
    figure = state.figure(figure_id)
    player = state.player(figure.player) if figure.player else None
    if player is not None and player.claw is not None and player.claw == claw:
        value = int(state.stipulation.switches.get("flag_value", 0) or 0)
        state = state.replace(flags=tuple(f for f in state.flags if f.id != flag.id))
        state = add_score(state, player.id, value)
        return state, [Step("flag_scored", {"flag": flag.id, "player": player.id, "points": value})]
    where = figure.squares[0]
    state = _with_flag(state, Flag(flag.id, where, None, False))
    return state, [Step("flag_dropped", {"flag": flag.id, "square": list(where)})]
