"""A tournament in the database turned into a document (see :mod:`.document`).

Everything is listed in a stable order that does not depend on database ids, so exporting
the same tournament twice -- or exporting it again after an import into another
database -- gives the same text.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any

from django.db.models import Prefetch

from tournaments.interchange.document import FORMAT, FORMAT_VERSION
from tournaments.interchange.references import rewrite_breakdown, rewrite_details
from tournaments.interchange.sections import registered
from tournaments.models import (
    ActivityLog,
    DiceRoll,
    Honour,
    Player,
    Registration,
    ResultDispute,
    ResultVersion,
    ScoreBonus,
    Seat,
    Session,
    Squad,
    SquadPreference,
    SquadRank,
    Stage,
    Tournament,
)
from tournaments.models.results import CONFIRMED_PREVIOUS, CONFIRMED_PREVIOUS_TEXT


def timestamp(value: datetime | None) -> str | None:
    """An aware datetime as ISO 8601 text in UTC (``...Z``), or None."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _date(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None


def username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class _PlayerIds:
    """Document player ids: ``p<number>`` for registered players, ``x<n>`` for the others.

    A player who is not registered but appears in the tournament (seated, ranked...) is
    still exported, so nothing is lost; they are ordered by name to stay stable.
    """

    def __init__(self, tournament: Tournament) -> None:
        registrations = list(
            Registration.objects.filter(tournament=tournament)
            .select_related("player__user")
            .order_by("number")
        )
        self.registrations = {reg.player_id: reg for reg in registrations}
        self.players: list[Player] = [reg.player for reg in registrations]
        self.by_pk: dict[int, str] = {reg.player_id: f"p{reg.number}" for reg in registrations}
        others = (
            Player.objects.filter(pk__in=self._referenced(tournament) - set(self.by_pk))
            .select_related("user")
            .order_by("name", "nickname", "email", "pk")
        )
        for position, player in enumerate(others, start=1):
            self.players.append(player)
            self.by_pk[player.pk] = f"x{position}"
        self._by_text = {str(pk): doc_id for pk, doc_id in self.by_pk.items()}

    @staticmethod
    def _referenced(tournament: Tournament) -> set[int]:
        """The players the tournament's rows point at: one indexed query per kind of row (an
        OR of joins would make the database walk every tournament's rows)."""
        referenced: set[int] = set()
        for rows in (
            Seat.all_objects.filter(session__stage__tournament=tournament),
            SquadRank.objects.filter(tournament=tournament),
            Honour.all_objects.filter(tournament=tournament),
            ScoreBonus.all_objects.filter(tournament=tournament),
            SquadPreference.objects.filter(tournament=tournament),
            ResultDispute.objects.filter(session__stage__tournament=tournament),
        ):
            referenced.update(rows.values_list("player_id", flat=True).distinct())
        return referenced

    def __getitem__(self, pk: int) -> str:
        return self.by_pk[pk]

    def from_stored(self, value: Any) -> Any:
        """A player id stored in JSON (number or text) as a document id; unknown: unchanged."""
        return self._by_text.get(str(value), value)

    def from_stored_list(self, values: Any) -> Any:
        if not isinstance(values, list):
            return values
        return [self.from_stored(value) for value in values]


def _ref(stage: int, number: int, superseded_at: str | None) -> dict[str, Any]:
    """A session reference; one to a superseded session also names when it was superseded
    (its number may be used again by the seating in force)."""
    ref: dict[str, Any] = {"stage": stage, "session": number}
    if superseded_at is not None:
        ref["superseded_at"] = superseded_at
    return ref


def player_ids(tournament: Tournament) -> dict[int, str]:
    """Each player's document id, by primary key (for the sections that name players)."""
    return _PlayerIds(tournament).by_pk


def session_ref(session: Session | None) -> dict[str, Any] | None:
    if session is None:
        return None
    return _ref(session.stage.number, session.number, timestamp(session.superseded_at))


class _Places:
    """The tournament's stage numbers and session references, read once per export (two
    small queries) so the rows that point at a stage or session need not load it each: a
    stage carries its qualifiers list, which is as long as the field."""

    def __init__(self, tournament: Tournament) -> None:
        self.stage_numbers: dict[int, int] = dict(
            Stage.objects.filter(tournament=tournament).values_list("pk", "number")
        )
        #: pk -> (stage, number, superseded_at as text or ""): also a sort key.
        self.sessions: dict[int, tuple[int, int, str]] = {
            pk: (self.stage_numbers[stage_id], number, timestamp(superseded_at) or "")
            for pk, stage_id, number, superseded_at in Session.all_objects.filter(
                stage__tournament=tournament
            ).values_list("pk", "stage_id", "number", "superseded_at")
        }

    def stage(self, pk: int | None) -> int | None:
        return self.stage_numbers[pk] if pk is not None else None

    def session(self, pk: int | None) -> dict[str, Any] | None:
        if pk is None:
            return None
        stage, number, superseded_at = self.sessions[pk]
        return _ref(stage, number, superseded_at or None)


