"""Refresh the Italian and English message catalogues.

    python scripts/translations.py update     # makemessages for it and en; English = msgid
    python scripts/translations.py missing    # print untranslated Italian entries as JSON
    python scripts/translations.py apply FILE # merge a JSON {msgid: msgstr} into Italian

Plural entries are keyed by their singular msgid; the JSON value is then a list. Entries
with a context (``pgettext``) are keyed ``"context\u0004msgid"``, as gettext itself does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "{lang}" / "LC_MESSAGES" / "django.po"
IGNORE = [".venv", "tests", "benchmarks", "staticfiles", "test-artifacts", "node_modules"]


def makemessages() -> None:
    args = [sys.executable, "manage.py", "makemessages", "-l", "it", "-l", "en", "--no-obsolete"]
    for pattern in IGNORE:
        args += ["--ignore", pattern]
    subprocess.run(args, cwd=ROOT, check=True)


def fill_english() -> None:
    catalogue = polib.pofile(str(CATALOGUE).format(lang="en"))
    for entry in catalogue:
        if entry.msgid_plural:
            entry.msgstr_plural = {0: entry.msgid, 1: entry.msgid_plural}
        else:
            entry.msgstr = entry.msgid
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    catalogue.save()


def _key(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid


def missing() -> dict[str, str | list[str]]:
    catalogue = polib.pofile(str(CATALOGUE).format(lang="it"))
    out: dict[str, str | list[str]] = {}
    for entry in catalogue:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            if "fuzzy" in entry.flags or not all(entry.msgstr_plural.values()):
                out[_key(entry)] = [entry.msgid, entry.msgid_plural]
        elif "fuzzy" in entry.flags or not entry.msgstr:
            out[_key(entry)] = entry.msgid
    return out


def apply(path: str) -> int:
    translations = json.loads(Path(path).read_text(encoding="utf-8"))
    catalogue = polib.pofile(str(CATALOGUE).format(lang="it"))
    applied = 0
    for entry in catalogue:
        value = translations.get(_key(entry))
        if value is None or entry.obsolete:
            continue
        if entry.msgid_plural:
            singular, plural = value if isinstance(value, list) else (value, value)
            entry.msgstr_plural = {0: singular, 1: plural}
        else:
            entry.msgstr = value
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        applied += 1
    catalogue.save()
    return applied


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "update"
    if command == "update":
        makemessages()
        fill_english()
        print(f"{len(missing())} Italian entries untranslated")
    elif command == "missing":
        print(json.dumps(missing(), ensure_ascii=False, indent=1))
    elif command == "apply" and len(argv) == 3:
        print(f"applied {apply(argv[2])} translations")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
