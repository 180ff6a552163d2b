"""Whole games played on the judge's board, from setup to the proposed result and the
confirmed result (issue 13): one per stipulation, under the BoB and the Solitaire policy.

The games are played with the board's own actions (:mod:`demo.board_play`) and seeded
dice. What the result form is filled with is checked against what the engine itself
counted while the game was played: every seat's total (each kill, loss, token, flag and
stall-breaker round as a line) equals the score the engine kept for that player; the
flags, stall-breaker rounds and tokens are the engine's records; the end and the winner
are the engine's outcome, and the confirmed result ranks the same winner first.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from demo.board_play import BoardPlayer
from rules.engine.state import GameState
from rules.engine.turns import players_in_game
from table.actions import create_game, latest_snapshot
from table.game_setup import SolitaireSetup
from table.models import Game
from table.result_from_game import GameProposal, current_line, propose_result
from table.seating import game_player_id
from tests.table.conftest import client_for
from tests.web.test_result_form import page_data
from tournaments.domain.plausibility import check_result
from tournaments.domain.scoring import ScoreCard, score_session
from tournaments.models import Loadout, Result, StipulationKind
from tournaments.queries.session_stipulation import result_limits
from tournaments.sheets.seats import session_seats

pytestmark = pytest.mark.django_db

STALL = {"from_round": 2, "points": 5, "growth": 1, "max_extra_rounds": 2}
#: stipulation, its parameters, the map, and how the seeded game ends under each policy.
CASES = {
    "alien_hunt": (
        StipulationKind.ALIEN_HUNT,
        {"rounds": 3, "event_deck": True},
        "hunt-derelict",
        "rounds_played",
    ),
    "catch_the_flag": (
        StipulationKind.CATCH_THE_FLAG,
        {"flag_value": 30, "rounds": 8},
        "flag-relay",
        "rounds_played",
    ),
    "tpk": (StipulationKind.TPK, {"stall_breaker": STALL}, "tpk-ring", "stall_limit"),
    "extended_tpk": (
        StipulationKind.EXTENDED_TPK,
        {"stall_breaker": {**STALL, "from_round": 3}},
        "tpk-ring",
        "stall_limit",
    ),
}
POLICIES = ("bob", "solitaire")


def played(
    table,
    case: str,
    policy: str,
    seed: int = 1,
    params: dict | None = None,
    tokens: dict[str, int] | None = None,
) -> tuple[Game, GameState]:
    """The session set for ``case`` (with ``params`` for the case's own), its game created
    with ``policy`` (Solitaire: blip ``tokens`` of each type, by default Orks and Gretchin)
    and played to the end with the dice numbered from ``seed``."""
    kind, case_params, map_name, _end = CASES[case]
    params = case_params if params is None else params
    table.stage.stipulation_kind = kind
    table.stage.stipulation_params = params
    table.stage.map_name = map_name
    table.stage.save()
    if kind == StipulationKind.EXTENDED_TPK:
        for seat in table.session.seats.all():
            Loadout.objects.update_or_create(
                seat=seat,
                defaults={
                    "commander_combo": "bolter",
                    "marine_weapons": ["laser-rifle", "plasma-gun", "laser-rifle", "bolter"],
                    "extra_marine_weapons": ["lascannon", "melta"],
                },
            )
    solitaire = (
        SolitaireSetup(tokens or {"ork": 3, "gretchin": 3}) if policy == "solitaire" else None
    )
    game = create_game(table.session, map_name, policy, solitaire=solitaire, actor=table.judge)
    end = BoardPlayer(game, seed=seed, actor=table.judge).play(20)
    return game, end


#: The engine's score steps and the score line each is counted in.
SCORE_STEPS = {
    "score_lost": "marine_lost",
    "score_left_behind": "marine_lost",
    "token_taken": "alien_tokens",
    "stall_round": "stall_breaker",
    "flag_scored": "objective",
}


def engine_ledger(game: Game) -> dict[tuple[str, str], int]:
    """What the engine scored along the game's line, by (player, score line code): each
    score step of every snapshot (undone ones left out), a marine killed by a player told
    apart from a Tarantula destroyed by what the target was."""
    ledger: Counter[tuple[str, str]] = Counter()
    for snapshot in current_line(game.snapshots.all()):
        for step in snapshot.steps or ():
            params = step.get("params") or {}
            code = step.get("code")
            if code == "score_gained":
                target = str(params.get("target", ""))
                line = "tarantula_destroyed" if "tarantula" in target else "marine_killed"
                ledger[(params["player"], line)] += params["points"]
            elif code in SCORE_STEPS:
                sign = -1 if code in ("score_lost", "score_left_behind") else 1
                ledger[(params["player"], SCORE_STEPS[code])] += sign * params["points"]
    return {key: points for key, points in ledger.items() if points}


def card_ledger(cards: dict[str, ScoreCard], seats) -> dict[tuple[str, str], int]:
    ledger: Counter[tuple[str, str]] = Counter()
    for seat in seats:
        for line in cards[str(seat.player_id)].lines:
            ledger[(game_player_id(seat), line.code)] += line.points
    return {key: points for key, points in ledger.items() if points}


def cards_of(proposal: GameProposal) -> dict[str, ScoreCard]:
    return score_session(proposal.breakdowns)


def lines(card: ScoreCard, code: str) -> list[int]:
    return [line.points for line in card.lines if line.code == code]


def proposed_as_scored(game: Game, end: GameState, seats) -> GameProposal:
    """The game's proposal, checked against what the engine itself counted: its end and
    winners, nothing left for the judge to count by hand, every seat's total and each kind
    of score line."""
    by_player = {game_player_id(seat): str(seat.player_id) for seat in seats}
    proposal = propose_result(game, seats)
    # The end and the winner: the engine's outcome, told in the seats' terms.
    assert end.outcome is not None and proposal.end is not None
    assert (proposal.end.reason, proposal.end.round) == (end.outcome.reason, end.outcome.round)
    assert [str(w) for w in proposal.end.winners] == [by_player[p] for p in end.outcome.winners]
    assert proposal.step == latest_snapshot(game).number
    # Nothing for the judge to count by hand.
    assert proposal.notes == ()
    cards = cards_of(proposal)
    # Every line adds up to the score the engine kept while the game was played.
    for player in end.players:
        assert cards[by_player[player.id]].total == player.score, player.id
    # Line by line: each kind of score line holds what the engine scored of that kind.
    assert card_ledger(cards, seats) == engine_ledger(game)
    # And the result's checks accept it: whatever a game ends with could have happened.
    session = seats[0].session
    survivors = [str(seat) for seat in proposal.survivors]
    limits = result_limits(session)
    assert check_result(proposal.breakdowns, survivors, limits, both_sides=True) == []
    return proposal


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", list(CASES))
def test_a_whole_game_proposes_every_score_line(table, case, policy):
    game, end = played(table, case, policy)
    kind, params, _map, ending = CASES[case]
    seats = session_seats(table.session)
    proposal = proposed_as_scored(game, end, seats)
    assert end.outcome is not None and end.outcome.reason == ending
    cards = cards_of(proposal)
    all_lines = [line for card in cards.values() for line in card.lines]
    assert any(line.code == "marine_killed" for line in all_lines)
    assert any(line.code == "marine_lost" for line in all_lines)
    # Stall-breaker rounds: the engine's records, one row per squad and round.
    for player, breakdown in zip(seats, proposal.breakdowns, strict=True):
        pid = game_player_id(player)
        rows = [(row.round, row.points) for row in breakdown.stall_breaker]
        assert rows == [(r.round, r.points[pid]) for r in end.progress.stall if pid in r.points]
    if "stall_breaker" in params:
        assert any(lines(card, "stall_breaker") for card in cards.values())
    # Flags brought home: the stipulation's flag value each.
    flags = [points for card in cards.values() for points in lines(card, "objective")]
    if kind == StipulationKind.CATCH_THE_FLAG:
        assert flags and set(flags) == {params["flag_value"]}
    else:
        assert not flags
    # Tokens at the catalogue's values.
    aliens = result_limits(table.session).aliens
    for breakdown in proposal.breakdowns:
        for token in breakdown.alien_tokens:
            assert token.value == aliens.default_value(token.alien_type)
    if case == "alien_hunt":
        assert end.progress.events_drawn  # the event deck was played
        assert any(breakdown.alien_tokens for breakdown in proposal.breakdowns)
    # Survivors: in a TPK the squads the engine still counts in play.
    if kind in (StipulationKind.TPK, StipulationKind.EXTENDED_TPK):
        by_player = {game_player_id(seat): str(seat.player_id) for seat in seats}
        standing = {by_player[p] for p in players_in_game(end)}
        assert {str(s) for s in proposal.survivors} == standing


@pytest.mark.parametrize("seed", [2, 7])
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", list(CASES))
def test_whatever_the_dice_the_proposal_holds_what_the_engine_scored(table, case, policy, seed):
    """Other dice, other games: with seeds 2 and 7 a Solitaire alien hunt has a blip
    revealed and killed in one Alien turn, whose token the proposal used to leave out (in
    10 of 38 seeds tried), 2 points short of the engine's score with no note to say so."""
    game, end = played(table, case, policy, seed)
    proposed_as_scored(game, end, session_seats(table.session))


@pytest.mark.parametrize("case", ["alien_hunt", "tpk"])
def test_confirming_the_proposal_writes_the_result_linked_to_the_game(table, case):
    game, end = played(table, case, "bob")
    judge = client_for(table.judge)
    page = judge.get(reverse("table:result_from_game", args=[table.session.pk, game.number]))
    body = page.content.decode()
    assert 'data-testid="from-game-end"' in body and "The game is over" in body
    step = latest_snapshot(game).number
    # The page posts which game and step it was filled from.
    assert f'name="from_game" value="{game.number}"' in body
    assert f'name="from_step" value="{step}"' in body
    data = page_data(page.context["form"])
    saved = judge.post(reverse("tournaments:judge_result", args=[table.session.pk]), data)
    assert saved.status_code == 302, saved.content.decode()[:3000]
    version = Result.objects.get(session=table.session).latest_version()
    assert version is not None and version.confirmed
    assert (version.game_number, version.game_step) == (game.number, latest_snapshot(game).number)
    seats = {game_player_id(seat): seat.player_id for seat in session_seats(table.session)}
    assert version.ranking[0] in {seats[p] for p in end.outcome.winners}
    # The session's pages say where the result came from, with a link to the game.
    sheet = judge.get(reverse("tournaments:judge_session", args=[table.session.pk]))
    board = reverse("table:board", args=[table.session.pk, game.number])
    assert f'href="{board}"' in sheet.content.decode()
    assert "From the board: game 1, step" in sheet.content.decode()


def test_a_marines_turn_that_ends_the_game_is_the_last_thing_played(table):
    """In an Extended TPK with aliens a marine's attack can leave one squad standing: the
    game is over there, in the middle of the turn, and the demo's player stops (the board
    refuses to end a turn of a game that is over, as it refuses any other step)."""
    params = {**CASES["extended_tpk"][1], "aliens": True}
    mix = {"android": 2, "chaos_marine": 2, "genestealer": 2}
    game, end = played(table, "extended_tpk", "solitaire", seed=11, params=params, tokens=mix)
    assert end.outcome is not None and end.outcome.reason == "last_squad"
    assert not end.turn.aliens_phase  # it ended in a marine's turn
    proposed_as_scored(game, end, session_seats(table.session))


def test_a_game_in_progress_proposes_the_result_so_far(table):
    kind, params, map_name, _end = CASES["alien_hunt"]
    table.stage.stipulation_params = {"rounds": 8, "event_deck": True}
    table.stage.save()
    game = create_game(table.session, map_name, "bob", actor=table.judge)
    state = BoardPlayer(game, seed=1).play(1)
    assert state.outcome is None
    proposal = propose_result(game, session_seats(table.session))
    assert proposal.end is None
    page = client_for(table.judge).get(
        reverse("table:result_from_game", args=[table.session.pk, game.number])
    )
    assert "The game is not over yet" in page.content.decode()


def test_token_values_come_from_the_tournaments_catalogue(table):
    game, end = played(table, "alien_hunt", "bob")
    taken = {
        t.alien_type
        for b in propose_result(game, session_seats(table.session)).breakdowns
        for t in b.alien_tokens
    }
    assert taken
    # The organiser changes the catalogue after the game: the proposal follows it.
    table.tournament.data_overrides = {"alien_tokens": dict.fromkeys(taken, 7)}
    table.tournament.save()
    game = Game.objects.get(pk=game.pk)  # as the next page reads it
    proposal = propose_result(game, session_seats(table.session))
    values = {t.value for b in proposal.breakdowns for t in b.alien_tokens}
    assert values == {7}
