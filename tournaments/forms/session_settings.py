"""Organiser forms for one session's own stipulation and score thresholds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.stipulation import StipulationFieldsMixin
from tournaments.models import ScoreThreshold, Session, StipulationKind


class SessionStipulationForm(StipulationFieldsMixin, AccessibleForm):
    """The session's stipulation; starts from the stage's when the session has none."""

    stipulation_kind = forms.ChoiceField(
        label=_("Stipulation type"),
        choices=[("", "---------"), *StipulationKind.choices],
        error_messages={"required": _("Choose the stipulation this session plays.")},
    )

    def __init__(self, *args, session: Session, **kwargs):
        super().__init__(*args, **kwargs)
        stipulation = getattr(session, "stipulation", None)
        if stipulation is not None:
            kind, params = stipulation.kind, stipulation.params
        else:
            kind, params = session.stage.stipulation_kind, session.stage.stipulation_params
        self.initial.setdefault("stipulation_kind", kind)
        self.add_stipulation_fields(params, kind)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self.clean_stipulation(cleaned)
        return cleaned


class ThresholdForm(AccessibleForm):
    points = forms.IntegerField(
        label=_("New threshold (points)"),
        min_value=1,
        max_value=9999,
        help_text=_("Reaching it gives +1 equipment card in the player's next session."),
        error_messages={
            "required": _("Type the points of the threshold, e.g. 30."),
            "invalid": _("Type the threshold as a whole number of points, e.g. 30."),
            "min_value": _("A threshold must be at least 1 point; scores start from zero."),
        },
    )

    def __init__(self, *args, session: Session, **kwargs):
        self.session = session
        super().__init__(*args, **kwargs)

    def clean_points(self) -> int:
        points = self.cleaned_data["points"]
        if ScoreThreshold.objects.filter(session=self.session, points=points).exists():
            raise ValidationError(
                ngettext(
                    "This session already has a threshold at %(points)d point; type another.",
                    "This session already has a threshold at %(points)d points; type another.",
                    points,
                )
                % {"points": points}
            )
        return points
