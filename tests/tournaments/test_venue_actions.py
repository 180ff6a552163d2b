"""The round timer's actions and result disputes: recorded, logged, refused with a reason."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rules.engine.dice import SeededDice
from tests.factories import PlayerFactory, UserFactory, confirm_stage, session_points
from tournaments.actions.result_disputes import DisputeError, flag_dispute, resolve_dispute
from tournaments.actions.result_entry import record_result
from tournaments.actions.stage_advance import StageError, close_stage
from tournaments.actions.timer_control import pause_timer, reset_timer, start_timer
from tournaments.domain.countdown import TimerError
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DisputeStatus,
    ResultDispute,
    RoundTimer,
    StageStatus,
)
from tournaments.queries.activity_descriptions import entry_description
from tournaments.queries.stage_checklist import stage_checklist
from tournaments.queries.venue_screen import timer_view

pytestmark = pytest.mark.django_db


def by_seat_order(seat) -> int:
    return 10 * seat.seat_order


def test_start_pause_and_reset_store_the_timer_and_log_it(final_session):
    tournament = final_session.stage.tournament
    organiser = UserFactory()
    reset_timer(tournament, 45, actor=organiser)
    assert timer_view(tournament, timezone.now()).as_dict() == {
        "running": False,
        "remaining": 2700,
        "duration": 2700,
    }
    timer = start_timer(tournament, actor=organiser)
    assert timer.running_since is not None
    later = timer.running_since + timedelta(minutes=5)
    assert timer_view(tournament, later).remaining == 2400
    assert timer_view(tournament, later).running
    over = timer_view(tournament, later + timedelta(hours=1))
    assert (over.running, over.remaining, over.clock) == (False, 0, "0:00:00")
    pause_timer(tournament, actor=organiser)
    stored = RoundTimer.objects.get(tournament=tournament)
    assert stored.running_since is None
    assert 2690 <= stored.remaining_seconds <= 2700
    verbs = list(
        ActivityLog.objects.filter(tournament=tournament, actor=organiser)
        .order_by("pk")
        .values_list("verb", flat=True)
    )
    assert verbs == [
        ActivityVerb.RESET_TIMER,
        ActivityVerb.STARTED_TIMER,
        ActivityVerb.PAUSED_TIMER,
    ]


def test_the_timer_refuses_a_second_start_or_a_pause_when_stopped(final_session):
    tournament = final_session.stage.tournament
    with pytest.raises(TimerError, match="not running"):
        pause_timer(tournament)
    start_timer(tournament)
    with pytest.raises(TimerError, match="already running"):
        start_timer(tournament)
    assert timer_view(tournament, timezone.now()).duration == 180 * 60


@pytest.fixture
def played(final_session):
    confirm_stage(final_session.stage, by_seat_order)
    return final_session


def a_player(session):
    return session.seats.order_by("seat_order").first().player


def test_a_player_flags_a_dispute_that_the_activity_log_shows(played):
    player = a_player(played)
    dispute = flag_dispute(player, played, "  My marine survived, I had 40 points.  ")
    assert dispute.status == DisputeStatus.OPEN
    assert dispute.reason == "My marine survived, I had 40 points."
    assert dispute.version_number == 1
    entry = ActivityLog.objects.get(verb=ActivityVerb.FLAGGED_DISPUTE)
    assert entry.details["reason"] == dispute.reason
    assert player.display_name in entry_description(entry)
    with pytest.raises(DisputeError, match="already disputed"):
        flag_dispute(player, played, "Again")


def test_a_dispute_needs_a_reason_and_a_seat(played):
    player = a_player(played)
    with pytest.raises(DisputeError, match="Say what is wrong"):
        flag_dispute(player, played, "   ")
    with pytest.raises(DisputeError, match="Keep it to 1000 characters"):
        flag_dispute(player, played, "x" * 1001)
    with pytest.raises(DisputeError, match="session you played"):
        flag_dispute(PlayerFactory(), played, "Not my table")


def test_no_dispute_before_the_result_is_confirmed(final_session):
    with pytest.raises(DisputeError, match="no confirmed result"):
        flag_dispute(a_player(final_session), final_session, "Too early")


def test_the_organiser_answers_with_a_note(played):
    organiser = UserFactory()
    dispute = flag_dispute(a_player(played), played, "Wrong points")
    with pytest.raises(DisputeError, match="Write the note"):
        resolve_dispute(dispute, outcome=DisputeStatus.NOTED, note=" ", actor=organiser)
    resolved = resolve_dispute(
        dispute, outcome=DisputeStatus.NOTED, note="The sheet says 30.", actor=organiser
    )
    assert resolved.status == DisputeStatus.NOTED
    assert resolved.resolved_by == organiser
    assert ActivityLog.objects.get(verb=ActivityVerb.RESOLVED_DISPUTE).actor == organiser
    with pytest.raises(DisputeError, match="already resolved"):
        resolve_dispute(dispute, outcome=DisputeStatus.NOTED, note="Twice", actor=organiser)


def test_a_correction_answers_a_dispute_only_once_the_result_is_corrected(played):
    organiser = UserFactory()
    dispute = flag_dispute(a_player(played), played, "Wrong points")
    with pytest.raises(DisputeError, match="not been corrected"):
        resolve_dispute(dispute, outcome=DisputeStatus.CORRECTED, actor=organiser)
    record_result(
        played,
        session_points(played, lambda seat: 5 * seat.seat_order),
        survivors=played.seats.values_list("player_id", flat=True),
        confirmed=True,
        actor=organiser,
        dice=SeededDice(seed=2),
        reason="Points recounted after the dispute",
    )
    resolved = resolve_dispute(dispute, outcome=DisputeStatus.CORRECTED, actor=organiser)
    assert resolved.status == DisputeStatus.CORRECTED
    with pytest.raises(DisputeError, match="correction or with a note"):
        resolve_dispute(flag_dispute(a_player(played), played, "Still wrong"), outcome="ignored")


def test_an_unanswered_dispute_blocks_the_close_until_it_is_answered(played):
    """Stored decision 21: once closed, a stage's results can no longer change, so the organiser
    answers its disputes first; the checklist and the close say which session."""
    stage = played.stage
    dispute = flag_dispute(a_player(played), played, "Wrong points")
    [item] = [item for item in stage_checklist(stage).items if item.code == "disputes"]
    assert item.blocking and item.sessions == (played,)
    assert f"session {played.number} is disputed" in item.message
    assert not stage_checklist(stage).can_close
    with pytest.raises(StageError, match="answer it on the Venue page"):
        close_stage(stage, SeededDice(seed=1))
    stage.refresh_from_db()
    assert stage.status == StageStatus.OPEN
    resolve_dispute(dispute, outcome=DisputeStatus.NOTED, note="The sheet says 30.")
    assert "disputes" not in {item.code for item in stage_checklist(stage).items}
    close_stage(stage, SeededDice(seed=1))
    stage.refresh_from_db()
    assert stage.status == StageStatus.CLOSED


def test_no_dispute_once_the_stage_is_closed(played):
    close_stage(played.stage, SeededDice(seed=1))
    with pytest.raises(DisputeError, match="stage is closed"):
        flag_dispute(a_player(played), played, "Too late")
    assert not ResultDispute.objects.exists()
