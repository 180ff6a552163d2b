"""An impossible result is refused with a message next to the field that holds it, by the
judge's page and its live preview, and by the result action (the JSON breakdowns)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.engine.dice import SeededDice
from tournaments.actions.people import withdraw_player
from tournaments.actions.result_entry import ImplausibleResult, correct_result, record_result
from tournaments.forms.result import ResultForm
from tournaments.models import (
    Forfeit,
    Loadout,
    Result,
    Seat,
    Session,
    Stipulation,
    StipulationKind,
)
from tournaments.queries.session_stipulation import result_limits

pytestmark = pytest.mark.django_db


def seats_of(world):
    return list(world.session.seats.select_related("player").order_by("seat_order"))


def post(world, **fields) -> dict:
    return {
        "version": world.session.version,
        "loaded_at": "2030-01-01T10:00:00+00:00",
        "tie-mode": "app",
        "tie-version": world.session.version,
        **fields,
    }


def test_fifty_kills_and_a_dead_survivor_are_refused_next_to_their_fields(world, role_client):
    a, b, _c = seats_of(world)
    key = ResultForm.key
    kills = key(a, f"kill-{b.player_id}-light")
    survived = key(b, "survived")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    response = role_client("judge").post(url, post(world, **{kills: 50, survived: "on"}))
    assert response.status_code == 400
    assert not Result.objects.filter(session=world.session).exists()
    form = response.context["form"]
    assert "killing 50 figures of" in form.errors[kills][0]
    assert "only 5" in form.errors[kills][0]
    assert "untick it" in form.errors[survived][0]
    html = response.content.decode()
    assert f'id="id_{kills}_error"' in html, "the message is next to its field"
    assert 'value="50"' in html, "what was typed is kept"


def test_the_live_preview_names_the_impossible_field(world, role_client):
    a, b, _c = seats_of(world)
    kills = ResultForm.key(a, f"kill-{b.player_id}-commander")
    url = reverse("tournaments:judge_result_preview", args=[world.session.pk])
    response = role_client("judge").post(url, post(world, **{kills: 2}), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "a squad has one commander" in html
    assert f"{a.player.display_name} · Marines of {b.player.display_name} killed" in html


def test_token_points_come_from_the_rules_data_and_are_filled_in(world, role_client):
    a = seats_of(world)[0]
    key = ResultForm.key
    world.tournament.data_overrides = {"alien_tokens": {"ork": 3}}
    world.tournament.save()
    fields = {
        key(a, "token-TOTAL"): 2,
        key(a, "token-0-type"): "ork",
        key(a, "token-0-count"): 2,
        key(a, "token-1-type"): "android",
        key(a, "token-1-count"): 1,
        key(a, "token-1-value"): 15,
    }
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    judge = role_client("judge")
    refused = judge.post(url, post(world, **fields))
    assert refused.status_code == 400
    errors = refused.context["form"].errors
    assert list(errors) == [key(a, "token-1-value")]
    assert (
        "Android tokens are worth 5 points each in this tournament, not 15"
        in (errors[key(a, "token-1-value")][0])
    )
    fields[key(a, "token-1-value")] = ""
    saved = judge.post(url, post(world, **fields))
    assert saved.status_code == 302
    stored = Result.objects.get(session=world.session).latest_version().breakdown
    mine = next(entry for entry in stored if entry["seat"] == str(a.player_id))
    assert mine["alien_tokens"] == [
        {"alien_type": "ork", "value": 3, "count": 2},
        {"alien_type": "android", "value": 5, "count": 1},
    ]


def test_a_session_without_aliens_takes_no_tokens(world, role_client):
    a = seats_of(world)[0]
    key = ResultForm.key
    Stipulation.objects.create(session=world.session, kind=StipulationKind.TPK, params={})
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    data = post(world, **{key(a, "token-0-type"): "ork", key(a, "token-0-count"): 1})
    response = role_client("judge").post(url, data)
    assert response.status_code == 400
    assert "played without aliens" in response.context["form"].errors[key(a, "token-0-count")][0]


def test_the_map_bounds_the_tokens_and_extended_tpk_has_seven_figures(world):
    Session.objects.filter(pk=world.session.pk).update(map_name="flag-relay")
    Stipulation.objects.create(
        session=world.session, kind=StipulationKind.EXTENDED_TPK, params={"aliens": True}
    )
    world.session.refresh_from_db()
    limits = result_limits(world.session)
    assert limits.figures == 7
    assert limits.aliens.markers == {"gretchin": 1, "android": 1, "genestealer": 1, "ork": 1}
    a, b, c = (str(seat.player_id) for seat in seats_of(world))
    breakdowns = [
        {"seat": a, "kills": [{"victim": b, "marine_class": "light", "count": 7}]},
        {
            "seat": b,
            "losses": [{"marine_class": "light", "cause": "player", "killer": a, "count": 7}],
            "alien_tokens": [{"alien_type": "ork", "value": 2, "count": 1}],
        },
        {"seat": c, "alien_tokens": [{"alien_type": "ork", "value": 2, "count": 1}]},
    ]
    with pytest.raises(ImplausibleResult) as refused:
        record_result(world.session, breakdowns, survivors=[a], dice=SeededDice(seed=1))
    assert [p.code for p in refused.value.problems] == ["tokens_over_markers"] * 2
    assert "the map flag-relay has only 1 Ork marker" in str(refused.value)
    del breakdowns[2]["alien_tokens"]
    record_result(world.session, breakdowns, survivors=[a], dice=SeededDice(seed=1))


@pytest.mark.parametrize(
    "typed",
    [
        {"kill-light": 5, "kill-commander": 1},  # QA: 5 light and the commander, one killer
        {"kill-light": 4, "kill-commander": 1, "alien-light": 1},  # and one to the aliens
    ],
)
def test_deaths_recorded_twice_across_categories_are_refused_not_a_crash(world, role_client, typed):
    """More deaths of one squad than it has figures, spread over several counts (the
    victim's own losses included), is refused next to each count that adds to it; it was a
    server error."""
    a, b, _c = seats_of(world)
    key = ResultForm.key
    fields = {
        key(a, f"kill-{b.player_id}-{name.split('-')[1]}")
        if name.startswith("kill")
        else key(b, name): count
        for name, count in typed.items()
    }
    for url_name in ("tournaments:judge_result", "tournaments:judge_result_preview"):
        url = reverse(url_name, args=[world.session.pk])
        response = role_client("judge").post(url, post(world, **fields), HTTP_HX_REQUEST="true")
        assert response.status_code in (200, 400)
    response = role_client("judge").post(
        reverse("tournaments:judge_result", args=[world.session.pk]), post(world, **fields)
    )
    assert response.status_code == 400
    assert not Result.objects.filter(session=world.session).exists()
    form = response.context["form"]
    assert any("only 5" in " ".join(errors) for errors in form.errors.values()), form.errors


def nova_loadout(seat) -> Loadout:
    """Three heavy weapons and a laser rifle (RULES §5: each heavy weapon once)."""
    return Loadout.objects.create(
        seat=seat,
        commander_combo="bolter",
        marine_weapons=["assault-cannon", "missile-launcher", "plasma-gun", "laser-rifle"],
    )


def test_a_heavy_weapon_marine_more_than_the_squad_fielded_is_refused_nothing_saved(
    world, role_client
):
    """QA (judge, Italian, phone): 3 heavy-weapon kills of Nova recorded, one more by another
    player was saved as version 1, though Nova's loadout armed only 3 heavy-weapon marines."""
    a, nova, c = seats_of(world)
    nova_loadout(nova)
    key = ResultForm.key
    first = key(a, f"kill-{nova.player_id}-heavy")
    fourth = key(c, f"kill-{nova.player_id}-heavy")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    judge = role_client("judge")
    refused = judge.post(url, post(world, **{first: 3, fourth: 1}))
    assert refused.status_code == 400
    assert not Result.objects.filter(session=world.session).exists()
    errors = refused.context["form"].errors
    expected = (
        f"{nova.player.display_name} fielded 3 heavy-weapon marines, but 4 are recorded "
        f"killed ({a.player.display_name} 3, {c.player.display_name} 1); correct the kills "
        "or losses that are too many."
    )
    assert errors[first] == [expected]
    assert errors[fourth] == [expected]
    html = refused.content.decode()
    assert f'id="id_{fourth}_error"' in html, "the message is next to the count typed"
    judge.cookies["django_language"] = "it"
    italian = judge.post(url, post(world, **{first: 3, fourth: 1}))
    assert italian.status_code == 400
    assert (
        "ha schierato 3 marine con arma pesante, ma ne risultano uccisi 4"
        in (italian.context["form"].errors[fourth][0])
    )
    assert not Result.objects.filter(session=world.session).exists()
    judge.cookies["django_language"] = "en"
    saved = judge.post(url, post(world, **{first: 2, fourth: 1}))
    assert saved.status_code == 302
    assert Result.objects.get(session=world.session).versions.count() == 1


def test_the_result_action_refuses_it_too_and_lists_every_problem_at_once(world):
    """The JSON breakdowns (API, admin, demo): the kind over what the squad fielded, a dead
    squad marked as surviving and another squad's total over, all in one refusal."""
    a, nova, c = seats_of(world)
    nova_loadout(nova)
    a_id, nova_id, c_id = (str(seat.player_id) for seat in (a, nova, c))
    breakdowns = [
        {
            "seat": a_id,
            "kills": [
                {"victim": nova_id, "marine_class": "heavy", "count": 3},
                {"victim": c_id, "marine_class": "light", "count": 6},
            ],
        },
        {
            "seat": nova_id,
            "losses": [
                {"marine_class": "heavy", "cause": "player", "killer": a_id, "count": 3},
                {"marine_class": "heavy", "cause": "alien", "count": 1},
                {"marine_class": "commander", "cause": "own_fire", "count": 1},
            ],
        },
        {
            "seat": c_id,
            "losses": [
                {"marine_class": "light", "cause": "player", "killer": a_id, "count": 6},
                {"marine_class": "light", "cause": "alien", "count": 1},
            ],
        },
    ]
    with pytest.raises(ImplausibleResult) as refused:
        record_result(world.session, breakdowns, survivors=[nova_id], dice=SeededDice(seed=1))
    codes = {problem.code for problem in refused.value.problems}
    assert codes == {
        "heavy_over_fielded",
        "survivor_all_dead",
        "kills_over_figures",
        "deaths_over_figures",
    }
    assert "4 are recorded killed (" in str(refused.value)
    assert f"{a.player.display_name} 3, aliens 1)" in str(refused.value)
    assert not Result.objects.filter(session=world.session).exists()


def test_a_tarantula_no_special_equipment_hides_is_refused_next_to_its_count(world, role_client):
    a, b, _c = seats_of(world)
    tarantulas = ResultForm.key(a, f"tarantula-{b.player_id}")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    response = role_client("judge").post(url, post(world, **{tarantulas: 1}))
    assert response.status_code == 400
    assert not Result.objects.filter(session=world.session).exists()
    error = response.context["form"].errors[tarantulas][0]
    assert "no Tarantula is among this session's special equipment" in error
    world.stage.stipulation_params = {"rounds": 8, "equipment_blips": {"3,4": "tarantula"}}
    world.stage.save()
    world.session.refresh_from_db()
    saved = role_client("judge").post(url, post(world, **{tarantulas: 1}))
    assert saved.status_code == 302


def test_a_forfeited_squad_starts_unticked_and_cannot_be_ticked(world, role_client):
    a, b, c = seats_of(world)
    Seat.objects.filter(pk=c.pk).update(forfeit="withdrawn")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    judge = role_client("judge")
    form = judge.get(url).context["form"]
    assert form[ResultForm.key(a, "survived")].value() is True
    assert not form[ResultForm.key(c, "survived")].value()
    ticked = judge.post(url, post(world, **{ResultForm.key(c, "survived"): "on"}))
    assert ticked.status_code == 400
    assert (
        "forfeited this session" in ticked.context["form"].errors[ResultForm.key(c, "survived")][0]
    )


def test_a_correction_is_checked_like_the_first_version_and_keeps_it(world):
    a, b, c = (str(seat.player_id) for seat in seats_of(world))
    Stipulation.objects.create(
        session=world.session, kind=StipulationKind.CATCH_THE_FLAG, params={"flag_value": 30}
    )
    world.session.refresh_from_db()
    first = [{"seat": a, "objectives": [{"label": "flag", "points": 30}]}, {"seat": b}, {"seat": c}]
    record_result(world.session, first, survivors=[a], confirmed=True, dice=SeededDice(seed=1))
    impossible = [
        {"seat": a, "stall_breaker": [{"round": 3, "points": 50}]},
        {"seat": b, "objectives": [{"label": "flag", "points": 7}]},
        {"seat": c},
    ]
    with pytest.raises(ImplausibleResult) as refused:
        correct_result(world.session, impossible, reason="typo", survivors=[a])
    assert [p.code for p in refused.value.problems] == ["stall_without_rule", "flag_value"]
    assert "no stall breaker" in str(refused.value)
    assert "worth 30 points in this session, so 7 objective points" in str(refused.value)
    assert Result.objects.get(session=world.session).versions.count() == 1


def test_a_kill_the_victim_does_not_lose_is_refused_by_the_result_action(world):
    """What one seat gains from a kill another loses (RULES §7): the JSON breakdowns type
    both sides, and a kill without its loss would give points nobody lost."""
    a, b, c = (str(seat.player_id) for seat in seats_of(world))
    one_sided = [
        {"seat": a, "kills": [{"victim": b, "marine_class": "heavy", "count": 3}]},
        {"seat": b, "losses": [{"marine_class": "heavy", "cause": "player", "killer": a}]},
        {"seat": c},
    ]
    with pytest.raises(ImplausibleResult) as refused:
        record_result(world.session, one_sided, survivors=[a], dice=SeededDice(seed=1))
    assert [p.code for p in refused.value.problems] == ["kills_losses_differ"] * 2
    assert "is recorded killing 3 of" in str(refused.value)
    assert "records losing 1 of them to" in str(refused.value)
    assert not Result.objects.filter(session=world.session).exists()
    one_sided[1]["losses"][0]["count"] = 3
    record_result(world.session, one_sided, survivors=[a], dice=SeededDice(seed=1))


def test_a_player_withdrawn_before_the_session_started_has_nothing_recorded(world, role_client):
    """A withdrawal before the session started leaves the seat unplayed (decision 65): like a
    no-show, nothing is recorded by it or against it; one after the start keeps its points
    (decision 32)."""
    a, b, c = seats_of(world)
    done = withdraw_player(world.tournament, c.player, reason="ill", actor=None)
    assert [seat.forfeit for seat in done.forfeited] == [Forfeit.WITHDRAWN_UNPLAYED]
    kills = ResultForm.key(a, f"kill-{c.player_id}-light")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    judge = role_client("judge")
    judge.cookies["django_language"] = "en"
    response = judge.post(url, post(world, **{kills: 1}))
    assert response.status_code == 400
    assert not Result.objects.filter(session=world.session).exists()
    error = response.context["form"].errors[kills][0]
    assert f"{c.player.display_name} withdrew before this session started" in error
    judge.cookies["django_language"] = "it"
    italian = judge.post(url, post(world, **{kills: 1})).context["form"].errors[kills][0]
    assert f"{c.player.display_name} si è ritirato prima dell'inizio di questa sessione" in italian
    a_id, b_id, c_id = (str(seat.player_id) for seat in (a, b, c))
    tokens = [
        {"seat": a_id},
        {"seat": b_id},
        {"seat": c_id, "alien_tokens": [{"alien_type": "ork", "value": 2, "count": 1}]},
    ]
    with pytest.raises(ImplausibleResult) as refused:
        record_result(world.session, tokens, survivors=[a_id], dice=SeededDice(seed=1))
    assert [p.code for p in refused.value.problems] == ["unplayed_recorded"]
    Seat.objects.filter(pk=c.pk).update(forfeit=Forfeit.WITHDRAWN)
    world.session.refresh_from_db()
    record_result(world.session, tokens, survivors=[a_id], dice=SeededDice(seed=1))


def test_objective_points_outside_catch_the_flag_are_refused_next_to_their_field(
    world, role_client
):
    """Alien Hunt sets no objective (decision 71): the form names the points, the seat and
    why, in the judge's language, and saves nothing; a Catch the Flag takes the same row."""
    a, _b, _c = seats_of(world)
    points = ResultForm.key(a, "objective-0-points")
    url = reverse("tournaments:judge_result", args=[world.session.pk])
    judge = role_client("judge")
    response = judge.post(url, post(world, **{points: 30}))
    assert response.status_code == 400
    assert not Result.objects.filter(session=world.session).exists()
    error = response.context["form"].errors[points][0]
    assert error.startswith(
        f"30 objective points are recorded for {a.player.display_name}, but Alien Hunt sets "
        "no objective"
    )
    assert f'id="id_{points}_error"' in response.content.decode()
    italian = judge.post(url, post(world, **{points: 30}), HTTP_ACCEPT_LANGUAGE="it")
    assert (
        italian.context["form"]
        .errors[points][0]
        .startswith(
            f"Per {a.player.display_name} risultano 30 punti obiettivo, ma la stipulazione "
            "Caccia all'Alieno non prevede obiettivi"
        )
    )
    world.stage.stipulation_kind = StipulationKind.CATCH_THE_FLAG
    world.stage.stipulation_params = {"flag_value": 30}
    world.stage.save()
    assert judge.post(url, post(world, **{points: 30})).status_code == 302


def test_a_correction_and_the_result_action_refuse_a_tpk_objective(world):
    """The result actions (the API, commands, the demo) and corrections refuse objective
    points in a TPK (decision 71); nothing is stored."""
    a, b, c = (str(seat.player_id) for seat in seats_of(world))
    Stipulation.objects.create(session=world.session, kind=StipulationKind.TPK, params={})
    world.session.refresh_from_db()
    with_objective = [{"seat": a, "objectives": [{"label": "claw", "points": 15}]}, {"seat": b}]
    with pytest.raises(ImplausibleResult) as refused:
        record_result(world.session, [*with_objective, {"seat": c}], survivors=[a])
    assert [(p.code, p.seat) for p in refused.value.problems] == [("objective_without_rule", a)]
    assert "15 objective points are recorded for" in str(refused.value)
    assert "but TPK sets no objective" in str(refused.value)
    assert not Result.objects.filter(session=world.session).exists()
    record_result(world.session, [{"seat": a}, {"seat": b}, {"seat": c}], survivors=[a])
    with pytest.raises(ImplausibleResult, match="but TPK sets no objective"):
        correct_result(
            world.session, [*with_objective, {"seat": c}], reason="the claws", survivors=[a]
        )
    assert Result.objects.get(session=world.session).versions.count() == 1
