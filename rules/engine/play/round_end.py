"""The end of a round and of the game (RULES §6, §10, §12): each stipulation played to its
end.

:func:`close_round` runs after the Alien turn (or, with nothing alien in play, when the
last player ended their turn): Blind Grenades stop shielding, the stipulation's end is
checked, and either the game ends (:class:`~rules.engine.session_records.Outcome`) or the
next round starts with the first player in initiative order. :func:`alien_turn_due` says
which of the two closes a round.

* Every stipulation: the game ends when no marine is left on the board; after the round
  in which the last event card was drawn every player has one last turn, with no Alien
  turn, and then the game ends (seed 004): marines still on the board are lost
  (:func:`last_round_without_aliens`).
* Alien Hunt: ``end_condition`` ``fixed_rounds`` ends after ``rounds``; ``aliens_dead``
  notes the round the last alien died (no alien, blip or reinforcement token left) and
  ends ``escape_rounds`` rounds later; marines not out through their claws are lost.
* Catch the Flag: ends after ``rounds``, if set.
* TPK and Extended TPK: a squad with no marine left in play is out at once
  (:func:`settle_eliminations`, called after every attack, removal and move that may
  take a squad's last marine away, and at the end of every round), recorded in order in
  ``progress.eliminated``; the game ends as soon as one squad (or none) has marines
  left, and the outcome ranks the survivors by points, then the eliminated by points
  (RULES §6: second place is the most points among the eliminated). The stall
  breaker (``stall_breaker``: ``from_round`` R, ``points`` B, ``growth``,
  ``max_extra_rounds`` K) measures at the end of every round from R-1 each squad's path
  distance to the nearest enemy squad (:func:`squad_distance`); from round R a squad that
  closed it by 4 or more by its own moves (its distance from where it stood at the last
  measurement, minus its distance now, both to the enemies where they stand now) gains B,
  every other squad loses B, B growing by ``growth`` each round; the game ends after
  round R+K, the most points among survivors winning.

A lost marine costs its owner its value, as a marine that dies (RULES §7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from rules.engine.geometry import Square
from rules.engine.kill_scores import add_score
from rules.engine.movement import UNREACHABLE, distance_to_adjacent
from rules.engine.narration import Step
from rules.engine.session_records import Outcome, StallRound, TurnRecord
from rules.engine.state import ALIEN, MARINE, GameState
from rules.engine.turns import players_in_game, turn_reminders
from rules.engine.units import RulesData

#: The distance a squad must close in a round to gain the stall breaker's points.
STALL_CLOSING = 4
TPK_TYPES = ("tpk", "extended_tpk")


def aliens_in_play(state: GameState) -> bool:
    """Whether anything alien is left: a figure, a blip, a reinforcement token."""
    return bool(state.aliens() or state.blips or state.reinforcements)


def last_round_without_aliens(state: GameState) -> bool:
    """Whether this is the players' last turn after the last event card (no Alien turn)."""
    last = state.progress.last_event_round
    return last is not None and state.round > last


def alien_turn_due(state: GameState) -> bool:
    """Whether the round ends with an Alien turn: the session plays with aliens, and an
    alien, a blip or a reinforcement token is in play or the event deck is in use; never
    in the one last turn the players play after the last event card. Otherwise the round
    is closed by :func:`close_round` alone (the board's "Next round")."""
    stipulation = state.stipulation
    if not stipulation.with_aliens or last_round_without_aliens(state):
        return False
    return aliens_in_play(state) or stipulation.uses_event_deck


def squad_distance(state: GameState, player: str) -> int | None:
    """Squares the nearest of ``player``'s marines must move to stand orthogonally
    adjacent to another squad's figure (the engine's path distances, doors openable);
    None when no enemy squad can be reached."""
    enemies = [p for p in players_in_game(state) if p != player]
    best = UNREACHABLE
    for figure in state.figures_of(player):
        if figure.side != MARINE or len(figure.squares) != 1:
            continue
        for enemy in enemies:
            best = min(best, distance_to_adjacent(state, figure.id, enemy))
    return None if best >= UNREACHABLE else best


