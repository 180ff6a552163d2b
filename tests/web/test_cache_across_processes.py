"""The embedded default (no REDIS_URL: SQLite file, file cache) keeps the anonymous page cache
correct across processes: a web server serves a cached standings page, and a change that a
management command commits in another process shows on the server's next request.

Everything runs in real processes against a throwaway SQLite file and cache directory, the
way `make demo` runs: `runserver` serving while the organiser types `manage.py advance`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SLUG = "coppa"

SET_UP = """
from tests.factories import confirm_stage
from tests.web.conftest import build_world

world = build_world()
confirm_stage(world.stage, lambda seat: 10 * seat.seat_order)
print(world.player.pk)
"""

RENAME_QUIETLY = """
from tournaments.models import Player

# update() sends no model signal: the tournament's cache generation does not move.
Player.objects.filter(pk={pk}).update(nickname="Quiet Rename")
"""


class Site:
    """A throwaway embedded-default site: its environment and a way to run its commands."""

    def __init__(self, directory: Path) -> None:
        leave_out = {"DATABASE_URL", "REDIS_URL", "BOB_CACHE_DIR", "DJANGO_ALLOW_ASYNC_UNSAFE"}
        self.env = {key: value for key, value in os.environ.items() if key not in leave_out}
        self.env.update(
            DATABASE_URL=f"sqlite:///{directory / 'bob.sqlite3'}",
            BOB_CACHE_DIR=str(directory / "cache"),
            BOB_LANGUAGE="en",
            DEBUG="1",
        )

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert result.returncode == 0, result.stderr + result.stdout
        return result.stdout

    def serve(self, port: int) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def anonymous_page(url: str, server: subprocess.Popen, wait_seconds: float = 0) -> str:
    """The page as a new anonymous visitor gets it (no cookies), waiting for the server to
    start listening for up to ``wait_seconds``."""
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                assert response.status == 200
                return response.read().decode()
        except urllib.error.URLError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.fixture
def site(tmp_path) -> Site:
    site = Site(tmp_path)
    site.manage("migrate", "--no-input", "-v", "0")
    return site


def test_a_change_committed_by_another_process_shows_on_the_next_request(site):
    player_pk = int(site.manage("shell", "-c", SET_UP).split()[-1])
    port = free_port()
    server = site.serve(port)
    try:
        url = f"http://127.0.0.1:{port}/t/{SLUG}/standings/"
        before = anonymous_page(url, server, wait_seconds=60)
        assert 'class="qualified"' not in before

        # A change no signal reports is not shown: the server answers from its cache...
        site.manage("shell", "-c", RENAME_QUIETLY.format(pk=player_pk))
        assert "Quiet Rename" not in anonymous_page(url, server)

        # ...until a command in another process commits a change to the tournament.
        site.manage("advance", SLUG, "--seed", "3")
        after = anonymous_page(url, server)
        assert 'class="qualified"' in after
        assert "Quiet Rename" in after
    finally:
        server.terminate()
        server.wait(timeout=30)
