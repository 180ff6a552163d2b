"""The activity log names a chapter card's effect, text and name changes as the tournament
names its cards (the organiser may rename them): an effect by the card it was written for
as this tournament calls that card (:func:`tournaments.queries.tournament_catalogue.
effect_names`, the names the card form offers the effects by too), never by the shipped
name the tournament no longer shows; a renamed card under its old name with the new one
in the change, in either language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.web.test_organiser_catalogue import card_data, card_of, last_entry
from tournaments.queries.activity_descriptions import entry_description

pytestmark = pytest.mark.django_db

RENAMED = {
    "bio-scanner": {"name_en": "Life Scanner", "name_it": "Scanner Vitale"},
    "medi-kit": {"name_en": "Field Kit", "name_it": "Kit da Campo"},
}


@pytest.fixture
def edit(world, role_client):
    """Post the organiser's card form of ``slug`` (Ultramarines) with ``changes``."""
    organiser = role_client("organiser")

    def post(slug: str, **changes) -> str:
        card = card_of(world, slug)
        url = reverse("tournaments:organiser_card", args=[world.tournament.slug, card.pk])
        response = organiser.post(url, card_data(card, **changes))
        assert response.status_code == 302, response.content.decode()[:2000]
        return url

    for slug, names in RENAMED.items():
        post(slug, **names)
    return post


def described(world) -> dict[str, str]:
    entry = last_entry(world)
    shown = {}
    for lang in ("en", "it"):
        with translation.override(lang):
            shown[lang] = entry_description(entry)
    return shown


def test_an_effect_change_names_the_effects_as_the_tournament_names_their_cards(world, edit):
    edit("bio-scanner", effect_code="medi_kit")
    shown = described(world)
    assert shown["en"] == (
        "chapter card Life Scanner of Ultramarines changed: "
        "Effect on the board: Life Scanner → Field Kit"
    )
    assert shown["it"] == (
        "carta del capitolo Scanner Vitale di Ultramarines modificata: "
        "Effetto sul tabellone: Scanner Vitale → Kit da Campo"
    )
    for text in shown.values():
        for shipped in ("Bio-Scanner", "Medi-Kit", "Pronto Soccorso"):
            assert shipped not in text, text


def test_a_text_change_names_the_card_as_the_tournament_does(world, edit):
    edit("medi-kit", effect_en="Heals the commander fully.")
    shown = described(world)
    assert shown["en"].startswith("chapter card Field Kit of Ultramarines changed: Effect (")
    assert shown["it"].startswith("carta del capitolo Kit da Campo di Ultramarines modificata:")


def test_a_renamed_card_is_named_by_its_old_name_with_the_new_one_in_the_change(world, edit):
    edit("medi-kit", name_en="Battle Kit", name_it="Kit da Battaglia", effect_code="")
    shown = described(world)
    assert shown["en"] == (
        "chapter card Field Kit of Ultramarines changed: English name: “Field Kit” → "
        "“Battle Kit”; Italian name: “Kit da Campo” → “Kit da Battaglia”; "
        "Effect on the board: Field Kit → –"
    )
    assert shown["it"].startswith("carta del capitolo Kit da Campo di Ultramarines modificata:")
    assert "“Kit da Campo” → “Kit da Battaglia”" in shown["it"]
    assert "Effetto sul tabellone: Kit da Campo → –" in shown["it"]


def test_the_card_form_offers_the_effects_by_the_tournaments_names(world, edit, role_client):
    url = edit("bio-scanner")
    for lang, name, shipped in (("en", "Field Kit", "Medi-Kit"), ("it", "Kit da Campo", "Pronto")):
        page = role_client("organiser").get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert f'<option value="medi_kit">{name}</option>' in page
        assert f'<option value="medi_kit">{shipped}' not in page
