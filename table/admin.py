"""Admin pages of the judge's games: read-only history (snapshots are never edited)."""

from django.contrib import admin

from table.models import AlienTurnRequest, Game, Snapshot


class SnapshotInline(admin.TabularInline):
    model = Snapshot
    fields = ("number", "kind", "summary", "created_by", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "map_name", "policy", "created_at")
    list_filter = ("map_name", "policy")
    raw_id_fields = ("session",)
    inlines = [SnapshotInline]


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "kind", "summary", "created_by", "created_at")
    list_filter = ("kind",)
    readonly_fields = [f.name for f in Snapshot._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AlienTurnRequest)
class AlienTurnRequestAdmin(admin.ModelAdmin):
    list_display = ("game", "policy", "status", "created_at")
    list_filter = ("status", "policy")
    readonly_fields = [f.name for f in AlienTurnRequest._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