def close_round(state: GameState, rules: RulesData) -> tuple[GameState, list[Step]]:
    """End the round just played: check the stipulation's end, then start the next round
    (or record the outcome)."""
    if state.outcome is not None:
        return state, []
    state, steps = settle_eliminations(state, rules)
    if state.outcome is not None:
        return state, steps
    state = state.replace(progress=replace(state.progress, shielded=()))
    state, ending = _stipulation_end(state, rules, steps)
    if ending is None and not players_in_game(state):
        ending = "nobody_left"
    if ending is not None:
        return _game_over(state, ending, rules, steps)
    playing = players_in_game(state)
    first = playing[0]
    state = state.replace(round=state.round + 1, active_player=first, turn=TurnRecord())
    steps.append(Step("round_starts", {"round": state.round, "player": first}))
    return state, steps + turn_reminders(state, first)


def settle_eliminations(state: GameState, rules: RulesData) -> tuple[GameState, list[Step]]:
    """TPK and Extended TPK: record every squad left with no marine in play as eliminated
    (in order, with the round), and end the game at once when one squad or none is left
    (RULES §6). Other stipulations, and a game already over, are left as they are."""
    if state.outcome is not None or state.stipulation.type not in TPK_TYPES:
        return state, []
    standing = players_in_game(state)
    gone = {player for player, _round in state.progress.eliminated}
    order = list(state.initiative) or [p.id for p in state.players]
    out = [p for p in order if p not in standing and p not in gone]
    steps = [Step("squad_eliminated", {"player": p, "round": state.round}) for p in out]
    if out:
        eliminated = (*state.progress.eliminated, *((p, state.round) for p in out))
        state = state.replace(progress=replace(state.progress, eliminated=eliminated))
    if len(standing) <= 1:
        return _game_over(state, "last_squad" if standing else "no_squad", rules, steps)
    return state, steps


def _stipulation_end(
    state: GameState, rules: RulesData, steps: list[Step]
) -> tuple[GameState, str | None]:
    switches = state.stipulation.switches
    kind = state.stipulation.type
    played = state.round
    if kind in TPK_TYPES:
        return _tpk_end(state, switches, steps)
    last = state.progress.last_event_round
    if last is not None and played > last:
        return state, "last_event_card"
    if last is not None and played == last:
        steps.append(Step("last_event_card", {}))
        return state, None
    rounds = switches.get("rounds")
    if kind == "alien_hunt" and switches.get("end_condition") == "aliens_dead":
        return _escape_end(state, switches, steps)
    if isinstance(rounds, int) and played >= rounds:
        return state, "rounds_played"
    return state, None


def _escape_end(state: GameState, switches: Any, steps: list[Step]) -> tuple[GameState, str | None]:
    cleared = state.progress.aliens_cleared_round
    escape = int(switches.get("escape_rounds") or 1)
    if cleared is None:
        if aliens_in_play(state):
            return state, None
        cleared = state.round
        state = state.replace(progress=replace(state.progress, aliens_cleared_round=cleared))
        steps.append(Step("aliens_cleared", {"rounds": escape, "last": cleared + escape}))
    if state.round >= cleared + escape:
        return state, "escape_over"
    return state, None


def _tpk_end(state: GameState, switches: Any, steps: list[Step]) -> tuple[GameState, str | None]:
    standing = players_in_game(state)
    if len(standing) <= 1:
        return state, "last_squad" if standing else "no_squad"
    stall = switches.get("stall_breaker")
    if not stall:
        return state, None
    start = int(stall["from_round"])
    played = state.round
    if played < start - 1:
        return state, None
    distances = {p: squad_distance(state, p) for p in standing}
    points: dict[str, int] = {}
    last = state.progress.stall[-1] if state.progress.stall else None
    if played >= start and last is not None:
        b = int(stall["points"]) + int(stall.get("growth", 0) or 0) * (played - start)
        for player in standing:
            old, new = (
                squad_distance(_stood(state, player, last.squares), player),
                distances[player],
            )
            closed = old is not None and new is not None and old - new >= STALL_CLOSING
            points[player] = b if closed else -b
            state = add_score(state, player, points[player])
            steps.append(
                Step(
                    "stall_round",
                    {
                        "round": played,
                        "player": player,
                        "distance": new,
                        "before": old,
                        "points": points[player],
                    },
                )
            )
    squares = {
        f.id: f.squares[0]
        for f in state.figures
        if f.side == MARINE and f.player in standing and len(f.squares) == 1
    }
    record = StallRound(
        played, MappingProxyType(distances), MappingProxyType(points), MappingProxyType(squares)
    )
    state = state.replace(progress=replace(state.progress, stall=(*state.progress.stall, record)))
    if played >= start + int(stall["max_extra_rounds"]):
        return state, "stall_limit"
    return state, None


