"""The least Dreadnought class value is RULES §7's 25, no longer a house value (decision
67): a tournament's ``scoring`` holding it would leave its point values unreadable, so it
goes. It only ever decided when a recorded class value was questioned, never a point."""

from django.db import migrations

KEY = "dreadnought_min_class_value"


def drop_least_class_value(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.only("pk", "data_overrides"):
        scoring = (tournament.data_overrides or {}).get("scoring")
        if isinstance(scoring, dict) and KEY in scoring:
            del scoring[KEY]
            tournament.save(update_fields=["data_overrides"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0024_player_language"),
    ]

    operations = [
        migrations.RunPython(drop_least_class_value, migrations.RunPython.noop),
    ]
