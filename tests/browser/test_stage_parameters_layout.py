"""The stage form's parameter groups in a browser, on a 390px phone and a 1280px desktop (QA:
the Alien Hunt event-card list stood on the right and pushed "The game ends", "Rounds" and the
others ~900px down under an empty area, the select cut off): the fields come first, the card
list right after them, in columns on a desktop, and nothing scrolls sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, screenshot
from tests.browser.test_accessibility import check_page
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import StipulationKind

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Room between the group's last field and the card list: a field's help text, no more.
MOST_GAP = 120


def bottom(box: dict) -> float:
    return box["y"] + box["height"]


@pytest.mark.parametrize("width", [390, 1280])
def test_the_parameter_fields_come_before_the_event_cards(new_page, width):
    organiser = account("org")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    tournament.stages.filter(number=1).update(
        stipulation_kind=StipulationKind.ALIEN_HUNT,
        stipulation_params={"end_condition": "fixed_rounds", "rounds": 8, "event_deck": True},
    )
    page = new_page(width=width, touch=width < 500)
    log_in(page, "org")
    url = f"/organise/{tournament.slug}/stages/1/"
    page.goto(url)
    group = page.get_by_role("group", name="Alien Hunt parameters")
    cards = group.get_by_role("group", name="Event cards in the deck")
    expect(cards.get_by_role("checkbox")).to_have_count(25)
    fields = [
        group.get_by_label("The game ends"),
        group.get_by_label("Rounds", exact=True),
        group.get_by_label("Rounds to reach the claws"),
        group.get_by_label("Use the alien event deck"),
    ]
    cards_top = cards.bounding_box()["y"]
    lowest = max(bottom(field.bounding_box()) for field in fields)
    assert lowest < cards_top < lowest + MOST_GAP
    assert group.bounding_box()["y"] + 150 > min(f.bounding_box()["y"] for f in fields)
    # The select shows its whole choice.
    select = fields[0]
    assert select.evaluate("s => s.scrollWidth <= s.clientWidth")
    assert select.evaluate(
        "s => { const c = document.createElement('canvas').getContext('2d');"
        " c.font = getComputedStyle(s).font;"
        " return c.measureText(s.options[s.selectedIndex].text).width < s.clientWidth - 24; }"
    )
    first, second = cards.get_by_role("checkbox").nth(0), cards.get_by_role("checkbox").nth(1)
    if width > 1000:  # side by side in columns, not one long column
        assert first.bounding_box()["y"] == second.bounding_box()["y"]
        assert bottom(cards.bounding_box()) - cards_top < 450
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"organiser-stage-parameters-{width}")
    check_page(page, url)
