"""A session played without aliens (decision 30: Catch the Flag or TPK with "Aliens in play"
off) says so everywhere the judge looks, as its board does: the session sheet's play order
ends with the last player, not "→ Aliens"; the games list names no Alien policy for a game
without aliens; and the result form has no "lost to aliens" counts: a loss to aliens that
reaches it anyway (posted from an old page, or in a stored version) is shown and refused,
saying why, and nothing is saved.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tests.table.conftest import seat_squads
from tests.table.test_no_aliens import flag_game
from tests.web.conftest import World
from tests.web.test_result_form import page_data
from tournaments.actions.result_entry import ImplausibleResult, record_result
from tournaments.domain.scoring import LossCause, MarineClass, MarineLoss, SeatBreakdown
from tournaments.forms.result import ResultForm, posted_values, start_values
from tournaments.models import Result, Seat, StipulationKind
from tournaments.queries.session_stipulation import result_limits
from tournaments.sheets.seats import session_seats

pytestmark = pytest.mark.django_db

ALIEN_LOSS_FIELD = re.compile(r'name="p\d+-alien-')
#: The refusal of a loss to aliens in a session without them (the result's checks).
NO_ALIEN_LOSSES = (
    "This session is played without aliens (its stipulation says so), so no marine can be "
    "lost to aliens: count this loss as own fire or as a kill by another seat, or have the "
    "organiser set the stipulation right."
)


def play_tpk(world: World, aliens: bool) -> None:
    """The session's stage set to a TPK with or without aliens."""
    world.stage.stipulation_kind = StipulationKind.TPK
    world.stage.stipulation_params = {"aliens": aliens}
    world.stage.save()
    world.session.refresh_from_db()  # its stage read again


def italian(client, url: str) -> str:
    client.cookies["django_language"] = "it"
    return client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()


def result_url(world: World) -> str:
    return reverse("tournaments:judge_result", args=[world.session.pk])


# --- the session sheet's play order -------------------------------------------------------


def play_order_line(page: str) -> str:
    line = re.search(r'<p class="all-good key-fact">(.*?)</p>', page, re.S)
    assert line is not None, "the sheet shows no play order"
    return line.group(1)


@pytest.mark.parametrize("aliens", [False, True])
def test_the_sheets_play_order_ends_with_the_aliens_only_when_they_play(world, role_client, aliens):
    play_tpk(world, aliens)
    seats = list(world.session.seats.select_related("player").order_by("seat_order"))
    for position, seat in enumerate(reversed(seats), start=1):
        Seat.objects.filter(pk=seat.pk).update(initiative_position=position)
    page = italian(
        role_client("judge"), reverse("tournaments:judge_session", args=[world.session.pk])
    )

    line = play_order_line(page)
    names = " → ".join(seat.player.display_name for seat in reversed(seats))
    assert names in line
    assert ("→ Alieni" in line) is aliens
    assert line.rstrip().endswith("Alieni" if aliens else seats[0].player.display_name)


# --- the games list -------------------------------------------------------------------------


@pytest.mark.parametrize("aliens", [False, True])
def test_the_games_list_names_an_alien_policy_only_for_a_game_with_aliens(
    world, role_client, aliens
):
    seat_squads(world)
    game = flag_game(world, aliens)
    page = italian(role_client("judge"), reverse("table:games", args=[world.session.pk]))

    board = reverse("table:board", args=[world.session.pk, game.number])
    item = page[page.index(f'href="{board}"') :]
    item = item[: item.index("</li>")]
    assert ("Strategia degli Alieni: BoB" in item) is aliens
    assert ("senza Alieni" in item) is not aliens


# --- the result form ------------------------------------------------------------------------


def test_the_result_form_has_no_losses_to_aliens_without_aliens(world):
    play_tpk(world, aliens=False)
    seats = session_seats(world.session)
    form = ResultForm(initial={}, seats=seats)

    assert not [name for name in form.fields if "-alien-" in name]
    assert all(form.seat_fields(seat)["alien"] == [] for seat in seats)
    # Losses to own fire are still counted.
    assert all(len(form.seat_fields(seat)["own"]) == len(form.kill_classes) for seat in seats)


@pytest.mark.parametrize("aliens", [False, True])
def test_the_result_page_asks_for_losses_to_aliens_only_with_aliens(world, role_client, aliens):
    play_tpk(world, aliens)
    page = role_client("judge").get(result_url(world)).content.decode()

    assert bool(ALIEN_LOSS_FIELD.search(page)) is aliens
    assert "-own-light" in page  # losses to own fire are asked for either way


def test_the_result_page_has_no_lost_to_aliens_section_without_aliens(world, role_client):
    play_tpk(world, aliens=False)
    page = italian(role_client("judge"), result_url(world))

    assert "persi contro gli alieni" not in page
    assert "Propri marine persi per fuoco amico" in page


def test_a_loss_to_aliens_posted_anyway_is_refused_and_nothing_is_saved(world, role_client):
    play_tpk(world, aliens=False)
    judge = role_client("judge")
    data = page_data(judge.get(result_url(world)).context["form"])
    victim = session_seats(world.session)[1]
    data[ResultForm.key(victim, "alien-heavy")] = "1"  # from a page loaded before the change

    response = judge.post(result_url(world), data)

    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors[ResultForm.key(victim, "alien-heavy")] == [NO_ALIEN_LOSSES]
    assert "played without aliens" in response.content.decode()
    assert not Result.objects.filter(session=world.session).exists()


def test_a_loss_to_aliens_given_as_json_breakdowns_is_refused(world):
    """The result action itself refuses it (the admin's and the demo's JSON breakdowns), as
    the import does (tests/interchange/test_import_checks.py)."""
    play_tpk(world, aliens=False)
    seats = session_seats(world.session)
    loss = MarineLoss(MarineClass.LIGHT, LossCause.ALIEN, None, 1)
    breakdowns = [
        SeatBreakdown(seat=str(seat.player_id), losses=(loss,) if seat is seats[1] else ())
        for seat in seats
    ]
    with pytest.raises(ImplausibleResult, match=re.escape(NO_ALIEN_LOSSES)) as refused:
        record_result(world.session, breakdowns, dice=SeededDice(seed=1))
    assert [(p.seat, p.entry, p.index) for p in refused.value.problems] == [
        (str(seats[1].player_id), "losses", 0)
    ]
    assert not Result.objects.filter(session=world.session).exists()


def test_a_stored_loss_to_aliens_is_shown_to_be_corrected(world):
    seats = session_seats(world.session)
    victim = seats[2]
    loss = MarineLoss(MarineClass.LIGHT, LossCause.ALIEN, None, 1)
    breakdowns = [
        SeatBreakdown(seat=str(seat.player_id), losses=(loss,) if seat is victim else ())
        for seat in seats
    ]
    record_result(world.session, breakdowns, survivors=[], dice=SeededDice(seed=1))
    play_tpk(world, aliens=False)  # the organiser then sets the stipulation right
    version = Result.objects.get(session=world.session).latest_version()

    # What the correction page shows and posts back, the stored loss to aliens included.
    data = {"version": 1, **posted_values(start_values(seats, version))}
    form = ResultForm(data, seats=seats, limits=result_limits(world.session))

    name = ResultForm.key(victim, "alien-light")
    assert [field.name for field in form.seat_fields(victim)["alien"]] == [
        ResultForm.key(victim, f"alien-{marine_class.value}")
        for marine_class, _label in form.kill_classes
    ]
    assert form.seat_fields(seats[0])["alien"] == []
    assert not form.is_valid()
    assert form.errors[name] == [NO_ALIEN_LOSSES]
