"""Who made each activity-log entry, as the log's "Who" column says it.

An entry made by a logged-in person names their account. A player acting from their
private link has no account: their own acts (a dispute, their squad preferences, their
loadout) are the entries of those kinds without an account, and name the player in their
details (``player``), so the column says the player's name, marked as the player's.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from tournaments.models import ActivityLog, ActivityVerb, Player

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
