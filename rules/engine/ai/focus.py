"""An alien's focus: the marine player it goes after (RULES §11, BoB policy).

The board work (distance fields, line of sight) is done by the caller, which hands over
one :class:`PlayerReach` per player; this module only applies the ordered criteria and
says which criterion settled the choice, for the judge's log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Stands for "no path": larger than any real distance.
UNREACHABLE = 10**9


@dataclass(frozen=True)
class PlayerReach:
    """What one alien can do against one player this turn."""

    player: str
    distance: int  # squares of legal movement to a free square orthogonally adjacent
    attackable: bool  # can shoot one of the player's figures or reach adjacency this turn
    marines_in_play: int
    commander_alive: bool
    initiative: int  # position in the initiative order, 0 = first

    @property
    def reachable(self) -> bool:
        return self.distance < UNREACHABLE


#: The criteria in order, as the phrase codes logged when a criterion decides; each is the
#: element of :func:`focus_key` at the same position.
_CRITERIA = ("distance", "marines_in_play", "commander_alive", "focus_initiative")


def focus_key(reach: PlayerReach) -> tuple[int, int, int, int]:
    """Sort key, best first: the shortest distance, more marines in play, commander alive,
    earlier in initiative."""
    return (
        reach.distance,
        -reach.marines_in_play,
        0 if reach.commander_alive else 1,
        reach.initiative,
    )


def deciding_criterion(best: PlayerReach, others: Sequence[PlayerReach]) -> str:
    """The first criterion on which ``best`` beats every other candidate still tied."""
    best_key = focus_key(best)
    tied = [focus_key(other) for other in others]
    for position, name in enumerate(_CRITERIA):
        tied = [key for key in tied if key[position] == best_key[position]]
        if not tied:
            return name
    return "focus_initiative"


def choose_focus(reaches: Sequence[PlayerReach]) -> tuple[PlayerReach | None, str]:
    """Pick the focus: among players it can attack, else all players it can reach, the
    shortest path distance, then more marines in play, then the commander alive, then
    earlier in initiative. Returns (None, "no_path") when no player can be reached or
    attacked."""
    attackable = [r for r in reaches if r.attackable]
    pool = attackable or [r for r in reaches if r.reachable]
    if not pool:
        return None, "no_path"
    best = min(pool, key=focus_key)
    others = [r for r in pool if r is not best]
    if not others:
        return best, "only_player"
    return best, deciding_criterion(best, others)
