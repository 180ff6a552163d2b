"""Whether a session map suits a stipulation (RULES §6, §10; tournament rules decision 45
in docs/decisions.md).

Only Catch the Flag uses a map's flag spots: the engine places the stipulation's flags on
them (``rules.engine.flags.place_flags``), as many as there are spots at most. So:

* Catch the Flag on a map with fewer flag spots than the flags it places is refused: the
  game would start with fewer flags than the stipulation says (none on a map without
  spots), which no judge can put right at the table;
* any other stipulation on a map with flag spots is a warning: the game is played as the
  stipulation says, the spots are simply not used, but they are drawn on the board and
  players may take them for flags. A club may well use its one map for every stipulation.

Plain values in, a sentence in the reader's language out; the forms and the stage
checklist ask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.flags import FLAG_COUNTS

CATCH_THE_FLAG = "catch_the_flag"
#: A session holds three squads at most (RULES §2).
MOST_SQUADS = 3


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
    map_name: str,
    flag_spots: int,
    *,
    squads: int = MOST_SQUADS,
    suited: Sequence[str] = (),
) -> MapMisfit | None:
    """What is wrong with stipulation ``kind`` (its ``params``) on the map ``map_name``
    that has ``flag_spots`` flag spots, for a session of ``squads`` squads; None when they
    fit. ``suited``: maps (as the reader knows them) that would fit, named in the fix."""
    if kind == CATCH_THE_FLAG:
        needed = flags_placed(params, squads)
        if flag_spots >= needed:
            return None
        return MapMisfit(_too_few_spots(map_name, flag_spots, needed, suited), blocking=True)
    if not kind or not flag_spots:
        return None
    message = ngettext(
        "The map “%(map)s” has %(spots)d flag spot, which only Catch the Flag uses: this "
        "stipulation places no flag there, but the board still shows the spot, and players "
        "may take it for a flag. Choose a map without flag spots, or keep this one and tell "
        "the players.",
        "The map “%(map)s” has %(spots)d flag spots, which only Catch the Flag uses: this "
        "stipulation places no flag there, but the board still shows the spots, and players "
        "may take them for flags. Choose a map without flag spots, or keep this one and tell "
        "the players.",
        flag_spots,
    ) % {"map": map_name, "spots": flag_spots}
    return MapMisfit(message, blocking=False)


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
