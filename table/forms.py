"""Forms of the judge's board page. Every form carries ``version``: the snapshot number the
judge was looking at, so an action on a board that changed meanwhile is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.engine.ai.solitaire_policy import SolitairePolicy
from rules.engine.dice import DiceError
from rules.engine.dice_ahead import DiceAhead
from rules.engine.geometry import parse_square
from rules.engine.narration import UNIT_NAMES
from rules.engine.state import GameState
from table.alien_dice import (
    TURN_ERRORS,
    event_card_choices,
    turn_dice_ahead,
    typed_dice_refusal,
)
from table.game_setup import (
    POLICY_NAMES,
    SolitaireSetup,
    blip_token_types,
    solitaire_missions,
)
from table.models import AlienTurnRequest, TurnStatus
from table.session_material import SessionMaterialError, engine_setup
from table.step_log import narration_language
from tournaments.forms.accessible import AccessibleForm, FormMixinBase
from tournaments.forms.judge import PHYSICAL, DiceForm
from tournaments.forms.maps import map_menu
from tournaments.models import Session, Tournament
from tournaments.queries.playable_maps import map_board, map_choices

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

POLICY_CHOICES = [
    ("bob", _("BoB (default)")),
    ("solitaire", POLICY_NAMES["solitaire"]),
    ("priority", POLICY_NAMES["priority"]),
]

#: The most blip tokens of one alien type a Solitaire game may start with.
MAX_TOKENS = 40

COMBAT_DICE_HELP = _(
    "The faces shown, in rolling order, separated by commas: a white die shows 0, 1 or 2, "
    "a red die 0, 1, 2 or 3; a d6 1 to 6."
)


SURVEY_MODE_HELP = _(
    "Used only when the move enters a section nobody has surveyed in this Solitaire game: "
    "the survey rolls for its blips. Any other move rolls nothing."
)

SURVEY_DICE_HELP = _(
    "Used only when the move enters a section nobody has surveyed in this Solitaire game. "
    "In rolling order, separated by commas: a d3 (1 to 3) for the number of blips, then for "
    "each blip the d6 (1 to 6) that draw it from the pile and two d12 (1 to 12) for its "
    "column and row in the section; a square that cannot take it needs two more d12."
)


def planned_map(session: Session) -> str | None:
    """The map the organiser planned for the session (or its stage), if it is one the
    tournament can play (its own or a shipped one); none for a session played without a
    map, which keeps none when its stage gets one (decision 54)."""
    if session.without_map:
        return None
    tournament = session.stage.tournament
    for name in (session.map_name, session.stage.map_name):
        if name and map_board(tournament, name) is not None:
            return name
    return None


def pile_initial(session: Session) -> dict[str, int]:
    """The new-game form's Solitaire blip tokens as the session's stipulation sets them
    (none when the stipulation cannot be read: creating the game says why)."""
    try:
        pile = engine_setup(session).blip_pile
    except SessionMaterialError:
        return {}
    return {NewGameForm.TOKEN_PREFIX + alien: count for alien, count in pile.items()}


def mission_choices() -> list[tuple[str, StrOrPromise]]:
    return [("", _("No mission adjustments"))] + [
        (key, _("Mission %(number)s") % {"number": key}) for key in solitaire_missions()
    ]


class NewGameForm(AccessibleForm):
    """A new game at the table. A Solitaire game also says which blip tokens the Alien has
    (one count per alien type, :attr:`token_fields`) and the mission whose Solitaire
    adjustments apply; the other policies ignore those fields, and so does a session
    played without aliens (``with_aliens`` False: no blip is drawn from the tokens)."""

    TOKEN_PREFIX = "tokens_"

    map_name = forms.ChoiceField(label=_("Map"), widget=map_menu())
    policy = forms.ChoiceField(label=_("Alien policy"), choices=POLICY_CHOICES, initial="bob")
    label = forms.CharField(
        label=_("Label"), max_length=120, required=False, help_text=_("e.g. the table name.")
    )
    solitaire_mission = forms.ChoiceField(
        label=_("Mission"),
        choices=mission_choices,
        required=False,
        help_text=_(
            "Its Solitaire adjustments apply: blip types held back until the last section "
            "surveyed, other blip counts per section."
        ),
    )

    def __init__(self, *args, tournament: Tournament, with_aliens: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.with_aliens = with_aliens
        field = self.fields["map_name"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = map_choices(tournament)
        lang = narration_language()
        for kind in blip_token_types():
            self.fields[self.TOKEN_PREFIX + kind] = forms.IntegerField(
                label=_("Blip tokens: %(alien)s") % {"alien": UNIT_NAMES[kind][lang]},
                min_value=0,
                max_value=MAX_TOKENS,
                required=False,
                initial=0,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    @property
    def token_fields(self) -> list:
        return [self[name] for name in self.fields if name.startswith(self.TOKEN_PREFIX)]

    @property
    def general_fields(self) -> list:
        return [self[name] for name in self.fields if not self._for_solitaire(name)]

    def _for_solitaire(self, name: str) -> bool:
        return name == "solitaire_mission" or name.startswith(self.TOKEN_PREFIX)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        solitaire = cleaned.get("policy") == SolitairePolicy.name
        if solitaire and self.with_aliens and not self.errors:
            setup = self.solitaire_setup()
            if setup is not None and not setup.pile():
                self.add_error(
                    None,
                    _(
                        "A Solitaire game draws every blip from the Alien's tokens: give how "
                        "many blip tokens of each type the mission's notes list (at least one)."
                    ),
                )
        return cleaned

    def solitaire_setup(self) -> SolitaireSetup | None:
        """The Solitaire setup the form gives, for a Solitaire game (else None)."""
        if self.cleaned_data.get("policy") != SolitairePolicy.name:
            return None
        prefix = self.TOKEN_PREFIX
        tokens = {
            name[len(prefix) :]: value or 0
            for name, value in self.cleaned_data.items()
            if name.startswith(prefix)
        }
        return SolitaireSetup(tokens, self.cleaned_data.get("solitaire_mission") or "")


class VersionedForm(AccessibleForm):
    version = forms.IntegerField(widget=forms.HiddenInput)


class FigureChoiceMixin(FormMixinBase):
    """A ``figure`` select filled with the given (id, label) choices."""

    def set_figures(self, figures: list[tuple[str, str]]) -> None:
        field = self.fields["figure"]
        assert isinstance(field, forms.ChoiceField)  # each form declares it so
        field.choices = [("", "—")] + figures


class MoveForm(FigureChoiceMixin, DiceForm):
    """A marine-side move. In a game whose survey rolls dice (``survey_dice``: the
    Solitaire policy) it also says how the survey's dice are rolled; otherwise the dice
    fields are left out."""

    figure = forms.ChoiceField(label=_("Marine"))
    square = forms.CharField(
        label=_("To square"),
        max_length=12,
        help_text=_("Column, row as on the board's edges, e.g. 5,4."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    pass_through = forms.BooleanField(
        label=_("The other players let it pass through their figures"), required=False
    )
    facing = forms.ChoiceField(
        label=_("Tarantula facing"),
        required=False,
        choices=[
            ("", _("Not a Tarantula")),
            ("N", _("North")),
            ("E", _("East")),
            ("S", _("South")),
            ("W", _("West")),
        ],
        help_text=_("For a Tarantula: the square is where its front ends."),
    )

    def __init__(
        self, *args, figures: list[tuple[str, str]], survey_dice: bool = False, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.set_figures(figures)
        self.survey_dice = survey_dice
        if survey_dice:
            self.fields["mode"].help_text = SURVEY_MODE_HELP
            self.fields["dice"].help_text = SURVEY_DICE_HELP
        else:
            del self.fields["mode"], self.fields["dice"]
        self.order_fields(["figure", "square", "pass_through", "facing", "mode", "dice"])

    def clean_square(self):
        text = self.cleaned_data["square"]
        try:
            return parse_square(text)
        except ValueError:
            raise forms.ValidationError(_("Write the square as column,row, e.g. 5,4.")) from None


class AttackForm(DiceForm):
    """The attack chosen among the engine's options, and how its dice are rolled."""

    figure = forms.CharField(widget=forms.HiddenInput)
    choice = forms.IntegerField(min_value=0, widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dice"].help_text = COMBAT_DICE_HELP

    def clean_choice(self):
        choice = self.cleaned_data.get("choice")
        if choice is None:
            raise forms.ValidationError(_("Choose one of the attacks listed."))
        return choice


class RerollForm(DiceForm):
    """Roll one die of the last attack again: which die and, when two cards allow it, with
    which card (the button pressed: ``2`` or ``2:bionic_eye``), and how."""

    number = forms.RegexField(
        regex=r"^[1-9][0-9]*(:[a-z_]+)?$",
        widget=forms.HiddenInput,
        error_messages={"invalid": _("Press one of the buttons of the dice to roll again.")},
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dice"].help_text = _("The one die rolled again, e.g. 2.")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        pressed = cleaned.get("number")
        if isinstance(pressed, str):
            die, _sep, card = pressed.partition(":")
            cleaned["number"] = int(die)
            cleaned["card"] = card or None
        return cleaned


class AlienTurnForm(DiceForm):
    """The Alien turn: the policy, the event card drawn from the real deck (offered when
    ``state``, the board's position, draws event cards) and the dice. Typed dice are
    checked against ``state``: too few or too many are refused with the list of the dice
    to roll (:mod:`table.alien_dice`; ``dice_ahead`` keeps what was found)."""

    policy = forms.ChoiceField(label=_("Alien policy"), choices=POLICY_CHOICES)
    event_card = forms.ChoiceField(
        label=_("Event card drawn at the table"),
        required=False,
        help_text=_(
            "Drew a real Alien event card? Choose it: the turn rolls no dice for the draw. "
            "Left empty, the dice draw the card."
        ),
    )

    def __init__(self, *args, state: GameState | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.state = state
        self.dice_ahead: DiceAhead | None = None
        self.fields["dice"].help_text = COMBAT_DICE_HELP
        cards = event_card_choices(state) if state is not None else []
        if cards:
            self.fields["event_card"].choices = [  # type: ignore[attr-defined]
                ("", _("None: the dice draw it")),
                *cards,
            ]
        else:
            del self.fields["event_card"]
        self.order_fields(["policy", "event_card", "mode", "dice", "version"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.state is None or self.errors or cleaned.get("mode") != PHYSICAL:
            return cleaned
        try:
            self.dice_ahead = turn_dice_ahead(
                self.state,
                cleaned["policy"],
                cleaned.get("values", []),
                cleaned.get("event_card") or None,
            )
        except DiceError as error:
            self.add_error("dice", str(error))
            return cleaned
        except TURN_ERRORS:
            return cleaned  # the turn, played, says what is wrong
        refusal = typed_dice_refusal(self.dice_ahead) if self.dice_ahead else ""
        if refusal:
            self.add_error("dice", refusal)
        return cleaned


def alien_turn_initial(
    version: int, policy: str, failed: AlienTurnRequest | None = None
) -> dict[str, object]:
    """The Alien turn form's starting values. After a turn that was not played on this
    same board (``failed``), the form offers it again as the judge asked for it: the
    policy and, for physical dice, the values typed, so a missing die is added, not every
    die typed again."""
    initial: dict[str, object] = {"version": version, "policy": policy}
    if failed is None or failed.status != TurnStatus.FAILED or failed.base_number != version:
        return initial
    initial["policy"] = failed.policy
    if failed.typed_dice is not None:
        initial["mode"] = PHYSICAL
        initial["dice"] = ", ".join(str(value) for value in failed.typed_dice)
    if failed.event_card:
        initial["event_card"] = failed.event_card
    return initial


REMOVAL_CHOICES = [("dead", _("Dead")), ("left", _("Left play (reached a docking claw)"))]


class RemoveForm(FigureChoiceMixin, VersionedForm):
    figure = forms.ChoiceField(label=_("Figure"))
    why = forms.ChoiceField(
        label=_("Why"), choices=REMOVAL_CHOICES, widget=forms.RadioSelect, initial="dead"
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        help_text=_("What happened at the table, for the record."),
    )

    def __init__(self, *args, figures: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_figures(figures)


class OpenDoorForm(FigureChoiceMixin, VersionedForm):
    """A marine opens a closed door it stands in front of, without moving."""

    figure = forms.ChoiceField(label=_("Marine"))
    door = forms.CharField(
        label=_("Door between squares"),
        max_length=30,
        help_text=_("The two squares either side of the door, e.g. 5,4 6,4."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, figures: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_figures(figures)

    def clean_door(self):
        parts = self.cleaned_data["door"].replace(";", " ").split()
        try:
            if len(parts) != 2:
                raise ValueError
            return parse_square(parts[0]), parse_square(parts[1])
        except ValueError:
            raise forms.ValidationError(
                _("Write the door as the two squares either side of it, e.g. 5,4 6,4.")
            ) from None


class EquipmentForm(FigureChoiceMixin, VersionedForm):
    """A special-equipment action (``docs/turns.md``): a marine boards a Tarantula or a
    Dreadnought, the crew leaves it (a Dreadnought's pilot gets out on a square next to
    it), a marine picks up the extra-heavy weapon it stands on."""

    figure = forms.ChoiceField(
        label=_("Marine or vehicle"),
        help_text=_("To leave a Dreadnought, choose the Dreadnought (its pilot is inside)."),
    )
    action = forms.ChoiceField(
        label=_("Action"),
        choices=[
            ("crew", _("Board a Tarantula or a Dreadnought (a whole turn)")),
            ("leave", _("Leave the vehicle (a whole turn)")),
            ("pick_up", _("Pick up the extra-heavy weapon it stands on")),
        ],
    )
    vehicle = forms.ChoiceField(label=_("Vehicle to board"), required=False)
    square = forms.CharField(
        label=_("Square to get out on"),
        required=False,
        max_length=12,
        help_text=_("Only for a Dreadnought's pilot: a free square next to it, e.g. 5,4."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(
        self, *args, figures: list[tuple[str, str]], vehicles: list[tuple[str, str]], **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.set_figures(figures)
        field = self.fields["vehicle"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", "—")] + vehicles

    def clean_square(self):
        text = self.cleaned_data["square"].strip()
        if not text:
            return None
        try:
            return parse_square(text)
        except ValueError:
            raise forms.ValidationError(_("Write the square as column,row, e.g. 5,4.")) from None


class LifePointsForm(FigureChoiceMixin, VersionedForm):
    figure = forms.ChoiceField(label=_("Figure"))
    life_points = forms.IntegerField(label=_("Life points"), min_value=1, max_value=99)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        help_text=_("What happened at the table, for the record."),
    )

    def __init__(self, *args, figures: list[tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.set_figures(figures)


class SightForm(AccessibleForm):
    a = forms.CharField(
        label=_("From"), max_length=40, help_text=_("A figure id or a square, e.g. p1-m2 or 5,4.")
    )
    b = forms.CharField(label=_("To"), max_length=40, help_text=_("A figure id or a square."))
    for_firing = forms.BooleanField(
        label=_("For shooting (figures in between block)"), required=False, initial=True
    )


class UndoForm(VersionedForm):
    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class UploadForm(VersionedForm):
    file = forms.FileField(
        label=_("State file (JSON)"),
        required=False,
        help_text=_("The same format as the download (and as alien_turn --input)."),
    )
    text = forms.CharField(
        label=_("…or paste the JSON"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        upload = cleaned.get("file")
        if upload is not None:
            try:
                cleaned["json_text"] = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text; save it as JSON and retry."))
        elif cleaned.get("text", "").strip():
            cleaned["json_text"] = cleaned["text"]
        else:
            self.add_error("file", _("Choose a state file or paste its JSON."))
        return cleaned
