"""A confirmed result changes only with a reason, the judge's new version too (decision
50), and a correction opened from a player's dispute answers it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import confirm_session, confirm_stage
from tests.web.test_result_conflict import shown
from tournaments.actions.result_disputes import flag_dispute
from tournaments.actions.stage_advance import advance, close_stage
from tournaments.forms.result import ResultForm
from tournaments.models import ActivityLog, ActivityVerb, DisputeStatus, Result, ResultDispute

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirmed(world, role_client):
    """The judge's client, on a session whose version 1 is confirmed."""
    a, b, _c = world.session.seats.order_by("seat_order")
    judge = role_client("judge")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    data = shown(judge.get(url))
    data[ResultForm.key(a, f"kill-{b.player_id}-heavy")] = 1
    assert judge.post(url, data).status_code == 302
    return judge, url


def test_the_first_result_needs_no_reason(world, confirmed):
    version = Result.objects.get(session=world.session).latest_version()
    assert (version.number, version.confirmed, version.reason) == (1, True, "")


def test_the_judges_new_version_of_a_confirmed_result_says_why(world, confirmed):
    judge, url = confirmed
    page = judge.get(url)
    html = page.content.decode()
    assert page.context["reason_needed"] and not page.context["correction"]
    # The reason's field comes before the first seat's counts.
    assert html.index('name="reason"') < html.index('class="seat-block"')
    data = shown(page)
    data["reason"] = "  "
    refused = judge.post(url, data)
    assert refused.status_code == 400
    assert "Say why the result is corrected" in refused.content.decode()
    assert Result.objects.get(session=world.session).versions.count() == 1
    data["reason"] = "The heavy weapon kill was miscounted"
    assert judge.post(url, data).status_code == 302
    version = Result.objects.get(session=world.session).latest_version()
    assert (version.number, version.reason) == (2, "The heavy weapon kill was miscounted")
    entry = ActivityLog.objects.filter(verb=ActivityVerb.CORRECTED_RESULT).get()
    assert entry.details["reason"] == "The heavy weapon kill was miscounted"
    public = judge.get(
        reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    )
    assert "The heavy weapon kill was miscounted" in public.content.decode()


def test_a_correction_opened_from_a_dispute_answers_it(world, confirmed, role_client):
    dispute = flag_dispute(world.player, world.session, "I had 40 points")
    organiser = role_client("organiser")
    venue_url = reverse("tournaments:organiser_venue", args=[world.tournament.slug])
    link = (
        reverse(
            "tournaments:organiser_result_correct", args=[world.tournament.slug, world.session.pk]
        )
        + f"?dispute={dispute.pk}"
    )
    assert link in organiser.get(venue_url).content.decode()
    page = organiser.get(link)
    answering = page.content.decode().split('data-testid="answering"', 1)[1].split("</section>")[0]
    assert f"answers the dispute of {world.player.display_name}" in answering
    assert "I had 40 points" in answering
    data = shown(page)
    data["reason"] = "Points recounted after the dispute"
    saved = organiser.post(link, data)
    assert saved.status_code == 302 and saved["Location"] == venue_url
    answered = ResultDispute.objects.get()
    assert answered.status == DisputeStatus.CORRECTED
    assert answered.resolution_note == "Points recounted after the dispute"
    assert answered.resolved_by == world.organiser
    assert "the result is corrected" in organiser.get(venue_url).content.decode()


def test_a_correction_without_a_dispute_leaves_disputes_alone(world, confirmed, role_client):
    flag_dispute(world.player, world.session, "I had 40 points")
    organiser = role_client("organiser")
    link = reverse(
        "tournaments:organiser_result_correct", args=[world.tournament.slug, world.session.pk]
    )
    page = organiser.get(link + "?dispute=nope")
    assert 'data-testid="answering"' not in page.content.decode()
    data = shown(page)
    data["reason"] = "Another fix"
    saved = organiser.post(link, data)
    assert saved.status_code == 302 and "/schedule/" in saved["Location"]
    assert ResultDispute.objects.get().status == DisputeStatus.OPEN


def test_a_closed_stages_results_offer_no_edit_form(world, confirmed, role_client):
    """QA: the sheet and the schedule still linked full forms that could not be saved."""
    confirm_stage(world.stage, lambda seat: 10 * seat.seat_order)
    close_stage(world.stage, SeededDice(seed=2))
    judge, url = confirmed
    sheet = judge.get(reverse("tournaments:judge_session", args=[world.session.pk]))
    html = sheet.content.decode()
    assert "The stage is closed: its results can no longer change." in html
    assert f'href="{url}"' not in html
    organiser = role_client("organiser")
    schedule = organiser.get(
        reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    )
    correct = reverse(
        "tournaments:organiser_result_correct", args=[world.tournament.slug, world.session.pk]
    )
    assert correct not in schedule.content.decode()
    assert "The stage is closed: its results can no longer change." in schedule.content.decode()


def test_a_closed_stages_sheet_and_schedule_say_how_to_reopen_it_or_why_not(world, role_client):
    """Decision 38: where a closed stage's result cannot be edited, the judge's sheet and
    the organiser's schedule say what the result page says: undo the close, or why that
    can no longer be done."""
    confirm_stage(world.stage, lambda seat: 10 * seat.seat_order)
    advance(world.tournament, SeededDice(seed=2))
    judge, organiser = role_client("judge"), role_client("organiser")
    sheet_url = reverse("tournaments:judge_session", args=[world.session.pk])
    schedule_url = reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    row_url = reverse(
        "tournaments:organiser_session_schedule", args=[world.tournament.slug, world.session.pk]
    )

    def pages() -> list[str]:
        return [
            judge.get(sheet_url).content.decode(),
            organiser.get(schedule_url).content.decode(),
            # A save refused (no time given) shows the row again, alone or in place.
            organiser.post(row_url, {}).content.decode(),
            organiser.post(row_url, {}, HTTP_HX_REQUEST="true").content.decode(),
        ]

    for html in pages():
        assert "The stage is closed: its results can no longer change. To change them" in html
        assert "first undo its close with “Undo the last stage advance”" in html
    semifinal = world.tournament.stages.get(number=2).sessions.order_by("number").first()
    confirm_session(semifinal, lambda seat: 10 * seat.seat_order)
    for html in pages():
        assert "It can no longer be reopened. Stage 2 has been played already" in html
        assert "Undo the last stage advance" not in html
