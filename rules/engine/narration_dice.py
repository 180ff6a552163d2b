"""What each die was rolled for, translatable without Django.

The engine records a roll's purpose as a *code* plus JSON-ready *params*
(:class:`rules.engine.dice.Roll`), never as a sentence, so the dice list of an Alien turn
reads in Italian at the table and in English in a bug report. Params follow the naming
rules of :mod:`rules.engine.narration` (``weapon`` is a weapon key, ``square``/``a``/``b``
are squares, ``direction`` a step such as ``[1, 0]``; figure ids are shown as they are).

A purpose that is not a code here (the tournament draws, logs stored before the codes) is
free text and is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.narration import LANGUAGES, render_template
from rules.engine.narration_purposes import PURPOSES


def purpose_text(purpose: str, params: Mapping[str, Any] | None, lang: str) -> str:
    """A roll's purpose in ``lang``; free text (not a code) comes back as it is."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available: use one of {', '.join(LANGUAGES)}")
    entry = PURPOSES.get(purpose)
    if entry is None:
        return purpose
    return render_template(entry[lang], params or {}, lang)
