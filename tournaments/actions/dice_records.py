"""Persisting the dice service's rolls as :class:`~tournaments.models.DiceRoll` rows.

The pure services roll through a :class:`~rules.engine.dice.Dice` and keep every roll in
``dice.log``; this module stores that log with the tournament/stage/session it belongs to,
the seed and its commitment for app-rolled dice, so every draw can be audited and replayed
(RULES.md §14). Each row keeps its purpose in English and, when it has one, as a code with
params (:mod:`tournaments.domain.roll_purposes`), so the pages show it in the reader's language.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.dice import (
    Dice,
    DiceError,
    Roll,
    ScriptedDice,
    SeededDice,
    new_seed,
    seed_commitment,
)
from tournaments.caching import generations
from tournaments.domain.roll_purposes import coded_purpose
from tournaments.domain.typed_dice import TypedDice, parse_typed_dice, subject_names
from tournaments.models import DiceRoll, Player, Session, Stage, Tournament


def make_dice(
    dice_text: str | None = None,
    seed: int | None = None,
    *,
    subjects: Mapping[str, str] | None = None,
) -> Dice:
    """Physical dice typed by a judge (``"3,6,5"``), or app dice from ``seed`` (or a new one).
    ``subjects``: the players' names by the id their rolls record, so that a missing typed
    die names whose it is (:class:`~tournaments.domain.typed_dice.TypedDice`).

    Raises :class:`DiceError` with a clear message on bad input.
    """
    if dice_text is not None and seed is not None:
        raise DiceError(_("give either dice values or a seed, not both"))
    if dice_text is not None:
        values = parse_typed_dice(dice_text)
        if not values:
            raise DiceError(_("no dice values were given; type them like 3,6,5"))
        return TypedDice(values=values, subjects=subjects or {})
    if seed is not None and seed < 0:
        raise DiceError(_("the seed must be a non-negative whole number"))
    return SeededDice(seed=new_seed() if seed is None else seed)


def registered_player_names(tournament: Tournament) -> dict[str, str]:
    """Whose die each typed value is, for a roll-off among the tournament's players."""
    return subject_names(Player.objects.filter(registrations__tournament=tournament))


def check_all_dice_used(dice: Dice) -> None:
    """Refuse typed dice that were not all needed: a sign the judge's list does not match."""
    if isinstance(dice, ScriptedDice) and dice.remaining:
        used = len(dice.values) - dice.remaining
        raise DiceError(
            ngettext(
                "%(extra)d die value was not needed (%(given)d given, %(used)d used); "
                "check the list and remove the extra value",
                "%(extra)d die values were not needed (%(given)d given, %(used)d used); "
                "check the list and remove the extra values",
                dice.remaining,
            )
            % {"extra": dice.remaining, "given": len(dice.values), "used": used}
        )


def record_rolls(
    rolls: Iterable[Roll],
    *,
    tournament: Tournament,
    stage: Stage | None = None,
    session: Session | None = None,
    seed: int | None = None,
    batch: uuid.UUID | None = None,
) -> list[DiceRoll]:
    """Store ``rolls`` in order as one batch; returns the saved rows."""
    batch = batch or uuid.uuid4()
    seed_text = "" if seed is None else str(seed)
    commitment = "" if seed is None else seed_commitment(seed)
    rows = []
    for position, roll in enumerate(rolls):
        code, params = coded_purpose(roll.purpose, roll.params)
        rows.append(
            DiceRoll(
                tournament=tournament,
                stage=stage,
                session=session,
                batch=batch,
                sequence=position,
                purpose=roll.purpose_in("en")[:200],  # free text, or a code made English
                purpose_code=code,
                purpose_params=params,
                kind=roll.kind.value,
                values=list(roll.values),
                subject=(roll.subject or "")[:200],
                source=roll.source,
                seed=seed_text if roll.source == "seeded" else "",
                seed_commitment=commitment if roll.source == "seeded" else "",
            )
        )
    created = DiceRoll.objects.bulk_create(rows)
    if rows:
        # bulk_create sends no save signals.
        generations.mark_changed(value=tournament.pk)
    return created


def record_dice(
    dice: Dice,
    *,
    tournament: Tournament,
    stage: Stage | None = None,
    session: Session | None = None,
    start: int = 0,
    batch: uuid.UUID | None = None,
) -> list[DiceRoll]:
    """Store ``dice.log[start:]`` (the rolls made since ``start``) with the dice's seed."""
    seed = dice.seed if isinstance(dice, SeededDice) else None
    return record_rolls(
        dice.log[start:],
        tournament=tournament,
        stage=stage,
        session=session,
        seed=seed,
        batch=batch,
    )
