"""Result texts the app wrote in the saver's language become language-free codes.

A version's "Confirmed version N." (Italian "Versione N confermata.") becomes its reason
code, and the objective labels the app filled in ("Flag brought home", "Objective", or
their Italian) become their codes, so that each reader sees them in their own language
(stored tournament decision 31). Anything else is a person's text and stays as typed. The texts are written
out here, not read from the catalogues, so that the migration keeps meaning what it did.
"""

import re

from django.db import migrations

CONFIRMED = (re.compile(r"Confirmed version (\d+)\."), re.compile(r"Versione (\d+) confermata\."))
LABELS = {
    "Flag brought home": "Flag brought home",
    "Bandiera riportata all'artiglio d'attracco": "Flag brought home",
    "Objective": "Objective",
    "Obiettivo": "Objective",
}


def _reason_is_confirmation(reason: str, number: int) -> bool:
    for pattern in CONFIRMED:
        found = pattern.fullmatch(reason.strip())
        if found and int(found.group(1)) == number - 1:
            return True
    return False


def _coded_breakdown(breakdown):
    changed = False
    for seat in breakdown if isinstance(breakdown, list) else ():
        for objective in seat.get("objectives") or () if isinstance(seat, dict) else ():
            label = objective.get("label") if isinstance(objective, dict) else None
            code = LABELS.get(label.strip()) if isinstance(label, str) else None
            if code is not None and code != label:
                objective["label"] = code
                changed = True
    return changed


def forwards(apps, schema_editor):
    ResultVersion = apps.get_model("tournaments", "ResultVersion")
    versions = ResultVersion.objects.only("id", "number", "reason", "breakdown")
    for version in versions.iterator(chunk_size=500):
        changes = {}
        if _reason_is_confirmation(version.reason, version.number):
            changes.update(reason="", reason_code="confirmed_previous")
        if _coded_breakdown(version.breakdown):
            changes["breakdown"] = version.breakdown
        if changes:
            # Versions refuse save(); the migration rewrites only how the texts are kept.
            ResultVersion.objects.filter(pk=version.pk).update(**changes)


def backwards(apps, schema_editor):
    ResultVersion = apps.get_model("tournaments", "ResultVersion")
    for version in ResultVersion.objects.filter(reason_code="confirmed_previous").only(
        "id", "number"
    ):
        ResultVersion.objects.filter(pk=version.pk).update(
            reason=f"Confirmed version {version.number - 1}.", reason_code=""
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0021_resultversion_reason_code")]

    operations = [migrations.RunPython(forwards, backwards)]
