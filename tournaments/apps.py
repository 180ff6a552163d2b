from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments.caching import change_tracking
        from tournaments.interchange.sections import register
        from tournaments.interchange.venue_sections import SECTIONS

        change_tracking.connect()
        for section in SECTIONS:
            register(section)
