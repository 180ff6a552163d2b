"""Failed log-ins counted in the database (the throttle must work while Redis is away)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class LoginFailureCount(models.Model):
    """Failed log-ins of one scope (an account, a client address, or both) in a window.

    ``key`` is a hash, never the user name or address itself.
    """

    key = models.CharField(_("key"), max_length=64, unique=True)
    failures = models.PositiveIntegerField(_("failures"), default=0)
    window_ends = models.DateTimeField(_("window ends"), db_index=True)

    class Meta:
        verbose_name = _("failed log-in count")
        verbose_name_plural = _("failed log-in counts")

    def __str__(self) -> str:
        return f"{self.key[:12]}… {self.failures}"
