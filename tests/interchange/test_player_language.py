"""The language of a player's mails travels with the tournament (format version 10); a
version 9 document still imports, its players mailed in the site's language."""

import pytest

from tests.interchange.test_roundtrip import empty_database
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def _languages() -> dict[str, str]:
    return dict(Player.objects.values_list("name", "language"))


def test_the_language_of_each_players_mails_travels(tournament: Tournament):
    first, second = Player.objects.filter(registrations__tournament=tournament)[:2]
    Player.objects.filter(pk=first.pk).update(language="en")
    Player.objects.filter(pk=second.pk).update(language="it")
    before = _languages()
    document = export_tournament(tournament)
    empty_database()
    import_document(document)
    assert _languages() == before
    assert sorted(set(before.values())) == ["", "en", "it"]


def test_a_version_9_document_imports_with_the_sites_language(tournament: Tournament):
    document = export_tournament(tournament)
    document["format_version"] = 9
    for player in document["players"]:
        del player["language"]
    empty_database()
    assert check_document(document) == []
    import_document(document)
    assert set(_languages().values()) == {""}


def test_an_unknown_language_is_reported_at_its_path(tournament: Tournament):
    document = export_tournament(tournament)
    document["players"][0]["language"] = "fr"
    empty_database()
    [problem] = check_document(document)
    assert problem.path == "$.players[0].language"
    assert problem.message == '"fr" is not allowed here; use one of "", "it", "en"'
