"""The opening state of a game: a bundled map and the session's seats as engine figures.

Each seat becomes a player (``p1``, ``p2``... by seat order) with a commander and four
marines armed from the seat's loadout (RULES §5), or from :data:`DEFAULT_LOADOUT` when the
player has none. Seat N enters from the map's N-th docking claw: its figures stand on the
claw's squares and, when the claw is too small for the whole squad, on the nearest free
squares outside it (breadth first through open edges, never on an alien marker, an R
square or a flag spot). A marine standing in a section surveys it, exactly as if it had
walked in (the engine's ``reveal_after_move``).

A Solitaire game (seed 000) is set up with the Alien's blip tokens, the hidden pile its
surveys draw from, and the mission whose adjustments apply (:class:`SolitaireSetup`). Its
opening state surveys nothing: the Solitaire survey rolls dice, so a figure that starts in
a section nobody has surveyed surveys it on its first move, when the move form asks for
the dice (the map's markers are BoB's and are not used).

A session played without aliens (Catch the Flag or TPK with "Aliens in play" off) gets no
alien at all whatever its policy: its surveys place only the special-equipment blips and
there is no Alien turn (``rules.engine.state.Stipulation.with_aliens``); a Solitaire game
of one needs no blip token.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine.ai.solitaire_policy import BLIP_PILE, MISSION, SolitairePolicy, tables
from rules.engine.board import Board
from rules.engine.flags import place_flags
from rules.engine.geometry import Square, orthogonal_neighbours
from rules.engine.narration import Step
from rules.engine.narration_turns import CARDS
from rules.engine.play.blips import reveal_after_move
from rules.engine.state import (
    MARINE,
    Figure,
    GameState,
    Player,
    StateError,
    Stipulation,
    build_state,
)
from rules.engine.units import RulesData, RulesDataError, load_rules_data
from table.seating import game_player_id
from table.session_material import SessionMaterialError, check_equipment_blips, engine_setup
from table.step_log import engine_error_text, narration_language
from tournaments.domain.catalogue import COMMANDER_COMBOS
from tournaments.models import Seat, Session
from tournaments.queries.playable_maps import board_of, map_choices, own_drawing


class GameSetupError(ValueError):
    """The game cannot be set up as asked; the message says what to change."""


@dataclass(frozen=True)
class SquadArms:
    """Engine weapon keys: the commander's combo and one entry per marine."""

    commander: tuple[str, ...]
    marines: tuple[tuple[str, ...], ...]


#: A legal loadout (RULES §5) for a seat whose player chose none: power axe and laser pistol
#: for the commander; three laser rifles and a missile launcher for the marines (a marine
#: carries a heavy weapon or a laser rifle, never a bolter: the test checks it with the
#: loadout rules).
DEFAULT_LOADOUT = SquadArms(
    commander=("power_axe", "laser_pistol"),
    marines=(("laser_rifle",), ("laser_rifle",), ("laser_rifle",), ("missile_launcher",)),
)


@dataclass(frozen=True)
class SolitaireSetup:
    """What the Alien brings to a Solitaire game: how many blip tokens of each alien type
    (the mission's notes say which) and the mission whose adjustments apply ("" for none)."""

    tokens: Mapping[str, int]
    mission: str = ""

    def pile(self) -> list[str]:
        """The hidden pile, in the rules data's order of alien types (the surveys draw
        from it by the dice, so the order only makes a seed replay the same)."""
        unknown = sorted(set(self.tokens) - set(blip_token_types()))
        if unknown:
            raise GameSetupError(
                _("Blip tokens of an alien type the rules data does not know: %(type)s.")
                % {"type": unknown[0]}
            )
        return [kind for kind in blip_token_types() for _ in range(self.tokens.get(kind, 0))]


#: The Alien policies by their engine name (:data:`rules.engine.ai.policies.POLICIES`).
POLICY_NAMES = {
    "bob": gettext_lazy("BoB"),
    "solitaire": gettext_lazy("Solitaire"),
    "priority": gettext_lazy("Priority"),
}


def blip_token_types() -> list[str]:
    """The alien types a blip token can hide: every alien with a token value."""
    return list(load_rules_data().alien_tokens)


def solitaire_missions() -> list[str]:
    """The missions with Solitaire adjustments in the data (seed 000, appendix 2)."""
    return sorted(tables()["missions"], key=lambda key: (len(key), key))


def engine_key(slug: str) -> str:
    """The engine's key of a catalogue weapon slug (``laser-rifle`` -> ``laser_rifle``)."""
    return slug.replace("-", "_")


