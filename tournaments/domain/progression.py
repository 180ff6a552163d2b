"""Tournament structure (RULES §2): stages, qualifiers, seating and the podium.

* :func:`plan_stages` turns a number of players into stages of sessions: sessions of 3,
  with 2-player sessions for the remainder (N mod 3 = 1: two of them, = 2: one); a stage
  of s >= 2 sessions qualifies the smallest multiple of 3 greater than s (overridable per
  stage by the organiser); one session is the final. 9 -> 6 -> 3, 12 -> 6 -> 3,
  18 -> 9 -> 6 -> 3. :func:`stages_after` plans the stages still to come from the number
  of players going on; :func:`stage_kind` names a stage (preliminary ... final).
* :func:`select_qualifiers` takes all session winners, then the best runners-up by points,
  then the best thirds by points; a tie at the cut is settled by a recorded roll-off.
* :func:`seat_stage` seats the next stage: seeded (stage rank, then points, ties by
  roll-off; snake order 1-4-5 / 2-3-6 generalised) or random (a recorded roll-off orders
  the players, then the same snake). Then the nearest seeds are swapped while a swap
  removes same-previous-session pairs.
* :func:`podium` reads 1st, 2nd and 3rd off the final's ranking.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.engine.dice import Dice
from tournaments.domain.initiative import RollRecord, roll_off_order, roll_off_select
from tournaments.domain.ranking import SessionRanking
from tournaments.domain.roll_purposes import tournament_purpose


class ProgressionError(ValueError):
    """The tournament structure asked for is impossible; the message says why."""


def session_sizes(players: int) -> tuple[int, ...]:
    """Session sizes of a stage: 3-player sessions first, then the 2-player ones."""
    if players < 2:
        raise ProgressionError(
            ngettext(
                "%(count)d player cannot form a session; a session needs 2 or 3 players",
                "%(count)d players cannot form a session; a session needs 2 or 3 players",
                players,
            )
            % {"count": players}
        )
    pairs = {0: 0, 1: 2, 2: 1}[players % 3]
    return (3,) * ((players - 2 * pairs) // 3) + (2,) * pairs


def default_qualifiers(sessions: int) -> int:
    """The smallest multiple of 3 greater than the number of sessions."""
    return 3 * (sessions // 3 + 1)


def qualifier_limits(sessions: int, players: int) -> tuple[int, int]:
    """The smallest and largest qualifier count a stage of ``players`` in ``sessions``
    sessions may have (§2): every session winner goes through, a session needs 2
    players, and someone must be left out."""
    return max(2, sessions), players - 1


def qualifier_range_message(stage: int, sessions: int, players: int, count: int) -> str:
    """Why ``count`` qualifiers is refused for that stage, with the allowed range."""
    low, high = qualifier_limits(sessions, players)
    return _(
        "Stage %(stage)d has %(players)d players in %(sessions)d sessions; its qualifier "
        "count must be from %(low)d to %(high)d, not %(count)d."
    ) % {
        "stage": stage,
        "players": players,
        "sessions": sessions,
        "low": low,
        "high": high,
        "count": count,
    }


@dataclass(frozen=True)
class StagePlan:
    """One stage: how many players, how they split into sessions, how many go through."""

    index: int
    players: int
    session_sizes: tuple[int, ...]
    qualifiers: int  # 0 for the final

    @property
    def is_final(self) -> bool:
        return len(self.session_sizes) == 1


def plan_stages(
    players: int, qualifier_overrides: Mapping[int, int] | None = None
) -> list[StagePlan]:
    """All stages from registration to the final for ``players`` (>= 3) players.

    ``qualifier_overrides`` maps a stage index (0 = first stage) to the organiser's
    qualifier count for that stage; later stages follow the general rule again.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 3:
        raise ProgressionError(f"a tournament needs at least 3 players, not {players!r}")
    overrides = dict(qualifier_overrides or {})
    stages = _stages_from(players, overrides)
    final = stages[-1].index
    if final in overrides:
        raise ProgressionError(
            f"stage {final + 1} is the final (one session of {stages[-1].players}); it has "
            "no qualifiers to override"
        )
    unused = sorted(set(overrides) - {stage.index for stage in stages})
    if unused:
        raise ProgressionError(
            ngettext(
                "a qualifier override for stage %(unused)s, which this tournament does not "
                "have (its last stage is %(last)d)",
                "qualifier overrides for stages %(unused)s, which this tournament does not "
                "have (its last stage is %(last)d)",
                len(unused),
            )
            % {"unused": ", ".join(str(index + 1) for index in unused), "last": len(stages)}
        )
    return stages


