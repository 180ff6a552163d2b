"""A step that adopted the session's settings keeps its summary as a code, not as text.

Such steps stored their summary and reason in the judge's language; they now keep the
summary part ``settings_adopted``, written in each reader's language (stored tournament
decision 31), and no reason (the part's text says what was adopted). The texts are
written out here, in both languages, so that the migration keeps meaning what it did.
"""

from django.db import migrations

SUMMARIES = (
    "The game now plays the session's current settings.",
    "La partita ora usa le impostazioni attuali della sessione.",
)
REASONS = (
    "Settings adopted from the session (stipulation, aliens' material, rules data).",
    "Impostazioni riprese dalla sessione (stipulazione, materiale degli alieni, "
    "dati delle regole).",
)


def forwards(apps, schema_editor):
    Snapshot = apps.get_model("rules", "Snapshot")
    Snapshot.objects.filter(summary__in=SUMMARIES, reason__in=REASONS, summary_parts=[]).update(
        summary_parts=[["settings_adopted", {}]], reason=""
    )


class Migration(migrations.Migration):
    dependencies = [("rules", "0006_alienturnrequest_event_card")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
