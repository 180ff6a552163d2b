"""Test helper: Italian entries for strings the lead has not translated yet.

New strings reach ``locale/it`` only when the lead translates them, so a test that a text
goes through gettext (instead of staying English) adds its own catalogue entries for the
length of the test.
"""

from __future__ import annotations

from django.utils.translation import trans_real


def add_translations(monkeypatch, language: str, entries: dict[str, str]) -> None:
    """Serve ``entries`` (msgid -> text) in ``language`` until the test ends."""
    catalogue = trans_real.translation(language)._catalog._catalogs[0]
    for msgid, text in entries.items():
        monkeypatch.setitem(catalogue, msgid, text)
