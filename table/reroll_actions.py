"""Rolling one die of the last attack again (RULES §5: Targeter, Bionic Eye, Digital
Weapons, Bionic Arm), at the table.

The attack's snapshot carries the offers (:mod:`rules.engine.rerolls`): the attacker's,
and in a fight between marines the defending commander's; the judge picks which die to
roll again (its number says whose it is), right after the attack and before anything
else happens (a later step, an undo included, ends the offer). The attack is resolved
again from the step it was made on, with every die as it fell except the chosen one,
rolled through the dice service and recorded; the new snapshot replaces the attack's
result (damage, kills and scores recomputed), the old one stays in the history.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.engine.card_names import chapter_card_name
from rules.engine.dice import Dice
from rules.engine.naming import current_naming
from rules.engine.rerolls import (
    RerollError,
    RerollOffer,
    find_offer,
    replay_dice,
    reroll_step,
    taken,
)
from table.actions import (
    GameError,
    StaleGameError,
    latest_snapshot,
    resolve_marine_attack,
    snapshot_state,
    store_attack,
    survey_needs_dice,
)
from table.models import Game, Snapshot, SnapshotKind
from table.step_log import engine_error_text, narration_language
from tournaments.domain.typed_dice import check_all_dice_used


def attacker_of(snapshot: Snapshot) -> str | None:
    """The attacker of a marine-side attack's snapshot; None for any other step."""
    if snapshot.kind != SnapshotKind.MARINE_ATTACK:
        return None
    for code, params in snapshot.summary_parts or ():
        if code == "attack":
            return params.get("params", {}).get("attacker")
    return None


def reroll_die(
    game: Game,
    die: int,
    dice: Dice,
    *,
    expected_number: int,
    card: str | None = None,
    actor=None,
) -> Snapshot:
    """Roll die number ``die`` of the last attack again with ``dice`` (one die: typed or
    rolled by the app) by ``card`` (None: the first card the offer names) and resolve the
    attack again; the other figure's offer, if any, is made again on the new dice."""
    latest = latest_snapshot(game)
    if latest.number != expected_number:
        raise StaleGameError(
            _("The game changed since you opened the page. Nothing was done; look again.")
        )
    try:
        offer = find_offer(latest.steps or [], attacker_of(latest), die)
        _check_card(offer, card)
        replay = replay_dice(offer, die, dice, card)
    except RerollError as error:
        raise GameError(engine_error_text(error)) from None
    earlier = game.snapshots.filter(number=offer.base).first()
    if earlier is None:
        raise GameError(_("There is no step %(number)d in this game.") % {"number": offer.base})
    outcome = resolve_marine_attack(
        snapshot_state(earlier),
        offer.figure,
        offer.choice,
        replay,
        offer.base,
        taken(offer, replay),
        genestealer_markers=not survey_needs_dice(game),
    )
    try:
        done = reroll_step(offer, replay)
    except RerollError as error:
        raise GameError(engine_error_text(error)) from None
    check_all_dice_used(dice)
    return store_attack(game, expected_number, outcome, dice, actor, steps=[done])


def _check_card(offer: RerollOffer, card: str | None) -> None:
    """Refuse ``card`` when it is not one the offer's figure may use now, naming those it
    may."""
    if card is None or card in offer.cards:
        return
    lang = narration_language()
    names = ", ".join(chapter_card_name(code, lang, offer.roller) for code in offer.cards)
    raise GameError(
        _("%(figure)s cannot roll again with that card now; its cards for this attack: %(cards)s.")
        % {"figure": current_naming().figure_name(offer.roller), "cards": names}
    )
