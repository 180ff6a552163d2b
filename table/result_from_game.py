"""What a game played on the judge's board says about the session's result (RULES §7).

The judge's result form can start from this instead of empty counts. The game's snapshots
are replayed along the line that leads to the current state: an undo's copy stands for the
step it restored, so the steps it undid (and their kills) drop out. Between two steps of
that line, every figure that left the board is accounted for by what produced the step:

* a marine attack: the attacking figure's player killed it (in a fight the attacker may be
  the one who dies: then the defender killed it). A marine of another player is a kill of
  its class, the attacker's own marine a loss to own fire, an alien a token of its type if
  one is free (below), a Tarantula a Tarantula destroyed;
* an Alien turn: a marine is a loss to the aliens; an alien killed in a fight is the token
  the engine gave (its ``token_taken`` step), checked against the tokens already taken; an
  alien an event card's special weapon killed (``special_weapon_blew_up``) scores nobody,
  nor does a Suicide Android nor an alien its blast killed (``self_destruct_gone``,
  ``self_destruct_blast``);
* a move onto a docking claw: the figure left play, safe (``progress.left_play``); the end
  of the game after the last event card or the escape rounds: a marine still on the board
  is lost (the engine's ``marine_lost`` step), entered as a marine left on the board
  (game engine decision 33);
* a marine-piloted Dreadnought destroyed: a Dreadnought row for the destroying seat (its
  class value from the rules data, which holds the session's value, and the pilot's
  class) and the pilot's loss for its owner; by the aliens or its own squad, the pilot's
  loss only;
* a judge's removal follows the reason the judge chose (its ``removed`` summary part):
  "left" is a safe exit, as through a claw (no death, and no survivor either), "dead" a
  death even on a claw square. A removal that gives no reason (a forfeit, older games) is a
  safe exit from a claw square and a possible death elsewhere;
* a judge's removal of a figure that may have died, an uploaded state or anything else: the
  game cannot say who killed it, so it becomes a note for the judge to check by hand.

Tokens: the board keeps the revealed blip and reinforcement tokens (``GameState.tokens``)
and marks one taken when a kill earns it (:mod:`rules.engine.kill_scores`). Games played
before marine attacks marked them, and uploaded states, may not say so, so the replay
keeps its own count of the tokens of each alien type already taken, and a kill takes a
token only when the board held more of that type than had been taken before it (any
token of the type will do, RULES §7).

Objectives, stall-breaker rounds, catalogue token values, survivors and the end of the game
come from :mod:`table.result_objectives`.

Seats: the game's players are ``p<seat order>`` (:mod:`table.game_setup`); the breakdowns
name seats by their player's id, as the result form does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.ai.self_destruct import BLAST as SELF_DESTRUCT_BLAST
from rules.engine.ai.self_destruct import GONE as SELF_DESTRUCT_GONE
from rules.engine.ai.special_weapons import BLEW_UP
from rules.engine.combat import alien_token_value, dreadnought_class_of, owner_of
from rules.engine.rerolls import DEFENCE_OFFER, OFFER
from rules.engine.rerolls import DONE as REROLL_DONE
from rules.engine.state import ALIEN, MARINE, Figure, GameState, rules_of
from rules.engine.units import RulesData, RulesDataError
from table.models import Game, Snapshot, SnapshotKind
from table.result_objectives import GameEnd, complete_breakdowns, game_end
from table.result_objectives import survivors as proposed_survivors
from table.seating import game_player_id
from table.snapshot_summaries import snapshot_summary
from tournaments.domain.scoring import (
    TOKEN_ALIEN_LABELS,
    TOKENLESS_ALIENS,
    AlienTokens,
    DreadnoughtKill,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    SeatBreakdown,
    TarantulaKill,
    alien_label,
)
from tournaments.models import Seat
from tournaments.queries.session_stipulation import result_limits

#: The order of the classes in a breakdown (as the result form lists them).
CLASS_ORDER = tuple(MarineClass)

TARANTULA = "tarantula"


@dataclass(frozen=True)
class GameProposal:
    """The result a game proposes: one breakdown per seat (seat order), the seats that still
    have a marine in play (player ids), and what the judge must check by hand. ``step`` is
    the game's latest step, the one the board page shows."""

    game: Game
    step: int
    breakdowns: tuple[SeatBreakdown, ...]
    survivors: tuple[int, ...]
    notes: tuple[str, ...] = field(default=())
    #: How the game ended (None: it goes on; the proposal is then the game so far).
    end: GameEnd | None = None


