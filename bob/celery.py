"""The Celery application.

With ``REDIS_URL`` set, tasks go to workers through Redis. Without it, settings turn on
``task_always_eager`` and every task runs in-process, so the embedded default needs no
broker.

A worker gives a heartbeat from its consumer (and the scheduler from its loop:
``CELERY_BEAT_SCHEDULER``) for ``/healthz`` (bob/heartbeat.py), and its broker connections
wait for Redis longer than a web request does (``BOB_WORKER_REDIS_TIMEOUT_SECONDS``). Its
main process prepares what its pool's processes would each prepare on their first tasks
(bob/warm_up.py) before it forks them, as Gunicorn's master does for the web's workers.
"""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import celeryd_init, worker_init

from bob.heartbeat import WorkerHeartbeat, patient_broker_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bob.settings")

app = Celery("bob")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["consumer"].add(WorkerHeartbeat)

logger = logging.getLogger("bob.celery")


@celeryd_init.connect
def _worker_connections(conf: Any = None, **kwargs: Any) -> None:
    """A worker starting: before it connects, its broker connections get their wait."""
    patient_broker_connections(conf)


@worker_init.connect
def _prepare_pool(**kwargs: Any) -> None:
    """A worker's main process, Django set up, before it starts its pool: prepare what
    each pool process would otherwise prepare on its first tasks (the boards of the Alien
    turns' maps, the release of the standings' cache keys, the notices' templates)."""
    from bob.warm_up import prepare_process

    logger.info("Worker %s", prepare_process())
