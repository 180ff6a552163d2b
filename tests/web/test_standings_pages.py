"""The standings table comes a page of players at a time (``?page=N``, ``?page=all`` for
everyone), its live poll follows the page it was loaded with, and a stage with many
sessions lists its session cards on the page of all players only."""

import re
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import (
    TournamentFactory,
    VenueTableFactory,
    confirm_session,
    confirm_stage,
    register_players,
)
from tournaments.queries.standings import (
    compute_standings,
    data_stamp,
    read_tournament,
    stamp_by_slug,
)
from tournaments.views import public

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_pages(monkeypatch):
    """Pages of 4 players, session cards listed for stages of at most 2 sessions (the
    world's 9 players make 3 pages and a stage of 3 sessions)."""
    monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 4)
    monkeypatch.setattr(public, "SESSION_CARDS_PER_PAGE", 2)


def places(html: str) -> list[int]:
    table = html[html.index('<table id="standings-table">') :]
    table = table[: table.index("</table>")]
    return [int(place) for place in re.findall(r'<tr><td class="num">(\d+)</td>', table)]


def get(world, query: str = "", name: str = "standings") -> str:
    url = reverse(f"tournaments:{name}", args=[world.tournament.slug]) + query
    response = Client().get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_standings_show_a_page_of_players_and_the_way_to_the_others(world, small_pages):
    first = get(world)
    assert places(first) == [1, 2, 3, 4]
    path = reverse("tournaments:standings", args=[world.tournament.slug])
    assert f'href="{path}?page=2" rel="next"' in first
    assert 'rel="prev"' not in first
    assert f'href="{path}?page=all"' in first
    last = get(world, "?page=3")
    assert places(last) == [9]
    assert f'href="{path}?page=2" rel="prev"' in last
    assert 'rel="next"' not in last


def test_every_player_on_the_page_of_all(world, small_pages):
    html = get(world, "?page=all")
    assert places(html) == list(range(1, 10))
    assert 'rel="next"' not in html
    assert html.count('<article class="card">') == 3


def test_a_page_number_out_of_range_shows_the_nearest_page(world, small_pages):
    assert places(get(world, "?page=99")) == [9]
    assert places(get(world, "?page=0")) == [1, 2, 3, 4]
    assert places(get(world, "?page=third")) == [1, 2, 3, 4]


def test_a_large_stage_links_to_its_session_cards(world, small_pages):
    html = get(world)
    assert '<article class="card">' not in html
    path = reverse("tournaments:standings", args=[world.tournament.slug])
    assert f'href="{path}?page=all#sessions-1"' in html
    assert 'id="sessions-1"' in get(world, "?page=all")


def test_without_the_limits_a_small_tournament_is_one_page(world):
    html = get(world)
    assert places(html) == list(range(1, 10))
    assert 'class="pager"' not in html
    assert html.count('<article class="card">') == 3


def test_the_live_poll_follows_the_page_it_was_loaded_with(world, small_pages):
    page_two = get(world, "?page=2")
    partial = reverse("tournaments:standings_partial", args=[world.tournament.slug])
    assert f'hx-get="{partial}?page=2"' in page_two
    assert places(get(world, "?page=2", "standings_partial")) == [5, 6, 7, 8]
    client = Client()
    etags = {client.get(partial + query)["ETag"] for query in ("", "?page=2", "?page=all")}
    assert len(etags) == 3


def rank_rows(html: str) -> list[str]:
    """The players named in the squad-rank table, in order."""
    table = html[html.index("Squad ranks") :]
    table = table[: table.index("</table>")]
    return re.findall(r'<tr><td><a href="[^"]+">([^<]+)</a></td>', table)


def test_the_honours_page_lists_a_page_of_squad_ranks_and_the_way_to_the_others(world, monkeypatch):
    monkeypatch.setattr(public, "HONOURS_PAGE_SIZE", 4)
    path = reverse("tournaments:honours", args=[world.tournament.slug])
    everyone = rank_rows(get(world, "?page=all", name="honours"))
    assert len(everyone) == 9
    assert everyone == sorted(everyone, key=str.lower)
    first = get(world, name="honours")
    assert rank_rows(first) == everyone[:4]
    assert f'href="{path}?page=2" rel="next"' in first
    assert f'href="{path}?page=all"' in first
    last = get(world, "?page=3", name="honours")
    assert rank_rows(last) == everyone[8:]
    assert f'href="{path}?page=2" rel="prev"' in last
    assert rank_rows(get(world, "?page=99", name="honours")) == everyone[8:]
    assert 'rel="next"' not in get(world, "?page=all", name="honours")


