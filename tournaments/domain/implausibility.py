"""A recorded value of a session's result the game cannot have produced (RULES §5–§9).

Found by :mod:`tournaments.domain.plausibility` and :mod:`tournaments.domain.stipulation_limits`;
every entry point puts its message where the value was typed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Implausibility:
    """A recorded value the game cannot have produced.

    ``seat`` is the seat whose record holds it, ``entry`` the breakdown field (``kills``,
    ``losses``, ``tarantulas``, ``dreadnoughts``, ``alien_tokens``, ``objectives``,
    ``stall_breaker``) or ``survived`` (the seat's place in the survivors), ``index`` the
    position in that field's list and ``part`` the value in the entry (``count``,
    ``value``, ``alien_type``, ``points``, ``round``), when the rule is about one of them.
    """

    code: str
    message: str
    seat: str
    entry: str
    index: int | None = None
    part: str | None = None
