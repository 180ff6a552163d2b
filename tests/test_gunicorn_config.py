"""The production server's own settings (gunicorn.conf.py): what each worker does once it
has loaded Django (the whole server under faults: tests/reliability/test_production_server.py)."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _config():
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_worker_hides_what_it_loaded_from_the_garbage_collector():
    """Django's modules, URL patterns and translations live as long as the worker: frozen,
    a full collection no longer walks them during a request."""
    config = _config()
    gc.unfreeze()
    try:
        config.post_worker_init(worker=None)
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
