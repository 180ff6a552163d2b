"""Every saved or deleted row of a tournament's data bumps the tournament's cache generation
(see :mod:`tournaments.caching.generations`), whoever writes it: a view, a service, a Celery task,
a management command, the admin.

Each model names the foreign key it reaches its tournament through and the matching
``Tournament`` lookup; the tournament is resolved once per transaction, on commit, with a
single query, so a signal costs no query. A deleted row's parent still exists at commit
time except in a cascade, where the deleted parent reports the change itself.
"""

from __future__ import annotations

from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from tournaments.caching import generations
from tournaments.models import (
    ActivityLog,
    ChapterCard,
    DiceRoll,
    Honour,
    Loadout,
    Player,
    Registration,
    Result,
    ResultDispute,
    ResultVersion,
    RoundTimer,
    ScoreBonus,
    ScoreThreshold,
    Seat,
    SeedAnnouncement,
    Session,
    Squad,
    SquadPreference,
    SquadRank,
    Stage,
    Stipulation,
    Tournament,
    TournamentMap,
    Weapon,
)

#: model -> (attribute holding the related key, ``Tournament`` lookups matching it)
TOURNAMENT_PATHS: dict[type[Model], tuple[str, tuple[str, ...]]] = {
    **{
        model: ("tournament_id", ("pk",))
        for model in (
            ActivityLog,
            DiceRoll,
            Honour,
            Registration,
            ResultVersion,
            RoundTimer,
            ScoreBonus,
            SeedAnnouncement,
            SquadPreference,
            SquadRank,
            Squad,
            Stage,
            TournamentMap,
            Weapon,
        )
    },
    ChapterCard: ("squad_id", ("squads",)),
    Session: ("stage_id", ("stages",)),
    ScoreThreshold: ("stage_id", ("stages",)),
    Seat: ("session_id", ("stages__sessions",)),
    Result: ("session_id", ("stages__sessions",)),
    ResultDispute: ("session_id", ("stages__sessions",)),
    Stipulation: ("session_id", ("stages__sessions",)),
    Loadout: ("seat_id", ("stages__sessions__seats",)),
    # A player's name shows in every tournament they entered or sat in.
    Player: ("pk", ("registrations__player", "stages__sessions__seats__player")),
}

#: Saves touching only these fields change nothing any page shows.
PRIVATE_FIELDS: dict[type, frozenset[str]] = {
    Seat: frozenset({"notified_sequence"}),
    Player: frozenset({"access_token"}),
}


def _changed(sender: type, instance, using: str) -> None:
    if sender is Tournament:
        generations.mark_changed(slug=instance.slug, using=using)
        return
    attribute, lookups = TOURNAMENT_PATHS[sender]
    value = getattr(instance, attribute)
    if value is None:
        return
    for lookup in lookups:
        generations.mark_changed(lookup=lookup, value=value, using=using)


def _saved(sender: type, instance, using: str, update_fields=None, **kwargs) -> None:
    private = PRIVATE_FIELDS.get(sender)
    if private and update_fields and set(update_fields) <= private:
        return
    _changed(sender, instance, using)


def _deleted(sender: type, instance, using: str, **kwargs) -> None:
    _changed(sender, instance, using)


def _members_changed(sender, instance, action: str, using: str, reverse: bool, **kwargs) -> None:
    if not action.startswith("post_"):
        return
    if reverse:
        for pk in kwargs.get("pk_set") or ():
            generations.mark_changed(value=pk, using=using)
    else:
        _changed(Tournament, instance, using)


def connect() -> None:
    """Called once from the app config's ``ready()``."""
    models: tuple[type[Model], ...] = (Tournament, *TOURNAMENT_PATHS)
    for model in models:
        uid = f"bob-generation-{model._meta.label_lower}"
        post_save.connect(_saved, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"{uid}-delete")
    for field in ("organisers", "judges", "players"):
        through = getattr(Tournament, field).through
        m2m_changed.connect(
            _members_changed, sender=through, dispatch_uid=f"bob-generation-tournament-{field}"
        )
