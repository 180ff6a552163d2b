"""Gunicorn's settings for BoB (``make serve``, compose.yaml), each from the environment.

``BIND`` (default ``0.0.0.0:8000``, every address of the machine so the venue's devices
reach it), ``WEB_CONCURRENCY`` worker processes (default: two per core plus one, at most
8), ``FORWARDED_ALLOW_IPS`` the proxies whose X-Forwarded-* headers Gunicorn believes
(read by Gunicorn itself).
"""

import gc
import multiprocessing
import os
from typing import Any

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


# The app is loaded once, in the master, which prepares what the workers' first requests
# would otherwise each prepare (bob/warm_up.py) and then forks them: a worker started later,
# after max_requests or to replace a killed one, is ready at once (no 1.4 s of loading
# Django) and shares the master's memory for what it does not change. A new release of the
# code therefore needs the server restarted (make serve, compose), not a HUP, which would
# start new workers from the master's old code.
preload_app = True


def when_ready(server: Any) -> None:
    """The master, its app loaded and before it forks a worker: prepare, let go of any
    connection (nothing it opened may be shared by its workers), and move what it loaded
    (modules, URL patterns, templates, translations: some 160,000 objects that live as long
    as a worker) out of the garbage collector's sight, so a worker's full collections no
    longer walk them (about 1 ms a request on average for a standings page computed afresh,
    whose rows make many objects) nor write to the memory it shares with the master."""
    from django.db import connections

    from bob.warm_up import prepare_process

    prepared = prepare_process()
    connections.close_all()
    gc.freeze()
    server.log.info("Master %s", prepared)
