"""Organiser forms: the tournament, players, roster upload, judges, stages and schedule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments.actions.player_accounts import AccountLinkError, find_account, link_problem
from tournaments.actions.registration import NewPlayer
from tournaments.domain.file_limits import MAX_ROSTER_BYTES
from tournaments.domain.map_fit import MapMisfit
from tournaments.domain.progression import qualifier_limits, qualifier_range_message
from tournaments.forms.accessible import AccessibleForm, AccessibleModelForm
from tournaments.forms.maps import map_menu
from tournaments.forms.moments import DATE_INPUT, check_year, when_field
from tournaments.forms.people import check_display_name
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.forms.stipulation import StipulationFieldsMixin
from tournaments.models import (
    HIGHEST_THRESHOLD,
    LOWEST_THRESHOLD,
    Player,
    Registration,
    Session,
    Stage,
    Tournament,
    VenueTable,
)
from tournaments.queries.edit_versions import TOURNAMENT_FIELDS, stage_version, tournament_version
from tournaments.queries.playable_maps import map_choices
from tournaments.queries.roles import staff_label, tournament_staff
from tournaments.queries.session_stipulation import stipulation_map_misfit
from tournaments.queries.stage_checklist import qualifier_size, stage_squads

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class TournamentForm(VersionedFormMixin, AccessibleModelForm):
    """A new tournament's details, or a tournament's own (then remembering what it was
    loaded from: decision 46)."""

    class Meta:
        model = Tournament
        fields = list(TOURNAMENT_FIELDS)
        widgets = {"starts_on": DATE_INPUT, "ends_on": DATE_INPUT}
        labels = {"slug": _("Short name (web address)")}
        help_texts = {
            "slug": _(
                "The part of the tournament's web address after /t/, e.g. coppa-2026 in "
                "/t/coppa-2026/: letters, digits and hyphens. Leave it empty to make it from "
                "the name."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["no_show_minutes"].required = False
        for name in ("starts_on", "ends_on"):
            self.fields[name].validators.append(check_year)
        if self.instance.pk is not None:
            stored = self.instance
            self.add_version_fields(lambda: tournament_version(stored), tournament=stored)

    def clean_no_show_minutes(self) -> int:
        """Left empty: the model's default delay."""
        value = self.cleaned_data.get("no_show_minutes")
        return value if value is not None else Tournament._meta.get_field("no_show_minutes").default

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.data.get(self.add_prefix("name"), ""))
        if not slug:
            raise ValidationError(
                _("Give the tournament a name, or a short name made of letters and digits.")
            )
        clash = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if clash.exists():
            raise ValidationError(
                _("The address “%(slug)s” is already used by another tournament; choose another.")
                % {"slug": slug}
            )
        return slug

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        starts, ends = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The end date is before the start date."))
        return cleaned


