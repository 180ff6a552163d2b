"""The tournament's own maps (RULES §10: each session's board is the session's map; the
organiser designs it): added, changed, renamed and removed in the app, chosen by a stage,
played on the judge's board, checked by the result form, carried by export and import."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from demo.management.commands.load_demo import CLUB_MAP
from rules.engine.maps import parse_map
from table.actions import create_game, latest_snapshot
from tests.interchange.test_roundtrip import empty_database
from tests.table.conftest import seat_squads
from tournaments.actions.map_edits import MapDrawingError, MapInUseError, remove_map, save_map
from tournaments.actions.tournament_setup import save_stage
from tournaments.forms.organiser import StageForm
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import ActivityLog, TournamentMap
from tournaments.queries.activity_descriptions import entry_description
from tournaments.queries.session_stipulation import result_limits

pytestmark = pytest.mark.django_db

CLUB = CLUB_MAP.read_text(encoding="utf-8")
#: A drawing with two problems: an unknown square and a marker letter not in the legend.
BROKEN = """name: broken

+--+--+--+
|.  .o|? |
+  +--+--+
|.1 .2 .3|
+--+--+--+
"""


def maps_url(world) -> str:
    return reverse("tournaments:organiser_maps", args=[world.tournament.slug])


def map_url(world, name: str) -> str:
    return reverse("tournaments:organiser_map", args=[world.tournament.slug, name])


def renamed(text: str, name: str) -> str:
    return text.replace("name: circolo-arena", f"name: {name}", 1)


def test_the_maps_page_lists_the_tournaments_maps_and_the_shipped_ones(world, role_client):
    world.stage.map_name = "hunt-derelict"
    world.stage.save(update_fields=["map_name"])
    save_map(world.tournament, CLUB)
    with translation.override("en"):
        html = role_client("organiser").get(maps_url(world), HTTP_ACCEPT_LANGUAGE="en")
    text = html.content.decode()
    assert "Club arena (demo)" in text and "14 × 10" in text
    assert "Derelict (Alien Hunt)" in text and "No map of the tournament" not in text
    # the stage playing on a shipped map is named beside it
    row = text[text.index("<code>hunt-derelict</code>") :]
    assert "Stage 1" in row[: row.index("</tr>")]
    assert f"{maps_url(world)}?from=reference#add-map" in text


def test_a_typed_map_is_saved_logged_and_shown_with_its_board(world, role_client):
    client = role_client("organiser")
    # as a browser sends a text box: CR LF line ends
    response = client.post(maps_url(world), {"drawing": CLUB.replace("\n", "\r\n")})
    assert response.status_code == 302 and response["Location"] == map_url(world, "circolo-arena")
    saved = TournamentMap.objects.get(tournament=world.tournament)
    assert saved.name == "circolo-arena" and saved.drawing == CLUB
    assert parse_map(saved.drawing).width == 14
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    with translation.override("it"):
        assert entry_description(entry) == "mappa circolo-arena aggiunta"
    page = client.get(map_url(world, "circolo-arena"), HTTP_ACCEPT_LANGUAGE="it")
    html = page.content.decode()
    assert "Arena del circolo (demo)" in html and "3 artigli d'attracco" in html
    picture = reverse("table:map_picture", args=[world.tournament.slug, "circolo-arena"])
    assert picture in html
    svg = client.get(picture)
    assert svg["Content-Type"].startswith("image/svg+xml")
    assert b'<title id="board-title">' in svg.content and b"round" not in svg.content
    assert role_client("judge").get(picture).status_code == 403  # the aliens' squares


def test_a_broken_drawing_lists_every_problem_and_saves_nothing(world, role_client):
    response = role_client("organiser").post(
        maps_url(world), {"drawing": BROKEN}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "riga 4, colonna 8" in html  # the unknown square, in the organiser's language
    assert "riga 4, colonna 6" in html  # the marker letter without a legend line
    assert "|.  .o|? |" in html  # the drawing stays in the box, to be fixed there
    assert not TournamentMap.objects.exists()


@pytest.mark.parametrize(
    ("drawing", "message"),
    [
        (CLUB.replace("name: circolo-arena\n", ""), "The drawing has no name"),
        (renamed(CLUB, "reference"), "BoB ships a map called reference"),
    ],
)
def test_a_map_needs_a_name_of_its_own(world, drawing, message):
    with translation.override("en"), pytest.raises(MapDrawingError) as refused:
        save_map(world.tournament, drawing)
    assert message in str(refused.value)
    assert not TournamentMap.objects.exists()


def test_two_maps_of_a_tournament_cannot_share_a_name(world):
    save_map(world.tournament, CLUB)
    with translation.override("en"), pytest.raises(MapDrawingError, match="already has a map"):
        save_map(world.tournament, CLUB)
    other = save_map(world.tournament, renamed(CLUB, "arena-2"))
    with pytest.raises(MapDrawingError):
        save_map(world.tournament, CLUB, replacing=other)
    assert sorted(world.tournament.maps.values_list("name", flat=True)) == [
        "arena-2",
        "circolo-arena",
    ]


def test_an_uploaded_file_is_saved_and_a_broken_one_shows_its_text(world, role_client):
    client = role_client("organiser")
    upload = SimpleUploadedFile("club.txt", CLUB.encode("utf-8"), content_type="text/plain")
    assert client.post(maps_url(world), {"drawing": "", "file": upload}).status_code == 302
    assert world.tournament.maps.filter(name="circolo-arena").exists()
    broken = SimpleUploadedFile("broken.txt", BROKEN.encode("utf-8"))
    response = client.post(maps_url(world), {"drawing": "", "file": broken})
    assert response.status_code == 400 and "|.  .o|? |" in response.content.decode()
    latin = SimpleUploadedFile("latin.txt", "name: città".encode("latin-1"))
    with translation.override("en"):
        response = client.post(
            maps_url(world), {"drawing": "", "file": latin}, HTTP_ACCEPT_LANGUAGE="en"
        )
    assert "The file is not UTF-8 text" in response.content.decode()
    empty = client.post(maps_url(world), {"drawing": "  "}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Type or paste the map" in empty.content.decode()


def test_a_copy_of_a_shipped_map_starts_a_new_map(world, role_client):
    client = role_client("organiser")
    form = client.get(maps_url(world) + "?from=tpk-ring").context["form"]
    drawing = form["drawing"].value()
    assert drawing.startswith("name: tpk-ring-copy\n")
    assert client.post(maps_url(world), {"drawing": drawing}).status_code == 302
    assert world.tournament.maps.get().name == "tpk-ring-copy"


def test_a_renamed_map_follows_to_its_stage_and_sessions(world, role_client):
    tournament_map = save_map(world.tournament, CLUB)
    world.stage.map_name = "circolo-arena"
    world.stage.save(update_fields=["map_name"])
    world.stage.sessions.update(map_name="circolo-arena")
    response = role_client("organiser").post(
        map_url(world, "circolo-arena"), {"drawing": renamed(CLUB, "arena-del-circolo")}
    )
    assert response["Location"] == map_url(world, "arena-del-circolo")
    tournament_map.refresh_from_db()
    world.stage.refresh_from_db()
    assert tournament_map.name == world.stage.map_name == "arena-del-circolo"
    assert set(world.stage.sessions.values_list("map_name", flat=True)) == {"arena-del-circolo"}
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    with translation.override("en"):
        assert entry_description(entry) == "map circolo-arena renamed arena-del-circolo"


def test_a_map_in_use_is_not_removed(world, role_client):
    tournament_map = save_map(world.tournament, CLUB)
    session = world.stage.sessions.order_by("number")[1]
    session.map_name = "circolo-arena"
    session.save(update_fields=["map_name"])
    with translation.override("it"), pytest.raises(MapInUseError) as refused:
        remove_map(tournament_map)
    assert str(refused.value).startswith("Sessione 1.2 usa la mappa circolo-arena")
    session.map_name = ""
    session.save(update_fields=["map_name"])
    remove_url = reverse(
        "tournaments:organiser_map_remove", args=[world.tournament.slug, "circolo-arena"]
    )
    assert role_client("organiser").post(remove_url).status_code == 302
    assert not TournamentMap.objects.exists()


def test_a_stage_chooses_among_the_tournaments_maps_and_the_shipped_ones(world):
    save_map(world.tournament, CLUB)
    with translation.override("en"):
        choices = dict(StageForm(instance=world.stage).fields["map_name"].choices)
    assert choices["circolo-arena"] == "Club arena (demo) (circolo-arena)"
    assert "reference" in choices and choices[""] == "No map chosen yet"
    world.stage.map_name = "La mappa del circolo"  # an imported stage's free text stays
    assert "La mappa del circolo" in dict(
        StageForm(instance=world.stage).fields["map_name"].choices
    )


def test_a_game_on_the_tournaments_map_keeps_its_board(world):
    seat_squads(world)
    save_map(world.tournament, CLUB)
    world.session.map_name = "circolo-arena"
    world.session.save(update_fields=["map_name"])
    game = create_game(world.session, "circolo-arena", "bob", actor=world.judge)
    state = latest_snapshot(game).state
    assert isinstance(state["map"], dict) and state["map"]["name"] == "circolo-arena"
    assert {claw["id"] for claw in state["map"]["claws"]} == {"1", "2", "3"}
    # the organiser changes the map later: the game plays on, on its own board
    save_map(
        world.tournament,
        CLUB.replace("title: Club arena (demo)", "title: Arena 2"),
        replacing=world.tournament.maps.get(),
    )
    assert latest_snapshot(game).state["map"] == state["map"]


def test_the_judges_new_game_form_offers_and_plans_the_tournaments_map(world, role_client):
    seat_squads(world)
    save_map(world.tournament, CLUB)
    world.stage.map_name = "circolo-arena"
    world.stage.save(update_fields=["map_name"])
    url = reverse("table:games", args=[world.session.pk])
    client = role_client("judge")
    form = client.get(url).context["form"]
    assert form["map_name"].value() == "circolo-arena"
    response = client.post(url, {"map_name": "circolo-arena", "policy": "bob", "label": ""})
    assert response.status_code == 302
    board = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="it")
    assert board.status_code == 200
    assert "— Arena del circolo (demo)</span></h1>" in board.content.decode()
    with translation.override("it"):
        games = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Arena del circolo (demo)" in games


def test_the_result_form_counts_the_tournaments_map_markers(world):
    save_map(world.tournament, CLUB)
    world.session.map_name = "circolo-arena"
    world.session.save(update_fields=["map_name"])
    markers = result_limits(world.session).aliens.markers
    assert markers == {"ork": 2, "gretchin": 2, "android": 1, "genestealer": 1}


def test_export_and_import_carry_the_tournaments_maps(world):

    save_map(world.tournament, CLUB)
    document = export_tournament(world.tournament)
    assert document["maps"] == [{"name": "circolo-arena", "drawing": CLUB}]
    empty_database()
    assert check_document(document) == []
    imported = import_document(document)
    assert imported.tournament.maps.get().drawing == CLUB


def test_the_import_checks_each_maps_drawing_and_name(world):

    document = export_tournament(world.tournament)
    document["maps"] = [
        {"name": "broken", "drawing": BROKEN},
        {"name": "other-name", "drawing": CLUB},
        {"name": "reference", "drawing": renamed(CLUB, "reference")},
    ]
    with translation.override("en"):
        problems = {(p.path, p.message) for p in check_document(document, check_slug=False)}
    paths = {path for path, _message in problems}
    assert "$.maps[0].drawing" in paths
    assert any("line 4, column 8" in message for _path, message in problems)
    assert (
        "$.maps[1].name",
        "the drawing's 'name:' line says circolo-arena; the two must be the same",
    ) in problems
    assert any(
        path == "$.maps[2].name" and "BoB ships a map called reference" in message
        for path, message in problems
    )


def test_the_session_page_names_its_map_by_title(world, client):
    save_map(world.tournament, CLUB)
    world.stage.map_name = "circolo-arena"
    world.stage.save(update_fields=["map_name"])
    url = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "<dd>Arena del circolo (demo)</dd>" in html


def test_a_stages_new_map_is_its_sessions_map_unless_a_session_has_its_own(world):
    save_map(world.tournament, CLUB)
    first, second, *_rest = world.stage.sessions.order_by("number")
    world.stage.sessions.update(map_name="hunt-derelict")
    world.stage.map_name = "hunt-derelict"
    world.stage.save(update_fields=["map_name"])
    second.map_name = "flag-relay"  # chosen for that session alone
    second.save(update_fields=["map_name"])
    world.stage.map_name = "circolo-arena"
    save_stage(world.stage, [], actor=world.organiser)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.map_name, second.map_name) == ("circolo-arena", "flag-relay")


def test_a_map_with_too_few_claws_for_three_squads_says_so(world, role_client):
    two_claws = CLUB.replace(".3 .3", ".  . ").replace("claw 3 South claw\n", "")
    save_map(world.tournament, renamed(two_claws, "two-claws"))
    html = role_client("organiser").get(map_url(world, "two-claws"), HTTP_ACCEPT_LANGUAGE="en")
    assert "with 2 claws, no game of three players can start on this map" in html.content.decode()
    assert role_client("organiser").get(map_url(world, "no-such-map")).status_code == 404
