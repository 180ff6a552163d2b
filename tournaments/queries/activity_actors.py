"""Who made each activity-log entry, as the log's "Who" column says it.

An entry made by a logged-in person names their account. A player acting from their
private link has no account: their own acts (a dispute, their squad preferences, their
loadout) are the entries of those kinds without an account, and name the player in their
details (``player``), so the column says the player's name, marked as the player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils.translation import gettext as _

from tournaments.models import ActivityLog, ActivityVerb, Player, Tournament

#: What a player does from their own pages: (verb, description code).
PLAYERS_OWN_ACTS = frozenset(
    {
        (ActivityVerb.FLAGGED_DISPUTE, "dispute"),
        (ActivityVerb.UPDATED, "squad_preferences"),
        (ActivityVerb.UPDATED, "squad_preferences_cleared"),
        (ActivityVerb.UPDATED, "loadout"),
    }
)


def _acting_player(entry: ActivityLog) -> int | None:
    if entry.actor_id is not None or (entry.verb, entry.description_code) not in PLAYERS_OWN_ACTS:
        return None
    player = entry.details.get("player") if isinstance(entry.details, dict) else None
    return player if isinstance(player, int) else None


def entry_actors(entries: Sequence[ActivityLog]) -> list[tuple[ActivityLog, str]]:
    """Each entry with who made it ("–" when nobody is known: a command run on the server,
    or the app itself), in one query for the players."""
    acting = {entry.pk: _acting_player(entry) for entry in entries}
    names = {
        player.pk: player.display_name
        for player in Player.objects.filter(pk__in={pk for pk in acting.values() if pk})
    }
    rows = []
    for entry in entries:
        player = acting[entry.pk]
        if entry.actor is not None:
            who = str(entry.actor)
        elif player in names:
            who = _("%(name)s (player)") % {"name": names[player]}
        else:
            who = "–"
        rows.append((entry, who))
    return rows


def latest_entry_id(tournament: Tournament) -> int:
    """The id of the tournament's latest activity-log entry (0: none yet)."""
    latest = (
        ActivityLog.objects.filter(tournament=tournament)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return latest or 0


def saved_since(tournament: Tournament, entry_id: int) -> list[tuple[str, datetime]]:
    """Who saved a change of the tournament (an "updated" entry) after entry ``entry_id``,
    each once, with the time of their latest save, the latest first."""
    entries = list(
        ActivityLog.objects.filter(
            tournament=tournament, pk__gt=entry_id, verb=ActivityVerb.UPDATED
        ).select_related("actor")
    )
    savers: dict[str, datetime] = {}
    for entry, who in entry_actors(entries):
        savers.setdefault(who, entry.created_at)
    return list(savers.items())
