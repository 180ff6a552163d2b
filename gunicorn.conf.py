"""Gunicorn's settings for BoB (``make serve``, compose.yaml), each from the environment.

``BIND`` (default ``0.0.0.0:8000``, every address of the machine so the venue's devices
reach it), ``WEB_CONCURRENCY`` worker processes (default: two per core plus one, at most
8), ``FORWARDED_ALLOW_IPS`` the proxies whose X-Forwarded-* headers Gunicorn believes
(read by Gunicorn itself).
"""

import gc
import multiprocessing
import os

bind = os.environ.get("BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY") or min(2 * multiprocessing.cpu_count() + 1, 8))
# A request that takes longer than this is a stuck worker: it is killed and replaced.
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 20
# Workers are renewed now and then, so a slow leak never grows for the whole event.
max_requests = 2000
max_requests_jitter = 200
accesslog = "-"
errorlog = "-"


def post_worker_init(worker: object) -> None:
    """Once a worker has loaded Django and its views, their objects (modules, URL patterns,
    forms, translations: some 125,000) are moved out of the garbage collector's sight: they
    live as long as the worker, and every full collection walked them all (about 1 ms a
    request on average for a standings page computed afresh, whose rows make many objects)."""
    from django.urls import reverse

    reverse("tournaments:home")  # imports every view's module, as the first page would
    gc.freeze()
