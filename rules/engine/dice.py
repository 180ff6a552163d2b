"""The one dice service (RULES §14).

Every random event in BoB -- squad draws, initiative, roll-offs and the engine's combat
dice -- goes through a :class:`Dice` source, which records each roll with its purpose: a
code of :mod:`rules.engine.narration_dice` plus params (translated when shown), or free text.
Two sources exist:

* :class:`SeededDice` rolls from a seed with a documented, version-independent generator
  (SHA-256 in counter mode with rejection sampling), so anyone holding the seed can replay
  a draw on any machine. :func:`seed_commitment` gives the hash published before the roll.
* :class:`ScriptedDice` consumes values typed in by a judge rolling physical dice.

Combat dice have faces, not numbers: the white (light) die shows 0,0,0,0,1,2 and the red
(heavy) die 0,0,0,1,2,3. A scripted white or red die is entered as the face value shown.
"""

from __future__ import annotations

import hashlib
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .narration_dice import purpose_text


class DieKind(StrEnum):
    D3 = "d3"
    D6 = "d6"
    D12 = "d12"
    WHITE = "white"
    RED = "red"


WHITE_FACES: tuple[int, ...] = (0, 0, 0, 0, 1, 2)
RED_FACES: tuple[int, ...] = (0, 0, 0, 1, 2, 3)

#: The face values a die can show, in face order.
FACES: dict[DieKind, tuple[int, ...]] = {
    DieKind.D3: (1, 2, 3),
    DieKind.D6: (1, 2, 3, 4, 5, 6),
    DieKind.D12: tuple(range(1, 13)),
    DieKind.WHITE: WHITE_FACES,
    DieKind.RED: RED_FACES,
}


class DiceError(ValueError):
    """A dice script is unusable: too few dice, or a value a die cannot show."""


@dataclass(frozen=True)
class Roll:
    """One recorded roll: what it was for, which dice, and what they showed."""

    purpose: str
    kind: DieKind
    values: tuple[int, ...]
    source: str  # "seeded" or "scripted"
    subject: str | None = None  # e.g. the player or figure who rolled
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)  # of the purpose code

    @property
    def total(self) -> int:
        return sum(self.values)

    def purpose_in(self, lang: str) -> str:
        """The purpose as text in ``lang`` ("it" or "en")."""
        return purpose_text(self.purpose, self.params, lang)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "purpose": self.purpose,
            "kind": self.kind.value,
            "values": list(self.values),
            "source": self.source,
        }
        if self.subject is not None:
            data["subject"] = self.subject
        if self.params:
            data["params"] = dict(self.params)
        return data


def new_seed() -> int:
    """A fresh 64-bit seed from the operating system's secure generator."""
    return secrets.randbits(64)


def seed_commitment(seed: int) -> str:
    """SHA-256 (hex) of the seed's decimal text, published before an app-rolled draw."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


@dataclass
class Dice(ABC):
    """Base class of dice sources: rolls dice and keeps the log of every roll."""

    log: list[Roll] = field(default_factory=list, init=False)

    source = "abstract"

    def roll(
        self,
        kind: DieKind | str,
        count: int = 1,
        purpose: str = "",
        subject: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> tuple[int, ...]:
        """Roll ``count`` dice of ``kind`` and record them; returns the face values.
        ``purpose`` is a purpose code (with its ``params``) or free text."""
        if type(kind) is not DieKind:
            kind = DieKind(kind)
        params = params or {}
        values = self._faces(kind, count, purpose, params)
        self.log.append(Roll(purpose, kind, values, self.source, subject, params))
        return values

    def d6(self, purpose: str = "", subject: str | None = None) -> int:
        return self.roll(DieKind.D6, 1, purpose, subject)[0]

    def _faces(
        self, kind: DieKind, count: int, purpose: str, params: Mapping[str, Any]
    ) -> tuple[int, ...]:
        """``count`` dice of ``kind``, one after the other."""
        face = self._face
        return tuple([face(kind, purpose, params) for _ in range(count)])

    @abstractmethod
    def _face(self, kind: DieKind, purpose: str, params: Mapping[str, Any]) -> int:
        """One die's face value."""


