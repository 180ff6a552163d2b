"""Rolling one die of an attack again (RULES §5: Targeter, Bionic Eye, Digital Weapons,
Bionic Arm), as pure functions.

The player chooses after seeing the dice, so a re-roll is not part of resolving an attack:
when an attack is made, :func:`reroll_offers` says which cards would let the attacker roll
one of its own dice again, and which dice those are (numbered from 1 in the order rolled,
defender's dice included in the count; the log and the judge see each figure's dice
numbered from 1 on their own): only the dice whose new roll could turn out better for
their figure's player (:func:`helpful_dice`; docs/decisions.md, "A re-roll that cannot help
is not offered"). In a fight between two marines, the defending commander's Bionic Arm or
Digital Weapons is offered too, for his own dice (docs/decisions.md: a fight is both
figures' attacks). Each offer is a step of the log (:meth:`RerollOffer.step`) naming whose
dice it is; either may be taken, before anything else happens. Taking one
(:func:`replay_dice`) gives a dice source that gives back the attack's dice as they fell,
except the chosen one, rolled again through the injected dice service (recorded with its
own purpose); the attack is then resolved again from the state before it, so damage,
kills and scores are recomputed, and the offers made again with the re-rolls taken so far
(``used``: pairs of figure and card). Each card lets its figure roll one die again per
attack: Targeter when the figure shoots the weapon type it marks (never an extra-heavy
weapon), Bionic Eye when the commander shoots, Bionic Arm when he fights hand-to-hand,
Digital Weapons on each of his attacks.

In the Alien turn nobody can pause for a choice: :func:`automatic_defence_reroll` is the
fixed rule the engine applies for a marine commander an alien fights (docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.card_effects import held
from rules.engine.combat import (
    HAND_TO_HAND,
    SHOOT,
    AttackOption,
    CombatError,
    CombatEvent,
    resolve_attack,
)
from rules.engine.dice import FACES, Dice, DiceError, DieKind, Roll, ScriptedDice
from rules.engine.narration import Step
from rules.engine.narration_errors import CodedError
from rules.engine.state import MARINE, Figure, GameState
from rules.engine.units import RulesData

#: The re-roll cards, in the order an offer uses them (the narrowest first).
REROLL_CARDS = ("targeter", "bionic_eye", "bionic_arm", "digital_weapons")
#: The cards that let a commander who defends in a fight roll one of his dice again.
DEFENCE_CARDS = ("bionic_arm", "digital_weapons")
REROLL_PURPOSE = "reroll"
OFFER = "reroll_offer"
#: The offer to the defending commander of a fight between marines.
DEFENCE_OFFER = "reroll_offer_defence"
#: The step a re-roll's snapshot starts with (:func:`reroll_step`).
DONE = "reroll_done"

#: The re-rolls taken in one attack so far: (figure, card) pairs.
Used = tuple[tuple[str, str], ...]


class RerollError(CodedError):
    """A re-roll that is not allowed; the message names the rule."""


def _targeter_marks(state: GameState, figure: Figure) -> tuple[str, ...]:
    if figure.player is None:
        return ()
    try:
        return state.player(figure.player).targeter_marks
    except KeyError:
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


def defence_cards(state: GameState, option: AttackOption) -> tuple[str, ...]:
    """The cards that let the figure ``option`` fights hand-to-hand roll one of its own
    dice again: Bionic Arm and Digital Weapons, when it is a marine commander."""
    if option.kind != HAND_TO_HAND or option.target is None or not state.has_figure(option.target):
        return ()
    defender = state.figure(option.target)
    if defender.unit != "commander":
        return ()
    cards = held(state, defender)
    return tuple(code for code in DEFENCE_CARDS if code in cards)


def _pairs(used: Sequence[Any], figure: str) -> Used:
    """``used`` as (figure, card) pairs; a bare card (an offer stored before defenders
    could re-roll) is ``figure``'s."""
    return tuple((figure, str(u)) if isinstance(u, str) else (str(u[0]), str(u[1])) for u in used)


