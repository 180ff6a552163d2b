"""Points of a stored result version, computed from its breakdown by the scoring service.

Result versions store what each seat recorded (``SeatBreakdown.to_dict()``), not totals, so
a correction of the scoring values or a scoring fix changes every page consistently.
"""

from __future__ import annotations

from tournaments.domain.scoring import ScoringError, ScoringValues, SeatBreakdown, score_session
from tournaments.models import ResultVersion


def breakdowns(version: ResultVersion) -> list[SeatBreakdown]:
    return [SeatBreakdown.from_dict(entry) for entry in version.breakdown or []]


def version_totals(version: ResultVersion, values: ScoringValues | None = None) -> dict[int, int]:
    """Total points per player id (with the tournament's ``values``); empty when the stored
    breakdown cannot be read."""
    try:
        cards = score_session(breakdowns(version), values)
    except ScoringError:
        return {}
    totals: dict[int, int] = {}
    for seat, card in cards.items():
        try:
            totals[int(seat)] = card.total
        except ValueError:
            continue
    return totals
