"""Alien turns whose task was lost, queued again by the scheduler.

A judge's Alien turn is a Celery task (:func:`table.actions.run_alien_turn`). Its message
can be lost: Redis restarted empty before a worker took it, or a worker died holding it
(redelivered only after ``CELERY_VISIBILITY_TIMEOUT``). The scheduler runs
:func:`requeue_lost_turns` every 30 s (``CELERY_BEAT_SCHEDULE``): a request still pending
:data:`LOST_AFTER` after it was queued is queued once more, until its deadline
(``BOB_ALIEN_TURN_DEADLINE_SECONDS``), after which the judge's board offers to play it
there. Queueing again is safe: a request is carried out once (its id is the key), so a
task that was only slow finds it done.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from table.actions import run_alien_turn
from table.models import AlienTurnRequest, TurnStatus
from tournaments.actions.task_queue import queue_after_commit

#: A turn takes well under a second on a worker: one still pending this long after it
#: was queued most likely lost its task.
LOST_AFTER = timedelta(seconds=30)


@shared_task(name="table.tasks.requeue_lost_turns", ignore_result=True)
def requeue_lost_turns() -> int:
    """Queue again each Alien turn request pending longer than :data:`LOST_AFTER` and not
    past its deadline; returns how many."""
    now = timezone.now()
    deadline = timedelta(seconds=settings.BOB_ALIEN_TURN_DEADLINE_SECONDS)
    lost = list(
        AlienTurnRequest.objects.filter(
            status=TurnStatus.PENDING,
            queued_at__lte=now - LOST_AFTER,
            queued_at__gt=now - deadline,
        ).values_list("pk", flat=True)
    )
    for request_id in lost:
        queue_after_commit(run_alien_turn, str(request_id))
    return len(lost)
