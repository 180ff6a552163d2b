"""What every page may need to know about how this site is set up."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

#: Mail backends that deliver nothing: mails go to the log, to memory or to files.
UNDELIVERED = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
}


def mail_is_sent() -> bool:
    """Whether the site really mails (an SMTP server, EMAIL_HOST, or another real backend)."""
    return settings.EMAIL_BACKEND not in UNDELIVERED


def mail(request: HttpRequest) -> dict[str, bool]:
    """``mail_is_sent``: the pages that promise mails say so only when they are sent."""
    return {"mail_is_sent": mail_is_sent()}
