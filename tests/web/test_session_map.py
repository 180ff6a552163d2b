"""A session's own map (decision 49): chosen on the session's settings page beside its
stipulation, the stage's by default; checked against the stipulation as the stage's map is
(decision 45); saved and logged old → new by the session settings' action, which refuses a
form loaded before someone else's save (decision 46); locked with the stipulation once the
session has a result; played by a game set up at the table afterwards and shown on the
public session page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from table.models import Game
from tests.factories import session_points
from tests.table.conftest import seat_squads
from tests.web.page_forms import form_on
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.result_entry import record_result
from tournaments.actions.session_settings import (
    SessionSettingsError,
    SettingsSaved,
    set_stipulation,
)
from tournaments.caching import generations
from tournaments.forms.session_settings import SessionStipulationForm
from tournaments.models import ActivityLog, Session, Stipulation, StipulationKind
from tournaments.queries.edit_versions import session_settings_version

pytestmark = pytest.mark.django_db

DERELICT = "Derelict (Alien Hunt) (hunt-derelict)"
REFERENCE = "Reference hulk (reference)"


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


@pytest.fixture
def derelict(world):
    """The stage plays Alien Hunt on the Derelict; the session has nothing of its own."""
    world.stage.map_name = "hunt-derelict"
    world.stage.save(update_fields=["map_name"])
    return world


def stage_plays(world, kind: str, params: dict, map_name: str) -> None:
    world.stage.stipulation_kind = kind
    world.stage.stipulation_params = params
    world.stage.map_name = map_name
    world.stage.save()


def settings_url(world) -> str:
    return reverse(
        "tournaments:organiser_session_settings", args=[world.tournament.slug, world.session.pk]
    )


def alien_hunt(**data: str) -> dict[str, str]:
    """The settings form as loaded for the stage's Alien Hunt, with ``data`` changed."""
    return {"stipulation_kind": "alien_hunt", "ah_rounds": "8", **data}


def session_of(world) -> Session:
    return Session.objects.select_related("stage__tournament").get(pk=world.session.pk)


def shown(response) -> list[tuple[str, str]]:
    return [(message.level_tag, str(message)) for message in response.context["messages"]]


# --- the form --------------------------------------------------------------------------------


def test_the_form_offers_the_stages_map_first_then_every_other_map(derelict):
    form = SessionStipulationForm(session=session_of(derelict))
    choices = list(form.fields["map_name"].choices)
    assert choices[0] == ("", f"The stage's map ({DERELICT})")
    others = [name for name, _label in choices[1:]]
    assert {"reference", "tpk-ring", "flag-relay"} <= set(others)
    assert "hunt-derelict" not in others  # the stage's map is the first choice
    assert form["map_name"].value() == ""


def test_a_session_seated_with_the_stages_map_plays_the_stages(derelict):
    Session.objects.filter(pk=derelict.session.pk).update(map_name="hunt-derelict")
    assert SessionStipulationForm(session=session_of(derelict))["map_name"].value() == ""
    Session.objects.filter(pk=derelict.session.pk).update(map_name="reference")
    assert SessionStipulationForm(session=session_of(derelict))["map_name"].value() == "reference"


def test_a_stage_without_a_map_is_named_so(world):
    form = SessionStipulationForm(session=session_of(world))
    assert list(form.fields["map_name"].choices)[0] == ("", "The stage's map (none chosen yet)")


def test_an_unknown_map_is_refused_at_the_field(derelict):
    form = SessionStipulationForm(alien_hunt(map_name="nowhere"), session=session_of(derelict))
    assert not form.is_valid()
    assert form.errors["map_name"] == [
        "The tournament has no map called “nowhere” and BoB ships none: choose one from the list."
    ]


def test_a_map_that_cannot_hold_the_stipulation_is_refused_at_the_map(world):
    stage_plays(world, StipulationKind.CATCH_THE_FLAG, {"flag_value": 30}, "flag-relay")
    data = {"stipulation_kind": "catch_the_flag", "ctf_flag_value": "30", "map_name": "tpk-ring"}
    form = SessionStipulationForm(data, session=session_of(world))
    assert not form.is_valid()
    [message] = form.errors["map_name"]
    assert message.startswith("The map “Ring (TPK) (tpk-ring)” has no flag spot")
    assert "Maps with enough flag spots: Relay station (Catch the Flag) (flag-relay)." in message
    assert "stipulation_kind" not in form.errors


