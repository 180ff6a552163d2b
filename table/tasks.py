"""The board's background task (Celery; in-process without Redis), listed for the worker.

:func:`~table.actions.run_alien_turn` resolves a judge's Alien turn request. Idempotent: the
request id is the key. :func:`table.actions.carry_out_turn` locks the request and works
only while it is pending, so a retry, a duplicate delivery or a second click delivering the
same id never plays the turn twice. :func:`~table.turn_sweep.requeue_lost_turns`, run by
the scheduler, queues again a turn whose task was lost.
"""

from table.actions import run_alien_turn
from table.turn_sweep import requeue_lost_turns

__all__ = ["requeue_lost_turns", "run_alien_turn"]
