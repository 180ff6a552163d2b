"""A judge finds their way (QA on a phone): the site's home puts their sessions to judge
first and offers "Create a tournament" only to those the header sends to organising; the
session sheet has the board near the top, named for what it is; no initiative roll once
the result is confirmed; the session's dice name the player and the figure who rolled."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.engine.dice import DieKind, ScriptedDice, SeededDice
from tests.factories import UserFactory
from tests.web.conftest import login
from tournaments.actions.dice_records import record_dice
from tournaments.actions.result_entry import record_result
from tournaments.actions.session_setup import SetupError, draw_squads, run_initiative
from tournaments.actions.staff import allow_creating_tournaments
from tournaments.models import DiceRoll, Seat, Stipulation

pytestmark = pytest.mark.django_db

HOME = "/"


def sheet(client, world) -> str:
    return client.get(
        reverse("tournaments:judge_session", args=[world.session.pk])
    ).content.decode()


def seats_of(session) -> list[Seat]:
    return list(session.seats.select_related("player").order_by("seat_order"))


# --- the site's home ------------------------------------------------------------------------


def test_a_judge_sees_their_sessions_to_judge_first_and_no_create_button(client, world):
    login(client, world.judge)
    page = client.get(HOME).content.decode()
    mine = page.index("Your sessions to judge")
    assert mine < page.index("<h2>StarQuest BoB tournaments</h2>")
    link = reverse("tournaments:judge_session", args=[world.session.pk])
    assert link in page[mine:]
    # Another judge's session is not listed as theirs.
    other = world.stage.sessions.exclude(pk=world.session.pk).filter(judge=world.other_judge)
    assert reverse("tournaments:judge_session", args=[other.get().pk]) not in page
    assert reverse("tournaments:judge_home") in page
    assert "Create a tournament" not in page


def test_a_session_with_a_confirmed_result_is_no_longer_to_judge(client, world):
    seats = seats_of(world.session)
    draw_squads(world.session, SeededDice(seed=3), actor=None, expected_version=1)
    record_result(world.session, [{"seat": str(seat.player_id)} for seat in seats], confirmed=True)
    login(client, world.judge)
    page = client.get(HOME).content.decode()
    assert "Your sessions to judge" not in page


@pytest.mark.parametrize(
    ("who", "offered"),
    [
        ("organiser", True),
        ("allowed_account", True),
        ("new_account", False),
        ("judge", False),
        ("anonymous", False),
    ],
)
def test_create_a_tournament_is_offered_as_the_header_offers_organising(
    client, world, who, offered
):
    """Decision 60: to who organises, and to an account allowed to create tournaments."""
    users = {"organiser": world.organiser, "judge": world.judge}
    if who in ("new_account", "allowed_account"):
        users[who] = UserFactory(username="newcomer")
        users[who].save()  # the factory sets the password without saving it
    if who == "allowed_account":
        allow_creating_tournaments("newcomer")
    if who in users:
        login(client, users[who])
    page = client.get(HOME).content.decode()
    assert ("Create a tournament" in page) is offered
    assert (reverse("tournaments:organiser_home") in page) is offered


def test_the_home_page_works_out_the_organise_offer_once(client, world):
    """The review: the home view and the header each asked who organises, judges and is a
    player (the organisers' table read 4 times for an account with no role)."""
    newcomer = UserFactory(username="newcomer")
    newcomer.save()  # the factory sets the password without saving it
    allow_creating_tournaments("newcomer")
    login(client, newcomer)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(HOME).content.decode()
    assert "Create a tournament" in page and reverse("tournaments:organiser_home") in page
    organisers = [q for q in queries.captured_queries if "tournament_organisers" in q["sql"]]
    assert len(organisers) == 1
    assert len(queries) <= 10, len(queries)  # 14 at the review


def test_a_judges_header_asks_who_organises_once(client, world):
    """The review: a judge's organising was read for whether they judge, then again for the
    organiser's link."""
    login(client, world.judge)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(HOME).content.decode()
    assert reverse("tournaments:judge_home") in page
    assert reverse("tournaments:organiser_home") not in page
    organisers = [q for q in queries.captured_queries if "tournament_organisers" in q["sql"]]
    assert len(organisers) == 1


# --- the session sheet ----------------------------------------------------------------------


def test_the_board_link_is_near_the_top_and_says_alien_assistant_with_aliens(world, client):
    login(client, world.judge)
    page = sheet(client, world)
    board = reverse("table:games", args=[world.session.pk])
    link = re.search(
        rf'<a class="button" href="{board}" data-testid="board-link">([^<]*)</a>', page
    )
    assert link and link[1] == "Board and Alien assistant"
    # Above the seats, the dice and the result, not at the bottom.
    assert page.index(board) < page.index("<h2>Seats</h2>") < page.index("<h2>Result</h2>")
    assert "Alien assistant (board)" not in page


def test_the_board_link_of_a_session_without_aliens_is_just_the_board(world, client):
    Stipulation.objects.create(session=world.session, kind="tpk", params={"aliens": False})
    login(client, world.judge)
    page = sheet(client, world)
    link = re.search(r'data-testid="board-link">([^<]*)</a>', page)
    assert link and link[1] == "Board"
    assert "Alien assistant" not in page


def test_the_board_link_in_italian(world, client):
    Stipulation.objects.create(session=world.session, kind="tpk", params={"aliens": False})
    login(client, world.judge)
    client.cookies["django_language"] = "it"
    page = sheet(client, world)
    assert re.search(r'data-testid="board-link">Tabellone</a>', page)


def test_no_initiative_roll_once_the_result_is_confirmed(world, client):
    session = world.session
    draw_squads(session, SeededDice(seed=3), actor=None, expected_version=1)
    session.refresh_from_db()
    login(client, world.judge)
    assert "Roll initiative" in sheet(client, world)
    record_result(
        session, [{"seat": str(seat.player_id)} for seat in seats_of(session)], confirmed=True
    )
    session.refresh_from_db()
    assert "Roll initiative" not in sheet(client, world)
    # Nor by a form kept open from before.
    with pytest.raises(SetupError, match="result is confirmed"):
        run_initiative(
            session, ScriptedDice(values=[1, 2, 3]), actor=None, expected_version=session.version
        )


def test_a_draft_result_still_offers_the_initiative_roll(world, client):
    session = world.session
    draw_squads(session, SeededDice(seed=3), actor=None, expected_version=1)
    record_result(
        session, [{"seat": str(seat.player_id)} for seat in seats_of(session)], confirmed=False
    )
    login(client, world.judge)
    assert "Roll initiative" in sheet(client, world)


def test_the_sessions_dice_name_the_player_and_the_figure(world, client):
    first, second, _third = seats_of(world.session)
    dice = ScriptedDice(values=[1, 0, 2, 1])
    dice.roll(
        DieKind.WHITE,
        1,
        "hand_to_hand_attack",
        "p1-cmd",
        {"attacker": "p1-cmd", "defender": "ork-blip-1-1"},
    )
    dice.roll(
        DieKind.WHITE,
        1,
        "hand_to_hand_defence",
        "ork-blip-1-1",
        {"attacker": "p1-cmd", "defender": "ork-blip-1-1"},
    )
    dice.roll(
        DieKind.RED,
        1,
        "shot",
        "p2-m4",
        {"attacker": "p2-m4", "target": "ork-blip-1-1", "weapon": "lascannon"},
    )
    dice.roll(DieKind.WHITE, 1, "shot", "x-unknown", {})
    record_dice(dice, tournament=world.tournament, session=world.session)
    assert DiceRoll.objects.filter(session=world.session).count() == 4
    login(client, world.judge)
    page = sheet(client, world)
    cells = re.findall(r"</td><td>([^<]*)</td><td>[\d, ]+</td>", page)
    assert cells == [
        f"{first.player.display_name} — Commander (p1-cmd)",
        "Aliens — Ork (ork-blip-1-1)",
        f"{second.player.display_name} — Marine 4 (p2-m4)",
        "x-unknown",
    ]
