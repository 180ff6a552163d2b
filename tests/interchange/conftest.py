import pytest

from tournaments.interchange.export import export_tournament

from .factories import rich_tournament


@pytest.fixture
def tournament(db):
    return rich_tournament()


@pytest.fixture
def document(tournament):
    return export_tournament(tournament)
