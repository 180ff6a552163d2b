"""A tournament document checked in full, then written in one transaction.

:func:`check_document` finds every problem -- wrong version, JSON Schema violations, and
the semantic and referential checks the schema cannot express -- each with its JSON path.
:func:`import_document` writes nothing unless that list is empty, and then writes the whole
tournament inside a single ``transaction.atomic``.

The checks never trust the document's shape: a value of the wrong type has already been
reported by the schema and is simply skipped, so one run lists every problem.
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path as FilePath
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, connection, models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine import json_text
from rules.engine.catalogue_classes import catalogue_rules_data, with_catalogue_classes
from rules.engine.dice import FACES, DieKind, seed_commitment
from rules.engine.units import RulesData, RulesDataError
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.venue_tables import table_named
from tournaments.domain.catalogue import DEFAULT_CATALOGUE, WeaponClass
from tournaments.domain.event_years import EARLIEST_YEAR, LATEST_YEAR, is_event_year
from tournaments.domain.file_limits import MAX_DOCUMENT_BYTES, megabytes, read_at_most
from tournaments.domain.house_rules import override_problems
from tournaments.domain.plausibility import (
    Fielded,
    check_result,
    fielded_by_seat,
    session_limits,
    squad_figures,
)
from tournaments.domain.read_failures import read_failure
from tournaments.domain.scoring import ScoringError, SeatBreakdown
from tournaments.domain.typed_dice import DIE_NAMES
from tournaments.interchange.document import (
    FORMAT_VERSION,
    schema_problems,
    upgraded,
    version_problems,
)
from tournaments.interchange.explanations import syntax_message
from tournaments.interchange.map_sections import ADDED_IN as MAPS_ADDED_IN
from tournaments.interchange.map_sections import own_map_names, unknown_map
from tournaments.interchange.problems import InterchangeError, Problem, json_path
from tournaments.interchange.references import rewrite_breakdown, rewrite_details
from tournaments.interchange.sections import objects_of as _objects
from tournaments.interchange.sections import registered
from tournaments.interchange.sections import whole_number as _int
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    ChapterCard,
    DiceRoll,
    Honour,
    Loadout,
    Player,
    Registration,
    Result,
    ResultVersion,
    ScoreBonus,
    ScoreThreshold,
    Seat,
    Session,
    Squad,
    SquadPreference,
    SquadRank,
    Stage,
    Stipulation,
    Tournament,
    Weapon,
    clean_stipulation_params,
    playing_rules,
)
from tournaments.models.results import version_reason_code
from tournaments.queries.result_versions import scored_totals

Path = tuple[str | int, ...]
#: (stage, session number, when it was superseded or None for a session in force).
SessionKey = tuple[int, int, str | None]

#: What an editor saving "UTF-8 with BOM" writes first; JSON itself has no use for it.
BYTE_ORDER_MARK = "\ufeff"
#: A session holds 3 players, or 2 when the player count is not a multiple of 3 (RULES §2).
SEATS_PER_SESSION = (2, 3)
#: The plausibility checks (:mod:`tournaments.domain.plausibility`) an import does not make
#: again: the value of an alien token, and the class value of a piloted Dreadnought (its
#: class too, which the house rules may have removed since), are the tournament's at the
#: time the judge saved the result, which the organiser may have changed since. The app
#: keeps such a result, and its points are the breakdown's (interchange decision 10,
#: docs/decisions.md). The map's markers are not counted either: no board is given to the
#: checks. Objective points outside Catch the Flag were accepted before tournament
#: decision 71, and nothing tells such a version from a later one, so they too are kept
#: as saved (decision 74).
_SETTLED_WHEN_SAVED = frozenset(
    {
        "token_value",
        "dreadnought_class_value",
        "dreadnought_class_unknown",
        "objective_without_rule",
    }
)


def read_document(path: str | FilePath) -> Any:
    """Load a document file; raises :class:`InterchangeError` if it is missing or not JSON."""
    try:
        data = read_at_most(path, MAX_DOCUMENT_BYTES)
        if data is None:
            raise InterchangeError(
                [
                    Problem(
                        "$",
                        _(
                            "file %(path)s is larger than %(limit)s, and a tournament "
                            "document is much smaller; choose the JSON file BoB exported"
                        )
                        % {"path": path, "limit": megabytes(MAX_DOCUMENT_BYTES)},
                    )
                ]
            )
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise InterchangeError(
            [Problem("$", _("file %(path)s does not exist; check the path") % {"path": path})]
        ) from None
    except UnicodeDecodeError as error:
        raise InterchangeError(
            [
                Problem(
                    "$",
                    _(
                        "file %(path)s is not UTF-8 text (byte %(position)d is not UTF-8); "
                        "a document BoB exported is: choose that file, or save this one as "
                        "UTF-8"
                    )
                    % {"path": path, "position": error.start + 1},
                )
            ]
        ) from None
    except OSError as error:
        raise InterchangeError(
            [
                Problem(
                    "$",
                    _("file %(path)s cannot be read (%(error)s); check the path and its rights")
                    % {"path": path, "error": read_failure(error)},
                )
            ]
        ) from None
    return parse_document(text)


def parse_document(text: str) -> Any:
    """A document's JSON text as data (a byte-order mark before it is fine); raises
    :class:`InterchangeError` if it is not JSON, saying where and why in the reader's
    language."""
    try:
        return json_text.loads(text.removeprefix(BYTE_ORDER_MARK))
    except json.JSONDecodeError as error:
        raise InterchangeError([Problem("$", syntax_message(error))]) from None


# --- reading the document without trusting its shape -------------------------------------


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def parse_timestamp(text: str) -> datetime | None:
    """An ISO 8601 datetime with a time zone, or None when ``text`` is not one."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else None


