"""A map started from a copy (`/organise/<slug>/maps/?from=<map>`) is titled as a copy in each
of its languages (QA: the copy kept the original's Italian title, since its `title.it:` line
wins over the `title:` line the organiser edits on Italian pages, and the stage's map menu
showed two maps of one title), gets a name no map has, and map menus tell apart two maps of
one title by their names."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from demo.management.commands.load_demo import CLUB_MAP
from rules.engine.maps import bundled_map_text, parse_map, shared_map
from tournaments.actions.map_edits import save_map
from tournaments.domain.map_copy import copied_map_text, copy_title
from tournaments.forms.organiser import StageForm
from tournaments.queries.playable_maps import map_choices

pytestmark = pytest.mark.django_db

CLUB = CLUB_MAP.read_text(encoding="utf-8")


def header(text: str) -> dict[str, str]:
    """The header lines of a map text, by key."""
    lines = text.split("\n+", 1)[0].splitlines()
    return {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in lines)}


def test_every_title_line_of_the_copy_says_it_is_a_copy():
    original = bundled_map_text("hunt-derelict")
    copy = copied_map_text(original, "hunt-derelict", "relitto-2")
    before, after = header(original), header(copy)
    assert after["name"] == "relitto-2"
    assert after["title"] == "Copy of Derelict (Alien Hunt)"
    assert after["title.it"] == copy_title("Relitto (Caccia all'Alieno)", "it")
    assert after["title.it"] != before["title.it"]  # the Italian title was kept (QA)
    assert after["description.it"] == before["description.it"]
    assert copy.split("\n+", 1)[1] == original.split("\n+", 1)[1]  # the drawing and legend
    board, shipped = parse_map(copy), shared_map("hunt-derelict")
    for language in ("en", "it"):
        assert board.title_in(language) != shipped.title_in(language)
        assert shipped.title_in(language) in board.title_in(language)


def test_a_copy_of_a_map_without_a_title_gets_one():
    untitled = "\n".join(line for line in CLUB.splitlines() if not line.startswith("title"))
    copy = copied_map_text(untitled + "\n", "circolo-arena", "circolo-2")
    assert parse_map(copy).title == "Copy of circolo-arena"
    empty_title = CLUB.replace("title: Club arena (demo)", "title:", 1)
    copy = copied_map_text(empty_title, "circolo-arena", "circolo-2")
    assert parse_map(copy).title == "Copy of circolo-arena"  # replaced, not a second line


def test_copies_get_free_names_and_the_stage_menu_tells_them_apart(world, role_client):
    client = role_client("organiser")
    maps_url = reverse("tournaments:organiser_maps", args=[world.tournament.slug])
    for expected in ("hunt-derelict-copy", "hunt-derelict-copy-2"):
        page = client.get(maps_url + "?from=hunt-derelict", HTTP_ACCEPT_LANGUAGE="it")
        drawing = page.context["form"]["drawing"].value()
        assert header(drawing)["name"] == expected
        assert client.post(maps_url, {"drawing": drawing}).status_code == 302
    with translation.override("it"):
        labels = [
            label for _name, label in StageForm(instance=world.stage).fields["map_name"].choices
        ]
        original = shared_map("hunt-derelict").title_in("it")
    assert len(labels) == len(set(labels))
    assert f"{original} (hunt-derelict)" in labels
    copies = [label for label in labels if "(hunt-derelict-copy" in label]
    assert len(copies) == 2 and all(not label.startswith(f"{original} (") for label in copies)


def test_a_copy_of_the_tournaments_own_map_is_titled_as_a_copy_in_italian(world, role_client):
    save_map(world.tournament, CLUB)
    url = reverse("tournaments:organiser_maps", args=[world.tournament.slug])
    drawing = role_client("organiser").get(url + "?from=circolo-arena").context["form"]["drawing"]
    titles = header(drawing.value())
    assert titles["name"] == "circolo-arena-copy"
    assert titles["title"] == "Copy of Club arena (demo)"
    assert titles["title.it"] == copy_title("Arena del circolo (demo)", "it")
    assert titles["title.it"] != "Arena del circolo (demo)"


def test_two_maps_of_one_title_are_told_apart_in_the_map_menus(world):
    save_map(world.tournament, CLUB)
    save_map(world.tournament, CLUB.replace("name: circolo-arena", "name: circolo-bis", 1))
    for language in ("en", "it"):
        with translation.override(language):
            choices = dict(map_choices(world.tournament))
        assert choices["circolo-arena"] != choices["circolo-bis"]
        assert choices["circolo-bis"].endswith("(circolo-bis)")
