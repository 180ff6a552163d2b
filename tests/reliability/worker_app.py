"""The Celery app for the fault tests' worker: BoB's own, with hooks that make a task stop
where a test wants to kill it.

``BOB_TEST_PAUSE_BEFORE`` / ``BOB_TEST_PAUSE_AFTER`` (seconds) hold the first run of each
task named in ``BOB_TEST_PAUSE_TASKS`` (by task id) before its work starts / after it
finished, before the message is acknowledged. Markers in ``BOB_TEST_MARKERS`` tell the
test what happened: ``<id>.started`` (first run, with the pool process id),
``<id>-<n>.redelivered`` (a later run), ``<id>-<n>.done`` (every run that finished).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from celery.signals import task_postrun, task_prerun

from bob.celery import app

__all__ = ["app"]


def _mark(name: str, phase: str, task: str) -> bool:
    """Write a marker; False if it was there already."""
    path = Path(os.environ["BOB_TEST_MARKERS"]) / f"{name}.{phase}.json"
    if path.exists():
        return False
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({"task": task, "id": name, "pid": os.getpid()}))
    temporary.rename(path)
    return True


def _pause(variable: str, task: str) -> None:
    if task in os.environ.get("BOB_TEST_PAUSE_TASKS", "").split(","):
        time.sleep(float(os.environ.get(variable, "0")))


@task_prerun.connect
def _before(task_id=None, task=None, **kwargs) -> None:
    if _mark(task_id, "started", task.name):
        _pause("BOB_TEST_PAUSE_BEFORE", task.name)
    else:
        _mark(f"{task_id}-{time.monotonic_ns()}", "redelivered", task.name)


@task_postrun.connect
def _after(task_id=None, task=None, **kwargs) -> None:
    _mark(f"{task_id}-{time.monotonic_ns()}", "done", task.name)
    if _mark(task_id, "finished", task.name):
        _pause("BOB_TEST_PAUSE_AFTER", task.name)