def _tournament(tournament: Tournament) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "starts_on": _date(tournament.starts_on),
        "ends_on": _date(tournament.ends_on),
        "venue": tournament.venue,
        "description": tournament.description,
        "organisers": sorted(user.get_username() for user in tournament.organisers.all()),
        "judges": sorted(user.get_username() for user in tournament.judges.all()),
        "seating_method": tournament.seating_method,
        "qualifier_overrides": tournament.qualifier_overrides or {},
        "data_overrides": tournament.data_overrides or {},
        "no_show_minutes": tournament.no_show_minutes,
        "created_at": timestamp(tournament.created_at),
    }


def _squads(tournament: Tournament) -> list[dict[str, Any]]:
    squads = Squad.objects.filter(tournament=tournament).order_by("order", "slug")
    return [
        {
            "slug": squad.slug,
            "name_en": squad.name_en,
            "name_it": squad.name_it,
            "colour": squad.colour,
            "order": squad.order,
            "cards": [
                {
                    "slug": card.slug,
                    "name_en": card.name_en,
                    "name_it": card.name_it,
                    "kind": card.kind,
                    "use": card.use,
                    "effect_code": card.effect_code,
                    "effect_en": card.effect_en,
                    "effect_it": card.effect_it,
                    "source": card.source,
                    "confidence": card.confidence,
                    "order": card.order,
                }
                for card in squad.cards.order_by("kind", "order", "slug")
            ],
        }
        for squad in squads
    ]


def _weapons(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "slug": weapon.slug,
            "name_en": weapon.name_en,
            "name_it": weapon.name_it,
            "weapon_class": weapon.weapon_class,
            "colour_restricted": weapon.colour_restricted,
        }
        for weapon in tournament.weapons.order_by("slug")
    ]


def _players(tournament: Tournament, ids: _PlayerIds) -> list[dict[str, Any]]:
    preferences: dict[int, list[SquadPreference]] = {}
    for preference in (
        SquadPreference.objects.filter(tournament=tournament)
        .select_related("stage")
        .defer("stage__qualifiers")
    ):
        preferences.setdefault(preference.player_id, []).append(preference)
    players = []
    for player in ids.players:
        registration = ids.registrations.get(player.pk)
        own = sorted(
            preferences.get(player.pk, []),
            key=lambda pref: -1 if pref.stage is None else pref.stage.number,
        )
        players.append(
            {
                "id": ids[player.pk],
                "number": registration.number if registration else None,
                "name": player.name,
                "nickname": player.nickname,
                "email": player.email,
                "language": player.language,
                "user": username(player.user),
                "registered_at": timestamp(registration.registered_at) if registration else None,
                "withdrawn_at": timestamp(registration.withdrawn_at) if registration else None,
                "withdrawal_reason": registration.withdrawal_reason if registration else "",
                "preferences": [
                    {
                        "stage": pref.stage.number if pref.stage else None,
                        "choices": list(pref.choices),
                    }
                    for pref in own
                ],
            }
        )
    return players


def _thresholds(thresholds: Iterable[Any]) -> list[int]:
    return sorted(threshold.points for threshold in thresholds)


def _loadout(seat: Seat) -> dict[str, Any] | None:
    loadout = getattr(seat, "loadout", None)
    if loadout is None:
        return None
    data = {
        "commander_combo": loadout.commander_combo,
        "marine_weapons": list(loadout.marine_weapons),
        "extra_marine_weapons": list(loadout.extra_marine_weapons),
        "order_cards": list(loadout.order_cards),
        "equipment_cards": list(loadout.equipment_cards),
    }
    if loadout.targeter_marks:  # written only when set: older documents have none
        data["targeter_marks"] = list(loadout.targeter_marks)
    return data


def _source_reason(version: ResultVersion) -> str:
    if version.reason_code == CONFIRMED_PREVIOUS:
        return CONFIRMED_PREVIOUS_TEXT % {"number": version.number - 1}
    return version.reason