def stages_after(
    players: int, qualifier_overrides: Mapping[int, int] | None = None
) -> list[StagePlan]:
    """The stages that ``players`` (>= 2) players going on play, to the final: the plan of
    :func:`plan_stages` from there, ``qualifier_overrides`` keyed by index from the first
    of these stages. Unlike :func:`plan_stages`, an override for the final or beyond is
    left out: the plan of a tournament under way is shown, not checked (the close refuses
    an unusable count)."""
    return _stages_from(players, dict(qualifier_overrides or {}))


def _stages_from(players: int, overrides: Mapping[int, int]) -> list[StagePlan]:
    stages = [_stage(0, players, overrides)]
    while not stages[-1].is_final:
        stages.append(_stage(len(stages), stages[-1].qualifiers, overrides))
    return stages


def _stage(index: int, players: int, overrides: Mapping[int, int]) -> StagePlan:
    """Stage ``index`` of ``players`` players: one session is the final; more send on the
    organiser's count for the stage, else the standard rule's (checked against the size)."""
    sizes = session_sizes(players)
    if len(sizes) == 1:
        return StagePlan(index, players, sizes, 0)
    qualifiers = overrides.get(index, default_qualifiers(len(sizes)))
    if isinstance(qualifiers, bool) or not isinstance(qualifiers, int):
        raise ProgressionError(f"stage {index + 1}: the qualifier count must be a number")
    low, high = qualifier_limits(len(sizes), players)
    if not low <= qualifiers <= high:
        raise ProgressionError(qualifier_range_message(index + 1, len(sizes), players, qualifiers))
    return StagePlan(index, players, sizes, qualifiers)


def stage_kind(sizes: Sequence[int], qualifiers: int | None, *, first: bool = False) -> str:
    """The kind of a stage of sessions of ``sizes`` sending ``qualifiers`` players on (the
    values of ``models.StageKind``): a one-session stage is the final, the first stage the
    preliminary, a stage whose qualifiers fill one session the semifinal, any other stage
    intermediate."""
    if len(sizes) == 1:
        return "final"
    if first:
        return "preliminary"
    if qualifiers is not None and len(session_sizes(qualifiers)) == 1:
        return "semifinal"
    return "intermediate"


@dataclass(frozen=True)
class Qualifier:
    """A player going through: from which session, at which place, with how many points."""

    player: str
    session: str
    position: int
    points: int