class _Checker:
    """Collects every problem of a document that already passed the version check."""

    def __init__(
        self, document: dict[str, Any], slug: str | None, check_slug: bool, map_names: bool
    ) -> None:
        self.doc = document
        self.slug = slug
        self.check_slug = check_slug
        #: Whether stages and sessions must name known maps (see :func:`check_document`).
        self.own_maps = own_map_names(document) if map_names else None
        self.problems: list[Problem] = []
        self.squad_cards: dict[str, dict[str, str]] = {}
        self.weapons: set[str] = set()
        self.players: set[str] = set()
        self.stages: set[int] = set()
        self.sessions: set[SessionKey] = set()

    def add(self, path: Path, message: str) -> None:
        self.problems.append(Problem(json_path(path), message))

    def run(self) -> list[Problem]:
        self._tournament()
        self._squads()
        self._weapons()
        self._player_ids()
        self._stages()
        self._players()
        self._player_names()
        self._bilingual_names("squads")
        self._bilingual_names("weapons")
        self._squad_ranks()
        self._honours()
        self._score_bonuses()
        self._dice_rolls()
        self._activity()
        for section in registered():
            section.check(_list(self.doc.get(section.key)), self)
        return self.problems

    # -- what the other apps' sections use (tournaments.interchange.sections.CheckContext) --

    def check_session_ref(self, path: Path, value: Any) -> None:
        self._session_ref(path, value)

    def check_timestamp(self, path: Path, value: Any) -> None:
        self._timestamp(path, value)

    def check_player(self, path: Path, value: Any) -> None:
        self._player(path, value)

    # -- small reusable checks --

    def _timestamp(self, path: Path, value: Any) -> None:
        if isinstance(value, str) and parse_timestamp(value) is None:
            self.add(
                path,
                _(
                    "%(value)s is not a date and time with a time zone; write it like "
                    "2025-03-01T15:30:00Z"
                )
                % {"value": json.dumps(value)},
            )

    def _unique(self, path: Path, value: Any, seen: dict[Any, Path], what: str) -> bool:
        """Report ``value`` when an earlier item used it; returns True when it is new.

        Values of the wrong type (already reported by the schema) are skipped.
        """
        if value is None or not isinstance(value, str | int | tuple):
            return False
        if value in seen:
            self.add(
                path,
                _("%(what)s %(value)s is used twice (first at %(first)s); each must be unique")
                % {"what": what, "value": json.dumps(value), "first": json_path(seen[value])},
            )
            return False
        seen[value] = path
        return True

    def _player(self, path: Path, value: Any, allowed: set[str] | None = None) -> None:
        """A reference to a document player (and, with ``allowed``, one seated there)."""
        if not isinstance(value, str):
            return
        if value not in self.players:
            self.add(
                path,
                _('unknown player "%(player)s"; use the id of an entry in $.players')
                % {"player": value},
            )
        elif allowed is not None and value not in allowed:
            self.add(
                path,
                _('player "%(player)s" is not seated in this session; use one of: %(seated)s')
                % {"player": value, "seated": ", ".join(sorted(allowed)) or "-"},
            )

    def _squad(self, path: Path, value: Any) -> None:
        if isinstance(value, str) and value not in self.squad_cards:
            self.add(
                path,
                _('unknown squad "%(squad)s"; use the slug of an entry in $.squads (%(known)s)')
                % {"squad": value, "known": ", ".join(self.squad_cards) or _("none defined")},
            )

    def _stage(self, path: Path, value: Any) -> None:
        if _int(value) is not None and value not in self.stages:
            self.add(
                path,
                _("there is no stage %(stage)d in $.stages") % {"stage": value},
            )

    def _session_ref(self, path: Path, value: Any) -> None:
        if not isinstance(value, dict):
            return
        stage, session = _int(value.get("stage")), _int(value.get("session"))
        if stage is None or session is None:
            return
        if stage not in self.stages:
            self.add(
                (*path, "stage"), _("there is no stage %(stage)d in $.stages") % {"stage": stage}
            )
        elif (stage, session, None) not in self.sessions and "superseded_at" not in value:
            self.add(
                (*path, "session"),
                _("stage %(stage)d has no session %(session)d")
                % {"stage": stage, "session": session},
            )
        elif (stage, session, _superseded(value)) not in self.sessions:
            self.add(
                (*path, "superseded_at"),
                _("stage %(stage)d has no session %(session)d superseded at %(when)s")
                % {"stage": stage, "session": session, "when": json.dumps(value["superseded_at"])},
            )

    def _rules(self) -> RulesData | None:
        """The document's tournament's rules data with its catalogue's weapon classes, as
        the board will read them, whose Dreadnought classes its sessions' Dreadnoughts must
        fit; None when they do not read: its house rules are refused at their own place,
        and nothing is checked against other rules data (decision 76)."""
        tournament = self.doc.get("tournament")
        overrides = tournament.get("data_overrides") if isinstance(tournament, dict) else None
        try:
            return catalogue_rules_data(
                overrides if isinstance(overrides, dict) else None, self._weapon_classes()
            )
        except RulesDataError:
            return None

    def _stipulation(self, path: Path, kind: Any, params: Any) -> None:
        """A stipulation's parameters, checked once the document's rules data read (until
        then the document is refused for them, and a stipulation's Dreadnought could only
        be checked against another tournament's classes)."""
        rules = self._rules()
        if not isinstance(kind, str) or not kind or not isinstance(params, dict) or rules is None:
            return
        try:
            clean_stipulation_params(kind, params, rules)
        except ValidationError as error:
            for message in error.messages:
                self.add(path, message)

    def _thresholds(self, path: Path, values: Any) -> None:
        seen: dict[Any, Path] = {}
        for index, points in enumerate(_list(values)):
            if _int(points) is not None:
                self._unique((*path, index), points, seen, _("threshold"))

    # -- sections --

    def _tournament(self) -> None:
        tournament = self.doc.get("tournament")
        if not isinstance(tournament, dict):
            return
        name = _str(tournament.get("name"))
        if name is not None and not name.strip():
            self.add(("tournament", "name"), _("the tournament's name is blank; write it"))
        slug = self.slug or _str(tournament.get("slug"))
        if self.check_slug and slug and Tournament.objects.filter(slug=slug).exists():
            self.add(
                ("tournament", "slug"),
                _(
                    'a tournament with slug "%(slug)s" already exists; delete it first or '
                    "import under another slug (--slug on the command line, the short name "
                    "field on the import page)"
                )
                % {"slug": slug},
            )
        self._timestamp(("tournament", "created_at"), tournament.get("created_at"))
        starts, ends = _str(tournament.get("starts_on")), _str(tournament.get("ends_on"))
        self._event_year(("tournament", "starts_on"), starts)
        self._event_year(("tournament", "ends_on"), ends)
        if starts and ends and ends < starts:
            self.add(
                ("tournament", "ends_on"),
                _("the tournament ends (%(ends)s) before it starts (%(starts)s)")
                % {"ends": ends, "starts": starts},
            )
        classes = {
            slug: weapon_class
            for slug, weapon_class in self._weapon_classes().items()
            if weapon_class in {kind.value for kind in WeaponClass}  # others: refused elsewhere
        }
        for where, message in override_problems(tournament.get("data_overrides"), classes):
            self.add(("tournament", "data_overrides", *where), message)

    def _squads(self) -> None:
        seen: dict[Any, Path] = {}
        for index, squad in _objects(self.doc.get("squads")):
            path: Path = ("squads", index)
            slug = _str(squad.get("slug"))
            if slug is None or not self._unique((*path, "slug"), slug, seen, _("squad slug")):
                continue
            cards: dict[str, str] = {}
            seen_cards: dict[Any, Path] = {}
            for card_index, card in _objects(squad.get("cards")):
                card_slug = _str(card.get("slug"))
                card_path = (*path, "cards", card_index, "slug")
                if card_slug is not None and self._unique(
                    card_path, card_slug, seen_cards, _("card slug")
                ):
                    cards[card_slug] = _str(card.get("kind")) or ""
            self.squad_cards[slug] = cards

    def _weapons(self) -> None:
        seen: dict[Any, Path] = {}
        for index, weapon in _objects(self.doc.get("weapons")):
            slug = _str(weapon.get("slug"))
            if slug is not None and self._unique(
                ("weapons", index, "slug"), slug, seen, _("weapon slug")
            ):
                self.weapons.add(slug)

    def _player_ids(self) -> None:
        seen_ids: dict[Any, Path] = {}
        seen_numbers: dict[Any, Path] = {}
        for index, player in _objects(self.doc.get("players")):
            path: Path = ("players", index)
            player_id = _str(player.get("id"))
            if player_id is not None and self._unique(
                (*path, "id"), player_id, seen_ids, _("player id")
            ):
                self.players.add(player_id)
            number = _int(player.get("number"))
            self._unique((*path, "number"), number, seen_numbers, _("registration number"))

    def _players(self) -> None:
        for index, player in _objects(self.doc.get("players")):
            path: Path = ("players", index)
            email = _str(player.get("email"))
            if email:
                try:
                    validate_email(email)
                except ValidationError:
                    self.add(
                        (*path, "email"),
                        _("%(email)s is not an e-mail address; fix it or use an empty string")
                        % {"email": json.dumps(email)},
                    )
            if player.get("number") is None and player.get("registered_at") is not None:
                self.add(
                    (*path, "registered_at"),
                    _("a player without a registration number has no registration time; use null"),
                )
            self._timestamp((*path, "registered_at"), player.get("registered_at"))
            self._withdrawal(path, player)
            seen_stages: dict[Any, Path] = {}
            for pref_index, preference in _objects(player.get("preferences")):
                pref_path = (*path, "preferences", pref_index)
                stage = preference.get("stage")
                comparable = stage is None or _int(stage) is not None
                if comparable and stage in seen_stages:
                    self.add(
                        (*pref_path, "stage"),
                        _("this player already has preferences for %(stage)s at %(first)s")
                        % {
                            "stage": _("the whole tournament")
                            if stage is None
                            else _("stage %(stage)s") % {"stage": stage},
                            "first": json_path(seen_stages[stage]),
                        },
                    )
                elif comparable:
                    seen_stages[stage] = pref_path
                self._stage((*pref_path, "stage"), stage)
                self._choices((*pref_path, "choices"), preference.get("choices"))

    def _event_year(self, path: Path, text: str | None) -> None:
        """A date (or a date and time) the forms would refuse: outside the years an event
        can be held in (decision 57). One that does not read is the schema's to say."""
        try:
            year = date.fromisoformat(text[:10]).year if text else None
        except ValueError:
            return
        if year is not None and not is_event_year(year):
            self.add(
                path,
                _(
                    "give a date between the years %(earliest)d and %(latest)d; this one is "
                    "in %(year)d"
                )
                % {"earliest": EARLIEST_YEAR, "latest": LATEST_YEAR, "year": year},
            )

    def _bilingual_names(self, section: str) -> None:
        """What the catalogue's forms refuse (decisions 47 and 59): a blank name, and a name
        that another item of the section has in either language, ignoring case (one item
        may have one name in both)."""
        seen: dict[str, tuple[int, Path]] = {}
        for index, item in _objects(self.doc.get(section)):
            own: set[str] = set()
            for language in ("name_en", "name_it"):
                path: Path = (section, index, language)
                name = _str(item.get(language))
                if name is None:
                    continue  # the schema says what it must be
                if not name.strip():
                    self.add(path, _("the name is blank; write one"))
                    continue
                key = name.strip().casefold()
                first = seen.get(key)
                if first is not None and first[0] != index:
                    self.add(
                        path,
                        _(
                            "%(name)s is also a name of %(first)s (in either language, "
                            "ignoring case); give each its own name"
                        )
                        % {"name": json.dumps(name), "first": json_path(first[1][:2])},
                    )
                elif key not in own:
                    seen.setdefault(key, (index, path))
                own.add(key)

    def _player_names(self) -> None:
        """What the player forms and the roster refuse: a blank name, and two registered
        players with one name or one display name (the nickname, else the name), ignoring
        case (decision 36)."""
        seen_names: dict[str, Path] = {}
        seen_shown: dict[str, Path] = {}
        for index, player in _objects(self.doc.get("players")):
            path: Path = ("players", index)
            name = _str(player.get("name"))
            if name is None:
                continue  # the schema says what it must be
            if not name.strip():
                self.add((*path, "name"), _("the name is blank; every player needs one"))
                continue
            if player.get("number") is None:
                continue  # not registered in this tournament
            nickname = (_str(player.get("nickname")) or "").strip()
            key = name.strip().casefold()
            if key in seen_names:
                self.add(
                    (*path, "name"),
                    _(
                        "%(name)s is also the name of the player at %(first)s (ignoring "
                        "case); registered players' names are unique: add a surname or an "
                        "initial"
                    )
                    % {"name": json.dumps(name), "first": json_path(seen_names[key])},
                )
                continue
            seen_names[key] = path
            shown = (nickname or name.strip()).casefold()
            if shown in seen_shown:
                self.add(
                    (*path, "nickname" if nickname else "name"),
                    _(
                        "the player at %(first)s already shows as %(name)s (the nickname, "
                        "else the name, ignoring case); choose another nickname"
                    )
                    % {"name": json.dumps(nickname or name), "first": json_path(seen_shown[shown])},
                )
            else:
                seen_shown[shown] = path

    def _withdrawal(self, path: Path, player: dict[str, Any]) -> None:
        """A withdrawal belongs to a registration, and its reason to a withdrawal."""
        withdrawn_at = player.get("withdrawn_at")
        self._timestamp((*path, "withdrawn_at"), withdrawn_at)
        if player.get("number") is None and withdrawn_at is not None:
            self.add(
                (*path, "withdrawn_at"),
                _("a player without a registration number cannot have withdrawn; use null"),
            )
        if withdrawn_at is None and player.get("withdrawal_reason"):
            self.add(
                (*path, "withdrawal_reason"),
                _("a reason is given but no withdrawn_at; set the time or use an empty string"),
            )

    def _choices(self, path: Path, choices: Any) -> None:
        seen: dict[Any, Path] = {}
        for index, choice in enumerate(_list(choices)):
            if isinstance(choice, str):
                self._squad((*path, index), choice)
                self._unique((*path, index), choice, seen, _("squad choice"))

    def _stages(self) -> None:
        seen: dict[Any, Path] = {}
        stages = _objects(self.doc.get("stages"))
        for index, stage in stages:
            number = _int(stage.get("number"))
            if number is not None and self._unique(
                ("stages", index, "number"), number, seen, _("stage number")
            ):
                self.stages.add(number)
                seen_sessions: dict[Any, Path] = {}
                for session_index, session in _objects(stage.get("sessions")):
                    session_number = _int(session.get("number"))
                    superseded = _superseded(session)
                    session_path = ("stages", index, "sessions", session_index, "number")
                    if session_number is not None and self._unique(
                        session_path,
                        session_number if superseded is None else (session_number, superseded),
                        seen_sessions,
                        _("session number") if superseded is None else _("superseded session"),
                    ):
                        self.sessions.add((number, session_number, superseded))
        for index, stage in stages:
            path: Path = ("stages", index)
            kind, params = stage.get("stipulation_kind"), stage.get("stipulation_params")
            if kind == "" and params:
                self.add(
                    (*path, "stipulation_params"),
                    _("parameters are given but no stipulation_kind; set the type or use {}"),
                )
            self._stipulation((*path, "stipulation_params"), kind, params)
            seen_qualifiers: dict[Any, Path] = {}
            for q_index, qualifier in enumerate(_list(stage.get("qualifiers"))):
                self._player((*path, "qualifiers", q_index), qualifier)
                self._unique(
                    (*path, "qualifiers", q_index), qualifier, seen_qualifiers, _("qualifier")
                )
            self._map((*path, "map_name"), stage.get("map_name"))
            self._timestamp((*path, "closed_at"), stage.get("closed_at"))
            self._thresholds((*path, "thresholds"), stage.get("thresholds"))
            for session_index, session in _objects(stage.get("sessions")):
                self._session((*path, "sessions", session_index), session, stage)

    def _map(self, path: Path, name: Any) -> None:
        if self.own_maps is not None and (problem := unknown_map(name, self.own_maps)):
            self.add(path, problem)

    def _session(self, path: Path, session: dict[str, Any], stage: dict[str, Any]) -> None:
        self._map((*path, "map_name"), session.get("map_name"))
        self._timestamp((*path, "scheduled_at"), session.get("scheduled_at"))
        self._event_year((*path, "scheduled_at"), _str(session.get("scheduled_at")))
        stipulation = session.get("stipulation")
        if isinstance(stipulation, dict):
            self._stipulation(
                (*path, "stipulation", "params"), stipulation.get("kind"), stipulation.get("params")
            )
        self._thresholds((*path, "thresholds"), session.get("thresholds"))
        seats = _objects(session.get("seats"))
        result = session.get("result")
        if isinstance(session.get("seats"), list):
            count = len(session["seats"])
            if count not in SEATS_PER_SESSION and (count != 0 or result is not None):
                self.add(
                    (*path, "seats"),
                    ngettext(
                        "this session has %(count)d seat; it needs 2 or 3 (or none before it is "
                        "seated and has no result)",
                        "this session has %(count)d seats; it needs 2 or 3 (or none before it "
                        "is seated and has no result)",
                        count,
                    )
                    % {"count": count},
                )
        seen_players: dict[Any, Path] = {}
        seen_orders: dict[Any, Path] = {}
        seen_squads: dict[Any, Path] = {}
        seen_initiative: dict[Any, Path] = {}
        seated: set[str] = set()
        for index, seat in seats:
            seat_path = (*path, "seats", index)
            player = seat.get("player")
            self._player((*seat_path, "player"), player)
            if isinstance(player, str):
                self._unique((*seat_path, "player"), player, seen_players, _("seated player"))
                seated.add(player)
            self._unique(
                (*seat_path, "seat_order"),
                _int(seat.get("seat_order")),
                seen_orders,
                _("seat order"),
            )
            squad = _str(seat.get("squad"))
            self._squad((*seat_path, "squad"), squad)
            self._unique((*seat_path, "squad"), squad, seen_squads, _("squad"))
            self._unique(
                (*seat_path, "initiative_position"),
                _int(seat.get("initiative_position")),
                seen_initiative,
                _("initiative position"),
            )
            self._timestamp((*seat_path, "checked_in_at"), seat.get("checked_in_at"))
            if isinstance(seat.get("loadout"), dict):
                self._loadout((*seat_path, "loadout"), seat["loadout"], squad)
        if isinstance(result, dict):
            self._result((*path, "result"), result, seated)
            self._plausible((*path, "result"), result, session, stage)

    def _loadout(self, path: Path, loadout: dict[str, Any], squad: str | None) -> None:
        # A tournament without its own weapons or cards uses the default catalogue's.
        weapons = self.weapons or {weapon.slug for weapon in DEFAULT_CATALOGUE.weapons}
        for key in ("marine_weapons", "extra_marine_weapons"):
            for index, weapon in enumerate(_list(loadout.get(key))):
                if isinstance(weapon, str) and weapon not in weapons:
                    self.add(
                        (*path, key, index),
                        _('unknown weapon "%(weapon)s"; use the slug of an entry in $.weapons')
                        % {"weapon": weapon},
                    )
        cards = self.squad_cards.get(squad) if squad else None
        if squad and cards == {}:
            cards = {card.slug: card.kind.value for card in DEFAULT_CATALOGUE.chapter_cards(squad)}
        for key, kind in (("order_cards", "order"), ("equipment_cards", "equipment")):
            for index, card in enumerate(_list(loadout.get(key))):
                if not isinstance(card, str):
                    continue
                if squad is None:
                    self.add(
                        (*path, key, index),
                        _("the seat has no squad, so it cannot take chapter cards; set its squad"),
                    )
                elif cards is not None and cards.get(card) != kind:
                    self.add(
                        (*path, key, index),
                        (
                            _('squad "%(squad)s" has no order card "%(card)s"')
                            if kind == "order"
                            else _('squad "%(squad)s" has no equipment card "%(card)s"')
                        )
                        % {"squad": squad, "card": card},
                    )

    def _result(self, path: Path, result: dict[str, Any], seated: set[str]) -> None:
        self._timestamp((*path, "created_at"), result.get("created_at"))
        for index, version in _objects(result.get("versions")):
            version_path = (*path, "versions", index)
            number = _int(version.get("number"))
            if number is not None and number != index + 1:
                self.add(
                    (*version_path, "number"),
                    _(
                        "version numbers must run 1, 2, 3... in order; this is entry "
                        "%(position)d so its number must be %(expected)d, not %(number)d"
                    )
                    % {"position": index + 1, "expected": index + 1, "number": number},
                )
            self._timestamp((*version_path, "created_at"), version.get("created_at"))
            for key in ("ranking", "survivors"):
                seen: dict[Any, Path] = {}
                for item_index, player in enumerate(_list(version.get(key))):
                    self._player((*version_path, key, item_index), player, seated)
                    self._unique((*version_path, key, item_index), player, seen, _("player"))

            def check(value: Any, as_text: bool, inner: Path, base: Path = version_path) -> Any:
                if isinstance(value, str):
                    self._player((*base, "breakdown", *inner), value, seated)
                else:
                    self.add(
                        (*base, "breakdown", *inner),
                        _("a player reference must be a player id (text), not %(value)s")
                        % {"value": json.dumps(value)},
                    )
                return value

            rewrite_breakdown(version.get("breakdown"), check)
            self._readable_breakdown(version_path, version)

    def _readable_breakdown(self, path: Path, version: dict[str, Any]) -> None:
        """Every seat's points of a version, earlier ones included, must read as the app
        scores them: a breakdown that does not is stored with no points, and its session
        would count for nothing in the standings without a word."""
        for index, entry in _objects(version.get("breakdown")):
            try:
                SeatBreakdown.from_dict(entry)
            except ScoringError as error:
                self.add(
                    (*path, "breakdown", index),
                    _("this seat's points do not read as BoB scores them (%(reason)s)")
                    % {"reason": error},
                )

    def _plausible(
        self, path: Path, result: dict[str, Any], session: dict[str, Any], stage: dict[str, Any]
    ) -> None:
        """The checks a judge's result passes (:mod:`tournaments.domain.plausibility`), on
        the version that counts, the latest: earlier ones are history, kept as recorded.

        Only the rules the tournament's later changes cannot move are checked again: the
        token values and the map (its alien markers) are settings the organiser may change
        after a result is saved, and the app keeps that result and scores it from its
        breakdown as saved, so an import does too (:data:`_SETTLED_WHEN_SAVED`)."""
        versions = _objects(result.get("versions"))
        if not versions:
            return
        index, version = versions[-1]
        version_path = (*path, "versions", index)
        entries = _objects(version.get("breakdown"))
        try:
            breakdowns = [SeatBreakdown.from_dict(entry) for _index, entry in entries]
        except ScoringError:
            return  # a malformed breakdown: _readable_breakdown has said where
        survivors = [
            player for player in _list(version.get("survivors")) if isinstance(player, str)
        ]
        own = session.get("stipulation")
        kind, params = (
            (own.get("kind"), own.get("params"))
            if isinstance(own, dict)
            else (stage.get("stipulation_kind"), stage.get("stipulation_params"))
        )
        tournament = self.doc.get("tournament")
        overrides = tournament.get("data_overrides") if isinstance(tournament, dict) else None
        limits = session_limits(
            _str(kind) or "",
            params if isinstance(params, dict) else {},
            _str(session.get("map_name")) or "",
            with_catalogue_classes(overrides, self._weapon_classes())
            if isinstance(overrides, dict)
            else None,
            board=None,  # the map's markers: as the map was when the result was saved
            fielded=self._fielded(session, squad_figures(_str(kind) or "")),
            forfeits={
                seat["player"]: seat["forfeit"]
                for _index, seat in _objects(session.get("seats"))
                if isinstance(seat.get("player"), str)
                and isinstance(seat.get("forfeit"), str)
                and seat["forfeit"]
            },
        )
        where_played = _("stage %(stage)s, session %(session)s") % {
            "stage": stage.get("number", "?"),
            "session": session.get("number", "?"),
        }
        names = {
            player_id: name
            for _i, player in _objects(self.doc.get("players"))
            if isinstance(player_id := player.get("id"), str)
            and isinstance(name := player.get("name"), str)
        }
        seat_index = {breakdown.seat: entries[i][0] for i, breakdown in enumerate(breakdowns)}
        for problem in check_result(breakdowns, survivors, limits, names):
            if problem.code in _SETTLED_WHEN_SAVED:
                continue
            where: Path
            if problem.entry == "survived":
                where = (*version_path, "survivors", survivors.index(problem.seat))
            else:
                inner = [problem.entry, problem.index, problem.part]
                where = (
                    *version_path,
                    "breakdown",
                    seat_index[problem.seat],
                    *(part for part in inner if part is not None),
                )
            self.add(where, f"{where_played}: {problem.message}")

    def _weapon_classes(self) -> dict[str, str]:
        """The class the document's catalogue gives each of its weapons, by slug (none when
        it has no weapons: the default catalogue's, the rules data's)."""
        return {
            slug: weapon_class
            for _index, weapon in _objects(self.doc.get("weapons"))
            if isinstance(slug := weapon.get("slug"), str)
            and isinstance(weapon_class := weapon.get("weapon_class"), str)
        }

    def _fielded(self, session: dict[str, Any], figures: int) -> dict[str, Fielded]:
        """What each seat's loadout fielded (:func:`~tournaments.domain.plausibility.
        fielded_by_seat`), by the weapon classes of the document's catalogue (the default
        one when it has no weapons), as the judge's form checks them. A weapon's class
        cannot change while a loadout holds it, so this is what the form checked."""
        classes = self._weapon_classes() or {
            weapon.slug: weapon.weapon_class.value for weapon in DEFAULT_CATALOGUE.weapons
        }
        loadouts = {}
        for _index, seat in _objects(session.get("seats")):
            loadout = seat.get("loadout")
            if isinstance(seat.get("player"), str) and isinstance(loadout, dict):
                loadouts[seat["player"]] = [
                    *_list(loadout.get("marine_weapons")),
                    *_list(loadout.get("extra_marine_weapons")),
                ]
        return fielded_by_seat(loadouts, classes, figures)

    def _squad_ranks(self) -> None:
        seen: dict[Any, Path] = {}
        for index, rank in _objects(self.doc.get("squad_ranks")):
            path: Path = ("squad_ranks", index)
            self._player((*path, "player"), rank.get("player"))
            self._unique((*path, "player"), _str(rank.get("player")), seen, _("ranked player"))
            self._squad((*path, "squad"), rank.get("squad"))

    def _honours(self) -> None:
        seen: dict[Any, Path] = {}
        for index, honour in _objects(self.doc.get("honours")):
            path: Path = ("honours", index)
            self._player((*path, "player"), honour.get("player"))
            self._squad((*path, "squad"), honour.get("squad"))
            self._session_ref((*path, "session"), honour.get("session"))
            self._timestamp((*path, "superseded_at"), honour.get("superseded_at"))
            if honour.get("superseded_at") is None:
                self._unique(
                    (*path, "session"),
                    _ref_key(honour.get("session")),
                    seen,
                    _("honour session (of the honours in force)"),
                )
            self._timestamp((*path, "created_at"), honour.get("created_at"))

    def _score_bonuses(self) -> None:
        seen: dict[Any, Path] = {}
        for index, bonus in _objects(self.doc.get("score_bonuses")):
            path: Path = ("score_bonuses", index)
            self._player((*path, "player"), bonus.get("player"))
            self._session_ref((*path, "earned_in"), bonus.get("earned_in"))
            self._session_ref((*path, "used_in"), bonus.get("used_in"))
            self._timestamp((*path, "superseded_at"), bonus.get("superseded_at"))
            earned = _ref_key(bonus.get("earned_in"))
            in_force = bonus.get("superseded_at") is None
            if in_force and earned is not None and isinstance(bonus.get("player"), str):
                self._unique(
                    path, (bonus["player"], *earned), seen, _("bonus (player, session earned in)")
                )

    def _dice_rolls(self) -> None:
        seen: dict[Any, Path] = {}
        for index, roll in _objects(self.doc.get("dice_rolls")):
            path: Path = ("dice_rolls", index)
            self._stage((*path, "stage"), roll.get("stage"))
            self._session_ref((*path, "session"), roll.get("session"))
            batch, sequence = _str(roll.get("batch")), _int(roll.get("sequence"))
            if batch is not None and sequence is not None:
                self._unique(
                    (*path, "sequence"), (batch, sequence), seen, _("roll (batch, sequence)")
                )
            self._dice_values(path, roll)
            seed, commitment = _str(roll.get("seed")), _str(roll.get("seed_commitment"))
            if roll.get("source") == "scripted" and (seed or commitment):
                self.add(
                    (*path, "seed"),
                    _("physical (scripted) dice have no seed; use empty strings"),
                )
            elif (
                seed
                and seed.isascii()
                and seed.isdigit()
                and commitment
                and seed_commitment(int(seed)) != commitment
            ):
                self.add(
                    (*path, "seed_commitment"),
                    _("this is not the SHA-256 commitment of seed %(seed)s; the record was altered")
                    % {"seed": seed},
                )
            subject_player = roll.get("subject_player")
            self._player((*path, "subject_player"), subject_player)
            if subject_player is not None and roll.get("subject"):
                self.add(
                    (*path, "subject"),
                    _("give either a subject text or a subject_player, not both"),
                )
            self._timestamp((*path, "created_at"), roll.get("created_at"))

    def _dice_values(self, path: Path, roll: dict[str, Any]) -> None:
        try:
            faces = set(FACES[DieKind(roll.get("kind", ""))])
        except ValueError:
            return
        for index, value in enumerate(_list(roll.get("values"))):
            if _int(value) is not None and value not in faces:
                self.add(
                    (*path, "values", index),
                    _("a %(die)s cannot show %(value)d (allowed: %(faces)s)")
                    % {
                        "die": DIE_NAMES[DieKind(roll["kind"])],
                        "value": value,
                        "faces": ", ".join(str(face) for face in sorted(faces)),
                    },
                )

    def _activity(self) -> None:
        for index, entry in _objects(self.doc.get("activity")):
            path: Path = ("activity", index)
            verb = entry.get("verb")
            if isinstance(verb, str) and verb not in ActivityVerb.values:
                self.add(
                    (*path, "verb"),
                    _("unknown action %(verb)s; use one of: %(verbs)s")
                    % {"verb": json.dumps(verb), "verbs": ", ".join(ActivityVerb.values)},
                )
            self._timestamp((*path, "created_at"), entry.get("created_at"))


