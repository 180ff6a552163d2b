"""What an organiser's form was loaded from, as a short digest: the expected version of the
optimistic lock for things that carry no version column (decision 46).

A session row counts its changes (``Session.version``); the catalogue's cards and weapons,
the rules data's values, a stage's settings, a session's own stipulation and a map do not,
and some of them are one part of a JSON object several forms share (each unit's values in
``Tournament.data_overrides``). Their version is therefore a digest of exactly what their
form edits, as stored: a form remembers it, the saving action computes it again under its
row lock and refuses the save when it differs (:func:`~tournaments.actions.optimistic_lock.
check_unchanged`). Two tabs editing two different units never refuse each other; a change
put back as it was is no change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError

from rules.engine.units import RulesData
from tournaments.models import (
    ChapterCard,
    Player,
    Session,
    Squad,
    Stage,
    Stipulation,
    Tournament,
    TournamentMap,
    Weapon,
    clean_stipulation_params,
    readable_rules,
)
from tournaments.queries.session_stipulation import own_map_name

#: The fields of a chapter card the organiser edits (its slug and chapter stay).
CARD_FIELDS = (
    "name_en",
    "name_it",
    "kind",
    "use",
    "effect_code",
    "effect_en",
    "effect_it",
    "source",
    "confidence",
)
#: The fields of a weapon the organiser edits (its slug stays).
WEAPON_FIELDS = ("name_en", "name_it", "weapon_class", "colour_restricted")
#: The fields of a squad the organiser edits (its slug and colour stay).
SQUAD_FIELDS = ("name_en", "name_it", "order")
#: The tournament's own details, as the organiser's dashboard edits them.
TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "starts_on",
    "ends_on",
    "venue",
    "description",
    "seating_method",
    "no_show_minutes",
)
#: A registered player's details, as the organiser edits them.
PLAYER_FIELDS = ("name", "nickname", "email")


def content_version(values: Any) -> str:
    """A short digest of ``values`` (plain JSON data): equal values, equal digests."""
    text = json.dumps(values, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def card_version(card: ChapterCard) -> str:
    return content_version({name: getattr(card, name) for name in CARD_FIELDS})


def weapon_version(weapon: Weapon) -> str:
    return content_version({name: getattr(weapon, name) for name in WEAPON_FIELDS})


def squads_version(squads: Iterable[Squad]) -> str:
    """The tournament's squads (all of them: their names and the squad order)."""
    return content_version(
        {squad.slug: [getattr(squad, name) for name in SQUAD_FIELDS] for squad in squads}
    )


def tournament_version(tournament: Tournament) -> str:
    return content_version({name: getattr(tournament, name) for name in TOURNAMENT_FIELDS})


def player_version(player: Player) -> str:
    return content_version({name: getattr(player, name) for name in PLAYER_FIELDS})


def overrides_version(tournament: Tournament, section: str, key: str | None = None) -> str:
    """The version of one section of the tournament's rules data changes (the token values:
    ``alien_tokens``), or of one entry of it (a unit's values: ``units``, ``ork``; an event
    card's wording: ``events``, ``report``)."""
    part = (tournament.data_overrides or {}).get(section) or {}
    if key is not None:
        part = part.get(key) if isinstance(part, dict) else None
    return content_version(part)


def stage_version(stage: Stage, thresholds: Iterable[int] | None = None) -> str:
    """What the stage's form edits: its stipulation, map, qualifiers, seating and score
    thresholds (``thresholds``, when given, instead of the stored ones: the version a save
    would leave)."""
    if thresholds is None:
        thresholds = stage.thresholds.values_list("points", flat=True)
    return content_version(
        {
            "kind": stage.stipulation_kind,
            "params": _with_defaults(
                stage.stipulation_kind,
                stage.stipulation_params,
                readable_rules(stage.tournament)[0],
            ),
            "map": stage.map_name,
            "qualifiers": stage.qualifier_count,
            "seating": stage.seating_method,
            "thresholds": sorted(thresholds),
        }
    )


def _with_defaults(kind: str, params: Any, rules: RulesData | None) -> Any:
    """A stipulation's parameters with their defaults filled in, so that parameters stored
    without them (a stage made in code) and the same ones as its form writes them are one
    version; as they are when they no longer pass the checks (of ``rules``, the
    tournament's rules data, whose Dreadnought classes its house rules may add to)."""
    try:
        return clean_stipulation_params(kind, params, rules)
    except ValidationError:
        return params


def session_stipulation_version(session: Session) -> str:
    """The session's own stipulation (none: it plays its stage's)."""
    own = Stipulation.objects.filter(session=session).values_list("kind", "params").first()
    return content_version(list(own) if own else None)


def session_settings_version(session: Session) -> str:
    """What the session's settings form edits: its own stipulation and its own map (none:
    it plays its stage's), as stored."""
    stored = Session.objects.select_related("stage").get(pk=session.pk)
    return content_version(
        {"stipulation": session_stipulation_version(stored), "map": own_map_name(stored)}
    )


def map_version(tournament_map: TournamentMap) -> str:
    return content_version({"name": tournament_map.name, "drawing": tournament_map.drawing})
