"""The four flows of the issue, in a real browser:

1. an organiser creates a 9-player tournament and schedules the preliminaries;
2. a judge runs a draw and enters a result (live scoring while typing);
3. a player submits squad preferences and a loadout (validated live);
4. the public standings change after the result, refreshed by htmx without a reload.
"""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from rules.engine.dice import SeededDice
from tests.browser.conftest import log_in, screenshot
from tests.factories import TournamentFactory, UserFactory, points_breakdown, register_players
from tournaments.actions.session_setup import draw_squads
from tournaments.actions.stage_advance import start_tournament
from tournaments.models import (
    ChapterCard,
    Loadout,
    Registration,
    Result,
    Session,
    SquadPreference,
    StipulationKind,
    Tournament,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSTER = "name,nickname,preference_1,preference_2,preference_3\n" + "".join(
    f"Giocatore {n},G{n},{squads}\n"
    for n, squads in zip(
        range(1, 10),
        [
            "ultramarines,blood-angels,imperial-fists",
            "blood-angels,imperial-fists,ultramarines",
            "imperial-fists,ultramarines,blood-angels",
        ]
        * 3,
        strict=True,
    )
)


def account(username: str, **extra):
    user = UserFactory(username=username, **extra)
    user.save()
    return user


def seated_tournament(judge=None) -> Tournament:
    tournament = TournamentFactory(name="Coppa del Nord", slug="coppa-nord")
    register_players(tournament, 9)
    start_tournament(tournament, SeededDice(seed=5), draw_squads=False)
    stage = tournament.stages.get(number=1)
    stage.stipulation_kind = StipulationKind.ALIEN_HUNT
    stage.stipulation_params = {"rounds": 8}
    stage.save()
    if judge is not None:
        tournament.judges.add(judge)
        Session.objects.filter(stage=stage, number=1).update(judge=judge)
    return tournament


def test_organiser_creates_a_tournament_and_schedules_the_preliminaries(new_page):
    account("org")
    # A new account may create tournaments once the site's administrator allows it
    # (decision 60).
    call_command("allow_organising", "org", stdout=StringIO())
    page = new_page()
    log_in(page, "org")
    page.get_by_role("link", name="Organise").click()
    page.get_by_role("link", name="Create a tournament").click()
    page.get_by_role("textbox", name="Name", exact=True).fill("Torneo di Primavera")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_role("heading", name="Upload a roster")).to_be_visible()

    page.get_by_label("Roster file (CSV)").set_input_files(
        files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}]
    )
    page.get_by_role("button", name="Upload").click()
    expect(page.get_by_text("9 players registered from the file.")).to_be_visible()
    screenshot(page, "organiser-players")
    tournament = Tournament.objects.get(slug="torneo-di-primavera")
    assert Registration.objects.filter(tournament=tournament).count() == 9

    page.get_by_role("link", name="Judges").click()
    judge_form = page.get_by_role("form", name="Add a judge")
    judge_form.get_by_label("User name").fill("giudice-uno")
    judge_form.get_by_label("Password for a new account").fill("Zq9!judge-pass")
    page.get_by_role("button", name="Add judge").click()
    expect(page.get_by_text("giudice-uno is now a judge")).to_be_visible()

    page.get_by_role("link", name="Set-up").click()
    page.get_by_role("button", name="Seat the first stage").click()
    expect(page.get_by_text("The first stage is seated")).to_be_visible()
    sessions = list(Session.objects.filter(stage__tournament=tournament).order_by("number"))
    assert len(sessions) == 3

    page.get_by_role("link", name="Tables of the venue").click()
    page.get_by_label("Number of tables").fill("3")
    page.get_by_role("button", name="Add the tables").click()
    page.get_by_role("link", name="Back to the schedule").click()
    for index, session in enumerate(sessions):
        card = page.locator(f"#schedule-{session.pk}")
        card.get_by_label("Date and time").fill(f"2026-06-0{index + 1}T15:30")
        card.get_by_label("Table").select_option(label=str(index + 1))
        card.get_by_label("Judge").select_option(label="giudice-uno")
        card.get_by_role("button", name="Save schedule").click()
        expect(page.locator(f"#schedule-{session.pk}").get_by_role("status")).to_have_text("saved")
    screenshot(page, "organiser-schedule")
    for session in Session.objects.filter(stage__tournament=tournament):
        assert session.scheduled_at is not None and session.judge.username == "giudice-uno"
        assert session.status == "scheduled" and session.table is not None

    page.get_by_role("link", name="Set-up").click()
    page.get_by_role("link", name=re.compile("^Edit")).first.click()
    page.get_by_label("Stipulation type").select_option("catch_the_flag")
    expect(page.get_by_role("group", name="Alien Hunt parameters")).to_be_hidden()
    page.get_by_label("Stipulation type").select_option("alien_hunt")
    expect(page.get_by_role("group", name="Catch the Flag parameters")).to_be_hidden()
    page.get_by_label("Rounds", exact=True).fill("8")
    page.get_by_label("Score thresholds").fill("20, 40")
    page.get_by_role("button", name="Save the stage").click()
    expect(page.get_by_text("Stage saved.")).to_be_visible()
    screenshot(page, "organiser-dashboard")

    page.get_by_role("link", name="Activity log").click()
    expect(page.get_by_role("cell", name="scheduled").first).to_be_visible()
    page.goto(f"/t/{tournament.slug}/schedule/")
    expect(page.get_by_role("cell", name=re.compile(r"\bG1\b")).first).to_be_visible()
    screenshot(page, "public-schedule")


