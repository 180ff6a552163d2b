"""Checking a stored :class:`~tournaments.models.Loadout` with the pure loadout rules.

The rules live in :mod:`tournaments.domain.loadout`; this adapter gathers what they need from the
database: the tournament's catalogue, whether the session is Extended TPK, the player's
squad rank and the score bonus earned for this session.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Sum
from django.utils.translation import gettext as _

from tournaments.domain.loadout import Loadout as LoadoutSpec
from tournaments.domain.loadout import validate_loadout
from tournaments.models import (
    Loadout,
    ScoreBonus,
    Seat,
    SessionStatus,
    Squad,
    SquadRank,
    StageStatus,
    StipulationKind,
    Tournament,
)
from tournaments.queries.session_stipulation import stipulation_kind
from tournaments.queries.tournament_catalogue import tournament_catalogue


def card_bonuses(seat: Seat) -> tuple[int, int]:
    """The seat's squad rank (extra order cards) and the score thresholds its player
    reached last time (extra equipment cards in this session), RULES §5 and §9."""
    rank = (
        SquadRank.objects.filter(
            tournament=seat.session.stage.tournament_id, player_id=seat.player_id
        )
        .values_list("rank", flat=True)
        .first()
    ) or 0
    bonus = (
        ScoreBonus.objects.filter(player_id=seat.player_id, used_in=seat.session_id).aggregate(
            total=Sum("extra_equipment_cards")
        )["total"]
        or 0
    )
    return rank, bonus


def loadout_problems(loadout: Loadout) -> dict[str, list[str]]:
    """Problems by model field (``__all__`` for the whole loadout); empty when valid."""
    seat = loadout.seat
    if seat.squad is None:
        return {"__all__": [_("Draw the squads of this session before choosing a loadout.")]}
    session = seat.session
    tournament = session.stage.tournament
    kind = stipulation_kind(session)
    rank, bonus = card_bonuses(seat)
    spec = LoadoutSpec(
        squad=seat.squad.slug,
        commander_combo=loadout.commander_combo,
        marine_weapons=tuple(loadout.marine_weapons or ()),
        extra_marine_weapons=tuple(loadout.extra_marine_weapons or ()),
        order_cards=tuple(loadout.order_cards or ()),
        equipment_cards=tuple(loadout.equipment_cards or ()),
        targeter_marks=tuple(loadout.targeter_marks or ()),
    )
    problems = validate_loadout(
        spec,
        tournament_catalogue(tournament),
        extended_tpk=kind == StipulationKind.EXTENDED_TPK,
        rank=rank,
        thresholds_reached=bonus,
    )
    fields = {field.name for field in Loadout._meta.get_fields()}
    by_field: dict[str, list[str]] = {}
    for problem in problems:
        name = problem.field.split("[")[0]
        by_field.setdefault(name if name in fields else "__all__", []).append(problem.message)
    return by_field


def loadouts_holding(
    tournament: Tournament, field: str, slug: str, squad: Squad | None = None
) -> int:
    """How many loadouts of ``tournament`` (of ``squad``'s seats, when given) hold ``slug``
    in ``field``, one of the loadout's JSON lists (cards or weapons)."""
    loadouts = Loadout.objects.filter(seat__session__stage__tournament=tournament)
    if squad is not None:
        loadouts = loadouts.filter(seat__squad=squad)
    # Read in Python: a JSON "contains" lookup is not portable across databases.
    return sum(slug in (held or ()) for held in loadouts.values_list(field, flat=True))


def loadout_lock_reasons(seat_ids: Iterable[int]) -> dict[int, str]:
    """Why the loadouts of ``seat_ids`` can no longer change, by seat id; a seat whose
    loadout may still change is left out. A loadout is chosen for a session, before it
    (RULES §5): it is locked once the session is being played (decision 52: from its
    initiative roll or its first game on the board), has a result, or its stage is closed.
    Read afresh in one query, so an action checks what holds now."""
    rows = Seat.objects.filter(pk__in=list(seat_ids)).values_list(
        "pk", "session__stage__status", "session__result", "session__status"
    )
    reasons: dict[int, str] = {}
    for seat_id, stage_status, result_id, session_status in rows:
        if stage_status != StageStatus.OPEN:
            reasons[seat_id] = _(
                "The stage of this session is closed; its loadout can no longer change."
            )
        elif result_id is not None:
            reasons[seat_id] = _("The session has a result; its loadout can no longer change.")
        elif session_status in (SessionStatus.IN_PROGRESS, SessionStatus.COMPLETED):
            reasons[seat_id] = _(
                "The session is being played (its initiative is rolled or its game has "
                "started); its loadout can no longer change."
            )
    return reasons


def loadout_lock_reason(seat: Seat) -> str:
    """Why the loadout of ``seat`` can no longer change; empty while it can."""
    return loadout_lock_reasons([seat.pk]).get(seat.pk, "")
