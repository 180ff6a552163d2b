"""The organiser's long pages with several forms land at the part saved, after a save and
after a refused one (QA: on a phone, back at the top of the page, the organiser lost their
place): the session's thresholds, the judges and organisers, a squad draw's undo."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.web.page_forms import form_on
from tournaments.actions.session_setup import draw_squads

pytestmark = pytest.mark.django_db


def test_a_sessions_threshold_saved_or_refused_lands_at_the_thresholds(world, role_client):
    client = role_client("organiser")
    slug, pk = world.tournament.slug, world.session.pk
    page = reverse("tournaments:organiser_session_settings", args=[slug, pk])
    url = reverse("tournaments:organiser_session_threshold_add", args=[slug, pk])
    added = client.post(url, {"points": "40"})
    assert added["Location"] == f"{page}#thresholds"
    refused = client.post(url, {"points": "nine"})
    assert refused.status_code == 400
    assert (
        f'action="{url}#thresholds" novalidate id="session-threshold-form" data-scroll-on-load'
        in (refused.content.decode())
    )
    threshold = world.session.thresholds.get()
    removed = client.post(
        reverse("tournaments:organiser_session_threshold_remove", args=[slug, pk]),
        {"threshold": threshold.pk},
    )
    assert removed["Location"] == f"{page}#thresholds"


def test_judges_and_organisers_added_or_removed_land_at_their_list(world, role_client):
    client = role_client("organiser")
    slug = world.tournament.slug
    page = reverse("tournaments:organiser_judges", args=[slug])
    added = client.post(
        reverse("tournaments:organiser_add", args=[slug]), {"organiser-username": "judge"}
    )
    assert added["Location"] == f"{page}#organisers"
    removed = client.post(reverse("tournaments:organiser_remove", args=[slug, world.judge.pk]))
    assert removed["Location"] == f"{page}#organisers"
    unjudged = client.post(
        reverse("tournaments:organiser_judge_remove", args=[slug, world.judge.pk])
    )
    assert unjudged["Location"] == f"{page}#judges"
    judged = client.post(page, {"username": "judge"})
    assert judged["Location"] == f"{page}#judges"


def test_a_refused_undo_of_a_draw_opens_its_form_again(world, role_client):
    session = world.session
    draw_squads(session, SeededDice(seed=11), actor=world.judge, expected_version=session.version)
    client = role_client("organiser")
    stage_url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    form = form_on(client.get(stage_url).content.decode(), f"undraw{session.pk}-reason")
    url = reverse("tournaments:organiser_undo_draw", args=[world.tournament.slug, session.pk])
    refused = client.post(url, {**form, f"undraw{session.pk}-reason": [" "]})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "<details open>" in html
    assert f'action="{url}#stage-control" novalidate data-scroll-on-load' in html
    undone = client.post(url, {**form, f"undraw{session.pk}-reason": ["wrong squads"]})
    assert undone["Location"] == f"{stage_url}#stage-control"
