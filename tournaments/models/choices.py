"""Enumerations shared by the tournament models (RULES.md §1 glossary)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class SquadColour(models.TextChoices):
    BLUE = "blue", _("Blue")
    RED = "red", _("Red")
    YELLOW = "yellow", _("Yellow")


class SeatingMethod(models.TextChoices):
    RANDOM = "random", _("Random (recorded dice)")
    SEEDED = "seeded", _("Seeded (by stage rank, then points)")


class StageKind(models.TextChoices):
    PRELIMINARY = "preliminary", _("Preliminary")
    INTERMEDIATE = "intermediate", _("Intermediate")
    SEMIFINAL = "semifinal", _("Semifinal")
    FINAL = "final", _("Final")


class StageStatus(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class SessionStatus(models.TextChoices):
    PLANNED = "planned", _("Awaiting a time, a table or a judge")
    SCHEDULED = "scheduled", _("Scheduled")
    IN_PROGRESS = "in_progress", _("In progress")
    COMPLETED = "completed", _("Completed")


#: What a session still waiting to be scheduled is said to await, by what it lacks of a
#: time, a table and a judge (``Session.schedule_gaps``, in that order).
AWAITING = {
    ("time",): _("Awaiting a time"),
    ("table",): _("Awaiting a table"),
    ("judge",): _("Awaiting a judge"),
    ("time", "table"): _("Awaiting a time and a table"),
    ("time", "judge"): _("Awaiting a time and a judge"),
    ("table", "judge"): _("Awaiting a table and a judge"),
    ("time", "table", "judge"): _("Awaiting a time, a table and a judge"),
}


class Forfeit(models.TextChoices):
    """Why a seated player takes last place in a session without playing it out."""

    WITHDRAWN = "withdrawn", _("Withdrew")
    #: Withdrew before the session started, so the seat played nothing (decision 65).
    WITHDRAWN_UNPLAYED = "not_played", _("Withdrew before it started")
    NO_SHOW = "no_show", _("Did not show up")


class StipulationKind(models.TextChoices):
    ALIEN_HUNT = "alien_hunt", _("Alien Hunt")
    CATCH_THE_FLAG = "catch_the_flag", _("Catch the Flag")
    TPK = "tpk", _("TPK")
    EXTENDED_TPK = "extended_tpk", _("Extended TPK")


class CardKind(models.TextChoices):
    ORDER = "order", _("Order")
    EQUIPMENT = "equipment", _("Equipment")


class CardUse(models.TextChoices):
    ONE_USE = "one_use", _("One use")
    SESSION = "session", _("Whole session")


class CardConfidence(models.TextChoices):
    CONFIRMED = "confirmed", _("Confirmed by two sources or more")
    ONE_SOURCE = "one_source", _("One source")
    UNCERTAIN = "uncertain", _("Uncertain")


class WeaponClass(models.TextChoices):
    LIGHT = "light", _("Light")
    HEAVY = "heavy", _("Heavy")
    EXTRA_HEAVY = "extra_heavy", _("Extra-heavy")
    CLOSE = "close", _("Hand-to-hand")


class CommanderCombo(models.TextChoices):
    AXE_PISTOL = "axe_pistol", _("Power axe and laser pistol")
    BOLTER = "bolter", _("Bolter")
    SWORD_GLOVE = "sword_glove", _("Power sword and power glove")


class Rank(models.IntegerChoices):
    MARINE_SQUAD = 0, _("Marine Squad")
    ELITE_SQUAD = 1, _("Elite Squad")
    VETERAN_SQUAD = 2, _("Veteran Squad")


class DiceSource(models.TextChoices):
    SEEDED = "seeded", _("Rolled by the app (seeded)")
    SCRIPTED = "scripted", _("Physical dice entered by a judge")


class DieKindChoice(models.TextChoices):
    D3 = "d3", _("d3")
    D6 = "d6", _("d6")
    D12 = "d12", _("d12")
    WHITE = "white", _("White (light) combat die")
    RED = "red", _("Red (heavy) combat die")