def seat_arms(seat: Seat) -> SquadArms:
    """The weapons of a seat's squad: its stored loadout, else the default one."""
    try:
        loadout = seat.loadout
    except ObjectDoesNotExist:
        return DEFAULT_LOADOUT
    combo = COMMANDER_COMBOS.get(loadout.commander_combo, ())
    marines = [*(loadout.marine_weapons or ()), *(loadout.extra_marine_weapons or ())]
    if not combo or not marines:
        return DEFAULT_LOADOUT
    return SquadArms(
        commander=tuple(engine_key(s) for s in combo),
        marines=tuple((engine_key(s),) for s in marines),
    )


def seat_cards(seat: Seat) -> tuple[str, ...]:
    """The effect codes of the chapter cards in a seat's loadout, read from the
    tournament's catalogue (a card's ``effect_code``; a slug the catalogue lacks is read as
    its code with "-" as "_"), keeping those the engine knows
    (:data:`rules.engine.narration_turns.CARDS`); none without a loadout."""
    try:
        loadout = seat.loadout
    except ObjectDoesNotExist:
        return ()
    catalogue = (
        {card.slug: card.effect_code for card in seat.squad.cards.all() if card.effect_code}
        if seat.squad is not None
        else {}
    )
    keys = [*(loadout.order_cards or ()), *(loadout.equipment_cards or ())]
    codes = (catalogue.get(key, key.replace("-", "_")) for key in keys)
    return tuple(code for code in codes if code in CARDS)


def seat_targeter_marks(seat: Seat) -> tuple[str, ...]:
    """The engine keys of the weapon types the seat's Targeters mark (RULES §5), in the
    order of the copies; none without a loadout."""
    try:
        loadout = seat.loadout
    except ObjectDoesNotExist:
        return ()
    return tuple(engine_key(slug) for slug in loadout.targeter_marks or () if slug)


def squad_figure_ids(player: str, arms: SquadArms) -> list[str]:
    """The ids of one player's figures: the commander's, then each marine's (``p1-cmd``,
    ``p1-m1``...)."""
    return [f"{player}-cmd", *(f"{player}-m{n}" for n in range(1, len(arms.marines) + 1))]


def squad_figures(player: str, arms: SquadArms, rules: RulesData) -> list[Figure]:
    """The commander and marines of one player, not yet placed (squares filled later)."""
    figures = []
    units = [("commander", arms.commander)] + [
        (marine_unit(rules, weapons), weapons) for weapons in arms.marines
    ]
    for fid, (unit, weapons) in zip(squad_figure_ids(player, arms), units, strict=True):
        figures.append(
            Figure(
                id=fid,
                side=MARINE,
                player=player,
                unit=unit,
                squares=(),
                life_points=rules.max_life_points(unit, weapons),
                weapons=weapons,
            )
        )
    return figures


def marine_unit(rules: RulesData, weapons: tuple[str, ...]) -> str:
    """The unit of a marine (not the commander) carrying ``weapons``, by the class its
    weapons have in ``rules`` (the catalogue's, decision 69; :meth:`RulesData.marine_unit`);
    a weapon ``rules`` do not know is refused, saying which."""
    try:
        return rules.marine_unit(weapons)
    except RulesDataError as error:
        raise GameSetupError(
            _("The loadout names a weapon the rules data does not know: %(error)s")
            % {"error": engine_error_text(error)}
        ) from None


def entry_squares(board: Board, claw_id: str, taken: set[Square], count: int) -> list[Square]:
    """``count`` free squares for a squad entering from ``claw_id``: the claw's own squares
    first, then the nearest free squares reached through open edges from the claw."""
    claw = board.claw(claw_id)
    other_claws = {sq for c in board.claws if c.id != claw_id for sq in c.squares}
    avoid = set(board.markers) | set(board.reinforcement_squares) | set(board.flag_spots)
    chosen: list[Square] = []
    seen: set[Square] = set(claw.squares)
    queue: deque[Square] = deque(sorted(claw.squares, key=lambda s: (s[1], s[0])))
    while queue and len(chosen) < count:
        sq = queue.popleft()
        if sq not in taken and sq not in avoid:
            chosen.append(sq)
        for nxt in orthogonal_neighbours(sq):
            if nxt in seen or nxt in other_claws or not board.in_bounds(nxt):
                continue
            if board.is_solid(nxt) or not board.edge_open(sq, nxt):
                continue
            seen.add(nxt)
            queue.append(nxt)
    if len(chosen) < count:
        raise GameSetupError(
            _("There is no room near docking claw %(claw)s for %(count)d figures.")
            % {"claw": claw_id, "count": count}
        )
    return chosen


