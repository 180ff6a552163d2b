"""After a save on the long catalogue page, or on one of its items' pages, the organiser
lands at the part saved (``#squads``, ``#tokens``, …), not at the top of the catalogue,
many screens away on a phone; a refused save comes back at its form too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.page_forms import form_on
from tests.web.test_organiser_catalogue import card_of, values_url
from tests.web.test_stale_edits import opened, post

pytestmark = pytest.mark.django_db


def catalogue_url(world) -> str:
    return reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])


def lands_at(response, world, part: str) -> None:
    assert response.status_code == 302
    assert response["Location"] == f"{catalogue_url(world)}#{part}"


def test_the_squads_and_token_forms_come_back_to_their_part(world, role_client):
    client = role_client("organiser")
    squads_url = reverse("tournaments:organiser_squads", args=[world.tournament.slug])
    squads = opened(client, catalogue_url(world), "squads-version")
    lands_at(post(client, squads_url, squads), world, "squads")
    tokens = opened(client, catalogue_url(world), "tokens-ork")
    lands_at(post(client, catalogue_url(world), tokens, **{"tokens-ork": "3"}), world, "tokens")
    added = client.post(
        reverse("tournaments:organiser_cards_complete", args=[world.tournament.slug])
    )
    lands_at(added, world, "shipped-cards")


def test_a_refused_squads_save_comes_back_at_the_squads_form(world, role_client):
    client = role_client("organiser")
    squads_url = reverse("tournaments:organiser_squads", args=[world.tournament.slug])
    squads = opened(client, catalogue_url(world), "squads-version")
    name = next(field for field in squads if field.endswith("name_en"))
    refused = post(client, squads_url, squads, **{name: " "})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert f'action="{squads_url}#squads" novalidate data-scroll-on-load' in html
    assert f'action="{catalogue_url(world)}#tokens" novalidate>' in html


def test_an_items_save_comes_back_to_the_part_listing_it(world, role_client):
    client = role_client("organiser")
    slug = world.tournament.slug
    weapon = world.tournament.weapons.first()
    items = {
        reverse("tournaments:organiser_card", args=[slug, card_of(world).pk]): (
            "cards-ultramarines"
        ),
        reverse("tournaments:organiser_weapon", args=[slug, weapon.pk]): "weapons",
        reverse("tournaments:organiser_event_card", args=[slug, "report"]): "event-cards",
        values_url(world): "rules-values",
    }
    for url, part in items.items():
        form = form_on(client.get(url).content.decode(), "version")
        lands_at(post(client, url, form), world, part)


@pytest.mark.parametrize("typed", ["-1", "abc", "1000"])
def test_a_token_value_refused_says_what_a_token_may_be_worth(world, role_client, typed):
    """Django's own words ("Ensure this value is greater than or equal to 0.") named no
    way to fix it; nothing is saved and the other values typed stay."""
    client = role_client("organiser")
    tokens = opened(client, catalogue_url(world), "tokens-ork")
    refused = post(
        client, catalogue_url(world), tokens, **{"tokens-ork": typed, "tokens-gretchin": "4"}
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "a whole number from 0 (it scores nothing) to 999." in html
    assert 'name="tokens-gretchin" value="4"' in html
    world.tournament.refresh_from_db()
    assert "alien_tokens" not in (world.tournament.data_overrides or {})
