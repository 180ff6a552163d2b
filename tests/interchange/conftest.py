import pytest

from tests.interchange.factories import rich_tournament
from tournaments.interchange.export import export_tournament


@pytest.fixture
def tournament(db):
    return rich_tournament()


@pytest.fixture
def document(tournament):
    return export_tournament(tournament)
