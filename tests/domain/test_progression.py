"""RULES §2 stages, qualifiers, seating and podium, and the whole 9-player path (§2-§9)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.dice import ScriptedDice, SeededDice
from tournaments.domain.draw import DrawPlayer, PreviousSession, squad_draw
from tournaments.domain.honours import (
    SquadStanding,
    after_session,
    card_allowance,
    thresholds_reached,
)
from tournaments.domain.initiative import roll_initiative
from tournaments.domain.progression import (
    ProgressionError,
    Qualifier,
    SeatingMode,
    best_runner_up,
    count_clashes,
    first_stage_seating,
    plan_stages,
    podium,
    seat_stage,
    select_qualifiers,
    session_sizes,
    snake,
    stage_kind,
    stages_after,
)
from tournaments.domain.ranking import SeatResult, rank_session
from tournaments.domain.scoring import (
    AlienTokens,
    LossCause,
    MarineClass,
    MarineKill,
    MarineLoss,
    SeatBreakdown,
    score_session,
)

SQUADS = ("ultramarines", "blood-angels", "imperial-fists")


def shape(players, **kwargs):
    return [(s.players, s.session_sizes, s.qualifiers) for s in plan_stages(players, **kwargs)]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (3, [(3, (3,), 0)]),
        (4, [(4, (2, 2), 3), (3, (3,), 0)]),
        (5, [(5, (3, 2), 3), (3, (3,), 0)]),
        (9, [(9, (3, 3, 3), 6), (6, (3, 3), 3), (3, (3,), 0)]),
        (10, [(10, (3, 3, 2, 2), 6), (6, (3, 3), 3), (3, (3,), 0)]),
        (12, [(12, (3, 3, 3, 3), 6), (6, (3, 3), 3), (3, (3,), 0)]),
        (18, [(18, (3,) * 6, 9), (9, (3, 3, 3), 6), (6, (3, 3), 3), (3, (3,), 0)]),
        (27, [(27, (3,) * 9, 12), (12, (3,) * 4, 6), (6, (3, 3), 3), (3, (3,), 0)]),
    ],
)
def test_plan_stages(players, expected):
    assert shape(players) == expected


def test_session_sizes_use_two_player_sessions_for_the_remainder():
    assert session_sizes(7) == (3, 2, 2)
    assert session_sizes(8) == (3, 3, 2)
    assert session_sizes(2) == (2,)


def test_organiser_overrides_a_stage_qualifier_count():
    assert shape(12, qualifier_overrides={0: 9}) == [
        (12, (3, 3, 3, 3), 9),
        (9, (3, 3, 3), 6),
        (6, (3, 3), 3),
        (3, (3,), 0),
    ]
    assert shape(9, qualifier_overrides={1: 2}) == [
        (9, (3, 3, 3), 6),
        (6, (3, 3), 2),
        (2, (2,), 0),
    ]


@pytest.mark.parametrize(
    ("players", "overrides", "message"),
    [
        (2, None, "at least 3 players"),
        (9, {0: 9}, "from 3 to 8"),
        (9, {0: 1}, "from 3 to 8"),
        (9, {2: 3}, "is the final"),
        (9, {7: 3}, "does not have"),
    ],
)
def test_bad_plans(players, overrides, message):
    with pytest.raises(ProgressionError, match=message):
        plan_stages(players, qualifier_overrides=overrides)


def test_the_stages_after_a_stage_are_the_plan_from_the_players_going_on():
    assert [(s.players, s.session_sizes, s.qualifiers) for s in stages_after(6)] == [
        (6, (3, 3), 3),
        (3, (3,), 0),
    ]
    assert [s.players for s in stages_after(12, {0: 9})] == [12, 9, 6, 3]
    assert [s.players for s in stages_after(2)] == [2]  # two players going on: a final of 2
    # An override for the final or beyond changes nothing: the plan is shown, not checked.
    assert stages_after(6, {1: 2, 5: 3}) == stages_after(6)
    with pytest.raises(ProgressionError, match="from 2 to 5"):
        stages_after(6, {0: 6})


@pytest.mark.parametrize(
    ("sizes", "qualifiers", "first", "kind"),
    [
        ((3,), 0, True, "final"),
        ((3,), 0, False, "final"),
        ((3, 3), 3, True, "preliminary"),
        ((3, 3), 3, False, "semifinal"),
        ((3, 3, 3, 3), 6, False, "intermediate"),
        ((3, 3, 2, 2), None, False, "intermediate"),
    ],
)
def test_stage_kind(sizes, qualifiers, first, kind):
    assert stage_kind(sizes, qualifiers, first=first) == kind


def ranking(*seats, kind="alien_hunt"):
    return rank_session(kind, [SeatResult(seat, points) for seat, points in seats])


def test_select_qualifiers_winners_then_best_runners_up_then_best_thirds():
    rankings = {
        "s1": ranking(("a1", 50), ("a2", 40), ("a3", 30)),
        "s2": ranking(("b1", 20), ("b2", 15), ("b3", 35)),
        "s3": ranking(("c1", 10), ("c2", 5)),
    }
    # b3 has 35 points but ranks first in s2 (by points) - fix explicit order instead:
    assert rankings["s2"].winner == "b3"
    selection = select_qualifiers(rankings, 6)
    assert selection.players == ("a1", "b3", "c1", "a2", "b1", "c2")
    selection = select_qualifiers(rankings, 5)
    assert selection.players == ("a1", "b3", "c1", "a2", "b1")
    selection = select_qualifiers(rankings, 8)
    assert selection.players[6:] == ("a3", "b2")


def test_tie_at_the_qualifying_cut_is_settled_by_a_recorded_roll_off():
    rankings = {
        "s1": ranking(("a1", 50), ("a2", 30), ("a3", 0)),
        "s2": ranking(("b1", 60), ("b2", 30), ("b3", 10)),
    }
    dice = ScriptedDice(values=[3, 4])
    selection = select_qualifiers(rankings, 3, dice)
    assert selection.players == ("b1", "a1", "b2")
    assert [(r.purpose, r.player) for r in selection.rolls] == [
        ("best runners-up: tie on 30 points", "a2"),
        ("best runners-up: tie on 30 points", "b2"),
    ]
    with pytest.raises(ProgressionError, match="roll-off is needed"):
        select_qualifiers(rankings, 3)


def test_best_runner_up_compares_runners_up_across_sessions():
    rankings = {
        "s1": ranking(("a1", 50), ("a2", 30), ("a3", 0)),
        "s2": ranking(("b1", 60), ("b2", 35), ("b3", 10)),
    }
    best, rolls = best_runner_up(rankings)
    assert best == Qualifier("b2", "s2", 2, 35) and rolls == ()


def test_snake_order_generalises_1_4_5_and_2_3_6():
    assert snake(["1", "2", "3", "4", "5", "6"], (3, 3)) == [["1", "4", "5"], ["2", "3", "6"]]
    assert snake([str(n) for n in range(1, 11)], (3, 3, 2, 2)) == [
        ["1", "8", "9"],
        ["2", "7", "10"],
        ["3", "6"],
        ["4", "5"],
    ]


def test_seeded_semifinal_seating_separates_preliminary_sessions():
    # Seeds by place then points: winners a1 (50), b1 (40), c1 (30); runners-up
    # c2 (35), a2 (20), b2 (10). Snake: [a1, c2, a2] / [b1, c1, b2] clashes twice.
    qualifiers = [
        Qualifier("a1", "A", 1, 50),
        Qualifier("a2", "A", 2, 20),
        Qualifier("b1", "B", 1, 40),
        Qualifier("b2", "B", 2, 10),
        Qualifier("c1", "C", 1, 30),
        Qualifier("c2", "C", 2, 35),
    ]
    seating = seat_stage(qualifiers, (3, 3), SeatingMode.SEEDED)
    assert seating.seeds == ("a1", "b1", "c1", "c2", "a2", "b2")
    assert seating.clashes == 0
    origin = {q.player: q.session for q in qualifiers}
    for session in seating.sessions:
        assert sorted(origin[p] for p in session) == ["A", "B", "C"]
    assert seating.sessions == (("a1", "c2", "b2"), ("b1", "c1", "a2"))


def test_seeding_ties_are_rolled_off():
    qualifiers = [
        Qualifier("x", "A", 1, 10),
        Qualifier("y", "B", 1, 10),
        Qualifier("z", "C", 1, 5),
        Qualifier("w", "A", 2, 4),
        Qualifier("v", "B", 2, 3),
    ]
    seating = seat_stage(qualifiers, (3, 2), SeatingMode.SEEDED, ScriptedDice(values=[1, 6]))
    assert seating.seeds == ("y", "x", "z", "w", "v")
    assert len(seating.rolls) == 2


@pytest.mark.parametrize("mode", list(SeatingMode))
def test_a_one_session_stage_is_seated_by_seed_without_dice(mode):
    """The final's seats decide nothing (initiative is rolled at the table): no die is asked
    for or rolled, ties stay in the order given (registration order; decision 21)."""
    qualifiers = [
        Qualifier("x", "A", 1, 10),
        Qualifier("y", "B", 1, 10),
        Qualifier("z", "C", 2, 30),
    ]
    dice = ScriptedDice(values=[])
    seating = seat_stage(qualifiers, (3,), mode, dice)
    assert seating.seeds == ("x", "y", "z")
    assert seating.sessions == (("x", "y", "z"),)
    assert seating.rolls == () and dice.log == []
    assert seat_stage(qualifiers, (3,), mode).seeds == ("x", "y", "z")  # no dice at all


def test_random_seating_uses_recorded_dice_and_avoids_clashes():
    qualifiers = [Qualifier(f"{s}{n}", s, n, 0) for s in "ABC" for n in (1, 2)]
    seating = seat_stage(qualifiers, (3, 3), "random", SeededDice(seed=7))
    assert seating.clashes == 0
    assert seating.as_dict()["clashes"] == 0
    assert len(seating.as_dict()["rolls"]) == len(seating.rolls) >= 6
    replay = seat_stage(
        qualifiers, (3, 3), "random", ScriptedDice(values=[r.value for r in seating.rolls])
    )
    assert replay == seating


def minimal_clashes(players, origin, sizes):
    """Brute force: the fewest clashes any seating into ``sizes`` can have."""
    best = None
    for perm in itertools.permutations(players):
        sessions, start = [], 0
        for size in sizes:
            sessions.append(perm[start : start + size])
            start += size
        clashes = count_clashes(sessions, origin)
        best = clashes if best is None else min(best, clashes)
    return best


@settings(max_examples=60, deadline=None)
@given(
    groups=st.lists(st.integers(0, 3), min_size=6, max_size=7),
    points=st.lists(st.integers(-20, 60), min_size=7, max_size=7, unique=True),
)
def test_seeded_seating_reaches_the_fewest_possible_clashes(groups, points):
    qualifiers = [
        Qualifier(f"p{i}", f"s{group}", 1 + i % 2, points[i]) for i, group in enumerate(groups)
    ]
    sizes = session_sizes(len(qualifiers))
    seating = seat_stage(qualifiers, sizes, SeatingMode.SEEDED)
    origin = {q.player: q.session for q in qualifiers}
    assert seating.clashes == minimal_clashes([q.player for q in qualifiers], origin, sizes)
    assert sorted(p for s in seating.sessions for p in s) == sorted(origin)


def play_stage(seating, stage_index, points_of, dice, kind="alien_hunt"):
    rankings = {}
    for number, session in enumerate(seating.sessions):
        results = [SeatResult(player, points_of(player, stage_index)) for player in session]
        rankings[f"stage{stage_index}-{number}"] = rank_session(kind, results, dice)
    return rankings


@pytest.mark.parametrize("players", [3, 4, 5, 9, 10, 12, 18, 27])
def test_whole_path_to_a_final(players):
    dice = SeededDice(seed=players)
    entrants = [f"p{n:02d}" for n in range(players)]
    plans = plan_stages(players)
    seating = first_stage_seating(entrants, dice, plans[0].session_sizes)
    remaining = set(entrants)
    for plan in plans:
        assert sorted(len(s) for s in seating.sessions) == sorted(plan.session_sizes)
        seated = {p for s in seating.sessions for p in s}
        assert seated == remaining
        rankings = play_stage(seating, plan.index, lambda p, s: (int(p[1:]) * 7 + s) % 40, dice)
        if plan.is_final:
            places = podium(next(iter(rankings.values())))
            assert [place.position for place in places] == [1, 2, 3]
            break
        selection = select_qualifiers(rankings, plan.qualifiers, dice)
        assert len(selection.qualifiers) == plan.qualifiers
        winners = {r.winner for r in rankings.values()}
        assert winners <= set(selection.players)
        following = plans[plan.index + 1]
        seating = seat_stage(selection.qualifiers, following.session_sizes, "seeded", dice)
        if len(following.session_sizes) > 1 and max(
            list(q.session for q in selection.qualifiers).count(s) for s in rankings
        ) <= len(following.session_sizes):
            assert seating.clashes == 0
        remaining = set(selection.players)


def test_nine_player_tournament_from_registration_to_podium():
    """Registration -> 3 preliminaries -> 2 semifinals -> final -> podium, at service level."""
    dice = SeededDice(seed=2026)
    players = [f"p{n}" for n in range(1, 10)]
    preferences = {p: tuple(SQUADS[(n + k) % 3] for k in range(3)) for n, p in enumerate(players)}
    standings = {p: SquadStanding() for p in players}
    previous: dict[str, PreviousSession] = {}
    bonus = {p: 0 for p in players}
    thresholds = (30, 60)
    plans = plan_stages(9)
    assert [p.session_sizes for p in plans] == [(3, 3, 3), (3, 3), (3,)]

    def play(session, stage):
        draw_players = [DrawPlayer(p, preferences[p], previous.get(p)) for p in session]
        draw = squad_draw(SQUADS, draw_players, dice)
        assert len(set(draw.assignments.values())) == len(session)
        for p in session:  # a displaced player's rank follows the player
            assert draw.ranks.get(p, 0) == standings[p].rank
        order = roll_initiative(session, dice).order
        assert sorted(order) == sorted(session)
        for p in session:
            allowance = card_allowance(standings[p].rank, bonus[p])
            assert allowance.orders == 1 + standings[p].rank
        # Scripted results: the first seat kills a heavy marine of the second; everybody
        # collects tokens worth more for later seats (by player number and stage).
        first, second = session[0], session[1]
        breakdowns = []
        for p in session:
            kills = (MarineKill(second, MarineClass.HEAVY),) if p == first else ()
            losses = (
                (MarineLoss(MarineClass.HEAVY, LossCause.PLAYER, first),) if p == second else ()
            )
            tokens = (AlienTokens("ork", 5, count=1 + (int(p[1:]) * 3 + stage) % 11),)
            breakdowns.append(SeatBreakdown(p, kills=kills, losses=losses, alien_tokens=tokens))
        cards = score_session(breakdowns)
        assert all(not card.problems for card in cards.values())
        result = rank_session("alien_hunt", [SeatResult(p, cards[p].total) for p in session], dice)
        for ranked in result.order:
            p = ranked.seat
            won = ranked.position == 1
            standings[p] = after_session(standings[p], won)
            bonus[p] = thresholds_reached(ranked.points, thresholds)
            previous[p] = PreviousSession(
                draw.assignments[p], won, ranked.points, standings[p].rank
            )
        return result

    seating = first_stage_seating(players)  # registration order
    assert seating.sessions == (("p1", "p2", "p3"), ("p4", "p5", "p6"), ("p7", "p8", "p9"))
    prelims = {f"prelim{n}": play(s, 0) for n, s in enumerate(seating.sessions)}
    six = select_qualifiers(prelims, plans[0].qualifiers, dice)
    for name, result in prelims.items():  # top 2 of each preliminary
        assert {q.player for q in six.qualifiers if q.session == name} == {
            result.order[0].seat,
            result.order[1].seat,
        }

    semis_seating = seat_stage(six.qualifiers, plans[1].session_sizes, "seeded", dice)
    assert semis_seating.clashes == 0
    origin = {q.player: q.session for q in six.qualifiers}
    for session in semis_seating.sessions:
        assert len({origin[p] for p in session}) == 3
    semis = {f"semi{n}": play(s, 1) for n, s in enumerate(semis_seating.sessions)}
    three = select_qualifiers(semis, plans[1].qualifiers, dice)
    best, _ = best_runner_up(semis, dice)
    assert set(three.players) == {r.winner for r in semis.values()} | {best.player}

    final_seating = seat_stage(three.qualifiers, plans[2].session_sizes, "seeded", dice)
    final = play(final_seating.sessions[0], 2)
    places = podium(final)
    assert [place.player for place in places] == [seat.seat for seat in final.order]
    assert standings[places[0].player].honours >= 1
    # Every recorded die has a purpose.
    assert all(roll.purpose for roll in dice.log)


def test_tie_message_names_the_group_in_the_readers_language(monkeypatch):
    """The purpose stored with the dice stays English (data); messages use the translated
    group name (tests/tournaments/test_roll_purposes.py shows the dice log's label)."""
    from django.utils import translation

    from tests.i18n_support import add_translations

    add_translations(monkeypatch, "it", {"best runners-up": "migliori secondi"})
    rankings = {
        "s1": ranking(("a1", 50), ("a2", 30), ("a3", 0)),
        "s2": ranking(("b1", 60), ("b2", 30), ("b3", 10)),
    }
    with translation.override("it"):
        with pytest.raises(ProgressionError) as caught:
            best_runner_up(rankings)
        assert "migliori secondi" in str(caught.value)
        assert "runners-up" not in str(caught.value)
        best, rolls = best_runner_up(rankings, ScriptedDice(values=[4, 4, 2, 5]))
        assert best.player == "b2"
        assert rolls[-1].purpose == "best runners-up: tie on 30 points (re-roll 1)"
    assert rolls[0].purpose == "best runners-up: tie on 30 points"
