"""The judge's result form turns counts into the scoring service's breakdowns, and a stored
version loaded back into the form scores the same (corrections start from what is stored).

Tokens, objectives, Dreadnoughts and stall-breaker rounds are rows a seat can add (htmx or,
without JavaScript, a plain submit button) and remove; any number of them round-trips.
"""

import html as html_lib
import json
import re

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tournaments.actions.result_entry import record_result
from tournaments.domain.scoring import (
    AlienTokens,
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    ObjectivePoints,
    SeatBreakdown,
    StallBreakerRound,
    TarantulaKill,
    score_session,
)
from tournaments.forms.result import ResultForm, initial_from_breakdowns
from tournaments.forms.result_rows import MAX_ROWS
from tournaments.models import Result, Stage, StageStatus, Stipulation, StipulationKind

pytestmark = pytest.mark.django_db


def seats_of(world):
    return list(world.session.seats.select_related("player").order_by("seat_order"))


def bound(seats, data):
    form = ResultForm({"version": 1, **data}, seats=seats)
    assert form.is_valid(), form.errors
    return form


def as_post(initial):
    """What a browser posts for a form showing ``initial`` (unchecked boxes are absent)."""
    return {k: v for k, v in initial.items() if v is not None and v is not False}


def test_kills_make_the_victims_losses_and_everything_round_trips(world):
    seats = seats_of(world)
    a, b, c = seats
    key = ResultForm.key
    data = {
        key(a, f"kill-{b.player_id}-heavy"): 2,
        key(a, f"kill-{c.player_id}-commander"): 1,
        key(a, f"tarantula-{b.player_id}"): 1,
        key(b, "alien-light"): 1,
        key(c, "own-extra_heavy"): 1,
        key(b, "dread-0-owner"): str(c.player_id),
        key(b, "dread-0-value"): 25,
        key(b, "dread-0-pilot"): "heavy",
        key(c, "token-0-type"): "ork",
        key(c, "token-0-count"): 3,
        key(c, "token-0-value"): 5,
        key(a, "objective-0-label"): "flag",
        key(a, "objective-0-points"): 30,
        key(b, "stall-0-round"): 7,
        key(b, "stall-0-points"): -5,
        key(a, "survived"): "on",
    }
    form = bound(seats, data)
    cards = score_session(form.breakdowns())
    totals = {int(seat): card.total for seat, card in cards.items()}
    assert totals[a.player_id] == 20 + 10 + 10 + 30
    assert totals[b.player_id] == -20 - 5 + 25 + 10 - 5
    assert totals[c.player_id] == -10 - 15 - 10 + 15
    assert all(not card.problems for card in cards.values())
    assert form.survivors() == [a.player_id]

    stored = [breakdown.to_dict() for breakdown in form.breakdowns()]
    again = bound(seats, as_post(initial_from_breakdowns(seats, stored, [a.player_id])))
    assert again.breakdowns() == form.breakdowns()


def test_a_dreadnoughts_class_value_is_bounded_as_every_points_field(world):
    """A thousand billion points made a result (found by posting junk into the form)."""
    seats = seats_of(world)
    a, b = seats[0], seats[1]
    key = ResultForm.key
    form = ResultForm(
        {
            "version": 1,
            key(a, "dread-TOTAL"): 1,
            key(a, "dread-0-owner"): str(b.player_id),
            key(a, "dread-0-value"): 10**12,
            key(a, "dread-0-pilot"): "light",
        },
        seats=seats,
    )
    assert not form.is_valid()
    assert "less than or equal to 999" in form.errors[key(a, "dread-0-value")][0]


def test_half_filled_dreadnought_and_tokens_are_refused(world):
    seats = seats_of(world)
    key = ResultForm.key
    form = ResultForm(
        {
            "version": 1,
            key(seats[0], "dread-0-value"): 30,
            key(seats[1], "token-0-count"): 2,
            key(seats[2], "objective-TOTAL"): 3,
            key(seats[2], "objective-2-label"): "flag",
        },
        seats=seats,
    )
    assert not form.is_valid()
    assert key(seats[0], "dread-0-owner") in form.errors
    assert key(seats[1], "token-0-type") in form.errors
    assert "Give the points" in form.errors[key(seats[2], "objective-2-points")][0]
    assert key(seats[2], "objective-0-points") not in form.errors, "empty rows are ignored"


