"""The stage page's Save with nothing changed says so and leaves the activity log alone;
a real change is saved, logged once and said "Stage saved."."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.page_forms import form_on
from tournaments.models import ActivityLog

pytestmark = pytest.mark.django_db


def shown_messages(response) -> list[tuple[str, str]]:
    return [(message.level_tag, str(message)) for message in response.context["messages"]]


def test_saving_the_stage_form_unchanged_logs_nothing_and_says_so(world, role_client):
    client = role_client("organiser")
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    form = form_on(page.content.decode(), "thresholds")
    log = ActivityLog.objects.filter(tournament=world.tournament)
    before = log.count()

    unchanged = client.post(url, form, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert unchanged.status_code == 200
    assert ("info", "Nothing changed: the stage's settings are as they were.") in shown_messages(
        unchanged
    )
    assert ("success", "Stage saved.") not in shown_messages(unchanged)
    assert log.count() == before

    changed = client.post(url, {**form, "thresholds": ["30"]}, follow=True)
    assert ("success", "Stage saved.") in shown_messages(changed)
    assert log.count() == before + 1
