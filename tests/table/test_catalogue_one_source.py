"""One source of truth per catalogue value, from the organiser's edit to every reader: the
board, the result it proposes, the scoring and the plausibility checks read the same value
(the catalogue's audit)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from rules.engine.state import rules_of
from table.actions import create_game, latest_snapshot, snapshot_state
from table.result_from_game import marine_class, propose_result
from tests.factories import TournamentFactory
from tests.table.test_result_from_game import (
    arranged,
    attack,
    by_seat,
    current,
    player_id,
    predator_in_sight,
)
from tournaments.actions.catalogue_edits import (
    CatalogueEditError,
    save_weapon,
)
from tournaments.actions.house_rules_edits import HouseRulesError, save_house_rules
from tournaments.actions.result_entry import record_result
from tournaments.actions.session_settings import set_stipulation
from tournaments.domain.house_rules import override_problems
from tournaments.domain.scoring import AlienTokens, MarineClass, score_session
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import import_document
from tournaments.interchange.problems import InterchangeError
from tournaments.models import Loadout, Session, Stipulation
from tournaments.queries.result_versions import scoring_values
from tournaments.sheets.seats import session_seats

pytestmark = pytest.mark.django_db


def test_the_boards_kill_scores_are_the_tournaments_point_values(table):
    """RULES §7 point values edited on the house rules page (``scoring``) score a kill on
    the board as they score the result the board proposes: one value, not the engine's
    shipped 5 beside the tournament's 7."""
    tournament = table.tournament
    save_house_rules(
        tournament, {"scoring": {"light": 7}}, expected_version=None, actor=table.organiser
    )
    game = arranged(table, {"p1-m4": (4, 2), "p2-m1": (4, 5)})
    attack(game, "p1-m4", weapon="bolter", target="p2-m1")
    assert current(game).player("p1").score == 7
    assert current(game).player("p2").score == -7
    proposal = propose_result(game, session_seats(table.session))
    tournament.refresh_from_db()
    cards = score_session(proposal.breakdowns, scoring_values(tournament))
    assert cards[player_id(table, 1)].total == current(game).player("p1").score
    other = TournamentFactory()
    assert scoring_values(other).light == 5


def test_the_point_values_have_one_place_in_the_house_rules(table):
    """The engine's own names for the §7 values would be a second place for them: refused,
    naming the place to write them."""
    problems = dict(override_problems({"marine_values": {"heavy": 12}}))
    assert "scoring" in problems[("marine_values",)]
    problems = dict(override_problems({"tarantula_destroyed": 12}))
    assert "scoring.tarantula" in problems[("tarantula_destroyed",)]


def test_the_least_dreadnought_class_value_is_not_a_house_rule(table):
    """RULES §7's least class value (25) holds the catalogue's Dreadnought classes and the
    stage form; a house minimum of 30 let them save class values of 25–29 its scoring then
    questioned. Refused, saying where each class's value is set (decision 67)."""
    problems = dict(override_problems({"scoring": {"dreadnought_min_class_value": 30}}))
    message = problems[("scoring", "dreadnought_min_class_value")]
    assert "25" in message and "catalogue" in message
    with pytest.raises(HouseRulesError):
        save_house_rules(
            table.tournament,
            {"scoring": {"dreadnought_min_class_value": 30}},
            expected_version=None,
            actor=table.organiser,
        )
    table.tournament.refresh_from_db()
    assert not table.tournament.data_overrides


def test_a_weapons_class_from_the_catalogue_is_the_class_the_board_plays(table):
    """A bolter the organiser makes a heavy weapon (Catalogue → Weapons) arms a heavy
    weapon marine on the board (its move, its worth, the class the proposed result gives
    it), as the loadout and the result form already count it."""
    Loadout.objects.filter(seat__session=table.session).delete()
    bolter = table.tournament.weapons.get(slug="bolter")
    bolter.weapon_class = "heavy"
    save_weapon(bolter, actor=table.organiser)
    first = table.session.seats.order_by("seat_order").first()
    Loadout.objects.create(
        seat=first,
        commander_combo="bolter",
        marine_weapons=["laser-rifle", "plasma-gun", "laser-rifle", "bolter"],
    )
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    state = snapshot_state(latest_snapshot(game))
    marine = state.figure("p1-m4")
    assert marine.weapons == ("bolter",)
    assert marine.unit == "heavy_weapon_marine"
    assert marine_class(state, marine, rules_of(state)) is MarineClass.HEAVY
    assert rules_of(state).marine_value(marine.unit, marine.weapons) == 10


