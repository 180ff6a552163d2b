"""Organiser forms for one session's own stipulation and score thresholds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.domain.map_fit import MapMisfit
from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.forms.stipulation import StipulationFieldsMixin
from tournaments.models import ScoreThreshold, Session, StipulationKind
from tournaments.queries.edit_versions import session_stipulation_version
from tournaments.queries.session_stipulation import session_squads, stipulation_map_misfit


class SessionStipulationForm(VersionedFormMixin, StipulationFieldsMixin, AccessibleForm):
    """The session's stipulation; starts from the stage's when the session has none.

    The session plays its stage's map: a stipulation that map cannot hold the flags of is
    refused; one that leaves its flag spots unused is saved with a warning
    (``map_problem``, shown while the session plays it)."""

    stipulation_kind = forms.ChoiceField(
        label=_("Stipulation type"),
        choices=[("", "---------"), *StipulationKind.choices],
        error_messages={"required": _("Choose the stipulation this session plays.")},
    )

    def __init__(self, *args, session: Session, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session
        stipulation = getattr(session, "stipulation", None)
        if stipulation is not None:
            kind, params = stipulation.kind, stipulation.params
        else:
            kind, params = session.stage.stipulation_kind, session.stage.stipulation_params
        self.initial.setdefault("stipulation_kind", kind)
        self.add_stipulation_fields(params, kind)
        #: What is wrong with the session's map for its stipulation: the one it plays,
        #: until the form is checked; then the one typed (a refusal is an error instead).
        self.map_problem: MapMisfit | None = None
        if not self.is_bound:
            self.map_problem = self._map_problem(kind, params)
        self.add_version_fields(lambda: session_stipulation_version(session))

    def _map_problem(self, kind: str, params: dict) -> MapMisfit | None:
        session = self.session
        map_name = session.map_name or session.stage.map_name
        if not kind or not map_name:
            return None
        tournament = session.stage.tournament
        return stipulation_map_misfit(tournament, kind, params, map_name, session_squads(session))

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self.clean_stipulation(cleaned)
        if "stipulation_params" in cleaned:
            problem = self._map_problem(cleaned["stipulation_kind"], cleaned["stipulation_params"])
            if problem is not None and problem.blocking:
                where = _("The session plays its stage's map: change it on the stage's page.")
                self.add_error("stipulation_kind", f"{problem.message} {where}")
            else:
                self.map_problem = problem
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
