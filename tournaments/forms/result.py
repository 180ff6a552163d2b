"""The judge's result form: what each seat did in a session, in counts a judge can tap in.

Each kill is entered once, by the killing seat; the victim's matching loss is derived from
it, so the two records can never disagree. Losses to aliens or to a seat's own fire are
entered by the losing seat. Alien tokens, objectives, Dreadnoughts destroyed and
stall-breaker rounds are rows a seat can have any number of (see :mod:`.result_rows`).
The form offers only what the session can produce (decision 79, from the same facts the
result's checks use: :attr:`~tournaments.domain.plausibility.SessionLimits.parts`): without
aliens no losses to aliens and no alien tokens, objectives only in Catch the Flag,
stall-breaker rounds only with a stall breaker, Tarantulas, their gunners and piloted
Dreadnoughts only where special equipment hides them. What the values it is given (posted,
or a stored version saved before the checks) already hold is shown all the same, with a
note on the rows, and refused by the result's checks
(:func:`~tournaments.domain.plausibility.check_result`), saying why, so that a correction
can take it out.
The form builds the scoring service's :class:`~tournaments.domain.scoring.SeatBreakdown` list;
the same form drives the live preview.

Light-weapon and unarmed marines share one count ("light weapon or unarmed"), since the
judge enters them alike. A version entered elsewhere (the JSON API, an import) may record
unarmed marines apart; a form loaded from such a version lists them apart too (an
"unarmed" count and Dreadnought pilot), so correcting it keeps them as stored: their
points follow the tournament's own unarmed value, which an organiser may set apart.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy as _

from tournaments.domain.plausibility import (
    Implausibility,
    SessionLimits,
    check_result,
    token_values_text,
)
from tournaments.domain.scoring import (
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    SeatBreakdown,
    TarantulaKill,
)
from tournaments.domain.stipulation_limits import result_parts
from tournaments.forms.accessible import AccessibleFormMixin
from tournaments.forms.result_rows import (
    MAX_ROWS,
    ROW_KINDS,
    DreadnoughtRows,
    RowAction,
    RowKind,
    TokenRows,
    add_button_name,
    remove_button_name,
    row_name,
    row_prefix,
    rows_given,
    total_name,
)
from tournaments.models import Seat
from tournaments.queries.session_stipulation import plays_aliens

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

KILL_CLASSES: tuple[tuple[MarineClass, StrOrPromise], ...] = (
    (MarineClass.LIGHT, _("light or unarmed (5)")),
    (MarineClass.HEAVY, _("heavy weapon (10)")),
    (MarineClass.COMMANDER, _("commander (10)")),
    (MarineClass.EXTRA_HEAVY, _("extra-heavy weapon (15)")),
    (MarineClass.GUNNER, _("Tarantula gunner (5)")),
)
#: The classes of a form that lists unarmed marines apart (see :func:`lists_unarmed_apart`).
KILL_CLASSES_UNARMED_APART: tuple[tuple[MarineClass, StrOrPromise], ...] = (
    (MarineClass.LIGHT, _("light weapon (5)")),
    (MarineClass.UNARMED, _("unarmed (5)")),
    *KILL_CLASSES[1:],
)
LOSS_CAUSES = (
    (LossCause.ALIEN, "alien"),
    (LossCause.OWN_FIRE, "own"),
    (LossCause.LEFT_ON_BOARD, "left"),
)
#: Causes only a session with aliens can have (their counts are shown only there, or when
#: a value is given): the aliens, and the end of the game the Alien side's clock brings.
ALIEN_SIDE_CAUSES = (LossCause.ALIEN, LossCause.LEFT_ON_BOARD)
TOKEN_ROWS = next(kind for kind in ROW_KINDS if isinstance(kind, TokenRows))
DREADNOUGHT_ROWS = next(kind for kind in ROW_KINDS if isinstance(kind, DreadnoughtRows))
LOSS_SECTIONS = {
    LossCause.ALIEN: _("Own marines lost to aliens"),
    LossCause.OWN_FIRE: _("Own marines lost to own fire"),
    LossCause.LEFT_ON_BOARD: _("Own marines left on the board at the game's end"),
}


def lists_unarmed_apart(source: Mapping[str, Any]) -> bool:
    """Whether the form for ``source`` (posted data or initial values) lists unarmed marines
    apart: when it has an unarmed count or Dreadnought pilot, i.e. it was loaded from a
    version that records some, or posted from a form that showed them."""
    unarmed = MarineClass.UNARMED.value
    return any(
        name.endswith(f"-{unarmed}") or (name.endswith("-pilot") and source[name] == unarmed)
        for name in source
    )


def session_has_aliens(seats: Sequence[Seat], limits: SessionLimits | None) -> bool:
    """Whether the session of ``seats`` is played with aliens: as its limits say (the rule
    the result's checks follow, decision 30), else as its stipulation says; with no seat,
    True."""
    if limits is not None:
        return limits.aliens.in_play
    return plays_aliens(seats[0].session) if seats else True


def _typed(value: Any) -> bool:
    """Whether a count's value (posted text or an initial number) holds more than 0 or
    nothing."""
    return value is not None and str(value).strip() not in ("", "0")


def row_count_names(form: ResultForm) -> set[str]:
    """The hidden fields saying how many rows of each kind a seat shows."""
    return {total_name(player, kind) for player, kind in form.row_counts}


def posted_values(initial: Mapping[str, Any]) -> dict[str, Any]:
    """What a browser posts for a form showing ``initial`` (an unticked box is left out)."""
    return {
        name: "on" if value is True else value
        for name, value in initial.items()
        if value is not None and value is not False
    }


def _count(label: StrOrPromise) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=99,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 99}),
    )


class ResultForm(AccessibleFormMixin, forms.Form):
    """One block of fields per seat; field names start with ``p<player id>-``.

    The number of rows of each repeatable kind comes from the hidden row counts of the
    data (bound) or of ``initial`` (unbound), else the kind's default.
    """

    version = forms.IntegerField(widget=forms.HiddenInput)
    #: The result version the form was loaded from (0: none), and the newer version the
    #: judge compared their values with after a refused save (see :mod:`.result_conflict`).
    based_on = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    compared_with = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    #: The board game the form was filled from and the step it stood at (empty: none).
    from_game = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    from_step = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(
        self,
        *args,
        seats: Sequence[Seat],
        limits: SessionLimits | None = None,
        with_aliens: bool | None = None,
        keep: RowAction | None = None,
        **kwargs,
    ):
        self.seats = list(seats)
        #: What the session allows (:mod:`tournaments.domain.plausibility`); None: only the
        #: fields' own checks (a form rebuilt to show what was typed).
        self.limits = limits
        #: Whether the session is played with aliens (None: as :func:`session_has_aliens`
        #: finds). Without them a seat has fields for losses to aliens only when the values
        #: given hold some, to be refused by the result's checks.
        self.with_aliens = (
            session_has_aliens(self.seats, limits) if with_aliens is None else with_aliens
        )
        #: What the session can produce; a part it cannot is shown only when the values
        #: given hold some of it.
        self.parts = result_parts(limits.scoring if limits is not None else None, self.with_aliens)
        #: The "add a row" or "remove" just done: its rows stay shown, even the last one of
        #: a part the session cannot produce removed (the judge is still in that section).
        self.keep = keep
        super().__init__(*args, **kwargs)
        #: The rows of each kind each seat shows (a kind not shown has none).
        self.row_counts: dict[tuple[int, RowKind], int] = {}
        #: The kinds of rows shown only because the values given hold some, which the
        #: session cannot produce: their rows are to be removed.
        self.refused_rows: set[tuple[int, RowKind]] = set()
        #: Field name -> where the field is on the page (seat and section), so an error
        #: listed away from its field says which of the many alike fields it belongs to.
        self.places: dict[str, str] = {}
        #: The fields counting marines and Tarantulas (left empty, they count 0).
        self.count_fields: set[str] = set()
        self.unarmed_apart = lists_unarmed_apart(self._source())
        classes = KILL_CLASSES_UNARMED_APART if self.unarmed_apart else KILL_CLASSES
        gunners = self.parts.tarantulas or self._gunners_given()
        self.kill_classes = tuple(
            (marine_class, label)
            for marine_class, label in classes
            if gunners or marine_class is not MarineClass.GUNNER
        )
        for seat in self.seats:
            self._add_seat_fields(seat)

    def _source(self) -> Mapping[str, Any]:
        return self.data if self.is_bound else self.initial

    def _given(self, name: str) -> bool:
        """Whether the values given hold a count of more than 0 in field ``name``."""
        return _typed(self._source().get(name))

    def _gunners_given(self) -> bool:
        """Whether the values given count a Tarantula gunner killed or lost anywhere."""
        suffix = f"-{MarineClass.GUNNER.value}"
        return any(name.endswith(suffix) and self._given(name) for name in self._source())

    def _rows_given(self, seat: Seat, kind: RowKind) -> bool:
        """Whether the values given fill a row of ``kind`` for ``seat``."""
        prefix, total = row_prefix(seat.player_id, kind), total_name(seat.player_id, kind)
        return any(
            name.startswith(prefix) and name != total and value not in (None, "")
            for name, value in self._source().items()
        )

    def _rows_shown(self, seat: Seat, kind: RowKind) -> bool:
        """Whether ``seat`` has rows of ``kind``: when the session can produce them, when
        the values given hold some, or when the judge has just added or removed one."""
        kept = self.keep is not None and (self.keep.player_id, self.keep.kind) == (
            seat.player_id,
            kind,
        )
        return self.parts.allows(kind.breakdown_field) or kept or self._rows_given(seat, kind)

    @staticmethod
    def key(seat: Seat, name: str) -> str:
        return f"p{seat.player_id}-{name}"

    def _others(self, seat: Seat) -> list[Seat]:
        return [other for other in self.seats if other.pk != seat.pk]

    def _place(self, seat: Seat, section: StrOrPromise, names: Sequence[str]) -> None:
        where = f"{seat.player.display_name} · {section}"
        for name in names:
            self.places[name] = where

    def _add_seat_fields(self, seat: Seat) -> None:
        key = self.key
        for other in self._others(seat):
            names = []
            for marine_class, label in self.kill_classes:
                names.append(key(seat, f"kill-{other.player_id}-{marine_class.value}"))
                self.fields[names[-1]] = _count(label)
            tarantula = key(seat, f"tarantula-{other.player_id}")
            if self.parts.tarantulas or self._given(tarantula):
                names.append(tarantula)
                self.fields[tarantula] = _count(_("Tarantulas destroyed (10)"))
            section = _("Marines of %(name)s killed") % {"name": other.player.display_name}
            self._place(seat, section, names)
            self.count_fields.update(names)
        for cause, name in LOSS_CAUSES:
            names = [
                key(seat, f"{name}-{marine_class.value}") for marine_class, _l in self.kill_classes
            ]
            if cause in ALIEN_SIDE_CAUSES and not self._alien_losses_shown(names):
                continue
            for field_name, (_class, label) in zip(names, self.kill_classes, strict=True):
                self.fields[field_name] = _count(label)
            self._place(seat, LOSS_SECTIONS[cause], names)
            self.count_fields.update(names)
        owners = [(str(other.player_id), other.player.display_name) for other in self._others(seat)]
        for kind in ROW_KINDS:
            if not self._rows_shown(seat, kind):
                continue
            if not self.parts.allows(kind.breakdown_field):
                self.refused_rows.add((seat.player_id, kind))
            self.fields[total_name(seat.player_id, kind)] = kind.total_field()
            count = min(rows_given(self._source(), seat.player_id, kind), MAX_ROWS)
            self.row_counts[(seat.player_id, kind)] = count
            for row in range(count):
                for part, field in kind.fields(owners, self.unarmed_apart).items():
                    self.fields[row_name(seat.player_id, kind, row, part)] = field
                    self._place(
                        seat, f"{kind.title} {row + 1}", [row_name(seat.player_id, kind, row, part)]
                    )
        self.fields[key(seat, "survived")] = forms.BooleanField(
            label=_("a marine was still in play at the end"), required=False, initial=True
        )

    def _counts_shown(self, seat: Seat, prefix: str) -> list:
        """The bound count fields of ``seat``'s losses under ``prefix`` that the form has
        (a cause only a session with aliens has may have none)."""
        return [
            self[name]
            for c, _l in self.kill_classes
            if (name := self.key(seat, f"{prefix}-{c.value}")) in self.fields
        ]

    def _alien_losses_shown(self, names: Sequence[str]) -> bool:
        """Whether a seat has fields for its losses to aliens (``names``): always in a
        session with aliens; without them only when the values given hold one."""
        return self.parts.aliens or any(self._given(name) for name in names)

    def full_clean(self) -> None:
        super().full_clean()
        # A refused save reloads the page: the cursor goes to the first value to fix.
        first = next((name for name in self.fields if name in self.errors), None)
        if first is not None:
            self.fields[first].widget.attrs["autofocus"] = True

    def placed_errors(self) -> list[str]:
        """Every error as one line naming its place: the seat, the section and the field
        (the live preview lists them away from the form)."""
        lines: list[str] = []
        for name, errors in self.errors.items():
            field = self.fields.get(name)
            where = [self.places[name]] if name in self.places else []
            if field is not None and field.label is not None and name != NON_FIELD_ERRORS:
                where.append(str(field.label))
            prefix = "".join(f"{part}: " for part in where)
            lines.extend(f"{prefix}{error}" for error in errors)
        return lines

    def _rows(self, seat: Seat, kind: RowKind) -> range:
        return range(self.row_counts.get((seat.player_id, kind), 0))

    def _row_values(self, seat: Seat, kind: RowKind, row: int) -> dict:
        return {
            part: self.cleaned_data.get(row_name(seat.player_id, kind, row, part))
            for part in kind.parts
        }

    def row_section(self, seat: Seat, kind: RowKind, *, focus: RowAction | None = None) -> dict:
        """Bound fields of one kind of rows of one seat, for the rows partial.

        ``focus`` is the add/remove just done: the cursor goes to the new row, or to the
        add button after a removal.
        """
        player = seat.player_id
        rows: list[dict[str, Any]] = [
            {
                "number": row + 1,
                "fields": [self[row_name(player, kind, row, part)] for part in kind.parts],
                "remove_name": remove_button_name(player, kind, row),
            }
            for row in self._rows(seat, kind)
        ]
        acted = (
            focus if focus is not None and (focus.player_id, focus.kind) == (player, kind) else None
        )
        if acted is not None and acted.remove is None and rows:
            rows[-1]["fields"][0].field.widget.attrs["autofocus"] = True
        return {
            "kind": kind,
            "seat": seat,
            "token_values": self.token_values() if kind is TOKEN_ROWS else "",
            "token_defaults": self.token_defaults() if kind is TOKEN_ROWS else "",
            "dreadnought_value": self.dreadnought_value() if kind is DREADNOUGHT_ROWS else 0,
            "rows": rows,
            "count": len(rows),
            "total": self[total_name(player, kind)],
            "full": len(rows) >= MAX_ROWS,
            "limit": MAX_ROWS,
            "add_name": add_button_name(player, kind),
            "focus_add": acted is not None and acted.remove is not None,
            # Rows the session cannot produce, shown to be removed (decision 79).
            "refused": (player, kind) in self.refused_rows,
        }

    def token_values(self) -> str:
        """The points of each alien's tokens in this tournament, e.g. "Ork 2, Android 5"
        (empty when the rules data is not known)."""
        return token_values_text(self.limits.aliens.values if self.limits is not None else None)

    def token_defaults(self) -> str:
        """The catalogue's single value of each alien's tokens as JSON, for the page's script
        to prefill "points each" when the judge picks an alien type ("" when not known)."""
        aliens = self.limits.aliens if self.limits is not None else None
        if aliens is None or not aliens.values:
            return ""
        defaults = {alien: aliens.default_value(alien) for alien in aliens.values}
        return json.dumps({alien: value for alien, value in defaults.items() if value is not None})

    def dreadnought_value(self) -> int:
        """The class value a marine-piloted Dreadnought of this session is worth (decision
        66); 0 when not known, or when its special equipment hides none to pilot."""
        scoring = self.limits.scoring if self.limits is not None else None
        return scoring.dreadnought_value if scoring is not None and scoring.dreadnoughts else 0

    def _tarantula_field(self, seat: Seat, other: Seat) -> forms.BoundField | None:
        """The count of ``other``'s Tarantulas ``seat`` destroyed (None: not shown)."""
        name = self.key(seat, f"tarantula-{other.player_id}")
        return self[name] if name in self.fields else None

    def seat_fields(self, seat: Seat, *, focus: RowAction | None = None) -> dict:
        """Bound fields of one seat, grouped for the template."""
        key = self.key
        sections = [
            self.row_section(seat, kind, focus=focus)
            for kind in ROW_KINDS
            if (seat.player_id, kind) in self.row_counts
        ]
        row_fields = [
            field
            for section in sections
            for field in [section["total"], *(f for row in section["rows"] for f in row["fields"])]
        ]
        return {
            "seat": seat,
            "kills": [
                (
                    other,
                    [
                        self[key(seat, f"kill-{other.player_id}-{c.value}")]
                        for c, _l in self.kill_classes
                    ],
                    self._tarantula_field(seat, other),
                )
                for other in self._others(seat)
            ],
            # Empty in a session without aliens, unless values given for them are refused.
            "alien": self._counts_shown(seat, "alien"),
            "own": [self[key(seat, f"own-{c.value}")] for c, _l in self.kill_classes],
            "left": self._counts_shown(seat, "left"),
            "sections": sections,
            # Rows filled in, in error or just added/removed: show them unfolded.
            "open": any(
                field.errors or (field.value() not in (None, "") and not field.is_hidden)
                for field in row_fields
            )
            or (focus is not None and focus.player_id == seat.player_id),
            "survived": self[key(seat, "survived")],
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self._fill_token_values()
        self._fill_dreadnought_values()
        for seat in self.seats:
            for kind in ROW_KINDS:
                for row in self._rows(seat, kind):
                    values = self._row_values(seat, kind, row)
                    for part, message in kind.missing(values).items():
                        name = row_name(seat.player_id, kind, row, part)
                        if name not in self.errors:
                            self.add_error(name, message)
        if self.limits is not None and not self.errors:
            self._check_plausible(self.limits)
        return cleaned

    def _fill_token_values(self) -> None:
        """A token row whose points are left empty takes the value the tournament's rules
        data gives its alien, when it gives one."""
        if self.limits is None:
            return
        for seat in self.seats:
            for row in self._rows(seat, TOKEN_ROWS):
                name = row_name(seat.player_id, TOKEN_ROWS, row, "value")
                alien = self.cleaned_data.get(row_name(seat.player_id, TOKEN_ROWS, row, "type"))
                if alien and self.cleaned_data.get(name) is None and name not in self.errors:
                    self.cleaned_data[name] = self.limits.aliens.default_value(alien)

    def _fill_dreadnought_values(self) -> None:
        """A Dreadnought row whose class value is left empty takes the session's, when it
        is known (as a token row takes its alien's)."""
        value = self.dreadnought_value()
        if not value:
            return
        for seat in self.seats:
            for row in self._rows(seat, DREADNOUGHT_ROWS):
                name = row_name(seat.player_id, DREADNOUGHT_ROWS, row, "value")
                owner = self.cleaned_data.get(
                    row_name(seat.player_id, DREADNOUGHT_ROWS, row, "owner")
                )
                if owner and self.cleaned_data.get(name) is None and name not in self.errors:
                    self.cleaned_data[name] = value

    def _check_plausible(self, limits: SessionLimits) -> None:
        names = {str(seat.player_id): seat.player.display_name for seat in self.seats}
        breakdowns = self.breakdowns()
        problems = check_result(breakdowns, [str(p) for p in self.survivors()], limits, names)
        # Every field found before any error is added: an error takes its field out of the
        # cleaned data, and the rows and breakdowns read after it would no longer hold the
        # entries the other problems point at.
        fields = [self._field_of(problem, breakdowns) for problem in problems]
        for problem, name in zip(problems, fields, strict=True):
            if problem.message not in self.errors.get(name or NON_FIELD_ERRORS, []):
                self.add_error(name, problem.message)

    def _field_of(self, problem: Implausibility, breakdowns: Sequence[SeatBreakdown]) -> str | None:
        """The field where the value ``problem`` is about was typed (None: the form's),
        in ``breakdowns``, the ones the problems were found in."""
        seat = next((s for s in self.seats if str(s.player_id) == problem.seat), None)
        if seat is None:
            return None
        if problem.entry == "survived":
            return self.key(seat, "survived")
        breakdown = next(b for b in breakdowns if b.seat == problem.seat)
        index = problem.index if problem.index is not None else 0
        if problem.entry == "kills":
            kill = breakdown.kills[index]
            return self.key(seat, f"kill-{kill.victim}-{MarineClass(kill.marine_class).value}")
        if problem.entry == "losses":
            loss = breakdown.losses[index]
            marine_class = MarineClass(loss.marine_class).value
            for cause, name in LOSS_CAUSES:
                if LossCause(loss.cause) is cause:
                    return self.key(seat, f"{name}-{marine_class}")
            killer = next((s for s in self.seats if str(s.player_id) == loss.killer), None)
            return self.key(killer, f"kill-{seat.player_id}-{marine_class}") if killer else None
        if problem.entry == "tarantulas":
            return self.key(seat, f"tarantula-{breakdown.tarantulas[index].owner}")
        for kind in ROW_KINDS:
            if kind.breakdown_field == problem.entry:
                row = self._filled_rows(seat, kind)[index]
                return row_name(seat.player_id, kind, row, kind.part_of(problem.part))
        return None

    def _filled_rows(self, seat: Seat, kind: RowKind) -> list[int]:
        """The rows of a seat's kind that hold an entry (an empty row is ignored)."""
        return [
            row
            for row in self._rows(seat, kind)
            if not kind.is_empty(self._row_values(seat, kind, row))
        ]

    def breakdowns(self) -> list[SeatBreakdown]:
        """The seats' breakdowns from the cleaned data (call after ``is_valid()``).

        Entries come in a fixed order (seats in seat order, classes as in the form, rows
        as entered), so a stored version loaded back gives equal breakdowns.
        """
        rows = {
            (seat.player_id, kind.name): [
                kind.entry(self._row_values(seat, kind, row))
                for row in self._filled_rows(seat, kind)
            ]
            for seat in self.seats
            for kind in ROW_KINDS
        }
        return [self._breakdown(seat, rows) for seat in self.seats]

    def _number(self, seat: Seat, name: str) -> int:
        return self.cleaned_data.get(self.key(seat, name)) or 0

    def _breakdown(self, seat: Seat, rows: dict) -> SeatBreakdown:
        me = seat.player_id
        others = self._others(seat)
        kills = [
            MarineKill(str(other.player_id), marine_class, count)
            for other in others
            for marine_class, _label in self.kill_classes
            if (count := self._number(seat, f"kill-{other.player_id}-{marine_class.value}"))
        ]
        losses = []
        for killer in others:
            for marine_class, _label in self.kill_classes:
                count = self._number(killer, f"kill-{me}-{marine_class.value}")
                if count:
                    losses.append(
                        MarineLoss(marine_class, LossCause.PLAYER, str(killer.player_id), count)
                    )
            for dreadnought in rows[(killer.player_id, DreadnoughtRows.name)]:
                if dreadnought.owner == str(me):
                    losses.append(
                        MarineLoss(
                            dreadnought.pilot_class, LossCause.PLAYER, str(killer.player_id), 1
                        )
                    )
        for marine_class, _label in self.kill_classes:
            for cause, name in LOSS_CAUSES:
                count = self._number(seat, f"{name}-{marine_class.value}")
                if count:
                    losses.append(MarineLoss(marine_class, cause, None, count))
        tarantulas = [
            TarantulaKill(str(other.player_id), count)
            for other in others
            if (count := self._number(seat, f"tarantula-{other.player_id}"))
        ]
        return SeatBreakdown(
            seat=str(me),
            kills=tuple(kills),
            losses=tuple(losses),
            tarantulas=tuple(tarantulas),
            **{kind.breakdown_field: tuple(rows[(me, kind.name)]) for kind in ROW_KINDS},
        )

    def values(self) -> dict[str, Any]:
        """The result of a valid form as :func:`initial_from_breakdowns` gives it, to compare
        with a stored version field by field."""
        stored = [breakdown.to_dict() for breakdown in self.breakdowns()]
        return initial_from_breakdowns(self.seats, stored, self.survivors())

    def survivors(self) -> list[int]:
        return [
            seat.player_id
            for seat in self.seats
            if self.cleaned_data.get(self.key(seat, "survived"))
        ]

    def as_typed(self) -> ResultForm:
        """An unbound copy showing what was typed, without error messages (after a row was
        added or removed, half-filled rows are not mistakes yet)."""
        typed = {
            name: field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            for name, field in self.fields.items()
        }
        for (player, kind), count in self.row_counts.items():
            typed[total_name(player, kind)] = count
        return ResultForm(
            initial=typed,
            seats=self.seats,
            limits=self.limits,
            with_aliens=self.with_aliens,
            keep=self.keep,
        )


def start_values(seats: Sequence[Seat], version: Any | None) -> dict:
    """The values a result form starts from: those of ``version`` (a stored
    :class:`~tournaments.models.ResultVersion`), else an empty result where every squad
    still has a marine in play but those that forfeited (their figures left play)."""
    if version is None:
        return {ResultForm.key(seat, "survived"): not seat.forfeit for seat in seats}
    return initial_from_breakdowns(seats, version.breakdown, version.survivors)


def initial_from_breakdowns(
    seats: Sequence[Seat], stored: Sequence[dict], survivors: Sequence[int]
) -> dict:
    """Form values that reproduce a stored version (for corrections and stale-edit reloads).

    Losses to players are not entered (they follow from the kills), so they are skipped.
    Each token, objective, Dreadnought and stall-breaker entry gets its own row.
    """
    initial: dict = {}
    by_player = {seat.player_id: seat for seat in seats}
    for entry in stored:
        breakdown = SeatBreakdown.from_dict(entry)
        seat = by_player.get(int(breakdown.seat))
        if seat is None:
            continue

        def add(name: str, count: int, seat=seat) -> None:
            field = ResultForm.key(seat, name)
            initial[field] = (initial.get(field) or 0) + count

        for kill in breakdown.kills:
            add(f"kill-{kill.victim}-{MarineClass(kill.marine_class).value}", kill.count)
        for tarantula in breakdown.tarantulas:
            add(f"tarantula-{tarantula.owner}", tarantula.count)
        for loss in breakdown.losses:
            for cause, name in LOSS_CAUSES:
                if LossCause(loss.cause) is cause:
                    add(f"{name}-{MarineClass(loss.marine_class).value}", loss.count)
        for kind in ROW_KINDS:
            entries = getattr(breakdown, kind.breakdown_field)
            initial[total_name(seat.player_id, kind)] = max(kind.default_rows, len(entries))
            for row, item in enumerate(entries):
                for part, value in kind.values(item).items():
                    initial[row_name(seat.player_id, kind, row, part)] = value
        initial[ResultForm.key(seat, "survived")] = int(breakdown.seat) in {
            int(s) for s in survivors
        }
    return initial
