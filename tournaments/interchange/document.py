"""The versioned tournament document: its identity, its JSON Schema and its text form.

A document is plain JSON data (dicts, lists, strings, numbers). It names things by natural
keys -- slugs, stage and session numbers, usernames and player ids local to the document --
never by database primary keys, so it can be loaded into any BoB database.
``docs/interchange.md`` describes every field.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator

from .problems import Problem, json_path

FORMAT = "bob-tournament"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("tournament.schema.json")


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the current format version."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)


def dumps(document: dict[str, Any]) -> str:
    """The canonical text of a document: sorted keys, two-space indent, final newline.

    Equal documents always give identical text, which makes round trips comparable byte
    for byte and exports diffable.
    """
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def version_problems(document: Any) -> list[Problem]:
    """Is this a BoB tournament document of a version this BoB reads?

    Checked before the schema, because a document of another version would otherwise drown
    the one useful message in schema errors.
    """
    if not isinstance(document, dict):
        return [Problem("$", _("the document must be a JSON object ({...}); this is not one"))]
    if document.get("format") != FORMAT:
        return [
            Problem(
                "$.format",
                _('this is not a BoB tournament document: "format" must be "%(format)s"')
                % {"format": FORMAT},
            )
        ]
    version = document.get("format_version")
    if version != FORMAT_VERSION:
        return [
            Problem(
                "$.format_version",
                _(
                    "format version %(found)s is not supported; this BoB reads version "
                    "%(supported)d (export the tournament again from a matching BoB)"
                )
                % {"found": json.dumps(version), "supported": FORMAT_VERSION},
            )
        ]
    return []


def schema_problems(document: Any) -> list[Problem]:
    """Every JSON Schema violation, in document order."""
    errors = sorted(
        _validator().iter_errors(document),
        key=lambda error: ([_sort_key(part) for part in error.absolute_path], error.message),
    )
    return [Problem(json_path(error.absolute_path), error.message) for error in errors]


def _sort_key(part: str | int) -> tuple[int, int, str]:
    return (0, part, "") if isinstance(part, int) else (1, 0, part)
