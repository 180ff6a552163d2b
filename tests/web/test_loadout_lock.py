"""A player's loadout is chosen for a session, before it (RULES §5): it locks once the
session is being played (decision 52), has a result or its stage is closed, and the page
then shows it read-only, saying why (QA as a player)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.engine.dice import SeededDice
from table import game_setup
from table.actions import create_game
from tests.factories import confirm_session
from tests.tournaments.test_concurrency import require_postgresql
from tests.web.test_player import add_cards, loadout_data
from tournaments.actions.player_choices import ChoiceLocked, save_loadout
from tournaments.actions.session_setup import draw_squads, mark_in_play, run_initiative
from tournaments.actions.stage_advance import close_stage
from tournaments.forms.loadout import stored_loadout
from tournaments.models import Loadout, Session, SessionStatus

pytestmark = pytest.mark.django_db

BEING_PLAYED = "The session is being played"


@pytest.fixture
def player(role_client):
    return role_client("player")


@pytest.fixture
def chosen(player, world):
    """The player's seat, squads drawn, with a valid loadout saved before the session."""
    draw_squads(world.session, SeededDice(seed=3), expected_version=world.session.version)
    add_cards(world.tournament)
    seat = world.session.seats.get(player=world.player)
    url = reverse("tournaments:player_loadout", args=[seat.pk])
    assert player.post(url, loadout_data()).status_code == 302
    return seat


def _roll_initiative(session) -> None:
    session.refresh_from_db()
    run_initiative(session, SeededDice(seed=5), actor=None, expected_version=session.version)


def test_the_initiative_roll_locks_the_loadout_in_the_action(chosen, world):
    spec = stored_loadout(chosen)
    save_loadout(chosen, spec)  # still free before the session is played
    _roll_initiative(world.session)
    with pytest.raises(ChoiceLocked, match=BEING_PLAYED):
        save_loadout(chosen, spec)


def test_a_session_being_played_shows_the_loadout_read_only(player, chosen, world):
    url = reverse("tournaments:player_loadout", args=[chosen.pk])
    assert 'name="commander_combo"' in player.get(url).content.decode()
    mark_in_play(world.session)  # the first game on the board
    page = player.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert BEING_PLAYED in page.context["locked"]
    assert BEING_PLAYED in html
    # A summary of the weapons and cards, not a form that looks editable.
    assert '<form method="post" class="card"' not in html
    assert 'name="commander_combo"' not in html and "Save my loadout" not in html
    assert "Plasma gun" in html and "Kit 1" in html and "Order 1" in html


def test_a_save_sent_once_the_session_began_is_refused(player, chosen, world):
    url = reverse("tournaments:player_loadout", args=[chosen.pk])
    _roll_initiative(world.session)
    refused = player.post(url, loadout_data(marine_2="laser-rifle", marine_4="plasma-gun"))
    assert refused.status_code == 409
    assert BEING_PLAYED in refused.content.decode()
    saved = Loadout.objects.get(seat=chosen)
    assert saved.marine_weapons == ["laser-rifle", "plasma-gun", "laser-rifle", "assault-cannon"]


def test_my_games_offers_no_change_once_the_session_began(player, chosen, world):
    home = reverse("tournaments:player_home")
    assert "Change my loadout" in player.get(home).content.decode()
    _roll_initiative(world.session)
    page = player.get(home)
    html = page.content.decode()
    [game] = page.context["next_games"]
    assert game.loadout_status == "locked"
    assert "Change my loadout" not in html
    assert "See my loadout" in html
    assert chosen.pk in page.context["locked_seats"]


def test_my_games_reads_the_loadout_locks_once(player, chosen, world):
    """The review: the page and its "next games" each read why the loadouts are locked."""
    _roll_initiative(world.session)
    with CaptureQueriesContext(connection) as queries:
        page = player.get(reverse("tournaments:player_home"))
    [game] = page.context["next_games"]
    assert game.loadout_status == "locked"
    reads = [q for q in queries.captured_queries if '"session__stage__status"' in q["sql"]]
    assert len(reads) == 1


