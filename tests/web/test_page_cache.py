"""The anonymous standings page is cached, yet changes as soon as a result is saved, and
never serves one visitor's CSRF token or personal menu to another."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.test_judge import result_data

pytestmark = pytest.mark.django_db


def standings_url(world) -> str:
    return reverse("tournaments:standings", args=[world.tournament.slug])


def test_cached_page_follows_a_new_result(world, role_client, django_capture_on_commit_callbacks):
    public = Client()
    before = public.get(standings_url(world))
    assert before.status_code == 200
    judge = role_client("judge")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = judge.post(
            url, result_data(world.session, world.session.version, objective={0: 45})
        )
    assert response.status_code == 302
    after = public.get(standings_url(world)).content.decode()
    assert after != before.content.decode()
    assert ">45<" in after


def test_each_visitor_gets_their_own_csrf_token(world):
    first, second = Client(), Client(enforce_csrf_checks=True)
    page_one = first.get(standings_url(world))
    page_two = second.get(standings_url(world))
    token_one = first.cookies["csrftoken"].value
    token_two = second.cookies["csrftoken"].value
    assert token_one != token_two
    assert "bob-csrf-token-slot" not in page_two.content.decode()
    # The language form works with the token served from the cache.
    switched = second.post(
        "/i18n/setlang/",
        {
            "language": "en",
            "next": standings_url(world),
            "csrfmiddlewaretoken": _form_token(page_two.content.decode()),
        },
    )
    assert switched.status_code == 302
    assert page_one.status_code == 200


def _form_token(page: str) -> str:
    marker = 'name="csrfmiddlewaretoken" value="'
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


def test_logged_in_pages_are_not_shared(world, role_client):
    Client().get(standings_url(world))  # fills the anonymous cache
    organiser = role_client("organiser").get(standings_url(world)).content.decode()
    assert "Log out organiser" in organiser or "organiser" in organiser
    anonymous = Client().get(standings_url(world)).content.decode()
    assert "organiser" not in anonymous
