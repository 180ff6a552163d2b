"""The judge's result form: what each seat did in a session, in counts a judge can tap in.

Each kill is entered once, by the killing seat; the victim's matching loss is derived from
it, so the two records can never disagree. Losses to aliens or to a seat's own fire are
entered by the losing seat. The form builds the scoring service's
:class:`~tournaments.scoring.SeatBreakdown` list; the same form drives the live preview.
"""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Seat
from ..scoring import (
    AlienTokens,
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    ObjectivePoints,
    SeatBreakdown,
    StallBreakerRound,
    TarantulaKill,
)
from .accessible import AccessibleFormMixin

KILL_CLASSES: tuple[tuple[MarineClass, str], ...] = (
    (MarineClass.LIGHT, _("light weapon or unarmed (5)")),
    (MarineClass.HEAVY, _("heavy weapon (10)")),
    (MarineClass.COMMANDER, _("commander (10)")),
    (MarineClass.EXTRA_HEAVY, _("extra-heavy weapon (15)")),
    (MarineClass.GUNNER, _("Tarantula gunner (5)")),
)
PILOT_CLASSES = (
    ("", _("no Dreadnought destroyed")),
    (MarineClass.LIGHT.value, _("light weapon or unarmed")),
    (MarineClass.HEAVY.value, _("heavy weapon")),
    (MarineClass.EXTRA_HEAVY.value, _("extra-heavy weapon")),
)
ALIEN_TYPES = (
    ("", _("none")),
    ("gretchin", _("Gretchin")),
    ("ork", _("Ork")),
    ("android", _("Android")),
    ("chaos_marine", _("Chaos Marine")),
    ("chaos_commander", _("Chaos Commander")),
    ("dreadnought", _("Dreadnought")),
)
TOKEN_ROWS = 4


def _count(label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=99,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 99}),
    )


