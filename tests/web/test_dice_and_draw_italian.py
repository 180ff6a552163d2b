"""The judge's session sheet lists the session's dice in the reader's language, and a draw
that cannot run says why in that language (judge's page and ``manage.py squad_draw``)."""

import json
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from rules.engine.dice import DieKind, SeededDice
from tests.i18n_support import add_translations
from tournaments.actions.dice_records import record_dice
from tournaments.models import DiceRoll, SquadPreference

pytestmark = pytest.mark.django_db

UNKNOWN_SQUAD = (
    "player '%(player)s' prefers unknown squad '%(squad)s'; choose among: %(known)s",
    "il giocatore '%(player)s' preferisce la squadra sconosciuta '%(squad)s'; "
    "scegli tra: %(known)s",
)


def italian_page(client, url: str) -> str:
    client.cookies["django_language"] = "it"
    return client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()


def dice_table(page: str) -> list[str]:
    """The purpose cells of the sheet's dice table, as text."""
    section = page[page.index("<h2>Dadi tirati per questa sessione</h2>") :]
    return re.findall(r"<tr><td>([^<]*)</td>", section)


@pytest.fixture
def judge(world, role_client):
    return role_client("judge")


def test_session_sheet_lists_stored_dice_in_italian(judge, world, monkeypatch):
    add_translations(
        monkeypatch,
        "it",
        {
            "squad draw, choice %(choice)d: %(squad)s": (
                "sorteggio delle squadre, scelta %(choice)d: %(squad)s"
            ),
            "%(purpose)s (re-roll %(reroll)d)": "%(purpose)s (nuovo tiro %(reroll)d)",
        },
    )
    # Everybody wants the same squads: the draw rolls off for the first choice.
    SquadPreference.objects.filter(tournament=world.tournament).update(
        choices=world.tournament.squad_order
    )
    # 1st choice: 2, 5, 5 and the tied re-roll 3, 1; 2nd choice for the other two: 6, 2.
    data = {"draw-mode": "physical", "draw-dice": "2,5,5,3,1,6,2"}
    data["draw-version"] = world.session.version
    response = judge.post(reverse("tournaments:judge_draw", args=[world.session.pk]), data)
    assert response.status_code == 302
    # An engine roll (a coded purpose) and a row stored before the codes (free text).
    dice = SeededDice(seed=9)
    params = {"attacker": "ork-1", "defender": "p1-m1"}
    dice.roll(DieKind.WHITE, 2, "hand_to_hand_attack", "ork-1", params)
    record_dice(dice, tournament=world.tournament, stage=world.stage, session=world.session)
    DiceRoll.objects.create(
        tournament=world.tournament,
        session=world.session,
        sequence=0,
        purpose="best runner-up roll-off",
        kind="d6",
        values=[4],
        source="seeded",
    )
    # Squads by their Italian names, never by slug.
    first, second = (squad.name_it for squad in world.tournament.squads.order_by("order")[:2])
    sheet = reverse("tournaments:judge_session", args=[world.session.pk])
    assert dice_table(italian_page(judge, sheet)) == [
        f"sorteggio delle squadre, scelta 1: {first}",
        f"sorteggio delle squadre, scelta 1: {first}",
        f"sorteggio delle squadre, scelta 1: {first}",
        f"sorteggio delle squadre, scelta 1: {first} (nuovo tiro 1)",
        f"sorteggio delle squadre, scelta 1: {first} (nuovo tiro 1)",
        f"sorteggio delle squadre, scelta 2: {second}",
        f"sorteggio delle squadre, scelta 2: {second}",
        "best runner-up roll-off",
        # The games' dice come after the session's own, folded away.
        "corpo a corpo: ork-1 attacca p1-m1",
    ]


def test_draw_error_reaches_the_judge_in_italian(judge, world, monkeypatch):
    add_translations(monkeypatch, "it", dict([UNKNOWN_SQUAD]))
    seat = world.session.seats.order_by("seat_order").first()
    SquadPreference.objects.filter(player=seat.player).update(choices=["space-wolves"])
    judge.cookies["django_language"] = "it"
    response = judge.post(
        reverse("tournaments:judge_draw", args=[world.session.pk]),
        {"draw-mode": "app", "draw-version": world.session.version},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        f"il giocatore &#x27;{seat.player_id}&#x27; preferisce la squadra sconosciuta "
        "&#x27;space-wolves&#x27;; scegli tra:"
    ) in page
    assert "prefers unknown squad" not in page
    assert not DiceRoll.objects.filter(session=world.session).exists()


def test_squad_draw_command_reports_a_draw_error_in_italian(tmp_path, monkeypatch):
    add_translations(monkeypatch, "it", dict([UNKNOWN_SQUAD]))
    path = tmp_path / "draw.json"
    path.write_text(
        json.dumps({"squads": ["ultramarines"], "players": [{"id": "7", "preferences": ["orks"]}]}),
        encoding="utf-8",
    )
    with translation.override("it"), pytest.raises(CommandError) as caught:
        call_command("squad_draw", "--input", str(path), "--seed", "1")
    assert str(caught.value) == (
        "il giocatore '7' preferisce la squadra sconosciuta 'orks'; scegli tra: ultramarines"
    )
