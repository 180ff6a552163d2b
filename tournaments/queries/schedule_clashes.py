"""The tournament's sessions as placements (:mod:`tournaments.domain.clash_rules`), their
clashes as sentences the organiser reads before confirming, and judges shared out among a
stage's plan."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Prefetch
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.domain.clash_rules import (
    Clash,
    ClashKind,
    Placement,
    clashes,
    plan_clashes,
    share_judges,
)
from tournaments.models import Player, Seat, Session, Tournament, VenueTable
from tournaments.queries.roles import staff_label

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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


@dataclass(frozen=True)
class SharedJudges:
    """A plan with judges shared out: its placements, each session's judge (None: nobody
    was free) and a sentence per session left without one."""

    plan: list[Placement]
    judges: dict[int, User | None]
    unjudged: list[str]


@dataclass
class ScheduleBook:
    """Every session of a tournament, read once, to check placements against."""

    tournament: Tournament
    sessions: dict[int, Session]
    table_names: dict[int | None, str] | None = None

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

    def share_judges(self, plan: list[Placement], judges: Sequence[User]) -> SharedJudges:
        """``plan`` with the ``judges`` (accounts, in the order to serve them) shared out
        among its sessions (:func:`~tournaments.domain.clash_rules.share_judges`), and a
        sentence for each session none of them is free for (it is left without a judge)."""
        planned = {placement.session_id for placement in plan}
        others = [p for p in self.placed() if p.session_id not in planned]
        plays: dict[int, frozenset[int]] = {}
        for user_id, player_id in Player.objects.filter(user__in=judges).values_list(
            "user_id", "pk"
        ):
            plays[user_id] = plays.get(user_id, frozenset()) | {player_id}
        chosen = share_judges(plan, [judge.pk for judge in judges], others, plays)
        shared = [replace(p, judge_id=chosen[p.session_id]) for p in plan]
        by_pk = {judge.pk: judge for judge in judges}
        return SharedJudges(
            plan=shared,
            judges={
                p.session_id: None if p.judge_id is None else by_pk[p.judge_id] for p in shared
            },
            unjudged=[
                _(
                    "%(session)s gets no judge: every judge ticked judges or plays another "
                    "session at that time. Tick more judges, or give each round fewer tables "
                    "or more minutes."
                )
                % {"session": session_label(self.sessions[p.session_id])}
                for p in shared
                if p.judge_id is None
            ],
        )

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
                "table": self._table_names().get(clash.table_id, other.table_name),
            }
        if clash.kind == ClashKind.JUDGE:
            judge = other.judge
            return _("%(judge)s would judge %(session)s and %(other)s at the same time.") % {
                **names,
                "judge": staff_label(judge) if judge else "",
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

    def _table_names(self) -> dict[int | None, str]:
        """The tournament's tables' names by id, read once (a clash names the table the
        sessions would share, which is not yet either session's own in a plan)."""
        if self.table_names is None:
            self.table_names = {table.pk: str(table) for table in self.tournament.tables.all()}
        return self.table_names

    def _dates(self) -> str:
        first, last = self.tournament.starts_on, self.tournament.ends_on
        return " – ".join(date_format(day) if day else "…" for day in (first, last))
