"""A closed stage's settings are fixed, like its results (tournament rules decision 54).

QA: once stage 1 was closed, the organiser changed its rounds (8 → 10) and its map on the
stage page; it saved ("Fase salvata.") and the public page of a session already played
showed the new rounds and map. Now the save refuses any change to a closed stage, whoever
asks, with what to do instead, and the page shows the settings read-only.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import confirm_session, session_points
from tests.web.page_forms import form_on
from tournaments.actions.result_entry import record_result
from tournaments.actions.stage_advance import advance
from tournaments.actions.stage_undo import undo_advance
from tournaments.actions.tournament_setup import (
    StageSettingsError,
    save_stage,
    stage_settings_lock,
)
from tournaments.models import ActivityLog, Session, Stage, StageStatus, Stipulation
from tournaments.queries.edit_versions import stage_version
from tournaments.queries.playable_maps import map_title

pytestmark = pytest.mark.django_db

OLD_MAP, NEW_MAP = "reference", "hunt-derelict"


def stage_url(world, number: int = 1) -> str:
    return reverse("tournaments:organiser_stage", args=[world.tournament.slug, number])


def play(world) -> None:
    """Stage 1 on OLD_MAP with thresholds 30, 60, every session confirmed while playing the
    stage's stipulation (no copy of its own, as in QA's tournament)."""
    stage = Stage.objects.get(pk=world.stage.pk)
    stage.map_name = OLD_MAP
    save_stage(stage, [30, 60], actor=None)
    for session in world.stage.sessions.order_by("number"):
        assert not Stipulation.objects.filter(session=session).exists()
        record_result(
            session,
            session_points(session, lambda seat: seat.seat_order * 10),
            survivors=session.seats.values_list("player_id", flat=True),
            confirmed=True,
            dice=SeededDice(seed=session.pk),
        )


def close(world) -> None:
    advance(world.tournament, SeededDice(seed=3))
    world.stage.refresh_from_db()
    assert world.stage.status == StageStatus.CLOSED


def play_and_close(world) -> None:
    play(world)
    close(world)


def public_session_page(client, world) -> str:
    url = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    return client.get(url).content.decode()


def test_qa_changing_a_closed_stages_rounds_and_map_is_refused(world, role_client, client):
    organiser = role_client("organiser")
    play(world)
    typed = form_on(organiser.get(stage_url(world)).content.decode(), "thresholds")
    close(world)
    old_title, new_title = (map_title(world.tournament, name) for name in (OLD_MAP, NEW_MAP))
    assert old_title != new_title
    before = public_session_page(client, world)
    assert "Rounds: 8" in before and f"<dd>{old_title}</dd>" in before
    entries = ActivityLog.objects.filter(tournament=world.tournament).count()

    # The form loaded before the close (or typed afterwards), posted with QA's changes.
    changed = {**typed, "ah_rounds": ["10"], "map_name": [NEW_MAP]}
    refused = organiser.post(stage_url(world), changed, HTTP_ACCEPT_LANGUAGE="en")

    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Nothing was saved." in page and "Stage 1 is closed" in page
    assert "Undo the last stage advance" in page  # what the organiser can do instead
    assert 'id="stage-form"' not in page  # the settings as stored, read-only
    assert 'name="ah_rounds"' not in page
    stage = Stage.objects.get(pk=world.stage.pk)
    assert stage.stipulation_params["rounds"] == 8 and stage.map_name == OLD_MAP
    assert sorted(stage.thresholds.values_list("points", flat=True)) == [30, 60]
    assert set(Session.objects.filter(stage=stage).values_list("map_name", flat=True)) == {OLD_MAP}
    assert ActivityLog.objects.filter(tournament=world.tournament).count() == entries
    after = public_session_page(client, world)
    assert "Rounds: 8" in after and "Rounds: 10" not in after
    assert f"<dd>{old_title}</dd>" in after and new_title not in after


def test_the_closed_stage_page_shows_its_settings_read_only_with_the_reason(world, role_client):
    organiser = role_client("organiser")
    play_and_close(world)
    response = organiser.get(stage_url(world), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="stage-form"' not in page and "Save the stage" not in page
    assert 'id="settings-lock"' in page and "Stage 1 is closed" in page
    assert "Alien Hunt" in page and "Rounds: 8" in page
    assert OLD_MAP in page and "30, 60" in page
    assert 'id="undo-form"' in page  # the way to change them is on the same page
    assert "Checklist of stage 1" not in page  # nothing left to check: no empty box
    dashboard = organiser.get(
        reverse("tournaments:organiser_dashboard", args=[world.tournament.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert f'href="{stage_url(world)}">View' in dashboard
    assert f'href="{stage_url(world, 2)}">Edit' in dashboard  # the open stage stays editable


def test_a_closed_stage_with_no_action_left_shows_no_empty_box(world, role_client):
    """Once the next stage has a result its advance can no longer be undone, and the
    closed stage's page has neither a checklist, a close, an undo nor a draw to undo."""
    play_and_close(world)
    next_stage = Stage.objects.get(tournament=world.tournament, number=2)
    confirm_session(next_stage.sessions.order_by("number").first(), lambda seat: seat.seat_order)
    page = role_client("organiser").get(stage_url(world), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert 'id="undo-form"' not in text
    assert '<section class="card">' not in text


@pytest.mark.parametrize(
    "change",
    [
        {"map_name": NEW_MAP},
        {"rounds": 10},
        {"stipulation_kind": "tpk", "stipulation_params": {}},
        {"qualifier_count": 4},
        {"seating_method": "random"},
        {"thresholds": [30]},
    ],
)
def test_the_save_action_refuses_every_change_to_a_closed_stage(world, change):
    """The one write of a stage's settings: the page, a command and the API all call it."""
    play_and_close(world)
    stored = Stage.objects.get(pk=world.stage.pk)
    before = stage_version(stored)
    edited = Stage.objects.get(pk=world.stage.pk)
    thresholds = change.pop("thresholds", [30, 60])
    if "rounds" in change:
        edited.stipulation_params = {**edited.stipulation_params, "rounds": change.pop("rounds")}
    for name, value in change.items():
        setattr(edited, name, value)
    with pytest.raises(StageSettingsError, match="Stage 1 is closed") as refused:
        save_stage(edited, thresholds, actor=world.organiser, expected_version=before)
    assert "Undo the last stage advance" in str(refused.value)
    assert stage_version(Stage.objects.get(pk=world.stage.pk)) == before


def test_a_closed_stage_saved_unchanged_is_no_change_and_undoing_its_close_frees_it(world):
    play_and_close(world)
    assert save_stage(Stage.objects.get(pk=world.stage.pk), [60, 30], actor=None) is None
    stage = Stage.objects.get(pk=world.stage.pk)
    stage.stipulation_params = {**stage.stipulation_params, "rounds": 10}
    with pytest.raises(StageSettingsError):
        save_stage(stage, [30, 60], actor=world.organiser)
    undo_advance(world.tournament, reason="the rounds were wrong", actor=world.organiser)
    stage = Stage.objects.get(pk=world.stage.pk)
    assert stage_settings_lock(stage) is None
    stage.stipulation_params = {**stage.stipulation_params, "rounds": 10}
    assert save_stage(stage, [30, 60], actor=world.organiser) is not None
    assert Stage.objects.get(pk=stage.pk).stipulation_params["rounds"] == 10


def test_once_the_next_stage_is_played_the_reason_says_it_cannot_reopen(world):
    play_and_close(world)
    nxt = Session.objects.filter(stage__tournament=world.tournament, stage__number=2).first()
    confirm_session(nxt, lambda seat: seat.seat_order * 10)
    reason = stage_settings_lock(Stage.objects.get(pk=world.stage.pk))
    assert reason is not None
    assert "can no longer be reopened" in reason and "Undo the last stage advance" not in reason


def test_a_session_of_a_closed_stage_says_what_to_do_too(world, role_client):
    organiser = role_client("organiser")
    play_and_close(world)
    url = reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, world.session.pk]
    )
    page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="session-stipulation-form"' not in page
    assert 'id="session-threshold-form"' not in page
    assert "Stage 1 is closed" in page and "Undo the last stage advance" in page


def test_the_italian_organiser_reads_the_refusal_in_italian(world, role_client):
    organiser = role_client("organiser")
    play(world)
    typed = form_on(organiser.get(stage_url(world)).content.decode(), "thresholds")
    close(world)
    refused = organiser.post(
        stage_url(world), {**typed, "ah_rounds": ["10"]}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Non è stato salvato nulla." in page and "La fase 1 è chiusa" in page
    assert "Annulla l&#x27;ultimo avanzamento di fase" in page
    assert Stage.objects.get(pk=world.stage.pk).stipulation_params["rounds"] == 8
