"""A broken file or a schema violation is told in the reader's language, with what to write
instead (the JSON decoder and the schema validator word their findings in English)."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tournaments.interchange.document import schema_problems
from tournaments.interchange.explanations import shown_value
from tournaments.interchange.importer import parse_document
from tournaments.interchange.problems import InterchangeError

#: The decoder's own English words, which must never reach the reader.
DECODER_WORDS = ("Expecting", "Unterminated", "Invalid", "Extra data", "delimiter")


def syntax_problem(text: str) -> str:
    with pytest.raises(InterchangeError) as error:
        parse_document(text)
    (problem,) = error.value.problems
    assert problem.path == "$"
    return problem.message


@pytest.mark.parametrize(
    ("text", "place", "reason"),
    [
        ('{"a": "x', "line 1, column 7", 'its closing double quote (") is missing'),
        ("{not json", "line 1, column 2", 'a key in double quotes ("name") is expected'),
        ('{"a": 1,}', "line 1, column 9", "a comma after the last entry of an object"),
        ('{"a" 1}', "line 1, column 6", "a colon (:) is missing"),
        ('{"a": 1 "b": 2}', "line 1, column 9", "a comma (,) is missing between two entries"),
        ("[1,]", "line 1, column 4", "a value is expected"),
        ('{"a": "\\q"}', "line 1, column 8", "an escape JSON does not have"),
        ('{"a": "\\u12"}', "line 1, column 9", "four hexadecimal digits"),
        ('{"a": "a\tb"}', "line 1, column 9", "a line break or a tab is typed in it"),
        ('{"a": "b\n}', "line 1, column 9", 'its closing double quote (") is missing'),
        ("{}\n{}", "line 2, column 1", "more than one JSON value"),
        ("[" * 2000 + "]" * 2000, "line 1, column 500", "nested too deeply here to read"),
    ],
)
def test_each_kind_of_broken_json_says_where_and_why(text, place, reason):
    message = syntax_problem(text)
    assert message.startswith(f"the file is not valid JSON at {place}: ")
    assert reason in message
    assert "a text editor shows that place".lower() in message.lower()
    assert not any(word in message for word in DECODER_WORDS)


def test_an_empty_file_and_a_byte_order_mark():
    assert syntax_problem("  \n") == (
        "the file is empty; choose the tournament document (.json) BoB exported"
    )
    assert parse_document('\ufeff{"format": "bob-tournament"}') == {"format": "bob-tournament"}


def test_the_qa_file_in_italian_has_no_english_reason(tmp_path):
    """The QA's file: a text never closed at line 188 (page and command line alike)."""
    text = "{\n" + '  "a": 1,\n' * 186 + '  "b": "never closed\n}\n'
    with translation.override("it"):
        message = syntax_problem(text)
    assert "188" in message
    assert not any(word in message for word in DECODER_WORDS)
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    err = StringIO()
    with translation.override("it"), pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path), stdout=StringIO(), stderr=err)
    assert error.value.returncode == 2
    assert "188" in err.getvalue()
    assert not any(word in err.getvalue() for word in DECODER_WORDS)


def found(document) -> dict[str, str]:
    return {problem.path: problem.message for problem in schema_problems(document)}


def test_schema_violations_say_what_is_allowed(document):
    doc = copy.deepcopy(document)
    doc["squads"][0]["colour"] = "green"
    doc["squads"][1]["order"] = -1
    doc["weapons"][0]["colour_restricted"] = "yes"
    doc["tournament"]["name"] = ""
    doc["tournament"]["venue"] = "v" * 201
    doc["players"][0]["id"] = "p 1"
    doc["stages"][0]["sessions"][0]["result"]["versions"] = []
    problems = found(doc)
    assert problems["$.squads[0].colour"] == (
        '"green" is not allowed here; use one of "blue", "red", "yellow"'
    )
    assert problems["$.squads[1].order"] == "-1 is too small; use a number from 0 up"
    assert problems["$.weapons[0].colour_restricted"] == (
        '"yes" is not true or false; write true or false here'
    )
    assert problems["$.tournament.name"] == "this text must not be empty"
    assert problems["$.tournament.venue"] == (
        "this text has 201 characters; shorten it to at most 200 characters"
    )
    assert problems["$.players[0].id"] == (
        '"p 1" does not have the form needed here: 1 to 40 letters, digits, - and _'
    )
    assert problems["$.stages[0].sessions[0].result.versions"] == (
        "this list needs at least 1 entry"
    )
    assert not any("is not one of" in message for message in problems.values())


def test_a_missing_field_and_an_unknown_one_on_one_object_are_both_said(document):
    doc = copy.deepcopy(document)
    del doc["squads"][2]["name_en"]
    del doc["squads"][2]["name_it"]
    doc["squads"][2]["nickname"] = "x"
    messages = [p.message for p in schema_problems(doc) if p.path == "$.squads[2]"]
    assert (
        'the fields "name_en", "name_it" are missing; add them (null, "", [] or {} say "nothing")'
    ) in messages
    assert any(
        m.startswith('unknown field "nickname"; remove it (the fields here: slug,')
        for m in messages
    )
    assert len(messages) == 2  # one finding per missing field, said once


def test_null_or_object_choices_name_both(document):
    doc = copy.deepcopy(document)
    doc["stages"][0]["sessions"][0]["result"] = "done"
    assert found(doc)["$.stages[0].sessions[0].result"] == (
        '"done" is not an object {…} or null; write an object {…} or null here'
    )


def test_long_values_are_cut():
    assert shown_value({"a": "x" * 100}) == "{…}"
    assert shown_value(["x" * 100]) == "[…]"
    assert len(shown_value("x" * 100)) == 60
    assert shown_value(3) == "3"
    assert json.loads(shown_value("città")) == "città"
