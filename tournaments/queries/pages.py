"""Read a tournament's stages, sessions, seats and results for the pages in a fixed number of
SQL queries, whatever the number of players (the query-count test holds this)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from django.db.models import Max, Prefetch, Q

from tournaments.models import (
    Player,
    ResultVersion,
    Seat,
    Session,
    SessionStatus,
    Squad,
    Stage,
    StageKind,
    Tournament,
)
from tournaments.queries.playable_maps import map_menu_labels
from tournaments.queries.result_versions import scoring_values, version_totals
from tournaments.queries.session_stipulation import own_map_name


class StageRow(Protocol):
    """A stage as the listed sessions name it: the :class:`Stage` model, or a stage of the
    standings (:class:`~tournaments.queries.home_page.StageHeading`)."""

    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    def get_kind_display(self) -> str: ...


class SeatRow(Protocol):
    """A seat as the seat tables show it (``partials/seat_table.html``): a
    :class:`SeatLine` of the sessions' model objects, or a plain line of the home's
    (:mod:`~tournaments.queries.home_page`)."""

    @property
    def player_id(self) -> int: ...
    @property
    def player_name(self) -> str: ...
    @property
    def squad(self) -> Squad | None: ...
    @property
    def seat_order(self) -> int: ...
    @property
    def initiative_position(self) -> int | None: ...
    @property
    def points(self) -> int | None: ...
    @property
    def place(self) -> int | None: ...
    @property
    def qualified(self) -> bool: ...
    @property
    def best_runner_up(self) -> bool: ...
    @property
    def podium(self) -> int | None: ...


class SessionShown(ABC):
    """What the pages read of a listed session beside its seats (``seats``) and whether it
    has a result (``has_result``): its stage, whether it is being played, its play order
    and its ranked seats."""

    session: Any
    seats: Sequence[SeatRow]

    @property
    @abstractmethod
    def has_result(self) -> bool:
        """Whether it has a confirmed result."""

    @property
    def stage(self) -> StageRow:
        return self.session.stage

    @property
    def in_progress(self) -> bool:
        """Being played: started at the table (initiative rolled or a game begun on the
        board) and without a confirmed result yet."""
        return not self.has_result and self.session.in_progress

    @property
    def has_play_order(self) -> bool:
        """Whether the session's play order is recorded (its initiative rolled at the
        table, RULES §5): its seat table shows a play order column only then, not a column
        of dashes."""
        return any(line.initiative_position for line in self.seats)

    @property
    def ranked_seats(self) -> list:
        return sorted(self.seats, key=lambda line: (line.place or 99, line.seat_order))


@dataclass
class SeatLine:
    seat: Seat
    points: int | None = None
    place: int | None = None
    qualified: bool = False
    best_runner_up: bool = False
    #: 1, 2 or 3 for the final's podium once its result is confirmed; else ``None``.
    podium: int | None = None

    @property
    def player(self) -> Player:
        return self.seat.player

    @property
    def squad(self) -> Squad | None:
        return self.seat.squad

    @property
    def player_id(self) -> int:
        return self.seat.player_id

    @property
    def player_name(self) -> str:
        return self.seat.player.display_name

    @property
    def seat_order(self) -> int:
        return self.seat.seat_order

    @property
    def initiative_position(self) -> int | None:
        return self.seat.initiative_position


class SessionEntry(Protocol):
    """A session as the pages list it: :class:`SessionLines` of the sessions' model
    objects, or an entry of the home's (:mod:`~tournaments.queries.home_page`)."""

    #: Its latest game on the judge's board while it is being played (:func:`with_live_games`).
    live_game: int | None

    @property
    def session(self) -> Any: ...
    @property
    def stage(self) -> StageRow: ...
    @property
    def has_result(self) -> bool: ...
    @property
    def in_progress(self) -> bool: ...
    @property
    def confirmed_at(self) -> datetime | None: ...
    @property
    def ranked_seats(self) -> list: ...


Entry = TypeVar("Entry", bound=SessionEntry)


