"""The tournament's sessions as placements (:mod:`tournaments.domain.clash_rules`) and their
clashes as sentences the organiser reads before confirming."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.domain.clash_rules import Clash, ClashKind, Placement, clashes, plan_clashes
from tournaments.models import Seat, Session, Tournament, VenueTable


def session_label(session: Session) -> str:
    """ "Semifinal, session 2": the stage kind and the session's number."""
    return _("%(stage)s, session %(number)d") % {
        "stage": session.stage.get_kind_display(),
        "number": session.number,
    }


def _placement(session: Session, when: datetime, table_id: int | None, judge_id: int | None):
    return Placement(
        session_id=session.pk,
        starts_at=when,
        minutes=session.duration_minutes,
        table_id=table_id,
        judge_id=judge_id,
        player_ids=frozenset(seat.player_id for seat in session.seats.all()),
    )


@dataclass
class ScheduleBook:
    """Every session of a tournament, read once, to check placements against."""

    tournament: Tournament
    sessions: dict[int, Session]

    @classmethod
    def of(cls, tournament: Tournament) -> ScheduleBook:
        sessions = (
            Session.objects.filter(stage__tournament=tournament)
            .select_related("stage", "table", "judge")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        )
        return cls(tournament, {session.pk: session for session in sessions})

    def placed(self) -> list[Placement]:
        """The sessions that have a time, where they are now."""
        return [
            _placement(s, s.scheduled_at, s.table_id, s.judge_id)
            for s in self.sessions.values()
            if s.scheduled_at is not None
        ]

    def placement(
        self, session: Session, when: datetime, table: VenueTable | None, judge
    ) -> Placement:
        """``session`` (one of the book's) at ``when``, ``table`` and with ``judge``."""
        known = self.sessions[session.pk]
        return _placement(known, when, table.pk if table else None, judge.pk if judge else None)

    def warnings(self, placement: Placement) -> list[str]:
        """What clashes when one session moves to ``placement``, as sentences."""
        tournament = self.tournament
        found = clashes(
            placement, self.placed(), starts_on=tournament.starts_on, ends_on=tournament.ends_on
        )
        return self.sentences(found)

    def plan_warnings(self, plan: list[Placement]) -> list[str]:
        """What clashes when the sessions of ``plan`` all move at once, as sentences."""
        tournament = self.tournament
        found = plan_clashes(
            plan, self.placed(), starts_on=tournament.starts_on, ends_on=tournament.ends_on
        )
        return self.sentences(found)

    def sentences(self, found: Iterable[Clash]) -> list[str]:
        return [self._sentence(clash) for clash in found]

    def _sentence(self, clash: Clash) -> str:
        session = self.sessions[clash.session_id]
        if clash.kind == ClashKind.OUTSIDE_DATES:
            return _("%(session)s would be played outside the tournament's dates (%(dates)s).") % {
                "session": session_label(session),
                "dates": self._dates(),
            }
        assert clash.other_session_id is not None
        other = self.sessions[clash.other_session_id]
        names = {"session": session_label(session), "other": session_label(other)}
        if clash.kind == ClashKind.TABLE:
            return _("%(session)s and %(other)s would share table %(table)s at the same time.") % {
                **names,
                "table": other.table_name,
            }
        if clash.kind == ClashKind.JUDGE:
            judge = other.judge
            return _("%(judge)s would judge %(session)s and %(other)s at the same time.") % {
                **names,
                "judge": judge.get_full_name() or judge.get_username() if judge else "",
            }
        players = sorted(
            seat.player.display_name
            for seat in other.seats.all()
            if seat.player_id in clash.player_ids
        )
        return ngettext(
            "%(players)s would play in %(session)s and %(other)s at the same time.",
            "%(players)s would play in %(session)s and %(other)s at the same time.",
            len(players),
        ) % {**names, "players": ", ".join(players)}

    def _dates(self) -> str:
        first, last = self.tournament.starts_on, self.tournament.ends_on
        return " – ".join(date_format(day) if day else "…" for day in (first, last))
