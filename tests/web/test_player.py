"""Player pages: squad preferences, loadout with live validation, history, calendar feed."""

import pytest
from django.urls import reverse
from django.utils import timezone

from rules.engine.dice import SeededDice
from tests.factories import VenueTableFactory
from tournaments.actions.session_setup import draw_squads
from tournaments.models import (
    ChapterCard,
    Loadout,
    Rank,
    ScoreBonus,
    Session,
    SquadPreference,
    SquadRank,
)

pytestmark = pytest.mark.django_db


def add_cards(tournament) -> None:
    """Two order and five equipment cards per squad (the organiser enters the real ones)."""
    for squad in tournament.squads.all():
        for number in range(1, 3):
            ChapterCard.objects.create(
                squad=squad,
                slug=f"order-{number}",
                kind="order",
                name_en=f"Order {number}",
                name_it=f"Ordine {number}",
            )
        for number in range(1, 6):
            ChapterCard.objects.create(
                squad=squad,
                slug=f"kit-{number}",
                kind="equipment",
                name_en=f"Kit {number}",
                name_it=f"Equipaggiamento {number}",
            )


@pytest.fixture
def player(world, role_client):
    return role_client("player")


@pytest.fixture
def drawn(world):
    draw_squads(
        world.session, SeededDice(seed=3), actor=None, expected_version=world.session.version
    )
    add_cards(world.tournament)
    return world.session.seats.get(player=world.player)


def test_preferences_are_saved_in_order(player, world):
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    response = player.post(url, {"choice_1": "imperial-fists", "choice_2": "ultramarines"})
    assert response.status_code == 302
    row = SquadPreference.objects.get(player=world.player, stage__isnull=True)
    assert row.choices == ["imperial-fists", "ultramarines"]


def test_preferences_refuse_repeats_and_gaps(player, world):
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    response = player.post(url, {"choice_1": "ultramarines", "choice_2": "ultramarines"})
    assert response.status_code == 400
    assert "choice_2" in response.context["form"].errors
    response = player.post(url, {"choice_1": "ultramarines", "choice_3": "blood-angels"})
    assert "choice_3" in response.context["form"].errors


def test_preferences_lock_after_the_draw(player, world, drawn):
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    response = player.post(url, {"choice_1": "blood-angels"})
    assert response.status_code == 409
    assert "preferences can no longer change" in response.content.decode()


def test_locked_preferences_read_as_a_list_not_a_form(player, world):
    """QA: after the draw the page still showed the choices as dropdowns (refused only on
    saving); it lists them in order, with the squad the draw gave."""
    url = reverse("tournaments:player_preferences", args=[world.tournament.slug])
    player.post(url, {"choice_1": "imperial-fists", "choice_2": "ultramarines"})
    draw_squads(
        world.session, SeededDice(seed=3), actor=None, expected_version=world.session.version
    )
    response = player.get(url)
    html = response.content.decode()
    assert response.status_code == 200 and 'name="choice_1"' not in html
    assert "<ol><li>Imperial Fists</li><li>Ultramarines</li></ol>" in html
    squad = world.session.seats.get(player=world.player).squad
    assert f"The draw gave you: <strong>{squad.name}</strong>" in html


def loadout_data(**overrides):
    data = {
        "commander_combo": "bolter",
        "marine_1": "laser-rifle",
        "marine_2": "plasma-gun",
        "marine_3": "laser-rifle",
        "marine_4": "assault-cannon",
        "order_cards": ["order-1"],
        "equipment_cards": ["kit-1", "kit-2", "kit-3", "kit-4"],
    }
    data.update(overrides)
    return data


def test_loadout_waits_for_the_draw(player, world):
    seat = world.session.seats.get(player=world.player)
    response = player.get(reverse("tournaments:player_loadout", args=[seat.pk]))
    assert response.context["waiting"]
    # Before the draw the player's page says so instead of offering a choice.
    home = player.get(reverse("tournaments:player_home"), HTTP_ACCEPT_LANGUAGE="en")
    page = home.content.decode()
    assert "Your squad is not drawn yet." in page
    assert reverse("tournaments:player_loadout", args=[seat.pk]) not in page
    page = player.get(reverse("tournaments:player_home"), HTTP_ACCEPT_LANGUAGE="it")
    assert "non ancora sorteggiata" in page.content.decode()  # la squadra