# --- the page --------------------------------------------------------------------------------


def test_the_sessions_own_map_is_saved_logged_and_shown(organiser, derelict):
    world = derelict
    before = session_of(world).version
    response = organiser.post(settings_url(world), alien_hunt(map_name="reference"), follow=True)
    assert ("success", f"Saved: the session now plays on its own map, {REFERENCE}.") in shown(
        response
    )
    session = session_of(world)
    assert (session.map_name, session.version) == ("reference", before + 1)
    assert not Stipulation.objects.filter(session=session).exists()  # still the stage's
    entry = ActivityLog.objects.get(description_code="session_map_set")
    assert entry.details == {"session": session.pk, "map_from": "", "map_to": "reference"}
    assert entry.object_description == f"map of {session} changed: hunt-derelict → reference"
    assert entry.actor == world.organiser
    page = response.content.decode()
    assert f"This session plays on its own map: {REFERENCE} (the stage's: {DERELICT})." in page
    assert response.context["stipulation_form"]["map_name"].value() == "reference"
    schedule = organiser.get(
        reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
    )
    assert f"own map: {REFERENCE}" in schedule.content.decode()

    back = organiser.post(settings_url(world), alien_hunt(map_name=""), follow=True)
    assert ("success", "Saved: the session now plays on its stage's map again.") in shown(back)
    assert session_of(world).map_name == ""
    entry = ActivityLog.objects.get(description_code="session_map_stage")
    assert entry.object_description == (
        f"map of {session} changed: reference → the stage's, hunt-derelict"
    )
    assert f"It plays on its stage's map: {DERELICT}." in back.content.decode()


def test_saving_what_the_session_already_plays_changes_and_logs_nothing(organiser, derelict):
    response = organiser.post(settings_url(derelict), alien_hunt(map_name=""), follow=True)
    assert shown(response) == [
        ("info", "Nothing changed: the session already plays this stipulation on this map.")
    ]
    assert not Stipulation.objects.filter(session=derelict.session).exists()
    assert not ActivityLog.objects.filter(verb="updated").exists()


def test_a_stipulation_the_chosen_map_cannot_hold_is_refused_and_nothing_saved(organiser, world):
    stage_plays(world, StipulationKind.CATCH_THE_FLAG, {"flag_value": 30}, "flag-relay")
    response = organiser.post(
        settings_url(world),
        {"stipulation_kind": "catch_the_flag", "ctf_flag_value": "30", "map_name": "tpk-ring"},
    )
    assert response.status_code == 400
    [message] = response.context["stipulation_form"].errors["map_name"]
    assert message.startswith("The map “Ring (TPK) (tpk-ring)” has no flag spot")
    assert 'id="id_map_name_error"' in response.content.decode()
    assert session_of(world).map_name == ""
    assert not ActivityLog.objects.filter(verb="updated").exists()


def test_a_stipulation_and_the_map_it_needs_are_saved_together(organiser, world):
    # Catch the Flag alone is refused on the ring (no flag spot): with the map it needs,
    # one post saves both.
    stage_plays(world, StipulationKind.TPK, {}, "tpk-ring")
    response = organiser.post(
        settings_url(world),
        {"stipulation_kind": "catch_the_flag", "ctf_flag_value": "30", "map_name": "flag-relay"},
        follow=True,
    )
    assert ("success", "The session's stipulation and map are saved.") in shown(response)
    assert Stipulation.objects.get(session=world.session).kind == StipulationKind.CATCH_THE_FLAG
    assert session_of(world).map_name == "flag-relay"


def test_the_map_is_locked_with_the_stipulation_once_the_session_has_a_result(organiser, derelict):
    world = derelict
    record_result(world.session, session_points(world.session, lambda seat: seat.seat_order))
    page = organiser.get(settings_url(world)).content.decode()
    assert "neither can change any more" in page
    assert 'id="session-stipulation-form"' not in page
    assert f"It plays on its stage's map: {DERELICT}." in page
    refused = organiser.post(settings_url(world), alien_hunt(map_name="reference"))
    assert refused.status_code == 400
    assert "already has a result" in " ".join(
        refused.context["stipulation_form"].non_field_errors()
    )
    assert session_of(world).map_name == ""


