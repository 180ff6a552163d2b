"""d6 roll-offs: session initiative (RULES §5) and every other roll-off of the tournament.

Two shapes of roll-off exist and both re-roll only among the tied, in the order the
claimants were given (seat order):

* :func:`roll_off` finds one winner: everybody rolls 1d6, the highest wins; players tied
  on the highest roll again. Ties below the highest are never re-rolled.
  :func:`roll_off_select` generalises it to the best ``k`` (e.g. the last qualifying
  places): only a tie straddling the cut is re-rolled.
* :func:`roll_off_order` orders everybody (initiative, leftover squads, ranking ties):
  everybody rolls 1d6 and is sorted highest first; each group tied on the same value
  re-rolls among itself, groups taken from the highest value down, recursively.

Every die goes through the :class:`~rules.engine.dice.Dice` service and is returned as
a :class:`RollRecord` so the caller can store it (RULES §14).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.engine.dice import Dice


@dataclass(frozen=True)
class RollRecord:
    """One d6 rolled in a roll-off: what it decided, who rolled it, what it showed."""

    purpose: str
    player: str
    value: int

    def as_dict(self) -> dict:
        return {"purpose": self.purpose, "player": self.player, "value": self.value}


@dataclass(frozen=True)
class InitiativeResult:
    """Play order for a whole session (first player first) and the dice that fixed it."""

    order: tuple[str, ...]
    rolls: tuple[RollRecord, ...]

    def as_dict(self) -> dict:
        return {"order": list(self.order), "rolls": [roll.as_dict() for roll in self.rolls]}


def _check_claimants(claimants: Sequence[str]) -> None:
    if len(set(claimants)) != len(claimants):
        raise ValueError(
            "a roll-off lists the same player twice; give each player once: " + ", ".join(claimants)
        )


def _round_purpose(purpose: str, reroll: int) -> str:
    return purpose if reroll == 0 else f"{purpose} (re-roll {reroll})"


def roll_off(
    claimants: Sequence[str], dice: Dice, purpose: str, rolls: list[RollRecord] | None = None
) -> str:
    """The single winner of a roll-off among ``claimants`` (seat order).

    Rolls are appended to ``rolls`` when given. One claimant wins without rolling.
    """
    if not claimants:
        raise ValueError("a roll-off needs at least one player")
    return roll_off_select(claimants, 1, dice, purpose, rolls)[0]


def roll_off_select(
    claimants: Sequence[str],
    places: int,
    dice: Dice,
    purpose: str,
    rolls: list[RollRecord] | None = None,
) -> tuple[str, ...]:
    """The ``places`` best of a roll-off, best first; dice are rolled only where needed.

    Everybody rolls; groups tied on a value that lie wholly above the cut are taken in
    the order of their roll (their inner order is not re-rolled), and only the group
    straddling the cut re-rolls, among itself, for the places left.
    """
    _check_claimants(claimants)
    if not 0 <= places <= len(claimants):
        raise ValueError(f"cannot pick {places} of {len(claimants)} players in a roll-off")
    record = rolls if rolls is not None else []
    return tuple(_select(list(claimants), places, dice, purpose, 0, record))


def _select(
    players: list[str], places: int, dice: Dice, purpose: str, reroll: int, record: list
) -> list[str]:
    if places == 0:
        return []
    if places == len(players):
        return players
    label = _round_purpose(purpose, reroll)
    values = {}
    for player in players:
        values[player] = dice.d6(label, player)
        record.append(RollRecord(label, player, values[player]))
    chosen: list[str] = []
    for value in sorted(set(values.values()), reverse=True):
        group = [player for player in players if values[player] == value]
        left = places - len(chosen)
        if len(group) <= left:
            chosen.extend(group)
        else:
            chosen.extend(_select(group, left, dice, purpose, reroll + 1, record))
        if len(chosen) == places:
            break
    return chosen


def roll_off_order(
    claimants: Sequence[str], dice: Dice, purpose: str, rolls: list[RollRecord] | None = None
) -> tuple[str, ...]:
    """All ``claimants`` ordered by a roll-off, highest first (ties re-rolled among the tied)."""
    _check_claimants(claimants)
    record = rolls if rolls is not None else []
    return tuple(_order(list(claimants), dice, purpose, 0, record))


def _order(
    players: list[str], dice: Dice, purpose: str, reroll: int, record: list[RollRecord]
) -> list[str]:
    if len(players) <= 1:
        return players
    label = _round_purpose(purpose, reroll)
    values = {}
    for player in players:
        values[player] = dice.d6(label, player)
        record.append(RollRecord(label, player, values[player]))
    ordered: list[str] = []
    for value in sorted(set(values.values()), reverse=True):
        group = [player for player in players if values[player] == value]
        ordered.extend(_order(group, dice, purpose, reroll + 1, record))
    return ordered


def roll_initiative(players: Sequence[str], dice: Dice) -> InitiativeResult:
    """RULES §5: each player rolls 1d6, higher plays first, ties re-roll among the tied."""
    if not players:
        raise ValueError("initiative needs at least one player")
    rolls: list[RollRecord] = []
    order = roll_off_order(players, dice, "initiative", rolls)
    return InitiativeResult(order=order, rolls=tuple(rolls))
