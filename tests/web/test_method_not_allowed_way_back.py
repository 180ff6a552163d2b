"""The 405 page ("Not possible here") offers the way back: the page the visitor came from,
when it is on this site."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_wrong_method_links_back_to_the_page_it_came_from_on_this_site(client, world):
    client.force_login(world.organiser)
    came_from = reverse("tournaments:organiser_dashboard", args=[world.tournament.slug])
    url = reverse("tournaments:organiser_start", args=[world.tournament.slug])
    response = client.get(url, HTTP_REFERER="http://testserver" + came_from)
    assert response.status_code == 405
    html = response.content.decode()
    assert f'<a href="http://testserver{came_from}" data-testid="back-to-referer">' in html
    assert "Back to the page you came from" in html
    assert "Back to the tournaments" in html


@pytest.mark.parametrize(
    "referer", ["https://elsewhere.example/page/", "//elsewhere.example/", "javascript:alert(1)"]
)
def test_a_wrong_method_never_links_to_another_site(client, world, referer):
    client.force_login(world.organiser)
    url = reverse("tournaments:organiser_start", args=[world.tournament.slug])
    html = client.get(url, HTTP_REFERER=referer).content.decode()
    assert "back-to-referer" not in html
    assert "elsewhere.example" not in html and "javascript:" not in html
    assert "Back to the tournaments" in html


def test_a_wrong_method_never_links_back_to_the_refused_address_itself(client, world):
    client.force_login(world.organiser)
    url = reverse("tournaments:organiser_start", args=[world.tournament.slug])
    html = client.get(url, HTTP_REFERER="http://testserver" + url).content.decode()
    assert "back-to-referer" not in html
