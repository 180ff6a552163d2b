"""What the organiser narrows the activity log to: an action, a stage or one of its
sessions, an account."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import AccessibleForm
from tournaments.models import ActivityVerb, Session, Stage, Tournament
from tournaments.queries.activity_page import logged_accounts


def stage_label(stage: Stage) -> str:
    """ "Semifinal (2)": the stage's kind and number, as the log's entries name it."""
    return _("%(kind)s (%(number)d)") % {"kind": stage.get_kind_display(), "number": stage.number}


class ActivityFilterForm(AccessibleForm):
    """Read from the page's query string; each field left empty narrows nothing. A session
    is asked by its number within a stage (a menu of every session would list 729 for a
    stage of 2,187 players). A value that is not one of the choices (an old link) or a
    session the stage does not have is named next to its field, and the page then lists
    every entry."""

    action = forms.ChoiceField(label=_("Action"), required=False)
    stage = forms.TypedChoiceField(label=_("Stage"), required=False, coerce=int, empty_value=None)
    session = forms.IntegerField(
        label=_("Session number"),
        required=False,
        min_value=1,
        help_text=_("Within the stage chosen."),
    )
    who = forms.TypedChoiceField(label=_("Who"), required=False, coerce=int, empty_value=None)

    def __init__(self, data: Any = None, *, tournament: Tournament) -> None:
        super().__init__(data)
        self.stages = {stage.number: stage for stage in tournament.stages.order_by("number")}
        accounts = [(user.pk, user.get_username()) for user in logged_accounts(tournament)]
        stages = [(number, stage_label(stage)) for number, stage in self.stages.items()]
        for name, every, choices in (
            ("action", _("every action"), ActivityVerb.choices),
            ("stage", _("every stage"), stages),
            ("who", _("anyone"), accounts),
        ):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [("", every), *choices]

    def clean(self) -> dict[str, Any]:
        """The session asked for (``found``), read from its stage and number; with one
        stage, the number alone is enough."""
        data = super().clean() or {}
        number, stage = data.get("session"), data.get("stage")
        if number is None or "stage" in self.errors:
            return data
        if stage is None and len(self.stages) == 1:
            stage = data["stage"] = next(iter(self.stages))
        if stage is None:
            message = _("Choose the stage of session %(number)d.") % {"number": number}
            self.add_error("stage", message)
            return data
        chosen = self.stages[stage]
        data["found"] = Session.objects.filter(stage=chosen, number=number).first()
        if data["found"] is None:
            last = chosen.sessions.count()
            words = {"stage": stage_label(chosen), "number": number, "last": last}
            self.add_error(
                "session",
                _("%(stage)s has no session %(number)d: its sessions are numbered 1 to %(last)d.")
                % words
                if last
                else _("%(stage)s has no session yet.") % words,
            )
        return data

    def narrowing(self) -> dict[str, Any]:
        """The keywords of :func:`~tournaments.queries.activity_page.activity_entries` the
        valid fields give (nothing when a field is invalid: every entry)."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {
            "action": data["action"],
            "stage": self.stages.get(data["stage"]),
            "session": data.get("found"),
            "actor": data["who"],
        }
