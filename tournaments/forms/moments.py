"""Dates and times as the forms take them: the inputs a phone shows, and the years an event
can be held in.

A date outside those years is a typo (a year of five digits, a missing one), and the
extremes would not even be stored: the first hours of year 1 and the last of year 9999
overflow the conversion to UTC, and a stage's plan adds its rounds' minutes to its start.
So every date and date-time field refuses them with words, and the inputs say the range
to the browser's picker too.
"""

from __future__ import annotations

from datetime import date

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.domain.event_years import EARLIEST_YEAR, LATEST_YEAR, is_event_year

#: A date and time to the minute, as a datetime-local input gives and takes it.
MINUTE = "%Y-%m-%dT%H:%M"
DATETIME_FORMATS = [MINUTE, "%Y-%m-%d %H:%M"]
DATE_INPUT = forms.DateInput(
    attrs={"type": "date", "min": f"{EARLIEST_YEAR}-01-01", "max": f"{LATEST_YEAR}-12-31"},
    format="%Y-%m-%d",
)
DATETIME_INPUT = forms.DateTimeInput(
    attrs={
        "type": "datetime-local",
        "min": f"{EARLIEST_YEAR}-01-01T00:00",
        "max": f"{LATEST_YEAR}-12-31T23:59",
    },
    format=MINUTE,
)


def check_year(value: date | None) -> None:
    """Refuse a date (or date and time) outside :data:`EARLIEST_YEAR`–:data:`LATEST_YEAR`."""
    if value is not None and not is_event_year(value.year):
        raise ValidationError(
            _(
                "Give a date between the years %(earliest)d and %(latest)d; this one is in "
                "%(year)d."
            ),
            code="year",
            params={"earliest": EARLIEST_YEAR, "latest": LATEST_YEAR, "year": value.year},
        )


def when_field(label, **kwargs) -> forms.DateTimeField:
    """A date and time to the minute, within the years an event can be held in."""
    return forms.DateTimeField(
        label=label,
        widget=DATETIME_INPUT,
        input_formats=DATETIME_FORMATS,
        validators=[check_year],
        **kwargs,
    )
