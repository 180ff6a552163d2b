"""What the board page shows of the re-rolls the last attack allows (RULES §5): for the
attacker and, in a fight between marines, the defending commander, the dice each may roll
again, each a button, and how the new die is rolled."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from rules.engine.card_names import chapter_card_name
from rules.engine.dice import seed_commitment
from rules.engine.naming import current_naming
from rules.engine.rerolls import RerollError, RerollOffer, find_offers
from table.forms import RerollForm
from table.models import Game, Snapshot
from table.reroll_actions import attacker_of
from table.step_log import narration_language
from tournaments.web.dice_choice import pending_seed

#: The purpose of the app's seed for a re-rolled die.
REROLL = "reroll"


def reroll_context(
    request: HttpRequest, game: Game, snapshot: Snapshot, form: RerollForm | None = None
) -> dict[str, Any]:
    """``reroll``: the offers of the latest step (None without one), each with the figure
    whose dice they are, whether it defends, the card that will be used and the dice to
    choose from (``name``: the figure as the step log names it, ``figure`` its id, which
    the board draws on it, for the short buttons); all those dice, the form and the seed's hash."""
    try:
        offers = [o for o in find_offers(snapshot.steps or [], attacker_of(snapshot)) if o.cards]
    except RerollError:
        offers = []
    if not offers:
        # A refused re-roll still shows why.
        return {"reroll": {"form": form, "dice": []} if form is not None else None}
    shown = [_offer(offer) for offer in offers]
    return {
        "reroll": {
            "offers": shown,
            "dice": [die for offer in shown for die in offer["dice"]],
            "form": form or RerollForm(initial={"version": snapshot.number}, prefix="reroll"),
            "commitment": seed_commitment(pending_seed(request, game, REROLL)),
        }
    }


def _offer(offer: RerollOffer) -> dict[str, Any]:
    """One figure's offer as the panel shows it: every card that allows it (``card``: their
    names joined, "Targeter or Bionic Eye") and its dice, each with one button per card when
    several allow the re-roll (the judge uses whichever the player chooses)."""
    lang = narration_language()
    cards = [(code, chapter_card_name(code, lang, offer.roller)) for code in offer.cards]
    names = [name for _code, name in cards]
    return {
        "figure": offer.roller,
        "name": current_naming().figure_name(offer.roller),
        "defending": offer.defender is not None,
        "card": either(names),
        "dice": [
            {
                "number": n,
                "shown": offer.shown(n),
                "value": offer.values[n - 1],
                "buttons": (
                    [{"value": str(n), "card": ""}]
                    if len(cards) == 1
                    else [{"value": f"{n}:{code}", "card": name} for code, name in cards]
                ),
            }
            for n in offer.dice
        ],
    }


def either(names: list[str]) -> str:
    """``names`` as alternatives, in the page's language ("A, B or C")."""
    if len(names) < 2:
        return "".join(names)
    return _("%(some)s or %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}
