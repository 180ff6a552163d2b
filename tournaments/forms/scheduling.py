"""Forms of the scheduling grid: the tables list, placing one session, a whole stage."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.moments import when_field
from tournaments.models import Session, SessionStatus, Stage, Tournament, VenueTable
from tournaments.models.row_ids import ROW_IDS
from tournaments.queries.roles import staff_label, tournament_staff

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class SessionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Session) -> str:
        return _("Session %(number)d") % {"number": obj.number}


class IdChoicesField(forms.ModelMultipleChoiceField):
    """Rows chosen by id (ticked boxes). A value posted that no id can be is refused as any
    other unknown choice is: Django asks the database about every value, and SQLite cannot
    be asked about one beyond 64 bits (:data:`~tournaments.models.row_ids.ROW_IDS`)."""

    def clean(self, value: Any) -> QuerySet:
        for pk in value if isinstance(value, list | tuple) else ():
            try:
                number = int(str(pk))
            except ValueError:
                continue  # not a number at all: Django's own check says so
            if number not in ROW_IDS:
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": pk},
                )
        return super().clean(value)


class StaffChoicesField(IdChoicesField):
    """Accounts of the tournament's staff, each shown by :func:`staff_label`."""

    def label_from_instance(self, obj: User) -> str:
        return staff_label(obj)


class TableForm(AccessibleForm):
    name = forms.CharField(
        label=_("Table name"),
        max_length=60,
        help_text=_(
            "Its own number or name, e.g. 5 or finale (palco): pages write “Table” before it."
        ),
    )


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
    """Schedule the stage: rounds of one session per chosen table from a start time, with
    the judges ticked shared out among the sessions."""

    start = when_field(_("First start"))
    minutes = forms.IntegerField(
        label=_("Minutes per round"),
        min_value=1,
        max_value=24 * 60,
        help_text=_("Each round starts this long after the one before."),
    )
    tables = IdChoicesField(
        label=_("Tables"),
        queryset=VenueTable.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    judges = StaffChoicesField(
        label=_("Judges to share out"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Each session gets one of the judges ticked, never one who judges or plays "
            "another session at the same time; a session none of them is free for is named "
            "before anything is saved. Tick none to keep each session's judge."
        ),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        tables = self.fields["tables"]
        assert isinstance(tables, IdChoicesField)
        tables.queryset = tournament.tables.all()
        judges = self.fields["judges"]
        assert isinstance(judges, StaffChoicesField)
        judges.queryset = tournament_staff(tournament)
        waiting = [staff_label(judge) for judge in _judges(tournament, can_log_in=False)]
        if waiting:
            judges.help_text = " ".join(
                [
                    str(judges.help_text),
                    ngettext(
                        "%(names)s is not ticked: they have no password yet, so cannot log "
                        "in (the Judges page has their password link); tick them anyway to "
                        "give them sessions.",
                        "%(names)s are not ticked: they have no password yet, so cannot log "
                        "in (the Judges page has their password links); tick them anyway to "
                        "give them sessions.",
                        len(waiting),
                    )
                    % {"names": ", ".join(waiting)},
                ]
            )

    @staticmethod
    def judges_to_tick(tournament: Tournament) -> list[User]:
        """The judges ticked at first: those who can log in (a judge still without a
        password would be given sessions they cannot open)."""
        return _judges(tournament, can_log_in=True)


def _judges(tournament: Tournament, *, can_log_in: bool) -> list[User]:
    """The tournament's judges by user name, those with a password or those without."""
    judges = tournament.judges.order_by("username")
    return [judge for judge in judges if judge.has_usable_password() == can_log_in]
