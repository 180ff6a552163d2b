"""Refused, missing and failed pages are the site's own, in the reader's language."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from tests.factories import SessionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _italian(client):
    client.cookies["django_language"] = "it"
    return client


def test_a_judge_of_another_session_gets_the_sites_refusal_in_italian(client):
    session = SessionFactory(judge=UserFactory())
    stranger = UserFactory(username="stranger")
    stranger.save()  # the factory does not save the password it sets
    client.force_login(stranger)
    response = _italian(client).get(reverse("tournaments:judge_session", args=[session.pk]))
    assert response.status_code == 403
    html = response.content.decode()
    assert '<html lang="it">' in html
    assert "<h1>Non consentito</h1>" in html
    assert "stranger" in html
    assert "Torna ai tornei" in html


def test_an_anonymous_refusal_offers_the_log_in(client):
    """A player's page asked for by a browser that speaks for nobody: the private link or
    the log-in, and back to the same page after logging in."""
    response = client.get(reverse("tournaments:player_home"))
    assert response.status_code == 403
    html = response.content.decode()
    assert "<h1>My games</h1>" in html and "Open the private link" in html
    assert reverse("tournaments:login") + "?next=" + reverse("tournaments:player_home") in html


def test_a_missing_page_in_english_and_italian(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in response.content.decode()
    response = _italian(client).get(reverse("tournaments:judge_session", args=[999999]))
    assert response.status_code in (302, 404)
    response = _italian(client).get("/no-such-page/")
    assert "<h1>Non trovato</h1>" in response.content.decode()


def test_the_server_error_page_renders_without_a_request_context():
    request = RequestFactory().get("/")
    with translation.override("it"):
        response = server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    assert "<h1>Errore del server</h1>" in html
    assert "Torna ai tornei" in html


def test_a_wrong_method_gets_a_page_in_english_and_italian(client, world):
    client.force_login(world.organiser)
    url = reverse("tournaments:organiser_start", args=[world.tournament.slug])
    response = client.get(url)
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    html = response.content.decode()
    assert "<h1>Not possible here</h1>" in html
    assert "does not take a GET request: it takes POST" in html
    italian = _italian(client).get(url)
    assert italian.status_code == 405
    assert '<html lang="it">' in italian.content.decode()
    assert "Torna ai tornei" in italian.content.decode()


def test_a_wrong_method_on_the_api_gets_a_json_error(client, world):
    response = client.post(reverse("tournaments:api-tournaments"))
    assert response.status_code == 405
    assert response.json()["error"] == "This address does not take POST; use GET, HEAD."
