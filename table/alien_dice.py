"""The Alien turn played with real dice and the real event deck (RULES §12, §14).

A judge rolling physical dice types their faces in rolling order. Before the turn is
played, the board tells them which dice to roll, all together: each die's kind (d6, white
or red combat die), what it is for and who rolls it, up to the first die whose need
depends on what an earlier one shows (:func:`rules.engine.dice_ahead.dice_ahead`). Typed
dice that are too few, or too many, are refused at once with that list, instead of a turn
that fails in the worker for the next missing die. The judge who drew a real event card
names it (:func:`event_card_choices`), and the turn rolls no dice for the draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING

from django.utils.translation import ngettext

from rules.engine.ai.policies import POLICIES, policy_named
from rules.engine.ai.turn import resolve_alien_turn
from rules.engine.dice import Dice, DiceError, DieKind
from rules.engine.dice_ahead import DiceAhead, DieAhead, ProbeLimitReached, dice_ahead
from rules.engine.event_cards import EventDataError, load_cards
from rules.engine.narration_errors import CodedError
from rules.engine.play.events import cards_left
from rules.engine.play.round_end import last_round_without_aliens
from rules.engine.state import GameState, StateError
from rules.engine.turns import TurnError
from rules.engine.units import RulesDataError
from table.actions import alien_turn_start
from table.step_log import engine_error_text, narration_language
from tournaments.domain.roll_purposes import logged_purpose_label
from tournaments.domain.roll_subjects import roll_subject_label
from tournaments.domain.typed_dice import TypedDice, parse_typed_dice
from tournaments.forms.judge import PHYSICAL

if TYPE_CHECKING:
    from table.forms import AlienTurnForm

#: The Alien turn form's fields the dice list reads.
FIELDS = ("policy", "event_card", "mode", "dice")


#: What the engine raises for an Alien turn that cannot be played (the turn's own check
#: names the problem to the judge; the dice list only says so).
TURN_ERRORS = (CodedError, EventDataError, RulesDataError, StateError, TurnError)


def event_card_choices(state: GameState) -> list[tuple[str, str]]:
    """The event cards still in the deck, by name (for the judge to say which one was
    drawn at the table); none when the session draws no event cards or the deck is empty."""
    stipulation = state.stipulation
    if not stipulation.uses_event_deck:
        return []
    switches = stipulation.switches
    try:
        cards = cards_left(
            load_cards(switches.get("event_overrides")),
            state.progress.events_drawn,
            switches.get("event_cards"),
        )
    except EventDataError:
        return []  # the turn itself says what is wrong with the deck
    lang = narration_language()
    # A card printed more than once is one choice, whichever copy the judge holds.
    names = {card.id: card.name[lang] for card in cards}
    return sorted(names.items(), key=lambda choice: choice[1])


def turn_dice_ahead(
    state: GameState, policy: str, values: Sequence[int], event_card: str | None
) -> DiceAhead | None:
    """Which dice the Alien turn from ``state`` needs after the typed ``values`` (see the
    module docstring); None when no Alien turn can be played from ``state``. Raises
    :class:`DiceError` for a typed face its die cannot show, and the engine's errors for
    a turn that cannot be played (an event card not in the deck)."""
    if (
        state.outcome is not None
        or not state.stipulation.with_aliens
        or last_round_without_aliens(state)
        or policy not in POLICIES
    ):
        return None
    start = alien_turn_start(state)

    def run(dice: Dice) -> object:
        return resolve_alien_turn(start, policy_named(policy), dice, event_card=event_card)

    try:
        return dice_ahead(run, lambda: TypedDice(values=list(values)))
    except ProbeLimitReached:
        return None


def typed_dice_refusal(ahead: DiceAhead) -> str:
    """Why the typed dice cannot play the turn as they are, or "" when they can."""
    if ahead.complete and ahead.extra:
        return ngettext(
            "Only %(used)d of the %(typed)d dice typed are needed for this turn: remove the "
            "last one.",
            "Only %(used)d of the %(typed)d dice typed are needed for this turn: remove the "
            "last %(extra)d.",
            ahead.extra,
        ) % {"used": ahead.used, "typed": ahead.typed, "extra": ahead.extra}
    if ahead.complete:
        return ""
    count = len(ahead.next)
    return ngettext(
        "Not enough dice for this turn: roll the die listed below and add it after those typed.",
        "Not enough dice for this turn: roll the %(count)d dice listed below and add them "
        "after those typed.",
        count,
    ) % {"count": count}


@dataclass(frozen=True)
class DiceLine:
    """Dice of one roll, as the judge reads them: their places in the typed list, how
    many of which kind, what for and who rolls them."""

    first: int
    last: int
    dice: str
    purpose: str
    roller: str


@dataclass(frozen=True)
class TurnDice:
    """What the board says about the physical dice of the Alien turn."""

    ahead: DiceAhead | None = None
    lines: tuple[DiceLine, ...] = ()
    error: str = ""


def _dice_words(kind: DieKind, count: int) -> str:
    if kind is DieKind.WHITE:
        return ngettext(
            "%(count)d white (light) combat die", "%(count)d white (light) combat dice", count
        ) % {"count": count}
    if kind is DieKind.RED:
        return ngettext(
            "%(count)d red (heavy) combat die", "%(count)d red (heavy) combat dice", count
        ) % {"count": count}
    return f"{count} {kind.value}"  # "2 d6": the same in both languages


def _roll(die: DieAhead) -> tuple[object, ...]:
    """What makes dice one roll: their kind, purpose (with its params) and roller."""
    return (die.kind, die.purpose, die.subject, dict(die.params))


def _lines(dice: Sequence[DieAhead], players: Mapping[str, str]) -> tuple[DiceLine, ...]:
    """Consecutive dice of one roll (:func:`_roll`) on one line."""
    groups = [list(run) for _, run in groupby(dice, key=_roll)]
    return tuple(
        DiceLine(
            first=group[0].position,
            last=group[-1].position,
            dice=_dice_words(group[0].kind, len(group)),
            purpose=logged_purpose_label(group[0].purpose, group[0].params),
            roller=roll_subject_label(group[0].subject, players) if group[0].subject else "",
        )
        for group in groups
    )


def turn_dice(
    state: GameState,
    policy: str,
    values: Sequence[int],
    event_card: str | None,
    players: Mapping[str, str],
) -> TurnDice:
    """The dice list the board shows under the Alien turn's dice field, for the dice typed
    so far (``players``: the seated players' names by game id, to say who rolls)."""
    try:
        ahead = turn_dice_ahead(state, policy, values, event_card)
    except DiceError as error:
        return TurnDice(error=str(error))
    except TURN_ERRORS as error:
        return TurnDice(error=engine_error_text(error))
    if ahead is None:
        return TurnDice()
    return TurnDice(ahead=ahead, lines=_lines(ahead.next, players))


def shown_turn_dice(
    form: AlienTurnForm, players: Mapping[str, str], *, live: bool = False
) -> TurnDice:
    """The dice list under the Alien turn form, for what it holds: the dice typed (posted,
    or offered again after a failed turn) and the card named. Nothing when the form has no
    position to play from, or while the app is to roll: finding the dice plays the turn
    over several times, which a board page whose judge lets the app roll does not pay
    for (choosing real dice asks for the list). What is wrong with the typing is said by
    the dice field on the page, and by the list only when ``live``."""
    state = form.state
    if state is None:
        return TurnDice()
    if form.dice_ahead is not None:
        return TurnDice(ahead=form.dice_ahead, lines=_lines(form.dice_ahead.next, players))
    if form.is_bound:
        data = {name: form.data.get(form.add_prefix(name), "") for name in FIELDS}
    else:
        data = {name: form.initial.get(name, "") for name in FIELDS}
    if data["mode"] != PHYSICAL:
        return TurnDice()
    try:
        values = parse_typed_dice(str(data["dice"]))
    except DiceError as error:
        return TurnDice(error=str(error) if live else "")
    shown = turn_dice(
        state, str(data["policy"] or "bob"), values, str(data["event_card"]) or None, players
    )
    if shown.error and not live and form.errors.get("dice"):
        return TurnDice()
    return shown


def alien_turn_panel(
    form: AlienTurnForm, players: Sequence[Mapping[str, object]], *, live: bool = False
) -> dict[str, object]:
    """The board's Alien turn form and its dice list (``players``: the board's player rows,
    :func:`table.seating.player_rows`). ``live``: for the list alone, redrawn as the judge
    types, which also says what is wrong with the typing (on the page, the field does)."""
    names = {str(row["id"]): str(row["name"]) for row in players}
    return {"turn_form": form, "turn_dice": shown_turn_dice(form, names, live=live)}
