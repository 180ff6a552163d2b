"""What stands between a stage and its close (decision 37): results missing and disputes
not answered (stored decision 21), a qualifier count out of the §2 limits (blocking), squads not
drawn, loadouts not submitted, sessions without a stipulation or a judge, sessions whose
map does not suit their stipulation (decision 45), ties for a qualifying place the close
settles by a roll-off (decision 51), a next stage without a stipulation (warnings). A fixed
number of queries. The seat steps ask for the stipulation of the stage they seat too
(:func:`seating_stipulation_warning`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.domain.map_fit import MOST_SQUADS, map_misfit
from tournaments.domain.progression import ProgressionError, plan_stages
from tournaments.models import Seat, Session, Stage, StageKind, StageStatus, Tournament
from tournaments.queries.dispute_lists import unanswered_sessions, unanswered_text
from tournaments.queries.playable_maps import map_boards, map_label
from tournaments.queries.result_versions import confirmed_session_ids
from tournaments.queries.session_stipulation import (
    session_map_name,
    stipulation_kind,
    stipulation_params,
)
from tournaments.queries.stage_cut import (
    CutError,
    out_of_the_cut,
    qualifier_count,
    ties_at_the_cut,
)


@dataclass(frozen=True)
class ChecklistItem:
    code: str
    message: str
    blocking: bool
    sessions: tuple[Session, ...] = ()
    #: The number of the stage whose page fixes it, when that page exists.
    stage_page: int | None = None


@dataclass
class StageChecklist:
    stage: Stage
    items: list[ChecklistItem] = field(default_factory=list)

    @property
    def blockers(self) -> list[ChecklistItem]:
        return [item for item in self.items if item.blocking]

    @property
    def warnings(self) -> list[ChecklistItem]:
        return [item for item in self.items if not item.blocking]

    @property
    def shown(self) -> bool:
        """Whether the stage's pages show it: a closed stage with nothing left to note has
        no checklist to show (an empty box)."""
        return bool(self.items) or self.stage.status == StageStatus.OPEN

    @property
    def can_close(self) -> bool:
        return self.stage.status == StageStatus.OPEN and not self.blockers


def _numbers(sessions: list[Session]) -> str:
    return ", ".join(str(session.number) for session in sessions)


def _item(code: str, sessions: list[Session], message: str, blocking: bool) -> ChecklistItem:
    """``message``: an ``ngettext`` text counting ``sessions`` with a %(sessions)s slot."""
    return ChecklistItem(
        code, message % {"sessions": _numbers(sessions)}, blocking, tuple(sessions)
    )


def _qualifier_problem(stage: Stage, sessions: list[Session], out: set[str]) -> str | None:
    """What the close will refuse about the stage's qualifier count: read as the close
    reads it (:func:`~tournaments.queries.stage_cut.the_cut`), from the seated players
    who can still qualify (a session's ranking holds every seat of it; ``out``: those who
    cannot, :func:`~tournaments.queries.stage_cut.out_of_the_cut`)."""
    if len(sessions) < 2:
        return None
    players = sum(
        1 for session in sessions for seat in session.seats.all() if str(seat.player_id) not in out
    )
    try:
        qualifier_count(stage, len(sessions), players)
    except CutError as error:
        return str(error)
    return None


def stage_checklist(stage: Stage) -> StageChecklist:
    """The stage's checklist; for a closed stage, empty."""
    checklist = StageChecklist(stage)
    if stage.status != StageStatus.OPEN:
        return checklist
    sessions = list(
        Session.objects.filter(stage=stage)
        .select_related("stage", "stipulation")
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("loadout").order_by("seat_order")
            )
        )
    )
    if not sessions:
        checklist.items.append(
            ChecklistItem("no_sessions", _("The stage is not seated yet."), blocking=True)
        )
        return checklist
    confirmed = confirmed_session_ids(sessions)
    open_sessions = [session for session in sessions if session.pk not in confirmed]
    if open_sessions:
        checklist.items.append(
            _item(
                "results",
                open_sessions,
                ngettext(
                    "Session %(sessions)s has no confirmed result.",
                    "Sessions %(sessions)s have no confirmed result.",
                    len(open_sessions),
                ),
                blocking=True,
            )
        )
    disputed = unanswered_sessions(stage)
    if disputed:
        checklist.items.append(
            ChecklistItem("disputes", unanswered_text(disputed), True, tuple(disputed))
        )
    # Read once for the count and the ties; a one-session stage (the final) has no cut.
    out = out_of_the_cut(stage) if len(sessions) > 1 else set()
    problem = _qualifier_problem(stage, sessions, out)
    if problem:
        checklist.items.append(ChecklistItem("qualifiers", problem, blocking=True))
    elif not open_sessions and not disputed:
        checklist.items.extend(_tie_items(stage, out))
    undrawn = [s for s in open_sessions if any(seat.squad_id is None for seat in s.seats.all())]
    if undrawn:
        checklist.items.append(
            _item(
                "draws",
                undrawn,
                ngettext(
                    "Session %(sessions)s has no squad draw yet.",
                    "Sessions %(sessions)s have no squad draw yet.",
                    len(undrawn),
                ),
                blocking=False,
            )
        )
    no_loadout = [
        s
        for s in open_sessions
        if any(not seat.forfeit and not hasattr(seat, "loadout") for seat in s.seats.all())
    ]
    if no_loadout:
        checklist.items.append(
            _item(
                "loadouts",
                no_loadout,
                ngettext(
                    "Session %(sessions)s has loadouts not submitted.",
                    "Sessions %(sessions)s have loadouts not submitted.",
                    len(no_loadout),
                ),
                blocking=False,
            )
        )
    unset = [s for s in open_sessions if not stipulation_kind(s)]
    if unset:
        checklist.items.append(
            _item(
                "stipulation",
                unset,
                ngettext(
                    "Session %(sessions)s has no stipulation: set the stage's on its page "
                    "before its result is entered.",
                    "Sessions %(sessions)s have no stipulation: set the stage's on its page "
                    "before their results are entered.",
                    len(unset),
                ),
                blocking=False,
            )
        )
    checklist.items.extend(_map_items(stage, open_sessions))
    # A next stage prepared without a stipulation (before the close creates its row, its
    # page does not exist: its own checklist asks once it is seated).
    following = Stage.objects.filter(tournament=stage.tournament_id, number=stage.number + 1)
    following_stage = following.first() if stage.kind != StageKind.FINAL else None
    if following_stage is not None:
        warning = seating_stipulation_warning(following_stage, following_stage.number)
        if warning is not None:
            checklist.items.append(warning)
    no_judge = [s for s in open_sessions if s.judge_id is None]
    if no_judge:
        checklist.items.append(
            _item(
                "judge",
                no_judge,
                ngettext(
                    "Session %(sessions)s has no judge.",
                    "Sessions %(sessions)s have no judge.",
                    len(no_judge),
                ),
                blocking=False,
            )
        )
    return checklist