def test_a_map_chosen_in_another_tab_is_not_lost(derelict, role_client):
    client = role_client("organiser")
    url = settings_url(derelict)
    tab_a = form_on(client.get(url).content.decode(), "stipulation_kind")
    tab_b = form_on(client.get(url).content.decode(), "stipulation_kind")
    assert client.post(url, {**tab_b, "map_name": ["reference"]}).status_code == 302
    refused = client.post(url, {**tab_a, "ah_rounds": ["12"]})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert f"Map: The stage&#x27;s map ({DERELICT}) → {REFERENCE}" in page
    again = form_on(page, "stipulation_kind")
    assert again["map_name"] == ["reference"] and again["ah_rounds"] == ["12"]
    assert client.post(url, again).status_code == 302
    assert session_of(derelict).map_name == "reference"
    assert Stipulation.objects.get(session=derelict.session).params["rounds"] == 12


# --- the action ------------------------------------------------------------------------------


def test_the_action_logs_the_map_and_takes_the_stages_as_none_of_its_own(
    derelict, django_capture_on_commit_callbacks
):
    session = session_of(derelict)
    before = generations.current(derelict.tournament.slug)
    with django_capture_on_commit_callbacks(execute=True):
        saved = set_stipulation(
            session, "alien_hunt", {"rounds": 8}, map_name="reference", actor=derelict.organiser
        )
    assert saved == SettingsSaved(stipulation=False, map=True)
    assert generations.current(derelict.tournament.slug) != before  # cached pages renew
    assert session.map_name == "reference"  # the caller's session holds the new map
    saved = set_stipulation(session, "alien_hunt", {"rounds": 8}, map_name="hunt-derelict")
    assert saved == SettingsSaved(stipulation=False, map=True)
    assert session_of(derelict).map_name == ""
    assert set_stipulation(session, "alien_hunt", {"rounds": 8}) == SettingsSaved(False, False)
    logged = ActivityLog.objects.filter(details__session=session.pk).order_by("pk")
    assert [(e.details["map_from"], e.details["map_to"]) for e in logged] == [
        ("", "reference"),
        ("reference", ""),
    ]


def test_the_action_refuses_a_misfit_and_an_unknown_map_and_saves_nothing(world):
    stage_plays(world, StipulationKind.CATCH_THE_FLAG, {"flag_value": 30}, "flag-relay")
    session = session_of(world)
    with pytest.raises(SessionSettingsError, match="“Ring \\(TPK\\) \\(tpk-ring\\)” has no flag"):
        set_stipulation(session, "catch_the_flag", {"flag_value": 30}, map_name="tpk-ring")
    with pytest.raises(SessionSettingsError, match="no map called “nowhere”"):
        set_stipulation(session, "catch_the_flag", {"flag_value": 30}, map_name="nowhere")
    assert session_of(world).map_name == ""
    assert not ActivityLog.objects.filter(verb="updated").exists()


def test_the_action_refuses_a_form_loaded_before_the_map_changed(derelict):
    session = session_of(derelict)
    loaded = session_settings_version(session)
    set_stipulation(session, "alien_hunt", {"rounds": 8}, map_name="reference")
    with pytest.raises(StaleEditError):
        set_stipulation(
            session, "alien_hunt", {"rounds": 9}, map_name="reference", expected_version=loaded
        )
    assert not Stipulation.objects.filter(session=session).exists()


# --- the board and the public page -----------------------------------------------------------


def test_a_game_set_up_afterwards_plays_the_sessions_map(organiser, derelict, role_client):
    world = derelict
    seat_squads(world)
    judge = role_client("judge")
    games = reverse("table:games", args=[world.session.pk])
    before = {"map_name": "hunt-derelict", "policy": "bob", "label": "before"}
    assert judge.post(games, before).status_code == 302
    public = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    assert "<dd>Derelict (Alien Hunt)</dd>" in organiser.get(public).content.decode()

    organiser.post(settings_url(world), alien_hunt(map_name="reference"))
    form = judge.get(games).context["form"]
    assert form["map_name"].value() == "reference"
    response = judge.post(games, {"map_name": "reference", "policy": "bob", "label": "after"})
    assert response.status_code == 302
    maps = dict(Game.objects.filter(session=world.session).values_list("label", "map_name"))
    assert maps == {"before": "hunt-derelict", "after": "reference"}  # the first keeps its map
    board = judge.get(response["Location"]).content.decode()
    assert "— Reference hulk</span></h1>" in board

    assert "<dd>Reference hulk</dd>" in organiser.get(public).content.decode()
