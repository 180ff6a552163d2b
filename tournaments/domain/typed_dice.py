"""Physical dice typed in by a judge, with errors in the user's language.

The engine's :class:`~rules.engine.dice.ScriptedDice` and ``parse_dice_list`` explain bad
values in English and name the die by its code (``white``); the web pages and commands use
these instead, which say the same with translated text and the die's label.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine.dice import (
    FACES,
    Dice,
    DiceError,
    DieKind,
    Roll,
    ScriptedDice,
    SeededDice,
    new_seed,
)
from rules.engine.dice_ahead import DieAhead
from tournaments.domain.roll_purposes import logged_purpose_label

if TYPE_CHECKING:
    from tournaments.models import Player

#: A die as named inside a sentence ("which a white combat die cannot show").
DIE_NAMES = {
    DieKind.D3: gettext_lazy("d3"),
    DieKind.D6: gettext_lazy("d6"),
    DieKind.D12: gettext_lazy("d12"),
    DieKind.WHITE: gettext_lazy("white (light) combat die"),
    DieKind.RED: gettext_lazy("red (heavy) combat die"),
}


@dataclass
class TypedDice(ScriptedDice):
    """The judge's dice, used in order; a missing or impossible value raises a translated
    :class:`DiceError` naming the die and what it was rolled for, and, when ``subjects``
    names the player a roll is made for (by the id the roll records), whose die it is: in
    a roll-off the judge then knows who rolls next."""

    subjects: Mapping[str, str] = field(default_factory=dict)
    #: The squads' names by slug, for the purposes of a draw's rolls.
    squads: Mapping[str, str] = field(default_factory=dict)
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
        label = logged_purpose_label(purpose, params, self.squads)
        player = self.subjects.get(str(self._subject)) if self._subject is not None else None
        if player is None:
            return label
        return _("%(purpose)s, %(player)s’s die") % {"purpose": label, "player": player}


def subject_names(players: Iterable[Player]) -> dict[str, str]:
    """The players' names by the id their rolls record (:class:`TypedDice`'s ``subjects``)."""
    return {str(player.pk): player.display_name for player in players}


def parse_typed_dice(text: str, die: DieKind | None = None) -> list[int]:
    """The judge's dice as typed (``"3,6,5"``, empty items skipped). Every item that is not
    a whole number, and, when ``die`` is given, every value that die cannot show, is named
    in one translated :class:`DiceError` saying how to fix them, so the judge retypes
    everything wrong at once. Dice are numbered as the rolls number them (an empty item is
    no die)."""
    typed: list[tuple[int, int]] = []
    not_numbers: list[tuple[int, str]] = []
    items = (item.strip() for item in text.split(","))
    for number, item in enumerate((item for item in items if item), start=1):
        try:
            typed.append((number, int(item)))
        except ValueError:
            not_numbers.append((number, item))
    message = _dice_problems(_impossible(typed, die), not_numbers, die)
    if message:
        raise DiceError(message)
    return [value for _number, value in typed]


def _impossible(typed: Iterable[tuple[int, int]], die: DieKind | None) -> list[tuple[int, int]]:
    """The (die number, value) pairs of ``typed`` a ``die`` cannot show (none when the die
    is not known)."""
    if die is None:
        return []
    return [(number, value) for number, value in typed if value not in FACES[die]]


def _dice_problems(
    impossible: Sequence[tuple[int, int]],
    not_numbers: Sequence[tuple[int, str]],
    die: DieKind | None,
) -> str:
    """One message naming every impossible die and every item that is no number, then
    what to do; empty when there is nothing wrong."""
    parts: list[str] = []
    if impossible:
        assert die is not None  # only a known die makes a value impossible
        allowed = sorted(set(FACES[die]))
        dice = ", ".join(
            _("die %(number)d is %(value)d") % {"number": number, "value": value}
            for number, value in impossible
        )
        parts.append(
            _("%(dice)s, which a %(die)s cannot show (allowed: %(allowed)s)")
            % {
                "dice": dice,
                "die": DIE_NAMES[die],
                "allowed": ", ".join(str(face) for face in allowed),
            }
        )
    if not_numbers:
        dice = ", ".join(
            _("die %(number)d is “%(value)s”") % {"number": number, "value": item}
            for number, item in not_numbers
        )
        parts.append(
            ngettext(
                "%(dice)s, which is not a whole number",
                "%(dice)s, which are not whole numbers",
                len(not_numbers),
            )
            % {"dice": dice}
        )
    if not parts:
        return ""
    count = len(impossible) + len(not_numbers)
    if not_numbers:
        fix = ngettext(
            "retype it: each die as a number, separated by commas (e.g. 3,6,5).",
            "retype them: each die as a number, separated by commas (e.g. 3,6,5).",
            count,
        )
    else:
        fix = ngettext("retype it.", "retype them.", count)
    return "; ".join([*parts, fix])


def make_dice(
    dice_text: str | None = None,
    seed: int | None = None,
    *,
    subjects: Mapping[str, str] | None = None,
) -> Dice:
    """Physical dice typed by a judge (``"3,6,5"``: d6s, as every roll of the tournament's
    rules is), or app dice from ``seed`` (or a new one).
    ``subjects``: the players' names by the id their rolls record, so that a missing typed
    die names whose it is (:class:`~tournaments.domain.typed_dice.TypedDice`).

    Raises :class:`DiceError` with a clear message on bad input.
    """
    if dice_text is not None and seed is not None:
        raise DiceError(_("give either dice values or a seed, not both"))
    if dice_text is not None:
        values = parse_typed_dice(dice_text, DieKind.D6)
        if not values:
            raise DiceError(_("no dice values were given; type them like 3,6,5"))
        return TypedDice(values=values, subjects=subjects or {})
    if seed is not None and seed < 0:
        raise DiceError(_("the seed must be a non-negative whole number"))
    return SeededDice(seed=new_seed() if seed is None else seed)


def check_all_dice_used(dice: Dice) -> None:
    """Refuse typed dice that were not all needed: a sign the judge's list does not match."""
    if isinstance(dice, ScriptedDice) and dice.remaining:
        raise DiceError(extra_dice_message(len(dice.values), len(dice.values) - dice.remaining))


