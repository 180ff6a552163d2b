"""``manage.py squad_draw``: run a squad preference draw (RULES §3/§4).

Two ways:

* ``--tournament SLUG --stage N --session M`` draws that session's squads and stores them,
  exactly as the judge's page does (the same action: preferences and previous sessions read
  from the database, the seats, ranks, dice and activity log written, or nothing);
* ``--input FILE`` runs the draw on a JSON file and stores nothing (to check or replay a
  draw by hand). Input::

    {"squads": ["ultramarines", "blood-angels", "imperial-fists"],
     "players": [{"id": "1", "preferences": ["blood-angels", "ultramarines", "imperial-fists"],
                  "previous": {"squad": "ultramarines", "won": true, "points": 35}}]}

``previous`` (optional, with optional ``rank``) switches on the later-stage retention
rules. With ``--dice 3,6,5`` the judge's physical dice are consumed in the rules' dice
order; otherwise the app rolls from ``--seed`` or from a fresh seed, which is printed
with its SHA-256 commitment. Any bad input ends with exit status 2 and a one-line message.
Messages are in the project's language (``BOB_LANGUAGE``); the JSON keys stay as they are.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine import json_text
from rules.engine.dice import (
    Dice,
    DiceError,
    DieKind,
    SeededDice,
    new_seed,
    seed_commitment,
)
from tournaments.actions.session_setup import SetupError, draw_squads
from tournaments.domain.draw import DrawError, DrawPlayer, DrawResult, PreviousSession, squad_draw
from tournaments.domain.file_limits import MAX_DRAW_BYTES, megabytes, read_at_most
from tournaments.domain.json_syntax import syntax_reason
from tournaments.domain.read_failures import read_failure
from tournaments.domain.typed_dice import TypedDice, parse_typed_dice, subject_names
from tournaments.interchange.commands import fail, tournament_by_slug
from tournaments.models import Session, StaleSessionError
from tournaments.queries.tournament_catalogue import squad_names


class Command(BaseCommand):
    help = _(
        "Run a squad preference draw (RULES §3, and §4 retention when players give "
        "'previous') from a JSON file and print the assignments and every die as JSON."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--input", help=_("JSON file with squads and players (nothing is stored).")
        )
        parser.add_argument(
            "--tournament", help=_("The tournament's slug (with --stage and --session).")
        )
        parser.add_argument("--stage", type=int, help=_("The stage's number."))
        parser.add_argument("--session", type=int, help=_("The session's number within the stage."))
        parser.add_argument(
            "--dice", help=_("The judge's physical d6 results, comma separated, e.g. 3,6,5.")
        )
        parser.add_argument("--seed", help=_("Seed for app-rolled dice (a whole number >= 0)."))

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("dice") is not None and options.get("seed") is not None:
            raise fail(_("give either --dice (physical dice) or --seed (app-rolled), not both"))
        stored = [options.get(name) is not None for name in ("tournament", "stage", "session")]
        if options.get("input") is not None and any(stored):
            raise fail(_("give either --input or --tournament/--stage/--session, not both"))
        if any(stored):
            if not all(stored):
                raise fail(_("give --tournament, --stage and --session together"))
            self.draw_stored_session(options)
            return
        if options.get("input") is None:
            raise fail(_("give --input FILE, or --tournament, --stage and --session"))
        squads, players = read_input(options["input"])
        seed: int | None = None
        if options.get("dice") is not None:
            # A player of the input file is known by its id alone: that names the die.
            dice: Dice = TypedDice(
                values=parse_dice(options["dice"]), subjects={p.id: p.id for p in players}
            )
        else:
            seed = parse_seed(options["seed"]) if options.get("seed") is not None else new_seed()
            dice = SeededDice(seed=seed)
        try:
            result = squad_draw(squads, players, dice)
        except (DrawError, DiceError) as error:
            raise fail(str(error)) from None
        if isinstance(dice, TypedDice) and dice.remaining:
            self.stderr.write(
                ngettext(
                    "warning: %(count)d of the given dice was not needed and was ignored",
                    "warning: %(count)d of the given dice were not needed and were ignored",
                    dice.remaining,
                )
                % {"count": dice.remaining}
            )
        self.write_result(result, seed)

    def draw_stored_session(self, options: dict[str, Any]) -> None:
        """Draw a stored session's squads through the one squad-draw action."""
        session = stored_session(options["tournament"], options["stage"], options["session"])
        seed: int | None = None
        if options.get("dice") is not None:
            names = subject_names(seat.player for seat in session.seats.select_related("player"))
            dice: Dice = TypedDice(
                values=parse_dice(options["dice"]),
                subjects=names,
                squads=squad_names(session.stage.tournament),
            )
        else:
            seed = parse_seed(options["seed"]) if options.get("seed") is not None else new_seed()
            dice = SeededDice(seed=seed)
        try:
            result = draw_squads(session, dice)
        except (DrawError, DiceError, SetupError, StaleSessionError) as error:
            raise fail(f"{session}: {error}") from None
        self.write_result(result, seed)

    def write_result(self, result: DrawResult, seed: int | None) -> None:
        output = {
            "assignments": result.assignments,
            "rolls": result.rolls,
            "rank_transfers": [transfer.as_dict() for transfer in result.rank_transfers],
            "seed": seed,
            "seed_sha256": seed_commitment(seed) if seed is not None else None,
        }
        self.stdout.write(json.dumps(output, ensure_ascii=False, indent=2))


