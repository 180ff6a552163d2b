"""Issue 15: tables become a managed list per tournament. Each distinct table text of a
tournament's sessions becomes one of its tables; a session that was "scheduled" without a
table or a judge goes back to "planned"."""

import django.db.models.deletion
from django.db import migrations, models


def tables_from_texts(apps, schema_editor):
    Session = apps.get_model("tournaments", "Session")
    VenueTable = apps.get_model("tournaments", "VenueTable")
    tables: dict[tuple[int, str], object] = {}
    for session in Session.objects.select_related("stage").order_by("stage__tournament_id", "pk"):
        name = session.table_text.strip()
        if name:
            key = (session.stage.tournament_id, name)
            if key not in tables:
                position = sum(1 for known in tables if known[0] == key[0])
                tables[key] = VenueTable.objects.create(
                    tournament_id=key[0], name=name, position=position
                )
            session.table = tables[key]
        if session.status == "scheduled" and (session.table is None or session.judge_id is None):
            session.status = "planned"
        session.save(update_fields=["table", "status"])


def texts_from_tables(apps, schema_editor):
    Session = apps.get_model("tournaments", "Session")
    for session in Session.objects.select_related("table").exclude(table=None):
        session.table_text = session.table.name
        session.save(update_fields=["table_text"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0007_13_chapter_card_details")]

    operations = [
        migrations.CreateModel(
            name="VenueTable",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=60, verbose_name="name")),
                (
                    "position",
                    models.PositiveSmallIntegerField(
                        default=0,
                        help_text="Order of the table in lists and in the grid.",
                        verbose_name="position",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tables",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "table",
                "verbose_name_plural": "tables",
                "ordering": ["tournament", "position", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tournament", "name"), name="venuetable_unique_name"
                    )
                ],
            },
        ),
        migrations.RenameField("session", "table", "table_text"),
        migrations.AddField(
            model_name="session",
            name="table",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="sessions",
                to="tournaments.venuetable",
                verbose_name="table",
            ),
        ),
        migrations.RunPython(tables_from_texts, texts_from_tables),
        migrations.RemoveField("session", "table_text"),
    ]