#: The three objective rows of :func:`many_rows`.
OBJECTIVES = (ObjectivePoints("flag", 30), ObjectivePoints("claw", -5), ObjectivePoints("flag", 0))


def many_rows(seats, objectives: tuple[ObjectivePoints, ...] = OBJECTIVES) -> list[SeatBreakdown]:
    """``objectives`` (by default three), two Dreadnoughts (the session's class, 25), six
    token rows (same alien twice), stall rounds."""
    a, b, c = (str(seat.player_id) for seat in seats)
    return [
        SeatBreakdown(
            seat=a,
            kills=(MarineKill(b, MarineClass.HEAVY, 2),),
            dreadnoughts=(
                DreadnoughtKill(b, 25, MarineClass.HEAVY),
                DreadnoughtKill(c, 25, MarineClass.LIGHT),
            ),
            alien_tokens=(
                AlienTokens("ork", 2, 2),
                AlienTokens("gretchin", 1, 3),
                AlienTokens("ork", 2, 1),
                AlienTokens("android", 5, 1),
                AlienTokens("chaos_marine_heavy", 10, 2),
                AlienTokens("dreadnought", 40, 1),
            ),
            objectives=objectives,
            stall_breaker=(StallBreakerRound(6, 5), StallBreakerRound(7, 5)),
        ),
        SeatBreakdown(
            seat=b,
            losses=(
                MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, a, 2),
                MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, a, 1),
                MarineLoss(MarineClass.LIGHT, LossCause.ALIEN, None, 1),
            ),
            tarantulas=(TarantulaKill(c, 1),),
            stall_breaker=(
                StallBreakerRound(6, -5),
                StallBreakerRound(7, -5),
                StallBreakerRound(8, -5),
            ),
        ),
        SeatBreakdown(
            seat=c,
            losses=(MarineLoss(MarineClass.LIGHT, LossCause.PLAYER, a, 1),),
            alien_tokens=(AlienTokens("ork", 2, 1),),
        ),
    ]


def test_a_stored_version_with_many_rows_loads_row_for_row(world):
    seats = seats_of(world)
    original = many_rows(seats)
    stored = [breakdown.to_dict() for breakdown in original]
    initial = initial_from_breakdowns(seats, stored, [seats[0].player_id])

    shown = ResultForm(initial=initial, seats=seats)
    a, b, c = seats
    sections = {s["kind"].name: s for s in shown.seat_fields(a)["sections"]}
    assert {name: s["count"] for name, s in sections.items()} == {
        "token": 6,
        "objective": 3,
        "dread": 2,
        "stall": 2,
    }
    assert shown.seat_fields(b)["sections"][3]["count"] == 3
    assert shown.seat_fields(c)["sections"][1]["count"] == 1, "an empty row to type in"

    again = bound(seats, as_post(initial))
    assert again.breakdowns() == original
    cards = score_session(again.breakdowns())
    kills, dreadnoughts, tokens, objectives, stall = 20, 25 + 10 + 25 + 5, 74, 25, 10
    assert cards[str(a.player_id)].total == kills + dreadnoughts + tokens + objectives + stall
    assert all(not card.problems for card in cards.values())


def page_data(form: ResultForm) -> dict:
    """What the browser would post for the rendered result page (hidden counts included)."""
    data = {"tie-mode": "app"}
    for name in form.fields:
        value = form[name].value()
        if value is not None and value is not False and value != "":
            data[name] = "on" if value is True else value
    for (player, kind), count in form.row_counts.items():
        data[f"p{player}-{kind.name}-TOTAL"] = count
    data["tie-version"] = data["version"]
    return data


#: Special equipment hiding the Tarantula and the two abandoned Dreadnoughts of
#: :func:`many_rows` (a vehicle destroyed is one the session had, decision 63).
VEHICLES = {"1,1": "tarantula", "2,2": "abandoned_dreadnought", "3,3": "abandoned_dreadnought"}


