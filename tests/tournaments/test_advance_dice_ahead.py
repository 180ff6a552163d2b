"""Closing a stage with physical dice (QA: each submit revealed only the next missing die,
seven submits to close the semifinals; the checklist never mentioned the tie). The dice
the close needs are listed ahead, found by the close itself played with made-up dice and
rolled back; too few or too many typed dice are refused naming them; the checklist warns of
a roll-off at the cut (decision 51)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.engine.dice import DiceError, SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance, advance_dice_ahead
from tournaments.domain.progression import CutTie, cut_ties
from tournaments.domain.ranking import RankedSeat, SessionRanking
from tournaments.domain.typed_dice import TypedDice, dice_rounds
from tournaments.models import ActivityLog, DiceRoll, Seat, Stage, StageStatus
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.stage_checklist import stage_checklist
from tournaments.queries.stage_cut import ties_at_the_cut

pytestmark = pytest.mark.django_db

POINTS = {1: 10, 2: 5, 3: 1}


@pytest.fixture
def tied():
    """12 players in 4 sessions, every result in: 4 winners go through, and the 4
    runners-up, all on 5 points, roll off for the last 2 of the 6 places."""
    tournament = TournamentFactory(slug="pari")
    register_players(tournament, 12)
    advance(tournament, SeededDice(seed=5))
    confirm_stage(tournament.stages.get(number=1), lambda seat: POINTS[seat.seat_order])
    return tournament


def runners_up(tournament) -> list[str]:
    stage = tournament.stages.get(number=1)
    seats = Seat.objects.filter(session__stage=stage, seat_order=2).order_by("session__number")
    return [seat.player.display_name for seat in seats]


def stored(tournament) -> tuple[int, int, int]:
    return (
        Stage.objects.filter(tournament=tournament).count(),
        DiceRoll.objects.filter(tournament=tournament).count(),
        ActivityLog.objects.filter(tournament=tournament).count(),
    )


def test_the_roll_off_at_the_cut_is_listed_first_with_who_rolls(tied):
    before = stored(tied)
    ahead = advance_dice_ahead(tied, [])
    assert ahead is not None and not ahead.complete and ahead.more_after
    [first] = dice_rounds(ahead.next, registered_player_names(tied))
    assert (first.first, first.last) == (1, 4)
    assert first.purpose == "best runners-up: tie on 5 points"
    assert sorted(first.rollers) == sorted(runners_up(tied))
    assert stored(tied) == before  # the dry run wrote nothing
    assert tied.stages.get(number=1).status == StageStatus.OPEN


def test_typing_the_listed_dice_closes_the_stage_with_exactly_them(tied):
    values: list[int] = []
    for _step in range(30):
        ahead = advance_dice_ahead(tied, values)
        if ahead.complete:
            break
        assert ahead.next, "an incomplete list names at least the next die"
        # Different faces within a round: a roll-off never ties.
        values += [6 - (n % 6) for n in range(len(ahead.next))]
    else:
        pytest.fail("the list never completed")
    assert ahead.extra == 0 and ahead.used == len(values)
    report = advance(tied, TypedDice(values=values))
    assert report["action"] == "advanced"
    assert sum(len(roll["values"]) for roll in report["dice"]["rolls"]) == len(values)


def test_too_few_dice_are_refused_naming_every_die_known_and_nothing_is_stored(tied):
    before = stored(tied)
    names = registered_player_names(tied)
    with pytest.raises(DiceError) as refused:
        advance(tied, TypedDice(values=[4], subjects=names))
    message = str(refused.value)
    assert message.startswith("not enough dice: 1 value was given")
    assert "dice 2–4 (3 d6): best runners-up: tie on 5 points, rolled by" in message
    named = message.split("rolled by ")[1].split(";")[0].split(", ")
    assert len(named) == 3 and set(named) < set(runners_up(tied))
    assert "a tie rolls again" in message
    assert stored(tied) == before


def test_too_many_dice_are_refused_before_anything_is_written(tied):
    values: list[int] = []
    ahead = advance_dice_ahead(tied, values)
    while not ahead.complete:
        values += [6 - (n % 6) for n in range(len(ahead.next))]
        ahead = advance_dice_ahead(tied, values)
    before = stored(tied)
    with pytest.raises(DiceError, match="1 die value was not needed"):
        advance(tied, TypedDice(values=[*values, 3]))
    assert stored(tied) == before


def test_the_checklist_warns_of_the_roll_off_naming_players_and_place(tied):
    checklist = stage_checklist(tied.stages.get(number=1))
    [item] = [item for item in checklist.items if item.code == "roll_off"]
    assert not item.blocking and checklist.can_close
    assert item.message.startswith(
        "At the close, a roll-off settles 2 places among the best runners-up: "
    )
    assert item.message.endswith(" are tied on 5 points.")
    for name in runners_up(tied):
        assert name in item.message


def test_the_checklist_reads_who_cannot_qualify_once(tied):
    """The review: the qualifier count and the ties each read the withdrawn players."""
    stage = tied.stages.get(number=1)
    with CaptureQueriesContext(connection) as queries:
        checklist = stage_checklist(stage)
    assert "roll_off" in {item.code for item in checklist.items}
    withdrawn = [q for q in queries.captured_queries if '"withdrawn_at" IS NOT NULL' in q["sql"]]
    assert len(withdrawn) == 1


def test_no_roll_off_warning_without_a_tie_at_the_cut():
    tournament = TournamentFactory()
    register_players(tournament, 12)
    advance(tournament, SeededDice(seed=5))
    stage = tournament.stages.get(number=1)
    confirm_stage(stage, lambda seat: POINTS[seat.seat_order] + seat.session.number)
    assert ties_at_the_cut(stage) == ()
    assert "roll_off" not in {item.code for item in stage_checklist(stage).items}


def ranking(*seats: tuple[str, int]) -> SessionRanking:
    return SessionRanking(
        order=tuple(
            RankedSeat(seat=seat, position=place, points=points, survived=True)
            for place, (seat, points) in enumerate(seats, start=1)
        )
    )


def test_cut_ties_names_the_place_the_tied_and_how_many_go_through():
    rankings = {
        "s1": ranking(("a", 9), ("b", 7), ("c", 3)),
        "s2": ranking(("d", 9), ("e", 6), ("f", 3)),
        "s3": ranking(("g", 9), ("h", 6), ("i", 3)),
    }
    assert cut_ties(rankings, 5) == (CutTie(position=2, points=6, players=("e", "h"), places=1),)
    assert cut_ties(rankings, 6) == ()  # every runner-up fits
    assert cut_ties(rankings, 7) == (
        CutTie(position=3, points=3, players=("c", "f", "i"), places=1),
    )


@pytest.mark.parametrize("seating", ["seeded", "random"])
def test_the_finals_seating_asks_for_no_die(seating):
    """4 players in 2 sessions: the two winners, tied on place and points, and the best
    runner-up go to the final, whose one table decides nothing (decision 21): the dice
    check lists no seating die, none is rolled, the tied winners sit in registration
    order."""
    tournament = TournamentFactory(slug="finale", seating_method=seating)
    register_players(tournament, 4)
    advance(tournament, SeededDice(seed=5))
    stage = tournament.stages.get(number=1)
    confirm_stage(stage, lambda seat: 10 if seat.seat_order == 1 else seat.session.number)
    values: list[int] = []
    purposes: list[str] = []
    for _step in range(30):
        ahead = advance_dice_ahead(tournament, values, seating=seating)
        if ahead.complete:
            break
        purposes += [die.purpose for die in ahead.next]
        values += [6 - (n % 6) for n in range(len(ahead.next))]
    else:
        pytest.fail("the list never completed")
    assert not [p for p in purposes if "seed" in p or "seating" in p]
    advance(tournament, TypedDice(values=values), seating=seating)
    final = tournament.stages.get(number=2).sessions.get()
    assert not DiceRoll.objects.filter(
        stage=final.stage, purpose_code__in=("seeding_tie", "random_seating")
    ).exists()
    seated = [seat.player for seat in final.seats.order_by("seat_order")]
    winners = sorted(
        (s.player for s in Seat.objects.filter(session__stage=stage, seat_order=1)),
        key=lambda player: player.registrations.get().number,
    )
    assert seated[:2] == winners