class ResultForm(AccessibleFormMixin, forms.Form):
    """One block of fields per seat; field names start with ``p<player id>-``."""

    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, seats: Sequence[Seat], **kwargs):
        self.seats = list(seats)
        super().__init__(*args, **kwargs)
        for seat in self.seats:
            self._add_seat_fields(seat)

    @staticmethod
    def key(seat: Seat, name: str) -> str:
        return f"p{seat.player_id}-{name}"

    def _add_seat_fields(self, seat: Seat) -> None:
        key = self.key
        for other in self.seats:
            if other.pk == seat.pk:
                continue
            for marine_class, label in KILL_CLASSES:
                self.fields[key(seat, f"kill-{other.player_id}-{marine_class.value}")] = _count(
                    label
                )
            self.fields[key(seat, f"tarantula-{other.player_id}")] = _count(
                _("Tarantulas destroyed (10)")
            )
        for marine_class, label in KILL_CLASSES:
            self.fields[key(seat, f"alien-{marine_class.value}")] = _count(label)
            self.fields[key(seat, f"own-{marine_class.value}")] = _count(label)
        owners = [("", "—")] + [
            (str(other.player_id), other.player.display_name)
            for other in self.seats
            if other.pk != seat.pk
        ]
        self.fields[key(seat, "dread-owner")] = forms.ChoiceField(
            label=_("Dreadnought of"), choices=owners, required=False
        )
        self.fields[key(seat, "dread-value")] = forms.IntegerField(
            label=_("class value"), min_value=0, required=False
        )
        self.fields[key(seat, "dread-pilot")] = forms.ChoiceField(
            label=_("pilot"), choices=PILOT_CLASSES, required=False
        )
        for row in range(1, TOKEN_ROWS + 1):
            self.fields[key(seat, f"token{row}-type")] = forms.ChoiceField(
                label=_("alien type"), choices=ALIEN_TYPES, required=False
            )
            self.fields[key(seat, f"token{row}-count")] = _count(_("tokens"))
            self.fields[key(seat, f"token{row}-value")] = forms.IntegerField(
                label=_("points each"), min_value=0, max_value=999, required=False
            )
        self.fields[key(seat, "objective-label")] = forms.CharField(
            label=_("objective"), max_length=80, required=False
        )
        self.fields[key(seat, "objective-points")] = forms.IntegerField(
            label=_("objective points"), required=False, min_value=-999, max_value=999
        )
        self.fields[key(seat, "stall-round")] = forms.IntegerField(
            label=_("stall breaker round"), required=False, min_value=1, max_value=99
        )
        self.fields[key(seat, "stall-points")] = forms.IntegerField(
            label=_("stall breaker points"), required=False, min_value=-999, max_value=999
        )
        self.fields[key(seat, "survived")] = forms.BooleanField(
            label=_("a marine was still in play at the end"), required=False, initial=True
        )

    def seat_fields(self, seat: Seat) -> dict:
        """Bound fields of one seat, grouped for the template."""
        key = self.key
        others = [other for other in self.seats if other.pk != seat.pk]
        return {
            "seat": seat,
            "kills": [
                (
                    other,
                    [
                        self[key(seat, f"kill-{other.player_id}-{c.value}")]
                        for c, _l in KILL_CLASSES
                    ],
                    self[key(seat, f"tarantula-{other.player_id}")],
                )
                for other in others
            ],
            "alien": [self[key(seat, f"alien-{c.value}")] for c, _l in KILL_CLASSES],
            "own": [self[key(seat, f"own-{c.value}")] for c, _l in KILL_CLASSES],
            "dreadnought": [
                self[key(seat, name)] for name in ("dread-owner", "dread-value", "dread-pilot")
            ],
            "tokens": [
                [self[key(seat, f"token{row}-{part}")] for part in ("type", "count", "value")]
                for row in range(1, TOKEN_ROWS + 1)
            ],
            "objective": [self[key(seat, "objective-label")], self[key(seat, "objective-points")]],
            "stall": [self[key(seat, "stall-round")], self[key(seat, "stall-points")]],
            "survived": self[key(seat, "survived")],
        }

    def clean(self):
        cleaned = super().clean()
        for seat in self.seats:
            self._check_dreadnought(seat, cleaned)
            self._check_tokens(seat, cleaned)
            points = cleaned.get(self.key(seat, "stall-points"))
            if points and not cleaned.get(self.key(seat, "stall-round")):
                self.add_error(
                    self.key(seat, "stall-round"),
                    _("Give the round of these stall-breaker points."),
                )
        return cleaned

    def _check_dreadnought(self, seat: Seat, cleaned: dict) -> None:
        owner = cleaned.get(self.key(seat, "dread-owner"))
        value = cleaned.get(self.key(seat, "dread-value"))
        pilot = cleaned.get(self.key(seat, "dread-pilot"))
        if not (owner or value or pilot):
            return
        for name, present in (
            ("dread-owner", owner),
            ("dread-value", value),
            ("dread-pilot", pilot),
        ):
            if not present:
                self.add_error(
                    self.key(seat, name),
                    _("A destroyed Dreadnought needs its owner, class value and pilot."),
                )

    def _check_tokens(self, seat: Seat, cleaned: dict) -> None:
        for row in range(1, TOKEN_ROWS + 1):
            kind = cleaned.get(self.key(seat, f"token{row}-type"))
            count = cleaned.get(self.key(seat, f"token{row}-count"))
            value = cleaned.get(self.key(seat, f"token{row}-value"))
            if kind and (not count or value is None):
                self.add_error(
                    self.key(seat, f"token{row}-count"),
                    _("Give how many tokens and the points of each."),
                )
            elif (count or value) and not kind:
                self.add_error(
                    self.key(seat, f"token{row}-type"), _("Choose which alien the tokens are for.")
                )

    def breakdowns(self) -> list[SeatBreakdown]:
        """The seats' breakdowns from the cleaned data (call after ``is_valid()``)."""
        data = self.cleaned_data
        kills: dict[int, list[MarineKill]] = {seat.player_id: [] for seat in self.seats}
        losses: dict[int, list[MarineLoss]] = {seat.player_id: [] for seat in self.seats}
        extra: dict[int, dict[str, list]] = {}
        for seat in self.seats:
            key = self.key
            me = seat.player_id
            tarantulas, dreadnoughts, tokens, objectives, stall = [], [], [], [], []
            for other in self.seats:
                if other.pk == seat.pk:
                    continue
                for marine_class, _label in KILL_CLASSES:
                    count = data.get(key(seat, f"kill-{other.player_id}-{marine_class.value}"))
                    if count:
                        kills[me].append(MarineKill(str(other.player_id), marine_class, count))
                        losses[other.player_id].append(
                            MarineLoss(marine_class, LossCause.PLAYER, str(me), count)
                        )
                count = data.get(key(seat, f"tarantula-{other.player_id}"))
                if count:
                    tarantulas.append(TarantulaKill(str(other.player_id), count))
            for marine_class, _label in KILL_CLASSES:
                for cause, name in ((LossCause.ALIEN, "alien"), (LossCause.OWN_FIRE, "own")):
                    count = data.get(key(seat, f"{name}-{marine_class.value}"))
                    if count:
                        losses[me].append(MarineLoss(marine_class, cause, None, count))
            owner = data.get(key(seat, "dread-owner"))
            if owner:
                pilot = MarineClass(data[key(seat, "dread-pilot")])
                dreadnoughts.append(DreadnoughtKill(owner, data[key(seat, "dread-value")], pilot))
                losses[int(owner)].append(MarineLoss(pilot, LossCause.PLAYER, str(me), 1))
            for row in range(1, TOKEN_ROWS + 1):
                kind = data.get(key(seat, f"token{row}-type"))
                if kind:
                    tokens.append(
                        AlienTokens(
                            kind,
                            data[key(seat, f"token{row}-value")],
                            data[key(seat, f"token{row}-count")],
                        )
                    )
            points = data.get(key(seat, "objective-points"))
            if points:
                label = data.get(key(seat, "objective-label")) or str(_("Objective"))
                objectives.append(ObjectivePoints(label, points))
            stall_points = data.get(key(seat, "stall-points"))
            if stall_points:
                stall.append(StallBreakerRound(data[key(seat, "stall-round")], stall_points))
            extra[me] = {
                "tarantulas": tarantulas,
                "dreadnoughts": dreadnoughts,
                "alien_tokens": tokens,
                "objectives": objectives,
                "stall_breaker": stall,
            }
        return [
            SeatBreakdown(
                seat=str(seat.player_id),
                kills=tuple(kills[seat.player_id]),
                losses=tuple(losses[seat.player_id]),
                **{name: tuple(items) for name, items in extra[seat.player_id].items()},
            )
            for seat in self.seats
        ]

    def survivors(self) -> list[int]:
        return [
            seat.player_id
            for seat in self.seats
            if self.cleaned_data.get(self.key(seat, "survived"))
        ]


