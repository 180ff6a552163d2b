"""The judge at the table: draw, initiative, live scoring, result entry and locking."""

import pytest
from django.urls import reverse

from tournaments.forms.result import ResultForm
from tournaments.models import DiceRoll, Result, Session
from tournaments.queries.result_versions import latest_version
from tournaments.web.permissions import player_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def judge(world, role_client):
    return role_client("judge")


def seats_of(session):
    return list(session.seats.select_related("player").order_by("seat_order"))


def post_dice(client, name, session, prefix, **fields):
    data = {f"{prefix}-mode": "app", f"{prefix}-version": session.version}
    data.update({f"{prefix}-{key}": value for key, value in fields.items()})
    return client.post(reverse(f"tournaments:{name}", args=[session.pk]), data)


def test_app_draw_shows_the_commitment_first_and_the_seed_after(judge, world):
    sheet = judge.get(reverse("tournaments:judge_session", args=[world.session.pk]))
    page = sheet.content.decode()
    commitment = sheet.context["draw_commitment"]
    assert commitment in page
    response = post_dice(judge, "judge_draw", world.session, "draw")
    assert response.status_code == 302
    rolls = DiceRoll.objects.filter(session=world.session)
    seats = seats_of(world.session)
    assert all(seat.squad_id for seat in seats)
    assert len({seat.squad_id for seat in seats}) == 3
    for roll in rolls:
        assert roll.seed_commitment == commitment
    follow = judge.get(response["Location"]).content.decode()
    assert "Rolled by the app" in follow or "seed" in follow.lower()


def test_physical_dice_draw_and_initiative(judge, world):
    # All prefer different squads (register_players rotates the preferences) → no dice needed.
    response = post_dice(judge, "judge_draw", world.session, "draw", mode="app")
    assert response.status_code == 302
    world.session.refresh_from_db()
    response = post_dice(
        judge, "judge_initiative", world.session, "initiative", mode="physical", dice="2,6,4"
    )
    assert response.status_code == 302
    order = {seat.seat_order: seat.initiative_position for seat in seats_of(world.session)}
    assert order == {1: 3, 2: 1, 3: 2}
    scripted = DiceRoll.objects.filter(session=world.session, source="scripted")
    assert [roll.values for roll in scripted] == [[2], [6], [4]]


def test_bad_physical_dice_are_refused_with_the_reason(judge, world):
    post_dice(judge, "judge_draw", world.session, "draw")
    world.session.refresh_from_db()
    response = post_dice(
        judge, "judge_initiative", world.session, "initiative", mode="physical", dice="2,9,4"
    )
    assert response.status_code == 400
    assert "9" in response.content.decode()
    assert not any(seat.initiative_position for seat in seats_of(world.session))
    response = post_dice(
        judge, "judge_initiative", world.session, "initiative", mode="physical", dice="2,6"
    )
    assert response.status_code == 400
    assert "not enough dice" in response.content.decode()
    # The message says whose die is missing: the third seat's player rolls next.
    third = seats_of(world.session)[2].player.display_name
    assert f"for initiative, {third}’s die, is needed" in response.content.decode()


def test_stale_draw_is_refused(judge, world):
    stale_version = world.session.version
    Session.objects.filter(pk=world.session.pk).update(version=stale_version + 1)
    data = {"draw-mode": "app", "draw-version": stale_version}
    response = judge.post(reverse("tournaments:judge_draw", args=[world.session.pk]), data)
    assert response.status_code == 400
    assert not any(seat.squad_id for seat in seats_of(world.session))


def result_data(session, version, kills=None, tokens=None):
    """Form data: ``kills`` maps (killer index, victim index, class) to a count, ``tokens``
    a seat's index to the Gretchin tokens it took (1 point each; the session is an Alien
    Hunt, which scores no objective, decision 71); based on the session's latest result
    version, as the page loaded now would be."""
    seats = seats_of(session)
    latest = latest_version(session)
    data = {
        "version": version,
        "based_on": latest.number if latest else 0,
        "tie-mode": "app",
        "tie-version": version,
    }
    for seat in seats:
        data[ResultForm.key(seat, "survived")] = "on"
    for (killer, victim, marine_class), count in (kills or {}).items():
        name = f"kill-{seats[victim].player_id}-{marine_class}"
        data[ResultForm.key(seats[killer], name)] = count
    for index, count in (tokens or {}).items():
        data[ResultForm.key(seats[index], "token-0-type")] = "gretchin"
        data[ResultForm.key(seats[index], "token-0-count")] = count
        data[ResultForm.key(seats[index], "token-0-value")] = 1
    return data


