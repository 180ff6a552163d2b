"""Admin pages for every tournament model. Result versions and dice rolls are read-only.

Stipulations and score thresholds follow the locks of
:mod:`tournaments.actions.session_settings` here too: a change to a locked row (or one
moving a row onto a locked session or stage) is refused with the reason, and a locked row
cannot be deleted. A stage's status is read-only: only
:func:`tournaments.actions.stage_advance.advance` moves it (open to closed, never back),
since closing awards the honours, score bonuses and qualifiers. For the same reason a
closed stage, its sessions and their seats can be looked at but not changed or deleted here.
"""

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournaments.actions.session_settings import setting_row_lock
from tournaments.domain.roll_purposes import roll_purpose_label
from tournaments.models import (
    ActivityLog,
    ChapterCard,
    DiceRoll,
    Honour,
    Loadout,
    LoginFailureCount,
    Notice,
    Player,
    Registration,
    Result,
    ResultDispute,
    ResultVersion,
    RoundTimer,
    ScoreBonus,
    ScoreThreshold,
    Seat,
    SeedAnnouncement,
    Session,
    SessionStatus,
    Squad,
    SquadPreference,
    SquadRank,
    Stage,
    StageStatus,
    Stipulation,
    Tournament,
    TournamentMap,
    VenueTable,
    Weapon,
)
from tournaments.models.sessions import current_status
from tournaments.queries.loadout_checks import loadout_problems


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records visible, never added, edited or deleted through the admin: the audit trail
    (result versions, dice, the activity log) and what a stage's close derives from the
    results (honours, squad ranks, score bonuses), which an edit here would make disagree
    with the results and the activity log."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _stored_row_lock(row: Stipulation | ScoreThreshold) -> str | None:
    """The lock of the row as saved (before this form's changes), ``None`` for a new row."""
    if row.pk is None:
        return None
    stored = type(row).objects.filter(pk=row.pk).first()
    return setting_row_lock(stored) if stored is not None else None