def extra_dice_message(given: int, used: int) -> str:
    """Why ``given`` typed dice are refused when only ``used`` of them are needed."""
    extra = given - used
    return ngettext(
        "%(extra)d die value was not needed (%(given)d given, %(used)d used); "
        "check the list and remove the extra value",
        "%(extra)d die values were not needed (%(given)d given, %(used)d used); "
        "check the list and remove the extra values",
        extra,
    ) % {"extra": extra, "given": given, "used": used}


@dataclass(frozen=True)
class DiceNeed:
    """How far a judge's typed dice take a roll such as the squad draw.

    ``used`` of the ``given`` values were needed. When the dice ran out (``complete`` is
    False), ``purpose`` says what the next roll is for and ``rollers`` who rolls it, in
    order (the rest of that round of the roll-off); ``more_after`` says whether the roll
    may need still more dice afterwards (other roll-offs, or a re-roll after a tie).
    """

    given: int
    used: int
    complete: bool
    purpose: str = ""
    rollers: tuple[str, ...] = ()
    more_after: bool = False

    @property
    def extra(self) -> int:
        return self.given - self.used if self.complete else 0


#: Made-up rolls after the typed ones, all different within a round: the roll goes on
#: without ties, so the next round shows who rolls in it.
_PROBE = (6, 5, 4, 3, 2, 1) * 40


def dice_needed(
    run: Callable[[Dice], object],
    values: Sequence[int],
    subjects: Mapping[str, str] | None = None,
    squads: Mapping[str, str] | None = None,
) -> DiceNeed:
    """Run ``run`` (a pure rule rolling d6s, e.g. the squad draw) with the typed ``values``
    and, once they run out, made-up ones, to tell the judge how many dice it needs: nothing
    more, or the next round of rolls and who rolls them (``subjects``: names by the id the
    rolls record; ``squads``: squad names by slug). Raises what ``run`` raises for bad input
    other than the dice."""
    dice = ScriptedDice(values=[*values, *_PROBE])
    run(dice)
    used = len(dice.values) - dice.remaining
    if used <= len(values):
        return DiceNeed(given=len(values), used=used, complete=True)
    position = 0
    probe: list[Roll] = []
    for roll in dice.log:
        if position >= len(values):
            probe.append(roll)
        position += len(roll.values)
    first = probe[0]
    group = [first]
    for roll in probe[1:]:
        if (roll.purpose, dict(roll.params)) != (first.purpose, dict(first.params)):
            break
        group.append(roll)
    names = subjects or {}
    return DiceNeed(
        given=len(values),
        used=len(values),
        complete=False,
        purpose=logged_purpose_label(first.purpose, first.params, squads),
        rollers=tuple(names.get(str(roll.subject), str(roll.subject)) for roll in group),
        more_after=len(group) < len(probe) or len(group) > 1,
    )


@dataclass(frozen=True)
class DiceRound:
    """Dice rolled one after another for one purpose (a roll-off's round), as the judge
    reads them: their places in the typed list, what they are for and who rolls each, in
    order (empty when nobody in particular does)."""

    first: int
    last: int
    purpose: str
    rollers: tuple[str, ...]

    @property
    def count(self) -> int:
        return self.last - self.first + 1


def dice_rounds(
    dice: Sequence[DieAhead],
    subjects: Mapping[str, str] | None = None,
    squads: Mapping[str, str] | None = None,
) -> tuple[DiceRound, ...]:
    """Consecutive d6 of :func:`~rules.engine.dice_ahead.dice_ahead`'s list rolled for the
    same purpose, one :class:`DiceRound` each (``subjects``: the players' names by the id
    their rolls record; ``squads``: squad names by slug)."""
    groups: list[list[DieAhead]] = []
    for die in dice:
        last = groups[-1][-1] if groups else None
        if last is not None and (last.purpose, dict(last.params)) == (
            die.purpose,
            dict(die.params),
        ):
            groups[-1].append(die)
        else:
            groups.append([die])
    names = subjects or {}
    return tuple(
        DiceRound(
            first=group[0].position,
            last=group[-1].position,
            purpose=logged_purpose_label(group[0].purpose, group[0].params, squads),
            rollers=tuple(
                names.get(str(die.subject), str(die.subject))
                for die in group
                if die.subject is not None
            ),
        )
        for group in groups
    )


def dice_rounds_text(rounds: Sequence[DiceRound]) -> str:
    """The rounds in one sentence for an error message: "die 3 (d6): best runners-up: tie
    on 12 points, rolled by Anna; dice 4–5 (2 d6): random seating, rolled by Bruno, Carla"."""
    parts = []
    for dice_round in rounds:
        if dice_round.count == 1:
            where = _("die %(number)d (d6)") % {"number": dice_round.first}
        else:
            where = _("dice %(first)d–%(last)d (%(count)d d6)") % {
                "first": dice_round.first,
                "last": dice_round.last,
                "count": dice_round.count,
            }
        part = f"{where}: {dice_round.purpose}"
        if dice_round.rollers:
            part += _(", rolled by %(players)s") % {"players": ", ".join(dice_round.rollers)}
        parts.append(part)
    return "; ".join(parts)
