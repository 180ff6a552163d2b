"""A game's codes as words in the reader's language: ``{{ snapshot|summary }}``,
``{{ game|map_title }}``, ``{{ game.policy|policy_name }}``."""

from django import template

from table import snapshot_summaries
from table.models import Game, Snapshot

register = template.Library()


@register.filter
def summary(snapshot: Snapshot) -> str:
    return snapshot_summaries.snapshot_summary(snapshot)


@register.filter
def map_title(game: Game) -> str:
    return snapshot_summaries.map_title(game)


@register.filter
def policy_name(policy: str) -> str:
    return snapshot_summaries.policy_name(policy)