class SettingRowForm(forms.ModelForm):
    """A stipulation or threshold row: refused while its session or stage is locked, and
    refused when moved onto a locked one."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if not self.has_changed():
            return cleaned
        reason = _stored_row_lock(self.instance) or setting_row_lock(self._target())
        if reason:
            raise ValidationError(reason)
        return cleaned

    def _target(self) -> Stipulation | ScoreThreshold:
        """An unsaved row with the session (or stage) this form would give it."""
        model = self._meta.model
        owners = {}
        for name in ("session", "stage"):
            if name in self.cleaned_data:
                owners[name] = self.cleaned_data[name]
            elif getattr(self.instance, f"{name}_id", None) is not None:
                owners[name] = getattr(self.instance, name)
        return model(**owners)


class SettingRowFormSet(BaseInlineFormSet):
    """Refuses deleting a locked row (errors of forms marked for deletion are ignored)."""

    def clean(self) -> None:
        super().clean()
        for form in self.deleted_forms:
            reason = _stored_row_lock(form.instance)
            if reason:
                raise ValidationError(reason)


class SettingRowAdmin(admin.ModelAdmin):
    """Stand-alone admin of stipulation or threshold rows: locked rows cannot be deleted
    (one at a time, so each refusal can be explained; no bulk delete)."""

    form = SettingRowForm

    def has_delete_permission(self, request, obj=None) -> bool:
        if obj is not None and _stored_row_lock(obj):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


def _closed(stage: Stage | None) -> bool:
    return stage is not None and stage.status == StageStatus.CLOSED


class StageForm(forms.ModelForm):
    """Says, next to the read-only status, how a stage closes and why it cannot reopen."""

    class Meta:
        help_texts = {
            "status": _(
                "Changed only by BoB: a stage closes with “Close the stage and seat the "
                "next” on the organiser's tournament page (or manage.py advance) once "
                "every session has a confirmed result. Closing awards the stage's honours, "
                "score bonuses and qualifiers, so a closed stage cannot be reopened."
            )
        }


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]


class SquadInline(admin.TabularInline):
    model = Squad
    extra = 0


class StageRowForm(StageForm):
    """A stage row of the tournament's page: a closed stage's row is shown but cannot
    change (tournament rules decision 54; the stage's own page is view-only then too).
    Disabled fields ignore what is posted for them."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if _closed(self.instance if self.instance.pk else None):
            for field in self.fields.values():
                field.disabled = True


class StageRowFormSet(BaseInlineFormSet):
    """Refuses deleting a closed stage from the tournament's page: its sessions, results
    and what its close awarded would go with it."""

    def clean(self) -> None:
        super().clean()
        for form in self.deleted_forms:
            stored = Stage.objects.filter(pk=form.instance.pk).first()
            if stored is not None and _closed(stored):
                raise ValidationError(
                    _(
                        "Stage %(n)d is closed: its sessions were played and its honours, "
                        "score bonuses and qualifiers awarded, so it cannot be deleted."
                    )
                    % {"n": stored.number}
                )


class StageInline(admin.TabularInline):
    model = Stage
    form = StageRowForm
    formset = StageRowFormSet
    extra = 0
    fields = ["number", "kind", "status", "qualifier_count", "seating_method"]
    readonly_fields = ["status"]
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "starts_on", "venue", "seating_method"]
    list_filter = ["seating_method", "starts_on"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers", "judges"]
    inlines = [SquadInline, RegistrationInline, StageInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "nickname", "email", "user"]
    search_fields = ["name", "nickname", "email"]
    readonly_fields = ["access_token", "created_at"]
    autocomplete_fields = ["user"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "player", "registered_at"]
    list_filter = ["tournament"]
    search_fields = ["player__name", "player__nickname"]


class ChapterCardInline(admin.TabularInline):
    model = ChapterCard
    extra = 0


@admin.register(Squad)
class SquadAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_it", "slug", "colour", "order", "tournament"]
    list_filter = ["tournament", "colour"]
    inlines = [ChapterCardInline]


@admin.register(ChapterCard)
class ChapterCardAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_it", "kind", "squad"]
    list_filter = ["kind", "squad__tournament", "squad"]
    search_fields = ["name_en", "name_it", "effect_en", "effect_it", "source"]


@admin.register(Weapon)
class WeaponAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_it", "slug", "weapon_class", "colour_restricted", "tournament"]
    list_filter = ["tournament", "weapon_class", "colour_restricted"]


if TYPE_CHECKING:
    # What the lock mixins are mixed into: the type checker sees the admin's methods.
    ModelAdminBase = admin.ModelAdmin
    InlineAdminBase = admin.options.InlineModelAdmin
else:
    ModelAdminBase = InlineAdminBase = object


class ClosedStageLock(ModelAdminBase):
    """View-only once the object's stage is closed: what the stage awarded (honours, score
    bonuses, qualifiers) came from these rows. No bulk delete, which would skip the check."""

    #: Where the object's stage is (``"session.stage"``); empty for a stage itself.
    stage_path = ""

    def stage_of(self, obj) -> Stage | None:
        return attrgetter(self.stage_path)(obj) if self.stage_path else obj

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is not None and _closed(self.stage_of(obj)):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        if obj is not None and _closed(self.stage_of(obj)):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


class ClosedStageInlineLock(InlineAdminBase):
    """An inline of a stage or session page: fixed once that stage is closed."""

    def _locked(self, obj) -> bool:
        stage = obj if isinstance(obj, Stage) else getattr(obj, "stage", None)
        return _closed(stage)

    def has_add_permission(self, request, obj=None) -> bool:
        return not self._locked(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return not self._locked(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not self._locked(obj) and super().has_delete_permission(request, obj)


class SessionInline(ClosedStageInlineLock, admin.TabularInline):
    model = Session
    extra = 0
    fields = ["number", "scheduled_at", "table", "judge", "status"]
    show_change_link = True


class ThresholdInline(admin.TabularInline):
    model = ScoreThreshold
    form = SettingRowForm
    formset = SettingRowFormSet
    extra = 0
    fk_name = "stage"
    fields = ["points"]


@admin.register(Stage)
class StageAdmin(ClosedStageLock, admin.ModelAdmin):
    list_display = ["tournament", "number", "kind", "status", "qualifier_count"]
    list_filter = ["tournament", "kind", "status"]
    form = StageForm
    readonly_fields = ["status", "qualifiers", "closed_at"]
    inlines = [SessionInline, ThresholdInline]

    def get_readonly_fields(self, request, obj=None) -> list[str]:
        """A closed stage's stipulation stays as its honours were awarded with."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status != StageStatus.OPEN:
            fields += ["stipulation_kind", "stipulation_params"]
        return fields


class SeatInline(ClosedStageInlineLock, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["seat_order", "player", "squad", "initiative_position"]


class StipulationInline(admin.StackedInline):
    model = Stipulation
    form = SettingRowForm
    formset = SettingRowFormSet
    extra = 0


class SessionThresholdInline(admin.TabularInline):
    model = ScoreThreshold
    form = SettingRowForm
    formset = SettingRowFormSet
    extra = 0
    fk_name = "session"
    fields = ["points"]


class ShownStatusFilter(admin.SimpleListFilter):
    """The sessions by the status the pages show (decision 52,
    :func:`~tournaments.models.sessions.current_status`), which the stored one may not be:
    a session stored as scheduled without a time, a table or a judge is shown as awaiting
    it."""

    title = _("status as the pages show it")
    parameter_name = "shown_status"

    def lookups(self, request, model_admin) -> list[tuple[str, Any]]:
        planned = _("Not scheduled yet: awaiting a time, a table or a judge")
        return [
            (status, planned if status == SessionStatus.PLANNED else status.label)
            for status in SessionStatus
        ]

    def queryset(self, request, queryset):
        wanted = self.value()
        if wanted is None:
            return None
        rows = queryset.values_list("pk", "status", "scheduled_at", "table_id", "judge_id")
        return queryset.filter(pk__in=[pk for pk, *has in rows if current_status(*has) == wanted])


class StoredStatusFilter(admin.ChoicesFieldListFilter):
    """The stored status, titled as such next to :class:`ShownStatusFilter`."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.title = _("stored status")


@admin.register(Session)
class SessionAdmin(ClosedStageLock, admin.ModelAdmin):
    """A session's status is listed and filtered as the pages show it (what it awaits, from
    its time, table and judge) next to the stored one, which an edit here sets but the
    pages read only once the session has all three (decision 52)."""

    list_display = [
        "__str__",
        "shown_status",
        "scheduled_at",
        "table",
        "judge",
        "stored_status",
        "version",
    ]
    list_filter = [
        "stage__tournament",
        "stage__kind",
        ShownStatusFilter,
        ("status", StoredStatusFilter),
    ]
    readonly_fields = ["shown_status", "version", "schedule_sequence"]
    inlines = [StipulationInline, SeatInline, SessionThresholdInline]

    stage_path = "stage"

    def formfield_for_choice_field(self, db_field, request, **kwargs):
        if db_field.name == "status":
            kwargs["label"] = capfirst(_("stored status"))
            kwargs["help_text"] = _(
                "The pages show a session not started as scheduled only once it has a time, "
                "a table and a judge, whatever is stored here."
            )
        return super().formfield_for_choice_field(db_field, request, **kwargs)

    @admin.display(description=_("status as the pages show it"))
    def shown_status(self, session: Session) -> str:
        return session.status_label

    @admin.display(description=_("stored status"), ordering="status")
    def stored_status(self, session: Session) -> str:
        return session.get_status_display()


@admin.register(Stipulation)
class StipulationAdmin(SettingRowAdmin):
    list_display = ["session", "kind"]
    list_filter = ["kind", "session__stage__tournament"]


@admin.register(Seat)
class SeatAdmin(ClosedStageLock, admin.ModelAdmin):
    list_display = ["session", "seat_order", "player", "squad", "initiative_position"]
    list_filter = ["session__stage__tournament"]
    readonly_fields = ["notified_sequence"]

    stage_path = "session.stage"


class LoadoutAdminForm(forms.ModelForm):
    """A loadout edited here is checked by the same rules as the player's page (RULES §5)."""

    class Meta:
        model = Loadout
        fields = [
            "seat",
            "commander_combo",
            "marine_weapons",
            "extra_marine_weapons",
            "order_cards",
            "equipment_cards",
            "targeter_marks",
        ]

    def _post_clean(self) -> None:
        # Django's hook run once the instance is built; django-stubs omit it.
        super()._post_clean()  # type: ignore[misc]
        if self.errors:
            return
        # Non-field errors: every message names the marine or card it is about, and a form
        # showing only some fields can still display them.
        for messages in loadout_problems(self.instance).values():
            for message in messages:
                self.add_error(None, message)


@admin.register(Loadout)
class LoadoutAdmin(admin.ModelAdmin):
    form = LoadoutAdminForm
    list_display = ["seat", "commander_combo", "updated_at"]
    list_filter = ["seat__session__stage__tournament", "commander_combo"]


@admin.register(SquadPreference)
class SquadPreferenceAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "stage", "choices"]
    list_filter = ["tournament"]


RESULT_VERSION_FIELDS = ("number", "confirmed", "ranking", "reason", "created_by", "created_at")


class ResultVersionInline(admin.TabularInline):
    model = ResultVersion
    extra = 0
    can_delete = False
    fields = RESULT_VERSION_FIELDS
    readonly_fields = RESULT_VERSION_FIELDS

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ["session", "created_at"]
    list_filter = ["session__stage__tournament"]
    readonly_fields = ["session", "created_at"]
    inlines = [ResultVersionInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    list_display = ["result", "number", "confirmed", "created_by", "created_at", "reason"]
    list_filter = ["confirmed", "result__session__stage__tournament"]


@admin.register(DiceRoll)
class DiceRollAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "tournament",
        "shown_purpose",
        "kind",
        "values",
        "subject",
        "source",
    ]
    list_filter = ["tournament", "source", "kind"]
    search_fields = ["purpose", "subject", "seed_commitment"]

    @admin.display(description=_("purpose"), ordering="purpose")
    def shown_purpose(self, roll: DiceRoll) -> str:
        """The purpose in the reader's language (stored in English, as data)."""
        return roll_purpose_label(roll)


@admin.register(SeedAnnouncement)
class SeedAnnouncementAdmin(ReadOnlyAdmin):
    """Announced seeds stay as they were: the public page shows when each hash was published."""

    list_display = ["tournament", "purpose", "session", "commitment", "announced_at", "used_at"]
    list_filter = ["tournament"]


@admin.register(VenueTable)
class VenueTableAdmin(admin.ModelAdmin):
    list_display = ["tournament", "name", "position"]
    list_filter = ["tournament"]


@admin.register(TournamentMap)
class TournamentMapAdmin(ReadOnlyAdmin):
    """Maps are added and changed on the organiser's Maps page, which checks the drawing."""

    list_display = ["tournament", "name", "updated_at"]
    list_filter = ["tournament"]


@admin.register(Honour)
class HonourAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "player", "squad", "session", "created_at"]
    list_filter = ["tournament"]


@admin.register(SquadRank)
class SquadRankAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "player", "squad", "rank"]
    list_filter = ["tournament", "rank"]


