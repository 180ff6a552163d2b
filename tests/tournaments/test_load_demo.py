"""The demo: stopped in the semifinals, idempotent, rebuildable."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core import mail
from django.core.management import call_command

from tournaments.actions.result_entry import record_result
from tournaments.models import (
    Loadout,
    Player,
    ResultVersion,
    Seat,
    Session,
    StageStatus,
    Tournament,
)
from tournaments.queries.loadout_checks import loadout_problems
from tournaments.queries.result_versions import score_version
from tournaments.queries.session_stipulation import result_limits
from tournaments.queries.stage_cut import missing_results

pytestmark = pytest.mark.django_db


def load(*args: str) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def test_demo_is_stopped_in_the_middle_of_the_semifinals():
    output = load()
    tournament = Tournament.objects.get(slug="bob-demo")
    prelims, semis, final = tournament.stages.order_by("number")
    assert prelims.status == StageStatus.CLOSED and len(prelims.qualifiers) == 6
    assert all(s.result.latest_confirmed() for s in prelims.sessions.all())
    one, two = semis.sessions.order_by("number")
    assert one.result.latest_confirmed() is not None
    assert two.scheduled_at is not None and not hasattr(two, "result")
    assert missing_results(semis) == [two]
    assert not final.sessions.exists()
    assert tournament.organisers.filter(username="organiser").exists()
    assert tournament.judges.count() == 2
    assert authenticate(username="organiser", password="organiser-demo") is not None
    assert authenticate(username="judge2", password="judge2-demo") is not None
    assert "DEMO ONLY" in output and "organiser / organiser-demo" in output
    assert authenticate(username="player1", password="player1-demo") is not None
    assert "player1 / player1-demo" in output
    # The first two stages play bundled maps, the final the demo club's own map; the
    # semifinal still being played has its game in progress
    # (tests/web/test_demo_board_games.py for the board's two games).
    assert [s.map_name for s in (prelims, semis, final)] == [
        "hunt-derelict",
        "flag-relay",
        "circolo-arena",
    ]
    assert tournament.maps.get().name == "circolo-arena"
    [game] = two.games.all()
    assert game.map_name == "flag-relay" and game.snapshots.count() > 1
    assert game.latest().state["outcome"] is None
    assert not one.games.exists()
    # Preliminary session 1 was played on the board: its result comes from its game.
    first = prelims.sessions.get(number=1)
    [played] = first.games.all()
    assert first.result.latest_confirmed().game_number == played.number
    for player in tournament.players.all():
        assert player.access_token in output
    # Scores were entered consistently: no scoring problems in any confirmed version.
    for version in ResultVersion.objects.filter(confirmed=True):
        assert all(not card.problems for card in score_version(version).values())
    assert mail.outbox == []


def test_every_demo_player_has_a_legal_loadout():
    load()
    seats = Seat.objects.filter(session__stage__tournament__slug="bob-demo", squad__isnull=False)
    assert seats.count() == Loadout.objects.filter(seat__in=seats).count() == 9 + 6
    # The demo checks each loadout when it saves it; the session still being played is
    # checked again here, with the ranks its winners of the preliminaries gained.
    for seat in seats.filter(session__result__isnull=True):
        assert loadout_problems(seat.loadout) == {}, seat
    # A winner of the preliminaries takes the extra order card of its new rank.
    assert {len(seat.loadout.order_cards) for seat in seats} == {1, 2}


def test_demo_tokens_are_worth_the_catalogues_values():
    load()
    versions = ResultVersion.objects.filter(result__session__stage__tournament__slug="bob-demo")
    tokens = [
        (version.result.session, entry)
        for version in versions
        for seat in version.breakdown
        for entry in seat["alien_tokens"]
    ]
    assert tokens
    for session, entry in tokens:
        expected = result_limits(session).aliens.default_value(entry["alien_type"])
        assert entry["value"] == expected, entry


def test_demo_is_idempotent_and_reset_rebuilds_it():
    load()
    counts = (Tournament.objects.count(), Player.objects.count(), Session.objects.count())
    tokens = set(Player.objects.values_list("access_token", flat=True))
    assert "already exists" in load()
    assert (Tournament.objects.count(), Player.objects.count(), Session.objects.count()) == counts
    load("--reset")
    assert (Tournament.objects.count(), Player.objects.count(), Session.objects.count()) == counts
    assert set(Player.objects.values_list("access_token", flat=True)).isdisjoint(tokens)


def test_demo_can_be_advanced_to_the_podium():
    load()
    tournament = Tournament.objects.get(slug="bob-demo")
    semis = tournament.stages.get(number=2)
    two = semis.sessions.get(number=2)
    # The semifinals play Catch the Flag without aliens: the winner brings one flag home
    # (30 points), the only objective (decision 71).
    flag = two.stage.stipulation_params["flag_value"]
    record_result(
        two,
        [
            {"seat": str(seat.player_id), "objectives": [{"label": "flag", "points": flag}]}
            if seat.seat_order == 3
            else {"seat": str(seat.player_id)}
            for seat in two.seats.all()
        ],
        confirmed=True,
    )
    call_command("advance", "bob-demo", "--seed", "8", stdout=StringIO())
    final = tournament.stages.get(number=3)
    assert final.sessions.get().stipulation.kind == "tpk"
    # A TPK without aliens: the first squad shoots one marine of the second and survives.
    first, second, third = (str(seat.player_id) for seat in final.sessions.get().seats.all())
    record_result(
        final.sessions.get(),
        [
            {"seat": first, "kills": [{"victim": second, "marine_class": "light", "count": 1}]},
            {
                "seat": second,
                "losses": [{"marine_class": "light", "cause": "player", "killer": first}],
            },
            {"seat": third},
        ],
        survivors=[first],
        confirmed=True,
    )
    out = StringIO()
    call_command("advance", "bob-demo", "--seed", "9", stdout=out)
    assert '"podium"' in out.getvalue()
