"""Alien assessments kept between the activations of one turn, reused only when provably
unchanged.

RULES §11 asks for the aliens of the acting type to be ordered again on the current state
before each activation. Between two activations usually one alien moved (two squares
changed) and perhaps a door opened or a marine fell, so most assessments would come out
the same. An assessment is reused only if everything it was computed from is unchanged:

* the alien itself and its movement allowance;
* its distances (the same :func:`reach.field_layout_key`: board, squares it may not pass,
  blips, doors it may pass or open; fighting across a door depends on the same);
* no door a firing line it traced depends on opened or closed;
* the marine-side figures (which figures are targets, where they stand);
* no changed square is one it could stop on this turn, one it read for a firing line, or
  a square next to a target that is at most as far as its current distance to that
  target's player (only such a square can change that distance).

Anything else recomputes it, so the choice is exactly the one a fresh assessment gives.
When only where it may stop (or the squares next to targets) changed, the fresh
assessment keeps the firing answers no changed stop could alter (``_shots_still_true``).
A Dreadnought (its stops depend on 2x2 blocks) is always assessed afresh.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine.ai.focus import PlayerReach
from rules.engine.ai.reach import (
    Assessment,
    assess_focus,
    attack_indices,
    field_layout_key,
)
from rules.engine.geometry import Square
from rules.engine.los import door_blockers, layout_line
from rules.engine.state import ALIEN, Figure, GameState
from rules.engine.units import RulesData


@dataclass
class _Entry:
    state: GameState
    figure: Figure
    allowance: int
    assessment: Assessment


def _marine_side(state: GameState) -> tuple:
    """The marine-side figures as far as targets go (life points do not matter)."""
    return tuple(
        (f.id, f.player, f.unit, f.squares, f.piloting) for f in state.figures if f.side != ALIEN
    )


def _changed_squares(old: GameState, new: GameState) -> set[int]:
    """Board indices whose occupant may differ between the two states (every square of a
    figure that moved, changed, appeared or left)."""
    w = new.board.width
    out: set[int] = set()
    before_all, after_all = old.figures, new.figures
    if len(before_all) == len(after_all):
        # Usually the same figures in the same order, some replaced: compare in step.
        for before, f in zip(before_all, after_all, strict=True):
            if before is f:
                continue
            if before.id != f.id:
                out.clear()
                break
            out.update(sq[0] + sq[1] * w for sq in f.squares)
            out.update(sq[0] + sq[1] * w for sq in before.squares)
        else:
            return out
    for f in new.figures:
        previous = old.figure(f.id) if old.has_figure(f.id) else None
        if previous is f:
            continue
        out.update(sq[0] + sq[1] * w for sq in f.squares)
        if previous is not None:
            out.update(sq[0] + sq[1] * w for sq in previous.squares)
    for f in old.figures:
        if not new.has_figure(f.id):
            out.update(sq[0] + sq[1] * w for sq in f.squares)
    return out


def _changed_doors(old: GameState, new: GameState) -> list[int]:
    """Slots of the doors whose sight blocking differs between the two states."""
    before, after = door_blockers(old), door_blockers(new)
    return [slot for slot, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]


@dataclass
class _Diff:
    """What changed between the state an assessment was made on and the current one."""

    same_layout: bool  # same squares aliens may not pass, blips, doors passable or openable
    same_marines: bool
    doors: list[int]  # door slots whose sight blocking changed
    squares: set[int]  # squares whose occupant may have changed


def _diff(old: GameState, new: GameState) -> _Diff:
    if old.memo.marine_side() is new.memo.marine_side():
        # Their marine-side memo is shared (an alien moved): its layout and marine side
        # are the same objects for both, so equal.
        same_layout = same_marines = True
    else:
        # Any alien's field_layout_key holds the state's shared layout after its squares.
        probe = new.figures[0] if new.figures else None
        same_layout = (
            probe is None or field_layout_key(old, probe)[2] == field_layout_key(new, probe)[2]
        )
        same_marines = _marine_side(old) == _marine_side(new)
    if not same_layout or not same_marines:
        # Nothing is reused then, so the doors and squares are never read.
        return _Diff(same_layout, same_marines, [], set())
    return _Diff(
        same_layout,
        same_marines,
        _changed_doors(old, new) if old.door_open_slots != new.door_open_slots else [],
        _changed_squares(old, new),
    )


def _same_sight(entry: _Entry, figure: Figure, allowance: int, diff: _Diff) -> bool:
    """The alien, its allowance and distances, the marine side, and every door and figure
    its firing lines read are unchanged (where it may stop may not be)."""
    if entry.allowance != allowance:
        return False
    # Usually the very same figure: no field-by-field comparison then.
    if entry.figure is not figure and entry.figure != figure:
        return False
    if not diff.same_layout or not diff.same_marines:
        return False
    reach = entry.assessment.reach
    door_reads = reach.door_reads or set()
    if any(slot in door_reads for slot in diff.doors):
        return False
    return diff.squares.isdisjoint(reach.reads if reach.reads is not None else ())


def _unchanged(
    entry: _Entry, state: GameState, figure: Figure, allowance: int, diff: _Diff
) -> bool:
    if not _same_sight(entry, figure, allowance, diff):
        return False
    dist = entry.assessment.reach.distances.dist
    reaches: list[PlayerReach] = entry.assessment.reaches
    for c in diff.squares:
        d = dist[c]
        if d <= allowance:
            return False
        for r in reaches:
            if d <= r.distance and c in attack_indices(state, r.player):
                return False
    return True


def _shots_still_true(entry: _Entry, state: GameState, diff: _Diff) -> dict:
    """The firing answers of ``entry`` (``_same_sight`` holds) that are still true on
    ``state``: a changed square it may stop on now or could before is never scanned for a
    target that no line from there could reach past walls and solid squares (the scan
    skips such stops), so for such a target the same stops are scanned with the same
    lines and find the same answer."""
    reach = entry.assessment.reach
    dist = reach.distances.dist
    at = state.board.square_at
    stops = [at[c] for c in diff.squares if dist[c] <= entry.allowance]
    return {
        target_id: answer
        for target_id, answer in reach._shoot_cache.items()
        if not any(_open_line(state, a, state.figure(target_id)) for a in stops)
    }


def _open_line(state: GameState, a: Square, target: Figure) -> bool:
    """Walls and solid squares leave a line from ``a`` to one of the target's squares."""
    return any(not layout_line(state, a, b).blocked for b in target.squares)


