"""The scheduling rules: which placements clash, the tournament's dates, a stage's plan."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.domain.clash_rules import (
    Clash,
    ClashKind,
    Placement,
    PlanError,
    clashes,
    outside_dates,
    plan_clashes,
    plan_stage,
    share_judges,
)

NINE = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def at(session_id, hours=0.0, *, minutes=180, table=None, judge=None, players=()):
    return Placement(
        session_id=session_id,
        starts_at=NINE + timedelta(hours=hours),
        minutes=minutes,
        table_id=table,
        judge_id=judge,
        player_ids=frozenset(players),
    )


def kinds(found):
    return [(clash.kind, clash.other_session_id) for clash in found]


def test_the_same_table_at_overlapping_times_clashes():
    assert kinds(clashes(at(1, table=5), [at(2, 2.5, table=5)])) == [(ClashKind.TABLE, 2)]


def test_back_to_back_sessions_at_one_table_do_not_clash():
    assert clashes(at(1, table=5), [at(2, 3, table=5)]) == []


def test_a_judge_in_two_places_at_once_clashes():
    assert kinds(clashes(at(1, table=1, judge=7), [at(2, 1, table=2, judge=7)])) == [
        (ClashKind.JUDGE, 2)
    ]


def test_a_player_in_two_sessions_at_once_clashes_and_says_who():
    found = clashes(at(1, players=[10, 11, 12]), [at(2, 1, players=[12, 13, 14])])
    assert found == [Clash(ClashKind.PLAYER, 1, 2, frozenset({12}))]


def test_no_table_and_no_judge_never_clash_with_each_other():
    assert clashes(at(1), [at(2)]) == []


def test_the_session_itself_is_not_a_clash_when_it_moves():
    assert clashes(at(1, 1, table=5, judge=7, players=[1]), [at(1, table=5, judge=7)]) == []


def test_dates_outside_the_tournament_are_flagged():
    before = at(1, -24 * 400)  # a year and more before
    assert kinds(clashes(before, [], starts_on=date(2026, 6, 1), ends_on=date(2026, 6, 2))) == [
        (ClashKind.OUTSIDE_DATES, None)
    ]
    inside = at(1)
    assert not outside_dates(inside, date(2026, 6, 1), date(2026, 6, 1))
    late = at(1, 22)  # ends the next day
    assert outside_dates(late, date(2026, 6, 1), date(2026, 6, 1))
    assert not outside_dates(late, None, None)


def test_one_placement_can_clash_three_ways_with_one_session():
    found = clashes(
        at(1, table=1, judge=2, players=[3]), [at(2, 0.5, table=1, judge=2, players=[3])]
    )
    assert [clash.kind for clash in found] == [ClashKind.TABLE, ClashKind.JUDGE, ClashKind.PLAYER]


def test_a_plan_reports_each_pair_once_and_checks_the_sessions_outside_it():
    plan = [at(1, table=1), at(2, table=1)]
    elsewhere = [at(3, 1, table=1), at(1, 10, table=9)]  # session 1's old place is replaced
    assert kinds(plan_clashes(plan, elsewhere)) == [
        (ClashKind.TABLE, 2),
        (ClashKind.TABLE, 3),
        (ClashKind.TABLE, 3),
    ]


def test_plan_stage_fills_the_tables_round_by_round():
    plan = plan_stage([11, 12, 13, 14, 15], start=NINE, minutes=200, table_ids=[1, 2])
    assert plan == [
        (11, NINE, 1),
        (12, NINE, 2),
        (13, NINE + timedelta(minutes=200), 1),
        (14, NINE + timedelta(minutes=200), 2),
        (15, NINE + timedelta(minutes=400), 1),
    ]


def test_plan_stage_refuses_no_table_and_no_time():
    with pytest.raises(PlanError, match="table"):
        plan_stage([1], start=NINE, minutes=60, table_ids=[])
    with pytest.raises(PlanError, match="minute"):
        plan_stage([1], start=NINE, minutes=0, table_ids=[1])


@given(
    sessions=st.integers(min_value=0, max_value=30),
    tables=st.integers(min_value=1, max_value=8),
    minutes=st.integers(min_value=1, max_value=600),
)
def test_a_planned_stage_never_double_books_a_table(sessions, tables, minutes):
    plan = plan_stage(
        list(range(sessions)), start=NINE, minutes=minutes, table_ids=list(range(tables))
    )
    placements = [Placement(pk, when, minutes, table) for pk, when, table in plan]
    assert plan_clashes(placements, []) == []
    assert sorted(pk for pk, _when, _table in plan) == list(range(sessions))


def test_judges_are_shared_out_evenly_never_at_overlapping_times():
    plan = [at(1, 0), at(2, 0), at(3, 0), at(4, 3), at(5, 3), at(6, 3)]
    assert share_judges(plan, [7, 8, 9]) == {1: 7, 2: 8, 3: 9, 4: 7, 5: 8, 6: 9}
    # Two judges for rounds of three: the third session of each round has nobody free.
    assert share_judges(plan, [7, 8]) == {1: 7, 2: 8, 3: None, 4: 7, 5: 8, 6: None}
    # Rounds closer than a session lasts overlap: a judge waits for their session to end.
    close = [at(1, 0), at(2, 1), at(3, 2), at(4, 3)]
    assert share_judges(close, [7, 8, 9]) == {1: 7, 2: 8, 3: 9, 4: 7}
    assert share_judges(close, []) == dict.fromkeys([1, 2, 3, 4])


def test_a_judge_busy_elsewhere_or_playing_is_passed_over():
    plan = [at(1, 0, players=[101, 102]), at(2, 0, players=[103, 104])]
    elsewhere = [at(9, 1, judge=7)]  # another stage's session, overlapping
    assert share_judges(plan, [7, 8], elsewhere) == {1: 8, 2: None}
    later = [at(9, 3, judge=7)]  # starts when the plan's sessions end
    assert share_judges(plan, [7, 8], later) == {1: 7, 2: 8}
    # Judge 7's account plays in session 1: not its judge, nor free for session 2 then.
    assert share_judges(plan, [7, 8], plays={7: frozenset({102})}) == {1: 8, 2: None}
    rounds = [plan[0], at(2, 3, players=[103, 104])]
    assert share_judges(rounds, [7, 8], plays={7: frozenset({102})}) == {1: 8, 2: 7}
    # ... and a judge who plays at that time elsewhere judges nothing then.
    playing = [at(9, 1, players=[200])]
    assert share_judges(plan, [7, 8], playing, {7: frozenset({200})}) == {1: 8, 2: None}


@given(
    sessions=st.integers(min_value=0, max_value=20),
    tables=st.integers(min_value=1, max_value=6),
    judges=st.integers(min_value=0, max_value=6),
    minutes=st.integers(min_value=30, max_value=400),
)
def test_shared_judges_never_clash(sessions, tables, judges, minutes):
    plan = plan_stage(
        list(range(sessions)), start=NINE, minutes=minutes, table_ids=list(range(tables))
    )
    placements = [Placement(pk, when, 180, table) for pk, when, table in plan]
    chosen = share_judges(placements, list(range(100, 100 + judges)))
    judged = [replace(p, judge_id=chosen[p.session_id]) for p in placements]
    assert [c for c in plan_clashes(judged, []) if c.kind == ClashKind.JUDGE] == []
    if judges >= tables * -(-180 // minutes):  # enough judges for every overlapping round
        assert None not in chosen.values()
