"""A session's stipulation as the engine plays it (issue 13 item 4).

The tournament stores a stipulation's parameters as the organiser set them (RULES §6); the
engine reads switches, a reinforcement token pool and rules data overrides. This module is
the one translation between them, used when a game is set up and when a started game adopts
the session's corrected settings:

* ``event_cards``: an empty list is the whole deck, so it is left out (the engine reads a
  missing list as every card, an empty one as none);
* the tournament's event card names and texts (``data_overrides["events"]``, the catalogue
  page's) become the ``event_overrides`` switch of a game that uses the deck;
* ``reinforcements`` (token counts by alien) become the state's reinforcement pool, minus the
  tokens a game already played;
* ``blip_pile`` (token counts) is what the new-game form offers a Solitaire game;
* ``dreadnought_value`` becomes the named class's ``class_value`` in the rules data;
* the class the tournament's catalogue gives each squad weapon becomes its
  ``weapon_class`` in the rules data (the loadout checks and the result form count it);
* the tournament's point values (``data_overrides["scoring"]``, RULES §7) become the rules
  data's ``marine_values`` and ``tarantula_destroyed``, so the board's kill scores are the
  values the result is scored with;
* ``equipment_blips`` (squares of the map's blip markers) stays a switch the survey reads,
  checked against the map;
* ``aliens`` (Catch the Flag, TPK) stays a switch: false, the engine plays the session
  without aliens (``Stipulation.with_aliens``), so the game gets no reinforcement pool and
  no event card names (its event deck is not drawn, ``docs/decisions.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.utils.translation import gettext as _

from rules.engine.board import Board
from rules.engine.catalogue_classes import with_catalogue_classes
from rules.engine.state import GameState, Stipulation
from tournaments.domain.house_rules import SCORING
from tournaments.domain.scoring import engine_point_values
from tournaments.models import Session, clean_stipulation_params, playing_rules
from tournaments.queries.event_deck import EVENTS
from tournaments.queries.tournament_catalogue import catalogue_weapon_classes

#: Parameters the engine does not read as switches (see the module's docstring).
NOT_SWITCHES = frozenset({"reinforcements", "blip_pile", "dreadnought_value"})


class SessionMaterialError(ValueError):
    """The session's settings do not fit the game's map; the message says what to change."""


@dataclass(frozen=True)
class EngineSetup:
    """What a game of the session plays: the stipulation type and switches, the
    reinforcement tokens, the Solitaire blip pile and the rules data overrides."""

    kind: str
    switches: dict[str, Any]
    reinforcements: tuple[str, ...]
    blip_pile: Mapping[str, int]
    overrides: dict[str, Any]


def session_params(session: Session) -> tuple[str, dict[str, Any]]:
    """The session's stipulation type and parameters: its own, else its stage's."""
    try:
        stipulation = session.stipulation
    except ObjectDoesNotExist:
        stipulation = None
    if stipulation is not None:
        return stipulation.kind, dict(stipulation.params or {})
    stage = session.stage
    return stage.stipulation_kind or "alien_hunt", dict(stage.stipulation_params or {})


def engine_setup(session: Session) -> EngineSetup:
    """The engine's view of the session's current stipulation and the tournament's data.

    The parameters are checked again, so that settings stored before the checks (event
    cards typed by name) reach the engine as card ids; settings that cannot be read raise
    :class:`SessionMaterialError`."""
    kind, params = session_params(session)
    tournament = session.stage.tournament
    try:
        params = clean_stipulation_params(kind, params, playing_rules(tournament))
    except ValidationError as error:
        raise SessionMaterialError(
            _("The session's stipulation cannot be played: %(problems)s Correct it first.")
            % {"problems": " ".join(error.messages)}
        ) from None
    switches = {key: value for key, value in params.items() if key not in NOT_SWITCHES}
    if not switches.get("event_cards"):
        switches.pop("event_cards", None)
    stipulation = Stipulation(kind, switches)
    overrides = with_catalogue_classes(
        tournament.data_overrides or {}, catalogue_weapon_classes(tournament)
    )
    if stipulation.uses_event_deck and overrides.get(EVENTS):
        switches["event_overrides"] = overrides[EVENTS]
    scoring = overrides.get(SCORING)
    if isinstance(scoring, Mapping):
        overrides.update(engine_point_values(scoring))
    cls = params.get("dreadnought_class")
    named = {
        "class_value": params.get("dreadnought_value"),
        "default_weapons": params.get("dreadnought_weapons"),
    }
    named = {key: value for key, value in named.items() if value is not None}
    if cls and named:
        classes = {**overrides.get("dreadnought_classes", {})}
        classes[cls] = {**classes.get(cls, {}), **named}
        overrides["dreadnought_classes"] = classes
    counts = (params.get("reinforcements") or {}) if stipulation.with_aliens else {}
    return EngineSetup(
        kind=kind,
        switches=switches,
        reinforcements=tuple(alien for alien, count in counts.items() for _ in range(count)),
        blip_pile=dict(params.get("blip_pile") or {}),
        overrides=overrides,
    )


def plays_aliens(session: Session) -> bool:
    """Whether the session's games have aliens (``Stipulation.with_aliens``); True when the
    stipulation cannot be read (creating a game then says what to correct)."""
    try:
        setup = engine_setup(session)
    except SessionMaterialError:
        return True
    return Stipulation(setup.kind, setup.switches).with_aliens


def check_equipment_blips(board: Board, switches: Mapping[str, Any]) -> None:
    """Every special-equipment blip is on one of the map's alien blip markers."""
    for square in switches.get("equipment_blips") or {}:
        x, y = (int(part) for part in square.split(","))
        marker = board.markers.get((x, y))
        if marker is None or marker == "genestealer":
            raise SessionMaterialError(
                _(
                    "Square %(square)s is no blip marker of map %(map)s, so no blip there can "
                    "hide special equipment; correct the session's settings."
                )
                % {"square": square, "map": board.name or "?"}
            )


def remaining_reinforcements(state: GameState, pool: tuple[str, ...]) -> tuple[str, ...]:
    """``pool`` less the reinforcement tokens the game already played, by alien type."""
    played = Counter(token.alien for token in state.tokens if token.source == "reinforcement")
    left: list[str] = []
    for alien in pool:
        if played[alien]:
            played[alien] -= 1
        else:
            left.append(alien)
    return tuple(left)
