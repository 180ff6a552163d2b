"""The read-only JSON API; every response is checked against ``api/openapi.json``."""

import json
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse
from jsonschema import Draft202012Validator

from tests.factories import TournamentFactory, VenueTableFactory, confirm_stage, register_players
from tournaments.actions.scheduling import schedule_session
from tournaments.actions.stage_advance import advance
from tournaments.api.views import SCHEMA_PATH, openapi_schema

pytestmark = pytest.mark.django_db


def response_validator(path: str, status: str) -> Draft202012Validator:
    schema = openapi_schema()
    response = schema["paths"][path]["get"]["responses"][status]
    body = response["content"]["application/json"]["schema"]
    return Draft202012Validator(
        {**body, "components": schema["components"]},
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )


def check(client, name: str, path: str, status: int = 200, **kwargs):
    response = client.get(reverse(f"tournaments:{name}", kwargs=kwargs))
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    data = response.json()
    validator = response_validator(path, str(status))
    errors = sorted(validator.iter_errors(data), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
    return data


@pytest.fixture
def semifinal_tournament(django_capture_on_commit_callbacks):
    """Nine players: prelims complete, semifinals seated, one semifinal scheduled."""
    from datetime import UTC, datetime

    from rules.engine.dice import SeededDice

    tournament = TournamentFactory(slug="bob-2026", name="BoB 2026")
    register_players(tournament, 9)
    with django_capture_on_commit_callbacks(execute=True):
        advance(tournament, SeededDice(seed=1))
        confirm_stage(tournament.stages.get(number=1), lambda seat: seat.player_id)
        advance(tournament, SeededDice(seed=2))
        semifinal = tournament.stages.get(number=2).sessions.get(number=1)
        schedule_session(
            semifinal,
            when=datetime(2026, 12, 6, 15, tzinfo=UTC),
            table=VenueTableFactory(tournament=tournament, name="1"),
        )
    return tournament


ENDPOINTS = [
    ("api-standings", "/api/tournaments/{slug}/standings/"),
    ("api-bracket", "/api/tournaments/{slug}/bracket/"),
    ("api-honours", "/api/tournaments/{slug}/honours/"),
    ("api-schedule", "/api/tournaments/{slug}/schedule/"),
]


@pytest.mark.parametrize(("name", "path"), ENDPOINTS)
def test_endpoints_validate_against_the_schema(client, semifinal_tournament, name, path):
    check(client, name, path, slug=semifinal_tournament.slug)


@pytest.mark.parametrize(("name", "path"), ENDPOINTS)
def test_empty_tournament_validates_too(client, name, path):
    tournament = TournamentFactory()
    check(client, name, path, slug=tournament.slug)


@pytest.mark.parametrize(("name", "path"), ENDPOINTS)
def test_unknown_tournament_is_a_json_404(client, name, path):
    data = check(client, name, path, status=404, slug="nope")
    assert "nope" in data["error"]


def test_content_of_the_documents(client, semifinal_tournament):
    slug = semifinal_tournament.slug
    standings = check(client, "api-standings", "/api/tournaments/{slug}/standings/", slug=slug)
    assert standings["tournament"]["status"] == "in_progress"
    assert len(standings["players"]) == 9
    assert [row["place"] for row in standings["players"]] == list(range(1, 10))
    assert sum(1 for row in standings["players"] if row["eliminated_in_stage"] == 1) == 3

    bracket = check(client, "api-bracket", "/api/tournaments/{slug}/bracket/", slug=slug)
    assert [stage["kind"] for stage in bracket["stages"]] == ["preliminary", "semifinal"]
    assert len(bracket["stages"][0]["qualifiers"]) == 6

    honours = check(client, "api-honours", "/api/tournaments/{slug}/honours/", slug=slug)
    assert sum(len(row["honours"]) for row in honours["players"]) == 3

    schedule = check(client, "api-schedule", "/api/tournaments/{slug}/schedule/", slug=slug)
    scheduled = [s for s in schedule["sessions"] if s["scheduled_at"]]
    assert len(scheduled) == 1 and scheduled[0]["table"] == "1"

    listing = check(client, "api-tournaments", "/api/tournaments/")
    assert [t["slug"] for t in listing["tournaments"]] == [slug]


def test_schema_is_served_and_matches_the_repository_file(client):
    response = client.get(reverse("tournaments:api-schema"))
    assert response.status_code == 200
    assert response.json() == json.loads(SCHEMA_PATH.read_text())


def test_schema_document_is_consistent():
    schema = openapi_schema()
    assert schema["openapi"].startswith("3.")
    for component in schema["components"]["schemas"].values():
        Draft202012Validator.check_schema(component)
    text = json.dumps(schema)
    referenced = {part.split('"')[0] for part in text.split('"$ref": "#/components/schemas/')[1:]}
    assert referenced <= set(schema["components"]["schemas"])


def test_every_api_route_is_documented():
    from tournaments.api.urls import urlpatterns

    documented = set(openapi_schema()["paths"])
    for pattern in urlpatterns:
        if pattern.name == "api-unknown":
            continue  # any other address: the 404 the schema's description tells of
        route = "/" + str(pattern.pattern).replace("<str:slug>", "{slug}")
        assert route in documented, route


def error_validator() -> Draft202012Validator:
    schema = openapi_schema()
    return Draft202012Validator(
        {"$ref": "#/components/schemas/Error", "components": schema["components"]}
    )


def check_error(response, status: int) -> str:
    """The answer is JSON of the ``Error`` schema, with ``status``; returns its message."""
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    errors = list(error_validator().iter_errors(data))
    assert not errors, errors
    return data["error"]


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
@pytest.mark.parametrize(
    ("name", "path"), [*ENDPOINTS, ("api-tournaments", ""), ("api-schema", "")]
)
def test_the_api_is_read_only_and_says_so_in_json(semifinal_tournament, method, name, path):
    """A browser or a script sending POST gets a JSON 405, not Django's HTML CSRF page."""
    client = Client(enforce_csrf_checks=True)
    kwargs = {"slug": semifinal_tournament.slug} if path else {}
    response = getattr(client, method)(
        reverse(f"tournaments:{name}", kwargs=kwargs), HTTP_ACCEPT_LANGUAGE="en"
    )
    message = check_error(response, 405)
    assert response["Allow"] == "GET, HEAD"
    assert message == f"This address does not take {method.upper()}; use GET, HEAD."


def test_head_is_answered(client, semifinal_tournament):
    url = reverse("tournaments:api-standings", kwargs={"slug": semifinal_tournament.slug})
    assert client.head(url).status_code == 200


@pytest.mark.parametrize(
    "url",
    [
        "/api/",
        "/api/nope/",
        "/api/tournaments/bob-2026/nope/",
        "/api/tournaments/bob-2026/standings/extra/",
        "/api/openapi.yaml",
    ],
)
def test_an_address_that_is_no_endpoint_is_a_json_404(client, semifinal_tournament, url):
    message = check_error(client.get(url, HTTP_ACCEPT_LANGUAGE="en"), 404)
    assert message == (
        f"There is no API address {url}; the addresses are listed in /api/openapi.json."
    )
    assert check_error(Client(enforce_csrf_checks=True).post(url), 404)


@pytest.mark.parametrize("slug", ["a b", "città", "x.y", "UPPER"])
def test_a_slug_that_cannot_exist_is_a_json_404_naming_it(client, slug):
    url = f"/api/tournaments/{quote(slug)}/standings/"
    message = check_error(client.get(url, HTTP_ACCEPT_LANGUAGE="en"), 404)
    assert message == f"No tournament with slug “{slug}”."


def test_errors_are_in_the_requests_language(client):
    message = check_error(
        client.get("/api/tournaments/nope/bracket/", HTTP_ACCEPT_LANGUAGE="it"), 404
    )
    assert message == "Nessun torneo con slug “nope”."


def test_an_endpoint_without_its_final_slash_is_redirected_in_json(client, semifinal_tournament):
    response = client.get("/api/tournaments/bob-2026/standings?x=1", HTTP_ACCEPT_LANGUAGE="en")
    message = check_error(response, 301)
    assert response["Location"] == "/api/tournaments/bob-2026/standings/?x=1"
    assert "/api/tournaments/bob-2026/standings/?x=1" in message
    followed = client.get("/api/tournaments", follow=True)
    assert followed.status_code == 200 and followed.redirect_chain == [("/api/tournaments/", 301)]


def test_a_failure_is_a_json_500_and_is_logged(client, semifinal_tournament, monkeypatch, caplog):
    from tournaments.api import views

    class Broken:
        class objects:  # noqa: N801 - stands in for the model's manager
            @staticmethod
            def filter(**kwargs):
                raise RuntimeError("database gone")

    monkeypatch.setattr(views, "Tournament", Broken)
    client.raise_request_exception = False  # as a real request: the answer, not a raise
    url = reverse("tournaments:api-standings", kwargs={"slug": semifinal_tournament.slug})
    message = check_error(client.get(url, HTTP_ACCEPT_LANGUAGE="en"), 500)
    assert message == "The server failed to answer; try again later (the failure is logged)."
    assert any("Internal Server Error" in record.getMessage() for record in caplog.records)
    assert any(record.exc_info for record in caplog.records)


def test_plain_standings_page(client, semifinal_tournament):
    url = reverse("tournaments:standings-plain", kwargs={"slug": semifinal_tournament.slug})
    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    for player in semifinal_tournament.players.all():
        assert player.display_name in body
    # Squads and stages by their names, not their internal keys.
    seated = semifinal_tournament.squads.filter(seats__isnull=False).distinct()
    assert seated
    for squad in seated:
        assert f'<td class="hide-small">{squad.name}</td>' in body
        assert f"{squad.slug}</td>" not in body
    assert "<td>Semifinal" in body or "<td>Preliminary" in body
    # Styled to fit a phone (the less important columns left to wide screens), still
    # without a script.
    assert "css/bob.css" in body and "<script" not in body
    assert '<th scope="col" class="hide-small">Squad</th>' in body
    assert '<span class="show-small help"><br>' in body  # the squad and rank under the name
    missing = reverse("tournaments:standings-plain", kwargs={"slug": "x"})
    assert client.get(missing).status_code == 404


EVERY_ENDPOINT = [
    *ENDPOINTS,
    ("api-tournaments", "/api/tournaments/"),
    ("api-schema", "/api/openapi.json"),
]


@pytest.mark.parametrize(("name", "path"), EVERY_ENDPOINT)
@pytest.mark.parametrize("query", ["status=running", "limit=", "stage"])
def test_a_query_parameter_is_a_400_naming_it(client, semifinal_tournament, name, path, query):
    """No endpoint takes a query parameter: a misspelt filter is not answered with the
    whole document as if it had filtered."""
    kwargs = {"slug": semifinal_tournament.slug} if "{slug}" in path else {}
    url = reverse(f"tournaments:{name}", kwargs=kwargs)
    response = client.get(f"{url}?{query}", HTTP_ACCEPT_LANGUAGE="en")
    message = check_error(response, 400)
    assert response_validator(path, "400").is_valid(response.json())
    parameter = query.split("=")[0]
    assert message == (
        f"This address takes no query parameters, so “{parameter}” would filter nothing: "
        f"remove it and ask {url} again (the addresses and what they take are listed in "
        "/api/openapi.json)."
    )


def test_every_query_parameter_is_named_in_the_requests_language(client, semifinal_tournament):
    url = reverse("tournaments:api-schedule", kwargs={"slug": semifinal_tournament.slug})
    response = client.get(f"{url}?stage=2&statu=open&stage=3", HTTP_ACCEPT_LANGUAGE="it")
    message = check_error(response, 400)
    assert "“stage”, “statu”" in message
    assert message.startswith("Questo indirizzo non accetta parametri")


def test_a_query_parameter_on_an_unknown_tournament_is_refused_first(client):
    """The parameter is wrong whatever the slug; it is checked before the database is."""
    message = check_error(
        client.get("/api/tournaments/nope/standings/?page=2", HTTP_ACCEPT_LANGUAGE="en"), 400
    )
    assert "“page”" in message


def test_a_head_with_a_query_parameter_is_refused_too(client, semifinal_tournament):
    url = reverse("tournaments:api-standings", kwargs={"slug": semifinal_tournament.slug})
    assert client.head(f"{url}?x=1").status_code == 400