def test_a_result_or_a_closed_stage_says_why_the_loadout_is_kept(player, chosen, world):
    url = reverse("tournaments:player_loadout", args=[chosen.pk])
    confirm_session(world.session, lambda seat: 10 * seat.seat_order)
    page = player.get(url)
    assert "The session has a result" in page.context["locked"]
    assert 'name="commander_combo"' not in page.content.decode()
    for other in world.stage.sessions.exclude(pk=world.session.pk):
        confirm_session(other, lambda seat: 10 * seat.seat_order)
    close_stage(world.stage, SeededDice(seed=2))
    closed = player.get(url)
    assert "The stage of this session is closed" in closed.context["locked"]
    with pytest.raises(ChoiceLocked, match="stage of this session is closed"):
        save_loadout(chosen, stored_loadout(chosen))


# A game begun on the board: the session is locked and in play before its loadouts are read


def test_a_board_game_reads_the_loadouts_once_the_session_is_in_play(chosen, world, monkeypatch):
    read_while: list[str] = []
    seat_arms = game_setup.seat_arms

    def reading(seat):
        read_while.append(Session.objects.get(pk=seat.session_id).status)
        return seat_arms(seat)

    monkeypatch.setattr(game_setup, "seat_arms", reading)
    create_game(world.session, "hunt-derelict", "bob", actor=world.judge)
    assert read_while and set(read_while) == {SessionStatus.IN_PROGRESS}
    with pytest.raises(ChoiceLocked, match=BEING_PLAYED):
        save_loadout(chosen, stored_loadout(chosen))


def test_a_board_game_refused_leaves_the_session_as_it_was(chosen, world):
    session = Session.objects.get(pk=world.session.pk)
    before = session.status
    with pytest.raises(ValueError, match="Unknown map"):
        create_game(session, "no-such-map", "bob", actor=world.judge)
    assert session.status == before
    assert Session.objects.get(pk=session.pk).status == before
    save_loadout(chosen, stored_loadout(chosen))  # still free


@pytest.mark.services
def test_the_session_row_is_locked_before_the_loadouts_are_read(chosen, world):
    """PostgreSQL: a loadout save (it locks the session row too) waits for the game's
    transaction, so it is refused, or lands wholly before the game reads the loadouts."""
    require_postgresql()
    with CaptureQueriesContext(connection) as queries:
        create_game(world.session, "hunt-derelict", "bob", actor=world.judge)
    sql = [query["sql"] for query in queries.captured_queries]
    lock = next(
        index
        for index, text in enumerate(sql)
        if 'FROM "tournaments_session"' in text and "FOR UPDATE" in text
    )
    loadouts = [index for index, text in enumerate(sql) if 'FROM "tournaments_loadout"' in text]
    assert loadouts and lock < min(loadouts)


def test_the_initiative_form_warns_of_loadouts_missing_before_it_fixes_them(
    role_client, chosen, world
):
    """Decision 53: the roll fixes every loadout. Before it, the judge's initiative form
    names the players with no loadout yet (the board would give them its standard one,
    without cards); once every loadout is in, it says nothing."""
    judge = role_client("judge")
    sheet = reverse("tournaments:judge_session", args=[world.session.pk])
    others = [
        seat.player.display_name
        for seat in world.session.seats.select_related("player").order_by("seat_order")
        if seat.pk != chosen.pk
    ]
    page = judge.get(sheet).content.decode()
    warning = page.split('data-testid="dice-warning">')[1].split("</p>")[0]
    assert "Rolling initiative fixes every loadout and its cards." in warning
    assert f"No loadout submitted yet: {', '.join(others)}" in warning
    assert chosen.player.display_name not in warning
    for seat in world.session.seats.exclude(pk=chosen.pk):
        save_loadout(seat, stored_loadout(chosen))
    assert 'data-testid="dice-warning"' not in judge.get(sheet).content.decode()


def test_the_initiative_warning_names_a_refused_loadout_too(world):
    from types import SimpleNamespace

    from tournaments.sheets.seats import loadouts_before_initiative

    def check(name, loadout, problems=()):
        seat = SimpleNamespace(player=SimpleNamespace(display_name=name))
        return {"seat": seat, "loadout": loadout, "problems": problems}

    assert loadouts_before_initiative([check("Ada", object())]) == ""
    warning = loadouts_before_initiative(
        [check("Ada", object(), ("two heavy",)), check("Bo", None), check("Cy", None)]
    )
    assert "No loadout submitted yet: Bo, Cy" in warning
    assert "Loadout not allowed: Ada" in warning
