"""Every line of the board's history names a figure as the rest of the board does (an alien
by its board label with its id, ``Or1 · o1``; a marine by its player and kind with its id),
whatever step it died in: a figure gone before the page's last two states is named by the
states the history's own steps stood in (:func:`table.catalogue_words.history_labels`),
not by its bare id."""

from __future__ import annotations

import re

import pytest

from table.actions import latest_snapshot, snapshot_state
from tests.table.conftest import client_for, figure_name, fresh_turn, url
from tests.table.test_card_rerolls import attack, fight_choice, ork_next_to_commander

pytestmark = pytest.mark.django_db


def _history(judge, game, lang: str) -> list[str]:
    """The history's step lines as text, newest first."""
    page = judge.get(url("board", game), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    table = page.split('class="history"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>\s*<td class=\"num\">\d+</td>\s*<td>(.*?)</td>", table, re.S)
    return [re.sub(r"<[^>]+>", "", row).replace("&#x27;", "'").strip() for row in rows]


def _remove(judge, game, figure: str) -> None:
    data = {
        "remove-figure": figure,
        "remove-why": "dead",
        "remove-reason": "fell down a shaft",
        "remove-version": latest_snapshot(game).number,
    }
    assert judge.post(url("remove", game), data).status_code == 302


@pytest.mark.parametrize(
    ("lang", "removed"), [("en", "{name} removed: dead."), ("it", "{name} rimosso: morto.")]
)
def test_an_alien_removed_long_ago_keeps_its_label_in_the_history(game, table, lang, removed):
    judge = client_for(table.judge)
    ork_next_to_commander(game, ())
    _remove(judge, game, "o1")
    _remove(judge, game, "p3-m1")
    for _ in range(3):  # the removals fall out of the page's last two states
        fresh_turn(game)
    lines = _history(judge, game, lang)
    assert any(removed.format(name="Or1 · o1") in line for line in lines), lines
    marine = figure_name(game, "p3-m1", lang)
    assert marine != "p3-m1"
    assert any(removed.format(name=marine) in line for line in lines), lines
    assert not any(": " + removed.format(name="o1") in line for line in lines), lines


@pytest.mark.parametrize(
    ("lang", "fights"),
    [("en", "fights Or1 · o1 hand-to-hand"), ("it", "corpo a corpo con Or1 · o1 (")],
)
def test_an_alien_killed_in_a_fight_long_ago_keeps_its_label_in_the_history(
    game, table, lang, fights
):
    judge = client_for(table.judge)
    state = ork_next_to_commander(game, ())
    # The commander's white dice show 2 and 2, the ork's 0 and 0: the ork dies.
    assert attack(judge, game, fight_choice(state), "2,2,0,0").status_code == 302
    assert not snapshot_state(latest_snapshot(game)).has_figure("o1")
    for _ in range(3):  # the fight falls out of the page's last two states
        fresh_turn(game)
    fight = next(line for line in _history(judge, game, lang) if "p1-cmd" in line)
    assert fights in fight, fight
