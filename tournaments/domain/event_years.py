"""The years an event can be held in (decision 57), for the forms and the import alike."""

from __future__ import annotations

#: StarQuest's own year, and a century ahead.
EARLIEST_YEAR = 1990
LATEST_YEAR = 2100


def is_event_year(year: int) -> bool:
    return EARLIEST_YEAR <= year <= LATEST_YEAR
