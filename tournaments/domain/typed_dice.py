"""Physical dice typed in by a judge, with errors in the user's language.

The engine's :class:`~rules.engine.dice.ScriptedDice` and ``parse_dice_list`` explain bad
values in English and name the die by its code (``white``); the web pages and commands use
these instead, which say the same with translated text and the die's label.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from rules.engine.dice import (
    FACES,
    Dice,
    DiceError,
    DieKind,
    ScriptedDice,
    SeededDice,
    new_seed,
    parse_dice_list,
)
from tournaments.domain.roll_purposes import logged_purpose_label

if TYPE_CHECKING:
    from tournaments.models import Player

#: A die as named inside a sentence ("which a white combat die cannot show").
DIE_NAMES = {
    DieKind.D3: _lazy("d3"),
    DieKind.D6: _lazy("d6"),
    DieKind.D12: _lazy("d12"),
    DieKind.WHITE: _lazy("white (light) combat die"),
    DieKind.RED: _lazy("red (heavy) combat die"),
}


@dataclass
class TypedDice(ScriptedDice):
    """The judge's dice, used in order; a missing or impossible value raises a translated
    :class:`DiceError` naming the die and what it was rolled for, and, when ``subjects``
    names the player a roll is made for (by the id the roll records), whose die it is: in
    a roll-off the judge then knows who rolls next."""

    subjects: Mapping[str, str] = field(default_factory=dict)
    _subject: str | None = field(default=None, init=False, repr=False)

    def roll(
        self,
        kind: DieKind | str,
        count: int = 1,
        purpose: str = "",
        subject: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> tuple[int, ...]:
        self._subject = subject
        return super().roll(kind, count, purpose, subject, params)

    def _face(self, kind: DieKind, purpose: str, params: Mapping[str, Any]) -> int:
        number = self._position + 1
        if self._position >= len(self.values):
            given = len(self.values)
            values: dict[str, int | str] = {"number": number, "given": given}
            if purpose:
                message = ngettext(
                    "not enough dice: die %(number)d, for %(purpose)s, is needed but only "
                    "%(given)d value was given; add more values",
                    "not enough dice: die %(number)d, for %(purpose)s, is needed but only "
                    "%(given)d values were given; add more values",
                    given,
                )
                values["purpose"] = self._what_for(purpose, params)
            else:
                message = ngettext(
                    "not enough dice: die %(number)d is needed but only %(given)d value was "
                    "given; add more values",
                    "not enough dice: die %(number)d is needed but only %(given)d values were "
                    "given; add more values",
                    given,
                )
            raise DiceError(message % values)
        value = self.values[self._position]
        allowed = sorted(set(FACES[kind]))
        if value not in allowed:
            raise DiceError(
                _("die %(number)d is %(value)d, which a %(die)s cannot show (allowed: %(allowed)s)")
                % {
                    "number": number,
                    "value": value,
                    "die": DIE_NAMES[kind],
                    "allowed": ", ".join(str(face) for face in allowed),
                }
            )
        return super()._face(kind, purpose, params)

    def _what_for(self, purpose: str, params: Mapping[str, Any]) -> str:
        label = logged_purpose_label(purpose, params)
        player = self.subjects.get(str(self._subject)) if self._subject is not None else None
        if player is None:
            return label
        return _("%(purpose)s, %(player)s’s die") % {"purpose": label, "player": player}


def subject_names(players: Iterable[Player]) -> dict[str, str]:
    """The players' names by the id their rolls record (:class:`TypedDice`'s ``subjects``)."""
    return {str(player.pk): player.display_name for player in players}


def parse_typed_dice(text: str) -> list[int]:
    """The judge's dice as typed (``"3,6,5"``); a translated DiceError on a bad item."""
    return parse_dice_list(text, not_a_number=_not_a_number)


def _not_a_number(position: int, item: str) -> str:
    return _("die %(number)d is “%(value)s”, which is not a whole number") % {
        "number": position,
        "value": item,
    }


def make_dice(
    dice_text: str | None = None,
    seed: int | None = None,
    *,
    subjects: Mapping[str, str] | None = None,
) -> Dice:
    """Physical dice typed by a judge (``"3,6,5"``), or app dice from ``seed`` (or a new one).
    ``subjects``: the players' names by the id their rolls record, so that a missing typed
    die names whose it is (:class:`~tournaments.domain.typed_dice.TypedDice`).

    Raises :class:`DiceError` with a clear message on bad input.
    """
    if dice_text is not None and seed is not None:
        raise DiceError(_("give either dice values or a seed, not both"))
    if dice_text is not None:
        values = parse_typed_dice(dice_text)
        if not values:
            raise DiceError(_("no dice values were given; type them like 3,6,5"))
        return TypedDice(values=values, subjects=subjects or {})
    if seed is not None and seed < 0:
        raise DiceError(_("the seed must be a non-negative whole number"))
    return SeededDice(seed=new_seed() if seed is None else seed)


def check_all_dice_used(dice: Dice) -> None:
    """Refuse typed dice that were not all needed: a sign the judge's list does not match."""
    if isinstance(dice, ScriptedDice) and dice.remaining:
        used = len(dice.values) - dice.remaining
        raise DiceError(
            ngettext(
                "%(extra)d die value was not needed (%(given)d given, %(used)d used); "
                "check the list and remove the extra value",
                "%(extra)d die values were not needed (%(given)d given, %(used)d used); "
                "check the list and remove the extra values",
                dice.remaining,
            )
            % {"extra": dice.remaining, "given": len(dice.values), "used": used}
        )
