"""What keeps a squad from every legal loadout of RULES §5 once the catalogue's weapons are
changed (decision 47), and the loadout's messages naming the catalogue's own weapons."""

from dataclasses import replace

from django.utils import translation

from tournaments.domain.catalogue import DEFAULT_CATALOGUE, WeaponClass
from tournaments.domain.loadout import Loadout, loadout_blockers, validate_loadout


def with_classes(**classes: WeaponClass):
    """The default catalogue with some weapons (by slug, dashes as underscores) of
    another class."""
    weapons = tuple(
        replace(
            weapon, weapon_class=classes.get(weapon.slug.replace("-", "_"), weapon.weapon_class)
        )
        for weapon in DEFAULT_CATALOGUE.weapons
    )
    return replace(DEFAULT_CATALOGUE, weapons=weapons)


LIGHT, HEAVY, EXTRA = WeaponClass.LIGHT, WeaponClass.HEAVY, WeaponClass.EXTRA_HEAVY


def test_the_default_catalogue_lets_every_squad_build_a_loadout():
    assert loadout_blockers(DEFAULT_CATALOGUE) == ()


def test_no_heavy_weapon_left_blocks_every_squad():
    catalogue = with_classes(assault_cannon=LIGHT, missile_launcher=LIGHT, plasma_gun=LIGHT)
    with translation.override("en"):
        blockers = loadout_blockers(catalogue)
    assert blockers == (
        "Ultramarines, Blood Angels, Imperial Fists: no weapon the marines may take is a "
        "heavy weapon any more, and at least one marine must carry one.",
    )


def test_one_heavy_weapon_is_enough():
    assert loadout_blockers(with_classes(assault_cannon=LIGHT, missile_launcher=LIGHT)) == ()


def test_a_laser_rifle_of_the_heavy_class_blocks_the_rifle_rule():
    with translation.override("en"):
        blockers = loadout_blockers(with_classes(laser_rifle=HEAVY))
    assert blockers[0] == (
        "Ultramarines, Blood Angels, Imperial Fists: the marines could no longer carry the "
        "Laser rifle (a light weapon of their colour), and at least one must."
    )


def test_extra_heavy_weapons_for_extended_tpk_and_the_commanders_combos():
    with translation.override("en"):
        extra = loadout_blockers(
            with_classes(lascannon=HEAVY, melta=HEAVY, conversion_beamer=HEAVY)
        )
        commander = loadout_blockers(with_classes(power_axe=EXTRA, bolter=EXTRA, power_sword=EXTRA))
    assert "Extended TPK gives each squad two marines with extra-heavy weapons" in extra[0]
    assert commander[0].startswith(
        "Ultramarines, Blood Angels, Imperial Fists: the commander could take none of his combos"
    )


def test_the_heavy_weapon_message_names_the_catalogues_weapons():
    catalogue = with_classes(missile_launcher=LIGHT)
    no_heavy = Loadout(
        "ultramarines", "bolter", ("laser-rifle",) * 4, order_cards=(), equipment_cards=()
    )
    with translation.override("en"):
        messages = [
            p.message for p in validate_loadout(no_heavy, catalogue) if p.code == "no_heavy_weapon"
        ]
    assert messages == [
        "At least one marine must carry a heavy weapon: Assault cannon, Plasma gun."
    ]
    with translation.override("it"):
        (message,) = [
            p.message
            for p in validate_loadout(
                no_heavy, with_classes(missile_launcher=LIGHT, plasma_gun=LIGHT)
            )
            if p.code == "no_heavy_weapon"
        ]
    assert "Cannone d'assalto" in message and "Lanciarazzi" not in message


def test_without_any_heavy_weapon_the_loadout_says_to_ask_the_organiser():
    catalogue = with_classes(assault_cannon=LIGHT, missile_launcher=LIGHT, plasma_gun=LIGHT)
    no_heavy = Loadout("ultramarines", "bolter", ("laser-rifle",) * 4)
    with translation.override("en"):
        (problem,) = [
            p for p in validate_loadout(no_heavy, catalogue) if p.code == "no_heavy_weapon"
        ]
    assert "has none Ultramarines may take: ask the organiser" in problem.message
