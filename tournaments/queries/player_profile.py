"""Reads about the people of a tournament: whose name is taken, which sessions have started,
who may be a reserve, and a player's public page (history, honours, squads, loadouts)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from tournaments.domain.catalogue import Catalogue
from tournaments.models import (
    Honour,
    Player,
    Registration,
    Seat,
    Session,
    SessionStatus,
    SquadRank,
    Tournament,
)
from tournaments.queries.result_versions import (
    Correction,
    latest_confirmed_versions,
    latest_corrections,
    scoring_values,
    version_totals,
)
from tournaments.queries.tournament_catalogue import tournament_catalogue


def display_name_taken(
    tournament: Tournament, shown: str, *, exclude_player: int | None = None
) -> bool:
    """Whether another player of ``tournament`` already shows as ``shown`` (nickname, else
    name; case ignored)."""
    shown = shown.strip()
    registrations = Registration.objects.filter(tournament=tournament).filter(
        Q(player__nickname__iexact=shown) | Q(player__nickname="", player__name__iexact=shown)
    )
    if exclude_player is not None:
        registrations = registrations.exclude(player_id=exclude_player)
    return registrations.exists()


def session_started(session: Session) -> bool:
    """A session has started once its initiative is rolled or the judge set it in progress."""
    if session.status in (SessionStatus.IN_PROGRESS, SessionStatus.COMPLETED):
        return True
    return session.seats.filter(initiative_position__isnull=False).exists()


def has_started(tournament: Tournament) -> bool:
    """Stage 1 is seated (late registration is closed, decision 35)."""
    return Session.objects.filter(stage__tournament=tournament).exists()


def reserve_candidates(tournament: Tournament, player: Player) -> list[Player]:
    """Active players of ``tournament`` who are seated in no session of the stage where
    ``player`` plays next: who may take their seat."""
    seat = (
        Seat.objects.filter(
            player=player, session__stage__tournament=tournament, session__result__isnull=True
        )
        .select_related("session__stage")
        .order_by("session__stage__number")
        .first()
    )
    if seat is None:
        return []
    busy = Seat.objects.filter(session__stage=seat.session.stage).values("player_id")
    return [
        registration.player
        for registration in Registration.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True
        )
        .exclude(player_id__in=busy)
        .select_related("player")
        .order_by("number")
    ]


@dataclass
class HistoryLine:
    """One session the player was seated in, with their place and points once confirmed,
    and the loadout's weapons and cards by name once it is public."""

    seat: Seat
    place: int | None = None
    points: int | None = None
    show_loadout: bool = False
    #: The result's latest correction, when it was corrected after its confirmation.
    correction: Correction | None = None
    weapons: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)


def _loadout_names(line: HistoryLine, catalogue: Catalogue) -> None:
    """The loadout's weapons and cards named as the tournament's catalogue names them, a
    second copy of a card apart from the first (:meth:`Catalogue.card_names`)."""
    loadout = line.seat.loadout
    weapons = {weapon.slug: weapon.display_name() for weapon in catalogue.weapons}
    cards = catalogue.card_names(line.seat.squad.slug) if line.seat.squad else {}
    line.weapons = [
        weapons.get(slug, slug)
        for slug in [*(loadout.marine_weapons or []), *(loadout.extra_marine_weapons or [])]
    ]
    line.cards = [
        cards.get(slug, slug)
        for slug in [*(loadout.order_cards or []), *(loadout.equipment_cards or [])]
    ]


@dataclass
class PlayerPage:
    player: Player
    registration: Registration
    history: list[HistoryLine] = field(default_factory=list)
    honours: list[Honour] = field(default_factory=list)
    squad_rank: SquadRank | None = None


def player_page(tournament: Tournament, player_id: int) -> PlayerPage | None:
    """What the public page of a registered player shows; None when not registered.
    A loadout is public once its session has a confirmed result (before, it is the
    player's secret)."""
    registration = (
        Registration.objects.filter(tournament=tournament, player_id=player_id)
        .select_related("player")
        .first()
    )
    if registration is None:
        return None
    seats = list(
        Seat.objects.filter(player_id=player_id, session__stage__tournament=tournament)
        .select_related("session__stage", "squad", "loadout")
        .order_by("session__stage__number", "session__number")
    )
    versions = latest_confirmed_versions([seat.session_id for seat in seats])
    corrections = latest_corrections(versions)
    values = scoring_values(tournament) if versions else None
    catalogue = tournament_catalogue(tournament)
    history = []
    for seat in seats:
        version = versions.get(seat.session_id)
        line = HistoryLine(seat)
        if version is not None:
            line.place = version.positions().get(player_id)
            line.points = version_totals(version, values).get(player_id)
            line.correction = corrections.get(seat.session_id)
            line.show_loadout = hasattr(seat, "loadout")
            if line.show_loadout:
                _loadout_names(line, catalogue)
        history.append(line)
    return PlayerPage(
        player=registration.player,
        registration=registration,
        history=history,
        honours=list(
            Honour.objects.filter(tournament=tournament, player_id=player_id)
            .select_related("session__stage", "squad")
            .order_by("created_at")
        ),
        squad_rank=SquadRank.objects.filter(tournament=tournament, player_id=player_id)
        .select_related("squad")
        .first(),
    )
