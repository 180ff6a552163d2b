"""Blips, Genestealers and reinforcements (RULES §10 "Blips (BoB)").

* :func:`survey_section`: the first time a marine enters a section, that section's blips
  go on the squares the session map marks (the marker gives the hidden type).
* :func:`reveal_after_move`: after a marine moves (or stops to survey), every blip a
  marine can see (figures do not block this sight) turns into its alien, and every
  Genestealer marker of a surveyed section that a marine can see brings a Genestealer (no
  token: no points). The survey is a parameter: the Solitaire policy passes its own
  (:func:`rules.engine.ai.solitaire_policy.reveal_after_move`), which uses no markers.
* :func:`reveal_after_door`: the same reveal after a door opens, whoever opened it, with
  no survey (nobody moved).
* :func:`reveal_blip` of a special-equipment blip (the stipulation's ``equipment_blips``)
  puts what it hid on the board: an abandoned Tarantula or Dreadnought (a marine-side
  figure of nobody, ``docs/turns.md`` "Special equipment"), or an extra-heavy weapon
  lying on the blip's square (an item of the state).
* :func:`place_reinforcements`: reinforcement tokens enter on R squares that are free and
  out of every marine's sight, chosen by the dice.

A session without aliens (the switch ``aliens`` false, ``Stipulation.with_aliens``; Catch
the Flag and TPK, RULES §6) brings none: a survey places only the special-equipment blips,
no Genestealer marker is watched, no reinforcement enters, and a blip that would hide an
alien (one an older state or an upload carries) leaves the board when seen, with nothing
in its place (``docs/decisions.md``).

Genestealer markers already used are kept in the state's progress (see progress.py).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engine.dice import Dice
from rules.engine.geometry import Facing, Square, block_2x2, format_square
from rules.engine.los import line_of_sight
from rules.engine.narration import Step
from rules.engine.play.chance import random_index
from rules.engine.play.progress import with_progress
from rules.engine.state import ALIEN, MARINE, Blip, Figure, GameState, Item, Token, rules_of
from rules.engine.tarantula import TARANTULA
from rules.engine.units import RulesData, RulesDataError

GENESTEALER = "genestealer"
DREADNOUGHT = "dreadnought"
#: What a special-equipment blip hides for the Dreadnought a marine may pilot (a blip of
#: type ``dreadnought`` is the Aliens' own).
ABANDONED_DREADNOUGHT = "abandoned_dreadnought"

#: What a special-equipment blip may hide (the stipulation's ``equipment_blips``).
FOUND_EQUIPMENT = (TARANTULA, ABANDONED_DREADNOUGHT, "lascannon", "melta", "conversion_beamer")

#: How a newly entered section is surveyed: ``(state, section id) -> (state, steps)``.
Survey = Callable[[GameState, str], tuple[GameState, list[Step]]]


def new_figure_id(state: GameState, base: str) -> str:
    """``base`` (built from the blip, marker or token the alien comes from, so an id is
    never reused in a session), with a suffix in the unlikely case it is taken."""
    candidate, n = base, 1
    while state.has_figure(candidate):
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def marines_on_board(state: GameState) -> list[Figure]:
    """The marine side's figures on the board (an abandoned vehicle, nobody's, is none)."""
    return [f for f in state.figures if f.side == MARINE and f.on_board and f.player is not None]


def in_marine_sight(state: GameState, sq: Square, marines: list[Figure] | None = None) -> bool:
    """True if any marine on the board sees ``sq`` (figures do not block this sight)."""
    for marine in marines if marines is not None else marines_on_board(state):
        for origin in marine.squares:
            if line_of_sight(state, origin, sq, for_firing=False).visible:
                return True
    return False


def _dreadnought_block(state: GameState, sq: Square) -> tuple[Square, ...] | None:
    """A free 2x2 block holding ``sq`` where a Dreadnought may stand (not under a door)."""
    board = state.board
    fallback = None
    for dx, dy in ((0, 0), (-1, 0), (0, -1), (-1, -1)):
        corner = (sq[0] + dx, sq[1] + dy)
        if not (0 <= corner[0] < board.width - 1 and 0 <= corner[1] < board.height - 1):
            continue
        doors = board.dread_doors[board.index(corner)]
        squares = block_2x2(corner)
        if doors is None or any(state.figure_at(s) is not None for s in squares):
            continue
        if any(b.square in squares and b.square != sq for b in state.blips):
            continue
        if not doors:
            return squares
        fallback = fallback or squares
    return fallback


def _tarantula_squares(state: GameState, sq: Square) -> tuple[Square, Facing] | None:
    """Where a found Tarantula stands: its centre on the blip's square, its front on the
    first free neighbour (north, east, south, west) whose opposite square is free too, so a
    gunner can board; else on the first free neighbour; None without one."""
    board = state.board

    def free(a: Square, b: Square) -> bool:
        return (
            board.in_bounds(b)
            and not board.is_solid(b)
            and state.figure_at(b) is None
            and state.blip_at(b) is None
            and state.edge_open(a, b)
        )

    fronts = [f for f in Facing if free(sq, (sq[0] + f.delta[0], sq[1] + f.delta[1]))]
    for facing in fronts:
        if free(sq, (sq[0] - facing.delta[0], sq[1] - facing.delta[1])):
            return (sq[0] + facing.delta[0], sq[1] + facing.delta[1]), facing
    if fronts:
        facing = fronts[0]
        return (sq[0] + facing.delta[0], sq[1] + facing.delta[1]), facing
    return None


def place_found_equipment(
    state: GameState, blip: Blip, rules: RulesData
) -> tuple[GameState, list[Step]]:
    """Put what a special-equipment blip hid on the board (the blip is already gone): an
    abandoned Tarantula or Dreadnought, nobody's until a marine boards it, or an
    extra-heavy weapon lying on the square."""
    where = {"square": list(blip.square), "item": blip.type}
    origin = f"{blip.square[0]}-{blip.square[1]}"
    figure: Figure | None = None
    if blip.type == TARANTULA:
        placed = _tarantula_squares(state, blip.square)
        if placed is not None:
            front, facing = placed
            figure = Figure(
                id=new_figure_id(state, f"tarantula-{origin}"),
                side=MARINE,
                player=None,
                unit=TARANTULA,
                squares=(front, blip.square),
                life_points=rules.unit(TARANTULA).life_points,
                facing=facing,
                weapons=tuple(rules.unit(TARANTULA).weapons),
            )
            state = state.with_arrival(figure)
    elif blip.type == ABANDONED_DREADNOUGHT:
        state, figure = spawn_alien(state, rules, DREADNOUGHT, blip.square, origin, side=MARINE)
    else:
        item = Item(f"item-{origin}", blip.square, blip.type)
        state = state.replace(items=(*state.items, item))
        return state, [Step("equipment_found_weapon", {**where, "weapon": blip.type})]
    if figure is None:
        return state, [Step("equipment_no_room", where)]
    return state, [Step("equipment_found_vehicle", {**where, "figure": figure.id})]


def spawn_alien(
    state: GameState, rules: RulesData, unit: str, sq: Square, origin: str, *, side: str = ALIEN
) -> tuple[GameState, Figure | None]:
    """Put a fresh alien of ``unit`` on ``sq`` (a Dreadnought on a 2x2 block holding it);
    with ``side`` marine, an abandoned Dreadnought for a marine to pilot, always of a class
    (the session's, else the first of the data)."""
    unit_type = rules.unit(unit)
    squares: tuple[Square, ...] | None = (sq,)
    if unit_type.size == 4 or unit == DREADNOUGHT:
        squares = _dreadnought_block(state, sq)
    elif state.figure_at(sq) is not None:
        squares = None
    if squares is None:
        return state, None
    weapons = tuple(unit_type.weapons)
    equipment: tuple[str, ...] = ()
    cls = state.stipulation.switches.get("dreadnought_class")
    if side == MARINE and not (isinstance(cls, str) and cls in rules.dreadnought_classes):
        cls = next(iter(rules.dreadnought_classes))
    if unit == DREADNOUGHT and isinstance(cls, str) and cls in rules.dreadnought_classes:
        weapons, equipment = rules.dreadnought_weapons(cls), (cls,)
    figure = Figure(
        id=new_figure_id(state, f"{unit}-{origin}"),
        side=side,
        player=None,
        unit=unit,
        squares=squares,
        life_points=rules.max_life_points(unit, weapons),
        weapons=weapons,
        equipment=equipment,
    )
    state = state.with_arrival(figure)
    return state, state.figure(figure.id)


def survey_section(state: GameState, section_id: str) -> tuple[GameState, list[Step]]:
    """Place a newly entered section's blips on its marked squares (BoB survey).

    Genestealer markers get no blip; they are watched by :func:`reveal_after_move`. In a
    session without aliens only the special-equipment blips are placed, and a survey that
    places none is not logged (nothing happened at the table)."""
    if section_id in state.surveyed_sections:
        return state, []
    section = state.board.section(section_id)
    squares = section.squares()
    taken = {b.square for b in state.blips}
    blips = list(state.blips)
    # Switch ``equipment_blips``: marker squares ("x,y") whose blip hides special equipment.
    equipment = state.stipulation.switches.get("equipment_blips") or {}
    with_aliens = state.stipulation.with_aliens
    for sq, kind in state.board.markers.items():
        if sq not in squares or kind == GENESTEALER or sq in taken:
            continue
        hidden = equipment.get(f"{sq[0]},{sq[1]}")
        if hidden is None and not with_aliens:
            continue
        blips.append(Blip(f"blip-{sq[0]}-{sq[1]}", sq, hidden or kind))
    placed = len(blips) - len(state.blips)
    state = state.replace(
        blips=tuple(blips), surveyed_sections=state.surveyed_sections + (section_id,)
    )
    if not placed and not with_aliens:
        return state, []
    return state, [Step("survey", {"section": section_id, "count": placed})]


def reveal_blip(state: GameState, blip: Blip, rules: RulesData) -> tuple[GameState, list[Step]]:
    """Turn one blip over: its alien takes the square and its token joins the pool. In a
    session without aliens, a blip hiding an alien only leaves the board."""
    state = state.replace(blips=tuple(b for b in state.blips if b.id != blip.id))
    if blip.type in FOUND_EQUIPMENT:
        return place_found_equipment(state, blip, rules)
    try:
        unit_type = rules.unit(blip.type)
    except RulesDataError:
        return state, [Step("blip_equipment", {"square": list(blip.square), "item": blip.type})]
    if unit_type.side != ALIEN:
        return state, [Step("blip_equipment", {"square": list(blip.square), "item": blip.type})]
    if not state.stipulation.with_aliens:
        return state, [Step("blip_without_aliens", {"square": list(blip.square)})]
    state = state.replace(tokens=state.tokens + (Token(blip.id, "blip", blip.type),))
    state, figure = spawn_alien(state, rules, blip.type, blip.square, blip.id)
    if figure is None:
        return state, [
            Step("blip_revealed_no_model", {"square": list(blip.square), "unit": blip.type})
        ]
    return state, [
        Step("blip_revealed", {"square": list(blip.square), "unit": blip.type, "figure": figure.id})
    ]


def reveal_in_sight(
    state: GameState, viewers: list[Figure], rules: RulesData, *, genestealer_markers: bool = True
) -> tuple[GameState, list[Step]]:
    """Reveal every blip that one of ``viewers`` sees and, with ``genestealer_markers``
    (the map's Genestealer markers are in use) and aliens in play, every Genestealer
    marker too."""
    steps: list[Step] = []

    def seen(sq: Square) -> bool:
        return any(
            line_of_sight(state, origin, sq, for_firing=False).visible
            for viewer in viewers
            for origin in viewer.squares
        )

    for blip in sorted(state.blips, key=lambda b: (b.square[1], b.square[0])):
        if seen(blip.square):
            state, more = reveal_blip(state, blip, rules)
            steps.extend(more)
    if not genestealer_markers or not state.stipulation.with_aliens:
        return state, steps
    appeared = list(state.progress.genestealers_appeared)
    surveyed = set(state.surveyed_sections)
    for sq, kind in state.board.markers.items():
        key = format_square(sq)
        if kind != GENESTEALER or key in appeared or state.board.section_of(sq) not in surveyed:
            continue
        if state.figure_at(sq) is not None or not seen(sq):
            continue
        state, figure = spawn_alien(state, rules, GENESTEALER, sq, f"{sq[0]}-{sq[1]}")
        if figure is not None:
            appeared.append(key)
            state = with_progress(state, genestealers_appeared=tuple(appeared))
            steps.append(Step("genestealer_appears", {"square": list(sq), "figure": figure.id}))
    return state, steps


def sections_to_survey(state: GameState, figure_id: str) -> list[str]:
    """The sections nobody has surveyed that a marine-side figure stands in (in the order
    of its squares); none for an alien or a figure off the board."""
    figure = state.figure(figure_id)
    if figure.side != MARINE or not figure.on_board:
        return []
    sections: list[str] = []
    for sq in figure.squares:
        section = state.board.section_of(sq)
        if section is not None and section not in state.surveyed_sections:
            if section not in sections:
                sections.append(section)
    return sections


def reveal_in_marine_sight(
    state: GameState, *, genestealer_markers: bool = True
) -> tuple[GameState, list[Step]]:
    """Reveal every blip that any marine on the board sees and, with
    ``genestealer_markers``, every Genestealer marker one sees (:func:`reveal_in_sight`).

    RULES "Blips (BoB)" reveals a blip in the sight of *a* marine, not only of the figure
    that acted: a move can open doors and a survey can put blips where another marine
    looks, so every marine looks each time."""
    return reveal_in_sight(
        state, marines_on_board(state), rules_of(state), genestealer_markers=genestealer_markers
    )


def reveal_after_move(
    state: GameState,
    figure_id: str,
    survey: Survey = survey_section,
    *,
    genestealer_markers: bool = True,
) -> tuple[GameState, list[Step]]:
    """After a marine's move: survey the section it stands in if nobody has yet (with
    ``survey``, the BoB one by default), then reveal the blips a marine can see and, with
    ``genestealer_markers``, the Genestealers of the markers one sees
    (:func:`reveal_in_marine_sight`). An alien's or a pilot's move reveals nothing."""
    figure = state.figure(figure_id)
    if figure.side != MARINE or not figure.on_board:
        return state, []
    steps: list[Step] = []
    for section in sections_to_survey(state, figure_id):
        state, more = survey(state, section)
        steps.extend(more)
    state, more = reveal_in_marine_sight(state, genestealer_markers=genestealer_markers)
    return state, steps + more


def reveal_after_door(
    state: GameState, *, genestealer_markers: bool = True
) -> tuple[GameState, list[Step]]:
    """After a door opened (``state`` has it open): reveal what any marine now sees, as
    after a move (:func:`reveal_in_marine_sight`).

    An open door changes the sight of every marine, not only of the figure in front of it,
    so all of them look. Nothing is surveyed: a door moves nobody, and a section is
    surveyed when a marine first enters it (RULES "Blips (BoB)"). RULES says aliens open
    doors but not whether that reveals anything; it is silent, so this follows "a blip in
    the sight of a marine is revealed" and is called whoever opened the door, an alien in
    the Alien turn included."""
    return reveal_in_marine_sight(state, genestealer_markers=genestealer_markers)


def place_reinforcements(
    state: GameState, count: int, dice: Dice, rules: RulesData | None = None
) -> tuple[GameState, list[Step]]:
    """Play up to ``count`` reinforcement tokens: each token is drawn at random from the
    ones left and its alien enters on a random R square that is free and out of sight.
    None enters in a session without aliens."""
    if not state.stipulation.with_aliens:
        return state, []
    rules = rules or rules_of(state)
    steps: list[Step] = []
    marines = marines_on_board(state)
    for _ in range(count):
        if not state.reinforcements:
            steps.append(Step("reinforcement_none_left", {}))
            break
        pool = list(state.reinforcements)
        unit = pool.pop(random_index(dice, len(pool), "reinforcement_token"))
        free = [
            sq
            for sq in sorted(state.board.reinforcement_squares, key=lambda s: (s[1], s[0]))
            if state.figure_at(sq) is None
            and state.blip_at(sq) is None
            and not in_marine_sight(state, sq, marines)
        ]
        token_id = f"reinforcement-{len(state.tokens) + 1}"
        while any(t.id == token_id for t in state.tokens):
            token_id += "x"
        placed = None
        while free and placed is None:
            sq = free.pop(random_index(dice, len(free), "reinforcement_square"))
            trial, placed = spawn_alien(state, rules, unit, sq, token_id)
        if placed is None:
            steps.append(Step("reinforcement_no_square", {"unit": unit}))
            continue
        state = trial.replace(
            reinforcements=tuple(pool),
            tokens=trial.tokens + (Token(token_id, "reinforcement", unit),),
        )
        steps.append(
            Step(
                "reinforcement_placed",
                {"unit": unit, "figure": placed.id, "square": list(placed.squares[0])},
            )
        )
    return state, steps