def seating_stipulation_warning(stage: Stage | None, number: int) -> ChecklistItem | None:
    """The warning of the step that seats stage ``number`` (``stage``: its row, None when
    it has none yet) when the stage has no stipulation: its sessions would start without
    one, and no result can be entered until it has one. None when it has one."""
    if stage is not None and stage.stipulation_kind:
        return None
    if stage is not None:
        message = _(
            "Stage %(n)d has no stipulation yet: choose it on its page before seating it, so "
            "its sessions start with it (no result can be entered without one)."
        )
    else:
        message = _(
            "Stage %(n)d has no stipulation yet: its page appears in the stages table once it "
            "is seated; choose it there before its first result (none can be entered "
            "without one)."
        )
    return ChecklistItem(
        "next_stipulation",
        message % {"n": number},
        blocking=False,
        stage_page=number if stage is not None else None,
    )


def first_stage_warning(tournament: Tournament) -> ChecklistItem | None:
    """:func:`seating_stipulation_warning` for seating the first stage."""
    return seating_stipulation_warning(tournament.stages.filter(number=1).first(), 1)


def _tie_items(stage: Stage, out: set[str]) -> list[ChecklistItem]:
    """A warning per tie for qualifying places that the close settles by a roll-off
    (decision 51): the organiser gathers the tied players, or their dice, first."""
    return [
        ChecklistItem(
            "roll_off",
            ngettext(
                "At the close, a roll-off settles %(places)d place among the %(group)s: "
                "%(players)s are tied on %(points)d points.",
                "At the close, a roll-off settles %(places)d places among the %(group)s: "
                "%(players)s are tied on %(points)d points.",
                tie.places,
            )
            % {
                "places": tie.places,
                "group": tie.group,
                "players": ", ".join(tie.players),
                "points": tie.points,
            },
            blocking=False,
        )
        for tie in ties_at_the_cut(stage, out)
    ]


