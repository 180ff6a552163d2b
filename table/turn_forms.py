"""Forms of the judge's turn panel: end the turn, next round, play a chapter card."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.card_names import chapter_card_name
from table.forms import VersionedForm
from tournaments.domain.engine_language import narration_language


class TurnStepForm(VersionedForm):
    """End the active player's turn, or start the next round (only the version)."""


class CardForm(VersionedForm):
    """Play one of the active player's cards; Heavy Weapon! names its marine (the field is
    there only when ``figures``, the marines it may name, are given)."""

    card = forms.ChoiceField(label=_("Card"))
    figure = forms.ChoiceField(label=_("Marine named by the card"), required=False)

    def __init__(
        self,
        *args,
        cards: list[tuple[str, str]] = (),  # type: ignore[assignment]
        figures: list[tuple[str, str]] = (),  # type: ignore[assignment]
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["card"].choices = list(cards)  # type: ignore[attr-defined]
        if not figures:
            del self.fields["figure"]
            return
        # Named as in the card's choices: as the active player's chapter names it.
        card = dict(cards).get("heavy_weapon") or chapter_card_name(
            "heavy_weapon", narration_language()
        )
        self.fields["figure"].help_text = _(
            "Only for %(card)s: the heavy-weapon marine who acts twice."
        ) % {"card": card}
        self.fields["figure"].choices = [("", "—"), *figures]  # type: ignore[attr-defined]
