from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo tournament (``manage.py load_demo``): it uses both the tournament app and
    the judge's board, so it lives above both."""

    name = "demo"
    verbose_name = _("Demo")
