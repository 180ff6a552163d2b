"""The organiser's download and import pages agree with each other (the QA pass): a
tournament whose Ork token value changed after its results downloads into a file that
imports, a download the import would refuse says so, and a refused file's problems are
said in the organiser's language, where they are and how to fix them."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rules.engine.dice import SeededDice
from tournaments.actions.result_entry import record_result
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.models import Loadout, Stipulation, Tournament
from tournaments.queries.standings import compute_standings

pytestmark = pytest.mark.django_db

IMPORT = reverse("tournaments:tournament_import")
#: The JSON decoder's own English words, which must never reach the page.
DECODER_WORDS = ("Expecting", "Unterminated", "Invalid control", "delimiter")


def upload(text: str, name: str = "coppa.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="application/json")


def form_fields(page: str, prefix: str) -> dict[str, str]:
    """The named inputs of a page whose names start with ``prefix``, with their values."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and name.group(1).startswith(prefix):
            fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
    return fields


def save_result_with_ork_tokens(session) -> None:
    Stipulation.objects.get_or_create(
        session=session, defaults={"kind": "alien_hunt", "params": {"rounds": 8}}
    )
    seats = list(session.seats.order_by("seat_order"))
    record_result(
        session,
        [
            {
                "seat": str(seat.player_id),
                "alien_tokens": [{"alien_type": "ork", "value": 2, "count": index + 1}],
            }
            for index, seat in enumerate(seats)
        ],
        survivors=[seat.player_id for seat in seats],
        confirmed=True,
        dice=SeededDice(seed=1),
    )


def test_the_qa_steps_download_then_import_the_same_standings(world, role_client):
    """Organiser: Ork tokens to 7 on the catalogue page after a result, download, import."""
    save_result_with_ork_tokens(world.session)
    client = role_client("organiser")
    catalogue = reverse("tournaments:organiser_catalogue", args=[world.tournament.slug])
    fields = form_fields(client.get(catalogue).content.decode(), "tokens-")
    assert fields["tokens-ork"] == "2"
    saved = client.post(catalogue, {**fields, "tokens-ork": "7"})
    assert saved.status_code == 302
    export = reverse("tournaments:organiser_export", args=[world.tournament.slug])
    downloaded = client.get(export)
    assert downloaded["Content-Disposition"].startswith("attachment;")  # no problems page
    document = downloaded.content.decode()
    imported = client.post(IMPORT, {"file": upload(document), "slug": "demo-copia"})
    assert imported.status_code == 302, imported.content.decode()
    copy = Tournament.objects.get(slug="demo-copia")

    def points(tournament):
        return [(row["player"], row["points"]) for row in compute_standings(tournament)["players"]]

    assert points(copy) == points(world.tournament)
    assert sorted(p for _name, p in points(copy) if p) == [2, 4, 6]


def test_a_download_the_import_would_refuse_lists_its_problems_first(world, role_client):
    """Data changed behind the app's back (here a loadout card typed in the admin): the
    download shows what an import would refuse, and still gives the file."""
    Stipulation.objects.get_or_create(
        session=world.session, defaults={"kind": "alien_hunt", "params": {"rounds": 8}}
    )
    seat = world.session.seats.order_by("seat_order").first()
    Loadout.objects.create(seat=seat, commander_combo="bolter", order_cards=["Fuoco!"])
    client = role_client("organiser")
    export = reverse("tournaments:organiser_export", args=[world.tournament.slug])
    response = client.get(export, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = html.unescape(response.content.decode())
    assert "The file would not import: 2 problems" in page
    assert "<li><code>$.stages[0].sessions[0].seats[0].loadout.order_cards[0]</code>: " in page
    assert f'href="{export}?anyway=1" download>Download it anyway</a>' in page
    anyway = client.get(export + "?anyway=1")
    assert anyway["Content-Disposition"].startswith('attachment; filename="bob-coppa-')
    assert json.loads(anyway.content) == export_tournament(world.tournament)


def broken_document(world) -> str:
    """The tournament's document with a text never closed on line 188 (the QA's file)."""
    lines = dumps(export_tournament(world.tournament)).splitlines()
    lines[187] = '  "note": "never closed'
    return "\n".join(lines)


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_broken_file_is_told_in_the_pages_language(world, role_client, language):
    response = role_client("organiser").post(
        IMPORT, {"file": upload(broken_document(world))}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    problems = page[
        page.index('<ul class="problems">') : page.index(
            "</ul>", page.index('<ul class="problems">')
        )
    ]
    assert "188" in problems
    assert not any(word in problems for word in DECODER_WORDS)
    assert "<code>$</code>" not in problems and "$:" not in problems  # the whole file
    assert Tournament.objects.count() == 1


def test_each_problem_shows_its_path_apart_from_what_to_do(world, role_client):
    document = export_tournament(world.tournament)
    document["tournament"]["slug"] = "altro"
    document["squads"][0]["colour"] = "green"
    document["tournament"]["data_overrides"] = {
        "units": {"ork": {"armor": 1}},
        "alien_tokens": {"ork": -5},
    }
    document["stages"][0]["map_name"] = "nonexistent-map"
    response = role_client("organiser").post(
        IMPORT, {"file": upload(dumps(document))}, HTTP_ACCEPT_LANGUAGE="en"
    )
    page = html.unescape(response.content.decode())
    assert "4 problems found: nothing was imported" in page
    assert (
        '<li><code>$.squads[0].colour</code>: "green" is not allowed here; use one of "blue", '
        '"red", "yellow"</li>'
    ) in page
    assert "<li><code>$.tournament.data_overrides.units.ork.armor</code>: unknown key;" in page
    assert (
        "<li><code>$.tournament.data_overrides.alien_tokens.ork</code>: must be at least 0" in page
    )
    assert '<li><code>$.stages[0].map_name</code>: there is no map called "nonexistent-map"' in page
    assert not Tournament.objects.filter(slug="altro").exists()
