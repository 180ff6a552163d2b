"""``gunicorn.conf.py`` as it was before its master prepared the app, for
``benchmarks/new_worker.py`` to compare with: the app is loaded by each worker itself, which
then imports every view and hides what it loaded from the garbage collector, nothing else
prepared before its first request."""

import gc
from pathlib import Path

exec((Path(__file__).resolve().parents[2] / "gunicorn.conf.py").read_text())  # noqa: S102

preload_app = False


def when_ready(server: object) -> None:
    """Nothing: the master has not loaded the app."""


def post_worker_init(worker: object) -> None:
    from django.urls import reverse

    reverse("tournaments:home")
    gc.freeze()
