"""``python manage.py alien_turn --input STATE.json``: resolve one Alien turn.

Prints ``{"steps": [...], "state": {...}}`` as JSON with sorted keys, so the same input and
seed (or dice script) always print the same bytes. Each step has its message ``code``, its
``params`` and its ``text`` in the chosen language. The dice rolled are listed under
``dice`` and the seed under ``seed`` (a fresh one when none is given). A bad state,
policy or dice script ends with exit status 2 and a message naming
what is wrong (for a state: the JSON path, then why). Everything is in one language:
``--lang`` (default: the project's language, ``BOB_LANGUAGE``).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from rules.engine.ai.policies import POLICIES, policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import (
    Dice,
    DiceError,
    SeededDice,
    log_as_dicts,
    new_seed,
)
from rules.engine.event_cards import EventDataError
from rules.engine.narration import LANGUAGES
from rules.engine.state import GameState, StateError
from rules.engine.turns import TurnError
from rules.engine.units import RulesDataError
from table.step_log import engine_error_text, narration_language
from tournaments.domain.typed_dice import TypedDice, parse_typed_dice

BAD_INPUT = 2


class Command(BaseCommand):
    help = _("Resolve one Alien turn on a saved game state and print the steps and new state.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--input", required=True, help=_("game state JSON file"))
        parser.add_argument("--policy", default="bob", choices=sorted(POLICIES))
        dice = parser.add_mutually_exclusive_group()
        dice.add_argument("--seed", type=int, help=_("seed of the engine's dice"))
        dice.add_argument("--dice", help=_("dice typed in by the judge, e.g. 3,0,2,6"))
        parser.add_argument(
            "--lang",
            default=None,
            choices=LANGUAGES,
            help=_("language of the steps and messages (default: the project's language)"),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        lang = options["lang"] or narration_language()
        with translation.override(lang):
            self.resolve(options, lang)

    def resolve(self, options: dict[str, Any], lang: str) -> None:
        try:
            state = GameState.from_file(options["input"])
        except StateError as exc:
            message = _("bad state %(path)s: %(error)s") % {
                "path": options["input"],
                "error": engine_error_text(exc),
            }
            raise CommandError(message, returncode=BAD_INPUT) from None
        try:
            dice: Dice
            if options["dice"] is not None:
                dice = TypedDice(values=parse_typed_dice(options["dice"]))
            else:
                seed = options["seed"] if options["seed"] is not None else new_seed()
                dice = SeededDice(seed=seed)
            new_state, steps = resolve_alien_turn(state, policy_named(options["policy"]), dice)
        except (DiceError, EventDataError, RulesDataError, TurnError) as exc:
            raise CommandError(engine_error_text(exc), returncode=BAD_INPUT) from None
        output = {
            "policy": options["policy"],
            "seed": dice.seed if isinstance(dice, SeededDice) else None,
            "steps": [step.as_dict(lang) for step in steps],
            "dice": log_as_dicts(dice.log),
            "state": new_state.to_json(),
        }
        self.stdout.write(json.dumps(output, sort_keys=True, ensure_ascii=False, indent=1))