def _stood(state: GameState, player: str, squares: Mapping[str, Square]) -> GameState:
    """``state`` with ``player``'s marines back on the ``squares`` they stood on (those
    still free; the others where they are now)."""
    for figure in state.figures_of(player):
        old = squares.get(figure.id)
        if old is None or old == figure.squares[0] or len(figure.squares) != 1:
            continue
        if state.figure_at(old) is None and state.blip_at(old) is None:
            state = state.with_figure(figure.moved_to((old,)))
    return state


def _game_over(
    state: GameState, ending: str, rules: RulesData, steps: list[Step]
) -> tuple[GameState, list[Step]]:
    if ending in ("last_event_card", "escape_over"):
        state = _marines_lost(state, rules, steps)
    winners = _winners(state, ending)
    ranking = _tpk_ranking(state) if state.stipulation.type in TPK_TYPES else ()
    state = state.replace(
        outcome=Outcome(ending, state.round, winners, ranking),
        active_player=None,
        turn=TurnRecord(),
    )
    steps.append(Step("game_over", {"ending": ending, "winners": list(winners)}))
    if ranking:
        steps.append(Step("tpk_ranking", {"ranking": list(ranking)}))
    return state, steps


def _tpk_ranking(state: GameState) -> tuple[str, ...]:
    """Every player from first place to last in a TPK (RULES §6, ``docs/decisions.md``):
    the squads still standing by points, then the eliminated by points; on equal points
    the squad eliminated later first (the judge's roll-off settles a tie that matters,
    RULES §8)."""
    scores = {p.id: p.score for p in state.players}
    standing = players_in_game(state)
    out = [player for player, _round in state.progress.eliminated if player not in standing]
    order = list(state.initiative) or [p.id for p in state.players]
    unlisted = [p for p in order if p not in standing and p not in out]
    survivors = sorted(standing, key=lambda p: -scores.get(p, 0))
    eliminated = sorted(reversed([*unlisted, *out]), key=lambda p: -scores.get(p, 0))
    return (*survivors, *eliminated)


def _marines_lost(state: GameState, rules: RulesData, steps: list[Step]) -> GameState:
    """Marines still on the board are lost: off the board, their owners losing their
    value; nobody killed them, and the log says they were left behind (game engine
    decision 33). Vehicles are left where they stand (their crew is lost)."""
    for figure in list(state.figures):
        if figure.side != MARINE or figure.player is None or figure.side == ALIEN:
            continue
        if figure.unit == "tarantula" or figure.is_dreadnought:
            continue
        value = rules.marine_value(figure.unit, figure.weapons)
        state = add_score(state.without_figure(figure.id), figure.player, -value)
        steps.append(Step("marine_lost", {"figure": figure.id}))
        params = {"player": figure.player, "points": value, "target": figure.id}
        steps.append(Step("score_left_behind", params))
    return state


def _winners(state: GameState, ending: str) -> tuple[str, ...]:
    """The winners: in a TPK the last squad, or the most points among the survivors (or,
    with none, among everyone); otherwise the most points."""
    pool = [p.id for p in state.players]
    if state.stipulation.type in TPK_TYPES:
        standing = players_in_game(state)
        if len(standing) == 1:
            return tuple(standing)
        pool = standing or pool
    if not pool:
        return ()
    scores = {p.id: p.score for p in state.players}
    best = max(scores[p] for p in pool)
    return tuple(p for p in pool if scores[p] == best)
