"""The Alien policies by name (``bob`` is the default)."""

from __future__ import annotations

from rules.engine.ai.bob_policy import BobPolicy
from rules.engine.ai.priority_policy import PriorityPolicy
from rules.engine.ai.solitaire_policy import SolitairePolicy
from rules.engine.ai.turn import Policy

POLICIES: dict[str, type] = {
    "bob": BobPolicy,
    "priority": PriorityPolicy,
    "solitaire": SolitairePolicy,
}


def policy_named(name: str) -> Policy:
    try:
        return POLICIES[name]()
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown Alien policy {name!r}; known policies: {known}") from None
