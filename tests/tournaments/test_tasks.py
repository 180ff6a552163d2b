"""Session notices by email with an .ics file, standings rebuilds, and their idempotence."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import UserFactory, VenueTableFactory, session_points
from tests.tournaments.test_mail_server_away import cool_down_over
from tournaments.actions.optimistic_lock import update_if_current
from tournaments.actions.result_entry import record_result
from tournaments.actions.scheduling import schedule_session
from tournaments.models import (
    ActivityLog,
    SessionStatus,
    StaleSessionError,
    Stipulation,
)
from tournaments.queries.calendar import session_calendar, session_uid
from tournaments.queries.standings import cache_key
from tournaments.tasks import notify_session_scheduled, rebuild_standings

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 12, 5, 15, 30, tzinfo=UTC)


def unfold(text: str) -> list[str]:
    return text.replace("\r\n ", "").split("\r\n")


def test_scheduling_emails_every_player_an_ics_once(
    final_session, django_capture_on_commit_callbacks
):
    judge = UserFactory(username="marta", first_name="Marta", last_name="Rossi")
    with django_capture_on_commit_callbacks(execute=True):
        schedule_session(
            final_session,
            when=WHEN,
            table=VenueTableFactory(tournament=final_session.stage.tournament, name="2"),
            judge=judge,
        )
    final_session.refresh_from_db()
    assert final_session.status == SessionStatus.SCHEDULED
    assert final_session.schedule_sequence == 1
    assert len(mail.outbox) == 3
    recipients = sorted(message.to[0] for message in mail.outbox)
    expected = sorted(final_session.seats.values_list("player__email", flat=True))
    assert recipients == expected

    message = mail.outbox[0]
    assert "table 2" in message.body
    (name, content, mimetype) = message.attachments[0]
    assert name.endswith(".ics")
    assert mimetype.startswith("text/calendar")
    lines = unfold(content)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR" and lines[-1] == ""
    assert "VERSION:2.0" in lines
    assert f"UID:{session_uid(final_session)}" in lines
    assert "DTSTART:20261205T153000Z" in lines
    assert "DTEND:20261205T183000Z" in lines
    assert "SEQUENCE:1" in lines
    assert any(line.startswith("DTSTAMP:") and line.endswith("Z") for line in lines)
    assert "Judge: Marta Rossi" in content.replace("\r\n ", "")

    # Running the task again (a retry or duplicate delivery) sends nothing more.
    assert notify_session_scheduled.delay(final_session.pk).get() == 0
    assert len(mail.outbox) == 3


def test_rescheduling_raises_the_sequence_and_mails_again(
    final_session, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        schedule_session(final_session, when=WHEN)
    with django_capture_on_commit_callbacks(execute=True):
        schedule_session(
            final_session,
            when=WHEN + timedelta(days=1),
            table=VenueTableFactory(tournament=final_session.stage.tournament, name="5"),
        )
    assert len(mail.outbox) == 6
    latest = unfold(mail.outbox[-1].attachments[0][1])
    assert "SEQUENCE:2" in latest
    assert "DTSTART:20261206T153000Z" in latest
    first_uid = next(line for line in unfold(mail.outbox[0].attachments[0][1]) if "UID" in line)
    assert first_uid in latest  # same event, updated
    assert ActivityLog.objects.filter(verb="rescheduled").count() == 1


def test_stale_schedule_edit_is_refused(final_session):
    stale_version = final_session.version
    schedule_session(final_session, when=WHEN)
    with pytest.raises(StaleSessionError):
        schedule_session(final_session, when=WHEN, expected_version=stale_version)


def test_players_without_email_are_skipped(final_session, django_capture_on_commit_callbacks):
    seat = final_session.seats.first()
    seat.player.email = ""
    seat.player.save()
    with django_capture_on_commit_callbacks(execute=True):
        schedule_session(final_session, when=WHEN)
    assert len(mail.outbox) == 2


def test_unscheduled_or_missing_sessions_send_nothing(final_session):
    assert notify_session_scheduled(final_session.pk) == 0
    assert notify_session_scheduled(10_000_000) == 0


def test_calendar_escapes_and_folds_long_text(final_session):
    tournament = final_session.stage.tournament
    tournament.name = "Torneo; di Natale, edizione " + "lunghissima " * 8
    tournament.venue = "Via Roma, 1"
    tournament.save()
    final_session.scheduled_at = WHEN
    content = session_calendar(final_session)
    for line in content.split("\r\n"):
        assert len(line.encode("utf-8")) <= 75
    summary = next(line for line in unfold(content) if line.startswith("SUMMARY:"))
    assert "Torneo\\; di Natale\\, edizione" in summary
    assert "LOCATION:Via Roma\\, 1" in unfold(content)


def test_result_rebuilds_cached_standings(final_session, django_capture_on_commit_callbacks):
    Stipulation.objects.create(session=final_session, kind="alien_hunt", params={"rounds": 4})
    tournament = final_session.stage.tournament
    key = cache_key(tournament.pk)
    assert cache.get(key) is None
    with django_capture_on_commit_callbacks(execute=True):
        record_result(final_session, session_points(final_session, lambda s: 7), confirmed=True)
    cached = cache.get(key)["standings"]
    assert cached["stages"][0]["sessions"][0]["result_version"] == 1
    # The rebuild is a pure recomputation: running it again gives the same standings.
    assert rebuild_standings(tournament.pk) is True
    again = cache.get(key)["standings"]
    assert {k: v for k, v in again.items() if k != "generated_at"} == {
        k: v for k, v in cached.items() if k != "generated_at"
    }
    assert rebuild_standings(10_000_000) is False


def test_a_failing_rebuild_never_leaves_stale_standings(
    final_session, django_capture_on_commit_callbacks, monkeypatch
):
    from kombu.exceptions import OperationalError

    from tournaments import tasks
    from tournaments.queries.standings import get_standings

    Stipulation.objects.create(session=final_session, kind="alien_hunt", params={"rounds": 4})
    tournament = final_session.stage.tournament
    assert get_standings(tournament)["stages"][0]["sessions"][0]["result_version"] is None

    def broker_down(*args, **kwargs):
        raise OperationalError("broker unreachable")

    monkeypatch.setattr(tasks.rebuild_standings, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        record_result(final_session, session_points(final_session, lambda s: 7), confirmed=True)
    # The result is saved, the failure only logged, and the next read recomputes.
    assert get_standings(tournament)["stages"][0]["sessions"][0]["result_version"] == 1


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_folding_keeps_lines_short_and_the_text_intact(text):
    from tournaments.queries.calendar import _escape, _fold

    line = "DESCRIPTION:" + _escape(text)
    folded = _fold(line)
    assert all(len(part.encode("utf-8")) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == line
    escaped = _escape(text)
    assert not any(ord(char) < 32 and char != "\t" for char in escaped)
    assert escaped.count(",") == escaped.count("\\,")


def test_a_send_after_a_failed_one_only_mails_the_rest(final_session, monkeypatch):
    from smtplib import SMTPException

    from django.core.mail import EmailMessage

    update_if_current(final_session, final_session.version, scheduled_at=WHEN, schedule_sequence=1)
    real_send = EmailMessage.send
    calls = {"n": 0}

    def flaky_send(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise SMTPException("mail server hiccup")
        return real_send(self, *args, **kwargs)

    monkeypatch.setattr(EmailMessage, "send", flaky_send)
    # The server failing, the task stops there and leaves the rest pending (for the sweep).
    assert notify_session_scheduled.apply(args=[final_session.pk], throw=True).result == 1
    assert len(mail.outbox) == 1
    monkeypatch.setattr(EmailMessage, "send", real_send)
    cool_down_over(monkeypatch)
    notify_session_scheduled.apply(args=[final_session.pk], throw=True)
    recipients = [message.to[0] for message in mail.outbox]
    assert len(recipients) == 3 and len(set(recipients)) == 3


def test_cached_standings_follow_changes_made_elsewhere(final_session):
    """A squad draw or registration logs activity; the next read sees it without a task."""
    from tournaments.actions.activity_log import log_activity
    from tournaments.queries.standings import get_standings

    tournament = final_session.stage.tournament
    before = get_standings(tournament)
    assert None not in {s["squad"] for s in before["stages"][0]["sessions"][0]["seats"]}
    final_session.seats.update(squad=None)
    assert get_standings(tournament) == before  # unlogged change: cache still served
    log_activity(tournament, "drew_squads", str(final_session))
    after = get_standings(tournament)
    assert {s["squad"] for s in after["stages"][0]["sessions"][0]["seats"]} == {None}


def _schedule(session, capture) -> None:
    with capture(execute=True):
        schedule_session(session, when=WHEN)


def test_a_players_mail_is_in_the_language_they_read_their_page_in(
    final_session, django_capture_on_commit_callbacks
):
    """The site speaks English here (the tests' BOB_LANGUAGE); one player reads Italian."""
    italian = final_session.seats.order_by("pk").first().player
    italian.language = "it"
    italian.save(update_fields=["language"])
    _schedule(final_session, django_capture_on_commit_callbacks)
    mails = {message.to[0]: message for message in mail.outbox}
    theirs = mails.pop(italian.email)
    assert theirs.body.startswith(f"Ciao {italian.display_name},")
    assert any(
        line.startswith("DESCRIPTION:Giocatori:") for line in unfold(theirs.attachments[0][1])
    )
    assert all(message.body.startswith("Hello ") for message in mails.values())


def test_without_a_site_address_the_mails_carry_no_links(
    final_session, django_capture_on_commit_callbacks, settings
):
    settings.BOB_SITE_URL = ""
    _schedule(final_session, django_capture_on_commit_callbacks)
    for message in mail.outbox:
        assert "http" not in message.body
        assert not any(line.startswith("URL:") for line in unfold(message.attachments[0][1]))


def test_with_the_site_address_a_mail_links_the_session_and_the_players_own_page(
    final_session, django_capture_on_commit_callbacks, settings
):
    settings.BOB_SITE_URL = "https://bob.example.org"
    _schedule(final_session, django_capture_on_commit_callbacks)
    slug = final_session.stage.tournament.slug
    session_url = f"https://bob.example.org/t/{slug}/sessions/{final_session.pk}/"
    for message in mail.outbox:
        seat = final_session.seats.get(player__email=message.to[0])
        assert session_url in message.body
        assert f"https://bob.example.org/p/{seat.player.access_token}/" in message.body
        assert f"URL:{session_url}" in unfold(message.attachments[0][1])
