"""The language the engine's texts are given in: the active Django language when the engine
narrates in it (Italian or English), else English."""

from __future__ import annotations

from django.utils.translation import get_language

from rules.engine.narration import LANGUAGES


def narration_language() -> str:
    """The active Django language if the engine narrates in it, else English."""
    language = (get_language() or "en").split("-")[0]
    return language if language in LANGUAGES else "en"
