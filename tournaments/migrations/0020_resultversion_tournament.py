"""Each result version keeps its tournament (the tournament's newest version is then one
step down the (tournament, id) index: the data stamp of the public pages), filled in for
the versions already written from their result's session."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_tournaments(apps, schema_editor):
    Result = apps.get_model("tournaments", "Result")
    ResultVersion = apps.get_model("tournaments", "ResultVersion")
    ResultVersion.objects.update(
        tournament_id=Subquery(
            Result.objects.filter(pk=OuterRef("result_id")).values("session__stage__tournament_id")[
                :1
            ]
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_session_status_awaiting_time"),
    ]

    operations = [
        migrations.AddField(
            model_name="resultversion",
            name="tournament",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.RunPython(fill_tournaments, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="resultversion",
            name="tournament",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.AddIndex(
            model_name="resultversion",
            index=models.Index(fields=["tournament", "id"], name="resultversion_newest"),
        ),
    ]