def test_judge_draws_and_enters_a_result_and_public_standings_follow(new_page):
    judge = account("arbitro")
    tournament = seated_tournament(judge)
    session = Session.objects.get(stage__tournament=tournament, number=1)

    public = new_page()
    public.goto(f"/t/{tournament.slug}/standings/")
    expect(public.locator("#standings-table")).to_be_visible()
    screenshot(public, "public-standings-before")

    page = new_page(width=390, height=844)  # a phone at the table
    log_in(page, "arbitro")
    page.get_by_role("link", name="My sessions to judge").click()
    page.get_by_role("link", name=re.compile("session 1")).first.click()
    commitment = page.locator("form", has_text="Squad draw").locator(".mono").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    page.get_by_role("button", name="Run the squad draw").click()
    expect(page.get_by_text("Rolled by the app with seed")).to_be_visible()
    expect(page.locator(".squad-blue").first).to_be_visible()

    initiative = page.locator("#initiative-form")
    initiative.get_by_label("We rolled physical dice; I type the values").check()
    initiative.get_by_label("Physical dice, in rolling order").fill("5,2,9")
    page.get_by_role("button", name="Roll initiative").click()
    expect(page.get_by_text("which a d6 cannot show").first).to_be_visible()
    initiative.get_by_label("We rolled physical dice; I type the values").check()
    initiative.get_by_label("Physical dice, in rolling order").fill("5,2,6")
    page.get_by_role("button", name="Roll initiative").click()
    expect(page.get_by_text("Physical dice recorded.")).to_be_visible()
    screenshot(page, "judge-session-sheet")

    seats = list(session.seats.select_related("player").order_by("seat_order"))
    page.get_by_role("link", name="Enter the result").click()
    first, second = seats[0], seats[1]
    block = page.locator("fieldset.seat-block").nth(0)
    victim = block.get_by_role("group", name=f"Marines of {second.player.display_name} killed")
    victim.get_by_label("heavy weapon (10)").fill("2")
    preview = page.locator("#score-preview")
    expect(preview).to_contain_text(f"{first.player.display_name}")
    rows = preview.locator("tbody tr")
    expect(rows.nth(0).locator("td").nth(1)).to_have_text(first.player.display_name)
    expect(rows.nth(0).locator("[data-testid=total]")).to_have_text("20")
    expect(rows.nth(2).locator("td").nth(1)).to_have_text(second.player.display_name)
    expect(rows.nth(2).locator("[data-testid=total]")).to_have_text("-20")
    screenshot(page, "judge-result-entry")
    page.get_by_role("button", name="Submit the result").click()
    expect(page.get_by_text("Result saved as version 1")).to_be_visible()
    version = Result.objects.get(session=session).latest_version()
    assert version.confirmed and version.ranking[0] == first.player_id

    public.get_by_role("button", name="Refresh now").click()
    row = public.locator("#standings-table tbody tr").first
    expect(row.locator("td").nth(1).get_by_role("link")).to_have_text(first.player.display_name)
    expect(row.locator("[data-testid=points]")).to_have_text("20")
    screenshot(public, "public-standings-after")
    public.goto(f"/t/{tournament.slug}/bracket/")
    expect(public.locator("svg.bracket")).to_be_visible()
    screenshot(public, "public-bracket")
    public.goto(f"/t/{tournament.slug}/sessions/{session.pk}/")
    expect(public.get_by_role("cell", name=first.player.display_name)).to_be_visible()
    screenshot(public, "public-session")


