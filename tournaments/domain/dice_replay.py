"""Replaying recorded app dice from their seed (RULES.md §14).

App dice are :class:`~rules.engine.dice.SeededDice`: every value follows from the seed, so
anyone holding the seed can roll the same dice again, in the same order, and compare. A
seed's rolls are replayed as one stream from its first roll: one action may store its rolls
in several batches (a stage's cut, then the next stage's seating and squad draws).
static/js/dice-verify.js does the same in the browser; ``manage.py verify_dice`` on a server.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.engine.dice import DieKind, SeededDice, seed_commitment


@dataclass(frozen=True)
class RecordedDie:
    """One stored roll as the replay needs it: the kind of die and the values it showed."""

    kind: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Replay:
    seed: int
    commitment_holds: bool
    #: The values the seed gives for each recorded roll, in order.
    replayed: tuple[tuple[int, ...], ...]
    #: Whether each recorded roll equals its replay.
    matches: tuple[bool, ...]

    @property
    def holds(self) -> bool:
        return self.commitment_holds and all(self.matches)


def replay(seed: int, commitment: str, rolls: Sequence[RecordedDie]) -> Replay:
    """Roll ``rolls`` again from ``seed`` and compare, and check the seed's hash."""
    dice = SeededDice(seed=seed)
    replayed = tuple(dice.roll(DieKind(roll.kind), len(roll.values)) for roll in rolls)
    return Replay(
        seed=seed,
        commitment_holds=seed_commitment(seed) == commitment,
        replayed=replayed,
        matches=tuple(
            tuple(roll.values) == values for roll, values in zip(rolls, replayed, strict=True)
        ),
    )