def test_live_preview_scores_and_ranks_without_saving(judge, world):
    url = reverse("tournaments:judge_result_preview", args=[world.session.pk])
    data = result_data(world.session, world.session.version, {(0, 1, "heavy"): 2})
    response = judge.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    rows = response.context["preview"]["rows"]
    totals = {row["name"]: row["card"].total for row in rows}
    seats = seats_of(world.session)
    assert totals[seats[0].player.display_name] == 20
    assert totals[seats[1].player.display_name] == -20
    assert rows[0]["position"] == 1 and rows[0]["name"] == seats[0].player.display_name
    assert not Result.objects.filter(session=world.session).exists()


def test_preview_reports_bad_input(judge, world):
    url = reverse("tournaments:judge_result_preview", args=[world.session.pk])
    data = result_data(world.session, world.session.version)
    data[ResultForm.key(seats_of(world.session)[0], "kill-999-heavy")] = 1
    seat = seats_of(world.session)[0]
    data[ResultForm.key(seat, "stall-0-points")] = 5
    response = judge.post(url, data)
    assert response.context["preview"]["invalid"]


def test_result_entry_saves_a_confirmed_version_and_updates_standings(judge, world, client):
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    data = result_data(world.session, world.session.version, tokens={0: 30, 1: 10, 2: 20})
    response = judge.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    version = Result.objects.get(session=world.session).latest_version()
    assert version.confirmed
    seats = seats_of(world.session)
    assert version.ranking == [seats[0].player_id, seats[2].player_id, seats[1].player_id]
    standings = client.get(reverse("tournaments:standings", args=[world.tournament.slug]))
    assert ">30<" in standings.content.decode()
    page = client.get(
        reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    )
    rows = page.context["breakdown"]["rows"]
    assert rows[0]["name"] == seats[0].player.display_name and rows[0]["card"].total == 30
    # The score lines the judge's preview and a dispute show, each name a heading under
    # the page's "Point breakdown".
    html = page.content.decode()
    breakdown = html[html.index("Point breakdown</h3>") :]
    assert breakdown.index('<div class="preview-lines">') < breakdown.index(
        f'<h4 class="player-name">{seats[0].player.display_name}</h4>'
    )
    assert "30 × Gretchin token (1 each): 30" in html


def test_second_editor_is_refused_with_what_changed_and_nothing_overwritten(world, role_client):
    first = role_client("judge")
    second = role_client("organiser")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    loaded_version = world.session.version
    # Both open the form at the same version (the second one's loaded_at is before any save).
    opened = second.get(url)
    loaded_at = opened.context["loaded_at"]
    saved = first.post(url, result_data(world.session, loaded_version, tokens={0: 15}))
    assert saved.status_code == 302
    late = result_data(world.session, loaded_version, tokens={1: 99})
    late["loaded_at"] = loaded_at
    refused = second.post(url, late)
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Not saved" in page or "Non salvato" in page
    assert refused.context["changes"], "the refusal lists what changed"
    versions = Result.objects.get(session=world.session).versions.all()
    assert versions.count() == 1
    assert versions.get().breakdown[0]["alien_tokens"][0]["count"] == 15
    # The second editor's numbers are kept in the form for them to re-submit deliberately.
    key = ResultForm.key(seats_of(world.session)[1], "token-0-count")
    assert refused.context["form"][key].value() == 99


def test_player_cannot_reach_judge_pages(client, world):
    session = client.session
    session.update(player_session(world.player))
    session.save()
    response = client.get(reverse("tournaments:judge_session", args=[world.session.pk]))
    assert response.status_code == 302
