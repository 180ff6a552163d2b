"""A save refused because someone else saved the result meanwhile shows every field that
differs (yours, theirs, the version both started from, who saved theirs and when), and
saves only once the judge has chosen for each: no value of the newer version is ever put
back to an older one by resubmitting."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from tests.factories import StipulationFactory, VenueTableFactory
from tests.web.test_result_form import page_data
from tournaments.actions.result_entry import record_result
from tournaments.actions.scheduling import schedule_session
from tournaments.forms.result import ResultForm
from tournaments.forms.result_conflict import MINE, THEIRS, choice_name
from tournaments.models import Result, StipulationKind

pytestmark = pytest.mark.django_db


def seats_of(world):
    return list(world.session.seats.select_related("player").order_by("seat_order"))


def shown(response, *, choose: dict[str, str] | None = None) -> dict:
    """What the browser posts for the page in ``response``: every field of its form as
    shown, the ticked radio buttons of the comparison (changed by ``choose``: field name ->
    mine/theirs), the tie dice and the correction's reason the judge typed."""
    data = {**page_data(response.context["form"]), "loaded_at": response.context["loaded_at"]}
    if response.context["reason_needed"]:  # a confirmed result changes with its reason
        data["reason"] = response.context["reason"] or "Recounted at the table"
    conflict = response.context.get("conflict")
    for change in conflict.changes if conflict else ():
        if change.choice is not None:
            data[change.choice_name] = change.choice
    for name, choice in (choose or {}).items():
        data[choice_name(name)] = choice
    return data


@pytest.fixture
def setup(world, role_client):
    """Version 1 saved; the judge and the organiser both open the form on it."""
    a, b, c = seats_of(world)
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    judge, organiser = role_client("judge"), role_client("organiser")
    kills = ResultForm.key(a, f"kill-{b.player_id}-heavy")
    first = judge.get(url)
    start = shown(first)
    start[kills] = 1
    assert judge.post(url, start).status_code == 302
    return {
        "url": url,
        "judge": judge,
        "organiser": organiser,
        "mine": judge.get(url),
        "theirs": organiser.get(url),
        "kills": kills,
        "own": ResultForm.key(c, "own-light"),
        "objective": ResultForm.key(b, "objective-0-points"),
        "seats": (a, b, c),
    }


def versions(world) -> list[list[dict]]:
    result = Result.objects.get(session=world.session)
    return [version.breakdown for version in result.versions.order_by("number")]


def kills_of(breakdown: list[dict], seat) -> list[dict]:
    return next(entry for entry in breakdown if entry["seat"] == str(seat.player_id))["kills"]


def test_a_refused_save_compares_field_by_field_and_one_more_click_reverts_nothing(world, setup):
    url, judge, organiser = setup["url"], setup["judge"], setup["organiser"]
    a, b, c = setup["seats"]
    # The organiser raises the kills to 2 and saves version 2.
    theirs = shown(setup["theirs"])
    theirs[setup["kills"]] = 2
    assert organiser.post(url, theirs).status_code == 302
    # The judge, still on version 1, adds an own-fire loss and leaves the kills at 1.
    mine = shown(setup["mine"])
    mine[setup["own"]] = 1
    refused = judge.post(url, mine)
    assert refused.status_code == 409
    assert len(versions(world)) == 2
    conflict = refused.context["conflict"]
    assert conflict.theirs.number == 2 and conflict.based_on == 1
    changes = {change.name: change for change in conflict.changes}
    assert set(changes) == {setup["kills"], setup["own"]}
    kills = changes[setup["kills"]]
    assert (kills.base, kills.mine, kills.theirs, kills.choice) == ("1", "1", "2", THEIRS)
    assert kills.where == f"{a.player.display_name} · Marines of {b.player.display_name} killed"
    assert kills.label == "heavy weapon (10)"
    own = changes[setup["own"]]
    assert (own.base, own.mine, own.theirs, own.choice) == ("0", "1", "0", MINE)
    page = refused.content.decode()
    assert "organiser saved version 2 (" in page
    assert "Version 1: 1" in page and "Yours (as in the form below): <strong>1</strong>" in page
    # What the judge typed is still in the form, with the session's new version token.
    assert refused.context["form"][setup["own"]].value() == 1
    world.session.refresh_from_db()
    assert refused.context["form"]["version"].value() == world.session.version

    # Posting the old page again is refused again: its version token is stale.
    assert judge.post(url, mine).status_code == 409
    # The new token without the choices of the comparison is refused too.
    tokened = shown(refused)
    for change in conflict.changes:
        del tokened[change.choice_name]
    again = judge.post(url, tokened)
    assert again.status_code == 409
    assert len(versions(world)) == 2, "nothing is saved without a choice for each difference"

    # One more click on the page as shown: the organiser's kills stay, the judge's loss too.
    saved = judge.post(url, shown(refused))
    assert saved.status_code == 302, saved.content.decode()[:3000]
    latest = versions(world)[-1]
    assert kills_of(latest, a) == [
        {"victim": str(b.player_id), "marine_class": "heavy", "count": 2}
    ]
    own_losses = next(e for e in latest if e["seat"] == str(c.player_id))["losses"]
    assert {"marine_class": "light", "cause": "own_fire", "killer": None, "count": 1} in own_losses


