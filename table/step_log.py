"""The engine's step log shown to the judge in the page's language, with the points the judge
may overrule marked (a doubtful line of sight; a tie the attacked player may reorder)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.naming import current_naming
from rules.engine.narration import MESSAGES, format_param, render
from rules.engine.narration_combat import ATTACKS, EVENTS, FACINGS, combat_text
from rules.engine.narration_dice import purpose_text
from rules.engine.narration_errors import CodedError
from rules.engine.state import StateError
from rules.engine.units import RulesDataError
from tournaments.domain.engine_language import narration_language

#: Criteria meaning "the engine broke a tie; the attacked player may reorder".
REORDERABLE = frozenset({"lowest_id"})


@dataclass(frozen=True)
class LogLine:
    text: str
    code: str
    overrulable: bool


def engine_error_text(error: Exception) -> str:
    """An engine error's message in the page's language (free text as it is)."""
    if isinstance(error, (CodedError, StateError, RulesDataError)):
        return error.text_in(narration_language())
    return str(error)


def is_overrulable(step: Mapping[str, Any]) -> bool:
    if step.get("code") == "doubtful_sight":
        return True
    return step.get("params", {}).get("criterion") in REORDERABLE


def log_lines(steps: Iterable[Mapping[str, Any]], lang: str | None = None) -> list[LogLine]:
    """Stored steps (``{"code", "params"}``) as text lines; unknown codes are skipped."""
    lang = lang or narration_language()
    return [
        LogLine(
            render(step["code"], step.get("params", {}), lang), step["code"], is_overrulable(step)
        )
        for step in steps
        if step.get("code") in MESSAGES
    ]


def _square(value: Any) -> str:
    return current_naming().square_text(value)


def _combat_line(event: Mapping[str, Any], lang: str) -> str | None:
    """A stored combat event (``CombatEvent.as_dict``) in ``lang``; None for an event stored
    before combat events had codes (its English text is shown)."""
    code = event.get("code")
    if code not in ATTACKS and code not in EVENTS:
        return None
    return combat_text(code, event.get("params") or {}, lang)


def event_lines(events: Iterable[Mapping[str, Any]], lang: str | None = None) -> list[str]:
    """Stored engine events as text in the page's language: move events
    (``MoveEvent.to_json``) and combat events (``CombatEvent.as_dict``); combat events stored
    before they had codes keep the engine's English text."""
    lang = lang or narration_language()
    naming = current_naming()
    lines = []
    for event in events:
        kind = event.get("kind")
        figure = naming.figure_name(str(event.get("figure")))
        combat = _combat_line(event, lang)
        if combat is not None:
            lines.append(combat)
        elif kind == "moved":
            path = " → ".join(_square(sq) for sq in event.get("path", []))
            steps = int(event.get("steps", 0))
            lines.append(
                ngettext(
                    "%(figure)s moved %(steps)d square: %(path)s",
                    "%(figure)s moved %(steps)d squares: %(path)s",
                    steps,
                )
                % {"figure": figure, "steps": steps, "path": path}
            )
        elif kind == "turned":
            facing = FACINGS.get(str(event.get("facing")), {}).get(lang, str(event.get("facing")))
            lines.append(
                _("%(figure)s turned to face %(facing)s") % {"figure": figure, "facing": facing}
            )
        elif kind == "door_opened":
            a, b = event.get("between", [[0, 0], [0, 0]])
            lines.append(
                _("%(figure)s opened the door between %(a)s and %(b)s")
                % {"figure": figure, "a": _square(a), "b": _square(b)}
            )
        elif kind == "section_entered":
            lines.append(
                _("%(figure)s entered section %(section)s and stopped on %(square)s")
                % {
                    "figure": figure,
                    "section": event.get("section"),
                    "square": _square(event.get("square")),
                }
            )
        elif kind == "reached_claw":
            lines.append(
                _("%(figure)s reached docking claw %(claw)s: it may leave play")
                % {"figure": figure, "claw": event.get("claw")}
            )
        elif event.get("text"):
            lines.append(str(event["text"]))
    return lines


def dice_lines(rolls: Iterable[Mapping[str, Any]], lang: str | None = None) -> list[str]:
    """Stored rolls (``Roll.as_dict``) as "purpose: kind [values]" in the page's language
    (a purpose code with its params is translated; free text is shown as it is)."""
    lang = lang or narration_language()
    return [
        f"{purpose_text(roll.get('purpose') or '-', roll.get('params'), lang)}: "
        f"{format_param('kind', roll.get('kind'), lang)} "
        f"[{', '.join(str(v) for v in roll.get('values', []))}]"
        for roll in rolls
    ]