def test_correcting_a_many_row_version_through_the_pages_keeps_it_exact(world, role_client):
    seats = seats_of(world)
    # A TPK with aliens, its stall breaker scoring ±5 in rounds 6 to 8, and the vehicles;
    # it sets no objective (decision 71), so its one objective row is worth nothing.
    stall = {"from_round": 6, "points": 5, "max_extra_rounds": 2}
    params = {"aliens": True, "stall_breaker": stall, "equipment_blips": VEHICLES}
    Stipulation.objects.create(session=world.session, kind=StipulationKind.TPK, params=params)
    world.session.refresh_from_db()
    original = many_rows(seats, objectives=(ObjectivePoints("flag", 0),))
    record_result(world.session, original, survivors=[seats[0].player_id], dice=SeededDice(seed=1))
    judge = role_client("judge")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    page = judge.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count(f'name="p{seats[0].player_id}-token-') == 6 * 3 + 1
    assert 'value="chaos_marine_heavy" selected' in html

    saved = judge.post(url, page_data(page.context["form"]))
    assert saved.status_code == 302, saved.content.decode()[:2000]
    versions = Result.objects.get(session=world.session).versions.order_by("number")
    assert versions.count() == 2
    assert versions.last().breakdown == [breakdown.to_dict() for breakdown in original]


def typed(world) -> dict:
    a = seats_of(world)[0]
    key = ResultForm.key
    return {
        "version": world.session.version,
        "loaded_at": "2030-01-01T10:00:00+00:00",
        "tie-mode": "app",
        "tie-version": world.session.version,
        key(a, "objective-TOTAL"): 1,
        key(a, "objective-0-label"): "flag",
        key(a, "objective-0-points"): 30,
        key(a, "token-TOTAL"): 4,
        key(a, "token-0-type"): "ork",
        key(a, "token-0-count"): 2,
        key(a, "token-0-value"): 2,
        key(a, "token-1-type"): "android",  # half typed: no error while adding rows
    }


def test_add_row_endpoint_returns_the_rows_with_one_more_and_keeps_what_was_typed(
    world, role_client
):
    a = seats_of(world)[0]
    url = reverse("tournaments:judge_result_rows", args=[world.session.pk])
    data = {**typed(world), f"add_token_{a.player_id}": "1"}
    response = role_client("judge").post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    section = response.context["section"]
    assert section["count"] == 5
    assert [f.value() for f in section["rows"][0]["fields"]] == ["ork", "2", "2"]
    assert section["rows"][1]["fields"][0].value() == "android"
    assert [f.value() for f in section["rows"][4]["fields"]] == [None, None, None]
    html = response.content.decode()
    assert f'id="rows-token-{a.player_id}"' in html
    assert f'name="p{a.player_id}-token-TOTAL" value="5"' in html
    assert f'name="p{a.player_id}-token-4-type"' in html and "autofocus" in html
    assert "errorlist" not in html.split('id="score-preview"')[0]
    # The live preview comes along (out of band), scoring the rows typed so far.
    assert 'hx-swap-oob="innerHTML"' in html
    assert response.context["preview"]["invalid"], "row 2 is half typed"


def test_no_js_add_and_remove_buttons_rerender_the_page_keeping_everything(world, role_client):
    a = seats_of(world)[0]
    judge = role_client("judge")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    key = ResultForm.key
    data = {**typed(world), f"add_token_{a.player_id}": "1", "tie-mode": "physical"}
    data["tie-dice"] = "3,4"
    added = judge.post(url, data)
    assert added.status_code == 200
    assert not Result.objects.filter(session=world.session).exists()
    form = added.context["form"]
    assert form.row_counts[(a.player_id, form_kind(form, "token"))] == 5
    assert form[key(a, "objective-0-label")].value() == "flag"
    assert form[key(a, "token-1-type")].value() == "android"
    assert form["version"].value() == str(world.session.version)
    assert added.context["loaded_at"] == "2030-01-01T10:00:00+00:00", "locking unchanged"
    assert added.context["dice_form"]["dice"].value() == "3,4"
    html = added.content.decode()
    assert f'name="{key(a, "token-4-count")}"' in html
    assert f'name="add_token_{a.player_id}"' in html
    # The objective typed is kept, in a section saying to remove it (an Alien Hunt has
    # none, decision 79), which offers no row more.
    assert "Only Catch the Flag scores objectives" in html
    assert f'name="add_objective_{a.player_id}"' not in html

    # Remove the first token row: the half-typed second one moves up.
    removed = judge.post(url, {**typed(world), f"remove_token_{a.player_id}_0": "1"})
    form = removed.context["form"]
    assert form.row_counts[(a.player_id, form_kind(form, "token"))] == 3
    assert form[key(a, "token-0-type")].value() == "android"
    assert form[key(a, "objective-0-points")].value() == "30"


def form_kind(form, name):
    return next(kind for (_p, kind) in form.row_counts if kind.name == name)


