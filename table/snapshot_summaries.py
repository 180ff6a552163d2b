"""A game step's summary in the reader's language.

A :class:`~table.models.Snapshot` stores its summary as text, written in the language of
whoever made the step, and, for the judge's own steps (moves, doors, attacks, edits), as
``summary_parts``: ``[code, params]`` pairs written again here in the active language. The
steps whose summary follows from what the snapshot keeps (the setup's map, the Alien turn's
policy, an undo's step, an older upload) are written again from those fields; an upload's
parts name the file's rules data values the game did not take. So the Italian
history keeps no English line; only snapshots older than ``summary_parts`` show their
stored text. The parts keep the players' ids (``p2``); a page that names the players
(:func:`table.catalogue_words.in_catalogue_words`) shows their names, as its step log does.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine.card_names import chapter_card_name
from rules.engine.naming import current_naming
from rules.engine.narration import format_param
from rules.engine.narration_combat import combat_text
from table.game_setup import POLICY_NAMES
from table.models import Game, Snapshot, SnapshotKind
from table.step_log import narration_language
from tournaments.queries.playable_maps import map_title as tournament_map_title


def map_title(game: Game) -> str:
    """The title of the map ``game`` is played on, in the active language (the tournament's
    own map or a shipped one; its name when neither has it any more)."""
    return tournament_map_title(game.session.stage.tournament, game.map_name)


def policy_name(policy: str) -> str:
    return str(POLICY_NAMES.get(policy, policy))


def setup_summary(game: Game) -> str:
    """The setup step's summary: the map by its title in the active language."""
    return _("Squads placed at their docking claws on the map %(map)s.") % {"map": map_title(game)}


def alien_turn_summary(policy: str) -> str:
    return _("Alien turn (%(policy)s policy).") % {"policy": policy_name(policy)}


def undo_summary(number: int) -> str:
    return _("Back to step %(number)d.") % {"number": number}


def upload_summary() -> str:
    return _("State replaced by an uploaded file.")


#: How many of the file's rules data values an upload's summary names (the others counted).
KEPT_VALUES_SHOWN = 5


def _data_value(value: Any) -> str:
    """A rules data value as the data file writes it; a value the data lack, "not set"."""
    if value is None:
        return _("not set")
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def kept_rules_data_text(values: list[list[Any]]) -> str:
    """What an upload left out of the file: ``values`` are ``[path, value in the file,
    value kept]``, the first :data:`KEPT_VALUES_SHOWN` of them named."""
    named = "; ".join(
        _("%(path)s: %(file)s in the file, %(kept)s kept")
        % {"path": path, "file": _data_value(given), "kept": _data_value(kept)}
        for path, given, kept in values[:KEPT_VALUES_SHOWN]
    )
    text = _(
        "The file's rules data were not used: the game keeps the tournament's values (%(values)s)."
    ) % {"values": named}
    more = len(values) - KEPT_VALUES_SHOWN
    if more > 0:
        text += " " + ngettext(
            "%(count)d more value differs.", "%(count)d more values differ.", more
        ) % {"count": more}
    return (
        text
        + " "
        + _(
            "To play other values, the organiser changes them on the tournament's Catalogue "
            "page, then the judge adopts the session's settings on the games page."
        )
    )


#: Why the judge took a figure off the board.
REMOVALS = {"dead": gettext_lazy("dead"), "left": gettext_lazy("left play")}

#: The summary parts written from a template and their params (squares already as text).
#: The part of a step that made the game play its session's current settings.
SETTINGS_ADOPTED = "settings_adopted"

PART_TEXTS = {
    "moved": gettext_lazy("%(id)s moved to %(square)s."),
    "moved_front": gettext_lazy("%(id)s moved its front to %(square)s."),
    "left_claw": gettext_lazy("It left play through its docking claw."),
    "section_stop": gettext_lazy("It stopped on entering a new section (blips are placed)."),
    "door_opened": gettext_lazy("%(id)s opened the door between %(a)s and %(b)s."),
    "aliens_act": gettext_lazy("Every player has played: the Aliens act."),
    "round_over": gettext_lazy("Every player has played: start the next round."),
    "plays": gettext_lazy("%(player)s plays."),
    "game_over": gettext_lazy("The game is over."),
    SETTINGS_ADOPTED: gettext_lazy(
        "The game now plays the session's current settings (stipulation, aliens' material, "
        "rules data)."
    ),
    "round_begins": gettext_lazy("Round %(round)d begins."),
    "crewed": gettext_lazy("%(id)s boarded %(vehicle)s (a whole turn)."),
    "left_vehicle": gettext_lazy("%(id)s left %(vehicle)s and stands on %(square)s."),
}

