"""What a player chooses for their games: squad preferences before the first draw, and the
loadout of each session (RULES §3, §5)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.domain.loadout import Loadout as LoadoutSpec
from tournaments.models import (
    ActivityVerb,
    Loadout,
    Player,
    Result,
    Seat,
    SquadPreference,
    Tournament,
)


class ChoiceLocked(ValueError):
    """The choice can no longer change; the message says why."""


def preferences_locked(player: Player, tournament: Tournament) -> bool:
    """Preferences count for the first draw only: locked once a squad was drawn for them."""
    return Seat.objects.filter(
        player=player, session__stage__tournament=tournament, squad__isnull=False
    ).exists()


def loadout_locked(seat: Seat) -> bool:
    """A loadout is locked once its session has a result."""
    return Result.objects.filter(session=seat.session_id).exists()


def save_preferences(player: Player, tournament: Tournament, choices: list[str]) -> None:
    """Keep ``choices`` (squad slugs, first choice first) as the player's tournament-wide
    squad preference. Raises ChoiceLocked once a squad was drawn for them."""
    with transaction.atomic():
        if preferences_locked(player, tournament):
            raise ChoiceLocked(_("Your squad is already drawn; preferences can no longer change."))
        SquadPreference.objects.update_or_create(
            player=player, tournament=tournament, stage=None, defaults={"choices": choices}
        )
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe("squad_preferences", name=player.display_name),
            player=player.pk,
            choices=choices,
        )


def save_loadout(seat: Seat, chosen: LoadoutSpec) -> Loadout:
    """Keep ``chosen`` (already checked by the loadout rules) as the seat's loadout. Raises
    ChoiceLocked once the session has a result."""
    with transaction.atomic():
        if loadout_locked(seat):
            raise ChoiceLocked(_("The session has a result; its loadout can no longer change."))
        loadout, _created = Loadout.objects.update_or_create(
            seat=seat,
            defaults={
                "commander_combo": chosen.commander_combo,
                "marine_weapons": list(chosen.marine_weapons),
                "extra_marine_weapons": list(chosen.extra_marine_weapons),
                "order_cards": list(chosen.order_cards),
                "equipment_cards": list(chosen.equipment_cards),
                "targeter_marks": list(chosen.targeter_marks),
            },
        )
        log_activity(
            seat.session.stage.tournament,
            ActivityVerb.UPDATED,
            describe("loadout", name=seat.player.display_name),
            player=seat.player_id,
            session=seat.session_id,
        )
    return loadout
