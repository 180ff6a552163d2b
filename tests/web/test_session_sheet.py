"""The session sheet at the table: each player's squad preferences, what the typed dice
still need, every bad die named with squads by name, and a mistyped draw done again as a
new recorded version, the earlier one kept."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from demo.management.commands.load_demo import DEMO_SLUG
from rules.engine.dice import SeededDice
from tournaments.actions.result_entry import record_result
from tournaments.actions.session_setup import SetupError, draw_squads, redo_squad_draw
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DiceRoll,
    Seat,
    Session,
    SquadPreference,
    StaleSessionError,
)
from tournaments.queries.session_sheet import dice_log, draw_versions

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge(world, role_client):
    return role_client("judge")


def seats_of(session):
    return list(session.seats.select_related("player", "squad").order_by("seat_order"))


def everyone_wants_the_same(world) -> None:
    SquadPreference.objects.filter(tournament=world.tournament).update(
        choices=world.tournament.squad_order
    )


def sheet_url(world) -> str:
    return reverse("tournaments:judge_session", args=[world.session.pk])


def test_the_sheet_shows_each_players_preferences_or_none(judge, world):
    first, second, _third = seats_of(world.session)
    SquadPreference.objects.filter(player=second.player).delete()
    page = judge.get(sheet_url(world)).content.decode()
    chosen = SquadPreference.objects.get(player=first.player).choices
    by_slug = {s.slug: s.name for s in world.tournament.squads.all()}
    expected = " · ".join(
        f'<span class="nowrap">{n}. {by_slug[slug]}</span>' for n, slug in enumerate(chosen, 1)
    )
    assert expected in page
    assert "no preferences given" in page
    assert not any(slug in page.split("<h2>Seats</h2>")[1][:3000] for slug in by_slug)


def test_the_sheet_says_which_dice_the_draw_needs_as_they_are_typed(judge, world):
    everyone_wants_the_same(world)
    first, second, third = (s.player.display_name for s in seats_of(world.session))
    squad = world.tournament.squads.order_by("order").first().name
    page = judge.get(sheet_url(world)).content.decode()
    assert f"3 d6 for squad draw, choice 1: {squad}, one each, in this order:" in page
    assert f"{first}, {second}, {third}." in page
    url = reverse("tournaments:judge_dice_check", args=[world.session.pk])
    check = judge.post(url, {"purpose": "draw", "draw-dice": "2,5"}, HTTP_HX_REQUEST="true")
    assert "Next, from die 3:" in check.content.decode()
    assert f"one d6 for squad draw, choice 1: {squad}:" in check.content.decode()
    bad = judge.post(url, {"purpose": "draw", "draw-dice": "0,7"}, HTTP_HX_REQUEST="true")
    assert "die 1 is 0, die 2 is 7, which a d6 cannot show" in bad.content.decode()
    mixed = judge.post(url, {"purpose": "draw", "draw-dice": "3,7,x"}, HTTP_HX_REQUEST="true")
    line = mixed.content.decode()
    assert "die 2 is 7, which a d6 cannot show" in line
    assert "die 3 is “x”, which is not a whole number" in line
    initiative = judge.post(url, {"purpose": "initiative", "initiative-dice": "3,3,1"})
    assert "2 d6 for initiative (re-roll 1), one each, in this order:" in (
        initiative.content.decode()
    )
    assert judge.post(url, {"purpose": "nothing"}).status_code == 400


def test_a_refused_draw_names_every_bad_die_and_the_squad_by_name(judge, world):
    everyone_wants_the_same(world)
    url = reverse("tournaments:judge_draw", args=[world.session.pk])
    data = {"draw-mode": "physical", "draw-version": world.session.version}
    refused = judge.post(url, {**data, "draw-dice": "0,7"})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "die 1 is 0, die 2 is 7, which a d6 cannot show" in page
    assert "autofocus" in page.split('name="draw-dice"')[1][:400], "back to the dice field"
    [message] = judge.post(url, {**data, "draw-dice": "3,7,x"}).context["draw_form"].errors["dice"]
    assert message.startswith("die 2 is 7, which a d6 cannot show")
    assert "die 3 is “x”, which is not a whole number; retype them" in message
    short = judge.post(url, {**data, "draw-dice": "2,5"})
    squad = world.tournament.squads.order_by("order").first()
    message = short.context["draw_form"].errors["dice"][0]
    assert f"choice 1: {squad.name}" in message and squad.slug not in message


def test_a_mistyped_draw_is_done_again_as_a_new_version_keeping_the_first(judge, world):
    everyone_wants_the_same(world)
    draw = reverse("tournaments:judge_draw", args=[world.session.pk])
    typed = {"draw-mode": "physical", "draw-dice": "6,3,5,2,4"}
    assert judge.post(draw, {**typed, "draw-version": world.session.version}).status_code == 302
    world.session.refresh_from_db()
    before = {s.player_id: s.squad.slug for s in seats_of(world.session)}
    first_rolls = set(DiceRoll.objects.filter(session=world.session).values_list("pk", flat=True))

    redraw = reverse("tournaments:judge_redraw", args=[world.session.pk])
    again = {
        "redraw-mode": "physical",
        "redraw-dice": "3,6,5,2,4",
        "redraw-version": world.session.version,
    }
    refused = judge.post(redraw, again)
    assert refused.status_code == 400, "a reason is needed"
    assert "redraw_form" in refused.context and refused.context["redraw_form"].errors["reason"]
    saved = judge.post(redraw, {**again, "redraw-reason": "die 1 was a 3, not a 6"})
    assert saved.status_code == 302
    after = {s.player_id: s.squad.slug for s in seats_of(world.session)}
    assert after != before
    entry = ActivityLog.objects.get(verb=ActivityVerb.REDREW_SQUADS)
    assert entry.details["reason"] == "die 1 was a 3, not a 6"
    assert entry.details["previous"] == {str(k): v for k, v in before.items()}
    assert entry.details["assignments"] == {str(k): v for k, v in after.items()}
    assert set(DiceRoll.objects.filter(pk__in=first_rolls).values_list("pk", flat=True)) == (
        first_rolls
    ), "the first draw's dice stay on record"
    seats = seats_of(world.session)
    logged = dice_log(world.session, seats)
    assert [row.replaced for row in logged.own] == [True] * 5 + [False] * 5
    assert logged.games == []
    versions = draw_versions(world.session, seats)
    assert [(v.number, v.current, v.reason) for v in versions] == [
        (1, False, ""),
        (2, True, "die 1 was a 3, not a 6"),
    ]
    page = judge.get(sheet_url(world)).content.decode()
    assert "Versions of the squad draw" in page and "replaced by a later draw" in page
    assert "done again because: die 1 was a 3, not a 6" in page


def test_a_draw_is_not_done_again_without_a_reason_a_draw_or_once_scored(world):
    session = world.session
    with pytest.raises(SetupError, match="not drawn yet"):
        redo_squad_draw(
            session, SeededDice(seed=1), reason="x", actor=None, expected_version=session.version
        )
    draw_squads(session, SeededDice(seed=1), expected_version=session.version)
    session.refresh_from_db()
    with pytest.raises(SetupError, match="Say why"):
        redo_squad_draw(
            session, SeededDice(seed=2), reason=" ", actor=None, expected_version=session.version
        )
    with pytest.raises(StaleSessionError):
        redo_squad_draw(session, SeededDice(seed=2), reason="typo", actor=None, expected_version=1)
    seats = [str(seat.player_id) for seat in seats_of(session)]
    record_result(session, [{"seat": seat} for seat in seats], survivors=seats)
    session.refresh_from_db()
    with pytest.raises(SetupError, match="has a result"):
        redo_squad_draw(
            session, SeededDice(seed=2), reason="typo", actor=None, expected_version=session.version
        )


def test_from_the_second_stage_the_sheet_says_which_squad_each_player_keeps(client):
    """Before the draw each player "keeps" the squad they held, unless two held it; once
    drawn (QA: the sheet still said "keeps" a squad the draw had given another) it says
    what they held."""
    call_command("load_demo", stdout=StringIO())
    pending = Session.objects.get(stage__tournament__slug=DEMO_SLUG, stage__number=2, number=2)
    client.force_login(pending.judge)
    url = reverse("tournaments:judge_session", args=[pending.pk])
    earlier = {
        seat.player_id: seat.squad.name
        for seat in Seat.objects.filter(
            session__stage__number=1, player__seats__session=pending
        ).select_related("squad")
    }
    assert len(earlier) == 3
    drawn = client.get(url).content.decode()  # the demo's semifinal is drawn
    assert "unless two players held it" not in drawn
    for squad in earlier.values():
        assert f"held {squad} in the previous session" in drawn
    Seat.objects.filter(session=pending).update(squad=None)
    undrawn = client.get(url).content.decode()
    for squad in earlier.values():
        assert f"keeps {squad} from the previous session, unless two players held it" in undrawn
