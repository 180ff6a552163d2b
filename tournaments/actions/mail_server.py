"""The mail server as this process found it: a server that hangs or cannot be reached costs
one ``EMAIL_TIMEOUT``, then the process sends no mail for ``BOB_MAIL_COOLDOWN_SECONDS``.

Every mail of a worker would otherwise wait the whole timeout again: a sweep of a round's
pending notices took a pool process for minutes while the server was away, and the judges'
Alien turns queued behind it were shown failed. A server that answers with a refusal (an
address it does not take, a message too big, a log-in refused) costs nothing to try: only a
server that does not answer starts the cool-down. The notices not sent stay pending; the
scheduler's sweep sends them once the server answers again (tournaments/actions/notices.py).
"""

from __future__ import annotations

import logging
from smtplib import SMTPRecipientsRefused, SMTPResponseException

from django.conf import settings

from tournaments.domain.cooldown import Cooldown

#: What a mail server that answered raises when it refuses a message.
REFUSALS = (SMTPResponseException, SMTPRecipientsRefused)


class MailServerCooldown(Cooldown):
    """The cool-down of a process's mail after the mail server did not answer."""

    service = "Mail server"
    log = logging.getLogger("bob.notices")

    def configured_seconds(self) -> float:
        return settings.BOB_MAIL_COOLDOWN_SECONDS


#: This process's cool-down of the mail server.
mail_server = MailServerCooldown()


def answered(error: BaseException) -> bool:
    """Whether a failed send had the server's answer (a refusal), not a silence."""
    return isinstance(error, REFUSALS)
