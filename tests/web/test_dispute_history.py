"""What a player reads after disputing a result (QA as a player): their disputes of the
session with the organiser's answers and the contested points; a corrected result marked
for every seated player (decision 50); long dispute texts that wrap; the text's limit."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime

from rules.engine.dice import SeededDice
from tests.factories import confirm_stage, session_points
from tests.web.conftest import as_player, login
from tournaments.actions.result_disputes import MAX_TEXT, flag_dispute, resolve_dispute
from tournaments.actions.result_entry import confirm_result, correct_result
from tournaments.forms.venue import DisputeResolutionForm
from tournaments.models import DisputeStatus
from tournaments.queries.result_versions import latest_corrections

pytestmark = pytest.mark.django_db


def by_seat_order(seat) -> int:
    return 10 * seat.seat_order


def _correct(session, reason: str, *, confirmed: bool = True) -> None:
    correct_result(
        session,
        session_points(session, lambda seat: 50 - 10 * seat.seat_order),
        reason=reason,
        survivors=session.seats.values_list("player_id", flat=True),
        confirmed=confirmed,
        dice=SeededDice(seed=9),
    )


def test_the_dispute_page_keeps_the_disputes_with_their_answers(world, client):
    confirm_stage(world.stage, by_seat_order)
    first = flag_dispute(world.player, world.session, "I had 40 points")
    resolve_dispute(first, outcome=DisputeStatus.NOTED, note="The sheet says 30.")
    flag_dispute(world.player, world.session, "Still 40, see the photo")
    as_player(client, world.player)
    page = client.get(reverse("tournaments:player_dispute", args=[world.session.pk]))
    html = page.content.decode()
    history = html.split('data-testid="dispute-history"', 1)[1].split("</section>", 1)[0]
    # The latest first, each with its answer once given.
    assert history.index("Still 40, see the photo") < history.index("I had 40 points")
    assert "not answered yet" in history
    assert "The organiser's answer:" in history and "The sheet says 30." in history
    assert "Resolved with a note" in history
    assert "about result version 1" in history
    # The points of the contested result, line by line.
    breakdown = html.split('data-testid="dispute-breakdown"', 1)[1].split("dispute-history")[0]
    assert "Point breakdown" in breakdown
    for seat in world.session.seats.select_related("player"):
        assert seat.player.display_name in breakdown
        points = by_seat_order(seat)  # Gretchin tokens, as the factories score a session
        assert f"{points} × Gretchin token (1 each): {points}" in breakdown
    # My games shows the session's latest dispute (waiting), not the first one answered.
    home = client.get(reverse("tournaments:player_home"))
    [row] = [row for row in home.context["history"] if row["seat"].session_id == world.session.pk]
    assert row["dispute"].reason == "Still 40, see the photo"
    assert "sent to the organiser" in home.content.decode()


def test_another_players_disputes_are_not_shown(world, client):
    confirm_stage(world.stage, by_seat_order)
    other = world.session.seats.exclude(player=world.player).first().player
    flag_dispute(other, world.session, "Their own complaint")
    as_player(client, world.player)
    page = client.get(reverse("tournaments:player_dispute", args=[world.session.pk]))
    assert page.context["disputes"] == []
    assert "Their own complaint" not in page.content.decode()


def test_a_corrected_result_is_marked_for_every_seated_player(world, client):
    confirm_stage(world.stage, by_seat_order)
    _correct(world.session, "Kills miscounted on the sheet")
    when = latest_corrections([world.session])[world.session.pk].at
    note = (
        f"Corrected on {date_format(localtime(when), 'SHORT_DATETIME_FORMAT')}: "
        "Kills miscounted on the sheet"
    )
    for seat in world.session.seats.select_related("player"):
        as_player(client, seat.player)
        home = client.get(reverse("tournaments:player_home")).content.decode()
        assert note in home
        public = client.get(
            reverse("tournaments:player", args=[world.tournament.slug, seat.player_id])
        ).content.decode()
        assert note in public
    # Another session's result, confirmed once, is not marked.
    other = world.stage.sessions.exclude(pk=world.session.pk).first().seats.first().player
    as_player(client, other)
    assert "Corrected on" not in client.get(reverse("tournaments:player_home")).content.decode()


def test_a_correction_confirmed_later_keeps_its_own_reason(world):
    confirm_stage(world.stage, by_seat_order)
    assert latest_corrections([world.session]) == {}
    _correct(world.session, "Draft: flag points", confirmed=False)
    assert latest_corrections([world.session]) == {}  # not in force until confirmed
    confirm_result(world.session)
    correction = latest_corrections([world.session.pk])[world.session.pk]
    assert (correction.number, correction.reason) == (3, "Draft: flag points")


def test_dispute_texts_wrap_and_their_limit_is_said(world, client):
    confirm_stage(world.stage, by_seat_order)
    link = "https://example.org/" + "x" * 300
    flag_dispute(world.player, world.session, link)
    as_player(client, world.player)
    page = client.get(reverse("tournaments:player_dispute", args=[world.session.pk]))
    assert f'<blockquote class="wrap-anywhere">{link}</blockquote>' in page.content.decode()
    organiser = login(client, world.organiser)
    venue = organiser.get(reverse("tournaments:organiser_venue", args=[world.tournament.slug]))
    assert f'<blockquote class="wrap-anywhere">{link}</blockquote>' in venue.content.decode()
    css = (Path(settings.BASE_DIR) / "static/css/bob.css").read_text()
    assert re.search(r"\.wrap-anywhere\b[^{}]*\{ overflow-wrap: anywhere; \}", css)
    # The form says the limit its maxlength enforces.
    as_player(client, world.player)
    resolve_dispute(
        world.session.disputes.get(), outcome=DisputeStatus.NOTED, note="The result stands."
    )
    form = client.get(reverse("tournaments:player_dispute", args=[world.session.pk]))
    html = form.content.decode()
    assert f'maxlength="{MAX_TEXT}"' in html
    assert f"At most {MAX_TEXT} characters." in html
    # So does the organiser's note answering a dispute.
    note = DisputeResolutionForm().fields["note"]
    assert note.max_length == MAX_TEXT
    assert f"At most {MAX_TEXT} characters." in str(note.help_text)


def test_the_dispute_forms_say_their_limit_in_the_readers_language():
    """The help texts were formatted once, at import, in whatever language was active then:
    an English page could say its limit in Italian, whichever test or request came first."""
    from django.utils import translation

    from tournaments.forms.venue import DisputeForm, DisputeResolutionForm

    for form, field in ((DisputeForm, "reason"), (DisputeResolutionForm, "note")):
        with translation.override("it"):
            italian = str(form().fields[field].help_text)
        with translation.override("en"):
            english = str(form().fields[field].help_text)
        assert f"Al massimo {MAX_TEXT} caratteri." in italian
        assert f"At most {MAX_TEXT} characters." in english