@dataclass(frozen=True)
class RerollOffer:
    """What one figure of the last attack may roll again: the attack (the attacker, the
    index of its option among the attacker's options, the step the attack was made on),
    all its dice values in order, the numbers of the figure's dice it may roll again, its
    cards not used yet, the re-rolls taken in the attack so far, the figure when it is the
    defender, and the numbers of all the figure's own dice (``own``: a die is shown by its
    place among them, the defender's first die as die 1)."""

    figure: str
    choice: int
    base: int
    values: tuple[int, ...]
    dice: tuple[int, ...]
    cards: tuple[str, ...]
    used: Used = ()
    defender: str | None = None
    own: tuple[int, ...] = ()

    @property
    def roller(self) -> str:
        """The figure whose dice are offered."""
        return self.defender or self.figure

    def shown(self, die: int) -> int:
        """Die number ``die`` of the attack as its figure counts its own dice (from 1)."""
        return self.own.index(die) + 1 if die in self.own else die

    def step(self) -> Step:
        shown = [f"{self.shown(n)}: {self.values[n - 1]}" for n in self.dice]
        params: dict[str, Any] = {
            "figure": self.roller,
            "attacker": self.figure,
            "chapter_cards": list(self.cards),
            "choices": ", ".join(shown),
            "choice": self.choice,
            "base": self.base,
            "values": list(self.values),
            "numbers": list(self.dice),
            "own": list(self.own),
            "used": [list(pair) for pair in self.used],
        }
        return Step(DEFENCE_OFFER if self.defender else OFFER, params)

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> RerollOffer:
        roller = str(params["figure"])
        attacker = str(params.get("attacker", roller))
        return cls(
            attacker,
            int(params["choice"]),
            int(params["base"]),
            tuple(int(v) for v in params["values"]),
            tuple(int(n) for n in params["numbers"]),
            tuple(params["chapter_cards"]),
            _pairs(params.get("used", ()), roller),
            roller if roller != attacker else None,
            tuple(int(n) for n in params.get("own", params["numbers"])),
        )


def find_offers(steps: Sequence[Mapping[str, Any]], attacker: str | None) -> list[RerollOffer]:
    """Every re-roll offer among the stored steps (``Step.as_dict`` dicts) of the last
    step, an attack of ``attacker`` (None: the last step is no attack): the attacker's
    first. Refused with the rule's name when the last step is no attack."""
    if attacker is None:
        raise RerollError("reroll_no_attack")
    return [
        RerollOffer.from_params(step.get("params", {}))
        for step in steps
        if step.get("code") in (OFFER, DEFENCE_OFFER)
    ]


def find_offer(
    steps: Sequence[Mapping[str, Any]], attacker: str | None, die: int | None = None
) -> RerollOffer:
    """The re-roll offer among the stored steps of the last step, an attack of
    ``attacker``: the one holding die number ``die`` (any: the first); refused with the
    rule's name when there is none."""
    offers = find_offers(steps, attacker)
    for offer in offers:
        if die is None or die in offer.dice:
            return offer
    done = [step.get("params", {}) for step in steps if step.get("code") == DONE]
    owners = list(done[-1].get("owners", ())) if done else []
    owner = owners[die - 1] if die is not None and 0 < die <= len(owners) else None
    if done:
        whose = owner or str(done[-1].get("figure", attacker))
        used = _pairs(done[-1].get("used", ()), str(done[-1].get("figure", attacker)))
        theirs = [card for figure, card in used if figure == whose]
        if theirs:
            raise RerollError("reroll_used", figure=whose, chapter_cards=theirs)
    if offers and die is not None:
        if len(offers) == 1:
            shown = ", ".join(map(str, offers[0].dice))
            raise RerollError("reroll_bad_die", die=die, figure=offers[0].roller, choices=shown)
        shown = "; ".join(f"{o.roller}: {', '.join(map(str, o.dice))}" for o in offers)
        raise RerollError("reroll_bad_die_any", die=die, choices=shown)
    raise RerollError("reroll_no_card", figure=owner or attacker)