def current_line(snapshots: Iterable[Snapshot]) -> list[Snapshot]:
    """The snapshots leading to the latest one, oldest first, without undone steps.

    An undo appends a copy of an earlier snapshot; the line goes back through the copied
    snapshot instead, so what happened between it and the undo is left out. An undo to a
    later step (a redo) brings its steps back the same way. An undo that does not say which
    step it restored stays in the line as a step that replaced the board.

    A die rolled again (:mod:`table.reroll_actions`) resolves the attack again from the step
    it was made on and replaces its result: the line goes from the re-roll straight back
    to that step, so the replaced attack (and an earlier re-roll of it) and its kills drop
    out, as the board's scores do.
    """
    by_number = {snapshot.number: snapshot for snapshot in snapshots}
    if not by_number:
        return []
    line: list[Snapshot] = []
    number = max(by_number)
    while number in by_number:
        snapshot = by_number[number]
        restored = snapshot.restored_from if snapshot.kind == SnapshotKind.UNDO else None
        if restored is not None and restored in by_number and restored < number:
            number = restored
            continue
        line.append(snapshot)
        base = reroll_base(snapshot, by_number)
        number = number - 1 if base is None else base
    line.reverse()
    return line


def reroll_base(snapshot: Snapshot, by_number: Mapping[int, Snapshot]) -> int | None:
    """The step a re-roll's snapshot was resolved from; None for any other snapshot.

    A re-roll is taken right after the attack it replaces (any later step ends the offer),
    so that attack is the snapshot just before it, and its re-roll offers name the step the
    attack was made on. Without an offer to read, only that attack is left out."""
    if snapshot.kind != SnapshotKind.MARINE_ATTACK or not any(
        step.get("code") == REROLL_DONE for step in snapshot.steps or ()
    ):
        return None
    replaced = by_number.get(snapshot.number - 1)
    offers = [
        (step.get("params") or {}).get("base")
        for step in (replaced.steps or () if replaced is not None else ())
        if step.get("code") in (OFFER, DEFENCE_OFFER)
    ]
    base = next((b for b in offers if isinstance(b, int) and b < snapshot.number - 1), None)
    return base if base is not None else snapshot.number - 2


def marine_class(state: GameState, figure: Figure, rules: RulesData) -> MarineClass:
    """What a marine-side figure was worth when it died (RULES §7), as the result form
    records it: a Tarantula gunner whatever his weapon, a commander, else by the heaviest
    weapon carried (the same order as the engine's ``RulesData.marine_value``)."""
    vehicle = figure.piloting
    if vehicle and state.has_figure(vehicle) and state.figure(vehicle).unit == TARANTULA:
        return MarineClass.GUNNER
    if figure.unit == "commander":
        return MarineClass.COMMANDER
    classes = {rules.weapon(key).weapon_class for key in figure.weapons}
    for weapon_class, marine in (
        ("extra_heavy", MarineClass.EXTRA_HEAVY),
        ("heavy", MarineClass.HEAVY),
        ("light", MarineClass.LIGHT),
    ):
        if weapon_class in classes:
            return marine
    return MarineClass.UNARMED