def stored_session(slug: str, stage_number: int, number: int) -> Session:
    """The session named on the command line; an unknown tournament, stage or session is
    refused naming which one, and what there is instead."""
    tournament = tournament_by_slug(slug)
    stage = tournament.stages.filter(number=stage_number).first()
    if stage is None:
        stages = ", ".join(str(n) for n in tournament.stages.values_list("number", flat=True))
        raise fail(
            _("tournament “%(tournament)s” has no stage %(stage)d; its stages: %(stages)s")
            % {"tournament": slug, "stage": stage_number, "stages": stages or _("none yet")}
        )
    session = (
        Session.objects.select_related("stage__tournament").filter(stage=stage, number=number)
    ).first()
    if session is None:
        sessions = ", ".join(str(n) for n in stage.sessions.values_list("number", flat=True))
        raise fail(
            _(
                "no session %(session)d in stage %(stage)d of tournament “%(tournament)s”; "
                "its sessions: %(sessions)s"
            )
            % {
                "session": number,
                "stage": stage_number,
                "tournament": slug,
                "sessions": sessions or _("none yet (the stage is not seated)"),
            }
        )
    return session


def parse_dice(text: str) -> list[int]:
    """The typed d6s; every item that is no number or no face of a d6 named at once."""
    try:
        return parse_typed_dice(text, DieKind.D6)
    except DiceError as error:
        raise fail(_("--dice: %(error)s") % {"error": error}) from None


def parse_seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        seed = None
    if seed is None or seed < 0:
        raise fail(_("--seed must be a whole number >= 0, not “%(value)s”") % {"value": text})
    return seed


def read_input(path: str) -> tuple[list[str], list[DrawPlayer]]:
    try:
        data = read_at_most(path, MAX_DRAW_BYTES)
        if data is None:
            raise fail(
                _(
                    "%(path)s is larger than %(limit)s, and a draw's squads and players are "
                    "much smaller; check that it is the draw's JSON file"
                )
                % {"path": path, "limit": megabytes(MAX_DRAW_BYTES)}
            )
        text = data.decode("utf-8")
    except OSError as error:
        raise fail(
            _("cannot read %(path)s: %(error)s") % {"path": path, "error": read_failure(error)}
        ) from None
    except UnicodeDecodeError:
        raise fail(_("cannot read %(path)s: it is not UTF-8 text") % {"path": path}) from None
    try:
        data = json_text.loads(text)
    except json.JSONDecodeError as error:
        if not text.strip():
            raise fail(
                _("%(path)s is empty; write the squads and players in it as JSON") % {"path": path}
            ) from None
        raise fail(
            _("%(path)s is not valid JSON at line %(line)d, column %(column)d: %(reason)s")
            % {
                "path": path,
                "line": error.lineno,
                "column": error.colno,
                "reason": syntax_reason(error.msg),
            }
        ) from None
    if not isinstance(data, dict):
        raise fail(
            _("%(path)s must hold a JSON object with keys 'squads' and 'players'") % {"path": path}
        )
    for key in ("squads", "players"):
        if key not in data:
            raise fail(_("%(path)s is missing the key '%(key)s'") % {"path": path, "key": key})
    squads = data["squads"]
    if not isinstance(squads, list) or not all(isinstance(s, str) for s in squads):
        raise fail(_("'squads' must be a list of squad slugs (text) in squad order"))
    if not isinstance(data["players"], list):
        raise fail(_("'players' must be a list of player objects"))
    players = [read_player(item, index) for index, item in enumerate(data["players"], start=1)]
    return squads, players


def read_player(item: Any, number: int) -> DrawPlayer:
    where = _("player %(number)d") % {"number": number}
    if not isinstance(item, dict):
        raise fail(
            _("%(where)s must be a JSON object with 'id' and 'preferences'") % {"where": where}
        )
    for key in ("id", "preferences"):
        if key not in item:
            raise fail(_("%(where)s is missing the key '%(key)s'") % {"where": where, "key": key})
    player_id = item["id"]
    if isinstance(player_id, bool) or not isinstance(player_id, str | int):
        raise fail(_("%(where)s: 'id' must be text or a whole number") % {"where": where})
    player_id = str(player_id)
    where = _("player '%(id)s'") % {"id": player_id}
    preferences = item["preferences"]
    if not isinstance(preferences, list) or not all(isinstance(p, str) for p in preferences):
        raise fail(_("%(where)s: 'preferences' must be a list of squad slugs") % {"where": where})
    previous = item.get("previous")
    if previous is not None:
        previous = read_previous(previous, where)
    return DrawPlayer(player_id, tuple(preferences), previous)


def read_previous(data: Any, where: str) -> PreviousSession:
    if not isinstance(data, dict):
        raise fail(
            _("%(where)s: 'previous' must be an object with 'squad', 'won' and 'points'")
            % {"where": where}
        )
    for key in ("squad", "won", "points"):
        if key not in data:
            raise fail(
                _("%(where)s: 'previous' is missing the key '%(key)s'")
                % {"where": where, "key": key}
            )
    if not isinstance(data["squad"], str):
        raise fail(_("%(where)s: previous 'squad' must be a squad slug") % {"where": where})
    if not isinstance(data["won"], bool):
        raise fail(_("%(where)s: previous 'won' must be true or false") % {"where": where})
    for key in ("points", "rank"):
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(
                _("%(where)s: previous '%(key)s' must be a whole number")
                % {"where": where, "key": key}
            )
    return PreviousSession(data["squad"], data["won"], data["points"], data.get("rank", 0))
