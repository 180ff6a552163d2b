"""Rolling one die of an attack again (RULES §5: Targeter, Bionic Eye, Digital Weapons,
Bionic Arm), as pure functions.

The player chooses after seeing the dice, so a re-roll is not part of resolving an attack:
when an attack is made, :func:`reroll_offer` says which cards would let the attacker roll
one of its own dice again, and which dice those are (numbered from 1 in the order rolled,
defender's dice included in the count). The offer is a step of the log
(:meth:`RerollOffer.step`); it must be taken before anything else happens. Taking it
(:func:`replay_dice`) gives a dice source that gives back the attack's dice as they fell,
except the chosen one, rolled again through the injected dice service (recorded with its
own purpose); the attack is then resolved again from the state before it, so damage,
kills and scores are recomputed. Each card lets the attacker roll one die again per
attack: Targeter when the figure shoots the weapon type it marks (never an extra-heavy
weapon), Bionic Eye when the commander shoots, Bionic Arm when he fights hand-to-hand,
Digital Weapons on each of his attacks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.card_effects import held
from rules.engine.combat import HAND_TO_HAND, SHOOT, AttackOption
from rules.engine.dice import Dice, DieKind, Roll
from rules.engine.narration import Step
from rules.engine.narration_errors import CodedError
from rules.engine.state import Figure, GameState
from rules.engine.units import RulesData

#: The re-roll cards, in the order an offer uses them (the narrowest first).
REROLL_CARDS = ("targeter", "bionic_eye", "bionic_arm", "digital_weapons")
REROLL_PURPOSE = "reroll"


class RerollError(CodedError):
    """A re-roll that is not allowed; the message names the rule."""


def _targeter_marks(state: GameState, figure: Figure) -> tuple[str, ...]:
    for player in state.players:
        if player.id == figure.player:
            return player.targeter_marks
    return ()


def reroll_cards(
    state: GameState, attacker: Figure, option: AttackOption, data: RulesData
) -> tuple[str, ...]:
    """The cards that let ``attacker`` roll one die of ``option`` again."""
    cards = held(state, attacker)
    if not cards or option.kind not in (SHOOT, HAND_TO_HAND):
        return ()
    shooting = option.kind == SHOOT
    commander = attacker.unit == "commander"
    allowed = {
        "targeter": shooting
        and option.weapon in _targeter_marks(state, attacker)
        and data.weapon(option.weapon or "").weapon_class != "extra_heavy",
        "bionic_eye": shooting and commander,
        "bionic_arm": not shooting and commander,
        "digital_weapons": commander,
    }
    return tuple(code for code in REROLL_CARDS if code in cards and allowed[code])


@dataclass(frozen=True)
class RerollOffer:
    """What the attacker of the last attack may roll again: the attack (the figure, the
    index of its option among the figure's options, the step the attack was made on), all
    its dice values in order, the numbers of the attacker's own dice, the cards not used
    yet and those used."""

    figure: str
    choice: int
    base: int
    values: tuple[int, ...]
    dice: tuple[int, ...]
    cards: tuple[str, ...]
    used: tuple[str, ...] = ()

    def step(self) -> Step:
        shown = [f"{n}: {self.values[n - 1]}" for n in self.dice]
        return Step(
            "reroll_offer",
            {
                "figure": self.figure,
                "chapter_cards": list(self.cards),
                "choices": ", ".join(shown),
                "choice": self.choice,
                "base": self.base,
                "values": list(self.values),
                "numbers": list(self.dice),
                "used": list(self.used),
            },
        )

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> RerollOffer:
        return cls(
            str(params["figure"]),
            int(params["choice"]),
            int(params["base"]),
            tuple(int(v) for v in params["values"]),
            tuple(int(n) for n in params["numbers"]),
            tuple(params["chapter_cards"]),
            tuple(params.get("used", ())),
        )


def find_offer(steps: Sequence[Mapping[str, Any]], attacker: str | None) -> RerollOffer:
    """The re-roll offer among the stored steps (``Step.as_dict`` dicts) of the last step,
    an attack of ``attacker`` (None: the last step is no attack); refused with the rule's
    name when there is none."""
    if attacker is None:
        raise RerollError("reroll_no_attack")
    for step in steps:
        if step.get("code") == "reroll_offer":
            return RerollOffer.from_params(step.get("params", {}))
    for step in steps:
        if step.get("code") == "reroll_done":
            used = list(step.get("params", {}).get("used", ()))
            raise RerollError("reroll_used", figure=attacker, chapter_cards=used)
    raise RerollError("reroll_no_card", figure=attacker)


def _flat(log: Sequence[Roll]) -> list[tuple[int, str | None]]:
    return [(value, roll.subject) for roll in log for value in roll.values]


def reroll_offer(
    state: GameState,
    option: AttackOption,
    choice: int,
    base: int,
    log: Sequence[Roll],
    data: RulesData,
    used: tuple[str, ...] = (),
) -> RerollOffer | None:
    """The offer after ``option`` was resolved with the rolls ``log`` on the state
    ``state`` (before the attack; ``base`` its step), or None when no card allows one."""
    attacker = state.figure(option.attacker_id)
    cards = tuple(c for c in reroll_cards(state, attacker, option, data) if c not in used)
    rolled = _flat(log)
    mine = tuple(n for n, (_, subject) in enumerate(rolled, 1) if subject == attacker.id)
    if not cards or not mine:
        return None
    values = tuple(value for value, _ in rolled)
    return RerollOffer(attacker.id, choice, base, values, mine, cards, used)


@dataclass
class ReplayDice(Dice):
    """The dice of an attack as they fell, but die ``position`` (from 0) rolled again by
    ``fresh`` (the injected dice service, which records it)."""

    values: Sequence[int] = ()
    position: int = 0
    fresh: Dice | None = None
    card: str = ""
    figure: str = ""
    _next: int = field(default=0, init=False, repr=False)

    source = "replayed"

    @property
    def exhausted(self) -> bool:
        return self._next == len(self.values)

    def _face(self, kind: DieKind, purpose: str, params: Mapping[str, Any]) -> int:
        if self._next >= len(self.values) or self.fresh is None:
            raise RerollError("reroll_replay")
        if self._next == self.position:
            value = self.fresh.roll(
                kind,
                1,
                REROLL_PURPOSE,
                self.figure,
                {"figure": self.figure, "chapter_card": self.card, "die": self.position + 1},
            )[0]
        else:
            value = self.values[self._next]
        self._next += 1
        return value


def replay_dice(offer: RerollOffer, die: int, fresh: Dice) -> ReplayDice:
    """The dice to resolve the offered attack again with die number ``die`` rolled again
    by ``fresh`` (with the offer's first card); refused with the rule's name when ``die``
    is not one of the attacker's."""
    figure = offer.figure
    if not offer.cards:
        raise RerollError("reroll_used", figure=figure, chapter_cards=list(offer.used))
    if die not in offer.dice:
        shown = ", ".join(map(str, offer.dice))
        raise RerollError("reroll_bad_die", die=die, figure=figure, choices=shown)
    return ReplayDice(
        values=offer.values, position=die - 1, fresh=fresh, card=offer.cards[0], figure=figure
    )


def reroll_step(offer: RerollOffer, replay: ReplayDice) -> Step:
    """The log line of a die rolled again, once the attack was resolved again with
    ``replay`` (refused if the attack did not use exactly its dice)."""
    if not replay.exhausted:
        raise RerollError("reroll_replay")
    new = [value for roll in replay.log for value in roll.values][replay.position]
    return Step(
        "reroll_done",
        {
            "figure": offer.figure,
            "chapter_card": replay.card,
            "die": replay.position + 1,
            "old": offer.values[replay.position],
            "new": new,
            "used": [*offer.used, replay.card],
        },
    )
