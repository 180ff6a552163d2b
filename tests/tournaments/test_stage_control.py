"""Stage control (issue 15, decisions 37-40): the checklist, undoing an advance or a squad
draw as a recorded correction, the qualifier override's limits."""

import pytest
from django.core.exceptions import ValidationError

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.people import withdraw_player
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.stage_advance import StageError, advance, seat_first_stage
from tournaments.actions.stage_undo import UndoError, undo_advance, undo_blocker, undo_squad_draw
from tournaments.forms.organiser import StageForm
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    Honour,
    ScoreBonus,
    Seat,
    Session,
    SquadRank,
    StageStatus,
    Stipulation,
)
from tournaments.queries.live_honours import pending_honours
from tournaments.queries.stage_checklist import qualifier_size, stage_checklist
from tournaments.queries.standings import compute_standings

pytestmark = pytest.mark.django_db


def by_pk(seat: Seat) -> int:
    return seat.player_id


def test_checklist_lists_what_blocks_and_what_warns():
    tournament = TournamentFactory()
    register_players(tournament, 9)
    seat_first_stage(tournament, SeededDice(seed=1))
    stage = tournament.stages.get()
    checklist = stage_checklist(stage)
    assert {item.code for item in checklist.items} == {
        "results",
        "draws",
        "loadouts",
        "stipulation",
        "judge",
    }
    stipulation = next(item for item in checklist.items if item.code == "stipulation")
    assert "Sessions 1, 2, 3 have no stipulation: set the stage's on its page" in (
        stipulation.message
    )
    assert [item.code for item in checklist.blockers] == ["results"]
    assert "Sessions 1, 2, 3 have no confirmed result." in checklist.blockers[0].message
    assert not checklist.can_close

    for session in stage.sessions.all():
        draw_squads(session, SeededDice(seed=session.pk))
    confirm_stage(stage, by_pk)
    checklist = stage_checklist(stage)
    assert checklist.can_close and not checklist.items
    stage.qualifier_count = 9
    stage.save()
    checklist = stage_checklist(stage)
    assert [item.code for item in checklist.blockers] == ["qualifiers"]
    assert "from 3 to 8, not 9" in checklist.blockers[0].message


def test_the_checklist_counts_the_qualifier_candidates_as_the_close_does():
    """A player who withdrew after their session's result is not marked as forfeiting,
    yet cannot qualify: the checklist leaves them out as the close does, and says what the
    close says (the review: the checklist let the close be tried, and the close refused)."""
    tournament = TournamentFactory()
    players = register_players(tournament, 9)
    seat_first_stage(tournament, SeededDice(seed=1))
    stage = tournament.stages.get()
    for session in stage.sessions.all():
        draw_squads(session, SeededDice(seed=session.pk))
    confirm_stage(stage, by_pk)
    withdraw_player(tournament, players[0], reason="went home", actor=None)
    assert not Seat.objects.exclude(forfeit="").exists()
    stage.qualifier_count = 8  # 9 seated, but only 8 can qualify: at most 7 go through
    stage.save()

    checklist = stage_checklist(stage)
    assert [item.code for item in checklist.blockers] == ["qualifiers"]
    assert not checklist.can_close
    with pytest.raises(StageError) as refused:
        advance(tournament, SeededDice(seed=2))
    assert checklist.blockers[0].message == str(refused.value)
    assert "has 8 players in 3 sessions" in str(refused.value)
    # The stage's form checks the count against the same 8 players.
    assert qualifier_size(stage) == (3, 8)
    form = StageForm(instance=stage)
    form.cleaned_data = {"qualifier_count": 8}
    with pytest.raises(ValidationError, match="has 8 players in 3 sessions"):
        form.clean_qualifier_count()


def test_a_standard_count_too_many_for_the_players_left_says_where_to_set_one():
    """4 players (2 + 2) send 3 on; one withdraws before playing: 3 players cannot send 3 on.
    No count of the organiser's is set, so the checklist names the standard rule's and the
    stage page's count, not an override to fix; one set on the page is an override."""
    tournament = TournamentFactory()
    players = register_players(tournament, 4)
    seat_first_stage(tournament, SeededDice(seed=1))
    stage = tournament.stages.get()
    withdraw_player(tournament, players[0], reason="went home", actor=None)
    confirm_stage(stage, by_pk)
    message = stage_checklist(stage).blockers[0].message
    assert "from 2 to 2, not 3" in message
    assert "override" not in message and "standard rule" in message
    stage.qualifier_count = 3
    stage.save()
    assert "Fix the override." in stage_checklist(stage).blockers[0].message


