"""Stored loadouts are checked by the pure loadout rules with the tournament's own data."""

import pytest
from django.forms.models import model_to_dict

from rules.engine.dice import SeededDice
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance, start_tournament
from tournaments.actions.tournament_setup import install_catalogue
from tournaments.admin import LoadoutAdminForm
from tournaments.domain.catalogue import DEFAULT_CATALOGUE
from tournaments.forms.loadout import allowance_for
from tournaments.models import (
    ChapterCard,
    Loadout,
    ScoreBonus,
    ScoreThreshold,
    Seat,
    SquadRank,
    Stipulation,
    Weapon,
)
from tournaments.queries.loadout_checks import card_bonuses, loadout_problems
from tournaments.queries.tournament_catalogue import tournament_catalogue

pytestmark = pytest.mark.django_db


def equipment(squad, count):
    cards = []
    for index in range(count):
        card, _ = ChapterCard.objects.get_or_create(
            squad=squad,
            slug=f"kit-{index}",
            defaults={"name_en": f"Kit {index}", "name_it": f"Kit {index}", "kind": "equipment"},
        )
        cards.append(card.slug)
    return cards


@pytest.fixture
def seat(final_session):
    install_catalogue(final_session.stage.tournament)
    Stipulation.objects.create(session=final_session, kind="tpk", params={})
    return final_session.seats.select_related("squad").first()


def valid(seat, **changes):
    data = {
        "seat": seat,
        "commander_combo": "bolter",
        "marine_weapons": ["plasma-gun", "laser-rifle", "laser-rifle", "missile-launcher"],
        "order_cards": ["move-it"],
        "equipment_cards": equipment(seat.squad, 4),
    }
    data.update(changes)
    return Loadout(**data)


def test_catalogue_round_trip_and_idempotent_install():
    tournament = TournamentFactory(squads=False)
    install_catalogue(tournament)
    install_catalogue(tournament)
    catalogue = tournament_catalogue(tournament)
    assert [s.slug for s in catalogue.squads] == [s.slug for s in DEFAULT_CATALOGUE.squads]
    assert {w.slug for w in catalogue.weapons} == {w.slug for w in DEFAULT_CATALOGUE.weapons}
    assert len(catalogue.cards) == len(DEFAULT_CATALOGUE.cards)
    assert Weapon.objects.get(tournament=tournament, slug="melta").colour_restricted is False
    assert tournament.squads.get(slug="blood-angels").name_it == "Angeli Sanguinari"


def test_a_tournament_without_weapons_or_cards_of_its_own_uses_the_defaults():
    tournament = TournamentFactory()
    tournament.weapons.all().delete()
    ChapterCard.objects.filter(squad__tournament=tournament).delete()
    catalogue = tournament_catalogue(tournament)
    assert catalogue.weapons == DEFAULT_CATALOGUE.weapons
    assert catalogue.cards == DEFAULT_CATALOGUE.cards
    assert [s.slug for s in catalogue.squads] == [s.slug for s in DEFAULT_CATALOGUE.squads]


def test_the_stored_checks_read_the_default_weapons_as_the_form_does(seat):
    Weapon.objects.filter(tournament=seat.session.stage.tournament).delete()
    assert loadout_problems(valid(seat)) == {}


def admin_form(loadout: Loadout) -> LoadoutAdminForm:
    """The admin's form for ``loadout`` as it stands (the one place besides the player's page
    where a loadout is edited)."""
    return LoadoutAdminForm(data=model_to_dict(loadout), instance=loadout)


def test_a_valid_loadout_passes(seat):
    loadout = valid(seat)
    assert loadout_problems(loadout) == {}
    assert admin_form(loadout).is_valid()


def test_problems_are_reported_per_field(seat):
    loadout = valid(seat, marine_weapons=["plasma-gun", "plasma-gun", "laser-rifle", "bolter"])
    problems = loadout_problems(loadout)
    assert set(problems) == {"marine_weapons"}
    form = admin_form(loadout)
    assert not form.is_valid() and form.non_field_errors()


def test_rank_and_score_bonus_raise_the_card_allowance(seat):
    SquadRank.objects.update_or_create(
        tournament=seat.session.stage.tournament, player=seat.player, defaults={"rank": 1}
    )
    assert "order_cards" in loadout_problems(valid(seat))
    assert loadout_problems(valid(seat, order_cards=["move-it", "fire"])) == {}
    ScoreBonus.objects.create(
        tournament=seat.session.stage.tournament,
        player=seat.player,
        earned_in=seat.session,
        used_in=seat.session,
        extra_equipment_cards=1,
    )
    assert "equipment_cards" in loadout_problems(valid(seat, order_cards=["move-it", "fire"]))
    five = equipment(seat.squad, 5)
    orders = ["move-it", "fire"]
    assert loadout_problems(valid(seat, order_cards=orders, equipment_cards=five)) == {}


def test_the_players_form_gives_a_score_bonus_in_the_next_session_only():
    """RULES §9: a threshold reached in the preliminary gives +1 equipment card in the
    semifinal only; in the final (none reached in the semifinal) the player's form asks for
    4 again, as the judge's checks do."""
    tournament = TournamentFactory(seating_method="seeded")
    players = register_players(tournament, 9)
    start_tournament(tournament, SeededDice(seed=1))
    first = tournament.stages.get(number=1)
    ScoreThreshold.objects.create(stage=first, points=50)
    top = max(player.pk for player in players)
    # The others score 10-19 (distinct in a session of players registered one after the
    # other, under the threshold whatever the database numbers them from).
    confirm_stage(first, lambda seat: 100 if seat.player_id == top else 10 + seat.player_id % 10)
    advance(tournament, SeededDice(seed=2))
    semifinal = Seat.objects.get(session__stage__number=2, player_id=top)
    assert allowance_for(semifinal).thresholds_reached == 1
    confirm_stage(semifinal.session.stage, lambda seat: 40 if seat.player_id == top else 1)
    advance(tournament, SeededDice(seed=3))
    final = Seat.objects.get(session__stage__number=3, player_id=top)
    assert card_bonuses(final) == (2, 0)
    assert allowance_for(final).thresholds_reached == 0


def test_extended_tpk_needs_two_extra_heavy_marines(seat):
    seat.session.stipulation.kind = "extended_tpk"
    seat.session.stipulation.save()
    assert "extra_marine_weapons" in loadout_problems(valid(seat))
    assert loadout_problems(valid(seat, extra_marine_weapons=["melta", "lascannon"])) == {}


def test_loadout_before_the_squad_draw_is_refused(seat):
    loadout = valid(seat)
    seat.squad = None
    assert "__all__" in loadout_problems(loadout)
