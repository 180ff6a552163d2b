"""The production server's own settings (gunicorn.conf.py): the master loads the app, prepares
it and forks the workers from it (the whole server under faults:
tests/reliability/test_production_server.py)."""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path
from unittest import mock

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def _config():
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Server:
    def __init__(self) -> None:
        self.log = mock.Mock()


def test_the_master_loads_the_app_once_for_every_worker():
    assert _config().preload_app is True


def test_the_master_prepares_lets_go_of_its_connections_and_hides_what_it_loaded(db):
    """Before it forks: what it prepared is in the log, no database connection is left for
    the workers to share, and what it loaded is frozen out of the garbage collector's sight
    (a worker's full collection no longer walks it)."""
    config = _config()
    connection.ensure_connection()
    server = _Server()
    gc.unfreeze()
    try:
        with mock.patch.object(connection, "close", wraps=connection.close) as close:
            config.when_ready(server)
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
    close.assert_called()
    (message, prepared), _ = server.log.info.call_args
    assert message == "Master %s" and "templates" in str(prepared) and "reference" in prepared.maps
