"""What the judge's session sheet reads: each player's squad preferences, the versions of
the squad draw, the session's dice (those of a replaced draw marked so) and how many dice
the draw or the initiative still needs for what the judge has typed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from rules.engine.dice import Dice
from tournaments.domain.draw import squad_draw
from tournaments.domain.initiative import roll_initiative
from tournaments.domain.roll_purposes import roll_purpose_label
from tournaments.domain.typed_dice import DiceNeed, dice_needed, subject_names
from tournaments.models import ActivityLog, ActivityVerb, DiceRoll, Seat, Session
from tournaments.queries.draw_inputs import draw_players, squad_preferences
from tournaments.queries.tournament_catalogue import squad_names


def seat_preferences(session: Session, seats: Sequence[Seat]) -> dict[int, list[str]]:
    """Each seated player's squad choices for the session's stage, by name, in order (an
    empty list: none given)."""
    names = squad_names(session.stage.tournament)
    chosen = squad_preferences(session.stage, [seat.player_id for seat in seats])
    return {
        seat.player_id: [names.get(slug, slug) for slug in chosen.get(seat.player_id, ())]
        for seat in seats
    }


@dataclass(frozen=True)
class DrawVersion:
    """One run of the session's squad draw: who got which squad, by whom, when and why
    (a redraw's reason); ``current`` for the one the seats hold now."""

    number: int
    actor: str
    created_at: datetime
    squads: list[tuple[str, str]]
    reason: str
    current: bool


def draw_versions(session: Session, seats: Sequence[Seat]) -> list[DrawVersion]:
    """The squad draws of ``session``, first to last (empty before the first)."""
    entries = list(
        ActivityLog.objects.filter(
            tournament=session.stage.tournament,
            details__session=session.pk,
            verb__in=[ActivityVerb.DREW_SQUADS, ActivityVerb.REDREW_SQUADS],
        )
        .select_related("actor")
        .order_by("created_at", "pk")
    )
    players = {str(seat.player_id): seat.player.display_name for seat in seats}
    squads = squad_names(session.stage.tournament)
    return [
        DrawVersion(
            number=number,
            actor=entry.actor.get_username() if entry.actor else "",
            created_at=entry.created_at,
            squads=[
                (players.get(player, player), squads.get(slug, slug))
                for player, slug in (entry.details.get("assignments") or {}).items()
            ],
            reason=entry.details.get("reason", ""),
            current=number == len(entries),
        )
        for number, entry in enumerate(entries, start=1)
    ]


@dataclass(frozen=True)
class LoggedRoll:
    """A recorded die as the sheet lists it."""

    roll: DiceRoll
    who: str
    purpose: str
    #: It belongs to a squad draw that was done again (its squads no longer hold).
    replaced: bool


def dice_log(session: Session, seats: Sequence[Seat]) -> list[LoggedRoll]:
    """The session's recorded dice: the roller's name instead of their id, what each was
    for (squads by name) and whether a later draw replaced it."""
    names = subject_names(seat.player for seat in seats)
    squads = squad_names(session.stage.tournament)
    replaced = {
        batch
        for details in ActivityLog.objects.filter(
            tournament=session.stage.tournament,
            details__session=session.pk,
            verb=ActivityVerb.REDREW_SQUADS,
        ).values_list("details", flat=True)
        for batch in details.get("replaced_batches", [])
    }
    rolls = DiceRoll.objects.filter(session=session).order_by("created_at", "sequence")
    return [
        LoggedRoll(
            roll,
            names.get(roll.subject, roll.subject),
            roll_purpose_label(roll, squads),
            str(roll.batch) in replaced,
        )
        for roll in rolls
    ]


def draw_need(session: Session, seats: Sequence[Seat], values: Sequence[int]) -> DiceNeed:
    """How far the typed ``values`` take the session's squad draw (nothing is stored).
    Raises :class:`~tournaments.domain.draw.DrawError` when the draw cannot run."""
    tournament = session.stage.tournament
    players = draw_players([session])[session.pk]

    def run(dice: Dice) -> object:
        return squad_draw(tournament.squad_order, players, dice)

    return dice_needed(
        run, values, subject_names(seat.player for seat in seats), squad_names(tournament)
    )


def initiative_need(seats: Sequence[Seat], values: Sequence[int]) -> DiceNeed:
    """How far the typed ``values`` take the initiative roll (nothing is stored)."""

    def run(dice: Dice) -> object:
        return roll_initiative([str(seat.player_id) for seat in seats], dice)

    return dice_needed(run, values, subject_names(seat.player for seat in seats))