def _version(version: ResultVersion, ids: _PlayerIds) -> dict[str, Any]:
    return {
        "number": version.number,
        "breakdown": rewrite_breakdown(
            version.breakdown, lambda value, as_text, path: ids.from_stored(value)
        ),
        "survivors": ids.from_stored_list(version.survivors),
        "ranking": ids.from_stored_list(version.ranking),
        "confirmed": version.confirmed,
        # The app's reason is written in the source language; the import reads it back
        # as its code (version_reason_code).
        "reason": _source_reason(version),
        "created_by": username(version.created_by),
        "created_at": timestamp(version.created_at),
        "game_number": version.game_number,
        "game_step": version.game_step,
    }


def _result(session: Session, ids: _PlayerIds) -> dict[str, Any] | None:
    result = getattr(session, "result", None)
    if result is None:
        return None
    versions: list[ResultVersion] = result.exported_versions  # prefetched, in number order
    return {
        "created_at": timestamp(result.created_at),
        "versions": [_version(version, ids) for version in versions],
    }


def _stipulation(session: Session) -> dict[str, Any] | None:
    stipulation = getattr(session, "stipulation", None)
    if stipulation is None:
        return None
    return {"kind": stipulation.kind, "params": stipulation.params}


def _session(session: Session, ids: _PlayerIds) -> dict[str, Any]:
    # Prefetched by _stages, in seat order.
    seats: list[Seat] = session.exported_seats  # type: ignore[attr-defined]
    return {
        "number": session.number,
        "scheduled_at": timestamp(session.scheduled_at),
        "duration_minutes": session.duration_minutes,
        "table": session.table_name,
        "judge": username(session.judge),
        "status": session.status,
        "map_name": session.map_name,
        "without_map": session.without_map,
        "notes": session.notes,
        "schedule_sequence": session.schedule_sequence,
        "stipulation": _stipulation(session),
        "thresholds": _thresholds(session.thresholds.all()),
        "seats": [
            {
                "player": ids[seat.player_id],
                "squad": seat.squad.slug if seat.squad else None,
                "seat_order": seat.seat_order,
                "initiative_position": seat.initiative_position,
                "notified_sequence": seat.notified_sequence,
                "checked_in_at": timestamp(seat.checked_in_at),
                "forfeit": seat.forfeit,
                "loadout": _loadout(seat),
            }
            for seat in seats
        ],
        "result": _result(session, ids),
        "superseded_at": timestamp(session.superseded_at),
    }


def _stages(tournament: Tournament, ids: _PlayerIds) -> list[dict[str, Any]]:
    stages = []
    for stage in Stage.objects.filter(tournament=tournament).order_by("number"):
        sessions = sorted(
            Session.all_objects.filter(stage=stage)
            .select_related("judge", "stipulation", "result", "table")
            .prefetch_related(
                "thresholds",
                # Every session's seats and result versions in one query each.
                Prefetch(
                    "seats",
                    queryset=Seat.all_objects.select_related("squad", "loadout").order_by(
                        "seat_order"
                    ),
                    to_attr="exported_seats",
                ),
                Prefetch(
                    "result__versions",
                    queryset=ResultVersion.objects.select_related("created_by").order_by("number"),
                    to_attr="exported_versions",
                ),
            ),
            key=lambda session: (session.number, *_in_force_last(session.superseded_at)),
        )
        stages.append(
            {
                "number": stage.number,
                "kind": stage.kind,
                "qualifier_count": stage.qualifier_count,
                "seating_method": stage.seating_method,
                "status": stage.status,
                "stipulation_kind": stage.stipulation_kind,
                "stipulation_params": stage.stipulation_params or {},
                "map_name": stage.map_name,
                "qualifiers": ids.from_stored_list(stage.qualifiers),
                "closed_at": timestamp(stage.closed_at),
                "thresholds": _thresholds(stage.thresholds.all()),
                "sessions": [_session(session, ids) for session in sessions],
            }
        )
    return stages


def _player_order(ids: _PlayerIds) -> dict[int, int]:
    return {player.pk: position for position, player in enumerate(ids.players)}


def _squad_ranks(tournament: Tournament, ids: _PlayerIds) -> list[dict[str, Any]]:
    order = _player_order(ids)
    ranks = sorted(
        SquadRank.objects.filter(tournament=tournament).select_related("squad"),
        key=lambda rank: order[rank.player_id],
    )
    return [
        {
            "player": ids[rank.player_id],
            "squad": rank.squad.slug if rank.squad else None,
            "rank": rank.rank,
        }
        for rank in ranks
    ]


