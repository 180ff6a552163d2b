"""What the judge learns before starting, and words that say what they are (QA, Italian, phone).

A session without a stipulation is said once, at the top of the judge's sheet and of the
result page, with who can set it (links only for a visitor who may open those pages); a
result posted anyway is refused with the message once. The sheet's attendance column and
buttons are actions, not states. A loss line agrees with the number of figures lost, and
the standings' "out" badge assumes no gender.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from rules.engine.dice import SeededDice
from tournaments.actions.result_entry import record_result
from tournaments.domain.scoring import (
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    SeatBreakdown,
    score_session,
)
from tournaments.forms.result import ResultForm
from tournaments.models import Result, Seat, Session, Stage
from tournaments.queries.session_stipulation import no_stipulation_message
from tournaments.templatetags.table_rows import standings_rows

pytestmark = pytest.mark.django_db

WARNING = 'data-testid="no-stipulation"'


def without_stipulation(world) -> None:
    """The stage has no stipulation (the session has none of its own in these tests)."""
    Stage.objects.filter(pk=world.stage.pk).update(stipulation_kind="", stipulation_params={})
    assert not hasattr(Session.objects.get(pk=world.session.pk), "stipulation")


def italian(client, url: str):
    client.cookies["django_language"] = "it"
    return client.get(url, HTTP_ACCEPT_LANGUAGE="it")


def sheet_url(world) -> str:
    return reverse("tournaments:judge_session", args=[world.session.pk])


def result_url(world) -> str:
    return reverse("tournaments:judge_result", args=[world.session.pk])


def settings_urls(world) -> tuple[str, str]:
    slug = world.tournament.slug
    return (
        reverse("tournaments:organiser_session_settings", args=[slug, world.session.pk]),
        reverse("tournaments:organiser_stage", args=[slug, world.stage.number]),
    )


def test_the_judges_sheet_says_once_that_the_stipulation_is_missing_and_who_sets_it(
    world, role_client
):
    judge = role_client("judge")
    assert WARNING not in judge.get(sheet_url(world)).content.decode()
    assert WARNING not in judge.get(result_url(world)).content.decode()
    without_stipulation(world)
    session_settings, stage_page = settings_urls(world)
    page = judge.get(sheet_url(world)).content.decode()
    assert page.count(WARNING) == 1
    # Before anything the judge starts: the board and the seats come after it.
    assert page.index(WARNING) < page.index('data-testid="board-link"')
    assert "This session has no stipulation yet: its result cannot be saved" in page
    assert "Only an organiser of the tournament can set it, on the session's settings" in page
    # A judge may open neither page: no link to them.
    assert session_settings not in page and stage_page not in page
    organiser_page = role_client("organiser").get(sheet_url(world)).content.decode()
    assert organiser_page.count(WARNING) == 1
    assert f'href="{session_settings}#stipulation"' in organiser_page
    assert f'href="{stage_page}"' in organiser_page
    assert judge.get(session_settings).status_code == 403


def test_the_result_page_says_it_once_at_the_top_and_not_again_under_the_form(world, role_client):
    without_stipulation(world)
    session_settings, stage_page = settings_urls(world)
    response = role_client("judge").get(result_url(world))
    page = response.content.decode()
    assert response.status_code == 200
    assert page.count(WARNING) == 1
    assert page.index(WARNING) < page.index('id="result-form"')
    assert page.count("no stipulation") == 1
    assert no_stipulation_message(world.session) not in page
    assert session_settings not in page and stage_page not in page
    # The points are still shown as the judge types, without places.
    assert 'data-testid="unranked"' in page
    assert page.count('data-testid="live-total"') == 3
    organiser_page = role_client("organiser").get(result_url(world)).content.decode()
    assert organiser_page.count(WARNING) == 1
    assert f'href="{session_settings}#stipulation"' in organiser_page


def test_a_result_posted_anyway_is_refused_with_the_message_once(world, role_client):
    without_stipulation(world)
    judge = role_client("judge")
    page = judge.get(result_url(world))
    form = page.context["form"]
    data = {"tie-mode": "app", "tie-version": world.session.version}
    for name in form.fields:
        value = form[name].value()
        if value not in (None, False, ""):
            data[name] = "on" if value is True else value
    response = judge.post(result_url(world), data)
    html = response.content.decode()
    assert response.status_code == 400
    assert not Result.objects.filter(session=world.session).exists()
    assert html.count("no stipulation") == 1
    assert "Nothing was saved: this session has no stipulation yet" in html
    warning = html[html.index(WARNING) - 60 : html.index(WARNING)]
    assert 'role="alert"' in warning
    assert no_stipulation_message(world.session) not in html
    # The same post with the stipulation set is saved.
    Stage.objects.filter(pk=world.stage.pk).update(stipulation_kind="alien_hunt")
    assert judge.post(result_url(world), data).status_code == 302


def test_the_htmx_preview_without_a_stipulation_shows_points_without_repeating_it(
    world, role_client
):
    without_stipulation(world)
    a, b, _c = world.session.seats.select_related("player").order_by("seat_order")
    data = {
        "version": world.session.version,
        ResultForm.key(a, f"kill-{b.player_id}-light"): 2,
    }
    url = reverse("tournaments:judge_result_preview", args=[world.session.pk])
    html = role_client("judge").post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert "no stipulation" not in html
    assert 'data-testid="unranked"' in html
    assert '<th scope="col">Place</th>' not in html
    assert html.count('data-testid="live-total"') == 3
    assert html.count('data-testid="total"') == 3


def test_the_attendance_column_and_buttons_say_what_they_do_in_italian(world, role_client):
    Session.objects.filter(pk=world.session.pk).update(
        scheduled_at=timezone.now() - timedelta(minutes=20)
    )
    judge = role_client("judge")
    page = italian(judge, sheet_url(world)).content.decode()
    assert '<th scope="col">Presenza</th>' in page
    assert ">Presente</" not in page and ">Assente</" not in page
    assert page.count(">Segna presente</button>") == 3
    assert page.count(">Segna assente</button>") == 3
    name = world.player.display_name
    # Each button's accessible name starts with its visible words.
    assert f'aria-label="Segna presente {name}">Segna presente</button>' in page
    assert f'aria-label="Segna assente {name}">Segna assente</button>' in page
    world.session.refresh_from_db()
    check_in = reverse("tournaments:judge_check_in", args=[world.session.pk])
    judge.post(check_in, {"player": world.player.pk, "version": world.session.version})
    assert Seat.objects.get(session=world.session, player=world.player).checked_in_at
    page = italian(judge, sheet_url(world)).content.decode()
    assert '<span class="badge ok">presente</span>' in page
    assert page.count(">Segna presente</button>") == 2
    del judge.cookies["django_language"]
    english = judge.get(sheet_url(world)).content.decode()
    assert '<th scope="col">Attendance</th>' in english
    assert ">Check in</button>" in english and ">No-show</button>" in english


def losses_of(seats, count: int, *, every_cause: bool = True) -> list[SeatBreakdown]:
    a, b, c = (str(seat.player_id) for seat in seats)
    others = (
        (
            MarineLoss(MarineClass.HEAVY, LossCause.ALIEN, None, count),
            MarineLoss(MarineClass.UNARMED, LossCause.OWN_FIRE, None, count),
        )
        if every_cause
        else ()
    )
    return [
        SeatBreakdown(seat=a, kills=(MarineKill(b, MarineClass.LIGHT, count),)),
        SeatBreakdown(
            seat=b, losses=(MarineLoss(MarineClass.LIGHT, LossCause.PLAYER, a, count), *others)
        ),
        SeatBreakdown(seat=c),
    ]


def loss_labels(seats, count: int) -> list[str]:
    names = {str(seat.player_id): seat.player.display_name for seat in seats}
    cards = score_session(losses_of(seats, count), names=names)
    b = str(seats[1].player_id)
    return [line.label for line in cards[b].lines if line.code == "marine_lost"]


def test_a_loss_line_agrees_with_the_number_of_figures_lost_in_italian(world):
    seats = list(world.session.seats.select_related("player").order_by("seat_order"))
    killer = seats[0].player.display_name
    with translation.override("it"):
        assert loss_labels(seats, 2) == [
            f"Persi 2 × marine con arma leggera (uccisi da {killer})",
            "Persi 2 × marine con arma pesante (uccisi dagli alieni)",
            "Persi 2 × marine disarmato (uccisi da fuoco amico)",
        ]
        assert loss_labels(seats, 1) == [
            f"Perso 1 × marine con arma leggera (ucciso da {killer})",
            "Perso 1 × marine con arma pesante (ucciso dagli alieni)",
            "Perso 1 × marine disarmato (ucciso da fuoco amico)",
        ]
    with translation.override("en"):
        assert loss_labels(seats, 2)[0] == f"Lost 2 × light-weapon marine (killed by {killer})"


def test_the_public_session_page_says_uccisi_for_two_figures(world, role_client):
    seats = list(world.session.seats.select_related("player").order_by("seat_order"))
    breakdowns = losses_of(seats, 2, every_cause=False)
    record_result(world.session, breakdowns, confirmed=True, dice=SeededDice(seed=1))
    url = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    page = italian(role_client("anonymous"), url).content.decode()
    killer = seats[0].player.display_name
    assert f"Persi 2 × marine con arma leggera (uccisi da {killer})" in page
    assert "ucciso da" not in page


def standings_row(**changes) -> dict:
    row = {
        "place": 9,
        "player_id": 1,
        "player": "Alex",
        "squad_obj": None,
        "honours": 0,
        "pending_honours": 0,
        "sessions": 1,
        "wins": 0,
        "points": 10,
        "stage_reached": 1,
        "stage_label": "Qualification",
        "eliminated_in_stage": True,
        "awaiting_result": False,
    }
    return {**row, **changes}


def test_the_standings_out_badge_assumes_no_gender_and_stays_out_in_english():
    with translation.override("it"):
        html = standings_rows([standings_row()], "/p/")
    assert '<span class="badge">fuori</span>' in html
    assert "eliminato" not in html
    with translation.override("en"):
        html = standings_rows([standings_row()], "/p/")
    assert '<span class="badge">out</span>' in html
