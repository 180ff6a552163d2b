"""What a player chooses for their games: squad preferences before the first draw, and the
loadout of each session (RULES §3, §5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.domain.loadout import Loadout as LoadoutSpec
from tournaments.models import (
    ActivityVerb,
    Loadout,
    Player,
    Seat,
    Session,
    SquadPreference,
    Stage,
    Tournament,
)
from tournaments.queries.edit_versions import content_version
from tournaments.queries.loadout_checks import loadout_lock_reason


class ChoiceLocked(ValueError):
    """The choice can no longer change; the message says why."""


class StageListKept(ValueError):
    """The stage the list was entered for reads a list of its own for the player (decision
    28), so saving the tournament-wide one would change nothing its draw reads; the message
    says so."""


def stage_list_reason(player: Player) -> str:
    """Why the squad preferences of ``player`` were not saved for a stage with its own list
    for them (:class:`StageListKept`)."""
    return _(
        "The squad preferences of %(name)s are not saved: this stage's squad draw reads "
        "the stage's own list, from an imported tournament document, which cannot be "
        "changed here."
    ) % {"name": player.display_name}


def locked_preferences(tournament: Tournament, player_ids: Iterable[int]) -> set[int]:
    """Which of ``player_ids`` can no longer change their squad preferences: those a squad
    was drawn for in ``tournament``, in any session (preferences count for the draw only)."""
    return set(
        Seat.objects.filter(player_id__in=list(player_ids), session__stage__tournament=tournament)
        .exclude(squad__isnull=True)
        .values_list("player_id", flat=True)
    )


def preferences_locked(player: Player, tournament: Tournament) -> bool:
    """Preferences count for the first draw only: locked once a squad was drawn for them."""
    return bool(locked_preferences(tournament, [player.pk]))


def preferences_locked_reason(player: Player) -> str:
    """Why the preferences of ``player`` can no longer change, as the organiser and the judge
    read it (the player's own page says it to them)."""
    return _(
        "A squad is already drawn for %(name)s: squad preferences count only until the draw "
        "and can no longer change."
    ) % {"name": player.display_name}


def preferences_version(choices: Sequence[str]) -> str:
    """The digest a preferences form remembers, to refuse a save over someone else's newer
    one (the player, the organiser and the judge may all edit the same list)."""
    return content_version(list(choices))


def save_preferences(
    player: Player,
    tournament: Tournament,
    choices: list[str],
    *,
    actor: AbstractBaseUser | AnonymousUser | None = None,
    expected_version: str | None = None,
    stage: Stage | None = None,
) -> bool:
    """Keep ``choices`` (squad slugs, first choice first) as the player's tournament-wide
    squad preference, logged with ``actor`` (the organiser's or judge's account, the
    player's own, or None for a player by their private link). The one write of squad
    preferences, whoever enters them.

    Empty ``choices`` clear the list: the row goes, so the player has no preference, as
    before one was entered (the draw gives them a squad left free, decision 1). A stage's
    own list (only from an import) is not this one and stays.

    Whether the stored list changed: saving the list already stored, or clearing a list
    nobody entered, writes and logs nothing and answers False.

    ``stage`` is the stage whose draw the list is entered for, when there is one (the
    judge's sheet of one of its sessions): a stage with a list of its own for the player
    (only from an import) draws from that one, so the save is refused with
    :class:`StageListKept` rather than write a list that stage's draw ignores.

    Raises ChoiceLocked once a squad was drawn for them, StageListKept (above), and
    StaleEditError when the list is no longer the one the form was loaded with
    (``expected_version``)."""
    with transaction.atomic():
        # Two saves of the same list wait for each other, so the version check holds.
        Player.objects.select_for_update().filter(pk=player.pk).values_list("pk").get()
        if preferences_locked(player, tournament):
            raise ChoiceLocked(preferences_locked_reason(player))
        stage_list = SquadPreference.objects.filter(player=player, stage=stage)
        if stage is not None and stage_list.exists():
            raise StageListKept(stage_list_reason(player))
        stored = SquadPreference.objects.filter(
            player=player, tournament=tournament, stage=None
        ).first()
        before = stored.choices if stored else []
        check_unchanged(expected_version, preferences_version(before))
        if list(choices) == list(before):
            return False
        if choices:
            SquadPreference.objects.update_or_create(
                player=player, tournament=tournament, stage=None, defaults={"choices": choices}
            )
        elif stored is not None:
            stored.delete()
        log_activity(
            tournament,
            ActivityVerb.UPDATED,
            describe(
                "squad_preferences" if choices else "squad_preferences_cleared",
                name=player.display_name,
            ),
            actor=actor,
            player=player.pk,
            choices=choices,
        )
    return True


def save_loadout(seat: Seat, chosen: LoadoutSpec) -> Loadout:
    """Keep ``chosen`` (already checked by the loadout rules) as the seat's loadout. Raises
    ChoiceLocked, saying why, once the session is being played, has a result or its stage
    is closed (:func:`~tournaments.queries.loadout_checks.loadout_lock_reasons`)."""
    with transaction.atomic():
        # The session waits for this save (or this save for the session's start), so a
        # loadout never changes after its session began.
        Session.objects.select_for_update().filter(pk=seat.session_id).values_list("pk").get()
        reason = loadout_lock_reason(seat)
        if reason:
            raise ChoiceLocked(reason)
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


def remember_language(player: Player, language: str) -> bool:
    """Keep ``language`` as the one ``player``'s mails are written in: the language they
    read their own page in. One conditional update, made only when it changed (a page
    read in the same language writes nothing); True when it changed. Not logged: it is no
    tournament's business and changes no public page."""
    if language == player.language or language not in dict(settings.LANGUAGES):
        return False
    changed = (
        Player.objects.filter(pk=player.pk).exclude(language=language).update(language=language)
    )
    player.language = language
    return bool(changed)
