"""What a state remembers of the round being played and of the session so far.

Three records, each with its JSON form (``docs/state.md``, format ``bob-state/2``); a
state of format ``bob-state/1`` has none of them and loads with their defaults:

* :class:`TurnRecord` (``turn``): the active player's turn: the order card played, the
  figure it names, what each figure did (its phases and the squares of its last move);
  cleared when the turn passes.
* :class:`Progress` (``progress``): the session's progress: the Alien AI's (event cards
  drawn, Genestealer markers used, the Solitaire blip pile), the stipulation's (the round
  every alien was dead, the round the last event card was drawn, figures that left
  through a docking claw, the TPK stall-breaker's distances, the TPK squads eliminated in
  order), the players shielded from the next Alien turn by Blind Grenades and how many
  aliens and vehicles of each unit came into play (their numbers, the board's labels).
* :class:`Outcome` (``outcome``): the end of the game, once reached: why, in which round,
  the winners (and, in a TPK, every player's place).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

#: A figure's phases in a turn (RULES §10): a move, a shot, a hand-to-hand fight; and the
#: special equipment's (``rules.engine.vehicles``): a whole turn spent boarding or leaving
#: a vehicle, an extra-heavy weapon picked up.
MOVE = "move"
SHOT = "shot"
FIGHT = "fight"
VEHICLE = "vehicle"
PICKUP = "pickup"
PHASES = (MOVE, SHOT, FIGHT, VEHICLE, PICKUP)

#: Progress keys older states kept in ``stipulation.switches``.
LEGACY_SWITCHES = ("events_drawn", "genestealers_appeared", "blip_pile")


@dataclass(frozen=True)
class FigureTurn:
    """What one figure did this turn: its phases in order, the squares its current
    move has used (0 once something else followed the move) and, while its lascannon has
    shots left to fire after seeing the roll of the areas it fired, the shots fired so far
    (``volley``, 0 otherwise; game engine decision 31)."""

    phases: tuple[str, ...] = ()
    moved: int = 0
    volley: int = 0

    def count(self, phase: str) -> int:
        return self.phases.count(phase)

    @property
    def attacks(self) -> int:
        return self.count(SHOT) + self.count(FIGHT)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"phases": list(self.phases), "moved": self.moved}
        if self.volley:
            data["volley"] = self.volley
        return data


@dataclass(frozen=True)
class TurnRecord:
    """The turn in progress: order card (effect code) and the figure it names, if any;
    each figure that acted, by id; ``aliens_phase`` once every player has ended their
    turn (the Aliens' turn closes the round)."""

    order_card: str | None = None
    order_figure: str | None = None
    figures: Mapping[str, FigureTurn] = field(default_factory=lambda: MappingProxyType({}))
    aliens_phase: bool = False

    def of(self, figure_id: str) -> FigureTurn:
        return self.figures.get(figure_id) or FigureTurn()

    def with_figure(self, figure_id: str, done: FigureTurn) -> TurnRecord:
        figures = dict(self.figures)
        figures[figure_id] = done
        return replace(self, figures=MappingProxyType(figures))

    def to_json(self) -> dict[str, Any]:
        return {
            "order_card": self.order_card,
            "order_figure": self.order_figure,
            "figures": {fid: done.to_json() for fid, done in self.figures.items()},
            "aliens_phase": self.aliens_phase,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TurnRecord:
        data = data or {}
        return cls(
            data.get("order_card"),
            data.get("order_figure"),
            MappingProxyType(
                {
                    fid: FigureTurn(
                        tuple(done.get("phases", [])), done.get("moved", 0), done.get("volley", 0)
                    )
                    for fid, done in data.get("figures", {}).items()
                }
            ),
            bool(data.get("aliens_phase", False)),
        )


@dataclass(frozen=True)
class LeftPlay:
    """A figure that left play through a docking claw (RULES §10): safe, scores nothing
    more, never returns."""

    id: str
    player: str | None
    unit: str
    round: int


@dataclass(frozen=True)
class StallRound:
    """One round of the TPK stall breaker: each squad's path distance to the nearest
    enemy squad at the end of the round (None: no path), the points it got, and where
    each marine stood (figure id -> square), from which the next round's approach is
    measured."""

    round: int
    distances: Mapping[str, int | None]
    points: Mapping[str, int]
    squares: Mapping[str, tuple[int, int]] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Progress:
    events_drawn: tuple[str, ...] = ()
    genestealers_appeared: tuple[str, ...] = ()
    blip_pile: tuple[str, ...] | None = None
    aliens_cleared_round: int | None = None
    last_event_round: int | None = None
    left_play: tuple[LeftPlay, ...] = ()
    stall: tuple[StallRound, ...] = ()
    shielded: tuple[str, ...] = ()
    #: (player, limit) that an event card imposed on the player's next turn.
    limits: tuple[tuple[str, str], ...] = ()
    #: TPK: (player, round) of each squad left with no marine in play, in the order they
    #: went out (RULES §6: second place is the most points among the eliminated).
    eliminated: tuple[tuple[str, int], ...] = ()
    #: How many aliens and vehicles of each unit came into play, by unit: the number the
    #: last one took (``Figure.number``), so that no number is given twice in a game.
    arrivals: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        return {
            "events_drawn": list(self.events_drawn),
            "genestealers_appeared": list(self.genestealers_appeared),
            "blip_pile": None if self.blip_pile is None else list(self.blip_pile),
            "aliens_cleared_round": self.aliens_cleared_round,
            "last_event_round": self.last_event_round,
            "left_play": [
                {"id": f.id, "player": f.player, "unit": f.unit, "round": f.round}
                for f in self.left_play
            ],
            "stall": [
                {
                    "round": s.round,
                    "distances": dict(s.distances),
                    "points": dict(s.points),
                    "squares": {fid: list(sq) for fid, sq in s.squares.items()},
                }
                for s in self.stall
            ],
            "shielded": list(self.shielded),
            "limits": [{"player": p, "limit": limit} for p, limit in self.limits],
            # Written only once a squad is out, so that other states keep their JSON.
            **(
                {"eliminated": [{"player": p, "round": r} for p, r in self.eliminated]}
                if self.eliminated
                else {}
            ),
            **({"arrivals": dict(self.arrivals)} if self.arrivals else {}),
        }

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any] | None, legacy: Mapping[str, Any] | None = None
    ) -> Progress:
        """The progress in ``data``; keys still in the stipulation switches ``legacy`` (an
        older state) fill the ones ``data`` lacks."""
        old = {k: v for k, v in (legacy or {}).items() if k in LEGACY_SWITCHES}
        data = {**old, **{k: v for k, v in (data or {}).items() if v is not None}}
        pile = data.get("blip_pile")
        return cls(
            events_drawn=tuple(data.get("events_drawn") or ()),
            genestealers_appeared=tuple(data.get("genestealers_appeared") or ()),
            blip_pile=None if pile is None else tuple(pile),
            aliens_cleared_round=data.get("aliens_cleared_round"),
            last_event_round=data.get("last_event_round"),
            left_play=tuple(
                LeftPlay(f["id"], f.get("player"), f.get("unit", ""), f.get("round", 1))
                for f in data.get("left_play") or ()
            ),
            stall=tuple(
                StallRound(
                    s["round"],
                    MappingProxyType(dict(s.get("distances", {}))),
                    MappingProxyType(dict(s.get("points", {}))),
                    MappingProxyType(
                        {fid: (sq[0], sq[1]) for fid, sq in s.get("squares", {}).items()}
                    ),
                )
                for s in data.get("stall") or ()
            ),
            shielded=tuple(data.get("shielded") or ()),
            limits=tuple((x["player"], x["limit"]) for x in data.get("limits") or ()),
            eliminated=tuple((x["player"], x["round"]) for x in data.get("eliminated") or ()),
            arrivals=MappingProxyType(dict(data.get("arrivals") or {})),
        )


@dataclass(frozen=True)
class Outcome:
    """The game is over: ``reason`` (a code of ``narration_turns``), the round it ended
    in and the winning players (several on a tie)."""

    reason: str
    round: int
    winners: tuple[str, ...] = ()
    #: TPK: every player from first to last place: the survivors by points, then the
    #: eliminated by points (RULES §6); empty for the other stipulations.
    ranking: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "reason": self.reason,
            "round": self.round,
            "winners": list(self.winners),
        }
        if self.ranking:
            data["ranking"] = list(self.ranking)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Outcome | None:
        if not data:
            return None
        return cls(
            data["reason"],
            data["round"],
            tuple(data.get("winners", [])),
            tuple(data.get("ranking", [])),
        )


def without_legacy(switches: Mapping[str, Any]) -> dict[str, Any]:
    """The switches without the progress keys older states kept there."""
    return {k: v for k, v in switches.items() if k not in LEGACY_SWITCHES}
