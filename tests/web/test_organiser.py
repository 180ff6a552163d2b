"""Organiser pages: creating a tournament, players by hand and by CSV, judges, stages,
scheduling (with optimistic locking), starting and advancing, and the activity log."""

from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    StageFactory,
    TournamentFactory,
    UserFactory,
    VenueTableFactory,
    confirm_stage,
    register_players,
)
from tournaments.actions.staff import allow_creating_tournaments
from tournaments.models import ActivityLog, Registration, Session, SquadPreference, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(world, role_client):
    return role_client("organiser")


def test_create_tournament_makes_me_organiser_with_default_squads(client, db):
    user = UserFactory(username="nuovo")
    user.save()
    allow_creating_tournaments("nuovo")
    client.force_login(user)
    response = client.post(
        reverse("tournaments:tournament_create"),
        {"name": "Torneo di Primavera", "slug": "", "seating_method": "random"},
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="torneo-di-primavera")
    assert list(tournament.organisers.all()) == [user]
    assert tournament.squad_order == ["ultramarines", "blood-angels", "imperial-fists"]
    assert ActivityLog.objects.filter(tournament=tournament, verb="created").exists()


def test_create_tournament_keeps_input_and_explains_errors(client, world):
    client.force_login(world.organiser)
    response = client.post(
        reverse("tournaments:tournament_create"),
        {
            "name": "Doppione",
            "slug": world.tournament.slug,
            "seating_method": "random",
            "starts_on": "2026-05-02",
            "ends_on": "2026-05-01",
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="Doppione"' in page
    assert response.context["form"].errors.keys() >= {"slug", "ends_on"}
    assert 'aria-invalid="true"' in page


@pytest.fixture
def not_started(world):
    """A tournament of the same organiser whose first stage is not seated yet."""
    tournament = TournamentFactory(slug="aperto")
    tournament.organisers.add(world.organiser)
    return tournament


def test_register_player_by_hand(organiser, not_started):
    url = reverse("tournaments:organiser_players", args=[not_started.slug])
    response = organiser.post(url, {"name": "Anna Rossi", "nickname": "Anna"})
    assert response.status_code == 302
    assert Registration.objects.filter(tournament=not_started, player__name="Anna Rossi")
    again = organiser.post(url, {"name": "anna rossi"})
    assert again.status_code == 400
    assert "already registered" in str(again.context["form"].errors)
    same_nickname = organiser.post(url, {"name": "Anna Bianchi", "nickname": "ANNA"})
    assert same_nickname.status_code == 400
    assert "already shown as “ANNA”" in str(same_nickname.context["form"].errors["nickname"])


def test_late_registration_is_closed_once_stage_one_is_seated(organiser, world):
    url = reverse("tournaments:organiser_players", args=[world.tournament.slug])
    page = organiser.get(url).content.decode()
    assert "late registration is closed" in page
    response = organiser.post(url, {"name": "Ritardatario"})
    assert response.status_code == 400
    assert "late registration is closed" in str(response.context["form"].non_field_errors())
    assert not Registration.objects.filter(player__name="Ritardatario").exists()


def upload(client, world, text: str, tournament=None):
    tournament = tournament or world.tournament
    url = reverse("tournaments:organiser_roster", args=[tournament.slug])
    file = SimpleUploadedFile("roster.csv", text.encode("utf-8"), content_type="text/csv")
    return client.post(url, {"file": file})


def test_roster_upload_saves_every_row(organiser, world, not_started):
    response = upload(
        organiser,
        world,
        "name,nickname,preference_1,preference_2\nLuca,Lu,blood-angels,ultramarines\nMara,,,\n",
        not_started,
    )
    assert response.status_code == 302
    assert Registration.objects.filter(tournament=not_started).count() == 2
    luca = SquadPreference.objects.get(player__name="Luca")
    assert luca.choices == ["blood-angels", "ultramarines"]


def test_bad_roster_saves_nothing_and_lists_rows(organiser, world):
    before = Registration.objects.filter(tournament=world.tournament).count()
    response = upload(organiser, world, "name,email\nLuca,luca@example.org\n,\nMara,not-an-email\n")
    assert response.status_code == 400
    errors = [str(error) for error in response.context["roster_errors"]]
    assert any("4" in error for error in errors), errors
    assert Registration.objects.filter(tournament=world.tournament).count() == before


def test_add_judge_creates_the_account(organiser, world):
    url = reverse("tournaments:organiser_judges", args=[world.tournament.slug])
    weak_password = organiser.post(url, {"username": "nuovo-giudice", "password": "123"})
    assert weak_password.status_code == 400
    response = organiser.post(url, {"username": "nuovo-giudice", "password": "Zq9!long-pass"})
    assert response.status_code == 302
    assert world.tournament.judges.filter(username="nuovo-giudice").exists()


def test_stage_form_validates_stipulation_and_thresholds(organiser, world):
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    page = organiser.get(url)
    assert page.context["form"]["ah_rounds"].value() == 8  # from the stage's parameters
    bad = organiser.post(url, {"stipulation_kind": "catch_the_flag", "thresholds": "40, 20"})
    assert bad.status_code == 400
    errors = bad.context["form"].errors
    assert "thresholds" in errors
    # Next to its field, in the form's words (QA: "Parameter “flag_value” is required.").
    assert errors["ctf_flag_value"] == ["Parameter “Flag value (points)” is required."]
    assert 'value="40, 20"' in bad.content.decode()
    good = organiser.post(
        url,
        {
            "stipulation_kind": "catch_the_flag",
            "ctf_flag_value": "30",
            "ctf_aliens": "on",
            "thresholds": "20, 40",
        },
    )
    assert good.status_code == 302
    world.stage.refresh_from_db()
    assert world.stage.stipulation_params["flag_value"] == 30
    assert world.stage.stipulation_params["aliens"] is True
    assert list(world.stage.thresholds.values_list("points", flat=True)) == [20, 40]


def test_stipulation_messages_name_the_forms_labels_and_choices(organiser, world):
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    hunt = organiser.post(
        url, {"stipulation_kind": "alien_hunt", "ah_end_condition": "aliens_dead"}
    )
    assert hunt.status_code == 400
    assert hunt.context["form"].errors["ah_escape_rounds"] == [
        "Alien Hunt ending “when all aliens are dead, then N rounds to reach the claws” "
        "needs the parameter “Rounds to reach the claws”."
    ]
    stall = organiser.post(
        url, {"stipulation_kind": "tpk", "tpk_stall": "on", "stall_from_round": "6"}
    )
    assert stall.status_code == 400
    assert stall.context["form"].errors["stall_points"] == [
        "Parameter “Points per round (B)” is required."
    ]


def test_the_event_deck_needs_aliens_in_play(organiser, world):
    """The deck is drawn in the Alien turn, which a game without aliens never has (game
    engine decision 16): the form says so instead of saving a deck nobody draws."""
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    data = {"stipulation_kind": "catch_the_flag", "ctf_flag_value": "30", "ctf_event_deck": "on"}
    refused = organiser.post(url, {**data, "map_name": "flag-relay"})
    assert refused.status_code == 400
    assert refused.context["form"].errors["ctf_aliens"] == [
        "The alien event deck is drawn in the Alien turn, which a game without aliens does "
        "not have: set “Aliens in play” too, or leave “Use the alien event deck” out."
    ]
    saved = organiser.post(url, {**data, "map_name": "flag-relay", "ctf_aliens": "on"})
    assert saved.status_code == 302


def test_stage_form_builds_the_tpk_stall_breaker(organiser, world):
    url = reverse("tournaments:organiser_stage", args=[world.tournament.slug, 1])
    response = organiser.post(
        url,
        {
            "stipulation_kind": "tpk",
            "tpk_stall": "on",
            "stall_from_round": "6",
            "stall_points": "5",
            "stall_max_extra_rounds": "4",
        },
    )
    assert response.status_code == 302
    world.stage.refresh_from_db()
    assert world.stage.stipulation_params["stall_breaker"] == {
        "from_round": 6,
        "points": 5,
        "growth": 0,
        "max_extra_rounds": 4,
    }


def schedule_data(session, version, when="2026-06-01T15:30", table="3", judge=""):
    prefix = f"s{session.pk}"
    tournament = session.stage.tournament
    table_pk = VenueTableFactory(tournament=tournament, name=table).pk if table else ""
    return {
        f"{prefix}-scheduled_at": when,
        f"{prefix}-table": table_pk,
        f"{prefix}-judge": judge,
        f"{prefix}-version": version,
    }


def test_schedule_a_session(organiser, world):
    url = reverse(
        "tournaments:organiser_session_schedule", args=[world.tournament.slug, world.session.pk]
    )
    response = organiser.post(
        url, schedule_data(world.session, world.session.version, judge=world.judge.pk)
    )
    assert response.status_code == 302
    world.session.refresh_from_db()
    assert world.session.table.name == "3"
    assert world.session.status == "scheduled"
    assert timezone.localtime(world.session.scheduled_at).hour == 15  # as typed, local time
    assert ActivityLog.objects.filter(verb="scheduled").exists()


def test_schedule_with_htmx_returns_the_row(organiser, world):
    url = reverse(
        "tournaments:organiser_session_schedule", args=[world.tournament.slug, world.session.pk]
    )
    response = organiser.post(
        url, schedule_data(world.session, world.session.version), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert f'id="schedule-{world.session.pk}"' in response.content.decode()


def test_stale_schedule_is_refused_and_keeps_the_input(organiser, world):
    url = reverse(
        "tournaments:organiser_session_schedule", args=[world.tournament.slug, world.session.pk]
    )
    old = world.session.version
    nine = VenueTableFactory(tournament=world.tournament, name="9")
    Session.objects.filter(pk=world.session.pk).update(version=old + 1, table=nine)
    data = schedule_data(world.session, old, table="4")
    response = organiser.post(url, data)
    assert response.status_code == 400
    assert f'value="{data[f"s{world.session.pk}-table"]}" selected' in response.content.decode()
    world.session.refresh_from_db()
    assert world.session.table == nine


def test_start_seats_the_first_stage(client, db):
    user = UserFactory(username="capo")
    user.save()
    tournament = TournamentFactory(slug="nuovo")
    tournament.organisers.add(user)
    from tests.factories import register_players

    register_players(tournament, 9)
    client.force_login(user)
    dashboard = client.get(reverse("tournaments:organiser_dashboard", args=["nuovo"]))
    assert "start_form" in dashboard.context
    response = client.post(
        reverse("tournaments:organiser_start", args=["nuovo"]),
        {"start-mode": "app", "start-version": 0},
    )
    assert response.status_code == 302
    stage = tournament.stages.get()
    assert [s.seats.count() for s in stage.sessions.all()] == [3, 3, 3]
    assert not stage.sessions.filter(seats__squad__isnull=False).exists()


def test_start_names_every_bad_typed_die_at_once(client, db):
    """The stage's dice are d6s: a value a d6 cannot show is named with the items that are
    no numbers, before anything is rolled."""
    user = UserFactory(username="capo")
    user.save()
    tournament = TournamentFactory(slug="nuovo", seating_method="random")
    tournament.organisers.add(user)
    register_players(tournament, 3)
    client.force_login(user)
    response = client.post(
        reverse("tournaments:organiser_start", args=["nuovo"]),
        {"start-mode": "physical", "start-dice": "3,7,x", "start-version": 0},
    )
    assert response.status_code == 400
    [message] = response.context["start_form"].errors["dice"]
    assert message.startswith("die 2 is 7, which a d6 cannot show")
    assert "die 3 is “x”, which is not a whole number" in message
    assert not tournament.stages.exists()


def test_advance_lists_sessions_without_results(organiser, world):
    response = organiser.post(
        reverse("tournaments:organiser_advance", args=[world.tournament.slug]),
        {"advance-mode": "app", "advance-version": 0},
    )
    assert response.status_code == 400
    assert len(response.context["missing"]) == 3


def test_activity_log_page_lists_actions(organiser, world):
    url = reverse("tournaments:organiser_activity", args=[world.tournament.slug])
    response = organiser.get(url)
    assert response.status_code == 200
    assert response.context["entries"]


def test_correct_a_result_needs_a_reason_and_adds_a_version(organiser, world, role_client):
    from tests.web.test_judge import result_data
    from tournaments.models import Result

    judge = role_client("judge")
    judge_url = reverse("tournaments:judge_result", args=[world.session.pk])
    assert (
        judge.post(
            judge_url, result_data(world.session, world.session.version, tokens={0: 10})
        ).status_code
        == 302
    )
    world.session.refresh_from_db()
    url = reverse(
        "tournaments:organiser_result_correct", args=[world.tournament.slug, world.session.pk]
    )
    form = organiser.get(url)
    assert form.status_code == 200 and form.context["correction"]
    data = result_data(world.session, world.session.version, tokens={0: 10, 1: 25})
    refused = organiser.post(url, data)
    assert refused.status_code == 400
    assert "why" in str(refused.context["form"].non_field_errors())
    data["reason"] = "Segnalini alieni dimenticati"
    saved = organiser.post(url, data)
    assert saved.status_code == 302
    # Back to the organiser's schedule, at the corrected session.
    assert saved["Location"] == (
        reverse("tournaments:organiser_schedule", args=[world.tournament.slug])
        + f"#schedule-{world.session.pk}"
    )
    versions = Result.objects.get(session=world.session).versions.order_by("number")
    assert [v.number for v in versions] == [1, 2]
    assert versions.last().reason == "Segnalini alieni dimenticati"
    assert versions.first().breakdown != versions.last().breakdown
    assert ActivityLog.objects.filter(verb="corrected_result").exists()


def test_the_finals_close_button_says_it_publishes_the_podium(db, client):
    """QA: the final's close button promised to seat a next stage there is none of."""
    tournament = TournamentFactory(slug="finale")
    register_players(tournament, 9)
    organiser = UserFactory(username="capo")
    organiser.save()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    dashboard = reverse("tournaments:organiser_dashboard", args=["finale"])
    call_command("advance", "finale", "--seed", "1", stdout=StringIO())
    for number in (1, 2):
        confirm_stage(tournament.stages.get(number=number), lambda seat: seat.pk)
        page = client.get(dashboard).content.decode()
        assert "Close the stage and seat the next" in page and "publish the podium" not in page
        call_command("advance", "finale", "--seed", str(number + 1), stdout=StringIO())
    confirm_stage(tournament.stages.get(number=3), lambda seat: seat.pk)
    page = client.get(dashboard).content.decode()
    assert "Close the final and publish the podium" in page
    assert "seat the next" not in page


def _second_stage_seated(slug: str, players: int):
    """An organiser ("capo") and their tournament of ``players``, its first stage played
    (points = player id) and its second seated."""
    from rules.engine.dice import SeededDice
    from tournaments.actions.stage_advance import advance, start_tournament

    user = UserFactory(username="capo")
    user.save()
    tournament = TournamentFactory(slug=slug)
    tournament.organisers.add(user)
    register_players(tournament, players)
    start_tournament(tournament, SeededDice(seed=1))
    confirm_stage(tournament.stages.get(number=1), lambda seat: seat.player_id)
    advance(tournament, SeededDice(seed=2))
    return user, tournament


def test_the_planned_structure_follows_the_organisers_qualifier_count(client, db):
    """RULES §2: the organiser may override a stage's qualifier count; the dashboard's plan
    then shows the stages that count makes (7 → 6 → 4 → 3), not the standard rule's."""
    user, tournament = _second_stage_seated("sette", 7)
    tournament.stages.filter(number=2).update(qualifier_count=4)
    client.force_login(user)
    dashboard = client.get(reverse("tournaments:organiser_dashboard", args=["sette"]))
    plan = dashboard.context["plan"]
    assert [step.players for step in plan] == [7, 6, 4, 3]
    assert [step.qualifiers for step in plan] == [6, 4, 3, 0]


def test_the_stages_table_counts_no_session_of_an_undone_seating(client, db):
    """An advance undone leaves its sessions stored, superseded: seated again, the stage
    counts its sessions in play only (9 players: the semifinal has 2, not 4)."""
    from rules.engine.dice import SeededDice
    from tournaments.actions.stage_advance import advance
    from tournaments.actions.stage_undo import undo_advance

    user, tournament = _second_stage_seated("nove", 9)
    undo_advance(tournament, reason="wrong dice", actor=user)
    advance(tournament, SeededDice(seed=3))
    client.force_login(user)
    dashboard = client.get(reverse("tournaments:organiser_dashboard", args=["nove"]))
    counts = {stage.number: stage.session_count for stage in dashboard.context["stages"]}
    assert counts == {1: 3, 2: 2}


def test_the_stages_table_names_an_undone_stage_as_the_plan_now_makes_it(client, db):
    """9 players: stage 2 is seated as the semifinal (6 players); undone, and stage 1 made
    to send 3 on, the stage is now the final, as the plan says, before it is seated."""
    from tournaments.actions.stage_undo import undo_advance

    user, tournament = _second_stage_seated("nove", 9)
    assert tournament.stages.get(number=2).kind == "semifinal"
    undo_advance(tournament, reason="wrong count", actor=user)
    tournament.stages.filter(number=1).update(qualifier_count=3)
    client.force_login(user)
    dashboard = client.get(reverse("tournaments:organiser_dashboard", args=["nove"]))
    kinds = {stage.number: stage.kind for stage in dashboard.context["stages"]}
    assert kinds == {1: "preliminary", 2: "final"}
    assert "2. Final" in dashboard.content.decode()
    page = client.get(reverse("tournaments:organiser_stage", args=["nove", 2]))
    assert page.context["stage_kind"] == "Final"
    assert "<h2>Stage 2: Final</h2>" in page.content.decode()


def test_the_planned_structure_leaves_out_a_player_withdrawn_before_the_start(client, db):
    """10 registered, one withdrawn before stage 1 is seated: 9 are seated (3 sessions of 3),
    and the plan says so, not 10 in 4 sessions."""
    from tournaments.actions.people import withdraw_player

    user = UserFactory(username="capo")
    user.save()
    tournament = TournamentFactory(slug="dieci")
    tournament.organisers.add(user)
    players = register_players(tournament, 10)
    withdraw_player(tournament, players[0], reason="cannot come", actor=user)
    client.force_login(user)
    dashboard = client.get(reverse("tournaments:organiser_dashboard", args=["dieci"]))
    plan = dashboard.context["plan"]
    assert [step.players for step in plan] == [9, 6, 3]
    assert plan[0].sessions == 3


def test_the_seating_method_says_a_one_session_stage_needs_no_dice(client, db):
    """Decisions 18 and 21: a stage of one session (the final) is seated by stage rank
    without dice, whatever the seating method; the stage's field and the tournament's say
    so, and a closed final's page says how it was seated, not the tournament's random."""
    from rules.engine.dice import SeededDice
    from tournaments.actions.stage_advance import advance, start_tournament

    user = UserFactory(username="capo")
    user.save()
    tournament = TournamentFactory(slug="tre")
    tournament.organisers.add(user)
    register_players(tournament, 3)
    start_tournament(tournament, SeededDice(seed=1))
    client.force_login(user)
    stage_url = reverse("tournaments:organiser_stage", args=["tre", 1])
    assert "seated by stage rank without dice" in client.get(stage_url).content.decode()
    edit = client.get(reverse("tournaments:organiser_dashboard", args=["tre"]))
    assert "always seated by stage rank, without dice" in edit.content.decode()

    confirm_stage(tournament.stages.get(number=1), lambda seat: seat.player_id)
    advance(tournament, SeededDice(seed=2))
    closed = client.get(stage_url).content.decode()
    assert "by stage rank, without dice (a stage of one session)" in closed
    assert "the tournament&#x27;s: random" not in closed


def test_a_withdrawal_after_the_seating_leaves_the_next_stage_as_the_bracket_plans_it(client, db):
    """7 seated in 3 sessions send 6 on to a semifinal, though one of them has withdrawn
    since (their session plays short): the dashboard planned from the 6 still playing and
    named stage 2 the final, while the bracket showed a semifinal."""
    from rules.engine.dice import SeededDice
    from tournaments.actions.people import withdraw_player
    from tournaments.actions.stage_advance import start_tournament
    from tournaments.views.public import bracket_stages

    user = UserFactory(username="capo")
    user.save()
    tournament = TournamentFactory(slug="sette")
    tournament.organisers.add(user)
    players = register_players(tournament, 7)
    StageFactory(tournament=tournament, number=2, kind="final")  # prepared ahead
    start_tournament(tournament, SeededDice(seed=1))
    withdraw_player(tournament, players[0], reason="cannot stay", actor=user)
    client.force_login(user)
    dashboard = client.get(reverse("tournaments:organiser_dashboard", args=["sette"]))
    plan = dashboard.context["plan"]
    assert [(step.players, step.sessions, step.qualifiers) for step in plan] == [
        (7, 3, 6),
        (6, 2, 3),
        (3, 1, 0),
    ]
    kinds = {stage.number: stage.kind for stage in dashboard.context["stages"]}
    assert kinds == {1: "preliminary", 2: "semifinal"}
    columns, _podium = bracket_stages(tournament)
    assert [column.label for column in columns if column.planned][0] == "Semifinal"
