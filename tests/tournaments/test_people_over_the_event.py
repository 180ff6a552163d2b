"""People over the event (issue 15, decisions 32-36): withdrawals, reserves, forfeits,
no-shows and late entries through whole 9- and 10-player tournaments; standings and the
bracket stay consistent."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.attendance import AttendanceError, check_in, declare_no_show
from tournaments.actions.people import PeopleError, edit_player, withdraw_player
from tournaments.actions.registration import NewPlayer, RegistrationClosed, register_player
from tournaments.actions.stage_advance import advance
from tournaments.models import ActivityLog, ActivityVerb, Forfeit, Seat, StageStatus
from tournaments.queries.player_profile import reserve_candidates
from tournaments.queries.standings import compute_standings

pytestmark = pytest.mark.django_db


def by_pk(seat: Seat) -> int:
    return seat.player_id


def finish(tournament, first_seed: int = 20) -> dict:
    """Confirm every open stage (points = player id) and advance until the podium."""
    report: dict = {}
    seed = first_seed
    while (stage := tournament.current_stage()) is not None:
        confirm_stage(stage, by_pk)
        report = advance(tournament, SeededDice(seed=seed))
        seed += 1
    return report


def assert_consistent(tournament) -> dict:
    """Every stage's qualifiers were seated in the next stage, nobody who withdrew or
    forfeited qualified, and the standings list every registered player once."""
    standings = compute_standings(tournament)
    stages = list(tournament.stages.order_by("number"))
    for stage, following in zip(stages, stages[1:], strict=False):
        seated = set(
            Seat.objects.filter(session__stage=following).values_list("player_id", flat=True)
        )
        out = set(
            Seat.objects.filter(session__stage=stage)
            .exclude(forfeit="")
            .values_list("player_id", flat=True)
        )
        assert not out & set(stage.qualifiers)
        replaced = set(
            ActivityLog.objects.filter(
                tournament=tournament, verb=ActivityVerb.REPLACED
            ).values_list("details__reserve", flat=True)
        )
        assert set(stage.qualifiers) - seated <= {
            reg.player_id for reg in tournament.registrations.filter(withdrawn_at__isnull=False)
        }
        assert seated - set(stage.qualifiers) <= replaced
    ids = [row["player_id"] for row in standings["players"]]
    assert len(ids) == len(set(ids)) == tournament.registrations.count()
    return standings


def test_nine_players_with_a_withdrawal_and_a_no_show():
    tournament = TournamentFactory(seating_method="seeded")
    players = register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    stage1 = tournament.stages.get(number=1)

    # A no-show in the first session: too early, then after the delay.
    session = stage1.sessions.get(number=1)
    session.scheduled_at = timezone.now() - timedelta(minutes=5)
    session.save()
    absent = session.seats.order_by("seat_order").last().player_id
    with pytest.raises(AttendanceError, match="from"):
        declare_no_show(session, absent, actor=None, expected_version=session.version)
    session.refresh_from_db()
    present = session.seats.order_by("seat_order").first().player_id
    session.refresh_from_db()
    check_in(session, present, actor=None, expected_version=session.version)
    session.refresh_from_db()
    with pytest.raises(AttendanceError, match="checked in"):
        declare_no_show(session, present, actor=None, expected_version=session.version)
    session.refresh_from_db()
    declare_no_show(
        session,
        absent,
        actor=None,
        expected_version=session.version,
        now=timezone.now() + timedelta(minutes=15),
    )
    assert Seat.objects.get(session=session, player_id=absent).forfeit == Forfeit.NO_SHOW

    # A withdrawal before session 2 starts, without a reserve: the session plays short.
    leaving = stage1.sessions.get(number=2).seats.order_by("seat_order").first().player
    done = withdraw_player(tournament, leaving, reason="ill", actor=None)
    assert [seat.session.number for seat in done.forfeited] == [2]

    confirm_stage(stage1, by_pk)
    # The highest id wins each session; the no-show, who scored nothing, ranks last.
    ranking = session.result.latest_confirmed().ranking
    assert ranking[-1] == absent
    advance(tournament, SeededDice(seed=2))
    stage1.refresh_from_db()
    assert len(stage1.qualifiers) == 6
    assert absent not in stage1.qualifiers and leaving.pk not in stage1.qualifiers
    report = finish(tournament)
    assert report["action"] == "finished"
    standings = assert_consistent(tournament)
    assert len(standings["podium"]) == 3
    assert {absent, leaving.pk}.isdisjoint(row["player_id"] for row in standings["podium"])
    assert len(players) == 9


def test_ten_players_with_a_late_entry_a_reserve_and_a_forfeit():
    tournament = TournamentFactory(seating_method="seeded")
    register_players(tournament, 9)
    late = register_player(tournament, NewPlayer(name="Late Comer", nickname="Late"))
    advance(tournament, SeededDice(seed=3))
    with pytest.raises(RegistrationClosed, match="late registration is closed"):
        register_player(tournament, NewPlayer(name="Too Late"))
    stage1 = tournament.stages.get(number=1)
    assert sorted(len(s.seats.all()) for s in stage1.sessions.all()) == [2, 2, 3, 3]
    assert Seat.objects.filter(session__stage=stage1, player=late).exists()

    confirm_stage(stage1, by_pk)
    advance(tournament, SeededDice(seed=4))
    stage1.refresh_from_db()
    stage2 = tournament.stages.get(number=2)
    # A semifinalist withdraws before playing; the best non-qualifier takes the seat.
    leaving = Seat.objects.filter(session__stage=stage2).order_by("player_id").first().player
    candidates = reserve_candidates(tournament, leaving)
    assert leaving not in candidates and candidates
    reserve = candidates[0]
    done = withdraw_player(tournament, leaving, reason="left early", actor=None, reserve=reserve)
    assert [seat.player_id for seat in done.replaced] == [reserve.pk]
    assert Seat.objects.filter(session__stage=stage2, player=reserve).exists()

    # Someone forfeits a started session: initiative rolled, then they leave.
    session = stage2.sessions.exclude(seats__player=reserve).order_by("number").first()
    Seat.objects.filter(session=session).update(initiative_position=1)
    quitter = session.seats.order_by("-player_id").first().player
    done = withdraw_player(tournament, quitter, reason="had to go", actor=None, reserve=None)
    assert [seat.forfeit for seat in done.forfeited] == [Forfeit.WITHDRAWN]
    report = finish(tournament, 40)
    assert report["action"] == "finished"
    standings = assert_consistent(tournament)
    assert quitter.pk not in tournament.stages.get(number=2).qualifiers
    assert {row["player_id"] for row in standings["podium"]}.isdisjoint({quitter.pk, leaving.pk})


def test_withdrawal_errors_are_clear():
    tournament = TournamentFactory()
    players = register_players(tournament, 9)
    with pytest.raises(PeopleError, match="reason"):
        withdraw_player(tournament, players[0], reason=" ", actor=None)
    withdraw_player(tournament, players[0], reason="no longer coming", actor=None)
    with pytest.raises(PeopleError, match="already withdrawn"):
        withdraw_player(tournament, players[0], reason="again", actor=None)
    with pytest.raises(PeopleError, match="no seat"):
        withdraw_player(tournament, players[1], reason="x", actor=None, reserve=players[2])
    # Withdrawn before the start: not seated.
    advance(tournament, SeededDice(seed=5))
    assert not Seat.objects.filter(player=players[0]).exists()
    assert tournament.stages.get().status == StageStatus.OPEN


def test_display_names_stay_unique():
    tournament = TournamentFactory()
    first, second = register_players(tournament, 2)
    with pytest.raises(PeopleError, match="already the name"):
        edit_player(
            tournament,
            second,
            name="Someone",
            nickname=first.display_name.upper(),
            email="",
            actor=None,
        )
    edit_player(tournament, second, name="Someone", nickname="WH", email="", actor=None)
    second.refresh_from_db()
    assert second.display_name == "WH"


def test_a_reserve_brings_the_score_bonus_of_their_own_previous_session():
    """RULES §9: a threshold reached gives +1 equipment card in the player's next session.
    A reserve eliminated in the preliminary after reaching it takes a semifinal seat: that
    seat's extra card is the reserve's, and the player who left takes theirs away."""
    from tournaments.models import Player, ScoreThreshold
    from tournaments.queries.loadout_checks import card_bonuses

    tournament = TournamentFactory(seating_method="seeded")
    register_players(tournament, 9)
    advance(tournament, SeededDice(seed=1))
    first = tournament.stages.get(number=1)
    ScoreThreshold.objects.create(stage=first, points=2)
    confirm_stage(first, by_pk)  # points = player id: everybody but player 1 reaches 2
    advance(tournament, SeededDice(seed=2))
    semifinal = tournament.stages.get(number=2)
    seated = set(Seat.objects.filter(session__stage=semifinal).values_list("player", flat=True))
    reserve = (
        Player.objects.filter(registrations__tournament=tournament)
        .exclude(pk__in=seated)
        .order_by("-pk")
        .first()
    )
    seat = Seat.objects.filter(session__stage=semifinal).first()
    assert card_bonuses(seat)[1] == 1
    withdraw_player(tournament, seat.player, reason="ill", actor=None, reserve=reserve)
    seat = Seat.objects.get(pk=seat.pk)
    assert seat.player == reserve
    assert card_bonuses(seat)[1] == 1
