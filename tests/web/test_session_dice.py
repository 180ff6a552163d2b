"""A session's own dice on its public page (RULES §3, §5, §14): whose die, what for, typed
or the app's with its seed hash linking to a replay that the verify page now makes for any
seed; the Dice page still lists only the dice that decided the bracket (decision 27)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.engine.dice import ScriptedDice, SeededDice, seed_commitment
from tournaments.actions.dice_records import record_dice
from tournaments.actions.session_setup import draw_squads, redo_squad_draw, run_initiative
from tournaments.actions.stage_undo import undo_squad_draw
from tournaments.models import DiceRoll, SquadPreference
from tournaments.queries.dice_page import dice_streams
from tournaments.queries.session_dice import session_dice
from tournaments.queries.session_sheet import dice_log

pytestmark = pytest.mark.django_db

DRAW_SEED = 41


def session_url(world) -> str:
    return reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])


def verify_url(world, commitment: str) -> str:
    return reverse("tournaments:dice_verify", args=[world.tournament.slug, commitment])


def seated_names(world) -> list[str]:
    return [seat.player.display_name for seat in world.session.seats.order_by("seat_order")]


def drawn_with_a_roll_off(world, seed: int = DRAW_SEED) -> None:
    """Every player of the session wants the same squad first: the draw rolls them off."""
    SquadPreference.objects.filter(tournament=world.tournament).update(
        choices=world.tournament.squad_order
    )
    draw_squads(world.session, SeededDice(seed=seed))
    world.session.refresh_from_db()


def engine_dice(world, count: int) -> None:
    """``count`` dice a game on the board rolled for the session (engine purpose codes)."""
    dice = SeededDice(seed=99)
    for _ in range(count):
        dice.roll("red", 1, "event_draw")
    record_dice(dice, tournament=world.tournament, stage=world.session.stage, session=world.session)


def test_a_session_without_dice_says_nothing_of_dice(world):
    html = Client().get(session_url(world)).content.decode()
    assert 'data-testid="session-dice"' not in html
    assert "Dice rolled for this session" not in html


def test_the_draws_roll_off_is_on_the_session_page_by_name_with_its_verify_link(world):
    drawn_with_a_roll_off(world)
    html = Client().get(session_url(world)).content.decode()
    squad = world.tournament.squads.order_by("order").first()
    assert "Dice rolled for this session" in html
    assert f"squad draw, choice 1: {squad.name}</dt>" in html
    [batch] = session_dice(world.tournament, world.session).batches
    assert len(batch.groups[0].rolls) == len(seated_names(world))  # all of them roll off
    for name in seated_names(world):
        assert f'<span>{name}&nbsp;<strong class="mono">' in html
    assert "Rolled by the app (seeded)" in html
    commitment = seed_commitment(DRAW_SEED)
    assert f'href="{verify_url(world, commitment)}"' in html
    assert f">{commitment[:12]}…</a>" in html


def test_the_verify_page_replays_a_session_draws_seed(world):
    drawn_with_a_roll_off(world)
    commitment = seed_commitment(DRAW_SEED)
    response = Client().get(verify_url(world, commitment))
    assert response.status_code == 200
    html = response.content.decode()
    assert "replay equals the recorded rolls." in html
    assert f'data-commitment="{commitment}"' in html
    assert response.context["check"].holds
    recorded = [tuple(line.roll.values) for line in response.context["stream"].rolls]
    assert list(response.context["check"].replayed) == recorded
    assert len(recorded) == DiceRoll.objects.filter(session=world.session).count()
    assert f'<a href="{session_url(world)}">Back to the session</a>' in html


def test_the_dice_page_still_lists_only_the_streams_that_decided_the_bracket(world):
    drawn_with_a_roll_off(world)
    commitment = seed_commitment(DRAW_SEED)
    assert commitment not in {stream.key for stream in dice_streams(world.tournament)}
    every = {stream.key for stream in dice_streams(world.tournament, deciding=False)}
    assert commitment in every
    html = Client().get(reverse("tournaments:dice", args=[world.tournament.slug])).content.decode()
    assert commitment not in html
    assert "Each session's own dice (its squad draw, its initiative) are on the" in html
    schedule = reverse("tournaments:schedule", args=[world.tournament.slug])
    assert f'<a href="{schedule}">open it from the schedule</a>.' in html


def test_typed_dice_say_so_and_have_no_verify_link(world):
    seats = list(world.session.seats.order_by("seat_order"))
    run_initiative(
        world.session,
        ScriptedDice(values=[6, 2, 4][: len(seats)]),
        actor=None,
        expected_version=world.session.version,
    )
    html = Client().get(session_url(world)).content.decode()
    section = html.split('data-testid="session-dice"', 1)[1].split("</section>")[0]
    assert "initiative</dt>" in section
    assert "Physical dice entered by a judge" in section
    assert "/verify/" not in section
    first = seats[0].player.display_name
    assert f'<span>{first}&nbsp;<strong class="mono">6</strong></span>' in section


def test_the_games_dice_are_counted_not_listed(world):
    engine_dice(world, 3)
    html = Client().get(session_url(world)).content.decode()
    section = html.split('data-testid="session-dice"', 1)[1].split("</section>")[0]
    assert "The games on the board rolled 3 dice too; they are not listed here." in section
    assert "event card draw" not in section and "<dl>" not in section


def test_the_judges_sheet_folds_the_games_dice_away_below_the_sessions_own(world, role_client):
    """A game on the board rolls hundreds of dice: the sheet lists the session's own (the
    draw's roll-off) in its table and the games' in a folded list after it, with their
    count, so a phone does not scroll past them."""
    drawn_with_a_roll_off(world)
    engine_dice(world, 3)
    seats = list(world.session.seats.select_related("player"))
    logged = dice_log(world.session, seats)
    assert [row.roll.purpose_code for row in logged.games] == ["event_draw"] * 3
    assert logged.own and all(row.roll.purpose_code != "event_draw" for row in logged.own)
    url = reverse("tournaments:judge_session", args=[world.session.pk])
    html = role_client("judge").get(url).content.decode()
    section = html.split('data-testid="sheet-dice"', 1)[1].split("</section>")[0]
    own, games = section.split('<details data-testid="game-dice">')
    squad = world.tournament.squads.order_by("order").first()
    assert f"squad draw, choice 1: {squad.name}" in own
    assert "event card draw" not in own
    assert "<summary>The games on the board rolled 3 dice</summary>" in games
    assert games.count("event card draw") == 3
    assert "No dice yet." not in section


def test_a_sheet_with_only_the_games_dice_folds_them_and_says_nothing_else(world, role_client):
    engine_dice(world, 1)
    url = reverse("tournaments:judge_session", args=[world.session.pk])
    html = role_client("judge").get(url).content.decode()
    section = html.split('data-testid="sheet-dice"', 1)[1].split("</section>")[0]
    assert "<table>" not in section.split("<details", 1)[0]
    assert "<summary>The games on the board rolled 1 die</summary>" in section
    assert "No dice yet." not in section


def test_a_redone_or_undone_draws_dice_are_marked_replaced(world):
    drawn_with_a_roll_off(world)
    redo_squad_draw(
        world.session,
        SeededDice(seed=DRAW_SEED + 1),
        reason="a die fell off",
        actor=None,
        expected_version=world.session.version,
    )
    world.session.refresh_from_db()
    batches = session_dice(world.tournament, world.session).batches
    assert [batch.replaced for batch in batches] == [True, False]
    html = Client().get(session_url(world)).content.decode()
    assert html.count("replaced by a later draw") == 1
    undo_squad_draw(
        world.session, reason="wrong seats", actor=None, expected_version=world.session.version
    )
    batches = session_dice(world.tournament, world.session).batches
    assert [batch.replaced for batch in batches] == [True, True]
    seats = list(world.session.seats.select_related("player"))
    assert all(row.replaced for row in dice_log(world.session, seats).own), "the judge's sheet too"


def test_the_session_page_costs_the_same_queries_for_one_roll_off_or_many_rolls(world):
    client = Client()
    with CaptureQueriesContext(connection) as none:
        client.get(session_url(world))
    drawn_with_a_roll_off(world)
    with CaptureQueriesContext(connection) as few:
        client.get(session_url(world))
    before = DiceRoll.objects.filter(session=world.session).count()
    for seed in range(3):  # three more draws' roll-offs, each replacing the one before
        redo_squad_draw(
            world.session,
            SeededDice(seed=seed),
            reason="again",
            actor=None,
            expected_version=world.session.version,
        )
        world.session.refresh_from_db()
    engine_dice(world, 40)
    listed = session_dice(world.tournament, world.session)
    shown = sum(len(group.rolls) for batch in listed.batches for group in batch.groups)
    assert shown > 2 * before and listed.game_dice == 40
    with CaptureQueriesContext(connection) as many:
        html = client.get(session_url(world)).content.decode()
    assert html.count('class="card dice-batch"') == 4
    assert len(many) == len(few) == len(none) + 3


def test_verify_dice_replays_a_session_draws_seed_only_when_asked_for_all(world):
    drawn_with_a_roll_off(world)
    commitment = seed_commitment(DRAW_SEED)
    deciding = StringIO()
    call_command("verify_dice", world.tournament.slug, stdout=deciding)
    assert commitment not in deciding.getvalue()
    every = StringIO()
    call_command("verify_dice", world.tournament.slug, "--all", stdout=every)
    assert f"{commitment} (" in every.getvalue()
    assert "every die equals its replay" in every.getvalue()
