"""What the JSON reader and the JSON Schema validator find wrong in a document, said in the
reader's language with what to write instead.

Both libraries word their findings in English (``Expecting ',' delimiter``, ``'green' is not
one of ['blue', 'red', 'yellow']``) and say what is wrong, not what is allowed. The kinds
a tournament document meets are worded here from the finding's parts (the keyword, the
schema's value and the value found); any other keeps the library's words.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from json import JSONDecodeError
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from jsonschema import ValidationError

from tournaments.domain.json_syntax import syntax_reason

#: Longer values are shown cut, so a message about a whole object stays one line.
SHOWN_LENGTH = 60


def syntax_message(error: JSONDecodeError) -> str:
    """Where the JSON text breaks, why, and how to find the place."""
    if not error.doc.strip():
        return _("the file is empty; choose the tournament document (.json) BoB exported")
    return _(
        "the file is not valid JSON at line %(line)d, column %(column)d: %(reason)s. A text "
        "editor shows that place (so does a JSON validator); a file BoB exported and nobody "
        "edited always reads"
    ) % {"line": error.lineno, "column": error.colno, "reason": syntax_reason(error.msg)}


def schema_message(error: ValidationError) -> str:
    """A JSON Schema violation in the active language, saying what is allowed."""
    # The schema's value for the keyword (typed loosely by the library) and the value found.
    allowed: Any = error.validator_value
    kind, value = error.validator, error.instance
    shown = shown_value(value)
    if kind == "type":
        return type_message(value, [allowed] if isinstance(allowed, str) else list(allowed))
    if kind == "required" and isinstance(value, dict):
        missing = [name for name in allowed if name not in value]
        return ngettext(
            'the field %(fields)s is missing; add it (null, "", [] or {} say "nothing")',
            'the fields %(fields)s are missing; add them (null, "", [] or {} say "nothing")',
            len(missing),
        ) % {"fields": _names(missing)}
    if kind == "additionalProperties" and isinstance(value, dict):
        where: Any = error.schema
        known = list(where.get("properties", {}))
        extra = [name for name in value if name not in known]
        return ngettext(
            "unknown field %(fields)s; remove it (the fields here: %(known)s)",
            "unknown fields %(fields)s; remove them (the fields here: %(known)s)",
            len(extra),
        ) % {"fields": _names(extra), "known": ", ".join(known) or "–"}
    if kind == "enum":
        return _("%(value)s is not allowed here; use one of %(allowed)s") % {
            "value": shown,
            "allowed": ", ".join(shown_value(item) for item in allowed),
        }
    if kind == "const":
        return _("this must be %(expected)s, not %(value)s") % {
            "expected": shown_value(allowed),
            "value": shown,
        }
    if kind == "pattern":
        return _("%(value)s does not have the form needed here: %(form)s") % {
            "value": shown,
            "form": _pattern_form(allowed),
        }
    if kind == "minimum":
        return _("%(value)s is too small; use a number from %(limit)s up") % {
            "value": shown,
            "limit": allowed,
        }
    if kind == "maximum":
        return _("%(value)s is too large; use a number up to %(limit)s") % {
            "value": shown,
            "limit": allowed,
        }
    if kind == "minLength":
        if allowed == 1:
            return _("this text must not be empty")
        return ngettext(
            "%(value)s is too short; write at least %(count)d character",
            "%(value)s is too short; write at least %(count)d characters",
            allowed,
        ) % {"value": shown, "count": allowed}
    if kind == "maxLength" and isinstance(value, str):
        return ngettext(
            "this text has %(length)d characters; shorten it to at most %(count)d character",
            "this text has %(length)d characters; shorten it to at most %(count)d characters",
            allowed,
        ) % {"length": len(value), "count": allowed}
    if kind == "minItems":
        return ngettext(
            "this list needs at least %(count)d entry",
            "this list needs at least %(count)d entries",
            allowed,
        ) % {"count": allowed}
    if kind == "maxItems":
        return ngettext(
            "this list holds at most %(count)d entry; remove the others",
            "this list holds at most %(count)d entries; remove the others",
            allowed,
        ) % {"count": allowed}
    if kind == "format":
        return _format_message(allowed, shown)
    if kind == "uniqueItems":
        return _("this list holds an entry twice; keep each once")
    return error.message


def type_message(value: Any, types: Iterable[str]) -> str:
    """``value`` is of none of the JSON ``types`` (names such as ``"object"``)."""
    wanted = set(types)
    names = [_type_name(name) for name in _TYPE_ORDER if name in wanted]
    names += [name for name in sorted(wanted) if name not in _TYPE_ORDER]
    expected = (
        names[0]
        if len(names) == 1
        else _("%(some)s or %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}
    )
    return _("%(value)s is not %(expected)s; write %(expected)s here") % {
        "value": shown_value(value),
        "expected": expected,
    }


#: JSON types in the order a message names them ("an object {…} or null").
_TYPE_ORDER = ("object", "array", "string", "integer", "number", "boolean", "null")


def _type_name(name: str) -> str:
    if name == "string":
        return _("a text in double quotes")
    if name == "integer":
        return _("a whole number")
    if name == "number":
        return _("a number")
    if name == "boolean":
        return _("true or false")
    if name == "object":
        return _("an object {…}")
    if name == "array":
        return _("a list […]")
    if name == "null":
        return _("null")
    return name


def _pattern_form(pattern: str) -> str:
    """What the schema's regular expressions allow, in words (the expression itself for
    one not known here)."""
    if pattern in ("^[-A-Za-z0-9_]{1,40}$",):
        return _("1 to 40 letters, digits, - and _")
    if pattern in ("^[-a-zA-Z0-9_]+$", "^[-a-zA-Z0-9_]*$"):
        return _("letters, digits, - and _ only")
    if pattern == "^[a-z0-9_]{0,40}$":
        return _("at most 40 small letters, digits and _")
    if pattern == "^[a-z0-9][a-z0-9_-]*$":
        return _("small letters, digits, - and _, starting with a letter or a digit")
    if pattern == r"^[\w.@+-]{1,150}$":
        return _("a username: up to 150 letters, digits and @ . + - _")
    if pattern in ("^[0-9]+$", "^[0-9]{1,40}$"):
        return _("digits only")
    if pattern == "^[0-9]{0,40}$":
        return _("at most 40 digits, or empty")
    if pattern == "^[0-9a-f]{64}$":
        return _("64 hexadecimal digits (0-9, a-f)")
    if pattern == "^([0-9a-f]{64})?$":
        return _("64 hexadecimal digits (0-9, a-f), or empty")
    if pattern == r"\S":
        return _("something other than spaces")
    return _("the regular expression %(pattern)s") % {"pattern": pattern}


def _format_message(format_name: str, shown: str) -> str:
    if format_name == "date":
        return _("%(value)s is not a date; write it like 2025-03-01") % {"value": shown}
    if format_name == "date-time":
        return _("%(value)s is not a date and time; write it like 2025-03-01T15:30:00Z") % {
            "value": shown
        }
    if format_name == "uuid":
        return _("%(value)s is not a UUID; write one like 123e4567-e89b-12d3-a456-426614174000") % {
            "value": shown
        }
    return _("%(value)s is not a valid %(format)s") % {"value": shown, "format": format_name}


def _names(names: Iterable[str]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def shown_value(value: Any) -> str:
    """``value`` as JSON, cut when long (an object or a list shows only its brackets)."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= SHOWN_LENGTH:
        return text
    if isinstance(value, dict):
        return "{…}"
    if isinstance(value, list):
        return "[…]"
    return text[: SHOWN_LENGTH - 1] + "…"
