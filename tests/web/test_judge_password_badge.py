"""A judge added without a password (their link not used yet): the Judges page says so next
to the link action, and the stage planner does not tick them at first (they could not open
their sessions), still offering them, with a note."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BADGE = '<span class="badge">no password yet</span>'


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def newcomer(world):
    """A judge whose account has no usable password yet."""
    judge = UserFactory(username="nuovo", first_name="Nora", last_name="Nuova")
    judge.set_unusable_password()
    judge.save()
    world.tournament.judges.add(judge)
    return judge


def judges_page(client, world, language: str = "en") -> str:
    url = reverse("tournaments:organiser_judges", args=[world.tournament.slug])
    return html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())


def test_the_judges_page_marks_a_judge_without_a_password(organiser, world, newcomer):
    page = judges_page(organiser, world)
    assert page.count(BADGE) == 1
    item = page[page.index("Nora Nuova") :]
    assert item.index(BADGE) < item.index("Password link") < item.index("</li>")


def test_no_badge_when_every_judge_has_a_password(organiser, world):
    assert BADGE not in judges_page(organiser, world)


def test_the_planner_does_not_tick_a_judge_who_cannot_log_in(organiser, world, newcomer):
    url = reverse("tournaments:organiser_grid", args=[world.tournament.slug, world.stage.number])
    form = organiser.get(url).context["plan_form"]
    offered = {choice.data["value"].value: choice.data["selected"] for choice in form["judges"]}
    assert offered[newcomer.pk] is False
    assert offered[world.judge.pk] is True and offered[world.other_judge.pk] is True
    assert form["judges"].help_text.endswith(
        "Nora Nuova (nuovo) is not ticked: they have no password yet, so cannot log in (the "
        "Judges page has their password link); tick them anyway to give them sessions."
    )


def test_the_planner_has_no_note_when_every_judge_can_log_in(organiser, world):
    url = reverse("tournaments:organiser_grid", args=[world.tournament.slug, world.stage.number])
    form = organiser.get(url).context["plan_form"]
    assert "not ticked" not in str(form["judges"].help_text)
