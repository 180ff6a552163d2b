from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments.caching import change_tracking
        from tournaments.interchange import map_sections, venue_sections
        from tournaments.interchange.sections import register

        change_tracking.connect()
        for section in (*venue_sections.SECTIONS, map_sections.SECTION):
            register(section)
