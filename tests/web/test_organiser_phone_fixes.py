"""QA on a phone, as the organiser: the players table (each private link whole, with a copy
button; the optional account field not marked required; each player's status), judges
named by full name and user name wherever the organiser chooses or lists them, and the
stage grid's button saying what it does."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory, VenueTableFactory
from tournaments.actions.people import withdraw_player
from tournaments.actions.scheduling import schedule_session
from tournaments.forms.organiser import AccountLinkForm
from tournaments.models import Registration
from tournaments.queries.roles import staff_label

pytestmark = pytest.mark.django_db

WHEN = "2026-06-01T15:30"


@pytest.fixture
def organiser(world, role_client) -> Client:
    return role_client("organiser")


@pytest.fixture
def named_judge(world):
    """The world's judge, added by the user name "judge", with a full name."""
    world.judge.first_name, world.judge.last_name = "Anna", "Bianchi"
    world.judge.save()
    return world.judge


def speaking(client: Client, language: str) -> Client:
    client.cookies["django_language"] = language
    return client


def players_page(client: Client, world) -> str:
    page = client.get(reverse("tournaments:organiser_players", args=[world.tournament.slug]))
    assert page.status_code == 200
    return page.content.decode()


def player_row(page: str, player) -> str:
    """The players table's row of ``player``."""
    match = re.search(rf'<tr id="player-{player.pk}">.*?</tr>', page, re.S)
    assert match, f"no row for {player}"
    return match.group(0)


def cells(row: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)