def _map_items(stage: Stage, sessions: list[Session]) -> list[ChecklistItem]:
    """A warning per problem of a map with the stipulation its sessions play on it (a Catch
    the Flag map without enough flag spots, flag spots another stipulation leaves unused),
    naming the sessions; maps the tournament cannot play are left out."""
    boards = map_boards(stage.tournament, (session_map_name(s) for s in sessions))
    by_problem: dict[str, list[Session]] = {}
    for session in sessions:
        name = session_map_name(session)
        board = boards.get(name)
        kind = stipulation_kind(session)
        if board is None or not kind:
            continue
        params = stipulation_params(session)
        squads = len(session.seats.all()) or MOST_SQUADS
        label = map_label(name, board)
        problem = map_misfit(kind, params, board, label, squads=squads)
        if problem is not None:
            by_problem.setdefault(problem.message, []).append(session)
    return [
        ChecklistItem(
            "map",
            ngettext("Session %(sessions)s:", "Sessions %(sessions)s:", len(group))
            % {"sessions": _numbers(group)}
            + " "
            + message,
            blocking=False,
            sessions=tuple(group),
        )
        for message, group in by_problem.items()
    ]


def stage_size(stage: Stage) -> tuple[int, int] | None:
    """``(sessions, players)`` of ``stage``: as seated (forfeits left out), or before seating
    as the plan from the active registrations gives it; None when it cannot be known."""
    seats = list(Seat.objects.filter(session__stage=stage).values_list("session_id", "forfeit"))
    if seats:
        return len({session for session, _forfeit in seats}), sum(1 for _s, f in seats if not f)
    players = stage.tournament.registrations.filter(withdrawn_at__isnull=True).count()
    try:
        plan = plan_stages(players)
    except ProgressionError:
        return None
    if stage.number > len(plan):
        return None
    step = plan[stage.number - 1]
    return len(step.session_sizes), step.players


def qualifier_size(stage: Stage) -> tuple[int, int] | None:
    """``(sessions, players)`` the stage's qualifier count is checked against: once seated,
    the seated players who can still qualify, as the close counts them
    (:func:`~tournaments.queries.stage_cut.the_cut`: withdrawn and forfeiting players left
    out); before seating, :func:`stage_size`'s plan."""
    seats = list(Seat.objects.filter(session__stage=stage).values_list("session_id", "player_id"))
    if not seats:
        return stage_size(stage)
    out = out_of_the_cut(stage)
    players = sum(1 for _session, player in seats if str(player) not in out)
    return len({session for session, _player in seats}), players


def stage_squads(stage: Stage) -> int:
    """The squads of the stage's largest session (:func:`stage_size`; three when its size
    cannot be known yet, RULES §2)."""
    size = stage_size(stage)
    if size is None or not size[0]:
        return MOST_SQUADS
    sessions, players = size
    return max(1, min(MOST_SQUADS, -(-players // sessions)))


def undoable_draws(stage: Stage) -> list[Session]:
    """Sessions of an open ``stage`` whose squads are drawn and that have no result yet."""
    if stage.status != StageStatus.OPEN:
        return []
    return list(
        Session.objects.filter(stage=stage, result__isnull=True)
        .exclude(seats__squad__isnull=True)
        .filter(seats__isnull=False)
        .distinct()
        .order_by("number")
    )