def _flat(log: Sequence[Roll]) -> list[tuple[int, str | None]]:
    return [(value, roll.subject) for roll in log for value in roll.values]


def _standing(
    state: GameState,
    option: AttackOption,
    values: Sequence[int],
    player: str | None,
    data: RulesData,
) -> int | None:
    """How ``option`` resolved on ``state`` with ``values`` ends for ``player``: the life
    points its enemies lose minus those its own figures lose; None when those dice cannot
    resolve it (a die that changes what is rolled next)."""
    try:
        _, events = resolve_attack(state, option, ScriptedDice(values=values), data=data)
    except (CombatError, DiceError):
        return None
    standing = 0
    for event in events:
        if event.life_points_lost and event.figure_id and state.has_figure(event.figure_id):
            own = state.figure(event.figure_id).player == player and player is not None
            standing += -event.life_points_lost if own else event.life_points_lost
    return standing


def helpful_dice(
    state: GameState,
    option: AttackOption,
    log: Sequence[Roll],
    dice: Sequence[int],
    figure: str,
    data: RulesData,
) -> tuple[int, ...]:
    """Those of the dice numbered ``dice`` (from 1, in the order rolled) of ``option``'s
    dice ``log`` whose new roll may turn out better for ``figure``'s player than the dice as
    they fell: another face of that die takes more life points from its enemies or fewer
    from its own figures. A shot that killed its target, or a fight already won outright,
    has nothing left to gain. The attack as the dice fell is resolved once for all dice."""
    if not dice:
        return ()
    values = [value for roll in log for value in roll.values]
    kinds = [roll.kind for roll in log for _ in roll.values]
    player = state.figure(figure).player if state.has_figure(figure) else None
    now = _standing(state, option, values, player, data)
    if now is None:
        return tuple(dice)

    def helps(position: int) -> bool:
        for face in sorted(set(FACES[kinds[position]]) - {values[position]}):
            tried = [*values[:position], face, *values[position + 1 :]]
            then = _standing(state, option, tried, player, data)
            if then is None or then > now:
                return True
        return False

    return tuple(n for n in dice if helps(n - 1))


def reroll_offers(
    state: GameState,
    option: AttackOption,
    choice: int,
    base: int,
    log: Sequence[Roll],
    data: RulesData,
    used: Used = (),
) -> tuple[RerollOffer, ...]:
    """The offers after ``option`` was resolved with the rolls ``log`` on the state
    ``state`` (before the attack; ``base`` its step): the attacker's, then the defending
    commander's in a fight between marines; each only while a card allows one, and with
    only the dice whose new roll could help its figure (:func:`helpful_dice`)."""
    attacker = state.figure(option.attacker_id)
    rolled = _flat(log)
    values = tuple(value for value, _ in rolled)
    offers = []
    allowed: list[tuple[str, tuple[str, ...], str | None]] = [
        (attacker.id, reroll_cards(state, attacker, option, data), None)
    ]
    if option.target is not None and state.has_figure(option.target):
        defender = state.figure(option.target)
        if defender.side == MARINE and attacker.side == MARINE:
            allowed.append((defender.id, defence_cards(state, option), defender.id))
    for figure, cards, defending in allowed:
        spent = {card for who, card in used if who == figure}
        left = tuple(card for card in cards if card not in spent)
        mine = tuple(n for n, (_, subject) in enumerate(rolled, 1) if subject == figure)
        if not left:
            continue
        useful = helpful_dice(state, option, log, mine, figure, data)
        if useful:
            offers.append(
                RerollOffer(attacker.id, choice, base, values, useful, left, used, defending, mine)
            )
    return tuple(offers)


