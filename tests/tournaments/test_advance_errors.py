"""``advance`` refuses bad input with exit status 2 and a message saying what to fix."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import TournamentFactory, confirm_stage, register_players, session_points
from tournaments.actions.result_entry import record_result
from tournaments.models import DiceRoll, Stage, StageStatus, Stipulation

pytestmark = pytest.mark.django_db


def advance_error(*args: str) -> str:
    with pytest.raises(CommandError) as error:
        call_command("advance", *args, stdout=StringIO())
    assert error.value.returncode == 2
    return str(error.value)


def test_unknown_slug_lists_known_ones():
    TournamentFactory(slug="bob-2026")
    message = advance_error("bob-2099")
    assert "bob-2099" in message and "bob-2026" in message


def test_missing_results_are_listed_and_nothing_changes():
    tournament = TournamentFactory()
    register_players(tournament, 9)
    call_command("advance", tournament.slug, "--seed", "3", stdout=StringIO())
    first = tournament.stages.get().sessions.get(number=1)
    Stipulation.objects.create(session=first, kind="alien_hunt", params={"rounds": 3})
    record_result(first, session_points(first, lambda seat: seat.seat_order), confirmed=True)
    message = advance_error(tournament.slug)
    assert "sessions 2, 3 have no confirmed result" in message
    assert "session 2 (" in message and "session 3 (" in message
    assert tournament.stages.get().status == StageStatus.OPEN
    assert Stage.objects.filter(tournament=tournament).count() == 1


def test_draft_results_do_not_count_as_confirmed():
    tournament = TournamentFactory()
    register_players(tournament, 3)
    call_command("advance", tournament.slug, "--seed", "3", stdout=StringIO())
    session = tournament.stages.get().sessions.get()
    Stipulation.objects.create(session=session, kind="tpk", params={"aliens": True})
    record_result(session, session_points(session, lambda seat: 1))
    assert "session 1 has no confirmed result" in advance_error(tournament.slug)


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ("3,x,5", "not a whole number"),
        ("7", "cannot show"),
        ("9,x", "die 1 is 9, which a d6 cannot show (allowed: 1, 2, 3, 4, 5, 6); die 2 is “x”"),
        ("", "no dice values"),
    ],
)
def test_bad_dice_are_refused(dice, expected):
    tournament = TournamentFactory()
    register_players(tournament, 3)
    assert expected in advance_error(tournament.slug, "--dice", dice)
    assert not tournament.stages.exists()
    assert not DiceRoll.objects.exists()


def test_too_few_and_too_many_dice():
    tournament = TournamentFactory(seating_method="random")
    register_players(tournament, 4)
    assert "not enough dice" in advance_error(tournament.slug, "--dice", "4")
    assert "were not needed" in advance_error(
        tournament.slug, "--dice", ",".join(["1", "2", "3"] * 9)
    )
    assert not tournament.stages.exists()


def test_a_missing_die_names_the_player_who_rolls_it():
    tournament = TournamentFactory(seating_method="random")
    players = register_players(tournament, 4)  # two sessions: their seating is rolled
    message = advance_error(tournament.slug, "--dice", "4")
    # Every die known before rolling is named at once, with who rolls it, in order.
    assert "not enough dice: 1 value was given" in message
    assert (
        f"dice 2–4 (3 d6): random seating, rolled by {players[1].display_name}, "
        f"{players[2].display_name}, {players[3].display_name}"
    ) in message


def test_scripted_dice_reproduce_a_one_table_start():
    tournament = TournamentFactory(seating_method="random")
    register_players(tournament, 3, preferences=False)
    # One table: seated in registration order without a die (decision 21); then the
    # leftover squad roll-off: one roll each.
    call_command("advance", tournament.slug, "--dice", "1,3,5", stdout=StringIO())
    session = tournament.stages.get().sessions.get()
    seats = list(session.seats.order_by("seat_order").select_related("squad"))
    registered = list(tournament.registrations.order_by("number").values_list("player", flat=True))
    assert [seat.player_id for seat in seats] == registered
    # Leftover roll-off 1,3,5 → third seat picks first (Ultramarines), then second, then first.
    assert [seat.squad.slug for seat in seats] == [
        "imperial-fists",
        "blood-angels",
        "ultramarines",
    ]
    rolls = DiceRoll.objects.filter(tournament=tournament).order_by("created_at", "sequence")
    assert all(roll.source == "scripted" and roll.seed == "" for roll in rolls)
    assert sorted(v for roll in rolls for v in roll.values) == [1, 3, 5]


def test_bad_seed_and_conflicting_options():
    tournament = TournamentFactory()
    register_players(tournament, 3)
    assert "non-negative" in advance_error(tournament.slug, "--seed", "-4")
    with pytest.raises(CommandError):
        call_command("advance", tournament.slug, "--seed", "1", "--dice", "1", stdout=StringIO())


def test_too_few_players_or_squads():
    tournament = TournamentFactory()
    register_players(tournament, 2)
    assert "at least 3" in advance_error(tournament.slug)
    bare = TournamentFactory(squads=False)
    register_players(bare, 3)
    assert "3 squads" in advance_error(bare.slug)


def test_unknown_actor():
    tournament = TournamentFactory()
    register_players(tournament, 3)
    assert "nobody" in advance_error(tournament.slug, "--actor", "nobody")


def test_bad_stage_stipulation_is_reported():
    tournament = TournamentFactory()
    register_players(tournament, 3)
    Stage.objects.create(
        tournament=tournament, number=1, kind="final", stipulation_kind="catch_the_flag"
    )
    message = advance_error(tournament.slug)
    assert "stipulation" in message and "flag_value" in message
    assert not tournament.stages.get().sessions.exists()


@pytest.mark.parametrize(("override", "expected"), [("six", "whole number"), (9, "from 3 to 8")])
def test_bad_qualifier_override_is_reported(override, expected):
    tournament = TournamentFactory(qualifier_overrides={"1": override})
    register_players(tournament, 9)
    call_command("advance", tournament.slug, "--seed", "1", stdout=StringIO())
    confirm_stage(tournament.stages.get(), lambda seat: seat.player_id)
    assert expected in advance_error(tournament.slug)
    assert tournament.stages.get().status == StageStatus.OPEN


def test_qualifier_override_changes_the_next_stage():
    tournament = TournamentFactory(qualifier_overrides={"1": 3})
    register_players(tournament, 9)
    call_command("advance", tournament.slug, "--seed", "1", stdout=StringIO())
    confirm_stage(tournament.stages.get(), lambda seat: seat.player_id)
    call_command("advance", tournament.slug, "--seed", "2", stdout=StringIO())
    final = tournament.stages.get(number=2)
    assert final.kind == "final" and final.sessions.get().seats.count() == 3
