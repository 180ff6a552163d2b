"""App dice with a published commitment, or a judge's physical dice, chosen on a form.

For app dice the seed is fixed when the page is shown so its SHA-256 can be displayed before
anyone presses the button; the seed itself is stored with the rolls afterwards (RULES §14).
The rolls that decide the bracket (seating a stage, its cut, a session's ranking ties) have
their seed announced in the database, so the tournament's public Dice page shows the hash
before the roll (:mod:`tournaments.actions.seed_announcements`); other seeds are kept in the
browser's server-side session.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from rules.engine.dice import Dice, SeededDice, new_seed
from tournaments.actions.seed_announcements import announce_seed, close_announcement
from tournaments.domain.typed_dice import TypedDice
from tournaments.forms.judge import PHYSICAL, DiceForm
from tournaments.models import Session, Tournament

SEED_KEY = "bob-seed-{kind}-{pk}-{purpose}"


def _key(subject, purpose: str) -> str:
    return SEED_KEY.format(kind=type(subject).__name__.lower(), pk=subject.pk, purpose=purpose)


#: The session purposes whose seed is announced publicly: ties on a session's ranking.
PUBLIC_SESSION_PURPOSES = ("ranking",)


def _announced(subject, purpose: str) -> tuple[Tournament, Session | None] | None:
    """Where the seed of ``purpose`` on ``subject`` is announced, or None when it is not."""
    if isinstance(subject, Tournament):
        return subject, None
    if isinstance(subject, Session) and purpose in PUBLIC_SESSION_PURPOSES:
        return subject.stage.tournament, subject
    return None


def pending_seed(request: HttpRequest, subject, purpose: str) -> int:
    """The seed the app will roll with for ``purpose`` on ``subject`` (session, tournament)."""
    public = _announced(subject, purpose)
    if public is not None:
        return int(announce_seed(public[0], purpose, public[1]).seed)
    key = _key(subject, purpose)
    if key not in request.session:
        request.session[key] = str(new_seed())
    return int(request.session[key])


def forget_seed(request: HttpRequest, subject, purpose: str) -> None:
    public = _announced(subject, purpose)
    if public is not None:
        close_announcement(public[0], purpose, public[1])
    request.session.pop(_key(subject, purpose), None)


def dice_from_form(
    request: HttpRequest,
    form: DiceForm,
    subject,
    purpose: str,
    players: Mapping[str, str] | None = None,
    squads: Mapping[str, str] | None = None,
) -> Dice:
    """The dice the form asks for; ``players`` names whose die each typed value is
    (:func:`~tournaments.domain.typed_dice.subject_names`) and ``squads`` the squads by slug,
    for the message when one is missing."""
    if form.cleaned_data["mode"] == PHYSICAL:
        return TypedDice(
            values=form.cleaned_data["values"], subjects=players or {}, squads=squads or {}
        )
    return SeededDice(seed=pending_seed(request, subject, purpose))
