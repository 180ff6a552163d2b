"""A copy of a map's text, to start a new map from: renamed, and titled as a copy in every
language the text has a title in ("Copy of Derelict", "Copia di Relitto").

Each title line is the map's title in one language, and a page shows the line of its own
language: a copy that changed only its ``title:`` line kept the original's ``title.it:``, so
Italian pages listed two maps of one title (QA). The header is the text's lines before its
drawing (docs/maps.md, "Header and legend")."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from rules.engine.board import TRANSLATED_TEXTS

#: The header keys of a map's titles, with the language each is in (``title``: English).
TITLE_KEYS: dict[str, str] = {
    "title": "en",
    **{key: key.split(".", 1)[1] for key in TRANSLATED_TEXTS if key.startswith("title.")},
}


def copy_title(title: str, language: str) -> str:
    """``title`` (in ``language``) as the title of a copy of its map, in that language."""
    with translation.override(language):
        return _("Copy of %(title)s") % {"title": title}


def copied_map_text(text: str, old_name: str, new_name: str) -> str:
    """The map text ``text`` (of the map ``old_name``) as the start of a new map
    ``new_name``: its ``name:`` line says ``new_name`` and each title line is
    :func:`copy_title` of itself; a text without an English title gets one, "Copy of
    <old_name>". Every other line is kept as it is."""
    lines = text.splitlines(keepends=True)
    header_end = next(
        (index for index, line in enumerate(lines) if line.startswith("+")), len(lines)
    )
    named = titled = False
    for index in range(header_end):
        key, colon, value = lines[index].partition(":")
        key = key.strip()
        if not colon or lines[index].lstrip().startswith("#"):
            continue
        ending = lines[index][len(lines[index].rstrip("\r\n")) :]
        if key == "name":
            lines[index] = f"name: {new_name}{ending}"
            named = True
        elif key in TITLE_KEYS and (value.strip() or key == "title"):
            title = value.strip() or old_name
            lines[index] = f"{key}: {copy_title(title, TITLE_KEYS[key])}{ending}"
            titled = titled or key == "title"
    added = [] if named else [f"name: {new_name}\n"]
    if not titled:
        added.append(f"title: {copy_title(old_name, TITLE_KEYS['title'])}\n")
    return "".join(added + lines)
