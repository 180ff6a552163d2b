"""The Alien turn being resolved: its state, dice, rules data, log and event modifiers.

The rules of play that act during an Alien turn (the event phase, reinforcements) and the
Alien AI's policies (:mod:`rules.engine.ai`) all change the turn through this context:
``ctx.state`` is replaced, ``ctx.say`` logs a step.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from rules.engine.dice import Dice
from rules.engine.narration import Step
from rules.engine.state import ALIEN, MARINE, Figure, GameState
from rules.engine.units import DiceSpec, RulesData


@dataclass(frozen=True)
class SpecialWeapon:
    """An event card's special weapon (Ork Mekaniak, Gretchin Bomber): the card, the alien
    types it arms, the weapon fired, and whether the firer dies after firing."""

    card: str
    units: frozenset[str]
    weapon: str
    firer_dies: bool = False


@dataclass(frozen=True)
class SelfDestruct:
    """An event card that makes an alien explode (Suicide Android): the card, the alien
    types it may choose, and the dice whose total every figure around the alien takes."""

    card: str
    units: frozenset[str]
    dice: DiceSpec


@dataclass
class TurnModifiers:
    """How the drawn card changes this Alien turn (empty when no card applies)."""

    cannot_move: frozenset[str] = frozenset()
    #: Types that may not shoot this turn (they may still fight: Psychic Attack).
    cannot_shoot: frozenset[str] = frozenset()
    cannot_act: frozenset[str] = frozenset()
    extra_movement: int = 0
    extra_movement_units: frozenset[str] = frozenset()  # empty: every alien
    #: Types whose movement is doubled this turn (they still attack: Mechanical Assault).
    double_movement: frozenset[str] = frozenset()
    activate_first: tuple[str, ...] = ()
    #: Whether the alien ``activate_first`` picks acts a second time at once (Alien Elite).
    elite_acts_twice: bool = False
    swap_two_aliens: bool = False
    close_doors_blocking_sight: bool = False
    first_figure: str | None = field(default=None)
    #: Until the first alien able to use it fires it (then None again).
    special_weapon: SpecialWeapon | None = None
    #: Until the first alien able to use it explodes (then None again).
    self_destruct: SelfDestruct | None = None
    #: Whether an alien of the self-destruct card's types activated this turn (the log
    #: then says none could use the card, not that none was on the board).
    self_destruct_offered: bool = False

    def movement_bonus(self, unit: str) -> int:
        if not self.extra_movement:
            return 0
        if self.extra_movement_units and unit not in self.extra_movement_units:
            return 0
        return self.extra_movement


@dataclass
class TurnContext:
    """The turn being resolved: current state, dice, rules data and the growing log."""

    state: GameState
    dice: Dice
    rules: RulesData
    steps: list[Step] = field(default_factory=list)
    modifiers: TurnModifiers = field(default_factory=TurnModifiers)
    #: Whether the session map's Genestealer markers are in use (BoB); a Solitaire turn
    #: sets it False (its Genestealers come from the pile).
    genestealer_markers: bool = True
    #: The Alien policy resolving the turn (an event card may differ by policy).
    policy: str = "bob"
    #: The event card the judge drew from the real deck at the table (its id), taken
    #: instead of the dice's draw; None: the dice draw it.
    event_card: str | None = None

    def say(self, code: str, **params: Any) -> None:
        self.steps.append(Step(code, params))

    def extend(self, steps: list[Step]) -> None:
        self.steps.extend(steps)

    def aliens(self, excluding: Collection[str] = ()) -> list[Figure]:
        """The aliens on the board (``f.squares`` is ``f.on_board``, without the call),
        but for those whose ids are in ``excluding``."""
        return [
            f for f in self.state.figures if f.side == ALIEN and f.squares and f.id not in excluding
        ]

    def marines(self) -> list[Figure]:
        return [f for f in self.state.figures if f.side == MARINE and f.squares]
