"""Stored codes shown in the reader's language: ``{{ roll|purpose_label }}`` for a recorded
die, ``{{ entry|activity_description }}`` for an activity-log entry."""

from __future__ import annotations

from django import template

from tournaments.domain.roll_purposes import roll_purpose_label
from tournaments.models import ActivityLog, DiceRoll
from tournaments.queries.activity_descriptions import entry_description

register = template.Library()


@register.filter
def purpose_label(roll: DiceRoll) -> str:
    return roll_purpose_label(roll)


@register.filter
def activity_description(entry: ActivityLog) -> str:
    return entry_description(entry)
