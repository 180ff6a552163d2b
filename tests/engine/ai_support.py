"""Small boards and states for the Alien AI tests (not a test module itself)."""

from __future__ import annotations

from rules.engine.board import Board, Door, DoorState, Section, SectionKind, SquareKind
from rules.engine.geometry import edge
from rules.engine.state import Figure, GameState, Player, Stipulation
from rules.engine.units import load_rules_data

RULES = load_rules_data()


def make_board(
    width,
    height,
    *,
    solid=(),
    walls=(),
    doors=(),
    reinforcement=(),
    markers=None,
    sections=None,
):
    kinds = [
        SquareKind.SOLID if (x, y) in set(solid) else SquareKind.CORRIDOR
        for y in range(height)
        for x in range(width)
    ]
    return Board(
        width=width,
        height=height,
        kinds=kinds,
        walls=[edge(a, b) for a, b in walls],
        doors=[Door(edge(a, b), DoorState.CLOSED) for a, b in doors],
        sections=sections
        or [Section("A", SectionKind.BOARD, "all", ((0, 0, width - 1, height - 1),))],
        reinforcement_squares=reinforcement,
        markers=markers or {},
        name="test",
    )


def marine(fid, player, sq, unit="marine", weapons=("laser_rifle",), life_points=None):
    lp = life_points if life_points is not None else RULES.unit(unit).life_points
    return Figure(fid, "marine", player, unit, (tuple(sq),), lp, weapons=tuple(weapons))


def alien(fid, unit, sq, weapons=None, life_points=None):
    weapons = tuple(weapons if weapons is not None else RULES.unit(unit).weapons)
    if unit == "dreadnought":
        x, y = sq
        squares = ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))
    else:
        squares = (tuple(sq),)
    lp = life_points if life_points is not None else RULES.max_life_points(unit, weapons)
    return Figure(fid, "alien", None, unit, squares, lp, weapons=weapons)


def make_state(board, figures, players=("p1", "p2", "p3"), switches=None, **kw):
    return GameState(
        board=board,
        figures=tuple(figures),
        players=tuple(Player(p) for p in players),
        initiative=tuple(players),
        stipulation=Stipulation("alien_hunt", dict(switches or {})),
        surveyed_sections=tuple(s.id for s in board.sections),
        **kw,
    )


def steps_of(steps, code):
    return [s.params for s in steps if s.code == code]