def _superseded(value: dict[str, Any]) -> str | None:
    """When a session (or the session a reference names) was superseded: None if in force."""
    superseded_at = value.get("superseded_at")
    return superseded_at if isinstance(superseded_at, str) else None


def _ref_key(value: Any) -> SessionKey | None:
    if not isinstance(value, dict):
        return None
    stage, session = _int(value.get("stage")), _int(value.get("session"))
    return None if stage is None or session is None else (stage, session, _superseded(value))


def check_document(
    document: Any, *, slug: str | None = None, check_slug: bool = True
) -> list[Problem]:
    """Every problem of ``document`` (empty when it can be imported).

    ``slug`` imports the tournament under another slug than the document's;
    ``check_slug=False`` skips the "already exists" check (to check a fresh export).
    An older version's document is checked as its upgrade to the current version; one
    older than the tournament's own maps (version 8) keeps its stages' and sessions' map
    names unchecked: they were free text then.
    """
    free_map_names = _version(document) < MAPS_ADDED_IN
    document = upgraded(document)
    problems = version_problems(document)
    if problems:
        return problems
    problems = nul_problems(document)
    problems.extend(schema_problems(document))
    problems.extend(_Checker(document, slug, check_slug, not free_map_names).run())
    return problems


def _version(document: Any) -> int:
    """The document's format version as written (the current one when it names none)."""
    version = document.get("format_version") if isinstance(document, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) else FORMAT_VERSION


