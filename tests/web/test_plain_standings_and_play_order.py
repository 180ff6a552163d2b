"""The plain standings say what the full ones say (provisional, awaiting result), lead back
to the tournament and have the site's icon; the seat tables show the play order once the
initiative is rolled, and no column of dashes before; the demo rolls it."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from demo.management.commands.load_demo import DEMO_SLUG
from rules.engine.dice import ScriptedDice
from tests.factories import confirm_session
from tournaments.actions.session_setup import run_initiative
from tournaments.models import Session, SessionStatus

pytestmark = pytest.mark.django_db


def get(name: str, *args) -> str:
    response = Client().get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def notice(html: str) -> str:
    found = re.search(r'<p class="notice" id="standings-provisional">.*?</p>', html, re.S)
    assert found, "no provisional notice"
    return found.group(0)


def test_the_plain_standings_are_provisional_as_the_full_ones_are(world):
    confirm_session(world.session, lambda seat: 10 * seat.seat_order)
    slug = world.tournament.slug
    plain = get("tournaments:standings-plain", slug)
    full = get("tournaments:standings", slug)
    assert notice(plain) == notice(full)
    assert "Provisional: 6 players are awaiting" in notice(plain)
    rows = plain[plain.index("<tbody>") : plain.index("</tbody>")].split("<tr>")[1:]
    assert [("awaiting result" in row) for row in rows] == [False] * 3 + [True] * 6


def test_the_plain_standings_lead_back_to_the_tournament_with_the_sites_icon(world):
    plain = get("tournaments:standings-plain", world.tournament.slug)
    home = reverse("tournaments:tournament", args=[world.tournament.slug])
    assert f'<a href="{home}" data-testid="tournament-link">Back to the tournament</a>' in plain
    icon = re.search(r'<link rel="icon" href="([^"]+)"', plain)
    assert icon and icon.group(1).endswith(".svg")
    base_icon = re.search(r'<link rel="icon" href="([^"]+)"', get("tournaments:home"))
    assert base_icon and base_icon.group(1) == icon.group(1)  # the other pages' icon


def play_order_column(html: str) -> bool:
    return "Play order" in html[html.index("<table") : html.index("</table>")]


def test_the_seat_table_shows_the_play_order_only_once_it_is_rolled(world):
    slug, session = world.tournament.slug, world.session
    assert not play_order_column(get("tournaments:session", slug, session.pk))
    run_initiative(
        session, ScriptedDice([6, 5, 4]), actor=world.judge, expected_version=session.version
    )
    html = get("tournaments:session", slug, session.pk)
    assert play_order_column(html)
    cells = re.findall(r'<td class="num hide-small">(\d)</td>', html)
    assert cells == ["1", "2", "3"]  # seat order: 6, 5 and 4 rolled


def test_the_demo_rolled_the_initiative_of_every_session_played(client):
    call_command("load_demo", stdout=StringIO())
    played = Session.objects.filter(stage__tournament__slug=DEMO_SLUG).exclude(
        status=SessionStatus.SCHEDULED
    )
    assert played.count() == 5
    for session in played:
        seats = session.seats.order_by("initiative_position")
        assert [seat.initiative_position for seat in seats] == [1, 2, 3], session
        html = get("tournaments:session", DEMO_SLUG, session.pk)
        assert play_order_column(html), session
    home = get("tournaments:tournament", DEMO_SLUG)
    latest = home[home.index("Latest results") :]
    assert latest.count(">Play order<") == 3
