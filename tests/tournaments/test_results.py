"""Result versions: nothing overwritten, corrections keep who/when/why, standings follow."""

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine.dice import ScriptedDice
from tests.factories import StipulationFactory, points_breakdown, session_points
from tournaments.actions.result_entry import (
    ResultError,
    confirm_result,
    correct_result,
    record_result,
)
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DiceRoll,
    ImmutableVersionError,
    ResultVersion,
    Stipulation,
    StipulationKind,
)
from tournaments.queries.result_versions import confirmed_session_ids, version_totals
from tournaments.queries.standings import compute_standings, get_standings

pytestmark = pytest.mark.django_db


def stipulate(session, kind=StipulationKind.ALIEN_HUNT, params=None):
    Stipulation.objects.create(
        session=session, kind=kind, params={"rounds": 6} if params is None else params
    )


def players_of(session):
    return list(session.seats.order_by("seat_order").values_list("player_id", flat=True))


def test_draft_then_confirm_then_correct_keeps_every_version(
    final_session, judge, django_capture_on_commit_callbacks
):
    stipulate(final_session)
    a, b, c = players_of(final_session)
    points = {a: 30, b: 20, c: 10}
    entered = session_points(final_session, lambda s: points[s.player_id])
    draft = record_result(final_session, entered)
    assert draft.version.number == 1 and not draft.version.confirmed
    shown = get_standings(final_session.stage.tournament)["stages"][0]["sessions"][0]
    assert shown["result_version"] is None

    confirmed = confirm_result(final_session, actor=judge)
    assert confirmed.number == 2 and confirmed.confirmed
    assert confirmed.ranking == [a, b, c]
    final_session.refresh_from_db()
    assert final_session.status == "completed"

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        corrected = correct_result(
            final_session,
            [points_breakdown(a, 5), points_breakdown(b, 20), points_breakdown(c, 40)],
            reason="Player C's flag was not counted",
            actor=judge,
        )
    assert any("schedule_rebuild" in callback.__qualname__ for callback in callbacks)
    version = corrected.version
    assert version.number == 3
    assert version.created_by == judge
    assert version.created_at is not None
    assert version.reason == "Player C's flag was not counted"
    assert version.ranking == [c, b, a]

    # All three versions remain, unchanged.
    versions = list(final_session.result.versions.order_by("number"))
    assert [v.number for v in versions] == [1, 2, 3]
    assert versions[1].ranking == [a, b, c]
    assert version_totals(versions[1]) == {a: 30, b: 20, c: 10}

    standings = get_standings(final_session.stage.tournament)
    seats = standings["stages"][0]["sessions"][0]["seats"]
    assert standings["stages"][0]["sessions"][0]["result_version"] == 3
    assert {s["player_id"]: s["points"] for s in seats} == {a: 5, b: 20, c: 40}
    assert standings["players"][0]["player_id"] == c
    verbs = set(ActivityLog.objects.values_list("verb", flat=True))
    assert {ActivityVerb.RECORDED_RESULT, ActivityVerb.CONFIRMED_RESULT} <= verbs
    assert ActivityVerb.CORRECTED_RESULT in verbs


def test_a_session_counts_as_confirmed_from_its_first_confirmed_version(final_session, judge):
    """What a check of missing results reads (the stage's checklist, its close): a draft is
    not a result; once confirmed, a later draft correction does not undo it."""
    stipulate(final_session)
    assert confirmed_session_ids([final_session]) == set()
    record_result(final_session, session_points(final_session, lambda s: s.seat_order))
    assert confirmed_session_ids([final_session.pk]) == set()
    confirm_result(final_session, actor=judge)
    assert confirmed_session_ids([final_session]) == {final_session.pk}
    record_result(final_session, session_points(final_session, lambda s: 10 - s.seat_order))
    assert confirmed_session_ids([final_session]) == {final_session.pk}


def test_standings_ignore_a_later_unconfirmed_version(
    final_session, django_capture_on_commit_callbacks
):
    stipulate(final_session)
    with django_capture_on_commit_callbacks(execute=True):
        record_result(
            final_session,
            session_points(final_session, lambda s: 10 * s.seat_order),
            confirmed=True,
        )
        record_result(final_session, session_points(final_session, lambda s: 0), reason="draft")
    sessions = get_standings(final_session.stage.tournament)["stages"][0]["sessions"]
    assert sessions[0]["result_version"] == 1
    assert [s["points"] for s in sessions[0]["seats"]] == [10, 20, 30]