def initial_from_breakdowns(
    seats: Sequence[Seat], stored: Sequence[dict], survivors: Sequence[int]
) -> dict:
    """Form values that reproduce a stored version (for corrections and stale-edit reloads).

    Losses to players are not entered (they follow from the kills), so they are skipped.
    """
    initial: dict = {}
    by_player = {seat.player_id: seat for seat in seats}
    for entry in stored:
        breakdown = SeatBreakdown.from_dict(entry)
        seat = by_player.get(int(breakdown.seat))
        if seat is None:
            continue

        def put(name: str, value, seat=seat) -> None:
            field = ResultForm.key(seat, name)
            initial[field] = (initial.get(field) or 0) + value if isinstance(value, int) else value

        for kill in breakdown.kills:
            put(f"kill-{kill.victim}-{MarineClass(kill.marine_class).value}", kill.count)
        for tarantula in breakdown.tarantulas:
            put(f"tarantula-{tarantula.owner}", tarantula.count)
        for loss in breakdown.losses:
            cause = LossCause(loss.cause)
            if cause is LossCause.ALIEN:
                put(f"alien-{MarineClass(loss.marine_class).value}", loss.count)
            elif cause is LossCause.OWN_FIRE:
                put(f"own-{MarineClass(loss.marine_class).value}", loss.count)
        for dreadnought in breakdown.dreadnoughts[:1]:
            put("dread-owner", dreadnought.owner)
            initial[ResultForm.key(seat, "dread-value")] = dreadnought.class_value
            put("dread-pilot", MarineClass(dreadnought.pilot_class).value)
        for row, tokens in enumerate(breakdown.alien_tokens[:TOKEN_ROWS], start=1):
            put(f"token{row}-type", tokens.alien_type)
            initial[ResultForm.key(seat, f"token{row}-count")] = tokens.count
            initial[ResultForm.key(seat, f"token{row}-value")] = tokens.value
        if breakdown.objectives:
            # One objective row per seat: several objectives are shown as their sum.
            put("objective-label", " + ".join(o.label for o in breakdown.objectives))
            initial[ResultForm.key(seat, "objective-points")] = sum(
                o.points for o in breakdown.objectives
            )
        if breakdown.stall_breaker:
            # Likewise the stall breaker: its total, at the last round it was scored.
            initial[ResultForm.key(seat, "stall-round")] = max(
                r.round for r in breakdown.stall_breaker
            )
            initial[ResultForm.key(seat, "stall-points")] = sum(
                r.points for r in breakdown.stall_breaker
            )
        initial[ResultForm.key(seat, "survived")] = int(breakdown.seat) in {
            int(s) for s in survivors
        }
    return initial
