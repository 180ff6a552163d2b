"""What a recorded die was rolled for, shown in the reader's language.

A stored roll (:class:`~tournaments.models.DiceRoll`) keeps its purpose three ways: the
English text (``purpose``, as data and for old rows), and a *code* with JSON *params*
(``purpose_code``, ``purpose_params``) that pages render in the active language. Codes
come from two tables:

* the engine's (:mod:`rules.engine.narration_dice`): the engine rolls with a code and
  params, translated without Django;
* the tournament's own, below (squad draw, initiative, the roll-offs of qualifiers,
  seeding and ranking). These rolls go through :mod:`tournaments.domain.initiative` as English
  text, which :func:`tournament_purpose` writes from the same template that is the gettext
  msgid; :func:`coded_purpose` reads the code and params back from that text when the
  roll is stored. A roll-off's re-rolls add ``reroll`` to the params.

A purpose that is neither (free text, rows stored before the codes) is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from rules.engine.narration_dice import PURPOSES as ENGINE_PURPOSES
from rules.engine.narration_dice import purpose_text
from tournaments.domain.engine_language import narration_language

#: The tournament's purpose codes and their English templates (also the msgids).
#: ``%(name)d`` params are whole numbers, ``%(name)s`` params text (a squad slug, or, in
#: rows stored before ``session_ranking_tie``, the session a ranking tie belongs to; the
#: row's session says that now). Most specific first: a text is matched in this order.
TOURNAMENT_PURPOSES: dict[str, str] = {
    "initiative": gettext_noop("initiative"),
    "squad_retention": gettext_noop("squad retention: %(squad)s"),
    "squad_choice": gettext_noop("squad draw, choice %(choice)d: %(squad)s"),
    "squad_leftover": gettext_noop("squad draw, leftover squads"),
    "best_winners_tie": gettext_noop("best winners: tie on %(points)d points"),
    "best_runners_up_tie": gettext_noop("best runners-up: tie on %(points)d points"),
    "best_thirds_tie": gettext_noop("best thirds: tie on %(points)d points"),
    "best_in_position_tie": gettext_noop(
        "best players in position %(position)d: tie on %(points)d points"
    ),
    "seeding_tie": gettext_noop("seeding: tie for seed %(seed)d"),
    "random_seating": gettext_noop("random seating"),
    "session_ranking_tie": gettext_noop("session ranking: tie for position %(position)d"),
    "ranking_tie": gettext_noop("%(ranking)s: tie for position %(position)d"),
}

#: The codes of the squad draw's rolls (RULES §3, §4).
DRAW_PURPOSES = ("squad_retention", "squad_choice", "squad_leftover")

#: A roll-off's re-roll among the tied (:func:`tournaments.domain.initiative._round_purpose`).
REROLL = gettext_noop("%(purpose)s (re-roll %(reroll)d)")

_PLACEHOLDER = re.compile(r"%\((?P<name>\w+)\)(?P<kind>[sd])")


@cache
def _pattern(template: str) -> tuple[re.Pattern[str], frozenset[str]]:
    """A regex matching the texts ``template`` writes, and the names of its number params."""
    parts: list[str] = []
    numbers: set[str] = set()
    end = 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[end : match.start()]))
        name = match["name"]
        if match["kind"] == "d":
            numbers.add(name)
            parts.append(rf"(?P<{name}>-?\d+)")
        else:
            parts.append(rf"(?P<{name}>.+)")
        end = match.end()
    parts.append(re.escape(template[end:]))
    return re.compile("".join(parts)), frozenset(numbers)


def _read(template: str, text: str) -> dict[str, Any] | None:
    """The params with which ``template`` writes ``text`` exactly, or None."""
    pattern, numbers = _pattern(template)
    match = pattern.fullmatch(text)
    if match is None:
        return None
    params = {
        name: int(value) if name in numbers else value for name, value in match.groupdict().items()
    }
    return params if template % params == text else None


def tournament_purpose(code: str, **params: Any) -> str:
    """The English text of a tournament purpose, as written in the dice log."""
    return TOURNAMENT_PURPOSES[code] % params


def coded_purpose(purpose: str, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The code and params of a logged purpose (:class:`~rules.engine.dice.Roll`'s
    ``purpose`` and ``params``); ``("", {})`` for free text."""
    if purpose in ENGINE_PURPOSES:
        return purpose, dict(params)
    reroll = _read(REROLL, purpose)
    text = reroll["purpose"] if reroll else purpose
    for code, template in TOURNAMENT_PURPOSES.items():
        found = _read(template, text)
        if found is not None:
            return code, ({**found, "reroll": reroll["reroll"]} if reroll else found)
    return "", {}


def purpose_label(
    code: str,
    params: Mapping[str, Any],
    text: str,
    squad_names: Mapping[str, str] | None = None,
) -> str:
    """A stored purpose in the active language: its code rendered with its params, or
    ``text`` (the stored English text) when there is no code this BoB knows.
    ``squad_names``: the tournament's squad names by slug, shown instead of the slug a
    draw's roll records."""
    if code in ENGINE_PURPOSES:
        return purpose_text(code, params, narration_language())
    template = TOURNAMENT_PURPOSES.get(code)
    if template is None:
        return text
    squad = params.get("squad")
    if squad_names and isinstance(squad, str) and squad in squad_names:
        params = {**params, "squad": squad_names[squad]}
    try:
        label = _(template) % params
        if "reroll" in params:
            label = _(REROLL) % {"purpose": label, "reroll": params["reroll"]}
    except (KeyError, TypeError, ValueError):
        # Params that do not fit the code (an edited import): the stored text still says it.
        return text
    return label


def roll_purpose_label(roll: Any, squad_names: Mapping[str, str] | None = None) -> str:
    """What a stored roll (a :class:`~tournaments.models.DiceRoll`) was for, in the active
    language (squads by ``squad_names``, see :func:`purpose_label`)."""
    return purpose_label(roll.purpose_code, roll.purpose_params, roll.purpose, squad_names)


def logged_purpose_label(
    purpose: str, params: Mapping[str, Any], squad_names: Mapping[str, str] | None = None
) -> str:
    """A logged roll's purpose (:class:`~rules.engine.dice.Roll`'s ``purpose`` and
    ``params``) in the active language, e.g. to say which die is missing."""
    code, coded_params = coded_purpose(purpose, params)
    return purpose_label(code, coded_params, purpose, squad_names)
