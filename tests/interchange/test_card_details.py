"""Chapter cards travel with their duration, effect and confidence (format version 5);
a version 4 document, whose cards had only a ``text`` holding the source, still imports."""

import copy

import pytest

from tests.interchange.test_roundtrip import empty_database
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import ChapterCard

pytestmark = pytest.mark.django_db


def version_4(document: dict) -> dict:
    """``document`` as BoB wrote it before the cards' details."""
    old = copy.deepcopy(document)
    old["format_version"] = 4
    for squad in old["squads"]:
        for card in squad["cards"]:
            card["text"] = card.pop("source")
            for key in ("use", "effect_code", "effect_en", "effect_it", "confidence"):
                del card[key]
    return old


def test_card_details_round_trip(tournament):
    card = ChapterCard.objects.filter(squad__tournament=tournament).select_related("squad")[0]
    card.use, card.effect_code, card.confidence = "session", "targeter", "confirmed"
    card.effect_en, card.effect_it = "Re-roll one die.", "Ritira un dado."
    card.save()
    document = export_tournament(tournament)
    exported = next(c for s in document["squads"] for c in s["cards"] if c["slug"] == card.slug)
    assert (exported["use"], exported["effect_code"], exported["effect_it"]) == (
        "session",
        "targeter",
        "Ritira un dado.",
    )
    empty_database()
    assert check_document(document) == []
    import_document(document)
    again = ChapterCard.objects.get(slug=card.slug, squad__slug=card.squad.slug)
    assert (again.use, again.confidence, again.effect_en) == (
        "session",
        "confirmed",
        "Re-roll one die.",
    )


def test_a_version_4_document_imports_with_its_card_text_as_source(tournament):
    old = version_4(export_tournament(tournament))
    texts = {c["slug"]: c["text"] for s in old["squads"] for c in s["cards"]}
    empty_database()
    assert check_document(old) == []
    import_document(old)
    for card in ChapterCard.objects.all():
        assert card.source == texts[card.slug]
        assert (card.use, card.effect_code, card.confidence) == ("one_use", "", "one_source")
