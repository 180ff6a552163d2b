"""The judge's session sheet and preferences page for a stage with its own squad preference
lists (only an imported document brings them; the stage's squad draw reads them instead of
the players' tournament-wide ones, decision 28). The sheet shows the stage's list and offers
no link that would change a list the draw ignores, saying why; the judge's page shows the
stage's list read-only and refuses a save, leaving the tournament-wide list alone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.factories import StageFactory
from tournaments.actions.session_setup import draw_squads
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import import_document
from tournaments.models import ActivityLog, Seat, Session, SquadPreference, StageKind
from tournaments.queries.draw_inputs import draw_players, stage_own_choices

pytestmark = pytest.mark.django_db

UM, BA, IF = "ultramarines", "blood-angels", "imperial-fists"

NOTE = "This stage's own list, from an imported tournament document"


@pytest.fixture
def judge(world, role_client):
    return role_client("judge")


def sheet_url(session: Session) -> str:
    return reverse("tournaments:judge_session", args=[session.pk])


def judge_url(session: Session, seat: Seat) -> str:
    return reverse("tournaments:judge_preferences", args=[session.pk, seat.pk])


def first_seat(session: Session) -> Seat:
    return session.seats.order_by("seat_order").select_related("player").first()


def tournament_wide(player) -> list[str]:
    return SquadPreference.objects.get(player=player, stage__isnull=True).choices


def give_stage_list(world, seat: Seat, choices: list[str]) -> None:
    SquadPreference.objects.create(
        player=seat.player, tournament=world.tournament, stage=world.stage, choices=choices
    )


def seat_cell(html: str, name: str) -> str:
    """The sheet's cell of the player called ``name`` (name, squad, preferences, link)."""
    match = re.search(rf"<td>{re.escape(name)}.*?</td>", html, re.S)
    assert match, f"no seat of {name} on the sheet"
    return match.group(0)


def squad_name(world, slug: str) -> str:
    return world.tournament.squads.get(slug=slug).name


def preference_saves():
    return ActivityLog.objects.filter(
        description_code__in=["squad_preferences", "squad_preferences_cleared"]
    )


def test_the_sheet_shows_the_stage_list_without_a_link_to_change_it(judge, world):
    seat = first_seat(world.session)
    assert tournament_wide(seat.player)[:2] != [IF, BA]
    give_stage_list(world, seat, [IF, BA])
    html = judge.get(sheet_url(world.session)).content.decode()
    cell = seat_cell(html, seat.player.display_name)
    assert f"1. {squad_name(world, IF)}</span> · " in cell
    assert f"2. {squad_name(world, BA)}</span>" in cell
    assert 'data-testid="seat-stage-preferences"' in cell
    assert NOTE in cell and "cannot be changed here" in cell
    assert judge_url(world.session, seat) not in html
    assert 'data-testid="seat-preferences"' not in cell
    # The other players' draw reads their tournament-wide lists: still linked.
    for other in world.session.seats.exclude(pk=seat.pk):
        assert judge_url(world.session, other) in html
    assert "enter or correct the list of squads" in html


def test_what_the_sheet_shows_is_what_the_draw_reads(world):
    seat = first_seat(world.session)
    give_stage_list(world, seat, [IF])
    assert stage_own_choices(world.stage, [seat.player_id]) == {seat.player_id: (IF,)}
    players = {p.id: p for p in draw_players([world.session])[world.session.pk]}
    assert players[str(seat.player_id)].preferences == (IF,)


def test_the_judges_page_shows_the_stage_list_read_only(judge, world):
    seat = first_seat(world.session)
    give_stage_list(world, seat, [BA, UM])
    page = judge.get(judge_url(world.session, seat))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="stage-preferences"' in html
    assert "imported tournament document" in html and "cannot be changed here" in html
    assert f"<li>{squad_name(world, BA)}</li><li>{squad_name(world, UM)}</li>" in html
    assert "<form" not in html.split('data-testid="stage-preferences"')[1].split("</section>")[0]
    assert 'name="choice_1"' not in html and 'name="clear"' not in html


def test_the_judges_page_says_so_when_the_stage_list_is_empty(judge, world):
    seat = first_seat(world.session)
    give_stage_list(world, seat, [])
    html = judge.get(sheet_url(world.session)).content.decode()
    cell = seat_cell(html, seat.player.display_name)
    assert "no preferences given" in cell and NOTE in cell
    assert judge_url(world.session, seat) not in html
    page = judge.get(judge_url(world.session, seat)).content.decode()
    assert f"This stage's list for {seat.player.display_name} is empty" in page
    assert 'name="choice_1"' not in page