def text(html: str, tags_apart: bool = True) -> str:
    """What a cell says, its tags and spacing left out (``tags_apart``: a space where a tag
    was, for the lines of a cell; else nothing, for the words of a button)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " " if tags_apart else "", html)).split())


# The players table -----------------------------------------------------------------------


def test_each_private_link_is_shown_whole_with_a_copy_button(organiser, world):
    row = player_row(players_page(organiser, world), world.player)
    link = f"http://testserver/p/{world.player.access_token}/"
    # The whole link is text to read and select, not the value of a narrow read-only box.
    assert f'<code class="private-link" id="private-link-{world.player.pk}">{link}</code>' in row
    assert "readonly" not in row
    button = re.search(r"<button[^>]*data-copy=[^>]*>", row).group(0)
    assert f'data-copy="private-link-{world.player.pk}"' in button
    assert 'type="button"' in button
    # Shown by the script: without JavaScript there is no button that does nothing.
    assert " hidden" in button
    assert f'aria-label="Copy the private link of {world.player.name}"' in button


def test_the_copy_script_is_a_file_of_its_own_on_the_players_page_only(organiser, world):
    page = players_page(organiser, world)
    assert re.search(r'<script src="/static/js/copy-text\.js[^"]*" defer></script>', page)
    assert "<script>" not in page  # the Content-Security-Policy allows no inline script
    judges = organiser.get(reverse("tournaments:organiser_judges", args=[world.tournament.slug]))
    assert "copy-text.js" not in judges.content.decode()


def test_the_account_field_is_not_marked_required_and_sent_empty_says_what_to_type(
    organiser, world
):
    form = AccountLinkForm(tournament=world.tournament, player=world.player)
    assert form.fields["account"].required is False
    row = player_row(players_page(organiser, world), world.player)
    label = re.search(r"<label[^>]*>(.*?)</label>", row, re.S).group(1)
    assert label == "User name or email"  # no asterisk
    field = re.search(r'<input type="text" name="link\d+-account"[^>]*>', row).group(0)
    assert "required" not in field
    # Sent empty all the same, it says what to type.
    url = reverse(
        "tournaments:organiser_player_link", args=[world.tournament.slug, world.player.pk]
    )
    response = organiser.post(url, {f"link{world.player.pk}-account": "  "})
    assert response.status_code == 400
    row = player_row(response.content.decode(), world.player)
    assert "Type the user name or email of the player&#x27;s account." in row
    assert f'id="id_link{world.player.pk}-account_error"' in row
    assert 'aria-invalid="true"' in row
    world.player.refresh_from_db()
    assert world.player.user is None


def test_the_status_column_shows_each_players_status_and_keeps_the_edit_link(organiser, world):
    leaving = (
        Registration.objects.filter(tournament=world.tournament)
        .exclude(player=world.player)
        .select_related("player")
        .first()
    )
    withdraw_player(world.tournament, leaving.player, reason="Ill", actor=world.organiser)
    page = players_page(organiser, world)

    status = cells(player_row(page, world.player))[-1]
    assert text(status) == f"Registered Edit or withdraw {world.player.name}"
    edit = reverse("tournaments:organiser_player", args=[world.tournament.slug, world.player.pk])
    assert f'href="{edit}"' in status

    status = cells(player_row(page, leaving.player))[-1]
    leaving.refresh_from_db()
    withdrawn_on = timezone.localtime(leaving.withdrawn_at).strftime("%d/%m/%Y")
    assert text(status) == f"Withdrawn {withdrawn_on} Ill Edit {leaving.player.name}"
    edit = reverse("tournaments:organiser_player", args=[world.tournament.slug, leaving.player_id])
    assert f'href="{edit}"' in status  # a withdrawn player's page still opens from here


def test_the_players_table_speaks_italian(organiser, world):
    page = players_page(speaking(organiser, "it"), world)
    row = player_row(page, world.player)
    assert text(cells(row)[-1]) == f"Iscritto Modifica o ritira {world.player.name}"
    assert f'aria-label="Copia il link privato di {world.player.name}"' in row
    assert ">Copia</button>" in row
    assert 'data-copied="Copiato"' in page and 'data-copy-failed="Selezionato: copialo"' in page
    assert "Collegare un account utente è facoltativo" in page


# Judges: full name and user name ---------------------------------------------------------


def test_a_staff_label_gives_the_full_name_and_the_user_name():
    assert staff_label(UserFactory.build(username="judge1", first_name="Anna")) == ("Anna (judge1)")
    named = UserFactory.build(username="judge1", first_name="Anna", last_name="Bianchi")
    assert staff_label(named) == "Anna Bianchi (judge1)"
    assert staff_label(UserFactory.build(username="judge1")) == "judge1"


def test_the_judges_page_lists_judges_and_organisers_by_name_and_user_name(
    organiser, world, named_judge
):
    world.organiser.first_name = "Olga"
    world.organiser.save()
    page = organiser.get(reverse("tournaments:organiser_judges", args=[world.tournament.slug]))
    items = [text(item) for item in re.findall(r"<li>(.*?)</li>", page.content.decode(), re.S)]
    assert any(item.startswith("Anna Bianchi (judge) Remove") for item in items)
    assert any(item.startswith("other-judge Remove") for item in items)  # no full name
    assert any(item.startswith("Olga (organiser) you") for item in items)


def test_the_schedules_judge_menu_names_judges_by_name_and_user_name(organiser, world, named_judge):
    page = organiser.get(reverse("tournaments:organiser_schedule", args=[world.tournament.slug]))
    html = page.content.decode()
    menu = re.search(rf'<select name="s{world.session.pk}-judge".*?</select>', html, re.S)
    options = re.findall(r"<option[^>]*>(.*?)</option>", menu.group(0))
    assert options == ["---------", "Anna Bianchi (judge)", "organiser", "other-judge"]
    assert f'<option value="{named_judge.pk}" selected>Anna Bianchi (judge)</option>' in html


def test_the_grid_names_judges_by_name_and_user_name(organiser, world, named_judge):
    VenueTableFactory(tournament=world.tournament, name="1")
    url = reverse("tournaments:organiser_grid", args=[world.tournament.slug, world.stage.number])
    page = organiser.get(url)
    html = page.content.decode()
    assert "judge Anna Bianchi (judge)" in html  # session 1 in the list of sessions
    assert "judge other-judge" in html
    plan = page.context["plan_form"]
    labels = [choice.choice_label for choice in plan["judges"]]
    assert labels == ["Anna Bianchi (judge)", "organiser", "other-judge"]


def test_a_clash_names_the_judge_by_name_and_user_name(organiser, world, named_judge):
    first, second, *_ = world.stage.sessions.order_by("number")
    tables = [VenueTableFactory(tournament=world.tournament, name=str(n)) for n in (1, 2)]
    moment = timezone.make_aware(dt.datetime.fromisoformat(WHEN))
    schedule_session(first, when=moment, table=tables[0], judge=named_judge, notify=False)
    url = reverse("tournaments:organiser_session_schedule", args=[world.tournament.slug, second.pk])
    prefix = f"s{second.pk}"
    data = {
        f"{prefix}-scheduled_at": WHEN,
        f"{prefix}-table": tables[1].pk,
        f"{prefix}-judge": named_judge.pk,
        f"{prefix}-version": second.version,
    }
    response = organiser.post(url, data)
    assert response.status_code == 409
    assert "Anna Bianchi (judge) would judge Preliminary, session 2" in unescape(
        response.content.decode()
    )


# The stage grid ----------------------------------------------------------------------------


def grid_buttons(client: Client, world) -> list[str]:
    url = reverse("tournaments:organiser_grid", args=[world.tournament.slug, world.stage.number])
    page = client.get(f"{url}?at={WHEN}")
    assert page.status_code == 200
    return [
        text(button, tags_apart=False)
        for button in re.findall(
            r'<button type="submit">(.*?)</button>', page.content.decode(), re.S
        )
    ]


def test_the_grids_cell_button_says_what_it_does(organiser, world):
    tables = [VenueTableFactory(tournament=world.tournament, name=name) for name in ("1", "Sala")]
    buttons = grid_buttons(organiser, world)
    assert "Place" not in buttons
    for table in tables:
        assert f"Put the chosen session here (table {table}, 01/06/2026 15:30)" in buttons
    buttons = grid_buttons(speaking(organiser, "it"), world)
    assert "Posizione" not in buttons
    assert "Metti qui la sessione scelta (tavolo Sala, 01/06/2026 15:30)" in buttons
