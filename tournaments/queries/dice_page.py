"""The tournament's public Dice page: how each stage was seated, every roll that seated a
stage or settled a cut, by the seed it was rolled with, and the seeds announced for the
next such roll.

A *stream* is every stored roll of one seed, in the order rolled (app dice), or one batch
of dice typed in by a judge or organiser (no seed, nothing to replay). A stream is listed
when it decided the bracket: a roll of a stage as a whole (seating, qualifiers, best
runners-up, seeding) or a tie on a session's ranking (places, podium). A session's own dice
(its squad draw, its initiative) are listed on its page (:mod:`.session_dice`); the verify
page replays any stream, theirs too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext as _

from tournaments.domain.dice_replay import RecordedDie, Replay, replay
from tournaments.domain.roll_purposes import roll_purpose_label
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DiceRoll,
    DiceSource,
    SeatingMethod,
    SeedAnnouncement,
    Session,
    Stage,
    Tournament,
)
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.schedule_clashes import session_label
from tournaments.queries.tournament_catalogue import squad_names

#: Purpose codes of the ties on a session's ranking, recorded with the session.
RANKING_TIES = ("session_ranking_tie", "ranking_tie")


@dataclass(frozen=True)
class ListedRoll:
    """A listed roll; ``where``: the session it was for when the stream's heading names only
    that session's stage (a squad draw rolled with the stage's seating)."""

    roll: DiceRoll
    purpose: str
    who: str
    where: str = ""

    @property
    def die(self) -> str:
        return self.roll.get_kind_display()


@dataclass
class DiceStream:
    """A listed stream: its first ``len(rolls)`` rolls of ``total`` (all unless the page
    lists a few per stream), the stages its rolls were for and its ``subjects`` in words
    (each stage rolled for as a whole, each session otherwise), in the order first rolled."""

    key: str
    seeded: bool
    seed: str
    commitment: str
    announced_at: datetime | None
    rolls: list[ListedRoll]
    stages: list[Stage]
    total: int
    subjects: list[str] = field(default_factory=list)
    #: The session every roll was for, if one (a session's own dice, a tie on its ranking).
    session_id: int | None = None

    @property
    def subject(self) -> str:
        """What the stream was rolled for: "Preliminary, session 1", "Preliminary; Semifinal"
        (a session's label has a comma of its own)."""
        return "; ".join(self.subjects)

    @property
    def rolled_at(self) -> datetime:
        return self.rolls[0].roll.created_at

    @property
    def hidden(self) -> int:
        """The rolls not listed (see them all on the replay page or with ``?rolls=all``)."""
        return self.total - len(self.rolls)

    def replay(self) -> Replay:
        """The stream rolled again from its seed (app dice only; every roll read)."""
        if self.hidden:
            raise ValueError("a stream listed in part cannot be replayed: read it whole")
        dice = [RecordedDie(line.roll.kind, tuple(line.roll.values)) for line in self.rolls]
        return replay(int(self.seed), self.commitment, dice)


@dataclass
class _Head:
    """A stream as plain rows: its rolls' ids and stages, whether it decided the bracket."""

    seeded: bool
    seed: str
    commitment: str
    pks: list[int] = field(default_factory=list)
    stage_ids: dict[int, None] = field(default_factory=dict)  # ordered, unique
    #: (stage id, session id) of its rolls, ordered, unique: a roll of a session's ranking
    #: records the session only.
    subjects: dict[tuple[int | None, int | None], None] = field(default_factory=dict)
    decides: bool = False


def _heads(tournament: Tournament) -> dict[str, _Head]:
    """Every stream of the tournament by key, read as plain rows in one query (a 2,187-player
    tournament holds some 13,000 rolls; model objects are built only for those listed)."""
    heads: dict[str, _Head] = {}
    for pk, source, seed, commitment, batch, session_id, stage_id, purpose_code in (
        DiceRoll.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list(
            "pk",
            "source",
            "seed",
            "seed_commitment",
            "batch",
            "session_id",
            "stage_id",
            "purpose_code",
        )
    ):
        seeded = source == DiceSource.SEEDED and seed != ""
        key = commitment if seeded else str(batch)
        head = heads.get(key)
        if head is None:
            head = heads[key] = _Head(seeded=seeded, seed=seed, commitment=commitment)
        head.pks.append(pk)
        if stage_id is not None:
            head.stage_ids[stage_id] = None
        head.subjects[(stage_id, session_id)] = None
        # A roll of a stage as a whole, or a tie on a session's ranking, decided the bracket.
        head.decides = head.decides or session_id is None or purpose_code in RANKING_TIES
    return heads


def dice_streams(
    tournament: Tournament,
    shown: int | None = None,
    key: str | None = None,
    *,
    deciding: bool = True,
) -> list[DiceStream]:
    """The streams that decided the tournament's bracket (``deciding=False``: every stream,
    a session's own dice too), the first rolled first (``key``: that stream only), each with
    its first ``shown`` rolls (None: all of them)."""
    heads = {
        stream_key: head
        for stream_key, head in _heads(tournament).items()
        if (head.decides or not deciding) and (key is None or key == stream_key)
    }
    wanted = {pk for head in heads.values() for pk in head.pks[:shown]}
    query = DiceRoll.objects.filter(tournament=tournament)
    if shown is not None:
        query = DiceRoll.objects.filter(pk__in=wanted)
    elif key is not None and key in heads:  # one stream whole: its own rolls, not the others'
        seeded = heads[key].seeded
        query = query.filter(**{"seed_commitment" if seeded else "batch": key})
    rolls = {
        roll.pk: roll for roll in query.select_related("stage", "session") if roll.pk in wanted
    }
    players = registered_player_names(tournament)
    squads = squad_names(tournament)
    stages = tournament.stages.in_bulk()
    sessions = _sessions_of(heads.values(), stages)
    announced = dict(
        SeedAnnouncement.objects.filter(tournament=tournament).values_list(
            "commitment", "announced_at"
        )
    )
    streams = []
    for stream_key, head in heads.items():
        listed = [rolls[pk] for pk in head.pks[:shown]]
        subjects, whole_stages = _subjects(head, stages, sessions)
        streams.append(
            DiceStream(
                key=stream_key,
                seeded=head.seeded,
                seed=head.seed,
                commitment=head.commitment,
                announced_at=announced.get(head.commitment) if head.seeded else None,
                rolls=[
                    ListedRoll(
                        roll,
                        roll_purpose_label(roll, squads),
                        players.get(roll.subject, roll.subject),
                        _session_named(roll.session_id, sessions, whole_stages),
                    )
                    for roll in listed
                ],
                stages=[stages[stage_id] for stage_id in head.stage_ids],
                total=len(head.pks),
                subjects=subjects,
                session_id=_only_session(head),
            )
        )
    return streams


def _sessions_of(heads: Iterable[_Head], stages: dict[int, Stage]) -> dict[int, Session]:
    """The sessions the streams' rolls were for, by id, each with its stage (one query)."""
    ids = {session for head in heads for _stage, session in head.subjects if session is not None}
    sessions = Session.objects.filter(pk__in=ids).in_bulk() if ids else {}
    for session in sessions.values():
        session.stage = stages[session.stage_id]
    return sessions


def _subjects(
    head: _Head, stages: dict[int, Stage], sessions: dict[int, Session]
) -> tuple[list[str], set[int]]:
    """What a stream was rolled for, in words, in the order first rolled, and the ids of the
    stages it names as a whole. A stage rolled for as a whole (seated, closed) is named by
    its kind, and covers the squad draws of its sessions rolled with it; a session's own
    rolls (a tie on its ranking) name the session, "Preliminary, session 1"."""
    whole = {stage for stage, session in head.subjects if session is None and stage is not None}
    labels: list[str] = []
    for stage_id, session_id in head.subjects:
        if session_id is None:
            if stage_id is not None:
                labels.append(str(stages[stage_id].get_kind_display()))
        elif sessions[session_id].stage_id not in whole:
            labels.append(session_label(sessions[session_id]))
    return labels, whole


def _only_session(head: _Head) -> int | None:
    """The session every roll of the stream was for, if there is one such session."""
    sessions = {session for _stage, session in head.subjects}
    return sessions.pop() if len(sessions) == 1 else None


def _session_named(session_id: int | None, sessions: dict[int, Session], whole: set[int]) -> str:
    """The session a roll was for, when the stream's heading names only its stage."""
    if session_id is None or sessions[session_id].stage_id not in whole:
        return ""
    return session_label(sessions[session_id])


def dice_stream(tournament: Tournament, key: str) -> DiceStream | None:
    """One stream by its key (the seed's hash, or the batch of typed dice), whole: any of
    the tournament's, not only those the Dice page lists (a session's squad draw too)."""
    found = dice_streams(tournament, key=key, deciding=False)
    return found[0] if found else None


@dataclass(frozen=True)
class Announced:
    announcement: SeedAnnouncement
    purpose: str


def _announced_for(announcement: SeedAnnouncement) -> str:
    if announcement.session is not None:
        return _("ties on the ranking of %(session)s") % {
            "session": session_label(announcement.session)
        }
    if announcement.purpose == "start":
        return _("seating the first stage")
    return _("closing the current stage and seating the next")


def pending_announcements(tournament: Tournament) -> list[Announced]:
    """The hashes announced for rolls not made yet, and what each is for."""
    pending = (
        SeedAnnouncement.objects.filter(tournament=tournament, used_at__isnull=True)
        .select_related("session__stage")
        .order_by("announced_at")
    )
    return [Announced(announcement, _announced_for(announcement)) for announcement in pending]


@dataclass(frozen=True)
class StageSeating:
    """How a stage was seated, in words; ``stream``: the key of the dice that seated it
    (or settled its seeding ties), ``verifiable`` when they are the app's, with a seed."""

    stage: Stage
    how: str
    stream: str = ""
    verifiable: bool = False


def _seating_methods(tournament: Tournament) -> dict[int, str]:
    """The seating method each seat of a later stage recorded (the latest, after an undone
    advance), by stage number."""
    methods: dict[int, str] = {}
    for details in (
        ActivityLog.objects.filter(tournament=tournament, verb=ActivityVerb.SEATED_STAGE)
        .order_by("pk")
        .values_list("details", flat=True)
    ):
        if isinstance(details, dict) and details.get("seating") and details.get("stage"):
            methods[int(details["stage"])] = str(details["seating"])
    return methods


def _seating_dice(tournament: Tournament) -> dict[tuple[int, str], tuple[str, bool]]:
    """The latest stream of random-seating and seeding-tie rolls of each stage, as
    (stream key, rolled by the app) by (stage id, purpose code)."""
    found: dict[tuple[int, str], tuple[str, bool]] = {}
    for stage_id, code, source, seed, commitment, batch in (
        DiceRoll.objects.filter(
            tournament=tournament,
            session=None,
            purpose_code__in=("random_seating", "seeding_tie"),
        )
        .order_by("pk")
        .values_list("stage_id", "purpose_code", "source", "seed", "seed_commitment", "batch")
    ):
        seeded = source == DiceSource.SEEDED and seed != ""
        found[(stage_id, code)] = (commitment if seeded else str(batch), seeded)
    return found


def stage_seatings(tournament: Tournament) -> list[StageSeating]:
    """How each of the tournament's stages was seated (:func:`_seating`). Random seating
    always rolls (every player rolls), so a stage seated at random has its rolls; after an
    undone advance the latest seating counts. Four queries."""
    seated = set(
        Session.objects.filter(stage__tournament=tournament).values_list("stage_id", flat=True)
    )
    methods = _seating_methods(tournament)
    dice = _seating_dice(tournament)
    return [
        _seating(stage, methods.get(stage.number), dice)
        if stage.pk in seated
        else StageSeating(stage, _("The stage is not seated yet."))
        for stage in tournament.stages.order_by("number")
    ]


def _seating(
    stage: Stage, method: str | None, dice: dict[tuple[int, str], tuple[str, bool]]
) -> StageSeating:
    """A seated stage's seating: at random with the app's or with typed dice; in
    registration order (the first stage, seeded); by the previous stage's ranking (seeded),
    its ties for a seed settled with dice or not. ``method``: as its seating recorded it
    (None: not recorded, the first stage's; its dice tell)."""
    random_dice = dice.get((stage.pk, "random_seating"))
    if (method or (SeatingMethod.RANDOM if random_dice else "")) == SeatingMethod.RANDOM:
        if random_dice is None:
            return StageSeating(stage, _("Seated at random; its dice are not on record."))
        key, by_app = random_dice
        how = (
            _("Seated at random with the app's dice; anyone can roll them again from the seed.")
            if by_app
            else _("Seated at random with physical dice typed in by the organiser.")
        )
        return StageSeating(stage, how, key, by_app)
    if stage.number == 1:
        return StageSeating(stage, _("Seated in registration order: no dice were rolled."))
    ties = dice.get((stage.pk, "seeding_tie"))
    if ties is not None:
        how = _(
            "Seeded by the ranking of the stage before (players of the same session kept "
            "apart); dice settled the ties for a seed."
        )
        return StageSeating(stage, how, *ties)
    how = _(
        "Seeded by the ranking of the stage before (players of the same session kept apart): "
        "no dice were rolled."
    )
    return StageSeating(stage, how)