def test_a_value_both_changed_needs_an_explicit_choice(world, setup):
    url, judge, organiser = setup["url"], setup["judge"], setup["organiser"]
    a, b, _c = setup["seats"]
    theirs = shown(setup["theirs"])
    theirs[setup["kills"]] = 2
    assert organiser.post(url, theirs).status_code == 302
    mine = shown(setup["mine"])
    mine[setup["kills"]] = 3
    refused = judge.post(url, mine)
    assert refused.status_code == 409
    [change] = refused.context["conflict"].changes
    assert change.choice is None and change.both_changed
    assert "1 value was changed by both of you" in refused.content.decode()
    assert judge.post(url, shown(refused)).status_code == 409, "no choice, no save"
    saved = judge.post(url, shown(refused, choose={setup["kills"]: MINE}))
    assert saved.status_code == 302
    assert kills_of(versions(world)[-1], a)[0]["count"] == 3
    assert [kills_of(v, a)[0]["count"] for v in versions(world)] == [1, 2, 3]


@pytest.fixture
def flags(world):
    """The session is a Catch the Flag, whose flags are its objectives (decision 71)."""
    StipulationFactory(
        session=world.session, kind=StipulationKind.CATCH_THE_FLAG, params={"flag_value": 10}
    )


def test_choosing_theirs_takes_their_value_and_rows(world, flags, setup):
    url, judge, organiser = setup["url"], setup["judge"], setup["organiser"]
    a, b, _c = setup["seats"]
    theirs = shown(setup["theirs"])
    theirs[setup["objective"]] = 30
    theirs[ResultForm.key(b, "objective-0-label")] = "flag"
    assert organiser.post(url, theirs).status_code == 302
    mine = shown(setup["mine"])
    mine[setup["objective"]] = 10
    refused = judge.post(url, mine)
    names = {change.name for change in refused.context["conflict"].changes}
    assert names == {setup["objective"], ResultForm.key(b, "objective-0-label")}
    choose = dict.fromkeys(names, THEIRS)
    assert judge.post(url, shown(refused, choose=choose)).status_code == 302
    objectives = next(e for e in versions(world)[-1] if e["seat"] == str(b.player_id))
    assert objectives["objectives"] == [{"label": "flag", "points": 30}]


def test_a_newer_version_with_the_same_values_is_no_conflict(world, setup):
    """Nothing differs, so nothing can be reverted: the save goes through."""
    stored = Result.objects.get(session=world.session).latest_version()
    record_result(world.session, stored.breakdown, survivors=stored.survivors, confirmed=True)
    assert setup["judge"].post(setup["url"], shown(setup["mine"])).status_code == 302
    assert len(versions(world)) == 3


def test_a_change_elsewhere_in_the_session_keeps_the_entries(world, setup):
    url, judge = setup["url"], setup["judge"]
    world.session.refresh_from_db()
    when = datetime(2030, 5, 1, 15, 0, tzinfo=UTC)
    schedule_session(
        world.session,
        when=when,
        table=VenueTableFactory(tournament=world.tournament, name="7"),
        judge=world.judge,
        notify=False,
    )
    mine = shown(setup["mine"])
    mine[setup["own"]] = 1
    refused = judge.post(url, mine)
    assert refused.status_code == 409
    assert refused.context["conflict"] is None
    assert "its result did not change" in refused.content.decode()
    assert refused.context["form"][setup["own"]].value() == 1
    assert judge.post(url, shown(refused)).status_code == 302
