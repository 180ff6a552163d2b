"""Stored dice keep their purpose as a code with params and read in the reader's language;
rows without a code (free text, rows stored before the codes) show their stored text."""

import pytest
from django.utils import translation

from rules.engine.dice import DiceError, DieKind, ScriptedDice, SeededDice
from rules.engine.narration_dice import PURPOSES as ENGINE_PURPOSES
from tests.factories import TournamentFactory
from tests.i18n_support import add_translations
from tournaments.actions.dice_records import record_dice
from tournaments.domain.draw import DrawPlayer, squad_draw
from tournaments.domain.initiative import roll_initiative
from tournaments.domain.progression import Qualifier, best_runner_up, seat_stage
from tournaments.domain.ranking import SeatResult, SessionRanking, StipulationKind, rank_session
from tournaments.domain.roll_purposes import (
    TOURNAMENT_PURPOSES,
    coded_purpose,
    purpose_label,
    roll_purpose_label,
    tournament_purpose,
)
from tournaments.domain.typed_dice import TypedDice
from tournaments.models import DiceRoll

pytestmark = pytest.mark.django_db

UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"

#: Italian entries for the tournament's purposes (the lead adds them to locale/it).
ITALIAN = {
    "initiative": "iniziativa",
    "squad draw, choice %(choice)d: %(squad)s": (
        "sorteggio delle squadre, scelta %(choice)d: %(squad)s"
    ),
    "squad draw, leftover squads": "sorteggio delle squadre, squadre rimaste",
    "best runners-up: tie on %(points)d points": "migliori secondi: parità a %(points)d punti",
    "session ranking: tie for position %(position)d": (
        "classifica della sessione: parità per la posizione %(position)d"
    ),
    "%(ranking)s: tie for position %(position)d": (
        "%(ranking)s: parità per la posizione %(position)d"
    ),
    "random seating": "posti a sorte",
    "%(purpose)s, %(player)s’s die": "%(purpose)s, dado di %(player)s",
    "%(purpose)s (re-roll %(reroll)d)": "%(purpose)s (nuovo tiro %(reroll)d)",
}

SAMPLE_PARAMS = {
    "squad_retention": {"squad": BA},
    "squad_choice": {"choice": 2, "squad": UM},
    "best_winners_tie": {"points": 40},
    "best_runners_up_tie": {"points": -5},
    "best_thirds_tie": {"points": 0},
    "best_in_position_tie": {"position": 4, "points": 12},
    "seeding_tie": {"seed": 3},
    "session_ranking_tie": {"position": 2},
    "ranking_tie": {"ranking": "Coppa – Preliminary (1) – session 2", "position": 1},
}


@pytest.fixture
def italian(monkeypatch):
    add_translations(monkeypatch, "it", ITALIAN)
    with translation.override("it"):
        yield


@pytest.mark.parametrize("code", list(TOURNAMENT_PURPOSES))
def test_every_tournament_purpose_is_read_back_from_its_text(code):
    params = SAMPLE_PARAMS.get(code, {})
    text = tournament_purpose(code, **params)
    assert coded_purpose(text, {}) == (code, params)
    assert coded_purpose(f"{text} (re-roll 2)", {}) == (code, {**params, "reroll": 2})


def test_tournament_codes_are_not_engine_codes():
    assert not set(TOURNAMENT_PURPOSES) & set(ENGINE_PURPOSES)


def test_engine_codes_keep_their_params_and_free_text_has_no_code():
    params = {"attacker": "ork-1", "defender": "p1-m1"}
    assert coded_purpose("hand_to_hand_attack", params) == ("hand_to_hand_attack", params)
    assert coded_purpose("shooting", {}) == ("", {})
    assert coded_purpose("shooting (re-roll 1)", {}) == ("", {})
    # A number written unlike the template writes it is not this code's text.
    assert coded_purpose("seeding: tie for seed 03", {}) == ("", {})