@admin.register(ScoreBonus)
class ScoreBonusAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "player", "earned_in", "extra_equipment_cards", "used_in"]
    list_filter = ["tournament"]


@admin.register(RoundTimer)
class RoundTimerAdmin(ReadOnlyAdmin):
    """Started, paused and reset from the organiser's venue page, so it is logged."""

    list_display = ["tournament", "duration_seconds", "remaining_seconds", "running_since"]


@admin.register(ResultDispute)
class ResultDisputeAdmin(ReadOnlyAdmin):
    """Flagged by players and resolved on the organiser's venue page, so both are logged."""

    list_display = ["session", "player", "status", "created_at", "resolved_at"]
    list_filter = ["status"]


@admin.register(ScoreThreshold)
class ScoreThresholdAdmin(SettingRowAdmin):
    list_display = ["points", "stage", "session"]


@admin.register(ActivityLog)
class ActivityLogAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tournament", "actor", "verb", "object_description"]
    list_filter = ["tournament", "verb"]
    search_fields = ["object_description"]
    date_hierarchy = "created_at"


@admin.register(Notice)
class NoticeAdmin(ReadOnlyAdmin):
    """The outbox of players' mails: what was sent, what waits (and why, after a failure)."""

    list_display = ["created_at", "seat", "sequence", "status", "attempts", "sent_at"]
    list_filter = ["status", "seat__session__stage__tournament"]


@admin.register(LoginFailureCount)
class LoginFailureCountAdmin(ReadOnlyAdmin):
    """Failed log-in counters; deleting one lifts that lock-out at once."""

    list_display = ["key", "failures", "window_ends"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return admin.ModelAdmin.has_delete_permission(self, request, obj)


admin.site.site_header = _("BoB administration")
