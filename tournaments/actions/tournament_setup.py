"""Setting up a tournament: creating it with its catalogue, its settings, its judges and its
stages' stipulations and thresholds; deleting it.

Every tournament is created by :func:`create_tournament`, from the organiser's page, the
demo and the tests alike, so each one starts with its organiser, the default catalogue and
a "created" entry in its activity log. A closed stage's settings are fixed
(:func:`stage_settings_lock`, tournament rules decision 54): its sessions were played, and
its honours, score bonuses and qualifiers awarded, under them. An open stage's new
stipulation or map reaches only its sessions without a result: one with a result keeps
what it was played with, no map included (:func:`save_stage`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.actions.stage_undo import last_closed_stage, undo_blocker
from tournaments.caching import generations
from tournaments.domain.catalogue import DEFAULT_CATALOGUE, Catalogue
from tournaments.domain.progression import stage_kind
from tournaments.models import (
    ActivityVerb,
    ChapterCard,
    Player,
    Session,
    Squad,
    Stage,
    StageStatus,
    Stipulation,
    Tournament,
    Weapon,
)
from tournaments.queries.edit_versions import TOURNAMENT_FIELDS, stage_version, tournament_version
from tournaments.queries.session_stipulation import stage_stipulation_params
from tournaments.queries.stage_cut import CutError, qualifier_count

logger = logging.getLogger("bob.tournaments")


def create_tournament(
    tournament: Tournament,
    *,
    organiser=None,
    judges: Iterable = (),
    catalogue: Catalogue | None = DEFAULT_CATALOGUE,
) -> Tournament:
    """Save the new, unsaved ``tournament`` (as the organiser's form builds it) with
    ``organiser`` as its organiser, ``judges`` as its judges and ``catalogue``'s squads,
    weapons and cards (``None``: none yet), and log its creation."""
    with transaction.atomic():
        tournament.save()
        if organiser is not None:
            tournament.organisers.add(organiser)
        judges = list(judges)
        if judges:
            tournament.judges.add(*judges)
        if catalogue is not None:
            install_catalogue(tournament, catalogue)
        log_activity(tournament, ActivityVerb.CREATED, str(tournament), actor=organiser)
    return tournament


def update_tournament(
    tournament: Tournament, *, actor, expected_version: str | None = None
) -> Tournament:
    """Save the changes made to ``tournament``'s own fields (name, dates, venue...). Raises
    StaleEditError when they changed since their form was loaded at ``expected_version``
    (:func:`~tournaments.queries.edit_versions.tournament_version`); only those fields are
    written, so what another page saved meanwhile (the catalogue's values, the qualifier
    overrides) stays."""
    with transaction.atomic():
        stored = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_unchanged(expected_version, tournament_version(stored))
        tournament.save(update_fields=TOURNAMENT_FIELDS)
        log_activity(tournament, ActivityVerb.UPDATED, str(tournament), actor=actor)
    return tournament


class TournamentDeleteError(ValueError):
    """The deletion is refused; the message says why."""


def delete_tournament(tournament: Tournament, *, confirmation: str | None, actor=None) -> None:
    """Delete ``tournament`` with everything of it (its sessions, results, dice, games,
    maps and log) and the players who entered no other tournament; the accounts stay.

    ``confirmation`` is what the organiser typed, which must be the tournament's short name
    (None: a deletion its caller confirmed otherwise, as the demo's reload). The activity
    log goes with the tournament, so the deletion is written to the ``bob.tournaments``
    log."""
    if confirmation is not None and confirmation.strip() != tournament.slug:
        raise TournamentDeleteError(
            _("Type the tournament's short name, %(slug)s, exactly to delete it.")
            % {"slug": tournament.slug}
        )
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        player_ids = list(tournament.registrations.values_list("player_id", flat=True))
        tournament.delete()
        Player.objects.filter(
            pk__in=player_ids, registrations__isnull=True, seats__isnull=True
        ).delete()
    logger.info("tournament %s deleted by %s", tournament.slug, actor or "a command")


class StageSettingsError(ValueError):
    """The stage's settings may not change; the message says why and what to do instead."""


def reopen_advice(stage: Stage) -> str:
    """What the organiser can do about the closed ``stage``'s fixed settings: undo its close
    when that is possible now (decision 38), else why it is not."""
    last = last_closed_stage(stage.tournament)
    if last is None or last.pk != stage.pk:
        return _(
            "It can no longer be reopened: only the last closed stage can be, and a stage "
            "closed after it was played already."
        )
    blocker = undo_blocker(stage.tournament)
    if blocker is not None:
        return _("It can no longer be reopened. %(why)s") % {"why": blocker}
    return _(
        "To change them, first undo its close with “Undo the last stage advance” on the "
        "stage's page (a reason is required): the stage opens again, and what its close "
        "awarded and seated is kept on record as superseded."
    )


def stage_settings_lock(stage: Stage) -> str | None:
    """Why ``stage``'s settings (stipulation and its parameters, map, qualifiers, seating,
    score thresholds: all its form edits) cannot change now, or ``None`` when they can:
    they are fixed once the stage is closed. :func:`save_stage` asks it of the stage as
    read under its row lock."""
    if stage.status == StageStatus.OPEN:
        return None
    closed = _(
        "Stage %(stage)d is closed: its sessions were played, and its honours, score "
        "bonuses and qualifiers awarded, under these settings, so its stipulation, map, "
        "qualifiers, seating and score thresholds can no longer change."
    ) % {"stage": stage.number}
    return f"{closed} {reopen_advice(stage)}"


@dataclass(frozen=True)
class StageSaved:
    """What :func:`save_stage` did beyond the stage itself: ``kept`` lists the numbers of
    the sessions that already have a result and so keep the stipulation and map they were
    played with (the stage's old ones, or no map: ``Session.without_map``) instead of
    following the new ones."""

    kept: tuple[int, ...] = ()


def save_stage(
    stage: Stage, thresholds: Sequence[int], *, actor, expected_version: str | None = None
) -> StageSaved | None:
    """Save ``stage``, new or changed (stipulation, map, qualifiers, seating), and replace
    its score thresholds with ``thresholds``. A stored stage whose settings and thresholds
    are already these is left alone (nothing written, nothing in the activity log): None.
    A new map is also the map of the stage's sessions that played its old one (a session
    given a map of its own keeps it), and a new stipulation that of the sessions without
    one of their own (the copy seating made of the stage's old one is none:
    :func:`_release_seated_copies`), except the sessions with a result: they keep the stage's old
    stipulation and map as their own (:func:`_keep_played_settings`). Raises StaleEditError
    when the stage's settings changed since its form was loaded at ``expected_version``
    (:func:`~tournaments.queries.edit_versions.stage_version`), and
    :class:`StageSettingsError` for a change to a closed stage (:func:`stage_settings_lock`),
    whose stored settings are then left as they were."""
    kept: tuple[int, ...] = ()
    with transaction.atomic():
        stored = Stage.objects.select_for_update().filter(pk=stage.pk).first()
        if stored is not None:
            version = stage_version(stored)
            check_unchanged(expected_version, version)
            if stage_version(stage, thresholds) == version:
                return None
            reason = stage_settings_lock(stored)
            if reason is not None:
                raise StageSettingsError(reason)
            # Only the form's fields are the caller's: the close's own (status, qualifiers,
            # closed_at) stay as stored, should the instance be older than a close.
            stage.status, stage.qualifiers = stored.status, stored.qualifiers
            stage.closed_at = stored.closed_at
            stipulation_changes = _stipulation_changes(stored, stage)
            kept = _keep_played_settings(stored, stage, stipulation_changes)
            if stipulation_changes:
                _release_seated_copies(stored)
        old_map = stored.map_name if stored is not None else None
        stage.kind = _seated_kind(stage)
        stage.save()
        if old_map is not None and old_map != stage.map_name:
            Session.objects.filter(stage=stage, map_name=old_map).exclude(
                result__versions__isnull=False
            ).update(map_name=stage.map_name)
        stage.thresholds.all().delete()
        for points in thresholds:
            stage.thresholds.create(points=points)
        details = {"kept_sessions": list(kept)} if kept else {}
        log_activity(
            stage.tournament,
            ActivityVerb.UPDATED,
            describe("stage", stage=stage),
            actor=actor,
            **details,
        )
    return StageSaved(kept=kept)


def _seated_kind(stage: Stage) -> str:
    """The kind of ``stage`` under its qualifier count (the organiser's, else the standard
    rule's) once it is seated: a stage whose qualifiers no longer fill one session is no
    semifinal, and one whose qualifiers now do is (RULES §2). Unseated, or with a count the
    close would refuse anyway, it keeps its kind."""
    if stage.pk is None:
        return stage.kind
    sizes = list(
        Session.objects.filter(stage=stage)
        .annotate(players=Count("seats"))
        .values_list("players", flat=True)
    )
    if not sizes:
        return stage.kind
    if len(sizes) == 1:
        return stage_kind(sizes, None)
    try:
        count = qualifier_count(stage, len(sizes), sum(sizes))
    except CutError:
        return stage.kind
    return stage_kind(sizes, count, first=stage.number == 1)


def _stipulation_changes(stored: Stage, stage: Stage) -> bool:
    """Whether ``stage`` (the edited stored stage) changes the stipulation ``stored`` had."""
    return bool(stored.stipulation_kind) and [
        stored.stipulation_kind,
        stage_stipulation_params(stored),
    ] != [stage.stipulation_kind, stage_stipulation_params(stage) if stage.stipulation_kind else {}]


def _release_seated_copies(stored: Stage) -> None:
    """Let the stage's sessions without a result that were seated with its stipulation play
    the stage's again, so its new one reaches them: seating copies the stage's stipulation
    onto each session (``stage_advance``), and a copy still equal to the stage's old one is
    that copy, not a choice of the session's own (decision 54), so it goes. A session given
    another stipulation keeps it; one with a result kept its own already
    (:func:`_keep_played_settings`)."""
    old_params = stage_stipulation_params(stored)
    copies = (
        Stipulation.objects.filter(session__stage=stored, kind=stored.stipulation_kind)
        .exclude(session__result__versions__isnull=False)
        .values_list("pk", "params")
    )
    Stipulation.objects.filter(
        pk__in=[pk for pk, params in copies if params == old_params]
    ).delete()


def _keep_played_settings(
    stored: Stage, stage: Stage, stipulation_changes: bool
) -> tuple[int, ...]:
    """Give each session of ``stored`` that has a result (any version) and plays the
    stage's stipulation or map the one it was played with as its own, when ``stage`` (the
    edited stored stage) changes it: its ranking was computed with that stipulation's
    winner rule and its result checked against that map (stored decision 11, decision 49),
    and its public page shows them. A session played without a map (the stage had none)
    keeps none: it is marked ``without_map``, since a blank map is the stage's. The numbers
    of the sessions kept."""
    map_changes = stored.map_name != stage.map_name
    if not (stipulation_changes or map_changes):
        return ()
    old_params = stage_stipulation_params(stored)
    played = (
        Session.objects.filter(stage=stored, result__versions__isnull=False)
        .select_related("stipulation")
        .distinct()
        .order_by("number")
    )
    kept = []
    for session in played:
        keeps_stipulation = stipulation_changes and getattr(session, "stipulation", None) is None
        if keeps_stipulation:
            Stipulation.objects.create(
                session=session, kind=stored.stipulation_kind, params=deepcopy(old_params)
            )
        # A blank map is the stage's; the one the stage had is the stage's until it changes
        # (save_stage leaves played sessions out of its update). Played on none, it keeps
        # none (a blank map would follow the stage's new one).
        keeps_map = (
            map_changes and not session.without_map and session.map_name in ("", stored.map_name)
        )
        if keeps_map and not stored.map_name:
            Session.objects.filter(pk=session.pk).update(without_map=True)
        elif keeps_map and not session.map_name:
            Session.objects.filter(pk=session.pk).update(map_name=stored.map_name)
        if keeps_stipulation or keeps_map:
            kept.append(session.number)
    return tuple(kept)


def install_catalogue(tournament: Tournament, catalogue: Catalogue = DEFAULT_CATALOGUE) -> None:
    """Create the catalogue's squads, weapons and chapter cards the tournament lacks.

    Existing rows (possibly edited by the organiser) are left as they are.
    """
    have = set(tournament.squads.values_list("slug", flat=True))
    Squad.objects.bulk_create(
        Squad(
            tournament=tournament,
            slug=spec.slug,
            name_en=spec.name_en,
            name_it=spec.name_it,
            colour=spec.colour,
            order=order,
        )
        for order, spec in enumerate(catalogue.squads)
        if spec.slug not in have
    )
    have = set(tournament.weapons.values_list("slug", flat=True))
    Weapon.objects.bulk_create(
        Weapon(
            tournament=tournament,
            slug=spec.slug,
            name_en=spec.name_en,
            name_it=spec.name_it,
            weapon_class=spec.weapon_class.value,
            colour_restricted=bool(spec.colours),
        )
        for spec in catalogue.weapons
        if spec.slug not in have
    )
    squads = {squad.slug: squad for squad in tournament.squads.all()}
    have_cards = set(
        ChapterCard.objects.filter(squad__tournament=tournament).values_list("squad__slug", "slug")
    )
    ChapterCard.objects.bulk_create(
        ChapterCard(
            squad=squads[spec.squad],
            slug=spec.slug,
            name_en=spec.name_en,
            name_it=spec.name_it,
            kind=spec.kind.value,
            use=spec.use.value,
            effect_code=spec.effect_code,
            effect_en=spec.effect_en,
            effect_it=spec.effect_it,
            source=spec.source,
            confidence=spec.confidence.value,
            order=order,
        )
        for order, spec in enumerate(catalogue.cards)
        if spec.squad in squads and (spec.squad, spec.slug) not in have_cards
    )
    # bulk_create sends no save signals.
    generations.mark_changed(value=tournament.pk)