def test_a_sessions_dreadnought_value_is_a_plausible_token(table):
    """RULES §7: the session notes' Dreadnought class value is what its token scores on the
    board, so the result the board proposes is saved, not refused as an unknown value."""
    stage = table.session.stage
    stage.stipulation_params = {
        **(stage.stipulation_params or {}),
        "dreadnought_class": "predator",
        "dreadnought_value": 40,
    }
    stage.save()
    game = predator_in_sight(table)
    attack(game, "p1-m4", target="dr-1")
    assert current(game).player("p1").score == 40
    proposal = propose_result(game, session_seats(table.session))
    assert by_seat(table, proposal)[1].alien_tokens == (AlienTokens("dreadnought", 40, 1),)
    record_result(
        table.session,
        list(proposal.breakdowns),
        survivors=list(proposal.survivors),
        actor=table.judge,
    )


def test_a_weapon_class_the_board_could_not_play_is_refused(table):
    """A Dreadnought class may mount the assault cannon, and a Dreadnought mounts only heavy
    weapons: made light in the catalogue, no game could be set up. Refused, nothing saved."""
    cannon = table.tournament.weapons.get(slug="assault-cannon")
    cannon.weapon_class = "light"
    with pytest.raises(CatalogueEditError) as refused:
        save_weapon(cannon, actor=table.organiser)
    assert "Dreadnought" in refused.value.problems["weapon_class"]
    assert table.tournament.weapons.get(slug="assault-cannon").weapon_class == "heavy"
    create_game(table.session, "hunt-derelict", "bob", actor=table.judge)


def test_a_squad_weapons_class_has_one_place(table):
    """The house rules may not give a squad weapon a class beside the catalogue's form; an
    alien's weapon has no such form and keeps its class there."""
    problems = dict(override_problems({"weapons": {"bolter": {"weapon_class": "heavy"}}}))
    assert "catalogue" in problems[("weapons", "bolter", "weapon_class")]
    assert override_problems({"weapons": {"bolter": {"shots": 2}}}) == []
    assert ("weapons", "ork_weapon", "weapon_class") not in dict(
        override_problems({"weapons": {"ork_weapon": {"weapon_class": "heavy"}}})
    )


def test_a_sessions_dreadnought_fits_the_tournaments_class(table):
    """The house rules may change what a Dreadnought class mounts (decision 48): a
    session's Dreadnought is checked against the tournament's class, not the shipped one,
    so a Malignant that mounts three weapons here may be given three, and the game arms it
    with them."""
    save_house_rules(
        table.tournament,
        {
            "dreadnought_classes": {
                "malignant": {
                    "heavy_weapons": 3,
                    "default_weapons": ["assault_cannon", "missile_launcher", "plasma_gun"],
                }
            }
        },
        expected_version=None,
        actor=table.organiser,
    )
    weapons = ["melta", "lascannon", "plasma_gun"]
    params = {"rounds": 8, "dreadnought_class": "malignant", "dreadnought_weapons": weapons}
    set_stipulation(table.session, "alien_hunt", params, actor=table.organiser)
    game = create_game(table.session, "hunt-derelict", "bob", actor=table.judge)
    rules = rules_of(snapshot_state(latest_snapshot(game)))
    assert rules.dreadnought_classes["malignant"].default_weapons == tuple(weapons)


def test_a_dreadnought_weapon_the_tournaments_class_cannot_mount_is_refused(table):
    """A Predator the house rules arm without the assault cannon cannot be given one for a
    session: refused when saved, not when the judge sets up the game."""
    choices = ["plasma_gun", "missile_launcher", "lascannon", "melta"]
    save_house_rules(
        table.tournament,
        {"dreadnought_classes": {"predator": {"weapon_choices": choices}}},
        expected_version=None,
        actor=table.organiser,
    )
    params = {
        "rounds": 8,
        "dreadnought_class": "predator",
        "dreadnought_weapons": ["assault_cannon", "missile_launcher"],
    }
    with pytest.raises(ValidationError) as refused:
        set_stipulation(table.session, "alien_hunt", params, actor=table.organiser)
    assert "assault_cannon" in " ".join(refused.value.messages)
    assert not Stipulation.objects.filter(session=table.session).exists()