def test_valid_loadout_is_saved(player, drawn):
    response = player.post(reverse("tournaments:player_loadout", args=[drawn.pk]), loadout_data())
    assert response.status_code == 302
    saved = Loadout.objects.get(seat=drawn)
    assert saved.marine_weapons == ["laser-rifle", "plasma-gun", "laser-rifle", "assault-cannon"]


def test_invalid_loadout_explains_each_problem_and_keeps_the_choices(player, drawn):
    data = loadout_data(marine_2="assault-cannon", equipment_cards=["kit-1"])
    response = player.post(reverse("tournaments:player_loadout", args=[drawn.pk]), data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "equipment_cards" in errors
    assert any(name.startswith("marine_") or name == "__all__" for name in errors)
    assert not Loadout.objects.filter(seat=drawn).exists()
    assert 'value="kit-1"' in response.content.decode()
    assert response.context["form"]["equipment_cards"].value() == ["kit-1"]
    # Said at the top too: on a phone the page reloads there, far from the problems.
    page = response.content.decode()
    notice = page.index('data-testid="loadout-not-saved"')
    assert "These choices are not saved" in page[notice : page.index("</p>", notice)]
    assert notice < page.index('<form method="post" class="card"')


def test_live_loadout_check(player, drawn):
    url = reverse("tournaments:player_loadout_check", args=[drawn.pk])
    good = player.post(url, loadout_data(), HTTP_HX_REQUEST="true")
    assert "all-good" in good.content.decode()
    bad = player.post(url, loadout_data(marine_1="plasma-gun"), HTTP_HX_REQUEST="true")
    assert "problems" in bad.content.decode()
    assert not Loadout.objects.filter(seat=drawn).exists()


def test_judge_sees_the_loadout_check(drawn, world, role_client, player):
    player.post(reverse("tournaments:player_loadout", args=[drawn.pk]), loadout_data())
    judge = role_client("judge")
    sheet = judge.get(reverse("tournaments:judge_session", args=[world.session.pk]))
    checks = {c["seat"].pk: c for c in sheet.context["loadout_checks"]}
    assert checks[drawn.pk]["loadout"] is not None and not checks[drawn.pk]["problems"]
    printed = judge.get(reverse("tournaments:judge_print_loadouts", args=[world.session.pk]))
    assert printed.status_code == 200


def test_other_players_seat_is_not_found(player, world):
    other = world.stage.sessions.exclude(pk=world.session.pk).first().seats.first()
    response = player.get(reverse("tournaments:player_loadout", args=[other.pk]))
    assert response.status_code == 404


def test_calendar_feed_lists_scheduled_sessions(client, world):
    Session.objects.filter(pk=world.session.pk).update(
        scheduled_at=timezone.now(),
        table=VenueTableFactory(tournament=world.tournament, name="7"),
        schedule_sequence=2,
    )
    response = client.get(reverse("tournaments:player_calendar", args=[world.player.access_token]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR\r\n") and body.endswith("END:VCALENDAR\r\n")
    assert body.count("BEGIN:VEVENT") == 1
    assert "SEQUENCE:2" in body


def test_player_creates_an_account_and_logs_in_elsewhere(player, world, client):
    url = reverse("tournaments:player_account")
    weak = player.post(url, {"username": "lucia", "password1": "123", "password2": "123"})
    assert weak.status_code == 400 and weak.context["form"].errors
    response = player.post(
        url, {"username": "lucia", "password1": "Zq9!lucia-pass", "password2": "Zq9!lucia-pass"}
    )
    assert response.status_code == 302
    world.player.refresh_from_db()
    assert world.player.user.username == "lucia"
    assert client.login(username="lucia", password="Zq9!lucia-pass")
    home = client.get(reverse("tournaments:player_home"))
    assert home.status_code == 200 and home.context["player"] == world.player
    assert player.get(url).context["has_account"]


def test_the_loadout_form_says_where_extra_cards_come_from(player, world, drawn):
    url = reverse("tournaments:player_loadout", args=[drawn.pk])
    page = player.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "for your squad&#x27;s rank" not in page
    assert "score thresholds you reached" not in page
    SquadRank.objects.update_or_create(
        tournament=world.tournament,
        player=world.player,
        defaults={"squad": drawn.squad, "rank": Rank.ELITE_SQUAD},
    )
    ScoreBonus.objects.create(
        tournament=world.tournament,
        player=world.player,
        earned_in=world.session,
        thresholds_reached=[10],
        extra_equipment_cards=1,
        used_in=world.session,
    )
    page = player.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Order cards (2)" in page
    assert "1, plus 1 for your squad&#x27;s rank (Elite Squad)." in page
    assert "Equipment cards (5)" in page
    assert "4, plus 1 for the score thresholds you reached in your previous session" in page


def _unfolded(body: str) -> list[str]:
    """The content lines of an iCalendar body, each physical line checked against RFC 5545
    §3.1 (CRLF ends, at most 75 octets) and the folded ones joined back."""
    assert body.endswith("\r\n")
    physical = body[:-2].split("\r\n")
    assert all(len(line.encode()) <= 75 for line in physical), physical
    lines: list[str] = []
    for line in physical:
        if line.startswith(" "):
            lines[-1] += line[1:]
        else:
            lines.append(line)
    return lines


def _event(body: str) -> dict[str, str]:
    lines = _unfolded(body)
    start, end = lines.index("BEGIN:VEVENT"), lines.index("END:VEVENT")
    return dict(line.split(":", 1) for line in lines[start + 1 : end])


@pytest.mark.parametrize(
    ("lang", "summary", "location"),
    [
        ("en", "Preliminary\\, session 1", "table 7"),
        ("it", "Preliminare\\, sessione 1", "tavolo 7"),
    ],
)
def test_calendar_feed_is_in_the_asked_language_and_links_each_session(
    client, world, lang, summary, location
):
    Session.objects.filter(pk=world.session.pk).update(
        scheduled_at=timezone.now(), table=VenueTableFactory(tournament=world.tournament, name="7")
    )
    url = reverse("tournaments:player_calendar", args=[world.player.access_token])
    response = client.get(url, {"lang": lang}, HTTP_ACCEPT_LANGUAGE="it" if lang == "en" else "en")
    event = _event(response.content.decode())
    assert summary in event["SUMMARY"]
    assert location in event["LOCATION"]
    page = reverse("tournaments:session", args=[world.tournament.slug, world.session.pk])
    assert event["URL"] == f"http://testserver{page}"


def test_calendar_feed_refuses_an_unknown_language_saying_which_to_use(client, world):
    url = reverse("tournaments:player_calendar", args=[world.player.access_token])
    response = client.get(url, {"lang": "fr"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "use lang=it or lang=en" in response.content.decode()
    italian = client.get(url, {"lang": "fr"}, HTTP_ACCEPT_LANGUAGE="it")
    assert "usa lang=it o lang=en" in italian.content.decode()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_player_page_offers_the_feed_in_its_own_language(player, lang):
    response = player.get(reverse("tournaments:player_home"), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.context["calendar_url"].endswith(f"schedule.ics?lang={lang}")


def test_the_player_page_keeps_the_language_it_is_read_in_for_the_mails(player, world):
    """The mails follow the language the player reads their own page in; reading it again
    in that language writes nothing."""
    assert world.player.language == ""
    player.get(reverse("tournaments:player_home"), HTTP_ACCEPT_LANGUAGE="it")
    world.player.refresh_from_db()
    assert world.player.language == "it"
    player.get(reverse("tournaments:player_home"), HTTP_ACCEPT_LANGUAGE="en")
    world.player.refresh_from_db()
    assert world.player.language == "en"


def test_the_organiser_sees_the_language_of_a_players_mails(player, world, role_client):
    organiser = role_client("organiser")
    url = reverse("tournaments:organiser_player", args=[world.tournament.slug, world.player.pk])
    page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "written in the site's language until they open their own page" in page
    player.get(reverse("tournaments:player_home"), HTTP_ACCEPT_LANGUAGE="it")
    page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Their mails are written in Italian, the language they last read" in page
