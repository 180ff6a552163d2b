from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TableConfig(AppConfig):
    """The judge's board: games played at a session's table with the rules engine.

    The label stays ``rules`` (the app's first name), so its migrations and database tables
    keep their names."""

    name = "table"
    label = "rules"
    verbose_name = _("Judge's board")

    def ready(self) -> None:
        from table.forfeits import take_figures_off
        from table.interchange import SECTION
        from tournaments.actions.seat_events import seat_forfeited
        from tournaments.interchange.sections import register

        register(SECTION)
        seat_forfeited.connect(take_figures_off, dispatch_uid="table-forfeit-figures")
