"""What every page may need to know about how this site is set up."""

from __future__ import annotations

from django.http import HttpRequest

from tournaments.web.notice_words import mail_is_sent


def mail(request: HttpRequest) -> dict[str, bool]:
    """``mail_is_sent``: the pages that promise mails say so only when they are sent."""
    return {"mail_is_sent": mail_is_sent()}
