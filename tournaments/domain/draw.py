"""Which squad each player of a session takes (RULES §3 and §4).

First stage (§3): every player gives an ordered list of preferred squads. Tiers are
processed in order (all 1st choices, then 2nd choices of those still waiting, ...); a
choice naming a squad already assigned is skipped; a squad claimed by one waiting player
goes to that player, a squad claimed by several is settled by a d6 roll-off. Players left
without a squad after the last tier roll off and, highest first, take the first free squad
of their preference list (or, when none of their preferences is free, the first free squad
in squad order).

Later stages (§4): a player keeps the squad of their previous session. When several
players of the session held the same squad, the previous-session winner keeps it; among
several winners (or none) the one with more previous points; still tied, a roll-off. The
displaced players then draw exactly as in §3 with the kept squads already assigned, and
carry their rank to the new squad (a :class:`RankTransfer`).

Dice order (so a scripted sequence replays the draw): retention conflicts first, squads in
squad order, claimants in seat order; then tiers ascending, contested squads in squad
order, claimants in seat order; re-rolls only among the tied, in the same order; the
leftover roll-off last.

Preference lists may be partial (even empty): a player whose list runs out simply waits
for the leftover roll-off. See docs/decisions.md, "Tournament rules decisions".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.dice import Dice
from tournaments.domain.initiative import RollRecord, roll_off, roll_off_order
from tournaments.domain.roll_purposes import tournament_purpose


class DrawError(ValueError):
    """The draw's input is unusable; the message (in the active language) says what is wrong
    and how to fix it."""


@dataclass(frozen=True)
class PreviousSession:
    """What a player did in their previous session (only used from the second stage on).

    ``rank`` is the squad's rank the player earned: 0 Marine Squad, 1 Elite, 2 Veteran.
    """

    squad: str
    won: bool
    points: int
    rank: int = 0


@dataclass(frozen=True)
class DrawPlayer:
    """A player taking part in a draw, listed in seat order."""

    id: str
    preferences: tuple[str, ...]
    previous: PreviousSession | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "preferences", tuple(self.preferences))


@dataclass(frozen=True)
class RankTransfer:
    """A displaced player's rank moves from the squad they lost to the squad they got."""

    player: str
    from_squad: str
    to_squad: str
    rank: int

    def as_dict(self) -> dict:
        return {
            "player": self.player,
            "from_squad": self.from_squad,
            "to_squad": self.to_squad,
            "rank": self.rank,
        }


@dataclass(frozen=True)
class DrawResult:
    """The outcome of a draw.

    ``assignments`` maps player id to squad slug (in seat order); ``rolls`` lists every d6
    as ``{"purpose", "player", "value"}`` in the order rolled; ``rank_transfers`` lists the
    displaced players of §4; ``ranks`` gives every player with a previous session the rank
    they carry into this session.
    """

    assignments: dict[str, str]
    rolls: list[dict] = field(default_factory=list)
    rank_transfers: tuple[RankTransfer, ...] = ()
    ranks: dict[str, int] = field(default_factory=dict)


def squad_draw(squads: Sequence[str], players: Sequence[DrawPlayer], dice: Dice) -> DrawResult:
    """Give each player a distinct squad following RULES §3 (and §4 when ``previous`` is set).

    ``squads`` is the tournament's squad order; ``players`` is the seat order.
    Raises :class:`DrawError` for unusable input.
    """
    _validate(squads, players)
    records: list[RollRecord] = []
    assignments: dict[str, str] = {}
    _retain_squads(squads, players, dice, assignments, records)
    waiting = [player for player in players if player.id not in assignments]
    _preference_draw(squads, waiting, dice, assignments, records)

    transfers = tuple(
        RankTransfer(player.id, player.previous.squad, assignments[player.id], player.previous.rank)
        for player in players
        if player.previous is not None and assignments[player.id] != player.previous.squad
    )
    ranks = {player.id: player.previous.rank for player in players if player.previous is not None}
    return DrawResult(
        assignments={player.id: assignments[player.id] for player in players},
        rolls=[record.as_dict() for record in records],
        rank_transfers=transfers,
        ranks=ranks,
    )