#: The rejection limit of :meth:`SeededDice._below` for a six-faced die.
_SIX_LIMIT = 256 - 256 % 6


@dataclass
class SeededDice(Dice):
    """Dice driven by a seed; the same seed always gives the same sequence."""

    seed: int = field(default_factory=new_seed)
    _counter: int = field(default=0, init=False, repr=False)
    _pool: bytes = field(default=b"", init=False, repr=False)

    source = "seeded"

    @property
    def commitment(self) -> str:
        return seed_commitment(self.seed)

    def _next_block(self) -> bytes:
        """The next 32 bytes: SHA-256 of ``"<seed>:<counter>"``, counting from 0."""
        block = f"{self.seed}:{self._counter}".encode("ascii")
        self._counter += 1
        return hashlib.sha256(block).digest()

    def _below(self, n: int) -> int:
        """Uniform integer in [0, n) for n <= 256, by rejection sampling: bytes are taken
        in order, a new block when the last one is used up."""
        limit = 256 - 256 % n
        while True:
            pool = self._pool or self._next_block()
            value, self._pool = pool[0], pool[1:]
            if value < limit:
                return value % n

    def _faces(
        self, kind: DieKind, count: int, purpose: str, params: Mapping[str, Any]
    ) -> tuple[int, ...]:
        """Combat dice without a call per die: each takes the next byte below 252 (the
        rejection limit of :meth:`_below` for six faces) from the pool, exactly as
        ``count`` calls of :meth:`_face` would."""
        if kind is DieKind.RED:
            faces = RED_FACES
        elif kind is DieKind.WHITE:
            faces = WHITE_FACES
        else:
            return super()._faces(kind, count, purpose, params)
        values: list[int] = []
        pool = self._pool
        used = 0
        while len(values) < count:
            if used == len(pool):
                pool, used = self._next_block(), 0
            value = pool[used]
            used += 1
            if value < _SIX_LIMIT:
                values.append(faces[value % 6])
        self._pool = pool[used:]
        return tuple(values)

    def _face(self, kind: DieKind, purpose: str, params: Mapping[str, Any]) -> int:
        if kind is DieKind.D3:
            # A d3 is a d6 halved and rounded up (RULES §10).
            return (self._below(6) + 2) // 2
        faces = FACES[kind]
        return faces[self._below(len(faces))]


@dataclass
class ScriptedDice(Dice):
    """Dice typed in by a judge: values are consumed in order and checked."""

    values: Sequence[int] = ()
    _position: int = field(default=0, init=False, repr=False)

    source = "scripted"

    @property
    def remaining(self) -> int:
        return len(self.values) - self._position

    def _face(self, kind: DieKind, purpose: str, params: Mapping[str, Any]) -> int:
        number = self._position + 1
        if self._position >= len(self.values):
            what = f" for {purpose_text(purpose, params, 'en')}" if purpose else ""
            raise DiceError(
                f"not enough dice: die {number}{what} is needed but only "
                f"{len(self.values)} were given; add more values"
            )
        value = self.values[self._position]
        allowed = sorted(set(FACES[kind]))
        if value not in allowed:
            shown = ", ".join(str(v) for v in allowed)
            raise DiceError(
                f"die {number} is {value}, which a {kind.value} die cannot show (allowed: {shown})"
            )
        self._position += 1
        return value


def _not_a_number(position: int, item: str) -> str:
    return f"die {position} is {item!r}, which is not a whole number"


def parse_dice_list(
    text: str, *, not_a_number: Callable[[int, str], str] = _not_a_number
) -> list[int]:
    """Parse a judge's typed dice such as ``"3,6,5"``; raises DiceError on bad items, with
    the message ``not_a_number(position, item)`` (English unless the caller translates)."""
    values: list[int] = []
    for position, item in enumerate(text.split(","), start=1):
        item = item.strip()
        if not item:
            continue
        try:
            values.append(int(item))
        except ValueError:
            raise DiceError(not_a_number(position, item)) from None
    return values


def log_as_dicts(rolls: Iterable[Roll]) -> list[dict]:
    return [roll.as_dict() for roll in rolls]
