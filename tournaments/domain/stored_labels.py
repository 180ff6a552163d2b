"""Objective labels the app itself writes into stored results, kept as language-free codes.

A result's breakdown is saved once and read in any language, so an objective label the app
fills in (a flag brought home on the board, an unlabelled objective row) is stored as its
code, the English source text of its message, and translated only when shown. A label the
judge typed is stored and shown as typed (stored tournament decision 31).
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

#: The code of the objective a marine scores by bringing a flag home (RULES §7).
FLAG_BROUGHT_HOME = "Flag brought home"
#: The code of an objective row the judge left without a label.
OBJECTIVE = "Objective"

_OBJECTIVE_LABELS: dict[str, Promise] = {
    FLAG_BROUGHT_HOME: gettext_lazy("Flag brought home"),
    OBJECTIVE: gettext_lazy("Objective"),
}


@cache
def _known_texts() -> dict[str, str]:
    """Each known label's text in every language of the site, mapped to its code (the
    catalogues do not change while the process runs)."""
    known: dict[str, str] = {}
    for code, message in _OBJECTIVE_LABELS.items():
        known[code] = code
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                known[str(message)] = code
    return known


def objective_label_code(label: str) -> str:
    """What to store for an objective ``label``: a known label, in any language, becomes its
    code; any other text stays as typed."""
    return _known_texts().get(label.strip(), label)


def shown_objective_label(label: str) -> str:
    """The stored objective ``label`` in the reader's language, when it is a known code (or
    a known text stored before codes were kept); a typed label as typed."""
    code = objective_label_code(label)
    message = _OBJECTIVE_LABELS.get(code)
    return str(message) if message is not None else label
