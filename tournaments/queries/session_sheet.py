"""What the judge's session sheet reads: each player's squad preferences, the versions of
the squad draw, the session's dice (its own, those of a replaced draw marked so, apart from
its games') and how many dice the draw or the initiative still needs for what the judge has
typed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from rules.engine.dice import Dice
from rules.engine.narration_dice import PURPOSES as ENGINE_PURPOSES
from tournaments.domain.draw import squad_draw
from tournaments.domain.initiative import roll_initiative
from tournaments.domain.roll_purposes import DRAW_PURPOSES, roll_purpose_label
from tournaments.domain.roll_subjects import roll_subject_label, seat_player_id
from tournaments.domain.typed_dice import DiceNeed, dice_needed, subject_names
from tournaments.models import ActivityLog, ActivityVerb, DiceRoll, Seat, Session
from tournaments.queries.draw_inputs import draw_players, stage_own_choices
from tournaments.queries.session_dice import replaced_draw_batches
from tournaments.queries.tournament_catalogue import squad_names


@dataclass(frozen=True)
class SquadWishes:
    """What a seated player brings to the squad draw: their squad choices by name, in
    order (empty: none given), and from the second stage on the squad they keep from their
    previous session (RULES §4; empty when they had none). ``stage_list`` when the choices
    are the stage's own list (imported, read-only), which its draw reads instead of the
    player's tournament-wide one."""

    choices: list[str]
    keeps: str = ""
    stage_list: bool = False


def seat_wishes(session: Session, seats: Sequence[Seat]) -> dict[int, SquadWishes]:
    """Each seated player's :class:`SquadWishes`, by player id."""
    names = squad_names(session.stage.tournament)
    players = {int(player.id): player for player in draw_players([session])[session.pk]}
    own = stage_own_choices(session.stage, [seat.player_id for seat in seats])
    wishes = {}
    for seat in seats:
        player = players.get(seat.player_id)
        choices = player.preferences if player else ()
        previous = player.previous if player else None
        wishes[seat.player_id] = SquadWishes(
            [names.get(slug, slug) for slug in choices],
            names.get(previous.squad, previous.squad) if previous else "",
            seat.player_id in own,
        )
    return wishes


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
    #: It belongs to a squad draw that was done again or undone (its squads no longer hold).
    replaced: bool


@dataclass(frozen=True)
class SheetDice:
    """The session's recorded dice as the sheet lists them: its own (the squad draw's, the
    initiative's, the ties on its ranking), and apart from them those its games on the
    board rolled (the engine's purposes), which may be hundreds a game and are listed folded
    away, so that a phone does not scroll past them to reach the rest of the page."""

    own: list[LoggedRoll]
    games: list[LoggedRoll]

    def __bool__(self) -> bool:
        return bool(self.own or self.games)


def dice_log(session: Session, seats: Sequence[Seat]) -> SheetDice:
    """The session's recorded dice: the roller's name instead of their id (a game's roll:
    the player and the figure), what each was for (squads by name) and whether a later
    draw replaced it (or the draw was undone)."""
    names = subject_names(seat.player for seat in seats)
    players = {seat_player_id(seat.seat_order): seat.player.display_name for seat in seats}
    squads = squad_names(session.stage.tournament)
    replaced = replaced_draw_batches(session)
    logged = SheetDice([], [])
    for roll in DiceRoll.objects.filter(session=session).order_by("created_at", "sequence"):
        rows = logged.games if roll.purpose_code in ENGINE_PURPOSES else logged.own
        rows.append(
            LoggedRoll(
                roll,
                names.get(roll.subject) or roll_subject_label(roll.subject, players),
                roll_purpose_label(roll, squads),
                str(roll.batch) in replaced,
            )
        )
    return logged


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


def draw_batches(session: Session) -> list[str]:
    """The dice batches of the session's squad draws so far (what a redraw or an undo
    names as replaced)."""
    return sorted(
        {
            str(batch)
            for batch in DiceRoll.objects.filter(
                session=session, purpose_code__in=DRAW_PURPOSES
            ).values_list("batch", flat=True)
        }
    )
