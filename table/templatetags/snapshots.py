"""``{{ snapshot|summary }}``: a game step's summary in the reader's language."""

from django import template

from table.models import Snapshot
from table.snapshot_summaries import snapshot_summary

register = template.Library()


@register.filter
def summary(snapshot: Snapshot) -> str:
    return snapshot_summary(snapshot)