def test_a_save_from_the_judges_page_is_refused_and_changes_nothing(judge, world):
    seat = first_seat(world.session)
    give_stage_list(world, seat, [IF])
    before = tournament_wide(seat.player)
    refused = judge.post(judge_url(world.session, seat), {"choice_1": BA, "choice_2": UM})
    assert refused.status_code == 409
    html = refused.content.decode()
    assert f"The squad preferences of {seat.player.display_name} are not saved: this stage" in html
    assert tournament_wide(seat.player) == before
    cleared = judge.post(judge_url(world.session, seat), {"clear": "1"})
    assert cleared.status_code == 409
    assert tournament_wide(seat.player) == before
    assert SquadPreference.objects.get(player=seat.player, stage=world.stage).choices == [IF]
    assert not preference_saves().exists()


def test_another_stages_list_leaves_the_sheet_and_page_as_they_were(judge, world):
    seat = first_seat(world.session)
    later = StageFactory(tournament=world.tournament, number=2, kind=StageKind.SEMIFINAL)
    SquadPreference.objects.create(
        player=seat.player, tournament=world.tournament, stage=later, choices=[IF]
    )
    html = judge.get(sheet_url(world.session)).content.decode()
    assert judge_url(world.session, seat) in html
    assert NOTE not in html
    saved = judge.post(judge_url(world.session, seat), {"choice_1": BA})
    assert saved.status_code == 302
    assert tournament_wide(seat.player) == [BA]


def test_after_the_draw_the_page_is_locked_and_shows_the_list_the_draw_read(judge, world):
    seat = first_seat(world.session)
    give_stage_list(world, seat, [IF])
    before = tournament_wide(seat.player)
    draw_squads(
        world.session, SeededDice(seed=3), actor=None, expected_version=world.session.version
    )
    html = judge.get(sheet_url(world.session)).content.decode()
    assert "/preferences/" not in html
    page = judge.get(judge_url(world.session, seat)).content.decode()
    assert "can no longer change" in page and 'name="choice_1"' not in page
    # The list kept for the record is the one the stage's draw read: the stage's own.
    kept = re.search(r"<ol>(.*?)</ol>", page, re.S).group(1)
    assert re.findall(r"<li>(.*?)</li>", kept) == [squad_name(world, IF)]
    refused = judge.post(judge_url(world.session, seat), {"choice_1": BA})
    assert refused.status_code == 409
    assert "A squad is already drawn for" in refused.content.decode()
    assert tournament_wide(seat.player) == before


def test_an_imported_stage_list_on_the_copys_session_sheet(world, role_client):
    document = export_tournament(world.tournament)
    seat = first_seat(world.session)
    data = next(p for p in document["players"] if p["name"] == seat.player.name)
    data["preferences"].append({"stage": 1, "choices": [BA, UM]})
    copy = import_document(document, slug="coppa-copia", organiser=world.organiser).tournament
    session = copy.stages.get(number=1).sessions.get(number=world.session.number)
    copied = session.seats.select_related("player").get(seat_order=seat.seat_order)
    organiser = role_client("organiser")
    html = organiser.get(sheet_url(session)).content.decode()
    cell = seat_cell(html, copied.player.display_name)
    assert f"1. {squad_name(world, BA)}</span>" in cell and NOTE in cell
    assert judge_url(session, copied) not in html
    refused = organiser.post(judge_url(session, copied), {"choice_1": IF})
    assert refused.status_code == 409
    assert SquadPreference.objects.get(player=copied.player, stage__isnull=True).choices != [IF]


def test_a_stage_list_added_while_the_form_was_open_refuses_the_save(judge, world, monkeypatch):
    """The page read no stage list (the judge's form was loaded before an admin added one);
    the action, under its lock, finds it and refuses: the page shows the stage's list with
    why, and the tournament-wide list stays."""
    seat = first_seat(world.session)
    before = tournament_wide(seat.player)
    give_stage_list(world, seat, [IF])
    monkeypatch.setattr("tournaments.views.judge.stage_own_choices", lambda stage, players: {})
    refused = judge.post(judge_url(world.session, seat), {"choice_1": BA, "choice_2": UM})
    assert refused.status_code == 409
    html = refused.content.decode()
    assert f"The squad preferences of {seat.player.display_name} are not saved: this stage" in html
    assert 'data-testid="stage-preferences"' in html and 'name="choice_1"' not in html
    assert tournament_wide(seat.player) == before
    assert not preference_saves().exists()
