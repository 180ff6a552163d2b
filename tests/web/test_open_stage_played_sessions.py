"""An open stage's new stipulation or map does not reach its sessions that have a result.

QA (phone, Italian): stage 1 was open, session 1 had its result; the organiser changed the
stage's rounds (8 → 10) and map, and session 1's public page then showed rules it was not
played with. A session's own stipulation and map lock at its first result (stored decision
11, decision 49), so the stage's old ones become the played session's own, the other
sessions follow the stage, and the organiser is told which sessions kept theirs.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import confirm_session
from tests.web.page_forms import form_on
from tournaments.actions.tournament_setup import save_stage
from tournaments.models import ActivityLog, Session, Stage, Stipulation, clean_stipulation_params
from tournaments.queries.playable_maps import map_title
from tournaments.queries.session_stipulation import own_map_name

pytestmark = pytest.mark.django_db

OLD_MAP, NEW_MAP = "reference", "hunt-derelict"


def stage_url(world) -> str:
    return reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])


def public_page(client, world, session: Session) -> str:
    url = reverse("tournaments:session", args=[world.tournament.slug, session.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


@pytest.fixture
def played(world) -> list[Session]:
    """Stage 1 on OLD_MAP playing its own stipulation (no session has a copy); session 1
    has a confirmed result, the others none."""
    stage = Stage.objects.get(pk=world.stage.pk)
    stage.map_name = OLD_MAP
    save_stage(stage, [], actor=None)
    sessions = list(Session.objects.filter(stage=stage).order_by("number"))
    assert not Stipulation.objects.filter(session__in=sessions).exists()
    Stipulation.objects.filter(session=sessions[0]).delete()
    confirm_session_playing_the_stage(sessions[0])
    return sessions


def confirm_session_playing_the_stage(session: Session) -> None:
    """``confirm_session`` gives a session without a stipulation one of its own: here the
    session plays the stage's, as in QA's tournament."""
    confirm_session(session, lambda seat: seat.seat_order * 10)
    Stipulation.objects.filter(session=session).delete()


def test_qa_the_played_session_keeps_its_rounds_and_map(world, played, role_client, client):
    organiser = role_client("organiser")
    old_title, new_title = (map_title(world.tournament, name) for name in (OLD_MAP, NEW_MAP))
    before = public_page(client, world, played[0])
    assert "Rounds: 8" in before and f"<dd>{old_title}</dd>" in before

    typed = form_on(organiser.get(stage_url(world)).content.decode(), "thresholds")
    saved = organiser.post(
        stage_url(world),
        {**typed, "ah_rounds": ["10"], "map_name": [NEW_MAP]},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )

    page = saved.content.decode()
    assert "Stage saved." in page
    assert (
        "Session 1 already has a result, so it keeps the stipulation and map it was played "
        "with; the new settings apply to the stage&#x27;s other sessions."
    ) in page
    stage = Stage.objects.get(pk=world.stage.pk)
    assert stage.stipulation_params["rounds"] == 10 and stage.map_name == NEW_MAP
    after = public_page(client, world, played[0])
    assert "Rounds: 8" in after and "Rounds: 10" not in after
    assert f"<dd>{old_title}</dd>" in after and new_title not in after
    kept = Stipulation.objects.get(session=played[0])
    assert (kept.kind, kept.params["rounds"]) == ("alien_hunt", 8)
    assert own_map_name(Session.objects.get(pk=played[0].pk)) == OLD_MAP
    # The sessions without a result play the new settings, still as the stage's.
    other = Session.objects.get(pk=played[1].pk)
    assert not Stipulation.objects.filter(session=other).exists()
    assert other.map_name == NEW_MAP and own_map_name(other) == ""
    follows = public_page(client, world, other)
    assert "Rounds: 10" in follows and f"<dd>{new_title}</dd>" in follows
    entry = ActivityLog.objects.filter(tournament=world.tournament).latest("pk")
    assert entry.details["kept_sessions"] == [1]


def test_the_italian_organiser_is_told_too(world, played, role_client):
    organiser = role_client("organiser")
    typed = form_on(organiser.get(stage_url(world)).content.decode(), "thresholds")
    saved = organiser.post(
        stage_url(world), {**typed, "ah_rounds": ["10"]}, HTTP_ACCEPT_LANGUAGE="it", follow=True
    )
    page = saved.content.decode()
    assert "La sessione 1 ha già un risultato" in page


def test_a_session_with_a_blank_map_keeps_the_stages_old_one(world, played):
    Session.objects.filter(pk=played[0].pk).update(map_name="")
    stage = Stage.objects.get(pk=world.stage.pk)
    stage.map_name = NEW_MAP
    assert save_stage(stage, [], actor=None).kept == (1,)
    assert Session.objects.get(pk=played[0].pk).map_name == OLD_MAP


@pytest.mark.parametrize(
    "change",
    [{"qualifier_count": 4}, {"seating_method": "random"}, {"thresholds": [30]}],
)
def test_other_changes_keep_nothing_and_say_nothing(world, played, change):
    stage = Stage.objects.get(pk=world.stage.pk)
    thresholds = change.pop("thresholds", [])
    for name, value in change.items():
        setattr(stage, name, value)
    assert save_stage(stage, thresholds, actor=None).kept == ()
    assert not Stipulation.objects.filter(session=played[0]).exists()


def test_a_session_with_its_own_settings_keeps_them_and_is_not_named(world, played):
    """A played session that chose its own stipulation and map already keeps them."""
    Stipulation.objects.create(session=played[0], kind="alien_hunt", params={"rounds": 12})
    Session.objects.filter(pk=played[0].pk).update(map_name="flag-relay")
    stage = Stage.objects.get(pk=world.stage.pk)
    stage.map_name = NEW_MAP
    stage.stipulation_params = {**stage.stipulation_params, "rounds": 10}
    assert save_stage(stage, [], actor=None).kept == ()
    session = Session.objects.get(pk=played[0].pk)
    assert session.map_name == "flag-relay" and session.stipulation.params["rounds"] == 12


def test_without_a_result_every_session_follows(world):
    stage = Stage.objects.get(pk=world.stage.pk)
    stage.map_name = NEW_MAP
    stage.stipulation_params = {**stage.stipulation_params, "rounds": 10}
    assert save_stage(stage, [], actor=None).kept == ()
    assert set(Session.objects.filter(stage=stage).values_list("map_name", flat=True)) == {NEW_MAP}
    assert not Stipulation.objects.filter(session__stage=stage).exists()


def test_sessions_seated_with_the_stages_stipulation_follow_its_change(world, played, client):
    """Seating copies the stage's stipulation onto each session (``stage_advance``): the
    copy is not a choice of the session's own, so the stage's new stipulation reaches the
    sessions without a result (QA: the flag count changed on the stage page, the unplayed
    session kept the old one); a session given another stipulation keeps it."""
    stage = Stage.objects.get(pk=world.stage.pk)
    seated = clean_stipulation_params(stage.stipulation_kind, stage.stipulation_params)
    for session in played:
        Stipulation.objects.create(session=session, kind=stage.stipulation_kind, params=seated)
    Stipulation.objects.filter(session=played[2]).update(params={**seated, "rounds": 12})
    stage.stipulation_params = {**stage.stipulation_params, "rounds": 10}
    assert save_stage(stage, [], actor=None).kept == ()
    assert Stipulation.objects.get(session=played[0]).params["rounds"] == 8  # played
    assert not Stipulation.objects.filter(session=played[1]).exists()  # follows the stage
    assert Stipulation.objects.get(session=played[2]).params["rounds"] == 12  # its own
    assert "Rounds: 10" in public_page(client, world, played[1])