def test_labels_follow_the_active_language(italian):
    assert purpose_label("squad_choice", {"choice": 1, "squad": BA}, "x") == (
        "sorteggio delle squadre, scelta 1: blood-angels"
    )
    assert purpose_label("best_runners_up_tie", {"points": 30, "reroll": 1}, "x") == (
        "migliori secondi: parità a 30 punti (nuovo tiro 1)"
    )
    assert purpose_label(
        "shot", {"attacker": "o1", "weapon": "lascannon", "target": "a1"}, "x"
    ) == ("o1 spara con cannone laser a a1")
    with translation.override("en"):
        assert purpose_label("squad_choice", {"choice": 1, "squad": BA}, "x") == (
            "squad draw, choice 1: blood-angels"
        )
        assert purpose_label("hand_to_hand_attack", {"attacker": "o1", "defender": "m"}, "x") == (
            "hand-to-hand: o1 attacks m"
        )


def test_no_code_unknown_code_or_unfit_params_show_the_stored_text(italian):
    assert purpose_label("", {}, "shooting") == "shooting"
    assert purpose_label("from_a_newer_bob", {"a": 1}, "what it was") == "what it was"
    assert purpose_label("squad_choice", {"squad": BA}, "squad draw, choice 1: x") == (
        "squad draw, choice 1: x"
    )
    assert purpose_label("seeding_tie", {"seed": "three"}, "seeding: tie") == "seeding: tie"


def _stored(dice) -> list[DiceRoll]:
    record_dice(dice, tournament=TournamentFactory())
    return list(DiceRoll.objects.order_by("sequence"))


def test_a_contested_squad_draw_is_stored_with_codes(italian):
    players = [DrawPlayer("1", (BA, UM)), DrawPlayer("2", (BA, UM)), DrawPlayer("3", ())]
    dice = ScriptedDice(values=[4, 4, 6, 2])
    assert squad_draw([UM, BA, IF], players, dice).assignments == {"1": BA, "2": UM, "3": IF}
    rows = _stored(dice)
    assert [(row.purpose_code, row.purpose_params) for row in rows] == [
        ("squad_choice", {"choice": 1, "squad": BA}),
        ("squad_choice", {"choice": 1, "squad": BA}),
        ("squad_choice", {"choice": 1, "squad": BA, "reroll": 1}),
        ("squad_choice", {"choice": 1, "squad": BA, "reroll": 1}),
    ]
    # The English text stays as it was written; the label follows the language.
    assert rows[2].purpose == "squad draw, choice 1: blood-angels (re-roll 1)"
    assert (
        roll_purpose_label(rows[2])
        == "sorteggio delle squadre, scelta 1: blood-angels (nuovo tiro 1)"
    )
    assert str(rows[0]) == "squad draw, choice 1: blood-angels: d6 [4]"


def test_initiative_ranking_and_seating_roll_offs_are_stored_with_codes(italian):
    dice = ScriptedDice(values=[5, 5, 1, 6, 3, 3, 2, 1, 2, 6, 4, 1])
    roll_initiative(["a", "b"], dice)
    results = [SeatResult("a", 10), SeatResult("b", 10)]
    rank_session(StipulationKind.ALIEN_HUNT, results, dice=dice, purpose="Final – session 1")
    seat_stage([Qualifier(p, p, 1, 0) for p in "abcd"], (2, 2), "random", dice)
    labels = [(row.purpose_code, roll_purpose_label(row)) for row in _stored(dice)]
    assert labels == [
        ("initiative", "iniziativa"),
        ("initiative", "iniziativa"),
        ("initiative", "iniziativa (nuovo tiro 1)"),
        ("initiative", "iniziativa (nuovo tiro 1)"),
        ("ranking_tie", "Final – session 1: parità per la posizione 1"),
        ("ranking_tie", "Final – session 1: parità per la posizione 1"),
        ("ranking_tie", "Final – session 1: parità per la posizione 1 (nuovo tiro 1)"),
        ("ranking_tie", "Final – session 1: parità per la posizione 1 (nuovo tiro 1)"),
        ("random_seating", "posti a sorte"),
        ("random_seating", "posti a sorte"),
        ("random_seating", "posti a sorte"),
        ("random_seating", "posti a sorte"),
    ]


