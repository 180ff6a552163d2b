"""Checking a stored :class:`~tournaments.models.Loadout` with the pure loadout rules.

The rules live in :mod:`tournaments.domain.loadout`; this adapter gathers what they need from the
database: the tournament's catalogue, whether the session is Extended TPK, the player's
squad rank and the score bonus earned for this session.
"""

from __future__ import annotations

from django.db.models import Sum
from django.utils.translation import gettext as _

from tournaments.domain.loadout import Loadout as LoadoutSpec
from tournaments.domain.loadout import validate_loadout
from tournaments.models import (
    Loadout,
    ScoreBonus,
    Seat,
    Squad,
    SquadRank,
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
