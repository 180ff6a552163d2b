"""A session's own recorded dice for its public page (RULES §3, §5, §14): the squad draw's
roll-offs and re-rolls, the initiative, the ties on its ranking; who rolled each die, what
for and how (the app's dice by their seed's hash, or physical dice typed in).

The engine's dice of the session's games on the board (a code of
:data:`rules.engine.narration_dice.PURPOSES`) may be thousands: they are only counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from rules.engine.narration_dice import PURPOSES as ENGINE_PURPOSES
from tournaments.domain.roll_purposes import roll_purpose_label
from tournaments.models import (
    ActivityLog,
    ActivityVerb,
    DiceRoll,
    DiceSource,
    Session,
    Tournament,
)
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.tournament_catalogue import squad_names


@dataclass(frozen=True)
class SessionRoll:
    """One die (or dice) of a roll-off: whose, and what it showed."""

    who: str
    values: list[int]


@dataclass
class RollGroup:
    """The rolls of one purpose in a row: a roll-off, or one of its re-rolls."""

    purpose: str
    rolls: list[SessionRoll] = field(default_factory=list)


@dataclass
class SessionBatch:
    """The dice of one action (a draw, an initiative roll): how they were rolled, the seed's
    hash (``commitment``) of the app's, and ``replaced`` when the draw they belong to was
    done again or undone."""

    rolled_at: datetime
    seeded: bool
    source: str
    commitment: str
    replaced: bool
    groups: list[RollGroup] = field(default_factory=list)


@dataclass(frozen=True)
class SessionDice:
    """The session's own dice, one action after the other, and how many dice its games on
    the board rolled."""

    batches: list[SessionBatch]
    game_dice: int

    def __bool__(self) -> bool:
        return bool(self.batches or self.game_dice)


def replaced_draw_batches(session: Session) -> set[str]:
    """The dice batches of the session's squad draws that no longer hold: a later draw
    replaced them, or the draw was undone."""
    return {
        batch
        for details in ActivityLog.objects.filter(
            tournament_id=session.stage.tournament_id,
            details__session=session.pk,
            verb__in=[ActivityVerb.REDREW_SQUADS, ActivityVerb.UNDID_DRAW],
        ).values_list("details", flat=True)
        for batch in details.get("replaced_batches", [])
    }


def session_dice(tournament: Tournament, session: Session) -> SessionDice:
    """The recorded dice of ``session`` (of ``tournament``) but its games' (counted only),
    in the order rolled, players by name and squads by the tournament's names. Two queries
    when there are none, five otherwise, however many dice."""
    rolls = DiceRoll.objects.filter(session=session)
    game_dice = rolls.filter(purpose_code__in=list(ENGINE_PURPOSES)).count()
    own = list(rolls.exclude(purpose_code__in=list(ENGINE_PURPOSES)).order_by("pk"))
    if not own:
        return SessionDice([], game_dice)
    players = registered_player_names(tournament)
    squads = squad_names(tournament)
    replaced = replaced_draw_batches(session)
    batches: dict[str, SessionBatch] = {}
    for roll in own:
        key = str(roll.batch)
        batch = batches.get(key)
        if batch is None:
            seeded = roll.source == DiceSource.SEEDED and roll.seed != ""
            batch = batches[key] = SessionBatch(
                rolled_at=roll.created_at,
                seeded=seeded,
                source=roll.get_source_display(),
                commitment=roll.seed_commitment if seeded else "",
                replaced=key in replaced,
            )
        purpose = roll_purpose_label(roll, squads)
        if not batch.groups or batch.groups[-1].purpose != purpose:
            batch.groups.append(RollGroup(purpose))
        who = players.get(roll.subject, roll.subject)
        batch.groups[-1].rolls.append(SessionRoll(who, list(roll.values)))
    return SessionDice(list(batches.values()), game_dice)
