"""Registering players in a tournament, one from the organiser's form or many from a roster
file (the web upload and ``manage.py import_roster`` alike)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.models import ActivityVerb, Player, Registration, SquadPreference, Tournament
from tournaments.queries.player_profile import has_started


class PlayerDetails(Protocol):
    """What registering a player needs (a roster row has it, as the player form's data);
    read-only, so frozen dataclasses have it."""

    @property
    def name(self) -> str: ...
    @property
    def nickname(self) -> str: ...
    @property
    def email(self) -> str: ...
    @property
    def preferences(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class NewPlayer:
    """A player to register, as the organiser typed them in."""

    name: str
    nickname: str = ""
    email: str = ""
    preferences: tuple[str, ...] = ()


def _register(tournament: Tournament, details: PlayerDetails, number: int) -> Player:
    player = Player.objects.create(
        name=details.name, nickname=details.nickname, email=details.email
    )
    Registration.objects.create(tournament=tournament, player=player, number=number)
    if details.preferences:
        SquadPreference.objects.create(
            player=player, tournament=tournament, choices=list(details.preferences)
        )
    return player


class RegistrationClosed(ValueError):
    """Stage 1 is seated: no player can be added any more (decision 35)."""


def _last_number(tournament: Tournament) -> int:
    """The tournament's last registration number; its row stays locked until commit, so two
    registrations at once never take the same number (nor one while stage 1 is seated).
    Refused once stage 1 is seated."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
    if has_started(tournament):
        raise RegistrationClosed(
            _(
                "Stage 1 is already seated: late registration is closed. A player who "
                "leaves stage 1 is not replaced (every registered player is seated, so the "
                "session plays short); from stage 2 on, their seat can go to a reserve, a "
                "player the previous stage left out."
            )
        )
    registrations = Registration.objects.filter(tournament=tournament)
    return registrations.aggregate(last=Max("number"))["last"] or 0


def register_player(tournament: Tournament, details: PlayerDetails, *, actor=None) -> Player:
    """Create a player and register them after the last registration number; their
    preferences (if any) become their tournament-wide squad preference."""
    with transaction.atomic():
        player = _register(tournament, details, _last_number(tournament) + 1)
        log_activity(
            tournament, ActivityVerb.REGISTERED, str(player), actor=actor, player=player.pk
        )
    return player


def register_roster(
    tournament: Tournament, rows: Iterable[PlayerDetails], *, actor=None
) -> list[Player]:
    """Register a player per row, numbered after the last one: all rows or none. Only call
    it with rows that were checked in full (:func:`tournaments.interchange.roster.parse_roster`).
    No rows (a file whose players were all registered already) changes and logs nothing."""
    rows = list(rows)
    if not rows:
        return []
    with transaction.atomic():
        last = _last_number(tournament)
        players = [
            _register(tournament, row, number) for number, row in enumerate(rows, start=last + 1)
        ]
        log_activity(
            tournament,
            ActivityVerb.IMPORTED,
            describe("player_roster"),
            actor=actor,
            rows=len(players),
        )
    return players