def propose_result(game: Game, seats: Sequence[Seat], step: int | None = None) -> GameProposal:
    """The breakdowns and notes the game ``game`` proposes for its session's ``seats``, as
    it stands now or, with ``step``, as it stood at that step (steps are never changed, so
    a proposal shown before is the same again).

    Only the steps after which some figure is missing, those that gave a token (an alien
    revealed and killed in one Alien turn is on the board neither before nor after it) and
    uploads are read as engine states: reading a stored state is slow, and most steps of a
    game kill nothing."""
    snapshots = list(
        game.snapshots.all() if step is None else game.snapshots.filter(number__lte=step)
    )
    line = current_line(snapshots)
    if not line:
        return GameProposal(game, 0, tuple(SeatBreakdown(str(s.player_id)) for s in seats), ())
    states: dict[int, GameState] = {}

    def state(index: int) -> GameState:
        if index not in states:
            states[index] = GameState.from_json(line[index].state, checked=False)
        return states[index]

    last = len(line) - 1
    replay = _Replay(seats, rules_of(state(last)))
    ids = [{figure["id"] for figure in snapshot.state.get("figures", ())} for snapshot in line]
    for index in range(1, len(line)):
        if (
            ids[index - 1] <= ids[index]
            and line[index].kind != SnapshotKind.UPLOAD
            and not _gives_token(line[index])
        ):
            continue
        replay.step(line[index], state(index - 1), state(index))
    final = state(last)
    return GameProposal(
        game=game,
        step=max(snapshot.number for snapshot in snapshots),
        breakdowns=complete_breakdowns(
            replay.breakdowns(), seats, line, final, catalogue_token_values(game)
        ),
        survivors=proposed_survivors(final, seats),
        notes=tuple(replay.notes),
        end=game_end(final.outcome, seats),
    )


def _gives_token(snapshot: Snapshot) -> bool:
    return any(step.get("code") == "token_taken" for step in snapshot.steps or ())


def catalogue_token_values(game: Game) -> dict[str, int | None]:
    """Each alien's token value in the tournament's catalogue (None: several or none)."""
    aliens = result_limits(game.session).aliens
    return {alien: aliens.default_value(alien) for alien in aliens.values or {}}


#: Who killed a figure when no figure did: the aliens as a side, or nobody the game knows.
BY_ALIENS = "aliens"
#: A marine still on the board when the game ended: lost, killed by nobody (game engine
#: decision 33).
LEFT_BEHIND = "left on the board"

#: The loss cause of a death no seat scores, by who the replay says caused it.
_NOBODY = {BY_ALIENS: LossCause.ALIEN, LEFT_BEHIND: LossCause.LEFT_ON_BOARD}

#: The judge's reason for a removal of a figure that left play (``table.forms``), not died.
LEFT_PLAY = "left"


def removal_why(snapshot: Snapshot, figure: Figure) -> str | None:
    """Why the judge's edit ``snapshot`` took ``figure`` off the board ("dead" or
    "left", from its ``removed`` summary part; "left" for a forfeit's figures); None when
    the edit does not say."""
    for part in snapshot.summary_parts or ():
        if len(part) != 2 or not isinstance(part[1], dict):
            continue
        if part[0] == "removed" and part[1].get("id") == figure.id and part[1].get("why"):
            return str(part[1]["why"])
        if part[0] == "forfeit" and part[1].get("player") == figure.player:
            return LEFT_PLAY  # a forfeit's figures leave play (decision 32)
    return None


def _left_on_board(snapshot: Snapshot) -> set[str]:
    """The marines the end of the game in ``snapshot`` found on the board (the engine's
    ``marine_lost`` steps): lost, killed by nobody."""
    return {
        str((step.get("params") or {}).get("figure"))
        for step in snapshot.steps or ()
        if step.get("code") == "marine_lost"
    }


