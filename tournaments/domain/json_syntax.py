"""Why a JSON text does not read, in the reader's language: the JSON decoder words its
reasons in English (``Expecting ',' delimiter``); the ones people meet when they type or
edit JSON by hand are worded here, saying what to look for. Used by the import of a
tournament document and by the organiser's house rules page."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.engine.json_text import NESTED_TOO_DEEPLY


def syntax_reason(reason: str) -> str:
    """The JSON decoder's reason (English, e.g. ``Expecting value``) in the active language;
    a reason not known here is left out (the place is still given)."""
    if reason.startswith("Expecting property name"):
        return _(
            'a key in double quotes ("name") is expected: look for a comma after the last '
            "entry of an object, or a key in single quotes"
        )
    if reason.startswith("Expecting ':'"):
        return _("a colon (:) is missing between a key and its value")
    if reason.startswith("Expecting ','"):
        return _("a comma (,) is missing between two entries, or a bracket is not closed")
    if reason.startswith("Expecting value"):
        return _(
            "a value is expected: text in double quotes, a number, true, false, null, {…} or "
            "[…]; look for a comma after the last entry of a list"
        )
    if reason.startswith("Unterminated string"):
        return _('a text starts here and never ends: its closing double quote (") is missing')
    if reason.startswith("Invalid control character"):
        return _(
            'a text runs on past the end of its line: its closing double quote (") is '
            "missing, or a line break or a tab is typed in it (write it as \\n or \\t)"
        )
    if reason.startswith("Invalid \\u"):
        return _("\\u must be followed by four hexadecimal digits")
    if reason.startswith("Invalid \\escape"):
        return _("a backslash starts an escape JSON does not have; write \\\\ for a backslash")
    if reason.startswith(NESTED_TOO_DEEPLY):
        return _("lists or objects are nested too deeply here to read (hundreds of levels)")
    if reason.startswith("Extra data"):
        return _("the document ends before this place: the file holds more than one JSON value")
    return _("the text stops reading as JSON")
