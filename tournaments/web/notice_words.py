"""What the pages may promise about e-mail: a schedule's message, and the schedule page's
note, say players get an e-mail only where the site really sends one; their pages always
show it."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import ngettext

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


def players_told(sessions: int = 1) -> str:
    """The sentence after "N sessions scheduled." saying how their players learn of it."""
    if mail_is_sent():
        return ngettext(
            "Its players see it on their pages and get an e-mail.",
            "Their players see them on their pages and get an e-mail.",
            sessions,
        )
    return ngettext(
        "Its players see it on their pages (this site sends no e-mail).",
        "Their players see them on their pages (this site sends no e-mail).",
        sessions,
    )
