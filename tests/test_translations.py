"""Italian and English are both complete: every translatable string has an entry."""

import re
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


#: Words after a number placeholder that are verbs, not counted nouns ("%(n)d is").
VERBS = {"is", "has", "was", "does", "needs", "organises", "appears", "plays", "disputes"}
VERBS |= {
    "begins",
    "ends",
    "starts",
    "goes",
    "moves",
    "takes",
    "gets",
    "wins",
    "marks",
    "mounts",
    "lies",
    "stands",
    "closes",
    "wants",
}

#: Placeholders that number or name something rather than count it ("Round %(round)d").
NOT_COUNTS = {"round", "step", "number", "stage", "session", "position", "seed", "id"}

#: Sentences that count without ngettext, each because its number is never 1.
NEVER_ONE = {
    # more than a squad has, or more than once
    "%(killer)s is recorded killing %(count)d figures of %(victim)s",
    "%(total)d figures of %(victim)s are recorded dead in all",
    "The commander of %(victim)s is recorded dead %(count)d times",
    "all %(figures)d figures of the squad",
    "%(weapon)s is taken %(count)s times",
    # constants: 2 marines, a round of 1 to 600 minutes (the maximum is never 1)
    "to %(max)d minutes",
    "Extended TPK adds exactly %(expected)s marines",
    # more than the limit, more than the header's columns, more than the allowance
    "%(length)d characters, longer than",
    "%(cells)d cells but the header has",
    "%(id)s needs %(steps)d squares to reach",
    # a squad's figures, a map's claws, a stage's players and sessions (3 or more, 2 or more)
    "for %(count)d figures.",
    "has %(claws)d docking claws but the session has %(seats)d seats",
    "%(players)s players in %(sessions)s sessions",
    "Stage %(stage)d has %(players)d players",
    # a name, not a number
    "remove the %(alien)s tokens",
    # stored roll purposes: a tie on the points of whole sessions (never a single point)
    "tie on %(points)d points",
}

COUNTED = re.compile(r"%\((\w+)\)[ds] ([a-z]+s)\b")


def test_sentences_count_with_real_plurals():
    """A number followed by a plural noun needs ngettext / blocktranslate count: "1 players"
    and "problem(s)" are refused unless the number is never 1 (listed above, with why)."""
    catalogue = polib.pofile(str(ROOT / "locale/en/LC_MESSAGES/django.po"))
    wrong = []
    for entry in catalogue:
        if entry.obsolete or entry.msgid_plural:
            continue
        if "(s)" in entry.msgid:
            wrong.append(entry.msgid)
            continue
        counted = [
            m
            for m in COUNTED.finditer(entry.msgid)
            if m.group(2) not in VERBS and m.group(1) not in NOT_COUNTS
        ]
        if counted and not any(allowed in entry.msgid for allowed in NEVER_ONE):
            wrong.append(entry.msgid)
    assert not wrong, f"use ngettext or blocktranslate count for: {wrong}"


def test_sentences_name_things_instead_of_codes():
    """Codes that the engine puts into sentences (units, weapons, Alien policies, dice, card
    kinds, maps) all have a name in both languages, so no slug reaches a sentence."""
    from rules.engine.ai.policies import POLICIES
    from rules.engine.dice import DieKind
    from rules.engine.figure_names import UNIT_NAMES, WEAPON_NAMES
    from rules.engine.maps import bundled_maps, load_map
    from rules.engine.narration import POLICY_NAMES, format_param
    from rules.engine.units import load_rules_data
    from tournaments.domain.typed_dice import DIE_NAMES
    from tournaments.models import CardKind

    rules = load_rules_data()
    for lang in ("it", "en"):
        for policy in POLICIES:
            assert format_param("policy", policy, lang) != policy or policy in POLICY_NAMES
        for unit in rules.alien_tokens:
            assert unit in UNIT_NAMES, f"no name for the alien {unit!r}"
        for name in bundled_maps():
            assert load_map(name).title_in(lang) not in ("", name), f"map {name!r}: no title"
    assert set(POLICY_NAMES) == set(POLICIES)
    assert {"laser_rifle", "bolter"} <= set(WEAPON_NAMES)
    assert set(DIE_NAMES) == set(DieKind)
    assert all(label != value for value, label in CardKind.choices)


#: The names makemessages finds translatable strings by (Django's keywords, and ``_``).
KEYWORDS = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
RENAMED = re.compile(r"^from django\.utils\.translation import (\w+) as (\w+)$", re.M)


def test_translation_functions_keep_names_makemessages_knows():
    """``gettext as _t`` hides every string it marks from makemessages: they stay English on
    the Italian pages while every catalogue looks complete."""
    wrong = [
        f"{path.relative_to(ROOT)}: {function} as {alias}"
        for name in ("bob", "tournaments", "rules", "table", "demo")
        for path in sorted((ROOT / name).rglob("*.py"))
        for function, alias in RENAMED.findall(path.read_text())
        if alias not in KEYWORDS
    ]
    assert not wrong, f"import these under a name makemessages knows: {wrong}"


@pytest.mark.django_db
def test_a_refused_password_is_explained_in_italian():
    """Django 5.2's Italian catalogue misses its reworded length message, which stayed
    English on Italian pages (``bob.password_validation``)."""
    from django.contrib.auth.models import User
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError
    from django.utils import translation

    with translation.override("it"), pytest.raises(ValidationError) as refused:
        validate_password("1234", User(username="marta"))
    assert refused.value.messages[0] == (
        "Questa password è troppo corta: deve avere almeno 8 caratteri."
    )
    assert not any("password is" in message for message in refused.value.messages)
