"""Labels the app itself writes into stored results, kept as a language-free code.

A result's breakdown is saved once and read in any language, so an objective label the app
fills in (a flag brought home on the board, an unlabelled objective row) is stored as its
code, the English source text of its message, and translated only when shown. A label the
judge typed is stored and shown as typed (stored tournament decision 31).
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

#: The code of the objective a marine scores by bringing a flag home (RULES §7).
FLAG_BROUGHT_HOME = "Flag brought home"
#: The code of an objective row the judge left without a label.
OBJECTIVE = "Objective"

_OBJECTIVE_LABELS: dict[str, Promise] = {
    FLAG_BROUGHT_HOME: gettext_lazy("Flag brought home"),
    OBJECTIVE: gettext_lazy("Objective"),
}


def _known_texts() -> dict[str, str]:
    """Each known label's text in every language of the site, mapped to its code."""
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


#: The reason code of a version that confirms the version before it, given no reason.
CONFIRMED_PREVIOUS = "confirmed_previous"
#: The source text of that reason; ``number`` is the confirmed version's number.
CONFIRMED_PREVIOUS_TEXT = "Confirmed version %(number)d."


def version_reason(code: str, reason: str, number: int) -> str:
    """The reason of result version ``number`` in the reader's language: the text of its
    reason ``code`` when it has one, else the ``reason`` a person typed, as typed."""
    if code == CONFIRMED_PREVIOUS:
        return gettext("Confirmed version %(number)d.") % {"number": number - 1}
    return reason


def version_reason_code(reason: str, number: int) -> str:
    """The reason code of a stored ``reason`` of version ``number`` written by the app in
    any language of the site (an imported or older version); empty for a typed reason."""
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            if reason.strip() == version_reason(CONFIRMED_PREVIOUS, "", number):
                return CONFIRMED_PREVIOUS
    return ""
