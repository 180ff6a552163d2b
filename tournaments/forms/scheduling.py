"""Forms of the scheduling grid: the tables list, placing one session, a whole stage."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import AccessibleForm
from tournaments.models import Session, SessionStatus, Stage, Tournament, VenueTable

#: A date and time to the minute, as a datetime-local input gives and takes it.
MINUTE = "%Y-%m-%dT%H:%M"
DATETIME_INPUT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format=MINUTE)
DATETIME_FORMATS = [MINUTE, "%Y-%m-%d %H:%M"]


def when_field(label) -> forms.DateTimeField:
    return forms.DateTimeField(label=label, widget=DATETIME_INPUT, input_formats=DATETIME_FORMATS)


class SessionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Session) -> str:
        return _("Session %(number)d") % {"number": obj.number}


class TableForm(AccessibleForm):
    name = forms.CharField(label=_("Table name"), max_length=60)


class TableCountForm(AccessibleForm):
    count = forms.IntegerField(label=_("Number of tables"), min_value=1, max_value=60)


class GridTimeForm(AccessibleForm):
    at_new = when_field(_("Add a start time"))


class GridPlaceForm(AccessibleForm):
    """One session at one table and start time (a cell of the grid)."""

    session = SessionChoiceField(label=_("Session"), queryset=Session.objects.none())
    table = forms.ModelChoiceField(label=_("Table"), queryset=VenueTable.objects.none())
    when = when_field(_("Start"))

    def __init__(self, *args, stage: Stage, **kwargs):
        super().__init__(*args, **kwargs)
        open_statuses = (SessionStatus.PLANNED, SessionStatus.SCHEDULED)
        self.fields["session"].queryset = stage.sessions.filter(status__in=open_statuses)  # type: ignore[attr-defined]
        self.fields["table"].queryset = stage.tournament.tables.all()  # type: ignore[attr-defined]


class StagePlanForm(AccessibleForm):
    """Schedule the stage: rounds of one session per chosen table from a start time."""

    start = when_field(_("First start"))
    minutes = forms.IntegerField(
        label=_("Minutes per round"),
        min_value=1,
        max_value=24 * 60,
        help_text=_("Each round starts this long after the one before."),
    )
    tables = forms.ModelMultipleChoiceField(
        label=_("Tables"),
        queryset=VenueTable.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        tables = self.fields["tables"]
        assert isinstance(tables, forms.ModelMultipleChoiceField)
        tables.queryset = tournament.tables.all()