def test_player_submits_preferences_and_a_loadout(new_page):
    tournament = seated_tournament()
    session = Session.objects.get(stage__tournament=tournament, number=1)
    seat = session.seats.order_by("seat_order").first()
    player = seat.player
    SquadPreference.objects.filter(player=player).delete()

    page = new_page(width=390, height=844)
    page.goto(f"/p/{player.access_token}/")
    expect(page.get_by_role("heading", name=f"Games of {player.display_name}")).to_be_visible()
    page.get_by_role("link", name="Squad preferences").click()
    page.get_by_label("1st choice").select_option("blood-angels")
    page.get_by_label("2nd choice").select_option("blood-angels")
    page.get_by_role("button", name="Save my preferences").click()
    expect(page.get_by_text("already an earlier choice")).to_be_visible()
    page.get_by_label("2nd choice").select_option("imperial-fists")
    page.get_by_role("button", name="Save my preferences").click()
    expect(page.get_by_text("Your squad preferences are saved.")).to_be_visible()
    assert SquadPreference.objects.get(player=player).choices == ["blood-angels", "imperial-fists"]

    draw_squads(session, SeededDice(seed=9), actor=None, expected_version=session.version)
    for squad in tournament.squads.all():
        ChapterCard.objects.create(
            squad=squad, slug="order-a", kind="order", name_en="Order A", name_it="Ordine A"
        )
        for number in range(1, 6):
            ChapterCard.objects.create(
                squad=squad,
                slug=f"kit-{number}",
                kind="equipment",
                name_en=f"Kit {number}",
                name_it=f"Kit {number}",
            )
    page.reload()
    # The next-game card says the loadout is still to choose and links to it.
    next_game = page.get_by_test_id("loadout-status")
    expect(next_game).to_contain_text("not chosen yet")
    next_game.get_by_role("link", name="Choose my loadout").click()
    page.get_by_label("Bolter").check()
    page.get_by_label("Marine 1").select_option("laser-rifle")
    page.get_by_label("Marine 2").select_option("plasma-gun")
    page.get_by_label("Marine 3").select_option("plasma-gun")
    expect(page.locator("#loadout-problems")).to_contain_text("Not allowed yet")
    page.get_by_label("Marine 3").select_option("laser-rifle")
    page.get_by_label("Marine 4").select_option("missile-launcher")
    page.get_by_label("Order A").check()
    for number in range(1, 5):
        page.get_by_label(f"Kit {number}").check()
    expect(page.locator("#loadout-problems")).to_contain_text("This loadout follows the rules.")
    screenshot(page, "player-loadout")
    page.get_by_role("button", name="Save my loadout").click()
    expect(page.get_by_text("Your loadout is saved and valid.")).to_be_visible()
    saved = Loadout.objects.get(seat=seat)
    assert saved.marine_weapons == ["laser-rifle", "plasma-gun", "laser-rifle", "missile-launcher"]
    screenshot(page, "player-home")


def test_language_switch_and_projector(new_page):
    tournament = seated_tournament()
    page = new_page(width=1920, height=1080)
    page.goto(f"/t/{tournament.slug}/")
    page.get_by_label("Language").select_option("it")
    page.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    screenshot(page, "public-tournament-home-it")
    page.clock.install()
    page.goto(f"/t/{tournament.slug}/projector/")
    panels = page.locator("#projector-panels .panel")
    expect(panels).to_have_count(4)
    expect(panels.nth(0)).to_be_visible()
    expect(panels.nth(1)).to_be_hidden()
    screenshot(page, "projector")
    for shown in (1, 2, 3, 0):
        page.clock.run_for(12_500)
        expect(panels.nth(shown)).to_be_visible()
        expect(panels.nth((shown + 1) % 4)).to_be_hidden()


def test_standings_refresh_by_themselves(new_page):
    judge = account("arbitra")
    tournament = seated_tournament(judge)
    session = Session.objects.get(stage__tournament=tournament, number=1)
    page = new_page()
    page.clock.install()
    page.goto(f"/t/{tournament.slug}/standings/")
    points = page.locator("#standings-table [data-testid=points]")
    expect(points.first).to_have_text("0")
    seats = list(session.seats.order_by("seat_order"))
    from tournaments.actions.result_entry import record_result

    record_result(
        session,
        [
            points_breakdown(seat.player_id, 901 - i)  # Alien Hunt: alien tokens
            for i, seat in enumerate(seats)
        ],
        survivors=[seat.player_id for seat in seats],
        confirmed=True,
        dice=SeededDice(seed=1),
    )
    page.clock.run_for(16_000)
    expect(points.first).to_have_text("901")
