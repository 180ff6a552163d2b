"""Honours, ranks and score bonuses (RULES §9) and the cards they allow (RULES §5).

* Winning a session gives the squad an honour and one rank step: Marine Squad (0) ->
  Elite Squad (1) -> Veteran Squad (2). Honours keep counting after the top rank; ranks
  are never lost. Each rank above Marine Squad gives one extra order card.
* Score bonus: the organiser's ascending thresholds for a session or stage; each threshold
  the player's points reach (points >= threshold) gives one extra equipment card in the
  player's next session only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MARINE_SQUAD, ELITE_SQUAD, VETERAN_SQUAD = 0, 1, 2
MAX_RANK = VETERAN_SQUAD
BASE_ORDER_CARDS = 1
BASE_EQUIPMENT_CARDS = 4


class HonoursError(ValueError):
    """Rank or thresholds out of range; the message says what is allowed."""


@dataclass(frozen=True)
class SquadStanding:
    """A player's squad rank (0-2) and the number of honours won so far."""

    rank: int = MARINE_SQUAD
    honours: int = 0

    def __post_init__(self) -> None:
        _check_rank(self.rank)
        if self.honours < 0:
            raise HonoursError(f"honours cannot be negative, not {self.honours}")


def _check_rank(rank: int) -> None:
    if not MARINE_SQUAD <= rank <= MAX_RANK:
        raise HonoursError(
            f"rank {rank} does not exist; use 0 (Marine Squad), 1 (Elite Squad) or "
            "2 (Veteran Squad)"
        )


def after_session(standing: SquadStanding, won: bool) -> SquadStanding:
    """The standing after a session: a win adds an honour and a rank step (capped)."""
    if not won:
        return standing
    return SquadStanding(rank=min(standing.rank + 1, MAX_RANK), honours=standing.honours + 1)


def thresholds_reached(points: int, thresholds: Sequence[int]) -> int:
    """How many of the ascending ``thresholds`` the ``points`` reach."""
    for earlier, later in zip(thresholds, thresholds[1:], strict=False):
        if later <= earlier:
            raise HonoursError(
                "score thresholds must be strictly ascending, e.g. 30, 60, 90; got "
                + ", ".join(str(value) for value in thresholds)
            )
    return sum(1 for threshold in thresholds if points >= threshold)


@dataclass(frozen=True)
class CardAllowance:
    """How many order and equipment cards a player takes into a session."""

    orders: int
    equipment: int


def card_allowance(rank: int, previous_thresholds_reached: int = 0) -> CardAllowance:
    """1 order + 1 per rank step (max +2); 4 equipment + 1 per threshold reached last time."""
    _check_rank(rank)
    if previous_thresholds_reached < 0:
        raise HonoursError(
            f"thresholds reached cannot be negative, not {previous_thresholds_reached}"
        )
    return CardAllowance(
        orders=BASE_ORDER_CARDS + rank,
        equipment=BASE_EQUIPMENT_CARDS + previous_thresholds_reached,
    )


def standings_after_wins(
    current: dict[str, SquadStanding], winners: Sequence[str]
) -> dict[str, SquadStanding]:
    """Each winner's standing once the honours for ``winners`` (session winners, in the order
    the stage's close awards them) are given: what a confirmed result already promises."""
    after: dict[str, SquadStanding] = {}
    for winner in winners:
        before = after.get(winner) or current.get(winner) or SquadStanding()
        after[winner] = after_session(before, won=True)
    return after
