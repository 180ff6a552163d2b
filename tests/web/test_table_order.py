"""Tables are listed in natural order everywhere (QA: after adding "3", "finale (palco)",
then 1, 2 and 4, every list read 3, finale (palco), 1, 2, 4): numbered tables by their
number, then the others by name, whatever order they were added in."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.actions.venue_tables import add_table
from tournaments.forms.organiser import ScheduleForm
from tournaments.forms.scheduling import GridPlaceForm, StagePlanForm
from tournaments.interchange.venue_sections import export_tables
from tournaments.models import VenueTable
from tournaments.models.tables import natural_table_key
from tournaments.queries.schedule_grid import stage_grid

pytestmark = pytest.mark.django_db

ADDED = ["3", "finale (palco)", "1", "2", "Sala B", "10", "4", "sala a"]
NATURAL = ["1", "2", "3", "4", "10", "finale (palco)", "sala a", "Sala B"]


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def tables(world):
    for name in ADDED:
        add_table(world.tournament, name)
    return world.tournament.tables


def names(tables) -> list[str]:
    return [table.name for table in tables]


def test_the_tournaments_tables_come_in_natural_order(world, tables):
    assert names(world.tournament.tables.all()) == NATURAL
    assert names(VenueTable.objects.filter(tournament=world.tournament)) == NATURAL


def test_the_python_key_agrees_with_the_database(world, tables):
    in_creation_order = VenueTable.objects.filter(tournament=world.tournament).order_by("pk")
    assert names(sorted(in_creation_order, key=natural_table_key)) == NATURAL


def test_the_forms_menus_and_checkboxes(world, tables):
    tournament = world.tournament
    schedule = ScheduleForm(tournament=tournament, session=world.stage.sessions.first())
    assert names(schedule.fields["table"].queryset) == NATURAL
    assert names(GridPlaceForm(stage=world.stage).fields["table"].queryset) == NATURAL
    assert names(StagePlanForm(tournament=tournament).fields["tables"].queryset) == NATURAL


def test_the_grids_columns_and_plan_checkboxes(organiser, world, tables):
    assert names(stage_grid(world.stage).tables) == NATURAL
    url = reverse("tournaments:organiser_grid", args=[world.tournament.slug, world.stage.number])
    form = organiser.get(url).context["plan_form"]
    assert [choice.choice_label for choice in form["tables"]] == NATURAL


def test_the_tables_page(organiser, world, tables):
    url = reverse("tournaments:organiser_tables", args=[world.tournament.slug])
    assert names(organiser.get(url).context["tables"]) == NATURAL


def test_position_keeps_the_order_added_for_the_document_and_the_admin(world, tables, role_client):
    """What ``VenueTable.position`` still does (its help text says so): the order the tables
    were added in, which the tournament document and the administration's list follow."""
    assert [table["name"] for table in export_tables(world.tournament)] == ADDED
    url = reverse("admin:tournaments_venuetable_changelist")
    page = role_client("superuser").get(url, {"tournament__id__exact": world.tournament.pk})
    assert re.findall(r'<td class="field-name">([^<]*)</td>', page.content.decode()) == ADDED
    help_text = str(VenueTable._meta.get_field("position").help_text)
    assert "order the table was added in" in help_text and "by name" in help_text
