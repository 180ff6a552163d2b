"""The venue pages: the projector's tables and timer, the organiser's timer and disputes,
the player's next game, pending honours and the podium."""

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import (
    TournamentFactory,
    UserFactory,
    VenueTableFactory,
    confirm_stage,
    register_players,
)
from tests.web.conftest import as_player, login
from tests.web.test_player import add_cards, loadout_data
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.stage_advance import close_stage, start_tournament
from tournaments.models import ActivityLog, ActivityVerb, DisputeStatus, ResultDispute

pytestmark = pytest.mark.django_db


def by_seat_order(seat) -> int:
    return 10 * seat.seat_order


@pytest.fixture
def drawn(world):
    """The world's player's seat, squads drawn and the chapter cards entered."""
    draw_squads(world.session, SeededDice(seed=3), expected_version=world.session.version)
    add_cards(world.tournament)
    return world.session.seats.get(player=world.player)


def test_the_projector_shows_the_tables_with_squads_colours_and_the_timer(world, client, drawn):
    response = client.get(reverse("tournaments:projector", args=[world.tournament.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert [entry.session.number for entry in response.context["tables"]] == [1, 2, 3]
    assert drawn.squad.name in html
    assert f"swatch-{drawn.squad.colour}" in html
    assert drawn.squad.get_colour_display() in html
    assert 'data-testid="round-timer-clock">3:00:00<' in html
    assert 'data-panel="tables"' in html
    assert "<script>" not in html


def test_the_organiser_starts_pauses_and_resets_the_timer(world, client):
    login(client, world.organiser)
    url = reverse("tournaments:organiser_timer", args=[world.tournament.slug])
    state_url = reverse("tournaments:projector_timer", args=[world.tournament.slug])
    assert client.post(url, {"command": "start"}).status_code == 302
    assert client.get(state_url).json()["running"] is True
    assert client.post(url, {"command": "pause"}).status_code == 302
    assert client.get(state_url).json()["running"] is False
    page = client.post(url, {"command": "pause"}, follow=True)
    assert "The round timer is not running." in page.content.decode()
    refused = client.post(url, {"command": "reset", "minutes": 0})
    assert refused.status_code == 400
    assert client.post(url, {"command": "jump"}).status_code == 400
    assert client.post(url, {"command": "reset", "minutes": 50}).status_code == 302
    assert client.get(state_url).json() == {"running": False, "remaining": 3000, "duration": 3000}
    venue = client.get(reverse("tournaments:organiser_venue", args=[world.tournament.slug]))
    assert "0:50:00" in venue.content.decode()


def test_only_the_tournaments_organisers_drive_its_timer(world, client):
    url = reverse("tournaments:organiser_timer", args=[world.tournament.slug])
    login(client, world.judge)
    assert client.post(url, {"command": "start"}).status_code == 403
    stranger = UserFactory(username="other-organiser")
    stranger.save()
    login(client, stranger)
    assert client.post(url, {"command": "start"}).status_code == 403
    assert not ActivityLog.objects.filter(verb=ActivityVerb.STARTED_TIMER).exists()


def test_the_player_page_shows_next_table_squad_and_loadout_status(world, client, drawn):
    world.session.table = VenueTableFactory(tournament=world.tournament, name="7")
    world.session.save()
    as_player(client, world.player)
    home = reverse("tournaments:player_home")
    response = client.get(home)
    html = response.content.decode()
    [game] = response.context["next_games"]
    assert game.seat == drawn
    assert game.loadout_status == "missing"
    assert len(game.opponents) == 2
    assert "Your next game in Coppa BoB" in html
    assert drawn.squad.name in html
    assert "not chosen yet" in html
    client.post(reverse("tournaments:player_loadout", args=[drawn.pk]), loadout_data())
    assert "saved and valid" in client.get(home).content.decode()


def test_a_player_disputes_a_result_and_the_organiser_answers(world, client):
    confirm_stage(world.stage, by_seat_order)
    as_player(client, world.player)
    url = reverse("tournaments:player_dispute", args=[world.session.pk])
    page = client.get(url)
    assert [line.place for line in page.context["entry"].ranked_seats] == [1, 2, 3]
    assert client.post(url, {"reason": ""}).status_code == 400
    assert client.post(url, {"reason": "I had 40 points"}).status_code == 302
    again = client.post(url, {"reason": "Again"})
    assert again.status_code == 409
    # Once sent, the page shows the dispute waiting for its answer instead of the form.
    waiting = client.get(url).content.decode()
    assert "You disputed this result on" in waiting and "I had 40 points" in waiting
    assert 'name="reason"' not in waiting
    other_session = world.stage.sessions.exclude(pk=world.session.pk).first()
    assert (
        client.get(reverse("tournaments:player_dispute", args=[other_session.pk])).status_code
        == 404
    )

    dispute = ResultDispute.objects.get()
    organiser = login(client, world.organiser)
    venue = organiser.get(reverse("tournaments:organiser_venue", args=[world.tournament.slug]))
    assert "I had 40 points" in venue.content.decode()
    activity = organiser.get(
        reverse("tournaments:organiser_activity", args=[world.tournament.slug])
    )
    assert "disputed by" in activity.content.decode()
    resolve = reverse(
        "tournaments:organiser_dispute_resolve", args=[world.tournament.slug, dispute.pk]
    )
    prefix = f"dispute-{dispute.pk}"
    refused = organiser.post(resolve, {f"{prefix}-outcome": "noted", f"{prefix}-note": ""})
    assert refused.status_code == 302  # the action's reason comes back as a message
    assert ResultDispute.objects.get().status == DisputeStatus.OPEN
    answered = organiser.post(
        resolve, {f"{prefix}-outcome": "noted", f"{prefix}-note": "The sheet says 30."}
    )
    assert answered.status_code == 302
    assert ResultDispute.objects.get().status == DisputeStatus.NOTED

    as_player(client, world.player)
    assert "The sheet says 30." in client.get(reverse("tournaments:player_home")).content.decode()


def test_no_dispute_before_a_confirmed_result(world, client):
    as_player(client, world.player)
    url = reverse("tournaments:player_dispute", args=[world.session.pk])
    page = client.get(url).content.decode()
    assert "no confirmed result to dispute yet" in page and 'name="reason"' not in page
    refused = client.post(url, {"reason": "Too early"})
    assert refused.status_code == 409
    assert not ResultDispute.objects.exists()


def test_a_judge_cannot_resolve_a_dispute(world, client):
    confirm_stage(world.stage, by_seat_order)
    as_player(client, world.player)
    client.post(reverse("tournaments:player_dispute", args=[world.session.pk]), {"reason": "No"})
    dispute = ResultDispute.objects.get()
    login(client, world.judge)
    resolve = reverse(
        "tournaments:organiser_dispute_resolve", args=[world.tournament.slug, dispute.pk]
    )
    prefix = f"dispute-{dispute.pk}"
    response = client.post(resolve, {f"{prefix}-outcome": "noted", f"{prefix}-note": "ok"})
    assert response.status_code == 403
    assert ResultDispute.objects.get().status == DisputeStatus.OPEN


def test_pending_honours_show_at_once(world, client):
    confirm_stage(world.stage, by_seat_order)
    winner = world.session.seats.order_by("-seat_order").first().player
    honours = client.get(reverse("tournaments:honours", args=[world.tournament.slug]))
    html = honours.content.decode()
    assert html.count("pending until the stage closes") >= 3
    assert "Elite Squad" in html
    standings = client.get(reverse("tournaments:standings", args=[world.tournament.slug]))
    assert "+1 honour, pending until the stage closes" in standings.content.decode()
    assert winner.display_name in html
    as_player(client, winner)
    mine = client.get(reverse("tournaments:player_home"))
    [(tournament, pending)] = mine.context["pending_honours"]
    assert (tournament, pending.session_id) == (world.tournament, world.session.pk)
    assert "Elite Squad" in mine.content.decode()


def test_the_overview_and_the_projector_headline_the_podium_of_a_confirmed_final(client):
    tournament = TournamentFactory(slug="finale")
    register_players(tournament, 3)
    start_tournament(tournament, SeededDice(seed=5))
    stage = tournament.stages.get()
    confirm_stage(stage, by_seat_order)
    winner = stage.sessions.get().seats.order_by("-seat_order").first().player
    for name in ("tournaments:tournament", "tournaments:projector"):
        html = client.get(reverse(name, args=[tournament.slug])).content.decode()
        assert "podium-headline" in html
        assert "1st place" in html and winner.display_name in html
        assert ">qualified<" not in html


def test_a_closed_stage_offers_no_dispute(world, client):
    confirm_stage(world.stage, by_seat_order)
    close_stage(world.stage, SeededDice(seed=2))
    as_player(client, world.player)
    home = client.get(reverse("tournaments:player_home")).content.decode()
    assert "stage closed" in home
    url = reverse("tournaments:player_dispute", args=[world.session.pk])
    assert url not in home
    page = client.get(url).content.decode()
    assert "stage is closed, so its results can no longer change" in page
    assert 'name="reason"' not in page
    refused = client.post(url, {"reason": "Too late"})
    assert refused.status_code == 409
    assert not ResultDispute.objects.exists()


def test_the_set_up_pages_recent_activity_names_the_player_who_disputed(world, client):
    confirm_stage(world.stage, by_seat_order)
    as_player(client, world.player)
    url = reverse("tournaments:player_dispute", args=[world.session.pk])
    assert client.post(url, {"reason": "I had 40 points"}).status_code == 302
    organiser = login(client, world.organiser)
    page = organiser.get(reverse("tournaments:organiser_dashboard", args=[world.tournament.slug]))
    assert f"— {world.player.display_name} (player) — disputed a result:" in page.content.decode()