def test_versions_cannot_be_changed_or_deleted(final_session):
    stipulate(final_session)
    version = record_result(final_session, session_points(final_session, lambda s: 1)).version
    version.reason = "rewritten"
    with pytest.raises(ImmutableVersionError):
        version.save()
    with pytest.raises(ImmutableVersionError):
        version.delete()


def test_ties_are_settled_by_recorded_dice(final_session):
    stipulate(final_session)
    a, b, c = players_of(final_session)
    dice = ScriptedDice(values=[2, 5, 4])
    recorded = record_result(
        final_session, session_points(final_session, lambda s: 10), confirmed=True, dice=dice
    )
    assert recorded.version.ranking == [b, c, a]
    rolls = DiceRoll.objects.filter(session=final_session).order_by("sequence")
    assert [r.values for r in rolls] == [[2], [5], [4]]
    assert {r.source for r in rolls} == {"scripted"}
    assert [r.subject for r in rolls] == [str(a), str(b), str(c)]


def test_tpk_survivor_wins_over_points(final_session):
    stipulate(final_session, StipulationKind.TPK, {"aliens": True})  # points from tokens
    a, b, c = players_of(final_session)
    points = {a: 50, b: 40, c: -10}
    recorded = record_result(
        final_session,
        session_points(final_session, lambda s: points[s.player_id]),
        survivors=[c],
        confirmed=True,
    )
    assert recorded.version.ranking == [c, a, b]
    assert recorded.version.survivors == [c]


@pytest.mark.parametrize(
    ("breakdowns", "message"),
    [
        ([], "one breakdown per seat"),
        ([{"seat": "x"}], "one breakdown per seat"),
        ([{"seat": "1", "bogus": []}], "unknown breakdown field"),
    ],
)
def test_bad_breakdowns_are_refused_with_a_clear_message(final_session, breakdowns, message):
    stipulate(final_session)
    with pytest.raises(ResultError, match=message):
        record_result(final_session, breakdowns)
    assert not hasattr(final_session, "result") or not final_session.result.versions.exists()


def test_result_needs_a_stipulation_and_an_open_stage(final_session):
    with pytest.raises(ResultError, match="no stipulation"):
        record_result(final_session, session_points(final_session, lambda s: 1))
    stipulate(final_session)
    stage = final_session.stage
    stage.status = "closed"
    stage.save()
    with pytest.raises(ResultError, match="closed"):
        record_result(final_session, session_points(final_session, lambda s: 1))


def test_correction_needs_a_reason_and_an_existing_result(final_session):
    stipulate(final_session)
    with pytest.raises(ResultError, match="no result to correct"):
        correct_result(final_session, session_points(final_session, lambda s: 1), reason="x")
    record_result(final_session, session_points(final_session, lambda s: 1))
    with pytest.raises(ResultError, match="why"):
        correct_result(final_session, session_points(final_session, lambda s: 1), reason="  ")


def test_confirming_twice_is_refused(final_session):
    stipulate(final_session)
    record_result(final_session, session_points(final_session, lambda s: 1), confirmed=True)
    with pytest.raises(ResultError, match="already confirmed"):
        confirm_result(final_session)


def test_stipulation_parameters_are_validated():
    from django.core.exceptions import ValidationError

    from tournaments.models import clean_stipulation_params

    assert clean_stipulation_params("tpk", {}) == {"aliens": False, "stall_breaker": None}
    assert clean_stipulation_params("alien_hunt", {"rounds": 5})["event_deck"] is False
    with pytest.raises(ValidationError, match="escape_rounds"):
        clean_stipulation_params("alien_hunt", {"end_condition": "aliens_dead"})
    with pytest.raises(ValidationError, match="flag_value"):
        clean_stipulation_params("catch_the_flag", {})
    with pytest.raises(ValidationError, match="Unknown parameter"):
        clean_stipulation_params("tpk", {"rounds": 3})
    with pytest.raises(ValidationError, match="stall_breaker.points"):
        clean_stipulation_params(
            "extended_tpk", {"stall_breaker": {"from_round": 5, "max_extra_rounds": 2}}
        )
    with pytest.raises(ValidationError, match="Unknown stipulation type"):
        clean_stipulation_params("deathmatch", {})


def test_stipulation_model_refuses_bad_params_on_save():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        StipulationFactory(kind="catch_the_flag", params={"flag_value": 0})


