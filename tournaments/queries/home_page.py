"""The tournament home's sessions, read from the standings.

The standings (:func:`~tournaments.queries.standings.get_standings`) hold every session in
force with its seats, places, points and qualifier marks, and are kept in the shared cache
and rebuilt when a result is saved: the home lists a few of their sessions instead of
reading those sessions' model objects again (three ORM reads through their joins, and the
sessions' seats, results and stages as models, cost more than the standings' own plain
reads at 243 players). It shows them as the whole tournament's reading
(:func:`~tournaments.queries.pages.tournament_sessions`) does; the tests hold that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tournaments.models import SessionStatus, Squad, StageKind, Tournament
from tournaments.queries.pages import (
    HOME_PLAYING,
    PODIUM_PLACES,
    SessionShown,
    final_podium,
    is_best_runner_up,
    latest_results,
    playing_sessions,
    upcoming_sessions,
    with_live_games,
)
from tournaments.queries.standings import get_standings
from tournaments.queries.standings_reads import squads_of


@dataclass(frozen=True)
class StageHeading:
    """A stage of the standings, as the home names it: what the shared templates and
    :meth:`Tournament.current_stage` read of a stage (its kind's label as the model gives
    it, ``get_kind_display``)."""

    number: int
    kind: str
    status: str
    qualifiers: tuple[int, ...]

    def get_kind_display(self) -> str:
        return str(dict(StageKind.choices).get(self.kind, self.kind))


@dataclass(frozen=True)
class SessionHeading:
    """A session as the home names and links it: what the shared session templates
    (``partials/session_title.html``) read of a session."""

    pk: int
    number: int
    stage: StageHeading
    status: str
    scheduled_at: datetime | None
    #: The venue table's name, "" without one.
    table: str

    @property
    def in_progress(self) -> bool:
        return self.status == SessionStatus.IN_PROGRESS


@dataclass
class HomeSeat:
    """A seat of the standings, as the seat tables show it
    (:class:`~tournaments.queries.pages.SeatRow`)."""

    player_id: int
    player_name: str
    squad: Squad | None
    seat_order: int
    initiative_position: int | None
    points: int | None
    place: int | None
    qualified: bool = False
    best_runner_up: bool = False
    podium: int | None = None


@dataclass
class HomeEntry(SessionShown):
    """A session the home lists, with its seats."""

    session: SessionHeading
    seats: list[HomeSeat] = field(default_factory=list)
    #: When its latest confirmed result was saved; ``None`` without one.
    confirmed_at: datetime | None = None
    #: While it is being played, its latest game on the judge's board (``with_live_games``).
    live_game: int | None = None

    @property
    def has_result(self) -> bool:
        return self.confirmed_at is not None


@dataclass
class HomeSessions:
    """What the tournament home lists."""

    #: The latest results, the latest first.
    latest: list[HomeEntry]
    #: The sessions being played (:attr:`HomeEntry.in_progress`), the soonest first.
    playing: list[HomeEntry]
    #: How many sessions are being played, those not listed in ``playing`` included.
    playing_count: int
    #: The sessions with a time not started yet, the soonest first, one still awaiting a
    #: table or a judge included (:func:`~tournaments.queries.pages.upcoming_sessions`).
    upcoming: list[HomeEntry]
    #: The final's podium (:func:`~tournaments.queries.pages.final_podium`).
    podium: list[HomeSeat]
    #: The tournament's stages, by number.
    stages: list[StageHeading]
    #: How many players the standings list (the registered ones, and any seated player
    #: whose registration was deleted since).
    player_count: int


def _datetime(text: str | None) -> datetime | None:
    """A time of the standings (ISO 8601 text, or None)."""
    return datetime.fromisoformat(text) if text else None


def _entry(
    session: dict[str, Any],
    stage: StageHeading,
    squads: dict[str, Squad],
    every_runner_up_qualifies: bool,
) -> HomeEntry:
    """The home's entry of a session of the standings (``session``: its dict there)."""
    final = stage.kind == StageKind.FINAL
    seats = []
    for seat in session["seats"]:
        # The standings place a seat only with a confirmed result, and mark a qualifier
        # only in a stage before the final that has its qualifiers.
        place, qualified = seat["position"], seat["qualified"]
        seats.append(
            HomeSeat(
                player_id=seat["player_id"],
                player_name=seat["player"],
                squad=squads.get(seat["squad"]),
                seat_order=seat["seat_order"],
                initiative_position=seat["initiative_position"],
                points=seat["points"],
                place=place,
                qualified=qualified,
                best_runner_up=is_best_runner_up(qualified, place, every_runner_up_qualifies),
                podium=place if final and place is not None and place <= PODIUM_PLACES else None,
            )
        )
    return HomeEntry(
        session=SessionHeading(
            pk=session["id"],
            number=session["number"],
            stage=stage,
            status=session["status"],
            scheduled_at=_datetime(session["scheduled_at"]),
            table=session["table"],
        ),
        seats=seats,
        confirmed_at=_datetime(session["result_confirmed_at"]),
    )


