"""Admin pages for every tournament model. Result versions and dice rolls are read-only."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import (
    ActivityLog,
    ChapterCard,
    DiceRoll,
    Honour,
    Loadout,
    Player,
    Registration,
    Result,
    ResultVersion,
    ScoreBonus,
    ScoreThreshold,
    Seat,
    Session,
    Squad,
    SquadPreference,
    SquadRank,
    Stage,
    Stipulation,
    Tournament,
    Weapon,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Audit records: visible, never edited or deleted through the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ["player"]


class SquadInline(admin.TabularInline):
    model = Squad
    extra = 0


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    fields = ["number", "kind", "status", "qualifier_count", "seating_method"]
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
    search_fields = ["name_en", "name_it", "text"]


@admin.register(Weapon)
class WeaponAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_it", "slug", "weapon_class", "colour_restricted", "tournament"]
    list_filter = ["tournament", "weapon_class", "colour_restricted"]


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0
    fields = ["number", "scheduled_at", "table", "judge", "status"]
    show_change_link = True


class ThresholdInline(admin.TabularInline):
    model = ScoreThreshold
    extra = 0
    fk_name = "stage"
    fields = ["points"]


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "kind", "status", "qualifier_count"]
    list_filter = ["tournament", "kind", "status"]
    readonly_fields = ["qualifiers", "closed_at"]
    inlines = [SessionInline, ThresholdInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["seat_order", "player", "squad", "initiative_position"]


class StipulationInline(admin.StackedInline):
    model = Stipulation
    extra = 0


class SessionThresholdInline(admin.TabularInline):
    model = ScoreThreshold
    extra = 0
    fk_name = "session"
    fields = ["points"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "scheduled_at", "table", "judge", "status", "version"]
    list_filter = ["stage__tournament", "stage__kind", "status"]
    readonly_fields = ["version", "schedule_sequence"]
    inlines = [StipulationInline, SeatInline, SessionThresholdInline]


@admin.register(Stipulation)
class StipulationAdmin(admin.ModelAdmin):
    list_display = ["session", "kind"]
    list_filter = ["kind", "session__stage__tournament"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["session", "seat_order", "player", "squad", "initiative_position"]
    list_filter = ["session__stage__tournament"]
    readonly_fields = ["notified_sequence"]


@admin.register(Loadout)
class LoadoutAdmin(admin.ModelAdmin):
    list_display = ["seat", "commander_combo", "updated_at"]
    list_filter = ["seat__session__stage__tournament", "commander_combo"]


@admin.register(SquadPreference)
class SquadPreferenceAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "stage", "choices"]
    list_filter = ["tournament"]


class ResultVersionInline(admin.TabularInline):
    model = ResultVersion
    extra = 0
    can_delete = False
    fields = ["number", "confirmed", "ranking", "reason", "created_by", "created_at"]
    readonly_fields = fields

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
    list_display = ["created_at", "tournament", "purpose", "kind", "values", "subject", "source"]
    list_filter = ["tournament", "source", "kind"]
    search_fields = ["purpose", "subject", "seed_commitment"]


@admin.register(Honour)
class HonourAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player", "squad", "session", "created_at"]
    list_filter = ["tournament"]


@admin.register(SquadRank)
class SquadRankAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player", "squad", "rank"]
    list_filter = ["tournament", "rank"]


@admin.register(ScoreBonus)
class ScoreBonusAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player", "earned_in", "extra_equipment_cards", "used_in"]
    list_filter = ["tournament"]


@admin.register(ScoreThreshold)
class ScoreThresholdAdmin(admin.ModelAdmin):
    list_display = ["points", "stage", "session"]


@admin.register(ActivityLog)
class ActivityLogAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tournament", "actor", "verb", "object_description"]
    list_filter = ["tournament", "verb"]
    search_fields = ["object_description"]
    date_hierarchy = "created_at"


admin.site.site_header = _("BoB administration")