class ReadinessMemo:
    """Assessments of the aliens still to act in one turn (see the module docstring)."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}
        self._now: GameState | None = None
        self._diffs: dict[int, tuple[GameState, _Diff]] = {}

    def _diff_to(self, old: GameState, state: GameState) -> _Diff:
        """The changes from ``old`` to ``state``, worked out once per pair of states."""
        if self._now is not state:
            self._now, self._diffs = state, {}
        kept = self._diffs.get(id(old))
        if kept is None or kept[0] is not old:
            kept = self._diffs[id(old)] = (old, _diff(old, state))
        return kept[1]

    def assess(
        self, state: GameState, figure: Figure, rules: RulesData, allowance: int
    ) -> Assessment:
        """The alien's assessment on ``state``: reused when provably unchanged, else fresh."""
        entry = self._entries.get(figure.id)
        if (
            entry is not None
            and not figure.is_dreadnought
            and (
                entry.state is state
                or _unchanged(entry, state, figure, allowance, self._diff_to(entry.state, state))
            )
        ):
            return _on_state(entry.assessment, state, figure)
        # The state is immutable, so an assessment made on it earlier (another turn
        # resolved from the same position) is kept in its memo and still holds.
        memo = state.memo
        kept_assessments = memo.assessments
        if kept_assessments is None:
            kept_assessments = memo.assessments = {}
        key = (figure.id, allowance)
        kept = kept_assessments.get(key)
        if kept is not None and kept[0] is rules and kept[1] == figure:
            assessment = kept[2]
        else:
            # Only where it may stop (or how far the targets are) changed: the firing
            # answers it found still hold, except for targets a changed stop could see.
            shots = None
            kept_from = None
            if entry is not None and not figure.is_dreadnought:
                diff = self._diff_to(entry.state, state)
                if _same_sight(entry, figure, allowance, diff):
                    shots = _shots_still_true(entry, state, diff)
                    kept_from = entry.assessment.reach
            assessment = assess_focus(
                state,
                figure,
                rules,
                allowance,
                record=not figure.is_dreadnought,
                known_shots=shots,
            )
            fresh = assessment.reach
            if shots and kept_from is not None:
                # Both recorded what they read (never a Dreadnought here): sets, not None.
                if fresh.reads is not None and kept_from.reads is not None:
                    fresh.reads.update(kept_from.reads)
                if fresh.door_reads is not None and kept_from.door_reads is not None:
                    fresh.door_reads.update(kept_from.door_reads)
            kept_assessments[key] = (rules, figure, assessment)
        self._entries[figure.id] = _Entry(state, figure, allowance, assessment)
        return assessment


def _on_state(assessment: Assessment, state: GameState, figure: Figure) -> Assessment:
    """A copy of an unchanged assessment whose stop table is the current state's (the
    alien's distances, stops and sight answers are the same)."""
    return Assessment(
        assessment.reach.on_state(state),
        assessment.reaches,
        assessment.focus,
        assessment.criterion,
        assessment.activation_type,
        assessment.ready,
    )