@dataclass
class ReplayDice(Dice):
    """The dice of an attack as they fell, but die ``position`` (from 0) rolled again by
    ``fresh`` (the injected dice service, which records it)."""

    values: Sequence[int] = ()
    position: int = 0
    fresh: Dice | None = None
    card: str = ""
    figure: str = ""
    number: int = 0  # the die as its figure counts its own dice; 0: ``position + 1``
    _next: int = field(default=0, init=False, repr=False)

    @property
    def shown(self) -> int:
        return self.number or self.position + 1

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
                {"figure": self.figure, "chapter_card": self.card, "die": self.shown},
            )[0]
        else:
            value = self.values[self._next]
        self._next += 1
        return value


def replay_dice(offer: RerollOffer, die: int, fresh: Dice, card: str | None = None) -> ReplayDice:
    """The dice to resolve the offered attack again with die number ``die`` rolled again
    by ``fresh`` with ``card`` (one of the offer's; None: its first, the narrowest);
    refused with the rule's name when ``die`` is not one of the offered figure's."""
    figure = offer.roller
    if not offer.cards:
        theirs = [card for who, card in offer.used if who == figure]
        raise RerollError("reroll_used", figure=figure, chapter_cards=theirs)
    if die not in offer.dice:
        shown = ", ".join(map(str, offer.dice))
        raise RerollError("reroll_bad_die", die=die, figure=figure, choices=shown)
    return ReplayDice(
        values=offer.values,
        position=die - 1,
        fresh=fresh,
        card=card if card in offer.cards else offer.cards[0],
        figure=figure,
        number=offer.shown(die),
    )


def taken(offer: RerollOffer, replay: ReplayDice) -> Used:
    """The re-rolls of the attack once ``replay`` is taken."""
    return (*offer.used, (replay.figure, replay.card))


def reroll_step(offer: RerollOffer, replay: ReplayDice) -> Step:
    """The log line of a die rolled again, once the attack was resolved again with
    ``replay`` (refused if the attack did not use exactly its dice). It keeps whose each
    die is and the re-rolls taken, so that a second one is refused naming the rule."""
    if not replay.exhausted:
        raise RerollError("reroll_replay")
    rolled = _flat(replay.log)
    return Step(
        DONE,
        {
            "figure": replay.figure,
            "chapter_card": replay.card,
            "die": replay.shown,
            "old": offer.values[replay.position],
            "new": rolled[replay.position][0],
            "used": [list(pair) for pair in taken(offer, replay)],
            "owners": [subject or "" for _, subject in rolled],
        },
    )


def _mean(kind: DieKind) -> float:
    faces = FACES[kind]
    return sum(faces) / len(faces)


def automatic_defence_reroll(
    state: GameState, option: AttackOption, log: Sequence[Roll], events: Sequence[CombatEvent]
) -> tuple[str, int] | None:
    """The re-roll the engine takes for a marine commander an alien fights in the Alien
    turn, where nobody can stop to choose (docs/decisions.md): with Bionic Arm or Digital
    Weapons held (the first of them is used) and, as the dice fell (``log``, ``events``
    of ``option`` resolved on ``state``), the commander losing life points, the one of his
    dice whose kind's mean exceeds its value the most. Returns the card and the die's
    position (from 0), or None when no card is held, he loses nothing, or no die of his
    is below its kind's mean."""
    cards = defence_cards(state, option)
    target = option.target
    if not cards or not any(e.figure_id == target and e.life_points_lost > 0 for e in events):
        return None
    best: tuple[float, int] | None = None
    position = 0
    for roll in log:
        for value in roll.values:
            gain = _mean(roll.kind) - value
            if roll.subject == target and gain > 0 and (best is None or gain > best[0]):
                best = (gain, position)
            position += 1
    return None if best is None else (cards[0], best[1])
