"""A document's house rules (``tournament.data_overrides``) are checked as the app reads
them: an import refuses every wrong one by its path, instead of leaving a tournament whose
catalogue cannot save and whose judge cannot start a game."""

from __future__ import annotations

import copy
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from rules.engine.units import load_rules_data
from tournaments.domain.house_rules import engine_path, override_problems
from tournaments.interchange.document import dumps
from tournaments.interchange.importer import check_document, import_document
from tournaments.interchange.problems import InterchangeError
from tournaments.models import Tournament

QA_OVERRIDES = {"units": {"ork": {"armor": 1}}, "alien_tokens": {"ork": -5}}
BASE = "$.tournament.data_overrides"


def with_overrides(document: dict, overrides: dict) -> dict:
    doc = copy.deepcopy(document)
    doc["tournament"]["slug"] = "house-rules"
    doc["tournament"]["data_overrides"] = overrides
    return doc


def found(document: dict) -> dict[str, str]:
    return {
        problem.path: problem.message
        for problem in check_document(document)
        if problem.path.startswith(BASE)
    }


def test_the_qa_overrides_are_refused_each_at_its_path(document):
    doc = with_overrides(document, QA_OVERRIDES)
    problems = found(doc)
    assert set(problems) == {f"{BASE}.units.ork.armor", f"{BASE}.alien_tokens.ork"}
    assert problems[f"{BASE}.units.ork.armor"].startswith(
        "unknown key; known keys here: armour, hand_to_hand,"
    )
    assert problems[f"{BASE}.alien_tokens.ork"] == (
        "must be at least 0, got -5; correct this house rule, or remove it to play with "
        "BoB's own value"
    )
    with pytest.raises(InterchangeError):
        import_document(doc)
    assert not Tournament.objects.filter(slug="house-rules").exists()


def test_the_engine_part_of_the_message_is_in_the_readers_language(document):
    with translation.override("it"):
        problems = found(with_overrides(document, QA_OVERRIDES))
    assert problems[f"{BASE}.units.ork.armor"].startswith("chiave sconosciuta; chiavi note qui:")
    assert problems[f"{BASE}.alien_tokens.ork"].startswith("deve essere almeno 0, trovato -5")


def test_every_problem_is_named_not_only_the_first(document):
    overrides = {
        "units": {"ork": {"armor": 1, "movement": "fast", "armour": 3}},
        "alien_tokens": {"ork": -5, "android": 4, "gretchin": "two"},
        "bogus": True,
        "scoring": {"heavy": "ten", "sniper": 5, "light": 6},
        "events": {"no-such-card": {}, "report": {"name": 3}},
    }
    problems = found(with_overrides(document, overrides))
    assert set(problems) == {
        f"{BASE}.units.ork.armor",
        f"{BASE}.units.ork.movement",
        f"{BASE}.alien_tokens.ork",
        f"{BASE}.alien_tokens.gretchin",
        f"{BASE}.bogus",
        f"{BASE}.scoring.heavy",
        f"{BASE}.scoring.sniper",
        f"{BASE}.events['no-such-card']",
        f"{BASE}.events.report.name",
    }
    assert "whole number" in problems[f"{BASE}.units.ork.movement"]
    assert problems[f"{BASE}.scoring.sniper"].startswith("unknown point value; use one of light,")
    assert problems[f"{BASE}.scoring.heavy"] == (
        'points must be a whole number from 0 up, not "ten"'
    )
    assert (
        "no alien event card with this id; use one of report,"
        in (problems[f"{BASE}.events['no-such-card']"])
    )
    assert "expected {'it': text, 'en': text}, got 3" in problems[f"{BASE}.events.report.name"]


def test_valid_house_rules_import_and_the_app_reads_them(document):
    overrides = {
        "units": {"ork": {"armour": 3}},
        "alien_tokens": {"ork": 7},
        "scoring": {"heavy": 12},
        "events": {"report": {"name": {"it": "Rapporto", "en": "Report"}}},
    }
    assert override_problems(overrides) == []
    imported = import_document(with_overrides(document, overrides)).tournament
    rules = load_rules_data(imported.data_overrides)
    assert rules.alien_tokens["ork"] == 7 and rules.unit("ork").armour == 3


def test_a_unit_that_needs_a_new_weapon_is_read_with_it():
    """Set aside one part, the rest is still read as a whole: a new weapon the same
    overrides add is known to the unit that carries it."""
    from rules.engine.units import default_tree

    weapon = dict(next(iter(default_tree()["weapons"].values())))
    new_weapon = {field: record["value"] for field, record in weapon.items()}
    overrides = {
        "weapons": {"house-gun": new_weapon},
        "units": {"ork": {"weapons": ["house-gun"], "armor": 2}},
    }
    problems = override_problems(overrides)
    assert [where for where, _message in problems] == [("units", "ork", "armor")]


def test_the_command_line_refuses_them_with_exit_status_2(document, tmp_path):
    path = tmp_path / "house.json"
    path.write_text(dumps(with_overrides(document, QA_OVERRIDES)), encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path), stdout=StringIO(), stderr=err)
    assert error.value.returncode == 2
    assert f"{BASE}.units.ork.armor: unknown key" in err.getvalue()
    assert f"{BASE}.alien_tokens.ork: must be at least 0" in err.getvalue()


def test_engine_paths_become_document_paths():
    assert engine_path("units.ork.weapons[2]") == ("units", "ork", "weapons", 2)
    assert engine_path("templates.lascannon_area[0]") == ("templates", "lascannon_area", 0)


def test_a_missing_value_is_named_once_and_the_rest_still_read():
    """A new alien unit without a token value: nothing to set aside for it, so it is named
    once (the problems found before it stay named)."""
    from rules.engine.units import default_tree

    unit = {field: record["value"] for field, record in default_tree()["units"]["ork"].items()}
    problems = override_problems({"units": {"squig": unit}, "alien_tokens": {"ork": -1}})
    assert [where for where, _message in problems] == [
        ("alien_tokens", "ork"),
        ("alien_tokens", "squig"),
    ]
    assert problems[1][1].startswith("missing; every alien unit needs a token value")