#: The character PostgreSQL stores in no text or JSON value.
NUL = "\x00"


def nul_problems(value: Any, path: Path = ()) -> list[Problem]:
    """Every text (or object key) holding the NUL character: the database would refuse
    the document half-way otherwise."""
    if isinstance(value, str):
        if NUL not in value:
            return []
        return [
            Problem(
                json_path(path),
                _(
                    "the text contains the NUL character (\\u0000), which the database "
                    "cannot store; remove it"
                ),
            )
        ]
    problems: list[Problem] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and NUL in key:
                problems.append(
                    Problem(
                        json_path(path),
                        _(
                            "a key of this object contains the NUL character (\\u0000), "
                            "which the database cannot store; remove it"
                        ),
                    )
                )
            problems.extend(nul_problems(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            problems.extend(nul_problems(item, (*path, index)))
    return problems


# --- writing ---------------------------------------------------------------------------------


def _date(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def _time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _set_times(model: type[models.Model], name: str, groups: dict[datetime, list[int]]) -> None:
    """Give the rows of ``model`` their document times in ``name`` (auto_now_add set them
    to now): on PostgreSQL in one statement from two arrays, elsewhere one statement per
    distinct time (an embedded database has no round trip to save)."""
    if connection.vendor != "postgresql":
        for value, pks in groups.items():
            model._base_manager.filter(pk__in=pks).update(**{name: value})
        return
    pks = [pk for keys in groups.values() for pk in keys]
    times = [value for value, keys in groups.items() for _pk in keys]
    table, quote = model._meta.db_table, connection.ops.quote_name
    time_field, key_field = model._meta.get_field(name), model._meta.pk
    assert isinstance(time_field, models.Field) and key_field is not None
    column, key = str(time_field.column), str(key_field.column)
    key_type = key_field.rel_db_type(connection)  # bigint, or uuid for some sections
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(table)} SET {quote(column)} = given.time "
            f"FROM unnest((%s)::{key_type}[], (%s)::timestamptz[]) AS given(key, time) "
            f"WHERE {quote(table)}.{quote(key)} = given.key",
            [pks, times],
        )


class _Writer:
    """Creates the rows of a checked document; only called inside a transaction."""

    def __init__(self, document: dict[str, Any], slug: str | None) -> None:
        self.doc = document
        self.slug = slug
        self.users: dict[str, Any] = {}
        self.created_users: list[str] = []
        self.squads: dict[str, Squad] = {}
        self.players: dict[str, Player] = {}
        self.stages: dict[int, Stage] = {}
        self.sessions: dict[SessionKey, Session] = {}
        self.batches: dict[str, uuid.UUID] = {}
        self.tables: dict[str, Any] = {}
        self.timestamps: dict[type[models.Model], dict[str, dict[datetime, list[int]]]] = (
            defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
        )

    def user(self, username: str | None) -> Any:
        if username is None:
            return None
        if username not in self.users:
            user_model = get_user_model()
            user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
            if user is None:
                user = user_model(**{user_model.USERNAME_FIELD: username})
                user.set_unusable_password()
                user.save()
                self.created_users.append(username)
            self.users[username] = user
        return self.users[username]

    def pk_of(self, player_id: str, as_text: bool = False) -> int | str:
        pk = self.players[player_id].pk
        return str(pk) if as_text else pk

    def keep_time(self, instance: models.Model, field: str, text: str | None) -> None:
        """Remember a stored timestamp; auto_now_add fields are set after creation."""
        if text is not None:
            self.timestamps[type(instance)][field][datetime.fromisoformat(text)].append(instance.pk)

    def run(self) -> Tournament:
        tournament = self._tournament()
        self._squads(tournament)
        self._weapons(tournament)
        self._players(tournament)
        self._stages(tournament)
        self._preferences(tournament)
        self._ranks_honours_bonuses(tournament)
        self._dice_rolls(tournament)
        self._activity(tournament)
        for section in registered():
            section.write(self.doc[section.key], tournament, self)
        for model, fields in self.timestamps.items():
            for name, groups in fields.items():
                _set_times(model, name, groups)
        return Tournament.objects.get(pk=tournament.pk)

    def _tournament(self) -> Tournament:
        data = self.doc["tournament"]
        tournament = Tournament.objects.create(
            slug=self.slug or data["slug"],
            name=data["name"],
            starts_on=_date(data["starts_on"]),
            ends_on=_date(data["ends_on"]),
            venue=data["venue"],
            description=data["description"],
            seating_method=data["seating_method"],
            qualifier_overrides=data["qualifier_overrides"],
            data_overrides=data["data_overrides"],
            no_show_minutes=data["no_show_minutes"],
        )
        tournament.organisers.set([self.user(name) for name in data["organisers"]])
        tournament.judges.set([self.user(name) for name in data["judges"]])
        self.keep_time(tournament, "created_at", data["created_at"])
        return tournament

    def _squads(self, tournament: Tournament) -> None:
        for data in self.doc["squads"]:
            squad = Squad.objects.create(
                tournament=tournament,
                slug=data["slug"],
                name_en=data["name_en"],
                name_it=data["name_it"],
                colour=data["colour"],
                order=data["order"],
            )
            ChapterCard.objects.bulk_create(
                ChapterCard(
                    squad=squad,
                    slug=card["slug"],
                    name_en=card["name_en"],
                    name_it=card["name_it"],
                    kind=card["kind"],
                    use=card["use"],
                    effect_code=card["effect_code"],
                    effect_en=card["effect_en"],
                    effect_it=card["effect_it"],
                    source=card["source"],
                    confidence=card["confidence"],
                    order=card["order"],
                )
                for card in data["cards"]
            )
            self.squads[squad.slug] = squad

    def _weapons(self, tournament: Tournament) -> None:
        Weapon.objects.bulk_create(
            Weapon(
                tournament=tournament,
                slug=data["slug"],
                name_en=data["name_en"],
                name_it=data["name_it"],
                weapon_class=data["weapon_class"],
                colour_restricted=data["colour_restricted"],
            )
            for data in self.doc["weapons"]
        )

    def _players(self, tournament: Tournament) -> None:
        """The players and their registrations in two bulk inserts (no signals: the new
        tournament's own creation marks it changed)."""
        documents = self.doc["players"]
        players = Player.objects.bulk_create(
            Player(
                name=data["name"],
                nickname=data["nickname"],
                email=data["email"],
                language=data["language"],
                user=self.user(data["user"]),
            )
            for data in documents
        )
        registered = [
            (data, player)
            for data, player in zip(documents, players, strict=True)
            if data["number"] is not None
        ]
        registrations = Registration.objects.bulk_create(
            Registration(
                tournament=tournament,
                player=player,
                number=data["number"],
                withdrawn_at=_time(data["withdrawn_at"]),
                withdrawal_reason=data["withdrawal_reason"],
            )
            for data, player in registered
        )
        for data, player in zip(documents, players, strict=True):
            self.players[data["id"]] = player
        for (data, _player), registration in zip(registered, registrations, strict=True):
            self.keep_time(registration, "registered_at", data["registered_at"])

    def _preferences(self, tournament: Tournament) -> None:
        SquadPreference.objects.bulk_create(
            SquadPreference(
                player=self.players[data["id"]],
                tournament=tournament,
                stage=self.stages[pref["stage"]] if pref["stage"] is not None else None,
                choices=pref["choices"],
            )
            for data in self.doc["players"]
            for pref in data["preferences"]
        )

    def _player_pks(self, player_ids: Iterable[str]) -> list[int | str]:
        return [self.pk_of(player_id) for player_id in player_ids]

    def _stages(self, tournament: Tournament) -> None:
        sessions: list[tuple[Stage, dict[str, Any]]] = []
        for data in self.doc["stages"]:
            stage = Stage.objects.create(
                tournament=tournament,
                number=data["number"],
                kind=data["kind"],
                qualifier_count=data["qualifier_count"],
                seating_method=data["seating_method"],
                status=data["status"],
                stipulation_kind=data["stipulation_kind"],
                stipulation_params=data["stipulation_params"],
                map_name=data["map_name"],
                qualifiers=self._player_pks(data["qualifiers"]),
                closed_at=_time(data["closed_at"]),
            )
            self.stages[stage.number] = stage
            ScoreThreshold.objects.bulk_create(
                ScoreThreshold(stage=stage, points=points) for points in data["thresholds"]
            )
            sessions.extend((stage, session_data) for session_data in data["sessions"])
        self._sessions(tournament, sessions)

    def _table(self, tournament: Tournament, name: str) -> Any:
        if name not in self.tables:
            self.tables[name] = table_named(tournament, name)
        return self.tables[name]

    def _sessions(self, tournament: Tournament, sessions: list[tuple[Stage, dict[str, Any]]]):
        """Every session of the document and what hangs from it, one bulk insert per model
        (in document order, so the rows are numbered as one by one)."""
        created = Session.objects.bulk_create(
            Session(
                stage=stage,
                number=data["number"],
                scheduled_at=_time(data["scheduled_at"]),
                duration_minutes=data["duration_minutes"],
                table=self._table(tournament, data["table"]),
                judge=self.user(data["judge"]),
                status=data["status"],
                map_name=data["map_name"],
                without_map=data["without_map"],
                notes=data["notes"],
                schedule_sequence=data["schedule_sequence"],
                superseded_at=_time(data["superseded_at"]),
            )
            for stage, data in sessions
        )
        pairs = list(zip(created, (data for _stage, data in sessions), strict=True))
        for (stage, data), session in zip(sessions, created, strict=True):
            self.sessions[(stage.number, session.number, data["superseded_at"])] = session
        Stipulation.objects.bulk_create(
            Stipulation(
                session=session,
                kind=data["stipulation"]["kind"],
                params=clean_stipulation_params(
                    data["stipulation"]["kind"],
                    data["stipulation"]["params"],
                    playing_rules(tournament),
                ),
            )
            for session, data in pairs
            if data["stipulation"] is not None
        )
        ScoreThreshold.objects.bulk_create(
            ScoreThreshold(session=session, points=points)
            for session, data in pairs
            for points in data["thresholds"]
        )
        seated = [(session, seat_data) for session, data in pairs for seat_data in data["seats"]]
        seats = Seat.objects.bulk_create(
            Seat(
                session=session,
                player=self.players[seat_data["player"]],
                squad=self.squads[seat_data["squad"]] if seat_data["squad"] else None,
                seat_order=seat_data["seat_order"],
                initiative_position=seat_data["initiative_position"],
                notified_sequence=seat_data["notified_sequence"],
                checked_in_at=_time(seat_data["checked_in_at"]),
                forfeit=seat_data["forfeit"],
            )
            for session, seat_data in seated
        )
        Loadout.objects.bulk_create(
            Loadout(seat=seat, **seat_data["loadout"])
            for seat, (_session, seat_data) in zip(seats, seated, strict=True)
            if seat_data["loadout"] is not None
        )
        self._results([(session, data["result"]) for session, data in pairs if data["result"]])

    def _results(self, results: list[tuple[Session, dict[str, Any]]]) -> None:
        created = Result.objects.bulk_create(Result(session=session) for session, _data in results)
        versioned = [
            (result, version_data)
            for result, (_session, data) in zip(created, results, strict=True)
            for version_data in data["versions"]
        ]
        breakdowns = [
            rewrite_breakdown(
                version_data["breakdown"],
                lambda value, as_text, path: self.pk_of(value, as_text),
            )
            for _result, version_data in versioned
        ]
        versions = ResultVersion.objects.bulk_create(
            ResultVersion(
                result=result,
                tournament=result.session.stage.tournament,
                number=version_data["number"],
                breakdown=breakdown,
                **scored_totals(result.session.stage.tournament, breakdown),
                survivors=self._player_pks(version_data["survivors"]),
                ranking=self._player_pks(version_data["ranking"]),
                confirmed=version_data["confirmed"],
                **_version_reason(version_data),
                created_by=self.user(version_data["created_by"]),
                game_number=version_data["game_number"],
                game_step=version_data["game_step"],
            )
            for (result, version_data), breakdown in zip(versioned, breakdowns, strict=True)
        )
        for result, (_session, data) in zip(created, results, strict=True):
            self.keep_time(result, "created_at", data["created_at"])
        for version, (_result, version_data) in zip(versions, versioned, strict=True):
            self.keep_time(version, "created_at", version_data["created_at"])

    def player(self, player_id: str) -> Player:
        return self.players[player_id]

    def session_at(self, ref: dict[str, Any]) -> Session:
        return self.sessions[(ref["stage"], ref["session"], ref.get("superseded_at"))]

    def _session_of(self, ref: dict[str, Any] | None) -> Session | None:
        return None if ref is None else self.session_at(ref)

    def batch(self, text: str | None) -> uuid.UUID | None:
        """The stored batch of a document batch id (see :meth:`_batches`); one that names
        no roll is kept as it is."""
        return None if text is None else self.batches.get(text) or uuid.UUID(text)

    def _ranks_honours_bonuses(self, tournament: Tournament) -> None:
        SquadRank.objects.bulk_create(
            SquadRank(
                tournament=tournament,
                player=self.players[data["player"]],
                squad=self.squads[data["squad"]] if data["squad"] else None,
                rank=data["rank"],
            )
            for data in self.doc["squad_ranks"]
        )
        for data in self.doc["honours"]:
            honour = Honour.objects.create(
                tournament=tournament,
                player=self.players[data["player"]],
                squad=self.squads[data["squad"]],
                session=self.session_at(data["session"]),
                superseded_at=_time(data["superseded_at"]),
            )
            self.keep_time(honour, "created_at", data["created_at"])
        ScoreBonus.objects.bulk_create(
            ScoreBonus(
                tournament=tournament,
                player=self.players[data["player"]],
                earned_in=self._session_of(data["earned_in"]),
                thresholds_reached=data["thresholds_reached"],
                extra_equipment_cards=data["extra_equipment_cards"],
                used_in=self._session_of(data["used_in"]),
                superseded_at=_time(data["superseded_at"]),
            )
            for data in self.doc["score_bonuses"]
        )

    def _batches(self) -> dict[str, uuid.UUID]:
        """Each document batch id to the batch to store: kept, unless the database already
        holds that batch (a copy imported under another slug), then a fresh one."""
        batches = {data["batch"]: uuid.UUID(data["batch"]) for data in self.doc["dice_rolls"]}
        taken = set(
            DiceRoll.objects.filter(batch__in=batches.values())
            .values_list("batch", flat=True)
            .distinct()
        )
        return {text: uuid.uuid4() if value in taken else value for text, value in batches.items()}

    def _dice_rolls(self, tournament: Tournament) -> None:
        self.batches = batches = self._batches()
        rolls = DiceRoll.objects.bulk_create(
            DiceRoll(
                tournament=tournament,
                stage=self.stages[data["stage"]] if data["stage"] is not None else None,
                session=self._session_of(data["session"]),
                batch=batches[data["batch"]],
                sequence=data["sequence"],
                purpose=data["purpose"],
                purpose_code=data["purpose_code"],
                purpose_params=data["purpose_params"],
                kind=data["kind"],
                values=data["values"],
                subject=str(self.pk_of(data["subject_player"]))
                if data["subject_player"]
                else data["subject"],
                source=data["source"],
                seed=data["seed"],
                seed_commitment=data["seed_commitment"],
            )
            for data in self.doc["dice_rolls"]
        )
        for roll, data in zip(rolls, self.doc["dice_rolls"], strict=True):
            self.keep_time(roll, "created_at", data["created_at"])

    def _detail_player(self, value: Any, as_text: bool) -> Any:
        if isinstance(value, str) and value in self.players:
            return self.pk_of(value, as_text)
        return value

    def _detail_session(self, value: Any) -> Any:
        key = _ref_key(value)
        if key is not None and key in self.sessions:
            return self.sessions[key].pk
        return value

    def _activity(self, tournament: Tournament) -> None:
        entries = ActivityLog.objects.bulk_create(
            ActivityLog(
                tournament=tournament,
                actor=self.user(data["actor"]),
                verb=data["verb"],
                object_description=data["object_description"],
                description_code=data["description_code"],
                description_params=data["description_params"],
                details=rewrite_details(data["details"], self._detail_player, self._detail_session),
            )
            for data in self.doc["activity"]
        )
        for entry, data in zip(entries, self.doc["activity"], strict=True):
            self.keep_time(entry, "created_at", data["created_at"])


@dataclass
class ImportOutcome:
    tournament: Tournament
    created_users: list[str] = field(default_factory=list)


def import_document(
    document: Any, *, slug: str | None = None, organiser: Any = None
) -> ImportOutcome:
    """Check ``document`` and, only if it has no problem at all, create its tournament.

    Raises :class:`InterchangeError` listing every problem; nothing is written then. Users
    named in the document (organisers, judges, result authors...) are reused when they
    exist and otherwise created without a usable password (listed in the outcome).
    ``organiser``: the user importing it from the organiser's pages, made one of its
    organisers (so the tournament is theirs to open) and named in its activity log.
    """
    problems = check_document(document, slug=slug)
    if problems:
        raise InterchangeError(problems)
    document = upgraded(document)
    writer = _Writer(document, slug)
    try:
        with transaction.atomic():
            tournament = writer.run()
            if organiser is not None:
                tournament.organisers.add(organiser)
                log_activity(
                    tournament,
                    ActivityVerb.CREATED,
                    describe("tournament_imported"),
                    actor=organiser,
                )
    except IntegrityError as error:
        # Only a concurrent change (e.g. the same slug created meanwhile) gets here: the
        # checks above cover every constraint of the models.
        raise InterchangeError(
            [
                Problem(
                    "$",
                    _("the database refused the data (%(error)s); nothing was imported, try again")
                    % {"error": error},
                )
            ]
        ) from None
    return ImportOutcome(tournament, sorted(writer.created_users))


def _version_reason(version_data: dict[str, Any]) -> dict[str, str]:
    """The stored reason of an imported result version: the app's own reason, in any
    language, becomes its code; a typed reason stays as typed."""
    code = version_reason_code(version_data["reason"], version_data["number"])
    return {"reason": "" if code else version_data["reason"], "reason_code": code}
