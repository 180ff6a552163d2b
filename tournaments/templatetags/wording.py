"""Stored codes shown in the reader's language: ``{{ entry|activity_description }}`` for an
activity-log entry. (A recorded die's purpose names its squad, so the page's query gives
it with the tournament's squad names: ``queries.session_sheet.dice_log``.)"""

from __future__ import annotations

from django import template

from tournaments.models import ActivityLog
from tournaments.queries.activity_descriptions import entry_description

register = template.Library()


@register.filter
def activity_description(entry: ActivityLog) -> str:
    return entry_description(entry)
