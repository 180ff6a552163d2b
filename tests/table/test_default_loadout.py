"""The board's default loadout (for a seat without one) passes the project's own loadout
rules (RULES §5), for every chapter, with a legal pick of its chapter cards."""

import pytest

from table.game_setup import DEFAULT_LOADOUT
from tournaments.domain.catalogue import ALL_CHAPTERS, COMMANDER_COMBOS, DEFAULT_CATALOGUE
from tournaments.domain.loadout import (
    Loadout,
    suggested_cards,
    suggested_targeter_marks,
    validate_loadout,
)


def catalogue_slug(engine_key: str) -> str:
    return engine_key.replace("_", "-")


@pytest.mark.parametrize("squad", ALL_CHAPTERS)
def test_the_default_loadout_is_legal(squad):
    commander = tuple(catalogue_slug(key) for key in DEFAULT_LOADOUT.commander)
    combo = next(name for name, weapons in COMMANDER_COMBOS.items() if weapons == commander)
    orders, equipment = suggested_cards(DEFAULT_CATALOGUE, squad)
    marines = tuple(catalogue_slug(w) for (w,) in DEFAULT_LOADOUT.marines)
    loadout = Loadout(
        squad=squad,
        commander_combo=combo,
        marine_weapons=marines,
        order_cards=orders,
        equipment_cards=equipment,
        targeter_marks=suggested_targeter_marks(equipment, marines),
    )
    assert validate_loadout(loadout, DEFAULT_CATALOGUE) == ()
