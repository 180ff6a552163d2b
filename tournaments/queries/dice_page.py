"""The tournament's public Dice page: every roll that seated a stage or settled a cut, by
the seed it was rolled with, and the seeds announced for the next such roll.

A *stream* is every stored roll of one seed, in the order rolled (app dice), or one batch
of dice typed in by a judge or organiser (no seed, nothing to replay). A stream is listed
when it decided the bracket: a roll of a stage as a whole (seating, qualifiers, best
runners-up, seeding) or a tie on a session's ranking (places, podium).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from tournaments.domain.dice_replay import RecordedDie, Replay, replay
from tournaments.domain.roll_purposes import roll_purpose_label
from tournaments.models import DiceRoll, DiceSource, SeedAnnouncement, Stage, Tournament
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.schedule_clashes import session_label
from tournaments.queries.tournament_catalogue import squad_names

#: Purpose codes of the ties on a session's ranking, recorded with the session.
RANKING_TIES = ("session_ranking_tie", "ranking_tie")


@dataclass(frozen=True)
class ListedRoll:
    roll: DiceRoll
    purpose: str
    who: str

    @property
    def die(self) -> str:
        return self.roll.get_kind_display()


@dataclass
class DiceStream:
    key: str
    seeded: bool
    seed: str
    commitment: str
    announced_at: datetime | None
    rolls: list[ListedRoll]

    @property
    def rolled_at(self) -> datetime:
        return self.rolls[0].roll.created_at

    @property
    def stages(self) -> list[Stage]:
        seen: dict[int, Stage] = {}
        for line in self.rolls:
            if line.roll.stage is not None:
                seen.setdefault(line.roll.stage.pk, line.roll.stage)
        return list(seen.values())

    def replay(self) -> Replay:
        """The stream rolled again from its seed (app dice only)."""
        dice = [RecordedDie(line.roll.kind, tuple(line.roll.values)) for line in self.rolls]
        return replay(int(self.seed), self.commitment, dice)


def _decides(roll: DiceRoll) -> bool:
    return roll.session_id is None or roll.purpose_code in RANKING_TIES


def dice_streams(tournament: Tournament) -> list[DiceStream]:
    """The streams that decided the tournament's bracket, the first rolled first."""
    rolls = (
        DiceRoll.objects.filter(tournament=tournament)
        .select_related("stage", "session")
        .order_by("pk")
    )
    players = registered_player_names(tournament)
    squads = squad_names(tournament)
    announced = dict(
        SeedAnnouncement.objects.filter(tournament=tournament).values_list(
            "commitment", "announced_at"
        )
    )
    streams: dict[str, DiceStream] = {}
    deciding: set[str] = set()
    for roll in rolls:
        seeded = roll.source == DiceSource.SEEDED and roll.seed != ""
        key = roll.seed_commitment if seeded else str(roll.batch)
        stream = streams.get(key)
        if stream is None:
            stream = streams[key] = DiceStream(
                key=key,
                seeded=seeded,
                seed=roll.seed,
                commitment=roll.seed_commitment,
                announced_at=announced.get(roll.seed_commitment) if seeded else None,
                rolls=[],
            )
        stream.rolls.append(
            ListedRoll(
                roll, roll_purpose_label(roll, squads), players.get(roll.subject, roll.subject)
            )
        )
        if _decides(roll):
            deciding.add(key)
    return [stream for key, stream in streams.items() if key in deciding]


def dice_stream(tournament: Tournament, key: str) -> DiceStream | None:
    """One listed stream by its key (the seed's hash, or the batch of typed dice)."""
    return next((s for s in dice_streams(tournament) if s.key == key), None)


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