def test_standings_follow_a_change_of_the_scoring_values(
    final_session, django_capture_on_commit_callbacks
):
    """The totals stored with a version are used only while they were scored with the
    tournament's present values: editing a value changes the standings."""
    stipulate(final_session)
    a, b, c = players_of(final_session)
    killed = {"victim": str(b), "marine_class": "light", "count": 2}
    lost = {"marine_class": "light", "cause": "player", "killer": str(a), "count": 2}
    with django_capture_on_commit_callbacks(execute=True):
        recorded = record_result(
            final_session,
            [
                {"seat": str(a), "kills": [killed]},
                {"seat": str(b), "losses": [lost]},
                {"seat": str(c)},
            ],
            confirmed=True,
        )
    tournament = final_session.stage.tournament

    def points():
        seats = compute_standings(tournament)["stages"][0]["sessions"][0]["seats"]
        return {seat["player_id"]: seat["points"] for seat in seats}

    assert recorded.version.totals == {str(a): 10, str(b): -10, str(c): 0}
    assert points() == {a: 10, b: -10, c: 0}
    # The stored totals are what the standings read while their key matches...
    ResultVersion.objects.filter(pk=recorded.version.pk).update(totals={str(a): 11})
    assert points() == {a: 11, b: None, c: None}
    # ...and are scored again from the breakdown once a value they depend on changes.
    tournament.data_overrides = {"scoring": {"light": 7}}
    tournament.save(update_fields=["data_overrides"])
    assert points() == {a: 14, b: -14, c: 0}
    assert [row["points"] for row in compute_standings(tournament)["players"][:1]] == [14]


def test_a_confirmed_copy_is_scored_with_the_present_values(final_session):
    stipulate(final_session)
    a, b, c = players_of(final_session)
    killed = {"victim": str(b), "marine_class": "heavy"}
    lost = {"marine_class": "heavy", "cause": "player", "killer": str(a)}
    record_result(
        final_session,
        [{"seat": str(a), "kills": [killed]}, {"seat": str(b), "losses": [lost]}, {"seat": str(c)}],
    )
    tournament = final_session.stage.tournament
    tournament.data_overrides = {"scoring": {"heavy": 12}}
    tournament.save(update_fields=["data_overrides"])
    confirmed = confirm_result(final_session)
    assert confirmed.totals == {str(a): 12, str(b): -12, str(c): 0}
    seats = compute_standings(tournament)["stages"][0]["sessions"][0]["seats"]
    assert {seat["player_id"]: seat["points"] for seat in seats} == {a: 12, b: -12, c: 0}


def test_a_version_keeps_its_sessions_tournament_however_it_is_written(final_session):
    """Entered, confirmed or written directly (the admin, a script), each version holds
    the tournament of its result's session (the tournament's data stamp reads it)."""
    stipulate(final_session)
    tournament = final_session.stage.tournament
    entered = record_result(final_session, session_points(final_session, lambda s: 1)).version
    confirmed = confirm_result(final_session)
    written = ResultVersion.objects.create(
        result=entered.result, number=3, breakdown=entered.breakdown, ranking=entered.ranking
    )
    for version in (entered, confirmed, written):
        version.refresh_from_db()
        assert version.tournament_id == tournament.pk


@pytest.mark.parametrize(("saved_in", "read_in"), [("it", "en"), ("en", "it")])
def test_the_default_confirmation_reason_is_shown_in_the_readers_language(
    final_session, saved_in, read_in
):
    stipulate(final_session)
    record_result(final_session, session_points(final_session, lambda s: 10 + s.seat_order))
    with translation.override(saved_in):
        confirmed = confirm_result(final_session)
    confirmed.refresh_from_db()
    with translation.override(read_in):
        shown = confirmed.shown_reason()
    expected = {"it": "Versione 1 confermata.", "en": "Confirmed version 1."}[read_in]
    assert shown == expected


def test_a_typed_confirmation_reason_stays_as_typed(final_session):
    stipulate(final_session)
    record_result(final_session, session_points(final_session, lambda s: 10 + s.seat_order))
    with translation.override("it"):
        confirmed = confirm_result(final_session, reason="Controllato al tavolo")
    with translation.override("en"):
        assert confirmed.shown_reason() == "Controllato al tavolo"


def test_the_session_page_shows_the_confirmation_reason_in_the_readers_language(
    final_session, client
):
    stipulate(final_session)
    record_result(final_session, session_points(final_session, lambda s: 10 + s.seat_order))
    with translation.override("it"):
        confirm_result(final_session)
    url = reverse(
        "tournaments:session", args=[final_session.stage.tournament.slug, final_session.pk]
    )
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Reason: Confirmed version 1." in page
    assert "Versione 1 confermata" not in page
