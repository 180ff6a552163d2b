"""``python manage.py engine``: ask the rules engine about a saved game state.

Sub-commands (each reads a state file in the JSON format of ``docs/state.md``):

* ``los STATE A B`` -- line of sight between A and B (figure ids or squares ``x,y``);
* ``path STATE FIGURE SQUARE`` -- a shortest legal move of a figure to a square;
* ``render STATE`` -- an ASCII picture of the state;
* ``map FILE`` -- check a map drawing (``docs/maps.md``) and print it as JSON;
* ``odds STATE ATTACKER TARGET_OR_SQUARE WEAPON`` -- the exact outcome distribution of an
  attack (``WEAPON`` is a weapon key, or ``hand-to-hand``).

Adding a sub-command: write ``add_<name>_parser(self, subparsers)`` and
``handle_<name>(self, options)`` and add the name to ``SUBCOMMANDS``.
Bad input ends with exit status 2 and a one-line message on stderr.

Every sub-command takes ``--lang it|en`` (default: the project's language, ``BOB_LANGUAGE``)
and speaks only that language: its own messages, the engine's answers and its errors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from rules.engine.combat import CombatError, option_for
from rules.engine.geometry import format_square, parse_square
from rules.engine.los import SightError, figure_sight, line_of_sight
from rules.engine.maps import MapError, board_to_json, parse_map
from rules.engine.movement import MoveError, distance_field, move
from rules.engine.narration import LANGUAGES, UNIT_NAMES, decimal
from rules.engine.narration_tools import tool_text
from rules.engine.render import render
from rules.engine.state import GameState, StateError, read_text_file
from rules.engine.units import RulesDataError
from table.step_log import engine_error_text, narration_language

BAD_INPUT = 2


def bad_input(message: str) -> CommandError:
    return CommandError(message, returncode=BAD_INPUT)


class Command(BaseCommand):
    help = _("Ask the rules engine about a game state: line of sight, paths, pictures.")

    SUBCOMMANDS = ("los", "path", "render", "map", "odds")

    def add_arguments(self, parser) -> None:
        subparsers = parser.add_subparsers(dest="subcommand", required=True)
        for name in self.SUBCOMMANDS:
            getattr(self, f"add_{name}_parser")(subparsers)
        for sub in subparsers.choices.values():
            sub.add_argument(
                "--lang",
                choices=LANGUAGES,
                default=None,
                help=_("language of the answer (default: the project's language)"),
            )

    def handle(self, *args: Any, **options: Any) -> None:
        self.lang = options.get("lang") or narration_language()
        with translation.override(self.lang):
            getattr(self, f"handle_{options['subcommand']}")(options)

    # -- shared -------------------------------------------------------------------------

    def load_state(self, path: str) -> GameState:
        try:
            return GameState.from_file(path)
        except StateError as exc:
            message = _("bad state %(path)s: %(error)s") % {
                "path": path,
                "error": engine_error_text(exc),
            }
            raise bad_input(message) from None

    def target(self, state: GameState, text: str):
        """A figure id or a square ``x,y``."""
        if state.has_figure(text):
            return state.figure(text)
        try:
            square = parse_square(text)
        except ValueError:
            raise bad_input(
                _("%(text)r is neither a figure of this state nor a square written x,y")
                % {"text": text}
            ) from None
        if not state.board.in_bounds(square):
            raise bad_input(
                _("square %(square)s is outside the %(w)sx%(h)s board")
                % {"square": text, "w": state.board.width, "h": state.board.height}
            )
        return square

    # -- los ----------------------------------------------------------------------------

    def add_los_parser(self, subparsers) -> None:
        p = subparsers.add_parser("los", help=_("line of sight between two figures or squares"))
        p.add_argument("state", help=_("state JSON file"))
        p.add_argument("a", help=_("figure id or square x,y"))
        p.add_argument("b", help=_("figure id or square x,y"))
        p.add_argument(
            "--reveal",
            action="store_true",
            help=_("sight for revealing blips: figures in between do not block"),
        )

    def handle_los(self, options: dict[str, Any]) -> None:
        state = self.load_state(options["state"])
        a = self.target(state, options["a"])
        b = self.target(state, options["b"])
        firing = not options["reveal"]
        try:
            if isinstance(a, tuple) and isinstance(b, tuple):
                sight = line_of_sight(state, a, b, for_firing=firing)
            elif isinstance(a, tuple):
                sight = figure_sight(state, b, a, for_firing=firing)
            else:
                sight = figure_sight(state, a, b, for_firing=firing)
        except SightError as exc:
            raise bad_input(engine_error_text(exc)) from None
        via = ""
        if sight.frm is not None and sight.to is not None:
            via = f" ({format_square(sight.frm)} -> {format_square(sight.to)})"
        verdict = tool_text(sight.verdict, self.lang)
        self.stdout.write(f"{verdict}: {sight.reason_in(self.lang)}{via}")

    # -- path ---------------------------------------------------------------------------

    def add_path_parser(self, subparsers) -> None:
        p = subparsers.add_parser("path", help=_("shortest legal move of a figure to a square"))
        p.add_argument("state", help=_("state JSON file"))
        p.add_argument("figure", help=_("figure id"))
        p.add_argument("square", help=_("target square x,y (a Dreadnought's top-left square)"))
        p.add_argument(
            "--permit",
            action="append",
            default=[],
            metavar="PLAYER",
            help=_("a player who lets the figure pass through their figures (repeatable)"),
        )
        p.add_argument(
            "--no-doors", action="store_true", help=_("do not open closed doors on the way")
        )

    def handle_path(self, options: dict[str, Any]) -> None:
        state = self.load_state(options["state"])
        if not state.has_figure(options["figure"]):
            raise bad_input(_("no figure %(id)r in this state") % {"id": options["figure"]})
        target = self.target(state, options["square"])
        if not isinstance(target, tuple):
            raise bad_input(_("the target must be a square written x,y"))
        kwargs = {"open_doors": not options["no_doors"], "permitted": options["permit"]}
        try:
            field = distance_field(state, options["figure"], **kwargs)
        except MoveError as exc:
            raise bad_input(engine_error_text(exc)) from None
        if target == field.start:
            self.stdout.write(_("already there: 0 squares"))
            return
        path = field.path_to(target) if field.can_stop(target) else None
        if path is None:
            self.stdout.write(
                _("no legal path: %(figure)s cannot end a move on %(square)s")
                % {"figure": options["figure"], "square": format_square(target)}
            )
            return
        _new, events = move(state, options["figure"], path, stop_on_survey=False, **kwargs)
        squares = " -> ".join(format_square(sq) for sq in [field.start, *path])
        self.stdout.write(tool_text("path", self.lang, steps=len(path), squares=squares))
        for event in events:
            if event.kind == "door_opened":
                a, b = event.detail["between"]
                self.stdout.write(
                    _("opens the door between %(a)s and %(b)s")
                    % {"a": format_square(tuple(a)), "b": format_square(tuple(b))}
                )

    # -- render -------------------------------------------------------------------------

    def add_render_parser(self, subparsers) -> None:
        p = subparsers.add_parser("render", help=_("ASCII picture of a state"))
        p.add_argument("state", help=_("state JSON file"))
        p.add_argument(
            "--hide-blips", action="store_true", help=_("do not show what the blips hide")
        )

    def handle_render(self, options: dict[str, Any]) -> None:
        state = self.load_state(options["state"])
        picture = render(state, show_blip_types=not options["hide_blips"], lang=self.lang)
        self.stdout.write(picture, ending="")

    # -- map ----------------------------------------------------------------------------

    def add_map_parser(self, subparsers) -> None:
        p = subparsers.add_parser("map", help=_("check a map drawing and print its JSON"))
        p.add_argument("file", help=_("map text file"))

    def handle_map(self, options: dict[str, Any]) -> None:
        path = Path(options["file"])
        try:
            text = read_text_file(path)
        except StateError as exc:
            raise bad_input(exc.problems[0].text_in(self.lang)) from None
        try:
            board = parse_map(text, source=path.name)
        except MapError as exc:
            for problem in exc.problems[1:]:
                self.stderr.write(f"{path.name}: {problem.text_in(self.lang)}")
            raise bad_input(f"{path.name}: {exc.problems[0].text_in(self.lang)}") from None
        self.stdout.write(json.dumps(board_to_json(board), indent=1))

    # -- odds ---------------------------------------------------------------------------

    def add_odds_parser(self, subparsers) -> None:
        p = subparsers.add_parser("odds", help=_("exact outcome distribution of an attack"))
        p.add_argument("state", help=_("state JSON file"))
        p.add_argument("attacker", help=_("id of the attacking figure"))
        p.add_argument(
            "target", help=_("target figure id, or square x,y (missile, line, lascannon area)")
        )
        p.add_argument("weapon", help=_("weapon key (e.g. bolter), or hand-to-hand"))

    def handle_odds(self, options: dict[str, Any]) -> None:
        state = self.load_state(options["state"])
        if not state.has_figure(options["attacker"]):
            raise bad_input(_("no figure %(id)r in this state") % {"id": options["attacker"]})
        target = self.target(state, options["target"])
        weapon = options["weapon"]
        try:
            if weapon in ("hand-to-hand", "hand_to_hand"):
                if isinstance(target, tuple):
                    raise bad_input(_("hand-to-hand needs a target figure, not a square"))
                option = option_for(state, options["attacker"], None, target=target.id)
            elif isinstance(target, tuple):
                option = option_for(state, options["attacker"], weapon, aim=target)
            else:
                option = option_for(
                    state, options["attacker"], weapon, target=target.id, aim=target.square
                )
        except (CombatError, RulesDataError) as exc:
            raise bad_input(engine_error_text(exc)) from None
        odds = option.odds
        self.stdout.write(option.description_in(self.lang))
        names = {  # English keeps the unit data's own names
            f.id: f"{f.id} ({UNIT_NAMES.get(f.unit, {}).get(self.lang, f.unit)})"
            for f in state.figures
            if self.lang != "en"
        }
        for line in odds.describe(self.lang, names):
            self.stdout.write(line)
        keys = ", ".join(t.key for t in odds.targets)
        self.stdout.write(_("life points lost by (%(keys)s):") % {"keys": keys})
        for losses, probability in odds.losses.items():
            shown = ", ".join(str(n) for n in losses)
            approx = decimal(float(probability), 4, self.lang)
            self.stdout.write(f"  ({shown}): {probability} (~{approx})")