@dataclass
class SessionLines(SessionShown):
    session: Session
    seats: list[SeatLine] = field(default_factory=list)
    version: ResultVersion | None = None
    #: The session's own map as the map menus name it, "" when it plays its stage's; read
    #: only by :func:`schedule_sessions`.
    own_map: str = ""
    #: While the session is being played: the number of its latest game on the judge's
    #: board, the one the spectators' page follows; ``None`` otherwise, and until
    #: :func:`with_live_games` reads it (only for the pages that link the game).
    live_game: int | None = None

    @property
    def has_result(self) -> bool:
        return self.version is not None

    @property
    def confirmed_at(self) -> datetime | None:
        """When its latest confirmed result was saved."""
        return self.version.created_at if self.version is not None else None


def latest_confirmed_versions(session_ids: list[int]) -> dict[int, ResultVersion]:
    """The latest confirmed result version of each session (one query)."""
    latest: dict[int, ResultVersion] = {}
    versions = (
        ResultVersion.objects.filter(result__session_id__in=session_ids, confirmed=True)
        .select_related("result")
        .order_by("result_id", "number")
    )
    for version in versions:
        latest[version.result.session_id] = version
    return latest


def live_games(session_ids: list[int]) -> dict[int, int]:
    """Per session in progress among ``session_ids``, the number of its latest game on the
    judge's board (one query; none when no id is given)."""
    if not session_ids:
        return {}
    return dict(
        Session.objects.filter(pk__in=session_ids, status=SessionStatus.IN_PROGRESS)
        .annotate(game=Max("games__number"))
        .filter(game__isnull=False)
        .values_list("pk", "game")
    )


def with_live_games(entries: list[Entry]) -> list[Entry]:
    """``entries`` with the game each one being played follows (``live_game``): one query,
    none when no entry is in progress."""
    games = live_games([entry.session.pk for entry in entries if entry.in_progress])
    for entry in entries:
        entry.live_game = games.get(entry.session.pk)
    return entries


PODIUM_PLACES = 3
#: How many sessions being played the tournament home lists (it counts them all,
#: :mod:`~tournaments.queries.home_page`).
HOME_PLAYING = 8


def _mark_podium(sessions: list[SessionLines]) -> None:
    """The final qualifies nobody: its confirmed result places the podium instead."""
    for session in sessions:
        for line in session.seats:
            if line.place is not None and line.place <= PODIUM_PLACES:
                line.podium = line.place


def _runners_up(stage_ids: list[int]) -> dict[int, list[int]]:
    """Per stage id, the player placed second in each session's latest confirmed result
    (one query of rankings, whatever the sessions a page shows; none for no stage)."""
    if not stage_ids:
        return {}
    rankings: dict[int, tuple[int, list]] = {}
    for stage_id, session_id, ranking in (
        ResultVersion.objects.filter(
            result__session__stage_id__in=stage_ids,
            result__session__superseded_at__isnull=True,
            confirmed=True,
        )
        .order_by("result__session_id", "number")
        .values_list("result__session__stage_id", "result__session_id", "ranking")
    ):
        rankings[session_id] = (stage_id, ranking)
    seconds: dict[int, list[int]] = defaultdict(list)
    for stage_id, ranking in rankings.values():
        if ranking and len(ranking) > 1:
            seconds[stage_id].append(int(ranking[1]))
    return seconds


def is_best_runner_up(qualified: bool, place: int | None, every_runner_up_qualifies: bool) -> bool:
    """A qualifier placed second, in a stage that does not qualify every runner-up: one
    of the best runners-up."""
    return qualified and place == 2 and not every_runner_up_qualifies


def _marks_qualifiers(stage: Stage) -> bool:
    """Whether the stage's sessions mark qualifiers and a best runner-up: a stage before the
    final, once it has its qualifiers (the final marks its podium)."""
    return stage.kind != StageKind.FINAL and bool(stage.qualifiers)


def _mark_qualifiers(stage: Stage, sessions: list[SessionLines], runners_up: list[int]) -> None:
    """``runners_up``: the player placed second in each of the stage's sessions, all of
    them (a page showing a few sessions still names the best runner-up right)."""
    if stage.kind == StageKind.FINAL:
        _mark_podium(sessions)
        return
    if not _marks_qualifiers(stage):
        return
    qualifiers = {int(pk) for pk in stage.qualifiers}
    all_runners_up_qualify = all(player_id in qualifiers for player_id in runners_up)
    for session in sessions:
        for line in session.seats:
            line.qualified = line.seat.player_id in qualifiers
            line.best_runner_up = is_best_runner_up(
                line.qualified, line.place, all_runners_up_qualify
            )


