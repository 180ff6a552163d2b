"""Italian and English are both complete: every translatable string has an entry."""

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["bob", "tournaments", "rules", "table", "demo", "templates", "locale", "manage.py"]


@pytest.fixture(scope="module")
def fresh_catalogues(tmp_path_factory) -> Path:
    """Run makemessages on a copy of the sources, so the real catalogues stay untouched."""
    copy = tmp_path_factory.mktemp("i18n")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, copy / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "it", "-l", "en", "-v", "0"],
        cwd=copy,
        check=True,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "bob.settings"},
    )
    return copy


@pytest.mark.parametrize("lang", ["it", "en"])
def test_catalogue_has_every_string_translated(fresh_catalogues, lang):
    extracted = polib.pofile(str(fresh_catalogues / f"locale/{lang}/LC_MESSAGES/django.po"))
    missing = [
        entry.msgid
        for entry in extracted
        if not entry.obsolete
        and (
            "fuzzy" in entry.flags
            or (entry.msgid_plural and not all(entry.msgstr_plural.values()))
            or (not entry.msgid_plural and not entry.msgstr)
        )
    ]
    assert not missing, (
        f"{len(missing)} strings lack a '{lang}' translation; run "
        f"`python scripts/translations.py update` and translate them: {missing[:10]}"
    )


def test_italian_is_served():
    from django.utils import translation

    with translation.override("it"):
        assert translation.gettext("English") == "Inglese"
