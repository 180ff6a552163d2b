"""The tournament app's background tasks (Celery), listed for the worker to find them.

Each task lives beside the work it does and is idempotent and safe to retry:

* :func:`~tournaments.actions.notices.notify_session_scheduled` mails a session's players
  its time, table and an .ics file, once per schedule change (through the notice outbox);
* :func:`~tournaments.actions.notices.send_pending_notices` sends the notices left pending
  (a lost task, or the broker down when they were queued), every minute;
* :func:`~tournaments.queries.standings.rebuild_standings` recomputes a tournament's cached
  standings and renews its cache generation (a pure recomputation).

Their names stay ``tournaments.tasks.*`` whatever module defines them, so queued messages
survive a move.
"""

from tournaments.actions.notices import notify_session_scheduled, send_pending_notices
from tournaments.queries.standings import rebuild_standings

__all__ = ["notify_session_scheduled", "rebuild_standings", "send_pending_notices"]