#: The marks a name may end with that end its sentence too ("Fuoco!", "Ira!").
OWN_STOPS = ("!", "?")


def without_doubled_stop(text: str, name: str) -> str:
    """``text`` without the full stop its sentence puts right after ``name`` when the name
    ends with its own "!" or "?": "Nova plays Fire!", not "Fire!."."""
    if name.endswith(OWN_STOPS):
        return text.replace(f"{name}.", name)
    return text


#: One part of a summary: a code and its JSON-ready params.
SummaryPart = tuple[str, dict[str, Any]]


#: The parts' params naming a figure by its id.
FIGURE_PARAMS = ("id", "vehicle")


def _named_params(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with their ``player`` (an id) by the name the page gives that player and
    their figures by the names the page's step log gives them."""
    naming = current_naming()
    named = {key: naming.figure_name(str(params[key])) for key in FIGURE_PARAMS if key in params}
    if "player" in params:
        named["player"] = naming.player_name(str(params["player"]))
    return {**params, **named}


def part_text(code: str, params: dict[str, Any]) -> str:
    """One summary part in the active language, the players by name where the page has
    their names."""
    if code == "attack":  # the attack option's own combat text
        return combat_text(params["code"], params["params"], narration_language())
    if code == "removed":
        return _("%(id)s removed: %(why)s.") % {
            **_named_params(params),
            "why": REMOVALS[params["why"]],
        }
    if code == "life_points":
        return ngettext(
            "%(id)s now has %(lp)d life point (was %(old)d).",
            "%(id)s now has %(lp)d life points (was %(old)d).",
            params["lp"],
        ) % _named_params(params)
    if code == "picked_up":
        weapon = format_param("weapon", params["weapon"], narration_language())
        return _("%(id)s picked up the %(weapon)s.") % {
            **_named_params(params),
            "weapon": weapon,
        }
    if code == "card_played":
        card = chapter_card_name(params["card"], narration_language(), params["player"])
        text = _("%(player)s plays %(card)s.") % {**_named_params(params), "card": card}
        return without_doubled_stop(text, card)
    if code == "uploaded":
        return upload_summary()
    if code == "rules_data_kept":
        return kept_rules_data_text(params["values"])
    if code == "forfeit":
        return ngettext(
            "%(player)s forfeited: their %(count)d figure left play.",
            "%(player)s forfeited: their %(count)d figures left play.",
            params["count"],
        ) % _named_params(params)
    return str(PART_TEXTS[code]) % _named_params(params)


def parts_summary(parts: list[SummaryPart]) -> str:
    """A step's summary from its parts, in the active language."""
    return " ".join(part_text(code, params) for code, params in parts)


def reroll_text(snapshot: Snapshot) -> str:
    """What a re-roll step did before its attack was resolved again (its summary is the
    attack's): the card, whose die, and the step whose attack it rolls again (the one
    before: a die is rolled again right after the attack); "" for any other step."""
    if snapshot.kind != SnapshotKind.MARINE_ATTACK:
        return ""
    done = next((s for s in snapshot.steps or [] if s.get("code") == "reroll_done"), None)
    if done is None:
        return ""
    params = done.get("params") or {}
    lang = narration_language()
    return _(
        "Re-roll of step %(step)s's attack with %(card)s: die %(die)s of %(figure)s rolled "
        "again (%(old)s → %(new)s); the attack is resolved again:"
    ) % {
        "step": snapshot.number - 1,
        "card": format_param("chapter_card", params.get("chapter_card"), lang, params),
        "figure": format_param("figure", params.get("figure"), lang, params),
        "die": params.get("die"),
        "old": params.get("old"),
        "new": params.get("new"),
    }


def snapshot_summary(snapshot: Snapshot) -> str:
    """``snapshot``'s summary in the active language when it can be written again (a
    re-roll's led by what it rolled again), else as stored."""
    if snapshot.summary_parts:
        try:
            summary = parts_summary(snapshot.summary_parts)
        except (KeyError, TypeError, ValueError):  # parts from a damaged import: the text
            return snapshot.summary
        rerolled = reroll_text(snapshot)
        return f"{rerolled} {summary}" if rerolled else summary
    if snapshot.kind == SnapshotKind.SETUP:
        return setup_summary(snapshot.game)
    if snapshot.kind == SnapshotKind.ALIEN_TURN and snapshot.policy:
        return alien_turn_summary(snapshot.policy)
    if snapshot.kind == SnapshotKind.UNDO and snapshot.restored_from is not None:
        return undo_summary(snapshot.restored_from)
    if snapshot.kind == SnapshotKind.UPLOAD:
        return upload_summary()
    return snapshot.summary
