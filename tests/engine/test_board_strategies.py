"""Hypothesis strategies shared by the board, line-of-sight and movement property tests:
random small boards (square kinds, walls, every door state, a docking claw) with random
figures of three sides (aliens, player p1, player p2), sometimes with a Dreadnought."""

from hypothesis import strategies as st

from rules.engine.board import Board, DockingClaw, Door, DoorState, SquareKind
from rules.engine.geometry import block_2x2
from rules.engine.state import Figure, build_state

EDGE_FEATURES = ["free"] * 7 + ["wall"] * 3 + ["closed", "open", "bulkhead", "destroyed"]
KINDS = [SquareKind.CORRIDOR] * 5 + [SquareKind.ROOM] * 3 + [SquareKind.SOLID] * 2


@st.composite
def boards(draw, min_size=3, max_size=7):
    w = draw(st.integers(min_size, max_size))
    h = draw(st.integers(min_size, max_size))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=w * h, max_size=w * h))
    walls, doors = [], []
    for y in range(h):
        for x in range(w):
            for b in ((x + 1, y), (x, y + 1)):
                if b[0] >= w or b[1] >= h:
                    continue
                feature = draw(st.sampled_from(EDGE_FEATURES))
                solid = SquareKind.SOLID in (kinds[x + y * w], kinds[b[0] + b[1] * w])
                if feature == "wall":
                    walls.append(((x, y), b))
                elif feature != "free" and not solid:
                    doors.append(Door(((x, y), b), DoorState(feature)))
    open_squares = [
        (x, y) for y in range(h) for x in range(w) if kinds[x + y * w] is not SquareKind.SOLID
    ]
    claws = []
    if open_squares and draw(st.booleans()):
        claws.append(DockingClaw("1", "Claw 1", (draw(st.sampled_from(open_squares)),)))
    return Board(width=w, height=h, kinds=kinds, walls=walls, doors=doors, claws=claws)


OWNERS = [("alien", None, "ork"), ("marine", "p1", "marine"), ("marine", "p2", "marine")]


@st.composite
def states(draw, max_figures=6, dreadnought=False, max_size=7):
    board = draw(boards(max_size=max_size))
    free = [sq for sq in board.squares() if not board.is_solid(sq)]
    figures = []
    taken: set = set()
    if dreadnought:
        anchors = [
            sq
            for sq in board.squares()
            if board.in_bounds((sq[0] + 1, sq[1] + 1)) and board.dread_doors[board.index(sq)] == ()
        ]
        side, player, _ = draw(st.sampled_from(OWNERS))
        if side == "alien":
            anchors = [a for a in anchors if not any(board.claw_of(s) for s in block_2x2(a))]
        if anchors:
            anchor = draw(st.sampled_from(anchors))
            squares = block_2x2(anchor)
            figures.append(Figure("dread", side, player, "dreadnought", squares, 3))
            taken.update(squares)
    count = draw(st.integers(0, max_figures))
    for i in range(count):
        side, player, unit = draw(st.sampled_from(OWNERS))
        options = [
            sq for sq in free if sq not in taken and (side != "alien" or board.claw_of(sq) is None)
        ]
        if not options:
            break
        sq = draw(st.sampled_from(options))
        figures.append(Figure(f"f{i}", side, player, unit, (sq,), 1))
        taken.add(sq)
    return build_state(board, figures)
