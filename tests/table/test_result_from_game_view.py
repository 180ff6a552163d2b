"""The result page's "Fill from the board game": the form filled, nothing saved, for the
session's judge and organisers only; submitting the filled form records it as usual."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from table.actions import remove_figure
from table.models import Game
from tests.table.conftest import client_for
from tests.table.test_result_from_game import (
    arranged,
    attack,
    current,
    player_id,
    reroll_cancels_a_kill,
)
from tests.web.test_result_form import page_data
from tournaments.domain.scoring import SeatBreakdown, score_session
from tournaments.forms.result import ResultForm
from tournaments.models import Result, ResultVersion

pytestmark = pytest.mark.django_db


def fill_url(game: Game) -> str:
    return reverse("table:result_from_game", args=[game.session_id, game.number])


def result_url(table) -> str:
    return reverse("tournaments:judge_result", args=[table.session.pk])


@pytest.fixture
def played(table) -> Game:
    """p1 killed a laser-rifle marine of p2; the judge took p3-m2 off the board as dead."""
    game = arranged(table, {"p1-m4": (4, 2), "p2-m1": (4, 5), "p3-m2": (7, 4)})
    attack(game, "p1-m4", target="p2-m1")
    remove_figure(game, "p3-m2", "dead", "crushed by a bulkhead", expected_number=2)
    return game


def test_the_result_page_offers_each_game(played, table):
    page = client_for(table.judge).get(result_url(table))
    assert page.status_code == 200
    assert f'href="{fill_url(played)}"' in page.content.decode()


def test_no_offer_on_a_correction_or_without_a_game(table, played):
    correct = reverse(
        "tournaments:organiser_result_correct", args=[table.tournament.slug, table.session.pk]
    )
    page = client_for(table.organiser).get(correct)
    assert page.status_code == 200
    assert "result/from-game/" not in page.content.decode()
    played.delete()
    page = client_for(table.judge).get(result_url(table))
    assert page.status_code == 200
    assert "result/from-game/" not in page.content.decode()


def test_the_filled_form_shows_the_kill_and_the_notes_and_saves_nothing(played, table):
    response = client_for(table.judge).get(fill_url(played))
    assert response.status_code == 200
    form = response.context["form"]
    assert not form.is_bound
    p1, p2 = (table.session.seats.get(seat_order=n) for n in (1, 2))
    assert form.initial[ResultForm.key(p1, f"kill-{p2.player_id}-light")] == 1
    assert form.initial["version"] == table.session.version
    body = response.content.decode()
    assert f'name="{ResultForm.key(p1, f"kill-{p2.player_id}-light")}"' in body
    assert "p3-m2" in body and "crushed by a bulkhead" in body
    # The form posts back to the board's address, which saves it as the result page does
    # and keeps the banner on a page shown again.
    assert f'action="{fill_url(played)}"' in body
    # The preview already shows the filled points.
    totals = {row["name"]: row["card"].total for row in response.context["preview"]["rows"]}
    assert totals[p1.player.display_name] == 5 and totals[p2.player.display_name] == -5
    assert not Result.objects.filter(session=table.session).exists()
    assert not ResultVersion.objects.exists()


def test_submitting_the_filled_form_records_the_game(played, table):
    judge = client_for(table.judge)
    filled = judge.get(fill_url(played))
    saved = judge.post(result_url(table), page_data(filled.context["form"]))
    assert saved.status_code == 302, saved.content.decode()[:2000]
    version = Result.objects.get(session=table.session).latest_version()
    cards = score_session([SeatBreakdown.from_dict(entry) for entry in version.breakdown])
    assert cards[player_id(table, 1)].total == 5
    assert cards[player_id(table, 2)].total == -5
    assert cards[player_id(table, 3)].total == 0


def test_a_kill_a_reroll_cancelled_is_not_proposed_and_the_result_saves(table):
    """The QA judge's game: the form proposed p2 killing p3's commander twice (25 points
    where the board said 15) and then refused it; now it is once, and it saves."""
    game = reroll_cancels_a_kill(table)
    judge = client_for(table.judge)
    filled = judge.get(fill_url(game))
    form = filled.context["form"]
    p2, p3 = (table.session.seats.get(seat_order=n) for n in (2, 3))
    assert form.initial[ResultForm.key(p2, f"kill-{p3.player_id}-commander")] == 1
    saved = judge.post(result_url(table), page_data(form))
    assert saved.status_code == 302, saved.content.decode()[:2000]
    version = Result.objects.get(session=table.session).latest_version()
    cards = score_session([SeatBreakdown.from_dict(entry) for entry in version.breakdown])
    board = current(game)
    for seat_order, player in ((1, "p1"), (2, "p2"), (3, "p3")):
        assert cards[player_id(table, seat_order)].total == board.player(player).score


def test_only_the_sessions_judge_and_organisers_may_fill(played, table):
    assert client_for(table.other_judge).get(fill_url(played)).status_code == 403
    anonymous = Client().get(fill_url(played))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("tournaments:login"))
    assert client_for(table.organiser).get(fill_url(played)).status_code == 200


def test_an_unknown_game_is_not_found(played, table):
    url = reverse("table:result_from_game", args=[table.session.pk, played.number + 1])
    assert client_for(table.judge).get(url).status_code == 404


def test_the_saved_result_keeps_its_game_and_a_missing_game_is_refused(played, table):
    judge = client_for(table.judge)
    filled = judge.get(fill_url(played))
    data = page_data(filled.context["form"])
    assert (data["from_game"], data["from_step"]) == (played.number, played.latest().number)
    refused = judge.post(result_url(table), {**data, "from_game": played.number + 1})
    assert refused.status_code == 400
    assert "no board game 2 at step" in refused.content.decode()
    assert not ResultVersion.objects.exists()
    saved = judge.post(result_url(table), data)
    assert saved.status_code == 302
    version = Result.objects.get(session=table.session).latest_version()
    assert (version.game_number, version.game_step) == (played.number, played.latest().number)
    # Typed in without the game: no link.
    typed = {
        k: v for k, v in page_data(filled.context["form"]).items() if not k.startswith("from_")
    }
    table.session.refresh_from_db()
    typed["version"] = typed["tie-version"] = table.session.version
    typed["based_on"] = version.number
    # The result is confirmed: a new version is a correction, refused without its reason.
    assert judge.post(result_url(table), typed).status_code == 400
    typed["reason"] = "Typed in again from the score sheet"
    assert judge.post(result_url(table), typed).status_code == 302
    latest = Result.objects.get(session=table.session).latest_version()
    assert latest.number == version.number + 1 and latest.game_number is None


def test_a_refused_stale_save_keeps_the_game_it_was_filled_from(played, table):
    judge = client_for(table.judge)
    filled = judge.get(fill_url(played))
    data = page_data(filled.context["form"])
    # Someone saves a result meanwhile: the judge's save is refused with the comparison.
    typed = {k: v for k, v in data.items() if not k.startswith("from_")}
    assert client_for(table.organiser).post(result_url(table), typed).status_code == 302
    refused = judge.post(result_url(table), data)
    assert refused.status_code == 409
    body = refused.content.decode()
    assert f'name="from_game" value="{played.number}"' in body
    assert f'name="from_step" value="{played.latest().number}"' in body


def test_a_form_error_keeps_the_game_banner_and_the_edits(played, table):
    """QA: a value to fix dropped the "filled from game" banner, and the page invited a
    fill from the game again, which would have replaced the judge's edits."""
    judge = client_for(table.judge)
    filled = judge.get(fill_url(played))
    data = page_data(filled.context["form"])
    p1, p2 = (table.session.seats.get(seat_order=n) for n in (1, 2))
    edited = ResultForm.key(p1, f"kill-{p2.player_id}-heavy")
    wrong = ResultForm.key(p1, f"kill-{p2.player_id}-commander")
    refused = judge.post(fill_url(played), {**data, edited: "2", wrong: "-1"})
    assert refused.status_code == 400
    body = refused.content.decode()
    banner = body.split('data-testid="from-game"', 1)[1].split("</section>", 1)[0]
    assert f"Filled from game {played.number}, as it stands at step {played.latest().number}" in (
        banner
    )
    assert "crushed by a bulkhead" in banner  # the step's notes too
    assert 'data-testid="from-game-edited"' in banner
    assert "Fill from game" not in body  # no invitation to replace the edits
    form = refused.context["form"]
    assert form[edited].value() == "2"
    assert (form["from_game"].value(), form["from_step"].value()) == (
        str(played.number),
        str(played.latest().number),
    )
    assert f'action="{fill_url(played)}"' in body
    assert not ResultVersion.objects.exists()
    saved = judge.post(fill_url(played), {**data, edited: "1"})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    version = Result.objects.get(session=table.session).latest_version()
    assert (version.game_number, version.game_step) == (played.number, played.latest().number)


def test_an_added_row_keeps_the_game_banner(played, table):
    judge = client_for(table.judge)
    data = page_data(judge.get(fill_url(played)).context["form"])
    p1 = table.session.seats.get(seat_order=1)
    page = judge.post(fill_url(played), {**data, f"add_token_{p1.player_id}": "1"})
    assert page.status_code == 200
    assert 'data-testid="from-game"' in page.content.decode()