def tournament_sessions(
    tournament: Tournament, session_filter: Q | None = None
) -> list[SessionLines]:
    """Every session of the tournament (or those matching ``session_filter``), in stage order."""
    sessions = list(
        Session.objects.filter(session_filter or Q(), stage__tournament=tournament)
        .select_related("stage", "judge", "stipulation", "table")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player", "squad").order_by("seat_order"),
            )
        )
        .order_by("stage__number", "number")
    )
    versions = latest_confirmed_versions([s.pk for s in sessions])
    values = scoring_values(tournament)
    by_stage: dict[int, list[SessionLines]] = defaultdict(list)
    lines: list[SessionLines] = []
    for session in sessions:
        version = versions.get(session.pk)
        points = version_totals(version, values) if version else {}
        places = version.positions() if version else {}
        seat_lines = [
            SeatLine(
                seat=seat,
                points=points.get(seat.player_id),
                place=places.get(seat.player_id),
            )
            for seat in session.seats.all()
        ]
        entry = SessionLines(session=session, seats=seat_lines, version=version)
        lines.append(entry)
        by_stage[session.stage_id].append(entry)
    if session_filter:
        runners_up = _runners_up(
            [
                stage_id
                for stage_id, entries in by_stage.items()
                if _marks_qualifiers(entries[0].session.stage)
            ]
        )
    else:
        runners_up = {
            stage_id: [line.seat.player_id for s in entries for line in s.seats if line.place == 2]
            for stage_id, entries in by_stage.items()
        }
    for stage_id, stage_sessions in by_stage.items():
        _mark_qualifiers(
            stage_sessions[0].session.stage, stage_sessions, runners_up.get(stage_id, [])
        )
    return lines


def schedule_sessions(
    tournament: Tournament, session_filter: Q | None = None
) -> list[SessionLines]:
    """:func:`tournament_sessions` for the organiser's schedule: each session with its own
    map named (``own_map``), the tournament's maps read once for them all."""
    entries = tournament_sessions(tournament, session_filter)
    labels = map_menu_labels(tournament, (own_map_name(entry.session) for entry in entries))
    for entry in entries:
        entry.own_map = labels.get(own_map_name(entry.session), "")
    return entries


def latest_results(sessions: list[Entry]) -> list[Entry]:
    """The sessions with a result, the latest result first."""
    dated = [(s.confirmed_at, s) for s in sessions if s.confirmed_at is not None]
    dated.sort(key=lambda pair: pair[0], reverse=True)
    return [s for _at, s in dated]


def upcoming_sessions(sessions: list[Entry]) -> list[Entry]:
    """The sessions with a time, without a result and not being played yet, the soonest
    first: one still awaiting a table or a judge (*planned*, decision 52) is listed by its
    time too, its status saying what it awaits."""
    dated = [
        (s.session.scheduled_at, s)
        for s in sessions
        if not s.has_result and not s.in_progress and s.session.scheduled_at
    ]
    dated.sort(key=lambda pair: pair[0])
    return [s for _at, s in dated]


def schedule_order(lines: SessionEntry) -> tuple:
    """Sort key of the schedule: the soonest scheduled first, the unscheduled last, then by
    stage and number."""
    at = lines.session.scheduled_at
    return (at is None, at or 0, lines.stage.number, lines.session.number)


def playing_sessions(sessions: list[Entry]) -> list[Entry]:
    """The sessions being played, in schedule order."""
    return sorted((s for s in sessions if s.in_progress), key=schedule_order)


def final_podium(sessions: Sequence[SessionEntry]) -> list:
    """The final's podium, first place first, as soon as its result is confirmed; empty
    before (or when the last stage is not a one-session final)."""
    finals = [s for s in sessions if s.stage.kind == StageKind.FINAL]
    if len(finals) != 1 or not finals[0].has_result:
        return []
    return [line for line in finals[0].ranked_seats if line.podium is not None]