def _waiting_order(session: dict[str, Any], stage: StageHeading) -> tuple:
    """The schedule's order (:func:`~tournaments.queries.pages.schedule_order`) of a
    session of the standings."""
    at = session["scheduled_at"]
    return (at is None, _datetime(at) or 0, stage.number, session["number"])


def home_sessions(
    tournament: Tournament, latest: int, upcoming: int, playing: int = HOME_PLAYING
) -> HomeSessions:
    """The tournament home's sessions: the ``latest`` results, the first ``playing``
    sessions being played and the ``upcoming`` ones, and the final's podium, with the
    stages and the number of players, all from the standings."""
    standings = get_standings(tournament)
    stages = [
        StageHeading(
            number=row["number"],
            kind=row["kind"],
            status=row["status"],
            qualifiers=tuple(int(pk) for pk in row["qualifiers"]),
        )
        for row in standings["stages"]
    ]
    rows = list(zip(standings["stages"], stages, strict=True))
    confirmed: list[tuple[datetime, int]] = []
    waiting: list[tuple[tuple, int, bool]] = []
    for stage_row, stage in rows:
        for session in stage_row["sessions"]:
            saved = _datetime(session["result_confirmed_at"])
            if saved is not None:
                confirmed.append((saved, session["id"]))
            elif session["status"] == SessionStatus.IN_PROGRESS or session["scheduled_at"]:
                in_progress = session["status"] == SessionStatus.IN_PROGRESS
                waiting.append((_waiting_order(session, stage), session["id"], in_progress))
    confirmed.sort(reverse=True)
    waiting.sort(key=lambda row: row[0])
    playing_ids = [pk for _order, pk, in_progress in waiting if in_progress]
    upcoming_ids = [pk for _order, pk, in_progress in waiting if not in_progress][:upcoming]
    wanted = {*(pk for _at, pk in confirmed[:latest]), *playing_ids[:playing], *upcoming_ids}
    squads = {squad.slug: squad for squad in squads_of(tournament.pk)}
    shown: list[HomeEntry] = []
    finals: list[HomeEntry] = []
    for stage_row, stage in rows:
        final = stage.kind == StageKind.FINAL
        if not final and not any(s["id"] in wanted for s in stage_row["sessions"]):
            continue
        runners_up = [
            seat["player_id"]
            for session in stage_row["sessions"]
            for seat in session["seats"]
            if seat["position"] == 2
        ]
        every_runner_up_qualifies = all(player_id in stage.qualifiers for player_id in runners_up)
        for session in stage_row["sessions"]:
            if session["id"] in wanted or final:
                entry = _entry(session, stage, squads, every_runner_up_qualifies)
                (finals if final else shown).append(entry)
                if final and session["id"] in wanted:
                    shown.append(entry)
    return HomeSessions(
        latest=latest_results(shown)[:latest],
        playing=with_live_games(playing_sessions(shown)[:playing]),
        playing_count=len(playing_ids),
        upcoming=upcoming_sessions(shown)[:upcoming],
        podium=final_podium(finals),
        stages=stages,
        player_count=len(standings["players"]),
    )
