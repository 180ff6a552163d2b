"""What the board page shows of a re-roll the last attack allows (RULES §5): the dice the
attacker may roll again, each a button, and how the new die is rolled."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from rules.engine.dice import seed_commitment
from rules.engine.narration_turns import chapter_card_name
from rules.engine.rerolls import RerollError, find_offer
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
    """``reroll``: the offer of the latest step (None without one): the attacker, the
    card that will be used, the dice to choose from, the form and the seed's hash."""
    try:
        offer = find_offer(snapshot.steps or [], attacker_of(snapshot))
    except RerollError:
        offer = None
    if offer is None or not offer.cards:
        # A refused re-roll still shows why.
        return {"reroll": {"form": form, "dice": []} if form is not None else None}
    lang = narration_language()
    return {
        "reroll": {
            "figure": offer.figure,
            "card": chapter_card_name(offer.cards[0], lang),
            "dice": [{"number": n, "value": offer.values[n - 1]} for n in offer.dice],
            "form": form or RerollForm(initial={"version": snapshot.number}, prefix="reroll"),
            "commitment": seed_commitment(pending_seed(request, game, REROLL)),
        }
    }
