"""Organiser forms for one session's own stipulation, map and score thresholds."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.domain.map_fit import MapMisfit
from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.maps import map_menu
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.forms.stipulation import StipulationFieldsMixin
from tournaments.models import (
    HIGHEST_THRESHOLD,
    LOWEST_THRESHOLD,
    ScoreThreshold,
    Session,
    StipulationKind,
)
from tournaments.queries.edit_versions import session_settings_version
from tournaments.queries.playable_maps import map_choices
from tournaments.queries.session_stipulation import (
    own_map_name,
    session_squads,
    stipulation_map_misfit,
)


class SessionStipulationForm(VersionedFormMixin, StipulationFieldsMixin, AccessibleForm):
    """The session's stipulation, starting from the stage's when the session has none, and
    its map: the stage's (blank) or one of its own, for a table with another board.

    A stipulation the map cannot hold (decision 45) is refused at the field changed: the
    map when this form changed it, else the stipulation; one that leaves something unmet
    is saved with a warning (``map_problem``, shown while the session plays it)."""

    stipulation_kind = forms.ChoiceField(
        label=_("Stipulation type"),
        choices=[("", "---------"), *StipulationKind.choices],
        error_messages={"required": _("Choose the stipulation this session plays.")},
    )
    map_name = forms.ChoiceField(
        label=_("Map"),
        required=False,
        widget=map_menu(),
        help_text=_(
            "Another map than the stage's only for this session, e.g. when its table has "
            "another tile set. A game already set up at the table keeps the map it started "
            "on; a game set up afterwards starts on this one."
        ),
        error_messages={
            "invalid_choice": _(
                "The tournament has no map called “%(value)s” and BoB ships none: choose "
                "one from the list."
            )
        },
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
        self._add_map_choices()
        self.add_stipulation_fields(params, kind, session.stage.tournament)
        #: What is wrong with the session's map for its stipulation: the ones it plays,
        #: until the form is checked; then the ones chosen (a refusal is an error instead).
        self.map_problem: MapMisfit | None = None
        if not self.is_bound:
            self.map_problem = self._map_problem(kind, params, own_map_name(session))
        self.add_version_fields(
            lambda: session_settings_version(session), tournament=session.stage.tournament
        )

    def _add_map_choices(self) -> None:
        """The stage's map first (blank), then every other map the tournament can play;
        ``map_labels``: each by name as the menu shows it (the session's own and its
        stage's among them, as :func:`~tournaments.queries.playable_maps.map_menu_label`
        names them), read once for the page."""
        session = self.session
        stage_map = session.stage.map_name
        own = own_map_name(session)
        choices = map_choices(session.stage.tournament, [own, stage_map])
        self.map_labels: dict[str, str] = dict(choices)
        if stage_map:
            default = _("The stage's map (%(map)s)") % {"map": self.map_labels[stage_map]}
        else:
            default = str(_("The stage's map (none chosen yet)"))
        field = self.fields["map_name"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", default)] + [
            (name, label) for name, label in choices if name != stage_map
        ]
        self.initial.setdefault("map_name", own)

    def _map_problem(self, kind: str, params: dict, own_map: str) -> MapMisfit | None:
        session = self.session
        map_name = own_map or session.stage.map_name
        if not kind or not map_name:
            return None
        tournament = session.stage.tournament
        return stipulation_map_misfit(tournament, kind, params, map_name, session_squads(session))

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self.clean_stipulation(cleaned)
        if "stipulation_params" in cleaned and "map_name" in cleaned:
            own_map = cleaned["map_name"]
            problem = self._map_problem(
                cleaned["stipulation_kind"], cleaned["stipulation_params"], own_map
            )
            if problem is not None and problem.blocking:
                if own_map != own_map_name(self.session):
                    self.add_error("map_name", problem.message)
                else:
                    where = _("This session's own map is chosen under “Map”.")
                    self.add_error("stipulation_kind", f"{problem.message} {where}")
            else:
                self.map_problem = problem
        return cleaned


class ThresholdForm(AccessibleForm):
    points = forms.IntegerField(
        label=_("New threshold (points)"),
        min_value=LOWEST_THRESHOLD,
        max_value=HIGHEST_THRESHOLD,
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
