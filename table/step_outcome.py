"""What the last step did, in a few lines for the board's banner: on a phone the log is
folded away, so after each action the judge reads there the dice, the damage, the kills
and the points, and not only what was tried ("p1-m2 fights ork-1 hand-to-hand").

The lines are the step log's and the combat log's own (:mod:`table.step_log`), in the
page's language; only what the step's summary already says (the attack made, the path
moved, the die a re-roll rolled again) and the Alien turn's reasoning (which alien
activates, what it weighed, each of its moves) are left out, the log keeping them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import ngettext

from table.models import Snapshot
from table.step_log import event_lines, log_lines

#: The step log's codes that tell what a step changed: damage, kills, points, what a move
#: revealed, the event card drawn, the round or the game that ends (a re-roll's die: its
#: summary tells it, :func:`table.snapshot_summaries.reroll_text`).
OUTCOME_CODES = frozenset(
    {
        "event_drawn",
        "event_target_player",
        "event_instruction",
        "special_weapon_used",
        "special_weapon_blew_up",
        "special_weapon_unused",
        "self_destruct_blast",
        "self_destruct_gone",
        "self_destruct_unused",
        "self_destruct_no_figure",
        "card_reminder",
        "players_shielded",
        "damage",
        "no_damage",
        "shielded_target",
        "killed",
        "weapon_lost",
        "gunner_freed",
        "score_lost",
        "score_left_behind",
        "score_gained",
        "token_taken",
        "no_token",
        "blip_revealed",
        "blip_revealed_no_model",
        "blip_without_aliens",
        "blip_equipment",
        "genestealer_appears",
        "event_alien_appears",
        "event_alien_no_room",
        "reinforcement_placed",
        "figure_healed",
        "left_play",
        "aliens_cleared",
        "last_event_card",
        "marine_lost",
        "stall_round",
        "flag_found",
        "flag_picked_up",
        "flag_dropped",
        "flag_scored",
        "equipment_found_vehicle",
        "equipment_found_weapon",
        "equipment_no_room",
        "weapon_picked_up",
        "round_starts",
        "squad_eliminated",
        "game_over",
        "tpk_ranking",
    }
)

#: The engine events a step's summary already tells: the attack made, the move.
SAID_EVENTS = frozenset({"attack", "moved", "turned"})

#: The most lines the banner shows; the others are counted and left to the log.
MOST_LINES = 8


def outcome_lines(
    events: Iterable[Mapping[str, Any]], steps: Iterable[Mapping[str, Any]]
) -> list[str]:
    """A step's stored ``events`` and ``steps`` as the lines of what it did: the dice
    rolled, damage and kills of its combat events, then its outcome steps."""
    told = [event for event in events if event.get("kind") not in SAID_EVENTS]
    kept = [step for step in steps if step.get("code") in OUTCOME_CODES]
    return [*event_lines(told), *(line.text for line in log_lines(kept))]


def step_outcome(snapshot: Snapshot) -> list[str]:
    """What ``snapshot``'s step did, at most :data:`MOST_LINES` lines, the last one saying
    how many more the log holds."""
    lines = outcome_lines(snapshot.events or [], snapshot.steps or [])
    if len(lines) <= MOST_LINES:
        return lines
    more = len(lines) - (MOST_LINES - 1)
    return [
        *lines[: MOST_LINES - 1],
        ngettext(
            "…and %(count)d more line in the log.", "…and %(count)d more lines in the log.", more
        )
        % {"count": more},
    ]
