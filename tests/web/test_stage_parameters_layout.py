"""The stage form's parameter groups (QA: the Alien Hunt event-card list stood on the right and
pushed the other fields ~900px down): each group's fields come first, a group of choices
(the event cards) after them as a fieldset of its own, its caption a legend rather than a
label pointing at nothing. The layout itself is checked in a browser
(tests/browser/test_stage_parameters_layout.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def group_html(page: str, kind: str) -> str:
    match = re.search(
        rf'<fieldset class="params-block" data-stipulation="{kind}">(.*?)</fieldset>\s*'
        r'(?=<fieldset class="params-block"|<button)',
        page,
        re.S,
    )
    assert match, f"no parameter group for {kind}"
    return match.group(1)


@pytest.mark.parametrize(
    ("kind", "fields", "cards"),
    [
        (
            "alien_hunt",
            ["ah_end_condition", "ah_rounds", "ah_escape_rounds", "ah_event_deck"],
            "ah_event_cards",
        ),
        (
            "catch_the_flag",
            ["ctf_flags", "ctf_flag_value", "ctf_hidden_flags", "ctf_rounds", "ctf_aliens"],
            "ctf_event_cards",
        ),
    ],
)
def test_the_event_cards_follow_the_groups_other_fields_as_a_fieldset(
    world, role_client, kind, fields, cards
):
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    page = role_client("organiser").get(url).content.decode()
    group = group_html(page, kind)
    list_at = group.index('<fieldset class="field choices"')
    for name in fields:
        assert group.index(f'name="{name}"') < list_at, name
    cards_list = group[list_at:]
    assert re.match(
        r'<fieldset class="field choices" aria-describedby="id_\w+_helptext">\s*'
        r"<legend>Event cards in the deck</legend>\s*"
        r'<div class="helptext" id="id_\w+_helptext">Tick the cards',
        cards_list,
    ), cards_list[:300]
    assert cards_list.count(f'name="{cards}"') > 20
    assert 'for=""' not in page  # the group's caption used to be a label for nothing