def test_undo_of_an_advance_supersedes_and_lets_the_stage_close_again():
    tournament = TournamentFactory(seating_method="seeded")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    stage1 = tournament.stages.get(number=1)
    ranks_before = dict(SquadRank.objects.values_list("player_id", "squad_id"))
    assert undo_blocker(tournament) == "No stage is closed yet: there is no advance to undo."
    confirm_stage(stage1, by_pk)
    advance(tournament, SeededDice(seed=2))
    seated = list(Session.objects.filter(stage__number=2).values_list("pk", flat=True))
    assert Honour.objects.count() == 3

    with pytest.raises(UndoError, match="Say why"):
        undo_advance(tournament, reason="", actor=None)
    undo_advance(tournament, reason="wrong result in session 2", actor=None)
    stage1.refresh_from_db()
    assert stage1.status == StageStatus.OPEN and stage1.qualifiers == []
    assert not Session.objects.filter(pk__in=seated).exists()
    assert Session.all_objects.filter(pk__in=seated, superseded_at__isnull=False).count() == 2
    assert Honour.objects.count() == 0 and Honour.all_objects.count() == 3
    assert len(pending_honours(tournament)) == 3  # the reopened stage's winners, pending again
    assert ScoreBonus.objects.count() == 0
    assert dict(SquadRank.objects.values_list("player_id", "squad_id")) == ranks_before
    assert set(SquadRank.objects.values_list("rank", flat=True)) == {0}
    entry = ActivityLog.objects.get(verb=ActivityVerb.UNDID_ADVANCE)
    assert entry.details["reason"] == "wrong result in session 2"
    assert sorted(entry.details["superseded_sessions"]) == sorted(seated)
    # The standings read neither the superseded sessions nor the superseded honours.
    players = compute_standings(tournament)["players"]
    assert all(s["stage_reached"] == 1 for s in players)
    assert [s["honours"] for s in players] == [0] * 9
    assert sum(s["pending_honours"] for s in players) == 3

    # Closing again seats the stage again and awards again; the undone rows stay on record.
    advance(tournament, SeededDice(seed=2))
    assert Session.objects.filter(stage__number=2).count() == 2
    assert Honour.objects.count() == 3 and Honour.all_objects.count() == 6
    players = compute_standings(tournament)["players"]
    assert sorted(s["honours"] for s in players) == [0] * 6 + [1] * 3
    assert sum(s["pending_honours"] for s in players) == 0
    assert sum(len(s["seats"]) for s in compute_standings(tournament)["stages"][1]["sessions"]) == 6
    confirm_stage(tournament.stages.get(number=2), by_pk)
    assert "played already" in undo_blocker(tournament)
    with pytest.raises(UndoError, match="played already"):
        undo_advance(tournament, reason="too late", actor=None)


def test_undo_of_a_squad_draw():
    tournament = TournamentFactory()
    register_players(tournament, 3)
    seat_first_stage(tournament, SeededDice(seed=1))
    session = Session.objects.get()
    with pytest.raises(UndoError, match="not drawn"):
        undo_squad_draw(session, reason="x", actor=None, expected_version=session.version)
    session.refresh_from_db()
    draw_squads(session, SeededDice(seed=2))
    session.refresh_from_db()
    undo_squad_draw(session, reason="a die fell off", actor=None, expected_version=session.version)
    assert not Seat.objects.filter(session=session, squad__isnull=False).exists()
    assert not SquadRank.objects.filter(squad__isnull=False).exists()
    entry = ActivityLog.objects.get(verb=ActivityVerb.UNDID_DRAW)
    assert entry.details["reason"] == "a die fell off" and entry.details["replaced_batches"] == []
    session.refresh_from_db()
    draw_squads(session, SeededDice(seed=3))
    assert Seat.objects.filter(session=session, squad__isnull=False).count() == 3


@pytest.mark.parametrize(
    ("count", "message"), [(0, "from 3 to 8, not 0"), (99, "from 3 to 8, not 99")]
)
def test_qualifier_override_limits_on_close(count, message):
    tournament = TournamentFactory(qualifier_overrides={"1": count})
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    confirm_stage(tournament.stages.get(), by_pk)
    with pytest.raises(StageError, match=message):
        advance(tournament, SeededDice(seed=2))


def test_checklist_warns_of_a_map_that_does_not_suit_a_sessions_stipulation():
    """A session's own Catch the Flag left on a map without flag spots (the stage's map
    changed after it was set): the close is not blocked, the sessions are named."""
    tournament = TournamentFactory()
    register_players(tournament, 8)  # sessions of 3, 3 and 2
    seat_first_stage(tournament, SeededDice(seed=1))
    stage = tournament.stages.get()
    stage.stipulation_kind, stage.map_name = "tpk", "tpk-ring"
    stage.save()
    assert "map" not in {item.code for item in stage_checklist(stage).items}
    first, second, third = stage.sessions.order_by("number")
    for session in (first, third):
        Stipulation.objects.create(
            session=session, kind="catch_the_flag", params={"flag_value": 30}
        )
    items = [item for item in stage_checklist(stage).items if item.code == "map"]
    assert [item.message for item in items] == [
        "Sessions 1, 3: The map “Ring (TPK) (tpk-ring)” has no flag spot, so a Catch the Flag "
        "game on it would have no flag to catch. Choose another map, or draw flag spots (F) "
        "on this one on the Maps page."
    ]
    assert not items[0].blocking and items[0].sessions == (first, third)
    stage.map_name = "reference"  # one flag spot: 3 flags for 3 squads, 2 for 2
    stage.save()
    items = [item for item in stage_checklist(stage).items if item.code == "map"]
    assert [item.sessions for item in items] == [(first,), (third,)]  # TPK draws no spot
    assert items[0].message.startswith("Session 1: Catch the Flag places 3 flags here")
    assert items[1].message.startswith("Session 3: Catch the Flag places 2 flags here")
    assert second.stage.stipulation_kind == "tpk"
