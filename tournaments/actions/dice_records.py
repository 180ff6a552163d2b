"""Persisting the dice service's rolls as :class:`~tournaments.models.DiceRoll` rows.

The pure services roll through a :class:`~rules.engine.dice.Dice` and keep every roll in
``dice.log``; this module stores that log with the tournament/stage/session it belongs to,
the seed and its commitment for app-rolled dice, so every draw can be audited and replayed
(RULES.md §14). Each row keeps its purpose in English and, when it has one, as a code with
params (:mod:`tournaments.domain.roll_purposes`), so the pages show it in the reader's language.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable

from django.db import connection, models

from rules.engine.dice import (
    Dice,
    Roll,
    SeededDice,
    seed_commitment,
)
from tournaments.caching import generations
from tournaments.domain.roll_purposes import coded_purpose
from tournaments.models import DiceRoll, Session, Stage, Tournament


def roll_rows(
    rolls: Iterable[Roll],
    *,
    tournament: Tournament,
    stage: Stage | None = None,
    session: Session | None = None,
    seed: int | None = None,
    batch: uuid.UUID | None = None,
) -> list[DiceRoll]:
    """The unsaved rows of ``rolls`` in order as one batch (for a caller storing several
    batches in one insert; it must mark the tournament changed, as :func:`record_rolls`
    does)."""
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
    return rows


def store_rolls(rows: list[DiceRoll]) -> list[DiceRoll]:
    """Insert ``rows`` (from :func:`roll_rows`): one bulk insert, on PostgreSQL a ``COPY``.

    A random seating of 2,187 players rolls 11,201 dice: Django's bulk insert spent most of
    the stage's start preparing their values one by one. ``COPY`` takes the values as the
    fields give them (``pre_save``: the creation time), JSON as its text; the rows get no
    primary key then (no caller needs one). The caller marks the tournament changed."""
    if connection.vendor != "postgresql" or not rows:
        return DiceRoll.objects.bulk_create(rows)
    meta, quote = DiceRoll._meta, connection.ops.quote_name
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    as_json = [isinstance(field, models.JSONField) for field in fields]
    columns = ", ".join(quote(str(field.column)) for field in fields)
    with connection.cursor() as cursor:
        statement = f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN"
        with cursor.cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(
                    [
                        json.dumps(value) if json_value else value
                        for field, json_value in zip(fields, as_json, strict=True)
                        for value in (field.pre_save(row, True),)
                    ]
                )
    return rows


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
    rows = roll_rows(
        rolls, tournament=tournament, stage=stage, session=session, seed=seed, batch=batch
    )
    created = store_rolls(rows)
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
    return record_rolls(
        dice.log[start:],
        tournament=tournament,
        stage=stage,
        session=session,
        seed=dice_seed(dice),
        batch=batch,
    )


def dice_seed(dice: Dice) -> int | None:
    """The seed to store with the rolls of ``dice`` (none for typed or scripted dice)."""
    return dice.seed if isinstance(dice, SeededDice) else None