def test_the_long_tables_escape_names_and_link_every_player(world):
    """The standings and honours rows are written in Python, not by the template: every
    name is escaped there, and the pending honours link their players as the other rows
    do."""
    confirm_stage(world.stage, lambda seat: 10 * seat.seat_order)
    winner = world.session.seats.order_by("-seat_order").first()
    winner.player.nickname = '<b>Ann & "Bo"</b>'
    winner.player.save()
    squad = world.tournament.squads.first()
    squad.name_en = "<i>Blood</i>"
    squad.save()
    winner.squad = squad
    winner.save()
    escaped = "&lt;b&gt;Ann &amp; &quot;Bo&quot;&lt;/b&gt;"
    player_link = reverse("tournaments:player", args=[world.tournament.slug, winner.player_id])
    standings = get(world, "?page=all")
    assert f'<a href="{player_link}">{escaped}</a>' in standings
    assert "&lt;i&gt;Blood&lt;/i&gt;" in standings
    assert "<b>Ann" not in standings and "<i>Blood" not in standings
    assert "+1 honour, pending until the stage closes" in standings
    honours = get(world, "?page=all", name="honours")
    pending_row = f'<tr class="pending-honour-row"><td><a href="{player_link}">{escaped}</a></td>'
    assert pending_row in honours
    assert honours.count(f'<a href="{player_link}">{escaped}</a>') == 2  # pending, and rank
    assert "<b>Ann" not in honours and "<i>Blood" not in honours


def test_on_a_phone_a_players_squad_shows_under_the_name_once_drawn(world):
    """The squad column is for wider screens; a phone reads the squad under the name, and
    nothing there before the squads are drawn."""
    world.session.seats.update(squad=None)
    drawn = world.session.seats.order_by("seat_order").first()
    drawn.squad = world.tournament.squads.first()
    drawn.save()
    table = get(world, "?page=all")
    table = table[table.index('<table id="standings-table">') : table.index("</table>")]
    assert table.count('<span class="show-small"><br>') == 1
    swatch = f'<span class="swatch swatch-{drawn.squad.colour}"'
    assert f'<span class="show-small"><br><span class="squad">{swatch}' in table


def test_the_podium_says_its_points_are_the_finals(db, client):
    """QA: the podium gave a finalist 10 points beside 15 in the table below it: they are
    the final's points, and say so."""
    tournament = TournamentFactory(slug="finita")
    register_players(tournament, 9)
    call_command("advance", "finita", "--seed", "1", stdout=StringIO())
    for number in (1, 2, 3):
        confirm_stage(tournament.stages.get(number=number), lambda seat: seat.pk % 7)
        call_command("advance", "finita", "--seed", str(number + 1), stdout=StringIO())
    standings = compute_standings(tournament)
    first = standings["podium"][0]
    final = standings["stages"][-1]["sessions"][0]["seats"]
    points = next(seat["points"] for seat in final if seat["player_id"] == first["player_id"])
    assert first["points"] == points
    for page in ("tournaments:standings", "tournaments:tournament"):
        html = client.get(reverse(page, args=["finita"])).content.decode()
        assert f"points in the final: {points}" in html, page


