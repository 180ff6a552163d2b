"""Whether a session map suits a stipulation (RULES §2, §6, §10; tournament rules
decision 45 in docs/decisions.md): what the judge would otherwise find only when starting
a game at the table.

* Every squad enters by its own docking claw: a map with fewer claws than the session's
  squads is refused.
* Catch the Flag places its flags on the map's flag spots (``rules.engine.flags.
  place_flags``), as many as there are spots at most: a map with fewer spots than the
  flags it places is refused (the game would start short of flags, or with none).
* Blips that hide special equipment must lie on the map's alien blip markers: a square
  that is none is refused, naming the markers.
* A stipulation with aliens in play on a map without an alien marker, and without
  reinforcements or the alien event deck, has no alien to meet: a warning (a club may mean
  it).

Plain values in, sentences in the reader's language out; the forms and the stage
checklist ask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.board import Board
from rules.engine.flags import FLAG_COUNTS
from tournaments.domain.plausibility import aliens_in_play

CATCH_THE_FLAG = "catch_the_flag"
GENESTEALER = "genestealer"
#: A session holds three squads at most (RULES §2).
MOST_SQUADS = 3
#: Blip markers named in a refusal, at most (a large map has dozens).
MARKERS_NAMED = 12


@dataclass(frozen=True)
class MapMisfit:
    """What is wrong with playing a stipulation on a map; ``blocking``: refuse it."""

    message: str
    blocking: bool


def flags_placed(params: Mapping[str, Any], squads: int = MOST_SQUADS) -> int:
    """How many flags a Catch the Flag stipulation with ``params`` places for ``squads``."""
    rule = FLAG_COUNTS.get(str(params.get("flags") or "one_per_squad"))
    return (rule or FLAG_COUNTS["one_per_squad"])(squads)


def map_misfit(
    kind: str,
    params: Mapping[str, Any],
    board: Board,
    map_name: str,
    *,
    squads: int = MOST_SQUADS,
    suited: Sequence[str] = (),
) -> MapMisfit | None:
    """What is wrong with stipulation ``kind`` (its ``params``) on ``board`` (the map the
    reader knows as ``map_name``) for a session of ``squads`` squads, every problem in one
    message (blocking when any is); None when they fit. ``suited``: maps (as the reader
    knows them) with enough flag spots, named in a flag refusal."""
    if not kind:
        return None
    refusals = [
        problem
        for problem in (
            _too_few_claws(board, map_name, squads),
            _too_few_flags(kind, params, board, map_name, squads, suited),
            _equipment_off_markers(params, board, map_name),
        )
        if problem
    ]
    if refusals:
        return MapMisfit(" ".join(refusals), blocking=True)
    warning = _no_alien(kind, params, board, map_name)
    return MapMisfit(warning, blocking=False) if warning else None


def _too_few_claws(board: Board, map_name: str, squads: int) -> str:
    claws = len(board.claws)
    if claws >= squads:
        return ""
    return ngettext(
        "The map “%(map)s” has %(claws)d docking claw, but the session seats %(squads)d "
        "squads and each enters by its own: choose a map with at least %(squads)d.",
        "The map “%(map)s” has %(claws)d docking claws, but the session seats %(squads)d "
        "squads and each enters by its own: choose a map with at least %(squads)d.",
        claws,
    ) % {"map": map_name, "claws": claws, "squads": squads}


def _too_few_flags(
    kind: str,
    params: Mapping[str, Any],
    board: Board,
    map_name: str,
    squads: int,
    suited: Sequence[str],
) -> str:
    if kind != CATCH_THE_FLAG:
        return ""
    needed, spots = flags_placed(params, squads), len(board.flag_spots)
    return "" if spots >= needed else _too_few_spots(map_name, spots, needed, suited)


def blip_markers(board: Board) -> list[str]:
    """The squares (``"x,y"``) of ``board``'s alien blip markers: where a blip may hide
    special equipment (Genestealers have no blips)."""
    return [f"{x},{y}" for (x, y), alien in board.markers.items() if alien != GENESTEALER]


def _equipment_off_markers(params: Mapping[str, Any], board: Board, map_name: str) -> str:
    markers = blip_markers(board)
    wrong = [square for square in params.get("equipment_blips") or {} if square not in markers]
    if not wrong:
        return ""
    problem = ngettext(
        "Square %(squares)s is to hide special equipment, but it is no alien blip marker of "
        "the map “%(map)s”.",
        "Squares %(squares)s are to hide special equipment, but they are no alien blip "
        "markers of the map “%(map)s”.",
        len(wrong),
    ) % {"squares": "; ".join(wrong), "map": map_name}
    if not markers:
        return problem + " " + _("The map has no blip marker: leave the special equipment out.")
    named = "; ".join(markers[:MARKERS_NAMED]) + ("; …" if len(markers) > MARKERS_NAMED else "")
    return problem + " " + _("Choose among its blip markers: %(markers)s.") % {"markers": named}


def _no_alien(kind: str, params: Mapping[str, Any], board: Board, map_name: str) -> str:
    if not aliens_in_play(kind, params) or board.markers:
        return ""
    if params.get("reinforcements") or params.get("event_deck"):
        return ""
    return _(
        "The map “%(map)s” has no alien marker and the stipulation brings no reinforcements "
        "or alien events, so no alien will appear: choose a map with alien markers, or add "
        "reinforcements."
    ) % {"map": map_name}


def _too_few_spots(map_name: str, spots: int, needed: int, suited: Sequence[str]) -> str:
    if spots:
        problem = ngettext(
            "Catch the Flag places %(needed)d flags here, but the map “%(map)s” has only "
            "%(spots)d flag spot, so the game would start with fewer flags than the "
            "stipulation says.",
            "Catch the Flag places %(needed)d flags here, but the map “%(map)s” has only "
            "%(spots)d flag spots, so the game would start with fewer flags than the "
            "stipulation says.",
            spots,
        ) % {"needed": needed, "map": map_name, "spots": spots}
        fix = _(
            "Choose fewer flags, or another map, or draw more flag spots (F) on this one on "
            "the Maps page."
        )
    else:
        problem = _(
            "The map “%(map)s” has no flag spot, so a Catch the Flag game on it would have "
            "no flag to catch."
        ) % {"map": map_name}
        fix = _("Choose another map, or draw flag spots (F) on this one on the Maps page.")
    if suited:
        fix += " " + _("Maps with enough flag spots: %(maps)s.") % {"maps": ", ".join(suited)}
    return f"{problem} {fix}"
