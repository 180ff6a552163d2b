"""``manage.py squad_draw``: run a squad preference draw (RULES §3/§4) from a JSON file.

Input::

    {"squads": ["ultramarines", "blood-angels", "imperial-fists"],
     "players": [{"id": "1", "preferences": ["blood-angels", "ultramarines", "imperial-fists"],
                  "previous": {"squad": "ultramarines", "won": true, "points": 35}}]}

``previous`` (optional, with optional ``rank``) switches on the later-stage retention
rules. With ``--dice 3,6,5`` the judge's physical dice are consumed in the rules' dice
order; otherwise the app rolls from ``--seed`` or from a fresh seed, which is printed
with its SHA-256 commitment. Any bad input ends with exit status 2 and a one-line message.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.engine.dice import (
    DiceError,
    ScriptedDice,
    SeededDice,
    new_seed,
    parse_dice_list,
    seed_commitment,
)
from tournaments.draw import DrawError, DrawPlayer, PreviousSession, squad_draw

BAD_INPUT = 2


def fail(message: str) -> CommandError:
    return CommandError(message, returncode=BAD_INPUT)


class Command(BaseCommand):
    help = (
        "Run a squad preference draw (RULES §3, and §4 retention when players give "
        "'previous') from a JSON file and print the assignments and every die as JSON."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--input", required=True, help="JSON file with squads and players.")
        parser.add_argument(
            "--dice", help="The judge's physical d6 results, comma separated, e.g. 3,6,5."
        )
        parser.add_argument("--seed", help="Seed for app-rolled dice (a whole number >= 0).")

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("dice") is not None and options.get("seed") is not None:
            raise fail("give either --dice (physical dice) or --seed (app-rolled), not both")
        squads, players = read_input(options["input"])
        seed: int | None = None
        if options.get("dice") is not None:
            dice = ScriptedDice(values=parse_dice(options["dice"]))
        else:
            seed = parse_seed(options["seed"]) if options.get("seed") is not None else new_seed()
            dice = SeededDice(seed=seed)
        try:
            result = squad_draw(squads, players, dice)
        except (DrawError, DiceError) as error:
            raise fail(str(error)) from None
        if isinstance(dice, ScriptedDice) and dice.remaining:
            sys.stderr.write(
                f"warning: {dice.remaining} of the given dice were not needed and were ignored\n"
            )
        output = {
            "assignments": result.assignments,
            "rolls": result.rolls,
            "rank_transfers": [transfer.as_dict() for transfer in result.rank_transfers],
            "seed": seed,
            "seed_sha256": seed_commitment(seed) if seed is not None else None,
        }
        self.stdout.write(json.dumps(output, ensure_ascii=False, indent=2))


def parse_dice(text: str) -> list[int]:
    try:
        values = parse_dice_list(text)
    except DiceError as error:
        raise fail(f"--dice: {error}") from None
    for position, value in enumerate(values, start=1):
        if not 1 <= value <= 6:
            raise fail(f"--dice: die {position} is {value}; a d6 shows 1 to 6")
    return values


def parse_seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise fail(f"--seed must be a whole number >= 0, not {text!r}") from None
    if seed < 0:
        raise fail(f"--seed must be a whole number >= 0, not {seed}")
    return seed


def read_input(path: str) -> tuple[list[str], list[DrawPlayer]]:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise fail(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise fail(f"cannot read {path}: it is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise fail(
            f"{path} is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    if not isinstance(data, dict):
        raise fail(f"{path} must hold a JSON object with keys 'squads' and 'players'")
    for key in ("squads", "players"):
        if key not in data:
            raise fail(f"{path} is missing the key '{key}'")
    squads = data["squads"]
    if not isinstance(squads, list) or not all(isinstance(s, str) for s in squads):
        raise fail("'squads' must be a list of squad slugs (text) in squad order")
    if not isinstance(data["players"], list):
        raise fail("'players' must be a list of player objects")
    players = [read_player(item, index) for index, item in enumerate(data["players"], start=1)]
    return squads, players


def read_player(item: Any, number: int) -> DrawPlayer:
    where = f"player {number}"
    if not isinstance(item, dict):
        raise fail(f"{where} must be a JSON object with 'id' and 'preferences'")
    for key in ("id", "preferences"):
        if key not in item:
            raise fail(f"{where} is missing the key '{key}'")
    player_id = item["id"]
    if isinstance(player_id, bool) or not isinstance(player_id, str | int):
        raise fail(f"{where}: 'id' must be text or a whole number")
    player_id = str(player_id)
    where = f"player '{player_id}'"
    preferences = item["preferences"]
    if not isinstance(preferences, list) or not all(isinstance(p, str) for p in preferences):
        raise fail(f"{where}: 'preferences' must be a list of squad slugs")
    previous = item.get("previous")
    if previous is not None:
        previous = read_previous(previous, where)
    return DrawPlayer(player_id, tuple(preferences), previous)


def read_previous(data: Any, where: str) -> PreviousSession:
    if not isinstance(data, dict):
        raise fail(f"{where}: 'previous' must be an object with 'squad', 'won' and 'points'")
    for key in ("squad", "won", "points"):
        if key not in data:
            raise fail(f"{where}: 'previous' is missing the key '{key}'")
    if not isinstance(data["squad"], str):
        raise fail(f"{where}: previous 'squad' must be a squad slug")
    if not isinstance(data["won"], bool):
        raise fail(f"{where}: previous 'won' must be true or false")
    for key in ("points", "rank"):
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"{where}: previous '{key}' must be a whole number")
    return PreviousSession(data["squad"], data["won"], data["points"], data.get("rank", 0))