def _validate(squads: Sequence[str], players: Sequence[DrawPlayer]) -> None:
    if not squads:
        raise DrawError(_("no squads given; list the session's squads in squad order"))
    seen_squads: set[str] = set()
    for squad in squads:
        if not isinstance(squad, str) or not squad:
            raise DrawError(
                _("squad %(squad)r is not a squad name; give squads as text slugs")
                % {"squad": squad}
            )
        if squad in seen_squads:
            raise DrawError(
                _("squad '%(squad)s' is listed twice in the squad order; list it once")
                % {"squad": squad}
            )
        seen_squads.add(squad)
    known = ", ".join(squads)
    if not players:
        raise DrawError(_("no players given; a draw needs at least one player"))
    if len(players) > len(squads):
        raise DrawError(
            ngettext(
                "%(players)d players but only %(squads)d squad: every player needs a "
                "different squad; add squads or seat fewer players in this session",
                "%(players)d players but only %(squads)d squads: every player needs a "
                "different squad; add squads or seat fewer players in this session",
                len(squads),
            )
            % {"players": len(players), "squads": len(squads)}
        )
    seen_players: set[str] = set()
    for player in players:
        if not isinstance(player.id, str) or not player.id:
            raise DrawError(
                _("player id %(id)r is not usable; give each player a text id") % {"id": player.id}
            )
        if player.id in seen_players:
            raise DrawError(
                _("player '%(player)s' is listed twice; give each player once")
                % {"player": player.id}
            )
        seen_players.add(player.id)
        listed: set[str] = set()
        for squad in player.preferences:
            if squad not in seen_squads:
                raise DrawError(
                    _(
                        "player '%(player)s' prefers unknown squad '%(squad)s'; "
                        "choose among: %(known)s"
                    )
                    % {"player": player.id, "squad": squad, "known": known}
                )
            if squad in listed:
                raise DrawError(
                    _(
                        "player '%(player)s' lists squad '%(squad)s' twice in their preferences; "
                        "list each squad at most once"
                    )
                    % {"player": player.id, "squad": squad}
                )
            listed.add(squad)
        previous = player.previous
        if previous is not None:
            if previous.squad not in seen_squads:
                raise DrawError(
                    _(
                        "player '%(player)s' previously played unknown squad '%(squad)s'; "
                        "choose among: %(known)s"
                    )
                    % {"player": player.id, "squad": previous.squad, "known": known}
                )
            if previous.rank < 0:
                raise DrawError(
                    _("player '%(player)s' has rank %(rank)d; ranks start at 0 (Marine Squad)")
                    % {"player": player.id, "rank": previous.rank}
                )


def _retain_squads(
    squads: Sequence[str],
    players: Sequence[DrawPlayer],
    dice: Dice,
    assignments: dict[str, str],
    records: list[RollRecord],
) -> None:
    """§4.1: each previous squad stays with one of the players who held it."""
    holders: dict[str, list[tuple[DrawPlayer, PreviousSession]]] = {}
    for player in players:
        if player.previous is not None:
            holders.setdefault(player.previous.squad, []).append((player, player.previous))
    for squad in squads:
        group = holders.get(squad)
        if not group:
            continue
        keeper = (
            group[0][0].id if len(group) == 1 else _retention_keeper(squad, group, dice, records)
        )
        assignments[keeper] = squad


def _retention_keeper(
    squad: str,
    group: list[tuple[DrawPlayer, PreviousSession]],
    dice: Dice,
    records: list[RollRecord],
) -> str:
    """The holder who keeps ``squad``: a winner, then the most points, then a roll-off;
    ``group`` pairs each holder with their previous session."""
    winners = [(player, previous) for player, previous in group if previous.won]
    candidates = winners or group
    best = max(previous.points for _player, previous in candidates)
    candidates = [(player, previous) for player, previous in candidates if previous.points == best]
    if len(candidates) == 1:
        return candidates[0][0].id
    return roll_off(
        [player.id for player, _previous in candidates],
        dice,
        tournament_purpose("squad_retention", squad=squad),
        records,
    )


def _preference_draw(
    squads: Sequence[str],
    waiting: Sequence[DrawPlayer],
    dice: Dice,
    assignments: dict[str, str],
    records: list[RollRecord],
) -> None:
    """§3 for the ``waiting`` players, with squads already in ``assignments`` taken."""
    taken = set(assignments.values())
    tiers = max((len(player.preferences) for player in waiting), default=0)
    for tier in range(tiers):
        claims: dict[str, list[str]] = {}
        for player in waiting:
            if player.id in assignments or tier >= len(player.preferences):
                continue
            squad = player.preferences[tier]
            if squad not in taken:
                claims.setdefault(squad, []).append(player.id)
        for squad in squads:
            claimants = claims.get(squad)
            if not claimants:
                continue
            purpose = tournament_purpose("squad_choice", choice=tier + 1, squad=squad)
            winner = (
                claimants[0] if len(claimants) == 1 else roll_off(claimants, dice, purpose, records)
            )
            assignments[winner] = squad
            taken.add(squad)

    left = [player for player in waiting if player.id not in assignments]
    if not left:
        return
    by_id = {player.id: player for player in left}
    order = roll_off_order(
        [player.id for player in left], dice, tournament_purpose("squad_leftover"), records
    )
    for player_id in order:
        preferred = [squad for squad in by_id[player_id].preferences if squad not in taken]
        squad = (preferred or [squad for squad in squads if squad not in taken])[0]
        assignments[player_id] = squad
        taken.add(squad)
