"""The engine's texts name players and figures by ids unless a caller installs names: the
players' names, the labels drawn on the aliens, and a line weapon's aim in words."""

from __future__ import annotations

from rules.engine.naming import Naming, named
from rules.engine.narration import render

CHOSEN = {
    "figure": "ork-blip-18-12",
    "target": "-1,0",
    "weapon": "plasma_gun",
    "square": [17, 11],
    "points": 1.0,
    "life_points": 2.0,
}
TABLE = Naming(
    players={"p3": "Valchiria"}, figure_labels={"ork-blip-18-12": "Or3"}, aims_in_words=True
)


def test_the_engine_alone_keeps_the_ids():
    assert render("game_over", {"ending": "rounds", "winners": ["p3"]}, "en").endswith(
        "Winner: p3."
    )
    assert render("attack_chosen", CHOSEN, "it").startswith("ork-blip-18-12 attacca -1,0 ")


def test_a_caller_names_the_players_and_labels_the_figures():
    with named(TABLE):
        over = render("game_over", {"ending": "rounds", "winners": ["p3"]}, "it")
        ranking = render("tpk_ranking", {"ranking": ["p3", "p9"]}, "en")
        chosen = render("attack_chosen", CHOSEN, "it")
        blast = render("attack_chosen", {**CHOSEN, "weapon": "missile_launcher"}, "en")
    assert over.endswith("Vince: Valchiria.")
    assert ranking == "Placings: Valchiria, p9."  # an unknown player keeps their id
    assert chosen.startswith("Or3 · ork-blip-18-12 attacca verso sinistra (fucile al plasma)")
    assert "attacks -1,0 with" in blast  # a blast's aim is a square, not a direction
