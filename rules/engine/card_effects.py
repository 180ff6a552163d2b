"""Chapter cards that change an attack's dice, armour or reach (RULES §5), as pure functions.

Combat (:mod:`rules.engine.combat`) asks these while it lists and resolves attacks, so the
players' attacks and the Alien AIs' alike respect them; each returns the card codes it
applied so that the step log can say which card changed what
(:mod:`rules.engine.narration_cards`):

- Force Field (``force_field``): the commander's armour is 3;
- Bolt Pistols (``bolt_pistols``): a bolter-armed figure rolls one more light die in every
  hand-to-hand fight;
- Close Assault Blades (``close_assault_blades``): a bolter-armed figure may fight
  diagonally, and whoever it fights rolls one die fewer;
- Photon Grenades! (``photon_grenades``, order card in play): every alien the player's
  figures fight this turn rolls one die fewer;
- Melta Bomb (``melta_bomb``, one use): chosen with one hand-to-hand attack, two more
  heavy dice (the attack option says so; the card is spent with the attack);
- Combi-Weapon (``combi_weapon``): the commander's bolter may fire as a plasma gun.

"One die fewer: the strongest is dropped" takes a heavy (red) die away when the figure
has one, else a light (white) one: heavy dice are the stronger. Two such cards take two
dice. The re-rolls (Targeter, Bionic Eye, Digital Weapons, Bionic Arm) are chosen after
the dice are seen: :mod:`rules.engine.rerolls`.
"""

from __future__ import annotations

from rules.engine.state import ALIEN, MARINE, Figure, GameState, Player
from rules.engine.units import DiceSpec, RulesData, Weapon

FORCE_FIELD_ARMOUR = 3
#: The weapon a Combi-Weapon's bolter fires as.
COMBI_WEAPON_AS = "plasma_gun"
MELTA_BOMB = "melta_bomb"
COMBI_WEAPON = "combi_weapon"
#: Two more heavy dice for one fight.
MELTA_BOMB_DICE = DiceSpec(0, 2)


def cards_left(player: Player) -> tuple[str, ...]:
    """The player's cards not spent yet (each spent copy takes one held copy away)."""
    left = list(player.cards)
    for spent in player.cards_spent:
        if spent in left:
            left.remove(spent)
    return tuple(left)


def cards_in_play(state: GameState, player_id: str) -> tuple[str, ...]:
    """The unspent cards of the player ``player_id`` (none for an unknown player)."""
    try:
        player = state.player(player_id)
    except KeyError:
        return ()
    return cards_left(player)


def held(state: GameState, figure: Figure) -> tuple[str, ...]:
    """The unspent cards of ``figure``'s player (none for aliens and unknown players)."""
    if figure.player is None or figure.side != MARINE:
        return ()
    return cards_in_play(state, figure.player)


def carries_bolter(figure: Figure) -> bool:
    return "bolter" in figure.weapons


def armour_with_cards(state: GameState, figure: Figure, armour: int) -> tuple[int, str | None]:
    """``figure``'s armour with Force Field, and the card when it raised it."""
    if figure.unit == "commander" and "force_field" in held(state, figure):
        if armour < FORCE_FIELD_ARMOUR:
            return FORCE_FIELD_ARMOUR, "force_field"
    return armour, None


def drop_strongest(spec: DiceSpec) -> DiceSpec:
    """One die fewer: a heavy one if there is one, else a light one."""
    if spec.red:
        return DiceSpec(spec.white, spec.red - 1)
    return DiceSpec(max(0, spec.white - 1), 0)


def fights_diagonally(state: GameState, figure: Figure) -> bool:
    """Whether ``figure`` may fight hand-to-hand diagonally (Close Assault Blades)."""
    return carries_bolter(figure) and "close_assault_blades" in held(state, figure)


def _photon_grenades_against(state: GameState, fighter: Figure, opponent: Figure) -> bool:
    """Photon Grenades! in play for ``opponent``'s player and ``fighter`` an alien."""
    return (
        fighter.side == ALIEN
        and opponent.side == MARINE
        and state.turn.order_card == "photon_grenades"
        and opponent.player is not None
        and state.active_player == opponent.player
    )


def fight_dice(
    state: GameState, fighter: Figure, opponent: Figure, base: DiceSpec, *, melta: bool = False
) -> tuple[DiceSpec, tuple[str, ...]]:
    """The dice ``fighter`` rolls fighting ``opponent`` hand-to-hand (``base`` without
    cards; ``melta``: the attack was chosen with a Melta Bomb), and the cards applied."""
    if fighter.player is None and opponent.player is None:
        return base, ()
    dice, applied = base, list[str]()
    if carries_bolter(fighter) and "bolt_pistols" in held(state, fighter):
        dice, applied = dice + DiceSpec(1, 0), [*applied, "bolt_pistols"]
    if melta:
        dice, applied = dice + MELTA_BOMB_DICE, [*applied, MELTA_BOMB]
    if fights_diagonally(state, opponent):
        dice, applied = drop_strongest(dice), [*applied, "close_assault_blades"]
    if _photon_grenades_against(state, fighter, opponent):
        dice, applied = drop_strongest(dice), [*applied, "photon_grenades"]
    return dice, tuple(applied)


def melta_bomb_ready(state: GameState, figure: Figure) -> bool:
    """Whether ``figure`` (a marine-side figure on foot) may fight with a Melta Bomb."""
    return (
        figure.unit not in ("tarantula",)
        and not figure.is_dreadnought
        and MELTA_BOMB in held(state, figure)
    )


def combi_weapon(state: GameState, figure: Figure, data: RulesData) -> Weapon | None:
    """The weapon a commander's bolter may also fire as (Combi-Weapon), or None."""
    if figure.unit != "commander" or not carries_bolter(figure):
        return None
    if COMBI_WEAPON not in held(state, figure):
        return None
    return data.weapon(COMBI_WEAPON_AS)