class _Replay:
    """The running tally of one game's line: counts per seat and the notes so far."""

    def __init__(self, seats: Sequence[Seat], rules: RulesData) -> None:
        self.seats = list(seats)
        self.seat_of = {game_player_id(seat): seat for seat in self.seats}
        self.rules = rules
        self.kills: Counter[tuple[str, str, MarineClass]] = Counter()
        self.losses: Counter[tuple[str, LossCause, MarineClass]] = Counter()
        self.tarantulas: Counter[tuple[str, str]] = Counter()
        self.dreadnoughts: Counter[tuple[str, str, int, MarineClass]] = Counter()
        self.tokens: Counter[tuple[str, str, int]] = Counter()
        self.taken: Counter[str] = Counter()  # tokens of each alien unit taken so far
        self.notes: list[str] = []
        self.unseated: set[str] = set()

    # -- names -------------------------------------------------------------------------

    def name(self, player: str | None) -> str:
        seat = self.seat_of.get(player or "")
        return seat.player.display_name if seat is not None else (player or "?")

    def seated(self, player: str) -> bool:
        """Whether the game's ``player`` is a seat of the session (noted once otherwise)."""
        if player in self.seat_of:
            return True
        if player not in self.unseated:
            self.unseated.add(player)
            self.notes.append(
                _(
                    "The game has a player %(player)s who is not seated in this session; "
                    "nothing of theirs is entered. Check the game's players against the seats."
                )
                % {"player": player}
            )
        return False

    # -- one step ----------------------------------------------------------------------

    def step(self, snapshot: Snapshot, before: GameState, after: GameState) -> None:
        gone = [f for f in before.figures if not after.has_figure(f.id)]
        kind = snapshot.kind
        if kind == SnapshotKind.MARINE_ATTACK:
            self._attack(snapshot, before, gone)
        elif kind == SnapshotKind.ALIEN_TURN:
            self._alien_turn(snapshot, before, after, gone)
        elif kind == SnapshotKind.UPLOAD:
            self._upload(snapshot, gone)
        elif kind == SnapshotKind.JUDGE_EDIT:
            for figure in gone:
                self._removed(snapshot, before, figure)
        else:
            for figure in self._not_dead(snapshot, before, after, gone):
                self._unexplained(snapshot, figure)

    def _not_dead(
        self, snapshot: Snapshot, before: GameState, after: GameState, gone: list[Figure]
    ) -> list[Figure]:
        """Of the figures ``gone`` in a move or a turn's step, those the game cannot explain:
        a figure that left through a docking claw is safe (``progress.left_play``), a marine
        left on the board when the game ended is lost (the engine's ``marine_lost`` step: its
        owner loses its value, nobody gains; a loss left on the board, decision 33)."""
        left = {f.id for f in after.progress.left_play}
        lost = _left_on_board(snapshot)
        unexplained = []
        for figure in gone:
            if figure.id in lost:
                self._death(snapshot, before, figure, LEFT_BEHIND, gone, pool=after)
            elif figure.id not in left:
                unexplained.append(figure)
        return unexplained

    def _attack(self, snapshot: Snapshot, before: GameState, gone: list[Figure]) -> None:
        attack = next((e for e in snapshot.events if e.get("kind") == "attack"), None)
        params = (attack or {}).get("params") or {}
        attacker_id = params.get("attacker")
        if attack is None or not attacker_id or not before.has_figure(attacker_id):
            for figure in gone:
                self._unexplained(snapshot, figure)
            return
        attacker = before.figure(attacker_id)
        fight = str(attack.get("code", "")).startswith("fight")
        defender_id = params.get("target")
        for figure in gone:
            killer = attacker
            if (
                fight
                and figure.id == attacker_id
                and defender_id
                and before.has_figure(defender_id)
            ):
                killer = before.figure(defender_id)
            by = BY_ALIENS if killer.side == ALIEN else owner_of(killer)
            self._death(snapshot, before, figure, by, gone, pool=before)

    def _alien_turn(
        self, snapshot: Snapshot, before: GameState, after: GameState, gone: list[Figure]
    ) -> None:
        left_behind = _left_on_board(snapshot)  # the turn closed the game's last round
        for figure in gone:
            if figure.side == MARINE:
                by = LEFT_BEHIND if figure.id in left_behind else BY_ALIENS
                self._death(snapshot, before, figure, by, gone, pool=after)
        explained: Counter[str] = Counter()
        scores_nobody: set[str] = set()
        for step in snapshot.steps:
            params = step.get("params") or {}
            if step.get("code") in (BLEW_UP, SELF_DESTRUCT_GONE):
                scores_nobody.add(params.get("figure", ""))
            elif step.get("code") == SELF_DESTRUCT_BLAST:
                scores_nobody.update(params.get("targets") or ())
            elif step.get("code") == "no_token":
                explained[params.get("unit", "")] += 1
            elif step.get("code") == "token_taken":
                unit = params.get("unit", "")
                explained[unit] += 1
                points = params.get("points")
                self._engine_token(
                    snapshot,
                    before,
                    after,
                    params.get("player", ""),
                    unit,
                    points if isinstance(points, int) else self.rules.alien_tokens.get(unit, 0),
                )
        for figure in gone:
            if figure.side != ALIEN or figure.id in scores_nobody:
                continue
            if explained[figure.unit]:
                explained[figure.unit] -= 1
                continue
            self.notes.append(
                _(
                    "Step %(step)d: the alien %(figure)s died during the Alien turn and the "
                    "game does not say who killed it; if a marine did, enter that player's "
                    "token by hand."
                )
                % {"step": snapshot.number, "figure": figure.id}
            )

    def _upload(self, snapshot: Snapshot, gone: list[Figure]) -> None:
        if gone:
            self.notes.append(
                _(
                    "Step %(step)d: the board was replaced by an uploaded state, which took "
                    "%(figures)s off the board; the game does not say who killed them. Enter "
                    "by hand those that died."
                )
                % {"step": snapshot.number, "figures": ", ".join(f.id for f in gone)}
            )
        else:
            self.notes.append(
                _(
                    "Step %(step)d: the board was replaced by an uploaded state; no figure was "
                    "taken off, but check its tokens by hand."
                )
                % {"step": snapshot.number}
            )

    def _removed(self, snapshot: Snapshot, before: GameState, figure: Figure) -> None:
        """A judge's removal, read by the reason the judge chose: a figure that left play is
        safe, a dead one may have died by anyone's hand, which the game does not know. Only
        a removal without a reason (a forfeit, older games) is judged by where the figure
        stood: in a docking claw it left play."""
        why = removal_why(snapshot, figure)
        if why == LEFT_PLAY:
            return
        if (
            why is None
            and figure.on_board
            and any(before.board.claw_of(sq) is not None for sq in figure.squares)
        ):
            return
        values = {
            "step": snapshot.number,
            "figure": figure.id,
            "owner": self.name(figure.player),
            "reason": snapshot.reason or snapshot_summary(snapshot),
        }
        if figure.side == ALIEN:
            text = _(
                "Step %(step)d: the judge took the alien %(figure)s off the board (%(reason)s); "
                "if a marine killed it, enter that player's token by hand."
            )
        else:
            text = _(
                "Step %(step)d: the judge took %(figure)s of %(owner)s off the board "
                "(%(reason)s); if it died, enter the kill or the loss by hand."
            )
        self.notes.append(text % values)

    def _unexplained(self, snapshot: Snapshot, figure: Figure) -> None:
        self.notes.append(
            _(
                "Step %(step)d (%(kind)s): %(figure)s left the board and the game does not say "
                "who killed it; check it by hand."
            )
            % {"step": snapshot.number, "kind": snapshot.get_kind_display(), "figure": figure.id}
        )

    # -- one death ---------------------------------------------------------------------

    def _death(
        self,
        snapshot: Snapshot,
        before: GameState,
        figure: Figure,
        by: str,
        gone: list[Figure],
        *,
        pool: GameState,
    ) -> None:
        """Score the death of ``figure`` at the hand of ``by`` (a player id, the aliens, or
        the end of the game for a marine left on the board)."""
        if self._dreadnought(snapshot, before, figure, by, gone):
            return
        if figure.side == ALIEN:
            if by not in _NOBODY and self.seated(by):
                self._marine_token(snapshot, by, figure, pool)
            return
        owner = owner_of(figure)
        if not self.seated(owner):
            return
        if figure.unit == TARANTULA:
            if by not in (*_NOBODY, owner) and self.seated(by):
                self.tarantulas[(by, owner)] += 1
            return
        try:
            value = marine_class(before, figure, self.rules)
        except RulesDataError as error:
            self.notes.append(
                _(
                    "Step %(step)d: %(figure)s of %(owner)s died, but its class is unknown "
                    "(%(error)s); enter it by hand."
                )
                % {
                    "step": snapshot.number,
                    "figure": figure.id,
                    "owner": self.name(owner),
                    "error": error,
                }
            )
            return
        if by in _NOBODY:
            self.losses[(owner, _NOBODY[by], value)] += 1
        elif by == owner:
            self.losses[(owner, LossCause.OWN_FIRE, value)] += 1
        elif self.seated(by):
            self.kills[(by, owner, value)] += 1

    def _dreadnought(
        self, snapshot: Snapshot, before: GameState, figure: Figure, by: str, gone: list[Figure]
    ) -> bool:
        """A marine-piloted Dreadnought or its pilot, scored once with the Dreadnought
        (RULES §7): the destroying seat gets a Dreadnought row (the class value from the
        rules data, which holds the session's value, plus the pilot's), the owner the
        pilot's loss. True when ``figure`` is one of the two."""
        if figure.side != MARINE:
            return False
        vehicle = figure
        if figure.piloting and before.has_figure(figure.piloting):
            vehicle = before.figure(figure.piloting)
        if not vehicle.is_dreadnought:
            return False
        if figure is not vehicle and any(f.id == vehicle.id for f in gone):
            return True  # scored with its Dreadnought
        pilot = next((f for f in before.figures if f.piloting == vehicle.id), None)
        owner = owner_of(vehicle)
        if pilot is None or not self.seated(owner):
            return True
        try:
            value = self.rules.dreadnought_class(
                dreadnought_class_of(self.rules, vehicle)
            ).class_value
            pilot_class = marine_class(before, pilot, self.rules)
        except RulesDataError as error:
            self.notes.append(
                _(
                    "Step %(step)d: the Dreadnought %(figure)s of %(owner)s was destroyed, but "
                    "its class or its pilot's is unknown (%(error)s); enter it by hand."
                )
                % {
                    "step": snapshot.number,
                    "figure": vehicle.id,
                    "owner": self.name(owner),
                    "error": error,
                }
            )
            return True
        if by in _NOBODY:
            self.losses[(owner, _NOBODY[by], pilot_class)] += 1
        elif by == owner:
            self.losses[(owner, LossCause.OWN_FIRE, pilot_class)] += 1
        elif self.seated(by):
            self.dreadnoughts[(by, owner, value, pilot_class)] += 1
        return True

    # -- tokens ------------------------------------------------------------------------

    def _scores_token(self, unit: str) -> bool:
        """Whether a token of ``unit`` is worth points: a Genestealer's is not (RULES §7),
        whether or not the board marks it taken, and the result form has no row for it."""
        return unit not in TOKENLESS_ALIENS and bool(self.rules.alien_tokens.get(unit, 0))

    def _claim(self, unit: str, pool: GameState, taken_before: GameState) -> bool:
        """Take one token of ``unit`` if the board holds one more than are taken: those this
        replay counted, or those the board marks taken if more (an upload may mark some)."""
        tokens = [t for t in pool.tokens if t.alien == unit]
        marked = sum(1 for t in taken_before.tokens if t.alien == unit and t.taken_by)
        taken = max(self.taken[unit], marked)
        if len(tokens) <= taken:
            self.taken[unit] = taken
            return False
        self.taken[unit] = taken + 1
        return True

    def _record_token(self, snapshot: Snapshot, player: str, unit: str, value: int) -> None:
        """One token of ``unit`` for ``player``, worth ``value`` (an alien Dreadnought's
        class value when its class is named, as the board scored it)."""
        if unit not in TOKEN_ALIEN_LABELS:
            self.notes.append(
                ngettext(
                    "Step %(step)d: %(player)s took one %(alien)s token (%(points)d point), "
                    "which the result form has no alien type for; enter it by hand.",
                    "Step %(step)d: %(player)s took one %(alien)s token (%(points)d points), "
                    "which the result form has no alien type for; enter it by hand.",
                    value,
                )
                % {
                    "step": snapshot.number,
                    "player": self.name(player),
                    "alien": alien_label(unit),
                    "points": value,
                }
            )
            return
        self.tokens[(player, unit, value)] += 1

    def _marine_token(
        self, snapshot: Snapshot, player: str, alien: Figure, pool: GameState
    ) -> None:
        """A marine killed an alien in its player's turn: a free token of its type, if any."""
        unit = alien.unit
        if not self._scores_token(unit):
            return
        if self._claim(unit, pool, pool):
            self._record_token(snapshot, player, unit, alien_token_value(self.rules, alien))
        elif not any(t.alien == unit for t in pool.tokens):
            self.notes.append(
                _(
                    "Step %(step)d: %(player)s killed %(figure)s, but the board holds no "
                    "%(alien)s token (no revealed blip or reinforcement of that type), so no "
                    "points are entered; if the board's tokens are incomplete, check by hand."
                )
                % {
                    "step": snapshot.number,
                    "player": self.name(player),
                    "figure": alien.id,
                    "alien": alien_label(unit),
                }
            )

    def _engine_token(
        self,
        snapshot: Snapshot,
        before: GameState,
        after: GameState,
        player: str,
        unit: str,
        value: int,
    ) -> None:
        """The Alien turn gave ``player`` a token of ``unit`` worth ``value`` (its
        ``token_taken`` step's points: a marine won a fight)."""
        if not self.seated(player) or not self._scores_token(unit):
            return
        if self._claim(unit, after, before):
            self._record_token(snapshot, player, unit, value)
            return
        self.notes.append(
            _(
                "Step %(step)d: the Alien turn gave %(player)s a %(alien)s token, but earlier "
                "kills had already taken every %(alien)s token on the board; no token is "
                "entered. Check the tokens by hand."
            )
            % {"step": snapshot.number, "player": self.name(player), "alien": alien_label(unit)}
        )

    # -- the result --------------------------------------------------------------------

    def breakdowns(self) -> tuple[SeatBreakdown, ...]:
        ids = {pid: str(seat.player_id) for pid, seat in self.seat_of.items()}
        order = [game_player_id(seat) for seat in self.seats]
        out = []
        for me in order:
            others = [other for other in order if other != me]
            kills = [
                MarineKill(ids[victim], cls, count)
                for victim in others
                for cls in CLASS_ORDER
                if (count := self.kills[(me, victim, cls)])
            ]
            losses = [
                MarineLoss(cls, LossCause.PLAYER, ids[killer], count)
                for killer in others
                for cls in CLASS_ORDER
                if (count := self.kills[(killer, me, cls)])
            ]
            losses += [
                MarineLoss(pilot, LossCause.PLAYER, ids[killer], count)
                for (killer, owner, _value, pilot), count in sorted(self.dreadnoughts.items())
                if owner == me
            ]
            losses += [
                MarineLoss(cls, cause, None, count)
                for cls in CLASS_ORDER
                for cause in (LossCause.ALIEN, LossCause.OWN_FIRE, LossCause.LEFT_ON_BOARD)
                if (count := self.losses[(me, cause, cls)])
            ]
            tarantulas = [
                TarantulaKill(ids[owner], count)
                for owner in others
                if (count := self.tarantulas[(me, owner)])
            ]
            dreadnoughts = [
                DreadnoughtKill(ids[owner], value, pilot)
                for (killer, owner, value, pilot), count in sorted(self.dreadnoughts.items())
                if killer == me
                for _ in range(count)
            ]
            tokens = [
                AlienTokens(alien_type, value, count)
                for (player, alien_type, value), count in sorted(self.tokens.items())
                if player == me
            ]
            out.append(
                SeatBreakdown(
                    seat=ids[me],
                    kills=tuple(kills),
                    losses=tuple(losses),
                    tarantulas=tuple(tarantulas),
                    dreadnoughts=tuple(dreadnoughts),
                    alien_tokens=tuple(tokens),
                )
            )
        return tuple(out)