class PlayerForm(AccessibleForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    nickname = forms.CharField(label=_("Nickname"), max_length=60, required=False)
    email = forms.EmailField(label=_("Email"), required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        self.tournament = tournament
        super().__init__(*args, **kwargs)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        taken = Registration.objects.filter(
            tournament=self.tournament, player__name__iexact=name
        ).exists()
        if taken:
            raise ValidationError(
                _("A player called “%(name)s” is already registered; add a surname or initial.")
                % {"name": name}
            )
        return name

    def clean(self) -> dict[str, Any]:
        super().clean()
        if "name" in self.cleaned_data:
            check_display_name(self, self.tournament)
        return self.cleaned_data

    def details(self) -> NewPlayer:
        """The player to register, as typed."""
        data = self.cleaned_data
        return NewPlayer(name=data["name"], nickname=data["nickname"], email=data["email"])


class AccountLinkForm(AccessibleForm):
    """Link an existing user account to a player (checks in :mod:`..player_accounts`).

    A player needs no account (their private link is enough), so the field is not marked
    required on the players page; sent empty, it still says what to type."""

    account = forms.CharField(label=_("User name or email"), max_length=254, required=False)

    def __init__(self, *args, tournament: Tournament, player: Player, **kwargs):
        self.tournament = tournament
        self.player = player
        kwargs.setdefault("prefix", f"link{player.pk}")
        super().__init__(*args, **kwargs)

    def clean_account(self):
        typed = self.cleaned_data["account"]
        if not typed:
            raise ValidationError(_("Type the user name or email of the player's account."))
        try:
            user = find_account(typed)
        except AccountLinkError as error:
            raise ValidationError(str(error)) from None
        problem = link_problem(self.tournament, self.player, user)
        if problem:
            raise ValidationError(problem)
        return user


class RosterUploadForm(AccessibleForm):
    file = forms.FileField(
        label=_("Roster file (CSV)"),
        help_text=_("CSV, UTF-8. Nothing is saved unless every row is correct."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_ROSTER_BYTES:
            raise ValidationError(_("The file is larger than 1 MB; a roster is much smaller."))
        return upload


class StaffForm(AccessibleForm):
    """An account to make a judge or an organiser: an existing one, or a new one with its
    password (checked by the site's password rules) or without one, its owner then setting
    it through a one-time link."""

    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        help_text=_("An existing account, or a new one with this name."),
    )
    password = forms.CharField(
        label=_("Password for a new account"),
        required=False,
        help_text=_(
            "Optional. Leave it empty and you get a one-time link to hand them, with which "
            "they choose their own password."
        ),
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        username = cleaned.get("username")
        if not username:
            return cleaned
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first()
        password = cleaned.get("password")
        if user is None:
            try:
                UnicodeUsernameValidator()(username)  # what Django's accounts accept
            except ValidationError as error:
                self.add_error("username", error)
                return cleaned
        if user is None and password:
            candidate = user_model(username=username)
            try:
                validate_password(password, candidate)
            except ValidationError as error:
                self.add_error("password", error)
        cleaned["user"] = user
        return cleaned


class StageForm(VersionedFormMixin, StipulationFieldsMixin, AccessibleModelForm):
    """The stage's settings. A map that cannot hold the stipulation's flags is refused at
    the map; a map whose flag spots the stipulation leaves unused is saved with a warning
    (``map_problem``, shown by the map while the stage keeps them)."""

    thresholds = forms.CharField(
        label=_("Score thresholds"),
        required=False,
        help_text=_(
            "Points that earn +1 equipment card in the next session, ascending, separated by "
            "commas, e.g. 30, 60."
        ),
    )

    class Meta:
        model = Stage
        fields = ["stipulation_kind", "map_name", "qualifier_count", "seating_method"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["stipulation_kind"].required = True
        self.fields["map_name"] = forms.ChoiceField(
            label=_("Map"),
            required=False,
            widget=map_menu(),
            choices=[("", str(_("No map chosen yet")))]
            + map_choices(self.instance.tournament, [self.instance.map_name]),
            help_text=_(
                "The board its sessions play on: one of the tournament's own maps (Maps, "
                "in the menu) or one BoB ships."
            ),
        )
        self.add_stipulation_fields(
            self.instance.stipulation_params,
            self.instance.stipulation_kind,
            self.instance.tournament,
        )
        if self.instance.pk:
            points = self.instance.thresholds.values_list("points", flat=True)
            self.initial.setdefault("thresholds", ", ".join(str(p) for p in points))
        #: What is wrong with the stage's map for its stipulation: as saved, until the
        #: form is checked; then as typed (a refusal is the map field's error instead).
        self.map_problem: MapMisfit | None = None
        if not self.is_bound and self.instance.pk:
            stage = self.instance
            self.map_problem = self._map_problem(
                stage.stipulation_kind, stage.stipulation_params, stage.map_name
            )
        stored = self.instance
        self.add_version_fields(lambda: stage_version(stored), tournament=stored.tournament)

    def _map_problem(self, kind: str, params: dict, map_name: str) -> MapMisfit | None:
        if not kind or not map_name:
            return None
        stage = self.instance
        return stipulation_map_misfit(stage.tournament, kind, params, map_name, stage_squads(stage))

    def clean_qualifier_count(self) -> int | None:
        """Within RULES §2 for the stage's size (decision 40)."""
        count = self.cleaned_data.get("qualifier_count")
        if count is None or not self.instance.pk:
            return count
        size = qualifier_size(self.instance)
        if size is None:
            return count
        sessions, players = size
        if sessions < 2:
            raise ValidationError(
                _(
                    "This stage is the final (one session): nobody qualifies from it; "
                    "leave it empty."
                )
            )
        low, high = qualifier_limits(sessions, players)
        if not low <= count <= high:
            raise ValidationError(
                qualifier_range_message(self.instance.number, sessions, players, count)
            )
        return count

    def clean_thresholds(self) -> list[int]:
        text = self.cleaned_data.get("thresholds", "")
        values: list[int] = []
        for position, item in enumerate(text.replace(";", ",").split(","), start=1):
            item = item.strip()
            if not item:
                continue
            try:
                value = int(item)
            except ValueError:
                raise ValidationError(
                    _("Threshold %(n)d (“%(item)s”) is not a whole number.")
                    % {"n": position, "item": item}
                ) from None
            if not LOWEST_THRESHOLD <= value <= HIGHEST_THRESHOLD:
                raise ValidationError(
                    _(
                        "Threshold %(n)d (%(item)s): give a number of points from %(lowest)d "
                        "to %(highest)d."
                    )
                    % {
                        "n": position,
                        "item": item,
                        "lowest": LOWEST_THRESHOLD,
                        "highest": HIGHEST_THRESHOLD,
                    }
                )
            values.append(value)
        if values != sorted(set(values)):
            raise ValidationError(_("Give the thresholds in ascending order, each once."))
        return values

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self.clean_stipulation(cleaned)
        if "stipulation_params" in cleaned:
            problem = self._map_problem(
                cleaned["stipulation_kind"],
                cleaned["stipulation_params"],
                cleaned.get("map_name") or "",
            )
            if problem is not None and problem.blocking:
                self.add_error("map_name", problem.message)
            else:
                self.map_problem = problem
        return cleaned

    def save(self, commit: bool = True) -> Stage:
        """The stage with the form's changes; its thresholds are
        :func:`~tournaments.actions.tournament_setup.update_stage`'s to write."""
        self.instance.stipulation_params = self.cleaned_data["stipulation_params"]
        return super().save(commit=commit)


class StaffChoiceField(forms.ModelChoiceField):
    """An account of the tournament's staff, shown by :func:`staff_label`."""

    def label_from_instance(self, obj: User) -> str:
        return staff_label(obj)


@dataclass(frozen=True)
class ScheduleChoices:
    """The tables and judges a session may be given, with their menus, read once for a page
    listing every session's form (each form reading its own menus cost two queries a
    session: 1,458 for a tournament of 729 sessions)."""

    tables: QuerySet
    judges: QuerySet
    table_menu: list[Any]
    judge_menu: list[Any]

    @classmethod
    def of(cls, tournament: Tournament) -> ScheduleChoices:
        tables, judges = tournament.tables.all(), tournament_staff(tournament)
        return cls(
            tables,
            judges,
            _menu(forms.ModelChoiceField(tables)),
            _menu(StaffChoiceField(judges)),
        )


def _menu(field: forms.ModelChoiceField) -> list[Any]:
    """The field's choices as its menu lists them, read now (one query)."""
    return list(field.iterator(field))


class ScheduleForm(AccessibleForm):
    scheduled_at = when_field(_("Date and time"))
    table = forms.ModelChoiceField(
        label=_("Table"),
        queryset=VenueTable.objects.none(),
        required=False,
        help_text=_("Tables are listed on the tables page."),
    )
    judge = StaffChoiceField(label=_("Judge"), queryset=None, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args,
        tournament: Tournament,
        session: Session | None = None,
        choices: ScheduleChoices | None = None,
        **kwargs,
    ):
        """``choices``: the menus read once for many forms (:meth:`ScheduleChoices.of`);
        without them the form reads its own when it is drawn. A value sent is checked
        against the tournament's tables and staff as they are when it is cleaned."""
        self.session = session
        super().__init__(*args, **kwargs)
        judge = self.fields["judge"]
        assert isinstance(judge, StaffChoiceField)  # a deep copy of the declared field
        judge.queryset = choices.judges if choices else tournament_staff(tournament)
        table = self.fields["table"]
        assert isinstance(table, forms.ModelChoiceField)
        table.queryset = choices.tables if choices else tournament.tables.all()
        if choices is not None:
            judge.choices = choices.judge_menu
            table.choices = choices.table_menu

    def clean_judge(self):
        """A judge may not judge a game they play in (their account is linked to a seat)."""
        judge = self.cleaned_data.get("judge")
        if judge is None or self.session is None:
            return judge
        seat = self.session.seats.filter(player__user=judge).select_related("player").first()
        if seat is not None:
            raise ValidationError(
                _("%(judge)s plays in this session (account of %(player)s); choose another judge.")
                % {"judge": staff_label(judge), "player": seat.player}
            )
        return judge
