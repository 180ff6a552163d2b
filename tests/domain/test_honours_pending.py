"""The standings a confirmed result promises before the stage closes (RULES §9)."""

from tournaments.domain.honours import ELITE_SQUAD, VETERAN_SQUAD, SquadStanding
from tournaments.domain.honours import standings_after_wins as after_wins


def test_a_first_win_promises_an_honour_and_the_elite_rank():
    assert after_wins({}, ["7"]) == {"7": SquadStanding(rank=ELITE_SQUAD, honours=1)}


def test_two_wins_in_a_stage_count_twice_and_the_rank_stops_at_veteran():
    current = {"7": SquadStanding(rank=ELITE_SQUAD, honours=1)}
    after = after_wins(current, ["7", "8", "7"])
    assert after["7"] == SquadStanding(rank=VETERAN_SQUAD, honours=3)
    assert after["8"] == SquadStanding(rank=ELITE_SQUAD, honours=1)


def test_players_who_won_nothing_are_not_listed():
    current = {"9": SquadStanding(rank=VETERAN_SQUAD, honours=2)}
    assert after_wins(current, []) == {}