def test_mid_stage_the_players_awaiting_a_result_are_marked_provisional(
    world, django_capture_on_commit_callbacks
):
    """QA: mid-stage, players still to play were listed below one who had played and lost,
    with nothing saying why. Each is marked, and the table says it is provisional."""
    confirm_session(world.session, lambda seat: 10 * seat.seat_order)
    standings = compute_standings(world.tournament)
    played = {seat.player_id for seat in world.session.seats.all()}
    for row in standings["players"]:
        assert row["awaiting_result"] is (row["player_id"] not in played), row
    html = get(world)
    assert "Provisional: 6 players are awaiting the result of their latest session" in html
    table = html[html.index('<table id="standings-table">') :]
    rows = table[: table.index("</table>")].split("<tr>")[2:]
    marked = [("awaiting result" in row) for row in rows]
    assert marked == [False] * 3 + [True] * 6  # the three who played first, then the rest
    assert "awaiting result" in get(world, name="projector")

    with django_capture_on_commit_callbacks(execute=True):  # the cached pages go stale
        for session in world.stage.sessions.exclude(pk=world.session.pk):
            confirm_session(session, lambda seat: seat.seat_order)
    html = get(world)
    assert "Provisional" not in html and "awaiting result" not in html


def test_awaiting_a_result_is_a_note_under_the_stage_not_a_badge(world):
    """QA: as a badge, "in attesa del risultato" wrapped to three lines inside its rounded
    outline in a phone's last column; a note under the stage wraps as any text does."""
    confirm_session(world.session, lambda seat: 10 * seat.seat_order)
    for name in ("standings", "standings-plain"):
        html = get(world, name=name)
        assert html.count('<br><span class="help">awaiting result</span>') == 6, name
        assert '<span class="badge">awaiting result' not in html, name


def test_the_standings_give_each_session_its_time_and_table(world):
    """The standings' own read of the sessions (SQL, not the ORM) gives the scheduled time
    as the ORM does on either database (SQLite stores it as text), and the table's name."""
    world.session.scheduled_at = datetime(2026, 5, 1, 18, 30, tzinfo=UTC)
    world.session.table = VenueTableFactory(tournament=world.tournament, name="Tavolo 7")
    world.session.save(update_fields=["scheduled_at", "table"])
    sessions = {s["id"]: s for s in compute_standings(world.tournament)["stages"][0]["sessions"]}
    assert sessions[world.session.pk]["scheduled_at"] == "2026-05-01T18:30:00+00:00"
    assert sessions[world.session.pk]["table"] == "Tavolo 7"
    others = [s for pk, s in sessions.items() if pk != world.session.pk]
    assert [(s["scheduled_at"], s["table"]) for s in others] == [(None, "")] * len(others)


def test_a_seated_player_no_longer_registered_keeps_their_name_and_squad(world):
    """The seats are read without their players' names (the registered players' read has
    them): a player whose registration was deleted after seating (the admin can) is named
    by a read of their own, and keeps their squad and points."""
    confirm_session(world.session, lambda seat: 10 * seat.seat_order)
    seat = world.session.seats.select_related("player").order_by("seat_order").last()
    seat.squad = world.tournament.squads.last()
    seat.save()
    world.tournament.registrations.filter(player=seat.player).delete()
    standings = compute_standings(world.tournament)
    row = next(row for row in standings["players"] if row["player_id"] == seat.player_id)
    assert row["player"] == seat.player.display_name
    assert row["points"] == 10 * seat.seat_order
    assert row["squad"] == seat.squad.slug
    sessions = {s["id"]: s for s in standings["stages"][0]["sessions"]}
    seats = {s["player_id"]: s for s in sessions[world.session.pk]["seats"]}
    assert seats[seat.player_id]["player"] == seat.player.display_name
    assert seats[seat.player_id]["squad"] == seat.squad.slug


def test_a_tournament_read_with_its_stamp_gives_the_stamp_read_alone(world):
    """The pages reading the standings read their tournament and its data stamp in one
    statement: the same stamp as the live poll's own read, and a new one once the data
    changed (a result saved)."""
    slug = world.tournament.slug
    stamped = read_tournament(slug, stamped=True)
    assert stamped == world.tournament
    assert data_stamp(stamped) == stamp_by_slug(slug)[1]
    plain = read_tournament(slug)
    assert plain == world.tournament and not hasattr(plain, "stamp_activity")
    confirm_session(world.session, lambda seat: seat.seat_order)
    assert data_stamp(read_tournament(slug, stamped=True)) == stamp_by_slug(slug)[1]
    assert data_stamp(read_tournament(slug, stamped=True)) != data_stamp(stamped)
    assert read_tournament("no-such-tournament", stamped=True) is None