def test_too_many_rows_are_refused_with_a_clear_message(world, role_client):
    seats = seats_of(world)
    a = seats[0]
    key = ResultForm.key
    data = {"version": 1, key(a, "token-TOTAL"): MAX_ROWS + 1}
    form = ResultForm(data, seats=seats)
    assert not form.is_valid()
    assert f"At most {MAX_ROWS} alien-token rows" in form.errors[key(a, "token-TOTAL")][0]

    url = reverse("tournaments:judge_result", args=[world.session.pk])
    response = role_client("judge").post(url, {**typed(world), key(a, "token-TOTAL"): MAX_ROWS + 5})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"At most {MAX_ROWS} alien-token rows" in page and "None:" not in page
    html = response.content.decode()
    assert f"At most {MAX_ROWS} alien-token rows" in html
    # The page offers no more than the maximum and no button to add one more.
    assert f'name="{key(a, "token-TOTAL")}" value="{MAX_ROWS}"' in html
    assert f'name="add_token_{a.player_id}"' not in html

    rows_url = reverse("tournaments:judge_result_rows", args=[world.session.pk])
    full = role_client("judge").post(
        rows_url, {key(a, "token-TOTAL"): MAX_ROWS, f"add_token_{a.player_id}": "1"}
    )
    assert full.context["section"]["count"] == MAX_ROWS and full.context["section"]["full"]


def test_live_preview_totals_include_the_extra_rows(world, role_client):
    # A Catch the Flag with aliens: its flags (10 points each) are objectives, decision 71.
    world.stage.stipulation_kind = StipulationKind.CATCH_THE_FLAG
    world.stage.stipulation_params = {"flag_value": 10, "aliens": True, "equipment_blips": VEHICLES}
    world.stage.save()
    seats = seats_of(world)
    a, b, _c = seats
    key = ResultForm.key
    data = {"version": world.session.version, key(a, "objective-TOTAL"): 3}
    for row, points in enumerate((20, 10, 0)):
        data[key(a, f"objective-{row}-points")] = points
    data[key(b, "token-TOTAL")] = 6
    for row in range(6):
        data[key(b, f"token-{row}-type")] = "ork"
        data[key(b, f"token-{row}-count")] = 1
        data[key(b, f"token-{row}-value")] = 2
    data[key(b, "dread-TOTAL")] = 2
    for row, owner in enumerate((a, seats[2])):
        data[key(b, f"dread-{row}-owner")] = str(owner.player_id)
        data[key(b, f"dread-{row}-value")] = 25
        data[key(b, f"dread-{row}-pilot")] = "light"
    url = reverse("tournaments:judge_result_preview", args=[world.session.pk])
    response = role_client("judge").post(url, data, HTTP_HX_REQUEST="true")
    totals = {row["name"]: row["card"].total for row in response.context["preview"]["rows"]}
    assert totals[a.player.display_name] == 20 + 10 + 0 - 5
    assert totals[b.player.display_name] == 6 * 2 + 2 * (25 + 5)
    page = response.content.decode()
    assert re.search(r'data-testid="total">72<', page)


def test_a_failed_submit_keeps_every_added_row(world, role_client):
    a = seats_of(world)[0]
    key = ResultForm.key
    data = {**typed(world), key(a, "objective-TOTAL"): 3, key(a, "objective-2-points"): 7}
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    response = role_client("judge").post(url, data)
    assert response.status_code == 400
    form = response.context["form"]
    assert form[key(a, "objective-2-points")].value() == "7"
    assert key(a, "token-1-count") in form.errors, "the half-typed token row is refused"
    html = response.content.decode()
    assert f'id="id_{key(a, "token-1-count")}_error"' in html
    assert not Result.objects.filter(session=world.session).exists()


def test_live_preview_errors_name_the_seat_and_section_of_each_field(world, role_client):
    a, b, _c = seats_of(world)
    key = ResultForm.key
    data = {
        "version": world.session.version,
        key(a, f"kill-{b.player_id}-heavy"): -1,
        key(b, "alien-light"): "many",
    }
    url = reverse("tournaments:judge_result_preview", args=[world.session.pk])
    response = role_client("judge").post(url, data, HTTP_HX_REQUEST="true")
    assert response.context["preview"]["invalid"]
    lines = response.context["form"].placed_errors()
    killed = f"{a.player.display_name} · Marines of {b.player.display_name} killed: heavy weapon"
    lost = f"{b.player.display_name} · Own marines lost to aliens: light or unarmed"
    assert any(line.startswith(killed) for line in lines), lines
    assert any(line.startswith(lost) for line in lines), lines
    page = response.content.decode()
    assert f"{a.player.display_name} · Marines of" in page


