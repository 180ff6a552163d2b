"""Who rolled a die of a game, named for the judge: the player and the figure.

A game's rolls record their roller by figure id (``p3-cmd``, ``p2-m4``, ``ork-blip-1-1``):
the board's engine names a seated player by seat order (``p3`` is the seat in order 3) and
their figures after it, the commander ``-cmd`` and the marines ``-m1``, ``-m2``...; an
alien's id starts with its unit (``ork-``). A judge reading a dice list wants the person at
the table: "Laura Bianchi — Commander (p3-cmd)".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.translation import gettext as _

from rules.engine.figure_names import UNIT_NAMES
from tournaments.domain.engine_language import narration_language

_PLAYER_FIGURE = re.compile(r"^(?P<player>p\d+)-(?P<figure>.+)$")
_MARINE = re.compile(r"^m(?P<number>\d+)$")


def seat_player_id(seat_order: int) -> str:
    """The id the board's games give the player seated in order ``seat_order`` (``p1``)."""
    return f"p{seat_order}"


def _unit_of(figure_id: str) -> str | None:
    """The unit an alien's id starts with (the longest unit key that fits), if any."""
    units = [unit for unit in UNIT_NAMES if figure_id.startswith(f"{unit}-")]
    return max(units, key=len) if units else None


def _unit_name(unit: str) -> str:
    return UNIT_NAMES[unit][narration_language()]


def _figure(part: str) -> str:
    """A player's figure by the end of its id: ``cmd``, ``m4``, or a unit's id."""
    if part == "cmd":
        return _unit_name("commander")
    marine = _MARINE.match(part)
    if marine:
        return _("Marine %(number)s") % {"number": marine["number"]}
    unit = _unit_of(part) or (part if part in UNIT_NAMES else None)
    return _unit_name(unit) if unit else part


def roll_subject_label(subject: str, players: Mapping[str, str]) -> str:
    """A game roll's roller (a figure id) as the player and the figure; ``players``: the
    seated players' names by their game id (:func:`seat_player_id`). An id that names no
    figure this way is shown as it is."""
    owned = _PLAYER_FIGURE.match(subject)
    if owned and owned["player"] in players:
        return _("%(player)s — %(figure)s (%(id)s)") % {
            "player": players[owned["player"]],
            "figure": _figure(owned["figure"]),
            "id": subject,
        }
    unit = _unit_of(subject)
    if unit is not None:
        return _("%(player)s — %(figure)s (%(id)s)") % {
            "player": _("Aliens"),
            "figure": _unit_name(unit),
            "id": subject,
        }
    return subject
