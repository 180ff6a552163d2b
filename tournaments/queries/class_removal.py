"""The sessions a change of the house rules would leave naming a Dreadnought class the
tournament no longer has (decision 77): a class the house rules added, then take away.

A session without a result is only warned of (its stipulation can still be given another
class); one with a result is what the save must refuse, since its stipulation is locked
and its result's piloted Dreadnought could no longer be checked or corrected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from rules.engine.catalogue_classes import catalogue_rules_data
from rules.engine.units import RulesDataError
from tournaments.domain.house_rules import OverrideProblem
from tournaments.models import ResultVersion, Session, Tournament
from tournaments.queries.schedule_clashes import session_label
from tournaments.queries.session_stipulation import stipulation_params
from tournaments.queries.tournament_catalogue import catalogue_weapon_classes


@dataclass(frozen=True)
class ClassUse:
    """A session playing a stipulation (its own, else its stage's) whose Dreadnought is of
    the class ``key``; ``has_result``: a result version of it is saved."""

    key: str
    session: Session
    has_result: bool

    @property
    def label(self) -> str:
        """ "Semifinal, session 2"."""
        return session_label(self.session)


def removed_classes(tournament: Tournament, overrides: Mapping[str, Any]) -> list[str]:
    """The Dreadnought classes ``tournament`` plays now that its rules data would lack with
    the house rules ``overrides`` (none when either does not read: the new ones are refused
    for that, and the present ones have no class to compare)."""
    classes = catalogue_weapon_classes(tournament)
    try:
        before = catalogue_rules_data(tournament.data_overrides, classes).dreadnought_classes
        after = catalogue_rules_data(overrides, classes).dreadnought_classes
    except RulesDataError:
        return []
    return [key for key in before if key not in after]


def sessions_naming(tournament: Tournament, keys: list[str]) -> list[ClassUse]:
    """The tournament's sessions (superseded ones aside) whose stipulation names one of the
    Dreadnought classes ``keys``, in stage and session order. One query."""
    if not keys:
        return []
    sessions = (
        Session.objects.filter(stage__tournament=tournament)
        .select_related("stage", "stipulation")
        .annotate(has_result=Exists(ResultVersion.objects.filter(result__session=OuterRef("pk"))))
        .order_by("stage__number", "number")
    )
    uses = []
    for session in sessions:
        key = stipulation_params(session).get("dreadnought_class")
        if key in keys:
            uses.append(ClassUse(key, session, session.has_result))
    return uses


def removal_problems(uses: list[ClassUse]) -> list[OverrideProblem]:
    """What refuses house rules removing a class sessions with a result name: each class
    at its place, naming them."""
    by_class: dict[str, list[str]] = {}
    for use in uses:
        if use.has_result:
            by_class.setdefault(use.key, []).append(use.label)
    return [
        (
            ("dreadnought_classes", key),
            _(
                "the Dreadnought class “%(key)s” is named by sessions that already have a "
                "result (%(sessions)s): their results were checked against it and can only "
                "be corrected with it, so it stays; keep it in the house rules"
            )
            % {"key": key, "sessions": "; ".join(labels)},
        )
        for key, labels in by_class.items()
    ]


def removal_warnings(uses: list[ClassUse]) -> list[str]:
    """What the organiser confirms before removing a class sessions without a result name."""
    by_class: dict[str, list[str]] = {}
    for use in uses:
        if not use.has_result:
            by_class.setdefault(use.key, []).append(use.label)
    return [
        _(
            "These house rules remove the Dreadnought class “%(key)s”, which these sessions "
            "name: %(sessions)s. No game of them can be set up, and their stipulation's next "
            "save is refused, until the organiser chooses another class for them."
        )
        % {"key": key, "sessions": "; ".join(labels)}
        for key, labels in by_class.items()
    ]
