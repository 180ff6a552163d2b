from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_issue15_venue_timer_disputes"),
    ]

    operations = [
        migrations.RenameField(model_name="chaptercard", old_name="text", new_name="source"),
        migrations.AlterField(
            model_name="chaptercard",
            name="source",
            field=models.TextField(blank=True, verbose_name="source"),
        ),
        migrations.AlterField(
            model_name="chaptercard",
            name="name_it",
            field=models.CharField(
                blank=True,
                help_text="Leave empty while the Italian edition's name is unknown.",
                max_length=120,
                verbose_name="Italian name",
            ),
        ),
        migrations.AddField(
            model_name="chaptercard",
            name="use",
            field=models.CharField(
                choices=[("one_use", "One use"), ("session", "Whole session")],
                default="one_use",
                max_length=10,
                verbose_name="duration",
            ),
        ),
        migrations.AddField(
            model_name="chaptercard",
            name="effect_code",
            field=models.SlugField(
                blank=True,
                help_text="The effect the board applies; the same for every copy of a card.",
                max_length=40,
                verbose_name="effect code",
            ),
        ),
        migrations.AddField(
            model_name="chaptercard",
            name="effect_en",
            field=models.TextField(blank=True, verbose_name="effect (English)"),
        ),
        migrations.AddField(
            model_name="chaptercard",
            name="effect_it",
            field=models.TextField(blank=True, verbose_name="effect (Italian)"),
        ),
        migrations.AddField(
            model_name="chaptercard",
            name="confidence",
            field=models.CharField(
                choices=[
                    ("confirmed", "Confirmed by two sources or more"),
                    ("one_source", "One source"),
                    ("uncertain", "Uncertain"),
                ],
                default="one_source",
                max_length=12,
                verbose_name="confidence",
            ),
        ),
    ]