@dataclass(frozen=True)
class QualifierSelection:
    qualifiers: tuple[Qualifier, ...]
    rolls: tuple[RollRecord, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(qualifier.player for qualifier in self.qualifiers)


#: The roll-off purpose (:mod:`tournaments.domain.roll_purposes`) of a tie at the cut, by place.
_TIE_PURPOSES = {1: "best_winners_tie", 2: "best_runners_up_tie", 3: "best_thirds_tie"}
_GROUP_LABELS = {
    1: gettext_lazy("best winners"),
    2: gettext_lazy("best runners-up"),
    3: gettext_lazy("best thirds"),
}


def _tie_purpose(position: int, points: int) -> str:
    """The (English) purpose of a roll-off among the players at ``position`` tied on
    ``points``, e.g. "best thirds: tie on 12 points"."""
    code = _TIE_PURPOSES.get(position)
    if code is None:
        return tournament_purpose("best_in_position_tie", position=position, points=points)
    return tournament_purpose(code, points=points)


def _group_label(position: int) -> str:
    """The group's name in the active language, for messages."""
    label = _GROUP_LABELS.get(position)
    if label is not None:
        return str(label)
    return _("best players in position %(position)d") % {"position": position}


def _places(
    rankings: Mapping[str, SessionRanking], count: int
) -> Iterator[tuple[int, list[Qualifier], int]]:
    """The places the ``count`` qualifiers are taken from, in order: each as its position,
    its players and how many qualifiers are still needed (all of them qualify when they
    are no more than that)."""
    candidates = [
        Qualifier(seat.seat, session, seat.position, seat.points)
        for session, ranking in rankings.items()
        for seat in ranking.order
    ]
    if not 1 <= count <= len(candidates):
        raise ProgressionError(
            f"cannot qualify {count} of {len(candidates)} players; choose from 1 to "
            f"{len(candidates)}"
        )
    taken = 0
    for position in sorted({candidate.position for candidate in candidates}):
        need = count - taken
        if need <= 0:
            break
        place = [candidate for candidate in candidates if candidate.position == position]
        yield position, place, need
        taken += min(need, len(place))


def select_qualifiers(
    rankings: Mapping[str, SessionRanking], count: int, dice: Dice | None = None
) -> QualifierSelection:
    """The ``count`` qualifiers of a stage whose sessions ranked as ``rankings``.

    ``rankings`` maps session id to ranking, in session order. Places are taken whole
    (all winners, then runners-up, then thirds) while they fit; the place that does not
    fit is taken by points, and a tie at the cut is settled by a roll-off.
    """
    chosen: list[Qualifier] = []
    rolls: list[RollRecord] = []
    for position, place, need in _places(rankings, count):
        chosen.extend(_best_by_points(place, need, dice, position, rolls))
    return QualifierSelection(tuple(chosen), tuple(rolls))


@dataclass(frozen=True)
class CutTie:
    """Players of one place (``position``: 2 for the runners-up) tied on ``points`` at the
    cut: a roll-off among them decides which ``places`` of them qualify."""

    position: int
    points: int
    players: tuple[str, ...]
    places: int

    @property
    def group(self) -> str:
        """The place's players as a group, in the active language ("best runners-up")."""
        return _group_label(self.position)


def cut_ties(rankings: Mapping[str, SessionRanking], count: int) -> tuple[CutTie, ...]:
    """The ties :func:`select_qualifiers` settles by a roll-off, known before any die is
    rolled (which players qualify whole does not depend on the dice)."""
    ties = []
    for position, place, need in _places(rankings, count):
        _above, at_cut, left = _split_at_cut(place, need)
        if len(at_cut) > left:
            ties.append(CutTie(position, at_cut[0].points, tuple(q.player for q in at_cut), left))
    return tuple(ties)


def _split_at_cut(
    group: list[Qualifier], places: int
) -> tuple[list[Qualifier], list[Qualifier], int]:
    """``group`` by points, best first, split for ``places`` places: those above the cut,
    those on it, and how many places are left for those on it (a roll-off when fewer
    than they are)."""
    ordered = sorted(group, key=lambda q: -q.points)
    if places >= len(ordered):
        return ordered, [], 0
    cut = ordered[places - 1].points
    above = [q for q in ordered if q.points > cut]
    at_cut = [q for q in ordered if q.points == cut]
    return above, at_cut, places - len(above)


def _best_by_points(
    group: list[Qualifier], places: int, dice: Dice | None, position: int, rolls: list
) -> list[Qualifier]:
    """The ``places`` best of ``group`` (the players at ``position`` in their sessions) by
    points, best first; a tie at the cut rolls off."""
    above, at_cut, left = _split_at_cut(group, places)
    if len(at_cut) == left:
        return above + at_cut
    cut = at_cut[0].points
    if dice is None:
        names = ", ".join(q.player for q in at_cut)
        raise ProgressionError(
            ngettext(
                "%(names)s are tied on %(points)s points for %(count)d place among the "
                "%(group)s; a roll-off is needed, so give dice",
                "%(names)s are tied on %(points)s points for %(count)d places among the "
                "%(group)s; a roll-off is needed, so give dice",
                left,
            )
            % {"names": names, "points": cut, "count": left, "group": _group_label(position)}
        )
    by_player = {q.player: q for q in at_cut}
    purpose = _tie_purpose(position, cut)
    winners = roll_off_select([q.player for q in at_cut], left, dice, purpose, rolls)
    return above + [by_player[player] for player in winners]


def best_runner_up(
    rankings: Mapping[str, SessionRanking], dice: Dice | None = None
) -> tuple[Qualifier, tuple[RollRecord, ...]]:
    """The runner-up with most points across sessions (RULES §8); ties by roll-off."""
    runners_up = [
        Qualifier(seat.seat, session, seat.position, seat.points)
        for session, ranking in rankings.items()
        for seat in ranking.order
        if seat.position == 2
    ]
    if not runners_up:
        raise ProgressionError("no session has a runner-up")
    rolls: list[RollRecord] = []
    best = _best_by_points(runners_up, 1, dice, 2, rolls)[0]
    return best, tuple(rolls)


class SeatingMode(StrEnum):
    SEEDED = "seeded"
    RANDOM = "random"


@dataclass(frozen=True)
class Seating:
    """Players per session of a stage, the order they were dealt in, and the dice used.

    ``clashes`` counts pairs of players from the same previous session seated together
    that could not be separated (0 whenever the swaps found a clash-free seating).
    """

    sessions: tuple[tuple[str, ...], ...]
    seeds: tuple[str, ...]
    rolls: tuple[RollRecord, ...]
    clashes: int

    def as_dict(self) -> dict:
        return {
            "sessions": [list(session) for session in self.sessions],
            "seeds": list(self.seeds),
            "rolls": [roll.as_dict() for roll in self.rolls],
            "clashes": self.clashes,
        }


def _seed_key(qualifier: Qualifier) -> tuple[int, int]:
    """A qualifier's stage rank: their session place, then points (most first)."""
    return (qualifier.position, -qualifier.points)


def seed_order(
    qualifiers: Sequence[Qualifier], dice: Dice | None, rolls: list[RollRecord]
) -> tuple[str, ...]:
    """Qualifiers by stage rank (their session place), then points; ties by roll-off."""
    ordered = sorted(qualifiers, key=_seed_key)
    seeds: list[str] = []
    index = 0
    while index < len(ordered):
        group = [q for q in ordered[index:] if _seed_key(q) == _seed_key(ordered[index])]
        if len(group) == 1:
            seeds.append(group[0].player)
        else:
            if dice is None:
                names = ", ".join(q.player for q in group)
                raise ProgressionError(
                    f"{names} have the same place and points; seeding them needs a roll-off, "
                    "so give dice"
                )
            seeds.extend(
                roll_off_order(
                    [q.player for q in group],
                    dice,
                    tournament_purpose("seeding_tie", seed=index + 1),
                    rolls,
                )
            )
        index += len(group)
    return tuple(seeds)


def snake(seeds: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal ``seeds`` into sessions of ``sizes`` in snake order (1-4-5 / 2-3-6)."""
    if sum(sizes) != len(seeds):
        raise ProgressionError(f"{len(seeds)} players do not fit sessions of sizes {list(sizes)}")
    sessions: list[list[str]] = [[] for _ in sizes]
    pending = list(seeds)
    sweep = 0
    while pending:
        indices = range(len(sizes)) if sweep % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for index in indices:
            if pending and len(sessions[index]) < sizes[index]:
                sessions[index].append(pending.pop(0))
        sweep += 1
    return sessions


def count_clashes(sessions: Sequence[Sequence[str]], origin: Mapping[str, str]) -> int:
    """Pairs of players from the same previous session seated in the same session."""
    total = 0
    for session in sessions:
        for group_size in Counter(origin[player] for player in session).values():
            total += group_size * (group_size - 1) // 2
    return total


def remove_clashes(
    sessions: list[list[str]], origin: Mapping[str, str], seeds: Sequence[str]
) -> list[list[str]]:
    """Swap the nearest seeds while a swap lowers the number of same-session clashes.

    Among swaps of equally near seeds the one leaving fewer clashes wins, then the one
    between the lowest-ranked seeds (so top seeds stay where the snake put them).
    """
    rank = {player: number for number, player in enumerate(seeds)}
    current = count_clashes(sessions, origin)
    while current:
        best: tuple | None = None
        for a, session_a in enumerate(sessions):
            groups_a = Counter(origin[player] for player in session_a)
            for i, player in enumerate(session_a):
                if groups_a[origin[player]] < 2:
                    continue
                for b, session_b in enumerate(sessions):
                    if b == a:
                        continue
                    for j, other in enumerate(session_b):
                        if origin[other] == origin[player]:
                            continue
                        trial = [list(session) for session in sessions]
                        trial[a][i], trial[b][j] = other, player
                        after = count_clashes(trial, origin)
                        if after >= current:
                            continue
                        low, high = sorted((rank[player], rank[other]))
                        key = (high - low, after, -high, -low)
                        if best is None or key < best[0]:
                            best = (key, trial, after)
        if best is None:
            break
        sessions, current = best[1], best[2]
    return sessions


def seat_stage(
    qualifiers: Sequence[Qualifier],
    sizes: Sequence[int],
    mode: SeatingMode | str = SeatingMode.SEEDED,
    dice: Dice | None = None,
) -> Seating:
    """Seat a stage's players in sessions of ``sizes`` (RULES §2, semifinal seating).

    ``qualifiers`` carry the previous session of each player (``session``), used to keep
    players of the same previous session apart; for the first stage give each player a
    distinct ``session`` (e.g. their own id) and position 1. A stage of one session (the
    final) is seated by seed whatever ``mode``, without a die, players of the same place
    and points in the order given (registration order, as the actions give them; decision
    21: where a player sits at the one table decides nothing, initiative is rolled there,
    RULES §5).
    """
    mode = SeatingMode(mode)
    players = [q.player for q in qualifiers]
    if len(set(players)) != len(players):
        raise ProgressionError("a player appears twice among the qualifiers")
    rolls: list[RollRecord] = []
    if len(sizes) == 1:
        seeds = tuple(q.player for q in sorted(qualifiers, key=_seed_key))
    elif mode is SeatingMode.SEEDED:
        seeds = seed_order(qualifiers, dice, rolls)
    else:
        if dice is None:
            raise ProgressionError("random seating needs dice")
        seeds = roll_off_order(players, dice, tournament_purpose("random_seating"), rolls)
    origin = {q.player: q.session for q in qualifiers}
    sessions = remove_clashes(snake(seeds, sizes), origin, seeds)
    return Seating(
        sessions=tuple(tuple(session) for session in sessions),
        seeds=seeds,
        rolls=tuple(rolls),
        clashes=count_clashes(sessions, origin),
    )


def first_stage_seating(
    players: Sequence[str], dice: Dice | None = None, sizes: Sequence[int] | None = None
) -> Seating:
    """Seat the first stage: in registration order, or at random when ``dice`` are given."""
    sizes = tuple(sizes) if sizes is not None else session_sizes(len(players))
    entrants = [Qualifier(player, player, 1, 0) for player in players]
    if dice is None:
        if len(set(players)) != len(players):
            raise ProgressionError("a player is registered twice")
        sessions = _fill(list(players), sizes)
        return Seating(tuple(tuple(s) for s in sessions), tuple(players), (), 0)
    return seat_stage(entrants, sizes, SeatingMode.RANDOM, dice)


def _fill(players: list[str], sizes: Sequence[int]) -> list[list[str]]:
    if sum(sizes) != len(players):
        raise ProgressionError(f"{len(players)} players do not fit sessions of sizes {list(sizes)}")
    sessions, start = [], 0
    for size in sizes:
        sessions.append(players[start : start + size])
        start += size
    return sessions


@dataclass(frozen=True)
class PodiumPlace:
    position: int
    player: str
    points: int


def podium(final: SessionRanking) -> tuple[PodiumPlace, ...]:
    """1st, 2nd and 3rd of the tournament from the final's ranking (2 places for a pair)."""
    places = []
    for ranked in final.order[:3]:
        if ranked.tied:
            raise ProgressionError(
                f"the final's position {ranked.position} is shared; rank the final with every "
                "podium position settled"
            )
        places.append(PodiumPlace(ranked.position, ranked.seat, ranked.points))
    return tuple(places)