def opening_state(
    session: Session,
    map_name: str,
    policy: str = "bob",
    solitaire: SolitaireSetup | None = None,
) -> tuple[GameState, list[Step]]:
    """The checked opening state of a game of ``session`` on the map ``map_name`` (the
    tournament's own or a shipped one) played with the Alien ``policy``, and the survey
    steps of the sections the squads start in. A Solitaire game takes its blip pile and
    mission from ``solitaire`` and surveys nothing yet (see the module's docstring).

    A shipped map is named in the state; a tournament's own map is written into it, so the
    game keeps its board whatever later becomes of the map."""
    tournament = session.stage.tournament
    drawing = own_drawing(tournament, map_name)
    board = board_of(map_name, drawing)
    if board is None:
        known = [name for name, _label in map_choices(tournament)]
        raise GameSetupError(
            _("Unknown map %(map)s; choose one of: %(maps)s.")
            % {"map": map_name, "maps": ", ".join(known)}
        )
    map_ref = map_name if drawing is None else None
    try:
        setup = engine_setup(session)
        check_equipment_blips(board, setup.switches)
    except SessionMaterialError as error:
        raise GameSetupError(str(error)) from None
    overrides = setup.overrides
    try:
        rules = load_rules_data(overrides or None)
    except RulesDataError as error:
        raise GameSetupError(
            _("The tournament's rules data overrides are invalid: %(error)s")
            % {"error": engine_error_text(error)}
        ) from None
    seats = list(session.seats.select_related("squad", "player").order_by("seat_order"))
    if not seats:
        raise GameSetupError(_("Seat the players of this session before starting a game."))
    claws = sorted(board.claws, key=lambda c: c.id)
    if len(seats) > len(claws):
        raise GameSetupError(
            _("The map %(map)s has %(claws)d docking claws but the session has %(seats)d seats.")
            % {
                "map": board.title_in(narration_language()),
                "claws": len(claws),
                "seats": len(seats),
            }
        )
    players: list[Player] = []
    figures: list[Figure] = []
    taken: set[Square] = set()
    for seat, claw in zip(seats, claws, strict=False):
        pid = game_player_id(seat)
        arms = seat_arms(seat)
        squad = squad_figures(pid, arms, rules)
        squares = entry_squares(board, claw.id, taken, len(squad))
        taken.update(squares)
        figures.extend(f.moved_to((sq,)) for f, sq in zip(squad, squares, strict=True))
        players.append(
            Player(
                pid,
                seat.squad.slug if seat.squad is not None else None,
                claw.id,
                cards=seat_cards(seat),
                targeter_marks=seat_targeter_marks(seat),
            )
        )
    switches = dict(setup.switches)
    is_solitaire = policy == SolitairePolicy.name
    if is_solitaire:
        switches.update(
            _solitaire_switches(solitaire, Stipulation(setup.kind, switches).with_aliens)
        )
    by_initiative = sorted(seats, key=lambda s: (s.initiative_position or 99, s.seat_order))
    initiative = tuple(game_player_id(s) for s in by_initiative)
    try:
        state = build_state(
            board,
            figures,
            players=tuple(players),
            initiative=initiative,
            active_player=initiative[0],
            stipulation=Stipulation(setup.kind, MappingProxyType(switches)),
            reinforcements=setup.reinforcements,
            data_overrides=overrides,
            map_ref=map_ref,
        )
    except StateError as error:
        raise GameSetupError(engine_error_text(error)) from None
    state = place_flags(state)
    steps: list[Step] = []
    for figure in figures:
        if not is_solitaire and board.claw_of(figure.square) is None:
            state, more = reveal_after_move(state, figure.id)
            steps.extend(more)
    return state, steps


def _solitaire_switches(solitaire: SolitaireSetup | None, with_aliens: bool) -> dict[str, Any]:
    """The blip pile and mission switches of a Solitaire game. A game with aliens but
    without a single blip token is refused (its surveys would place nothing), and so is a
    mission the data lacks; a session without aliens needs no token (nothing is drawn)."""
    mission = solitaire.mission if solitaire is not None else ""
    if mission and mission not in solitaire_missions():
        raise GameSetupError(
            _(
                "There are no Solitaire adjustments for mission %(mission)s; choose one of "
                "%(missions)s, or none."
            )
            % {"mission": mission, "missions": ", ".join(solitaire_missions())}
        )
    pile = solitaire.pile() if solitaire is not None else []
    if not pile and with_aliens:
        raise GameSetupError(
            _(
                "A Solitaire game draws every blip from the Alien's tokens: give at least one "
                "blip token (the mission's notes say how many of each type)."
            )
        )
    return {BLIP_PILE: pile, MISSION: mission}
