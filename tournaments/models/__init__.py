"""The tournament domain's models, split by concern; import them from here."""

from .activity import ActivityLog, ActivityVerb
from .choices import (
    CardKind,
    CommanderCombo,
    DiceSource,
    DieKindChoice,
    Rank,
    SeatingMethod,
    SessionStatus,
    SquadColour,
    StageKind,
    StageStatus,
    StipulationKind,
    WeaponClass,
)
from .dice import DiceRoll
from .honours import Honour, ScoreBonus, SquadRank
from .players import Player, Registration, SquadPreference, new_access_token
from .results import ImmutableVersionError, Result, ResultVersion
from .sessions import Loadout, Seat, Session, StaleSessionError
from .squads import ChapterCard, Squad, Weapon
from .stages import ScoreThreshold, Stage
from .stipulations import Stipulation, clean_stipulation_params
from .tournament import Tournament

__all__ = [
    "ActivityLog",
    "ActivityVerb",
    "CardKind",
    "ChapterCard",
    "CommanderCombo",
    "DiceRoll",
    "DiceSource",
    "DieKindChoice",
    "Honour",
    "ImmutableVersionError",
    "Loadout",
    "Player",
    "Rank",
    "Registration",
    "Result",
    "ResultVersion",
    "ScoreBonus",
    "ScoreThreshold",
    "Seat",
    "SeatingMethod",
    "Session",
    "SessionStatus",
    "Squad",
    "SquadColour",
    "SquadPreference",
    "SquadRank",
    "Stage",
    "StageKind",
    "StageStatus",
    "StaleSessionError",
    "Stipulation",
    "StipulationKind",
    "Tournament",
    "Weapon",
    "WeaponClass",
    "clean_stipulation_params",
    "new_access_token",
]