def test_a_session_ranking_tie_reads_in_the_readers_language(italian):
    dice = ScriptedDice(values=[2, 5])
    rank_session(StipulationKind.ALIEN_HUNT, [SeatResult("a", 10), SeatResult("b", 10)], dice)
    labels = [(row.purpose_code, roll_purpose_label(row)) for row in _stored(dice)]
    tie = ("session_ranking_tie", "classifica della sessione: parità per la posizione 1")
    assert labels == [tie, tie]


def test_a_qualifier_tie_is_stored_with_its_code(italian):
    def ranking(*seats):
        order = [SeatResult(seat, points) for seat, points in seats]
        return rank_session(StipulationKind.ALIEN_HUNT, order)

    rankings: dict[str, SessionRanking] = {
        "s1": ranking(("a1", 50), ("a2", 30)),
        "s2": ranking(("b1", 60), ("b2", 30)),
    }
    dice = SeededDice(seed=1)
    best_runner_up(rankings, dice)
    row = _stored(dice)[0]
    assert (row.purpose_code, row.purpose_params) == ("best_runners_up_tie", {"points": 30})
    assert roll_purpose_label(row) == "migliori secondi: parità a 30 punti"


def test_engine_rolls_are_stored_with_their_code_and_params(italian):
    dice = SeededDice(seed=3)
    params = {"attacker": "ork-1", "defender": "p1-m1"}
    dice.roll(DieKind.WHITE, 2, "hand_to_hand_attack", "ork-1", params)
    row = _stored(dice)[0]
    assert (row.purpose_code, row.purpose_params) == ("hand_to_hand_attack", params)
    assert row.purpose == "hand-to-hand: ork-1 attacks p1-m1"
    assert roll_purpose_label(row) == "corpo a corpo: ork-1 attacca p1-m1"


def test_an_old_row_without_a_code_shows_its_text(italian):
    row = DiceRoll.objects.create(
        tournament=TournamentFactory(),
        sequence=0,
        purpose="squad draw, choice 1: blood-angels",
        kind="d6",
        values=[3],
        source="seeded",
    )
    row.refresh_from_db()
    assert (row.purpose_code, row.purpose_params) == ("", {})
    assert roll_purpose_label(row) == "squad draw, choice 1: blood-angels"


def test_a_missing_typed_die_names_its_purpose_in_the_active_language(italian):
    players = [DrawPlayer("1", (BA,)), DrawPlayer("2", (BA,))]
    with pytest.raises(DiceError) as caught:
        squad_draw([UM, BA], players, TypedDice(values=[3]))
    assert "sorteggio delle squadre, scelta 1: blood-angels" in str(caught.value)
    assert "squad draw" not in str(caught.value)


def test_a_missing_typed_die_says_whose_it_is(italian):
    results = [SeatResult("3", 10), SeatResult("7", 10)]
    dice = TypedDice(values=[4], subjects={"3": "Luca", "7": "Giulia"})
    with pytest.raises(DiceError) as error:
        rank_session(StipulationKind.ALIEN_HUNT, results, dice)
    assert "classifica della sessione: parità per la posizione 1" in str(error.value)
    assert "Giulia" in str(error.value) and "Luca" not in str(error.value)
    # Without names (or for a figure of the board game) the purpose alone is given.
    with pytest.raises(DiceError) as error:
        rank_session(StipulationKind.ALIEN_HUNT, results, TypedDice(values=[4]))
    assert "Giulia" not in str(error.value) and "per la posizione 1)" in str(error.value)
