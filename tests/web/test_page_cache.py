"""The anonymous standings page is cached, yet shows any committed change to its tournament
on the next request — whoever made it: a judge's request, a Celery task, a management
command, the admin, a result correction — and never serves one visitor's CSRF token or
personal menu to another."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import (
    TournamentFactory,
    confirm_stage,
    register_players,
    session_points,
)
from tests.web.test_judge import result_data
from tournaments.actions.result_entry import correct_result, record_result
from tournaments.actions.stage_advance import start_tournament
from tournaments.caching import generations
from tournaments.models import Player, Stipulation, StipulationKind
from tournaments.tasks import rebuild_standings

pytestmark = pytest.mark.django_db


def standings_url(world) -> str:
    return reverse("tournaments:standings", args=[world.tournament.slug])


def test_cached_page_follows_a_new_result(world, role_client, django_capture_on_commit_callbacks):
    public = Client()
    before = public.get(standings_url(world))
    assert before.status_code == 200
    judge = role_client("judge")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = judge.post(
            url, result_data(world.session, world.session.version, tokens={0: 45})
        )
    assert response.status_code == 302
    after = public.get(standings_url(world)).content.decode()
    assert after != before.content.decode()
    assert ">45<" in after


def test_each_visitor_gets_their_own_csrf_token(world):
    first, second = Client(), Client(enforce_csrf_checks=True)
    page_one = first.get(standings_url(world))
    page_two = second.get(standings_url(world))
    token_one = first.cookies["csrftoken"].value
    token_two = second.cookies["csrftoken"].value
    assert token_one != token_two
    assert "bob-csrf-token-slot" not in page_two.content.decode()
    # The language form works with the token served from the cache.
    switched = second.post(
        "/i18n/setlang/",
        {
            "language": "en",
            "next": standings_url(world),
            "csrfmiddlewaretoken": _form_token(page_two.content.decode()),
        },
    )
    assert switched.status_code == 302
    assert page_one.status_code == 200


def _form_token(page: str) -> str:
    marker = 'name="csrfmiddlewaretoken" value="'
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


def test_logged_in_pages_are_not_shared(world, role_client):
    Client().get(standings_url(world))  # fills the anonymous cache
    organiser = role_client("organiser").get(standings_url(world)).content.decode()
    assert "Log out organiser" in organiser or "organiser" in organiser
    anonymous = Client().get(standings_url(world)).content.decode()
    assert "organiser" not in anonymous


def anonymous_page(tournament) -> str:
    response = Client().get(reverse("tournaments:standings", args=[tournament.slug]))
    assert response.status_code == 200
    return response.content.decode()


def rename_quietly(player: Player, nickname: str) -> None:
    """A change no model signal reports (``update()``), to show what the cache serves."""
    Player.objects.filter(pk=player.pk).update(nickname=nickname)


def test_page_is_served_from_the_cache_until_the_tournament_changes(world):
    assert world.player.display_name in anonymous_page(world.tournament)
    rename_quietly(world.player, "Quiet Rename")
    assert "Quiet Rename" not in anonymous_page(world.tournament)


def test_standings_rebuilt_by_the_celery_task_show_at_once(
    world, django_capture_on_commit_callbacks
):
    anonymous_page(world.tournament)
    rename_quietly(world.player, "Worker Rename")
    with django_capture_on_commit_callbacks(execute=True):
        rebuild_standings.delay(world.tournament.pk)  # eager in the tests
    assert "Worker Rename" in anonymous_page(world.tournament)


def test_advance_command_shows_on_the_next_request(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        confirm_stage(world.stage, lambda seat: 10 * seat.seat_order)
    before = anonymous_page(world.tournament)
    assert 'class="qualified"' not in before
    with django_capture_on_commit_callbacks(execute=True):
        call_command("advance", world.tournament.slug, "--seed", "3", stdout=StringIO())
    after = anonymous_page(world.tournament)
    assert 'class="qualified"' in after


def test_admin_edit_shows_on_the_next_request(world, django_capture_on_commit_callbacks):
    anonymous_page(world.tournament)
    admin = Client()
    admin.force_login(world.superuser)
    url = reverse("admin:tournaments_player_change", args=[world.player.pk])
    form = admin.get(url).context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields}
    data["nickname"] = "Admin Rename"
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(url, data)
    assert response.status_code == 302
    assert "Admin Rename" in anonymous_page(world.tournament)


def _give_result(session, points: int, **kwargs):
    if not hasattr(session, "stipulation"):
        Stipulation.objects.create(
            session=session, kind=StipulationKind.ALIEN_HUNT, params={"rounds": 8}
        )
    seats = session.seats.all()
    return {
        "breakdowns": session_points(session, lambda seat: points + seat.seat_order),
        "survivors": [seat.player_id for seat in seats],
        "dice": SeededDice(seed=1),
        **kwargs,
    }


def test_result_correction_shows_on_the_next_request(world, django_capture_on_commit_callbacks):
    session = world.session
    with django_capture_on_commit_callbacks(execute=True):
        record_result(session, confirmed=True, **_give_result(session, 70))
    assert ">71<" in anonymous_page(world.tournament)
    with django_capture_on_commit_callbacks(execute=True):
        correct_result(session, reason="miscounted", **_give_result(session, 90))
    page = anonymous_page(world.tournament)
    assert ">91<" in page and ">71<" not in page


def test_a_change_leaves_other_tournaments_pages_cached(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        other = TournamentFactory(name="Altra", slug="altra")
        other_player = register_players(other, 3)[0]
        start_tournament(other, SeededDice(seed=3), draw_squads=False)
    anonymous_page(world.tournament)
    anonymous_page(other)
    generation = generations.current(other.slug)
    rename_quietly(other_player, "Still Cached")
    with django_capture_on_commit_callbacks(execute=True):
        record_result(world.session, confirmed=True, **_give_result(world.session, 70))
    assert ">71<" in anonymous_page(world.tournament)
    assert generations.current(other.slug) == generation
    assert "Still Cached" not in anonymous_page(other)


def test_a_rolled_back_change_keeps_the_cached_page(world):
    anonymous_page(world.tournament)
    generation = generations.current(world.tournament.slug)
    # Inside the test's transaction, never committed: the generation must not move.
    record_result(world.session, confirmed=True, **_give_result(world.session, 70))
    assert generations.current(world.tournament.slug) == generation