def _in_force_last(superseded_at: datetime | None) -> tuple[bool, str]:
    """Sort key part: superseded rows first, oldest first, then the one in force."""
    return (superseded_at is None, timestamp(superseded_at) or "")


def _honours(tournament: Tournament, ids: _PlayerIds, places: _Places) -> list[dict[str, Any]]:
    honours = sorted(
        Honour.all_objects.filter(tournament=tournament).select_related("squad"),
        key=lambda honour: (
            places.sessions[honour.session_id],
            *_in_force_last(honour.superseded_at),
            honour.created_at,
        ),
    )
    return [
        {
            "player": ids[honour.player_id],
            "squad": honour.squad.slug,
            "session": places.session(honour.session_id),
            "created_at": timestamp(honour.created_at),
            "superseded_at": timestamp(honour.superseded_at),
        }
        for honour in honours
    ]


def _score_bonuses(
    tournament: Tournament, ids: _PlayerIds, places: _Places
) -> list[dict[str, Any]]:
    order = _player_order(ids)
    bonuses = sorted(
        ScoreBonus.all_objects.filter(tournament=tournament),
        key=lambda bonus: (
            *places.sessions[bonus.earned_in_id],
            order[bonus.player_id],
            *_in_force_last(bonus.superseded_at),
        ),
    )
    return [
        {
            "player": ids[bonus.player_id],
            "earned_in": places.session(bonus.earned_in_id),
            "thresholds_reached": list(bonus.thresholds_reached),
            "extra_equipment_cards": bonus.extra_equipment_cards,
            "used_in": places.session(bonus.used_in_id),
            "superseded_at": timestamp(bonus.superseded_at),
        }
        for bonus in bonuses
    ]


_ROLL_FIELDS = (
    "stage_id",
    "session_id",
    "batch",
    "sequence",
    "purpose",
    "purpose_code",
    "purpose_params",
    "kind",
    "values",
    "subject",
    "source",
    "seed",
    "seed_commitment",
    "created_at",
)


def _dice_rolls(tournament: Tournament, ids: _PlayerIds, places: _Places) -> list[dict[str, Any]]:
    # Plain values, not model instances: the largest table of a tournament.
    rolls = sorted(
        DiceRoll.objects.filter(tournament=tournament).values(*_ROLL_FIELDS).iterator(2000),
        key=lambda roll: (roll["created_at"], str(roll["batch"]), roll["sequence"]),
    )
    exported = []
    for roll in rolls:
        subject = roll["subject"]
        subject_player = ids.from_stored(subject) if subject else None
        if subject_player == subject:
            subject_player = None
        exported.append(
            {
                "stage": places.stage(roll["stage_id"]),
                "session": places.session(roll["session_id"]),
                "batch": str(roll["batch"]),
                "sequence": roll["sequence"],
                "purpose": roll["purpose"],
                "purpose_code": roll["purpose_code"],
                "purpose_params": roll["purpose_params"],
                "kind": roll["kind"],
                "values": list(roll["values"]),
                "subject": "" if subject_player else subject,
                "subject_player": subject_player,
                "source": roll["source"],
                "seed": roll["seed"],
                "seed_commitment": roll["seed_commitment"],
                "created_at": timestamp(roll["created_at"]),
            }
        )
    return exported


def _activity(tournament: Tournament, ids: _PlayerIds, places: _Places) -> list[dict[str, Any]]:
    def stored_session_ref(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value in places.sessions:
            return places.session(value)
        return value

    entries = ActivityLog.objects.filter(tournament=tournament).select_related("actor")
    return [
        {
            "actor": username(entry.actor),
            "verb": entry.verb,
            "object_description": entry.object_description,
            "description_code": entry.description_code,
            "description_params": entry.description_params,
            "details": rewrite_details(
                entry.details or {},
                lambda value, as_text: ids.from_stored(value),
                stored_session_ref,
            ),
            "created_at": timestamp(entry.created_at),
        }
        for entry in entries.order_by("created_at", "pk")
    ]


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a document (plain JSON data)."""
    ids = _PlayerIds(tournament)
    places = _Places(tournament)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tournament": _tournament(tournament),
        "squads": _squads(tournament),
        "weapons": _weapons(tournament),
        "players": _players(tournament, ids),
        "stages": _stages(tournament, ids),
        "squad_ranks": _squad_ranks(tournament, ids),
        "honours": _honours(tournament, ids, places),
        "score_bonuses": _score_bonuses(tournament, ids, places),
        "dice_rolls": _dice_rolls(tournament, ids, places),
        "activity": _activity(tournament, ids, places),
        **{section.key: section.export(tournament) for section in registered()},
    }