def test_the_catalogues_values_survive_an_export_and_import(table):
    """A tournament's point values and weapon classes come back from its own document, and
    its imported session's game plays them."""
    save_house_rules(
        table.tournament,
        {"scoring": {"heavy": 12}},
        expected_version=None,
        actor=table.organiser,
    )
    Loadout.objects.filter(seat__session=table.session).delete()
    bolter = table.tournament.weapons.get(slug="bolter")
    bolter.weapon_class = "heavy"
    save_weapon(bolter, actor=table.organiser)
    table.tournament.refresh_from_db()
    outcome = import_document(export_tournament(table.tournament), slug="copy")
    session = Session.objects.get(stage__tournament=outcome.tournament, number=1)
    first = session.seats.order_by("seat_order").first()
    Loadout.objects.create(
        seat=first,
        commander_combo="bolter",
        marine_weapons=["laser-rifle", "plasma-gun", "laser-rifle", "bolter"],
    )
    game = create_game(session, "hunt-derelict", "bob", actor=table.judge)
    state = snapshot_state(latest_snapshot(game))
    marine = state.figure("p1-m4")
    assert marine.unit == "heavy_weapon_marine"
    assert rules_of(state).marine_value(marine.unit, marine.weapons) == 12


#: Each Dreadnought class's default weapons without the assault cannon.
_NO_CANNON = {
    "malignant": ["plasma_gun", "missile_launcher"],
    "predator": ["plasma_gun", "missile_launcher"],
    "dominator": ["melta", "missile_launcher", "plasma_gun", "lascannon"],
    "abominable": ["lascannon", "missile_launcher", "plasma_gun", "melta"],
}


def _mounted_by_predator(weapon: str | None) -> dict:
    """House rules arming the Dreadnoughts with no assault cannon, and the Predator also
    with ``weapon`` (None: nothing more)."""
    choices = ["missile_launcher", "plasma_gun", "lascannon", "melta", "conversion_beamer"]
    return {
        "dreadnought_classes": {
            name: {
                "weapon_choices": [*choices, weapon] if weapon and name == "predator" else choices,
                "default_weapons": defaults,
            }
            for name, defaults in _NO_CANNON.items()
        }
    }


def test_a_dreadnoughts_weapon_choices_are_checked_with_the_catalogues_classes(table):
    """A bolter the catalogue makes heavy may be a Dreadnought's weapon: the house rules
    checked it against the shipped (light) class and refused it (decision 69)."""
    Loadout.objects.filter(seat__session=table.session).delete()
    bolter = table.tournament.weapons.get(slug="bolter")
    bolter.weapon_class = "heavy"
    save_weapon(bolter, actor=table.organiser)
    rules = _mounted_by_predator("bolter")
    save_house_rules(table.tournament, rules, expected_version=None, actor=table.organiser)
    table.tournament.refresh_from_db()
    assert table.tournament.data_overrides == rules
    create_game(table.session, "hunt-derelict", "bob", actor=table.judge)


def test_a_weapon_the_catalogue_makes_light_is_no_dreadnoughts_choice(table):
    """An assault cannon no class mounts may be made light in the catalogue; the house rules
    then may not mount it again (the shipped class, heavy, let them, and no game could be
    set up), on the page or in an imported document."""
    unmounted = _mounted_by_predator(None)
    save_house_rules(table.tournament, unmounted, expected_version=None, actor=table.organiser)
    cannon = table.tournament.weapons.get(slug="assault-cannon")
    cannon.weapon_class = "light"
    save_weapon(cannon, actor=table.organiser)
    with pytest.raises(HouseRulesError) as refused:
        save_house_rules(
            table.tournament,
            _mounted_by_predator("assault_cannon"),
            expected_version=None,
            actor=table.organiser,
        )
    assert any(
        where[:2] == ("dreadnought_classes", "predator") for where, _ in refused.value.problems
    )
    table.tournament.refresh_from_db()
    assert table.tournament.data_overrides == unmounted
    document = export_tournament(table.tournament)
    document["tournament"]["data_overrides"] = _mounted_by_predator("assault_cannon")
    with pytest.raises(InterchangeError) as problems:
        import_document(document, slug="copy")
    assert any(
        ".dreadnought_classes.predator" in problem.path for problem in problems.value.problems
    )
