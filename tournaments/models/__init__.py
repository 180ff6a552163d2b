"""The tournament domain's models, split by concern; import them from here."""

from tournaments.models.activity import ActivityLog, ActivityVerb
from tournaments.models.awards import Honour, ScoreBonus, SquadRank
from tournaments.models.choices import (
    CardConfidence,
    CardKind,
    CardUse,
    CommanderCombo,
    DiceSource,
    DieKindChoice,
    Forfeit,
    Rank,
    SeatingMethod,
    SessionStatus,
    SquadColour,
    StageKind,
    StageStatus,
    StipulationKind,
    WeaponClass,
)
from tournaments.models.dice import DiceRoll, SeedAnnouncement
from tournaments.models.login_counters import LoginFailureCount
from tournaments.models.maps import DRAWING_LIMIT, TournamentMap
from tournaments.models.outbox import Notice, NoticeStatus
from tournaments.models.players import Player, Registration, SquadPreference, new_access_token
from tournaments.models.results import ImmutableVersionError, Result, ResultVersion
from tournaments.models.sessions import Loadout, Seat, Session, StaleSessionError
from tournaments.models.squads import ChapterCard, Squad, Weapon
from tournaments.models.stages import HIGHEST_THRESHOLD, LOWEST_THRESHOLD, ScoreThreshold, Stage
from tournaments.models.stipulations import (
    Stipulation,
    clean_stipulation_params,
    playing_rules,
    readable_rules,
)
from tournaments.models.tables import VenueTable
from tournaments.models.tournament import Tournament
from tournaments.models.venue import DisputeStatus, ResultDispute, RoundTimer

__all__ = [
    "ActivityLog",
    "ActivityVerb",
    "CardConfidence",
    "DRAWING_LIMIT",
    "CardKind",
    "CardUse",
    "ChapterCard",
    "CommanderCombo",
    "DiceRoll",
    "DiceSource",
    "DieKindChoice",
    "DisputeStatus",
    "Forfeit",
    "Honour",
    "ImmutableVersionError",
    "Loadout",
    "LoginFailureCount",
    "Notice",
    "NoticeStatus",
    "Player",
    "Rank",
    "Registration",
    "Result",
    "ResultDispute",
    "ResultVersion",
    "RoundTimer",
    "ScoreBonus",
    "ScoreThreshold",
    "HIGHEST_THRESHOLD",
    "LOWEST_THRESHOLD",
    "Seat",
    "SeedAnnouncement",
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
    "TournamentMap",
    "VenueTable",
    "Weapon",
    "WeaponClass",
    "clean_stipulation_params",
    "playing_rules",
    "readable_rules",
    "new_access_token",
]
