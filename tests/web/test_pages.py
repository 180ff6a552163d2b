"""Every page renders for the role it is meant for, in both languages."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def public_urls(world):
    slug = world.tournament.slug
    return [
        reverse("tournaments:home"),
        reverse("tournaments:tournament", args=[slug]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:standings_partial", args=[slug]),
        reverse("tournaments:schedule", args=[slug]),
        reverse("tournaments:session", args=[slug, world.session.pk]),
        reverse("tournaments:bracket", args=[slug]),
        reverse("tournaments:bracket_svg", args=[slug]),
        reverse("tournaments:honours", args=[slug]),
        reverse("tournaments:projector", args=[slug]),
    ]


@pytest.mark.parametrize("language", ["it", "en"])
def test_public_pages_render(client, world, language):
    client.cookies["django_language"] = language
    for url in public_urls(world):
        response = client.get(url)
        assert response.status_code == 200, url
    home = client.get(reverse("tournaments:tournament", args=[world.tournament.slug]))
    assert "Coppa BoB" in home.content.decode()


def test_bracket_svg_is_an_image(client, world):
    response = client.get(reverse("tournaments:bracket_svg", args=[world.tournament.slug]))
    assert response["Content-Type"].startswith("image/svg+xml")
    body = response.content.decode()
    assert body.startswith("<svg") and body.endswith("</svg>")
    assert world.player.display_name in body


def test_organiser_pages_render(role_client, world):
    client = role_client("organiser")
    slug = world.tournament.slug
    for name, args in [
        ("organiser_home", []),
        ("tournament_create", []),
        ("organiser_dashboard", [slug]),
        ("organiser_players", [slug]),
        ("organiser_judges", [slug]),
        ("organiser_catalogue", [slug]),
        ("organiser_stage", [slug, 1]),
        ("organiser_schedule", [slug]),
        ("organiser_activity", [slug]),
    ]:
        response = client.get(reverse(f"tournaments:{name}", args=args))
        assert response.status_code == 200, name


def test_judge_pages_render(role_client, world):
    client = role_client("judge")
    for name in ["judge_session", "judge_result", "judge_print_score"]:
        response = client.get(reverse(f"tournaments:{name}", args=[world.session.pk]))
        assert response.status_code == 200, name
    assert client.get(reverse("tournaments:judge_home")).status_code == 200


def test_player_pages_render(role_client, world):
    client = role_client("player")
    assert client.get(reverse("tournaments:player_home")).status_code == 200
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    assert client.get(url).status_code == 200
