"""A game's codes as words in the reader's language: ``{{ snapshot|summary }}``,
``{{ snapshot|outcome }}``, ``{{ game|map_title }}``, ``{{ game.policy|policy_name }}``,
``{{ percent|chance }}``."""

from django import template

from table import snapshot_summaries
from table.models import Game, Snapshot
from table.step_outcome import step_outcome
from table.touch_data import chance_text

register = template.Library()


@register.filter
def summary(snapshot: Snapshot) -> str:
    return snapshot_summaries.snapshot_summary(snapshot)


@register.filter
def outcome(snapshot: Snapshot) -> list[str]:
    """What the step did (dice, damage, kills, points), for the board's banner."""
    return step_outcome(snapshot)


@register.filter
def chance(percent: float) -> str:
    """A probability in percent as the odds show it ("37.5%", "<0.1%")."""
    return chance_text(float(percent))


@register.filter
def map_title(game: Game) -> str:
    return snapshot_summaries.map_title(game)


@register.filter
def policy_name(policy: str) -> str:
    return snapshot_summaries.policy_name(policy)
