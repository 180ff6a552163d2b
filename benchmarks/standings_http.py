"""Requests per second of the public standings page of a 243-player tournament, against a
trivial Django view, served by the same real WSGI server on loopback in the same run.

Goal: the standings page reaches at least 50 % of the trivial view's requests per second
(the standings are cached per tournament and rebuilt when a result is saved, so a page
view costs a cache read and a template render, not a recomputation).

Self-contained: a throwaway SQLite database in a temporary directory, the project's
settings with DEBUG off, a wsgiref server in a thread on 127.0.0.1, and a bounded number
of sequential requests. Run: ``.venv/bin/python benchmarks/standings_http.py``.
"""

from __future__ import annotations

import http.cookiejar
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = 243
WARMUP = 20
REQUESTS = 1000
ROUNDS = 10
GOAL = 0.5

WORKDIR = tempfile.TemporaryDirectory(prefix="bob-bench-")
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "bob.settings",
        "DATABASE_URL": f"sqlite:///{Path(WORKDIR.name) / 'bench.sqlite3'}",
        "DEBUG": "0",
        "SECRET_KEY": "benchmark-only-secret-key-not-for-production-use-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "REDIS_URL": "",
        # The embedded default's file cache, in the throwaway directory (not var/cache).
        "BOB_CACHE_DIR": str(Path(WORKDIR.name) / "cache"),
        # Keep the database connection between requests, as a deployment does.
        "CONN_MAX_AGE": "600",
    }
)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.urls import include, path  # noqa: E402


def trivial(request: HttpRequest) -> HttpResponse:
    """The baseline: the whole Django stack with (almost) no work in the view."""
    return HttpResponse("ok", content_type="text/plain")


# This script is its own URL conf: the project's URLs plus the trivial view, so the project
# itself needs no benchmark-only route.
urlpatterns = [path("bench/trivial/", trivial), path("", include("bob.urls"))]


def build_tournament() -> str:
    from rules.engine.dice import SeededDice
    from tournaments.actions.result_entry import record_result
    from tournaments.actions.stage_advance import start_tournament
    from tournaments.models import (
        Player,
        Registration,
        Squad,
        SquadColour,
        StipulationKind,
        Tournament,
    )

    tournament = Tournament.objects.create(name="Benchmark Cup", slug="bench")
    for order, (slug, colour) in enumerate(
        [
            ("ultramarines", SquadColour.BLUE),
            ("blood-angels", SquadColour.RED),
            ("imperial-fists", SquadColour.YELLOW),
        ]
    ):
        Squad.objects.create(
            tournament=tournament,
            slug=slug,
            name_en=slug,
            name_it=slug,
            colour=colour,
            order=order,
        )
    players = Player.objects.bulk_create(
        Player(name=f"Player {n}", nickname=f"P{n}") for n in range(1, PLAYERS + 1)
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=player, number=n)
        for n, player in enumerate(players, start=1)
    )
    start_tournament(tournament, SeededDice(seed=1))
    stage = tournament.stages.get(number=1)
    stage.stipulation_kind = StipulationKind.ALIEN_HUNT
    stage.stipulation_params = {"rounds": 8}
    stage.save()
    for session in stage.sessions.order_by("number"):
        seats = list(session.seats.order_by("seat_order"))
        breakdowns = [
            {"seat": str(seat.player_id), "objectives": [{"label": "hunt", "points": 5 * i}]}
            for i, seat in enumerate(seats, start=1)
        ]
        record_result(
            session,
            breakdowns,
            survivors=[seat.player_id for seat in seats],
            confirmed=True,
            dice=SeededDice(seed=session.pk),
        )
    return tournament.slug


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        return


class LoopbackCookiePolicy(http.cookiejar.DefaultCookiePolicy):
    """Send back Secure cookies over loopback HTTP, as a browser does over HTTPS in
    production (DEBUG off marks the CSRF cookie Secure)."""

    def return_ok_secure(self, cookie, request) -> bool:
        return True


def visitor() -> urllib.request.OpenerDirector:
    """One visitor that keeps its cookies, like a browser."""
    jar = http.cookiejar.CookieJar(policy=LoopbackCookiePolicy())
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def timed(opener: urllib.request.OpenerDirector, url: str, count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        with opener.open(url) as response:
            response.read()
            assert response.status == 200
    return count / (time.perf_counter() - started)


def measure(base: str, urls: dict[str, str]) -> dict[str, float]:
    """Median requests per second per URL over ROUNDS alternating rounds (less noise from
    other load on the machine than one long run per URL)."""
    openers = {name: visitor() for name in urls}
    for name, url in urls.items():
        timed(openers[name], base + url, WARMUP)
    rounds: dict[str, list[float]] = {name: [] for name in urls}
    for _ in range(ROUNDS):
        for name, url in urls.items():
            rounds[name].append(timed(openers[name], base + url, REQUESTS // ROUNDS))
    return {name: statistics.median(values) for name, values in rounds.items()}


def main() -> int:
    settings.ROOT_URLCONF = __name__
    call_command("migrate", verbosity=0)
    slug = build_tournament()
    server = make_server("127.0.0.1", 0, get_wsgi_application(), handler_class=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        page = f"/t/{slug}/standings/"
        body = urllib.request.urlopen(base + page).read().decode()
        assert "Player 1" in body or "P1" in body, "the standings page did not render players"
        rates = measure(base, {"trivial": "/bench/trivial/", "standings": page})
        trivial_rps, standings_rps = rates["trivial"], rates["standings"]
    finally:
        server.shutdown()
        WORKDIR.cleanup()
    ratio = standings_rps / trivial_rps
    print(
        f"players: {PLAYERS}, requests per view: {REQUESTS} in {ROUNDS} alternating rounds "
        f"(after {WARMUP} warm-up), median of the rounds"
    )
    print(f"trivial view:   {trivial_rps:8.1f} requests/s")
    print(f"standings page: {standings_rps:8.1f} requests/s")
    print(f"ratio: {ratio:.0%} (goal >= {GOAL:.0%}) -> {'met' if ratio >= GOAL else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
