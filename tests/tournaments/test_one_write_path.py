"""Each write has one action, whoever asks for it: the squad draw of the stage seating, the
judge's page and the command line; the tournament created by the organiser's page, the demo
and the factories; a roster from the upload and from ``manage.py import_roster``."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from rules.engine.dice import DiceError, ScriptedDice, SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.actions.registration import NewPlayer, register_player, register_roster
from tournaments.actions.session_setup import SetupError, draw_squads
from tournaments.actions.stage_advance import advance, seat_first_stage, start_tournament
from tournaments.actions.tournament_setup import create_tournament
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DiceRoll,
    Registration,
    Seat,
    SquadPreference,
    SquadRank,
    StaleSessionError,
    Tournament,
)

pytestmark = pytest.mark.django_db

UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"


def seated(players: int = 3):
    """A tournament whose first stage is seated, its squads not drawn yet."""
    tournament = TournamentFactory()
    register_players(tournament, players)
    start_tournament(tournament, SeededDice(seed=5), draw_squads=False)
    return tournament, tournament.stages.get().sessions.order_by("number").first()


def drew(session) -> ActivityLog:
    return ActivityLog.objects.get(verb=ActivityVerb.DREW_SQUADS, details__session=session.pk)


def test_the_stage_seating_and_the_judge_log_the_same_draw_details():
    tournament = TournamentFactory()
    register_players(tournament, 3)
    start_tournament(tournament, SeededDice(seed=5))
    by_stage = drew(tournament.stages.get().sessions.get())

    _tournament, session = seated()
    draw_squads(session, SeededDice(seed=5), expected_version=session.version)
    by_judge = drew(session)
    assert (
        set(by_stage.details)
        == set(by_judge.details)
        == {
            "session",
            "assignments",
            "rank_transfers",
            "source",
            "ranks_before",
        }
    )


def test_a_draw_bumps_the_sessions_version_and_refuses_a_stale_one():
    _tournament, session = seated()
    version = session.version
    update_if_current(session, version, map_name="2")
    with pytest.raises(StaleSessionError):
        draw_squads(session, SeededDice(seed=1), expected_version=version)
    assert not Seat.objects.filter(session=session, squad__isnull=False).exists()
    draw_squads(session, SeededDice(seed=1), expected_version=session.version)
    session.refresh_from_db()
    assert session.version == version + 2


def test_a_drawn_session_is_not_drawn_again():
    _tournament, session = seated()
    draw_squads(session, SeededDice(seed=1))
    with pytest.raises(SetupError, match="already drawn"):
        draw_squads(session, SeededDice(seed=2))


def test_an_unknown_squad_in_a_preference_stops_the_stage_seating_and_names_the_player():
    tournament = TournamentFactory()
    players = register_players(tournament, 3)
    SquadPreference.objects.filter(player=players[1]).update(choices=["space-wolves"])
    with pytest.raises(Exception, match="space-wolves") as caught:
        advance(tournament, SeededDice(seed=3))
    assert str(players[1].pk) in str(caught.value)
    assert not tournament.stages.filter(sessions__isnull=False).exists()


def test_typed_dice_left_over_are_refused_at_the_table_and_nothing_is_stored():
    _tournament, session = seated()
    SquadPreference.objects.update(choices=[UM, BA, IF])
    with pytest.raises(DiceError, match="not needed"):
        draw_squads(session, ScriptedDice(values=[1, 2, 3, 4, 5, 6, 6]))
    with pytest.raises(DiceError, match="not enough dice"):
        draw_squads(session, ScriptedDice(values=[]))
    assert not DiceRoll.objects.filter(session=session).exists()
    assert not Seat.objects.filter(session=session, squad__isnull=False).exists()


def test_the_draw_writes_each_players_squad_and_keeps_their_rank():
    tournament = TournamentFactory()
    register_players(tournament, 6)
    advance(tournament, SeededDice(seed=9))
    confirm_stage(tournament.stages.get(), lambda seat: seat.player_id)
    advance(tournament, SeededDice(seed=4))
    final = tournament.stages.get(number=2).sessions.get()
    for seat in final.seats.select_related("squad"):
        rank = SquadRank.objects.get(tournament=tournament, player_id=seat.player_id)
        assert rank.squad == seat.squad


def test_the_command_draws_a_stored_session_through_the_same_action():
    tournament, session = seated()
    out = StringIO()
    call_command(
        "squad_draw",
        "--tournament",
        tournament.slug,
        "--stage",
        "1",
        "--session",
        str(session.number),
        "--seed",
        "7",
        stdout=out,
    )
    printed = json.loads(out.getvalue())
    stored = {
        str(seat.player_id): seat.squad.slug for seat in session.seats.select_related("squad")
    }
    assert printed["assignments"] == stored
    assert printed["seed"] == 7
    assert drew(session).details["source"] == "seeded"
    assert DiceRoll.objects.filter(session=session, seed="7").count() == len(printed["rolls"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--stage", "1", "--session", "1"], "together"),
        (
            ["--tournament", "nope", "--stage", "1", "--session", "1"],
            'no tournament has the slug "nope"',
        ),
        (["--input", "x.json", "--tournament", "t", "--stage", "1", "--session", "1"], "not both"),
        ([], "--input FILE"),
    ],
)
def test_the_command_says_what_is_missing(args, message):
    with pytest.raises(CommandError, match=message) as caught:
        call_command("squad_draw", *args)
    assert caught.value.returncode == 2


def test_the_command_names_the_stage_or_session_it_cannot_find_and_what_there_is():
    tournament, session = seated()
    args = ["squad_draw", "--tournament", tournament.slug]
    with pytest.raises(CommandError) as caught:
        call_command(*args, "--stage", "9", "--session", "1")
    assert str(caught.value) == f"tournament “{tournament.slug}” has no stage 9; its stages: 1"
    assert caught.value.returncode == 2
    numbers = ", ".join(str(n) for n in session.stage.sessions.values_list("number", flat=True))
    with pytest.raises(CommandError) as caught:
        call_command(*args, "--stage", "1", "--session", "99")
    assert str(caught.value) == (
        f"no session 99 in stage 1 of tournament “{tournament.slug}”; its sessions: {numbers}"
    )


def test_the_command_refuses_a_drawn_session_and_stores_nothing_more():
    tournament, session = seated()
    draw_squads(session, SeededDice(seed=1))
    rolls = DiceRoll.objects.count()
    with pytest.raises(CommandError, match="already drawn"):
        call_command(
            "squad_draw", "--tournament", tournament.slug, "--stage", "1", "--session", "1"
        )
    assert DiceRoll.objects.count() == rolls


def test_seating_the_first_stage_refuses_typed_dice_left_over_and_seats_nothing():
    tournament = TournamentFactory(seating_method="random")
    register_players(tournament, 3)
    with pytest.raises(DiceError, match="not needed"):
        seat_first_stage(tournament, ScriptedDice(values=[1, 2, 3, 4, 5, 6, 1, 2, 3, 4]))
    assert not tournament.stages.filter(sessions__isnull=False).exists()


def test_every_tournament_is_created_with_its_catalogue_and_a_created_entry(django_user_model):
    organiser = django_user_model.objects.create_user("olga", password="x")
    tournament = create_tournament(Tournament(name="Coppa", slug="coppa"), organiser=organiser)
    assert list(tournament.organisers.all()) == [organiser]
    assert tournament.squad_order == [UM, BA, IF]
    assert ActivityLog.objects.filter(tournament=tournament, verb=ActivityVerb.CREATED).exists()
    assert TournamentFactory().squads.count() == 3
    assert TournamentFactory(squads=False).squads.count() == 0


def test_players_are_numbered_after_the_last_and_every_registration_is_logged(tmp_path):
    tournament = TournamentFactory()
    register_player(tournament, NewPlayer(name="Anna"))
    register_roster(
        tournament, [NewPlayer(name="Bruno", preferences=(BA, UM, IF)), NewPlayer(name="Carla")]
    )
    roster = tmp_path / "roster.csv"
    roster.write_text("name,nickname\nDario,D\n", encoding="utf-8")
    call_command("import_roster", tournament.slug, str(roster), stdout=StringIO())
    numbers = dict(
        Registration.objects.filter(tournament=tournament).values_list("player__name", "number")
    )
    assert numbers == {"Anna": 1, "Bruno": 2, "Carla": 3, "Dario": 4}
    assert SquadPreference.objects.get(player__name="Bruno").choices == [BA, UM, IF]
    verbs = list(
        ActivityLog.objects.filter(tournament=tournament)
        .exclude(verb=ActivityVerb.CREATED)
        .order_by("pk")
        .values_list("verb", flat=True)
    )
    assert verbs == [ActivityVerb.REGISTERED, ActivityVerb.IMPORTED, ActivityVerb.IMPORTED]
