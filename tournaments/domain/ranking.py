"""Session ranking (RULES §6 and §8).

A session is ranked first by its stipulation's winner rule, then by points:

* Alien Hunt and Catch the Flag: most points.
* TPK and Extended TPK: squads with a marine alive at the end rank above eliminated
  squads; survivors among themselves and eliminated squads among themselves by points.
  With one survivor this is "last squad standing wins, second = most points among the
  eliminated"; with several survivors (the stall breaker ended the session) the most
  points among survivors wins. When nobody survives, points alone decide.

A tie left after that is settled by a recorded d6 roll-off only when it matters: the
caller says which positions must have a single holder (``settle``; by default all of
them). A tie that does not matter keeps a shared position.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules.engine.dice import Dice
from tournaments.domain.initiative import RollRecord, roll_off_order


class RankingError(ValueError):
    """The results cannot be ranked as given."""


class StipulationKind(StrEnum):
    ALIEN_HUNT = "alien_hunt"
    CATCH_THE_FLAG = "catch_the_flag"
    TPK = "tpk"
    EXTENDED_TPK = "extended_tpk"


#: Stipulations won by the last squad with a marine alive.
LAST_SQUAD_STANDING = frozenset({StipulationKind.TPK, StipulationKind.EXTENDED_TPK})


@dataclass(frozen=True)
class SeatResult:
    """A seat's end-of-session result: its points and whether a marine of it is alive."""

    seat: str
    points: int
    survived: bool = True


@dataclass(frozen=True)
class RankedSeat:
    """A seat's place in its session.

    ``position`` is 1-based; seats left tied share the lower number and have ``tied`` set.
    ``by_roll_off`` marks a place decided by the roll-off.
    """

    seat: str
    position: int
    points: int
    survived: bool
    tied: bool = False
    by_roll_off: bool = False

    def as_dict(self) -> dict:
        return {
            "seat": self.seat,
            "position": self.position,
            "points": self.points,
            "survived": self.survived,
            "tied": self.tied,
            "by_roll_off": self.by_roll_off,
        }


@dataclass(frozen=True)
class SessionRanking:
    """The seats of one session in ranking order and the dice rolled for ties."""

    order: tuple[RankedSeat, ...]
    rolls: tuple[RollRecord, ...] = ()

    def as_dict(self) -> dict:
        return {
            "order": [seat.as_dict() for seat in self.order],
            "rolls": [roll.as_dict() for roll in self.rolls],
        }

    @property
    def winner(self) -> str:
        return self.order[0].seat

    def seat_at(self, position: int) -> RankedSeat | None:
        """The seat holding ``position`` alone (None when nobody, or several, hold it)."""
        holders = [seat for seat in self.order if seat.position == position]
        return holders[0] if len(holders) == 1 else None

    def position_of(self, seat: str) -> int:
        for ranked in self.order:
            if ranked.seat == seat:
                return ranked.position
        raise KeyError(seat)


def rank_session(
    stipulation: StipulationKind | str,
    results: Sequence[SeatResult],
    dice: Dice | None = None,
    settle: Collection[int] | None = None,
    purpose: str = "session ranking",
) -> SessionRanking:
    """Rank a session's seats (RULES §8).

    ``settle`` lists the positions that must end with a single holder (who qualifies,
    best runner-up, podium); ``None`` means every position. Ties covering such a position
    are settled by a roll-off through ``dice``; a :class:`RankingError` is raised if dice
    are needed but none were given.
    """
    try:
        kind = StipulationKind(stipulation)
    except ValueError:
        allowed = ", ".join(member.value for member in StipulationKind)
        raise RankingError(f"unknown stipulation {stipulation!r}; use one of {allowed}") from None
    if not results:
        raise RankingError("no results to rank; give one result per seat")
    seats = [result.seat for result in results]
    if len(set(seats)) != len(seats):
        raise RankingError("a seat appears twice in the results; give one result per seat")

    key = _order_key(kind)
    ordered = sorted(results, key=key, reverse=True)
    rolls: list[RollRecord] = []
    ranked: list[RankedSeat] = []
    index = 0
    while index < len(ordered):
        group = [r for r in ordered[index:] if key(r) == key(ordered[index])]
        position = index + 1
        span = range(position, position + len(group))
        if len(group) == 1:
            ranked.append(_ranked(group[0], position))
        elif settle is None or any(place in settle for place in span):
            if dice is None:
                names = ", ".join(r.seat for r in group)
                raise RankingError(
                    f"{names} are tied for position {position}; a roll-off is needed, so "
                    "give dice (app-rolled or the judge's physical dice)"
                )
            by_seat = {r.seat: r for r in group}
            tie_order = roll_off_order(
                [r.seat for r in group], dice, f"{purpose}: tie for position {position}", rolls
            )
            for offset, seat in enumerate(tie_order):
                ranked.append(_ranked(by_seat[seat], position + offset, by_roll_off=True))
        else:
            ranked.extend(_ranked(r, position, tied=True) for r in group)
        index += len(group)
    return SessionRanking(order=tuple(ranked), rolls=tuple(rolls))


def _order_key(kind: StipulationKind) -> Callable[[SeatResult], tuple]:
    """What ranks a seat higher under ``kind`` (RULES §8): the winner rule, then points."""

    def key(result: SeatResult) -> tuple:
        if kind in LAST_SQUAD_STANDING:
            return (result.survived, result.points)
        return (result.points,)

    return key


def first_tie(stipulation: StipulationKind | str, results: Sequence[SeatResult]) -> list[str]:
    """The seats of the highest group of tied seats, in the order their roll-off rolls
    (seat order, as :func:`rank_session` rolls them); empty when no two seats are tied."""
    key = _order_key(StipulationKind(stipulation))
    for result in sorted(results, key=key, reverse=True):
        group = [other.seat for other in results if key(other) == key(result)]
        if len(group) > 1:
            return group
    return []


def _ranked(
    result: SeatResult, position: int, tied: bool = False, by_roll_off: bool = False
) -> RankedSeat:
    return RankedSeat(
        seat=result.seat,
        position=position,
        points=result.points,
        survived=result.survived,
        tied=tied,
        by_roll_off=by_roll_off,
    )


def _renumbered(order: Sequence[RankedSeat], rolls: tuple[RollRecord, ...]) -> SessionRanking:
    return SessionRanking(
        order=tuple(
            replace(seat, position=place, tied=False) for place, seat in enumerate(order, start=1)
        ),
        rolls=rolls,
    )


def forfeits_last(ranking: SessionRanking, forfeited: Collection[str]) -> SessionRanking:
    """The ranking with the seats that forfeited moved to the bottom (in their own order)
    and every place numbered again (decision 33)."""
    kept = [seat for seat in ranking.order if seat.seat not in forfeited]
    gone = [seat for seat in ranking.order if seat.seat in forfeited]
    return _renumbered(kept + gone, ranking.rolls)


def leave_out(ranking: SessionRanking, seats: Collection[str]) -> SessionRanking:
    """The ranking without ``seats`` (players who withdrew cannot qualify, decision 32);
    those below them move up."""
    return _renumbered([seat for seat in ranking.order if seat.seat not in seats], ranking.rolls)
