"""The Celery app for the fault tests' worker: BoB's own, with hooks that make a task stop
where a test wants to kill it.

``BOB_TEST_PAUSE_BEFORE`` / ``BOB_TEST_PAUSE_AFTER`` (seconds) hold the first run of each
task (by task id) before its work starts / after it finished, before the message is
acknowledged. Each phase writes a marker ``<task id>.<phase>.json`` into
``BOB_TEST_MARKERS`` (with the pool process id) so the test knows when to kill.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from celery.signals import task_postrun, task_prerun

from bob.celery import app

__all__ = ["app"]


def _mark(task_id: str, phase: str, name: str) -> bool:
    """Write the marker; False if it was there already (a redelivery)."""
    path = Path(os.environ["BOB_TEST_MARKERS"]) / f"{task_id}.{phase}.json"
    first = not path.exists()
    if first:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"task": name, "id": task_id, "pid": os.getpid()}))
        temporary.rename(path)
    return first


@task_prerun.connect
def _before(task_id=None, task=None, **kwargs) -> None:
    pause = float(os.environ.get("BOB_TEST_PAUSE_BEFORE", "0"))
    if not _mark(task_id, "started", task.name):
        _mark(f"{task_id}-{time.monotonic_ns()}", "redelivered", task.name)
    elif pause:
        time.sleep(pause)


@task_postrun.connect
def _after(task_id=None, task=None, **kwargs) -> None:
    pause = float(os.environ.get("BOB_TEST_PAUSE_AFTER", "0"))
    if _mark(task_id, "finished", task.name) and pause:
        time.sleep(pause)