def token_defaults(html: str) -> dict:
    found = re.search(r'data-token-values="([^"]*)"', html)
    assert found, "no token values on the page"
    return json.loads(html_lib.unescape(found.group(1)))


def test_points_each_is_prefilled_from_the_tournaments_catalogue(world, role_client):
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    defaults = token_defaults(role_client("judge").get(url).content.decode())
    assert (defaults["ork"], defaults["gretchin"], defaults["android"]) == (2, 1, 5)
    assert "genestealer" not in defaults
    # The organiser's value in the tournament's catalogue is the one the page uses.
    tournament = world.session.stage.tournament
    tournament.data_overrides = {"alien_tokens": {"ork": 4}}
    tournament.save()
    assert token_defaults(role_client("judge").get(url).content.decode())["ork"] == 4


def test_a_token_rows_fields_are_labelled_by_their_row_not_by_the_counts_above(world, role_client):
    """The counts' hidden prefix ("Marines of … lost to their own fire") names those
    counts only: a token row's field is named by its own label, inside its row's group."""
    a = seats_of(world)[0]
    page = role_client("judge").get(reverse("tournaments:judge_result", args=[world.session.pk]))
    html = page.content.decode()
    field_id = f"id_{ResultForm.key(a, 'token-0-type')}"
    label = re.search(rf'<label for="{field_id}">(.*?)</label>', html, re.S).group(1)
    assert "visually-hidden" not in label and "lost" not in label


def test_a_closed_stages_result_page_says_first_that_nothing_can_be_saved(world, role_client):
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    judge = role_client("judge")
    assert "stage is closed" not in judge.get(url).content.decode()
    Stage.objects.filter(pk=world.stage.pk).update(status=StageStatus.CLOSED)
    page = judge.get(url).content.decode()
    assert "stage is closed, so its result can no longer change" in page


def test_the_live_preview_names_who_rolls_the_tie_and_in_which_order(world, role_client):
    """RULES §8 and §14: a tie the judge settles with physical dice is rolled by the tied
    players in seat order; the preview names them (the third seat, ahead on points, is not
    in the roll-off)."""
    a, b, c = seats_of(world)
    key = ResultForm.key
    data = {"version": world.session.version}
    for seat, points in ((a, 10), (b, 10), (c, 20)):  # Gretchin tokens, 1 point each
        data[key(seat, "token-0-type")] = "gretchin"
        data[key(seat, "token-0-count")] = points
        data[key(seat, "token-0-value")] = 1
    url = reverse("tournaments:judge_result_preview", args=[world.session.pk])
    response = role_client("judge").post(url, data, HTTP_HX_REQUEST="true")
    tie = response.context["preview"]["tie"]
    names = f"{a.player.display_name}, {b.player.display_name} roll first"
    assert names in tie and c.player.display_name not in tie


def test_marines_left_on_the_board_have_their_own_counts(world, role_client):
    """Game engine decision 33: a marine still on the board at the game's end is lost,
    not to the aliens; the form has its own counts, loaded and saved as such."""
    seats = seats_of(world)
    a, _b, _c = seats
    original = [
        SeatBreakdown(
            seat=str(a.player_id),
            losses=(
                MarineLoss(MarineClass.LIGHT, LossCause.ALIEN, None, 1),
                MarineLoss(MarineClass.HEAVY, LossCause.LEFT_ON_BOARD, None, 2),
            ),
        ),
        *(SeatBreakdown(seat=str(seat.player_id)) for seat in seats[1:]),
    ]
    initial = initial_from_breakdowns(seats, [b.to_dict() for b in original], [])
    assert initial[ResultForm.key(a, "left-heavy")] == 2
    assert initial[ResultForm.key(a, "alien-light")] == 1
    again = bound(seats, as_post(initial))
    assert again.breakdowns() == original
    card = score_session(again.breakdowns())[str(a.player_id)]
    assert card.total == -5 - 2 * 10
    labels = [line.label for line in card.lines]
    assert labels[0].endswith("(killed by aliens)")
    assert labels[1].endswith("(left on the board at the game's end)")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    page = role_client("judge").get(url).content.decode()
    assert "Own marines left on the board at the game" in page
