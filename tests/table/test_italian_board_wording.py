"""The board's Italian texts read as Italian (a judge's QA pass on a phone): a card whose
name ends with "!" ends its sentence in the log with no "." after it ("Nova gioca Fuoco!"),
the odds of destroying a target are worded for a door (feminine) as for a marine, and the
refusals of the dice typed start with a capital letter, as every error on the board does.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.engine.dice import DiceError, DieKind
from rules.engine.naming import Naming, named
from table.actions import latest_snapshot
from table.models import Snapshot
from table.snapshot_summaries import part_text, snapshot_summary
from table.turn_actions import play_card
from tests.table.test_turn_views import first_player_holding
from tournaments.domain.typed_dice import TypedDice, make_dice

pytestmark = pytest.mark.django_db


def read(snapshot: Snapshot, language: str) -> str:
    with translation.override(language):
        return snapshot_summary(Snapshot.objects.get(pk=snapshot.pk))


@pytest.mark.parametrize(("language", "played"), [("it", "gioca Fuoco!"), ("en", "plays Fire!")])
def test_a_card_named_with_an_exclamation_mark_gets_no_full_stop_after_it(table, language, played):
    game = first_player_holding(table, ["fire"], [])
    snapshot = play_card(game, "fire", expected_number=latest_snapshot(game).number)

    summary = read(snapshot, language)
    assert played in summary
    assert "!." not in summary


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("medi_kit", "p1 gioca Pronto Soccorso."),  # no mark of its own: the full stop stays
        ("by_section", "p1 gioca All'Attacco!"),
    ],
)
def test_a_card_played_ends_its_sentence_once(card, expected):
    with translation.override("it"):
        assert part_text("card_played", {"player": "p1", "card": card}) == expected


def test_a_card_name_ending_with_a_question_mark_takes_no_full_stop_either():
    chapter = {"fire": {"it": "Fuoco?", "en": "Fire?"}}
    with named(Naming(chapter_cards=chapter)), translation.override("it"):
        assert part_text("card_played", {"player": "p1", "card": "fire"}) == "p1 gioca Fuoco?"


@pytest.mark.parametrize(
    "msgid",
    [
        "{target}: destroyed with probability {percent}",
        "%(name)s (%(lp)s LP): expected loss %(expected)s, destroyed with probability %(percent)s",
    ],
)
def test_the_italian_odds_are_worded_for_a_door_as_for_a_marine(msgid):
    with translation.override("it"):
        text = translation.gettext(msgid)
    assert "probabilità di distruzione" in text
    assert "distrutto" not in text and "distrutta" not in text


def test_a_die_its_kind_cannot_show_is_refused_with_a_capital_letter():
    with translation.override("it"), pytest.raises(DiceError) as refused:
        TypedDice(values=[7]).roll(DieKind.D6)
    assert str(refused.value).startswith("Il dado 1 vale 7, che un d6 non può mostrare")


@pytest.mark.parametrize("purpose", ["", "initiative"])
def test_missing_dice_are_refused_with_a_capital_letter(purpose):
    with translation.override("it"), pytest.raises(DiceError) as refused:
        TypedDice(values=[3]).roll(DieKind.D6, 2, purpose)
    assert str(refused.value).startswith("Mancano dadi: serve il 2º dado")


@pytest.mark.parametrize(
    ("typed", "seed", "start"),
    [
        ("", None, "Non è stato indicato nessun valore"),
        ("3", 1, "Indica i valori dei dadi oppure un seme"),
        (None, -1, "Il seme deve essere"),
    ],
)
def test_other_refusals_of_typed_dice_start_with_a_capital_letter(typed, seed, start):
    with translation.override("it"), pytest.raises(DiceError) as refused:
        make_dice(typed, seed)
    assert str(refused.value).startswith(start)
