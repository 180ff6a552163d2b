"""The tournament's own maps in the tournament document (format version 8): each map's
name and drawing, the drawing being the map's one source (``docs/maps.md``). A section
(:mod:`tournaments.interchange.sections`), registered from
:class:`tournaments.apps.TournamentsConfig`; docs/interchange.md describes it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rules.engine.maps import MapError, bundled_maps, shared_map_text
from tournaments.domain.engine_language import narration_language
from tournaments.interchange.sections import CheckContext, Path, Section, WriteContext, objects_of
from tournaments.models import DRAWING_LIMIT, Tournament, TournamentMap

ADDED_IN = 8
MAPS = "maps"


def export_maps(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"name": tournament_map.name, "drawing": tournament_map.drawing}
        for tournament_map in TournamentMap.objects.filter(tournament=tournament).order_by("name")
    ]


def check_maps(maps: list[Any], context: CheckContext) -> None:
    """Each drawing reads, under the name given beside it; names are the tournament's own
    (not a shipped map's) and unique."""
    seen: dict[str, Path] = {}
    language = narration_language()
    for index, item in objects_of(maps):
        name, drawing = item.get("name"), item.get("drawing")
        if not isinstance(name, str) or not isinstance(drawing, str):
            continue  # the schema says what is wrong
        path: Path = (MAPS, index)
        if name in bundled_maps():
            context.add(
                (*path, "name"),
                _("BoB ships a map called %(name)s; a tournament's own map needs another name")
                % {"name": name},
            )
        if name in seen:
            context.add((*path, "name"), _("this map name is used already; each map needs its own"))
        seen[name] = path
        try:
            board = shared_map_text(drawing, source=f"{name}.txt")
        except MapError as error:
            for problem in error.problems:
                context.add((*path, "drawing"), problem.text_in(language))
            continue
        if board.name != name:
            context.add(
                (*path, "name"),
                _("the drawing's 'name:' line says %(drawn)s; the two must be the same")
                % {"drawn": board.name or "–"},
            )


def write_maps(maps: list[dict[str, Any]], tournament: Tournament, context: WriteContext) -> None:
    TournamentMap.objects.bulk_create(
        TournamentMap(tournament=tournament, name=item["name"], drawing=item["drawing"])
        for item in maps
    )


def own_map_names(document: dict[str, Any]) -> set[str]:
    """The names of a document's own maps."""
    return {
        item["name"]
        for _index, item in objects_of(document.get(MAPS))
        if isinstance(item.get("name"), str)
    }


def unknown_map(name: Any, own: set[str]) -> str | None:
    """What is wrong with a stage's or session's ``map_name`` in a document with the own
    maps ``own``: None when it names one of them or a map BoB ships, or is empty (no map
    chosen yet); else a message naming the maps it may name."""
    if not isinstance(name, str) or not name or name in own or name in bundled_maps():
        return None
    return _(
        'there is no map called "%(map)s": use one BoB ships (%(shipped)s), one of the '
        'document\'s own maps in $.maps (%(own)s), or "" for no map chosen yet'
    ) % {
        "map": name,
        "shipped": ", ".join(sorted(bundled_maps())),
        "own": ", ".join(sorted(own)) or _("it has none"),
    }


SECTION = Section(
    key=MAPS,
    added_in=ADDED_IN,
    schema={"type": "array", "items": {"$ref": "#/$defs/tournament_map"}},
    definitions={
        "tournament_map": {
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "drawing"],
            "properties": {
                "name": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9_-]*$", "maxLength": 120},
                "drawing": {"type": "string", "minLength": 1, "maxLength": DRAWING_LIMIT},
            },
        }
    },
    export=export_maps,
    check=check_maps,
    write=write_maps,
)
