"""A mail backend for the fault tests: each mail is a file in ``BOB_TEST_MAILBOX``, so mails
sent by worker processes can be counted; with ``BOB_TEST_PAUSE_AFTER_SEND`` the first mail
sent pauses after it was "accepted" (the window a crash there leaves: docs/operations.md).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend


class FileMailbox(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        directory = Path(os.environ["BOB_TEST_MAILBOX"])
        for message in email_messages:
            record = {"to": message.to, "subject": message.subject, "pid": os.getpid()}
            (directory / f"{uuid.uuid4().hex}.json").write_text(json.dumps(record))
            window = directory / "window.paused"
            pause = float(os.environ.get("BOB_TEST_PAUSE_AFTER_SEND", "0"))
            if pause and not window.exists():
                window.write_text(str(os.getpid()))
                time.sleep(pause)
        return len(email_messages)


def mails(directory: Path) -> list[dict]:
    return [json.loads(path.read_text()) for path in sorted(directory.glob("*.json"))]
