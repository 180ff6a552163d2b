"""iCalendar (RFC 5545) documents for scheduled sessions.

Each session has a stable UID, and its SEQUENCE is the session's schedule sequence, which
grows on every reschedule, so calendar programs replace the old event instead of adding one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Session

PRODID = "-//BoB//StarQuest BoB tournaments//EN"


def _escape(text: str) -> str:
    """Escape a TEXT value (RFC 5545 §3.3.11); other control characters are dropped."""
    text = (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )
    return "".join(char for char in text if char == "\t" or unicodedata.category(char) != "Cc")


def _fold(line: str) -> str:
    """Fold a content line at 75 octets, never splitting a UTF-8 character (§3.1)."""
    encoded = line.encode("utf-8")
    if len(encoded) <= 75:
        return line
    parts: list[str] = []
    current = ""
    limit = 75
    for char in line:
        if len((current + char).encode("utf-8")) > limit:
            parts.append(current)
            current = ""
            limit = 74  # continuation lines start with one space
        current += char
    parts.append(current)
    return "\r\n ".join(parts)


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def session_uid(session: Session) -> str:
    domain = settings.BOB_CALENDAR_DOMAIN
    return f"bob-session-{session.pk}@{domain}"


def session_summary(session: Session) -> str:
    stage = session.stage
    return _("%(tournament)s: %(stage)s, session %(number)d") % {
        "tournament": stage.tournament.name,
        "stage": stage.get_kind_display(),
        "number": session.number,
    }


def session_location(session: Session) -> str:
    venue = session.stage.tournament.venue
    if session.table_id:
        table = _("table %(table)s") % {"table": session.table_name}
        return f"{venue}, {table}" if venue else table
    return venue


def session_calendar(session: Session, *, stamp: datetime | None = None, url: str = "") -> str:
    """A VCALENDAR with one VEVENT for the session; the session must be scheduled. ``url``:
    the absolute address of the session's public page, given as the event's URL."""
    if session.scheduled_at is None:
        raise ValueError(_("Session %(session)s has no time yet.") % {"session": session})
    start = session.scheduled_at
    end = start + timedelta(minutes=session.duration_minutes)
    players = ", ".join(seat.player.display_name for seat in session.seats.select_related("player"))
    description = _("Players: %(players)s") % {"players": players}
    if session.judge is not None:
        judge = session.judge.get_full_name() or session.judge.get_username()
        description += "\n" + _("Judge: %(judge)s") % {"judge": judge}
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:{session_uid(session)}",
        f"DTSTAMP:{_utc(stamp or timezone.now())}",
        f"DTSTART:{_utc(start)}",
        f"DTEND:{_utc(end)}",
        f"SEQUENCE:{session.schedule_sequence}",
        f"SUMMARY:{_escape(session_summary(session))}",
        f"DESCRIPTION:{_escape(description)}",
    ]
    if url:
        lines.append(f"URL:{url}")  # a URI value: not escaped as TEXT (RFC 5545 §3.8.4.6)
    location = session_location(session)
    if location:
        lines.append(f"LOCATION:{_escape(location)}")
    lines += ["STATUS:CONFIRMED", "END:VEVENT", "END:VCALENDAR"]
    return "".join(_fold(line) + "\r\n" for line in lines)


def feed_calendar(
    sessions: Iterable[Session], *, stamp: datetime, url_of: Callable[[Session], str]
) -> str:
    """One VCALENDAR with a VEVENT for each scheduled session of ``sessions`` (a player's
    feed), each carrying ``url_of(session)``, in the active language."""
    events: list[str] = []
    for session in sessions:
        if session.scheduled_at is None:
            continue
        document = session_calendar(session, stamp=stamp, url=url_of(session))
        start = document.index("BEGIN:VEVENT")
        end = document.index("END:VEVENT") + len("END:VEVENT\r\n")
        events.append(document[start:end])
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        f"PRODID:{PRODID}\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\n"
        + "".join(events)
        + "END:VCALENDAR\r\n"
    )
