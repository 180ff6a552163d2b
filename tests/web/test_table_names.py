"""A venue table's name never carries the word for table, which pages write before it (QA: a
table named "Tavolo 1" showed as "Tavolo Tavolo 1" in the list, the confirmation, the grid and
the judge's sheet, and "Tavolo 1" was accepted beside an existing "1"): the word is left out
when a table is added, and when a name stored before that rule is shown; two names that are
the same without it are one table."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments.actions.scheduling import schedule_session
from tournaments.actions.venue_tables import TableError, add_table, add_tables, table_named
from tournaments.interchange.venue_sections import check_tables
from tournaments.models import VenueTable
from tournaments.models.tables import same_table_name, table_name

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Tavolo 1", "1"),
        ("Table 1", "1"),
        ("TAVOLO finale (palco)", "finale (palco)"),
        ("Tav. 3", "3"),
        ("tav.3", "3"),
        ("Tavolo n. 4", "4"),
        ("Tavolo n°4", "4"),
        ("Table #5", "5"),
        ("Tavolo: Sala A", "Sala A"),
        ("  Sala   A ", "Sala A"),
        ("Tavolo Nord", "Nord"),
        ("Tavolino 2", "Tavolino 2"),  # a longer word, not the word for table
        ("Tabletop", "Tabletop"),
        ("Main table", "Main table"),  # only a leading word is left out
        ("Tavolo", ""),
        ("Table.", ""),
    ],
)
def test_the_word_for_table_is_left_out_of_a_name(typed, name):
    assert table_name(typed) == name


def test_names_that_differ_only_by_the_word_or_capitals_are_one_table():
    assert same_table_name("Tavolo 1", "1") and same_table_name("table SALA a", "Sala A")
    assert not same_table_name("Tavolo 1", "11")


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def test_a_table_typed_with_the_word_is_stored_and_shown_once(organiser, world):
    url = reverse("tournaments:organiser_tables", args=[world.tournament.slug])
    added = organiser.post(url, {"name": "Tavolo finale (palco)"}, follow=True)
    page = added.content.decode()
    assert "Table finale (palco) added." in page
    assert "Table finale (palco)" in page and "Tavolo finale" not in page
    table = world.tournament.tables.get()
    assert table.name == "finale (palco)" and str(table) == "finale (palco)"
    italian = organiser.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Tavolo finale (palco)" in italian and "Tavolo Tavolo" not in italian


def test_a_name_already_listed_without_the_word_is_refused_with_why(organiser, world):
    url = reverse("tournaments:organiser_tables", args=[world.tournament.slug])
    assert organiser.post(url, {"name": "1"}).status_code == 302
    again = organiser.post(url, {"name": "Tavolo 1"})
    assert again.status_code == 400
    assert (
        "There is already a table called 1, and “Tavolo 1” is the same table: pages write "
        "“Table” before each name themselves. Give another number or name."
    ) in again.content.decode()
    assert list(world.tournament.tables.values_list("name", flat=True)) == ["1"]
    with pytest.raises(TableError, match="“Tav.” only says it is a table: give its own number"):
        add_table(world.tournament, "Tav.")


def test_a_name_stored_with_the_word_before_the_rule_is_shown_without_it(
    organiser, world, role_client
):
    old = VenueTable.objects.create(tournament=world.tournament, name="Tavolo 3")
    assert str(old) == "3"
    with pytest.raises(TableError, match="There is already a table called 3"):
        add_table(world.tournament, "3")
    assert table_named(world.tournament, "Table 3") == old
    assert [table.name for table in add_tables(world.tournament, 3)] == ["1", "2", "4"]

    when = timezone.make_aware(timezone.datetime(2026, 6, 1, 15, 30))
    schedule_session(world.session, when=when, table=old, notify=False)
    world.session.refresh_from_db()
    assert world.session.table_name == "3"
    tables_page = organiser.get(
        reverse("tournaments:organiser_tables", args=[world.tournament.slug])
    ).content.decode()
    assert "Table 3" in tables_page and "Remove table 3" in tables_page
    assert "Tavolo" not in tables_page
    sheet = role_client("judge").get(
        reverse("tournaments:judge_session", args=[world.session.pk]), HTTP_ACCEPT_LANGUAGE="it"
    )
    assert sheet.status_code == 200
    text = sheet.content.decode()
    assert "tavolo 3" in text and "Tavolo 3" not in text


class Problems:
    """The part of the document checker that a section's check reports to."""

    def __init__(self) -> None:
        self.found: list[tuple[tuple, str]] = []

    def add(self, path: tuple, message: str) -> None:
        self.found.append((path, message))


def test_an_imported_document_naming_one_table_twice_is_refused():
    problems = Problems()
    check_tables([{"name": "1", "position": 0}, {"name": "Tavolo 1", "position": 1}], problems)
    assert problems.found == [
        (
            ("tables", 1, "name"),
            "this table name is used already at $.tables[0].name; each table needs its own",
        )
    ]
