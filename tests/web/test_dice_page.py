"""The public Dice page: the seed's hash published before the app rolls, the seed after,
and a replay (server, browser page, command) that equals the recorded rolls."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from rules.engine.dice import ScriptedDice, SeededDice, seed_commitment
from tests.factories import (
    StageFactory,
    TournamentFactory,
    UserFactory,
    confirm_stage,
    register_players,
)
from tournaments.actions.stage_advance import advance, seat_first_stage
from tournaments.models import DiceRoll, SeedAnnouncement
from tournaments.queries.dice_page import dice_streams, stage_seatings

pytestmark = pytest.mark.django_db


@pytest.fixture
def organised(client):
    user = UserFactory(username="capo")
    user.save()
    tournament = TournamentFactory(slug="dadi")
    tournament.organisers.add(user)
    register_players(tournament, 10)
    client.force_login(user)
    return tournament, client


def dice_page(client, tournament):
    return client.get(reverse("tournaments:dice", args=[tournament.slug])).content.decode()


def test_the_seed_hash_is_public_before_the_roll_and_the_seed_after(
    organised, django_capture_on_commit_callbacks
):
    """The page is cached for visitors: each change shows once its transaction commits."""
    tournament, organiser = organised
    visitor = Client()
    organiser.get(reverse("tournaments:organiser_dashboard", args=[tournament.slug]))
    announced = SeedAnnouncement.objects.get(tournament=tournament, used_at=None)
    before = dice_page(visitor, tournament)
    assert announced.commitment in before
    assert announced.seed not in before  # the seed stays secret until it is used
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser.post(
            reverse("tournaments:organiser_start", args=[tournament.slug]),
            {"start-mode": "app", "start-version": 0},
        )
    assert response.status_code == 302
    rolls = DiceRoll.objects.filter(tournament=tournament, session=None)
    assert rolls.exists() and {roll.seed for roll in rolls} == {announced.seed}
    after = dice_page(visitor, tournament)
    assert announced.seed in after and "before the roll" in after
    assert "random seating" in after
    assert reverse("tournaments:dice_verify", args=[tournament.slug, announced.commitment]) in after
    # The next roll (closing the stage) has its hash announced once the dashboard offers the
    # close: not while results are missing (the checklist blocks it), then at once.
    organiser.get(reverse("tournaments:organiser_dashboard", args=[tournament.slug]))
    assert not SeedAnnouncement.objects.filter(tournament=tournament, used_at=None).exists()
    confirm_stage(tournament.stages.get(number=1), lambda seat: 10 + seat.seat_order)
    organiser.get(reverse("tournaments:organiser_dashboard", args=[tournament.slug]))
    pending = SeedAnnouncement.objects.get(tournament=tournament, used_at=None)
    assert pending.purpose == "advance" and pending.commitment != announced.commitment


def test_a_whole_advance_replays_to_the_recorded_rolls(organised, client):
    tournament, _organiser = organised
    advance(tournament, SeededDice(seed=11))
    stage = tournament.stages.get(number=1)
    confirm_stage(stage, lambda seat: 10)  # every session tied: the cut needs roll-offs
    advance(tournament, SeededDice(seed=12))
    streams = dice_streams(tournament)
    seeds = [stream.seed for stream in streams]
    assert seeds[0] == "11" and seeds[-1] == "12"  # between: the sessions' ranking ties
    cut = streams[-1]
    purposes = {line.roll.purpose_code for line in cut.rolls}
    assert "random_seating" in purposes or "seeding_tie" in purposes
    assert purposes & {"best_runners_up_tie", "best_winners_tie", "session_ranking_tie"}
    for stream in streams:
        check = stream.replay()
        assert check.holds
        assert list(check.replayed) == [tuple(line.roll.values) for line in stream.rolls]
    page = client.get(reverse("tournaments:dice_verify", args=[tournament.slug, cut.commitment]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "replay equals the recorded rolls." in html
    assert f'data-commitment="{seed_commitment(12)}"' in html
    assert "<script>" not in html
    out = StringIO()
    call_command("verify_dice", tournament.slug, stdout=out)
    assert out.getvalue().count("every die equals its replay") == len(streams)


def test_a_tampered_roll_is_caught(organised, client):
    tournament, _organiser = organised
    advance(tournament, SeededDice(seed=5))
    roll = DiceRoll.objects.filter(tournament=tournament).first()
    roll.values = [value % 6 + 1 if roll.kind == "d6" else value for value in roll.values]
    roll.kind = "d6"
    roll.save()
    stream = dice_streams(tournament)[0]
    assert not stream.replay().holds
    page = client.get(reverse("tournaments:dice_verify", args=[tournament.slug, stream.key]))
    assert "differs" in page.content.decode()
    with pytest.raises(CommandError, match="1 seed does not replay"):
        call_command("verify_dice", tournament.slug, stdout=StringIO())


def test_unknown_streams_and_tournaments(organised, client):
    tournament, _organiser = organised
    missing = client.get(reverse("tournaments:dice_verify", args=[tournament.slug, "0" * 64]))
    assert missing.status_code == 404
    assert "No dice have decided the bracket yet." in dice_page(client, tournament)
    with pytest.raises(CommandError) as caught:
        call_command("verify_dice", "nope", stdout=StringIO())
    # What to type instead is named: the known slugs.
    assert str(caught.value) == f'no tournament has the slug "nope"; known slugs: {tournament.slug}'
    assert caught.value.returncode == 2


def test_the_page_lists_a_few_rolls_per_stream_and_links_to_every_roll(organised, monkeypatch):
    from tournaments.views import dice as dice_views

    tournament, _organiser = organised
    monkeypatch.setattr(dice_views, "DICE_ROLLS_SHOWN", 2)
    advance(tournament, SeededDice(seed=11))
    [stream] = dice_streams(tournament)
    assert stream.total == len(stream.rolls) > 2
    visitor = Client()
    html = dice_page(visitor, tournament)
    verify = reverse("tournaments:dice_verify", args=[tournament.slug, stream.key])
    assert html.count('<td class="mono">') == 2
    assert f"And {stream.total - 2} more rolls." in html
    assert f'<a href="{verify}">Every roll of this seed, with its replay</a>' in html
    every = visitor.get(reverse("tournaments:dice", args=[tournament.slug]) + "?rolls=all")
    assert every.content.decode().count('<td class="mono">') == stream.total
    [partial] = dice_streams(tournament, shown=2)
    assert (len(partial.rolls), partial.hidden, partial.stages) == (
        2,
        stream.total - 2,
        stream.stages,
    )
    with pytest.raises(ValueError, match="read it whole"):
        partial.replay()
    replay_page = visitor.get(verify).content.decode()
    assert "replay equals the recorded rolls." in replay_page


def seatings(tournament) -> list[tuple[str, str, bool]]:
    return [(s.stage.kind, s.how, s.verifiable) for s in stage_seatings(tournament)]


def test_the_page_says_a_seeded_tournament_rolled_no_dice_to_seat_it(organised, client):
    """QA: the demo, seated by seed, read "No stage has been seated or cut with dice yet"
    and showed the public a command line."""
    tournament, _organiser = organised
    tournament.seating_method = "seeded"
    tournament.save()
    assert seatings(tournament) == []
    advance(tournament, SeededDice(seed=11))
    StageFactory(tournament=tournament, number=3, kind="final")
    assert [how for _kind, how, _v in seatings(tournament)] == [
        "Seated in registration order: no dice were rolled.",
        "The stage is not seated yet.",
    ]
    confirm_stage(tournament.stages.get(number=1), lambda seat: seat.player_id)
    advance(tournament, SeededDice(seed=12))  # no tie on points: no seeding dice
    [first, second, third] = stage_seatings(tournament)
    assert second.how == (
        "Seeded by the ranking of the stage before (players of the same session kept apart): "
        "no dice were rolled."
    )
    assert (second.stream, third.how) == ("", "The stage is not seated yet.")
    html = dice_page(client, tournament)
    assert "How each stage was seated" in html
    assert "<dt>Preliminary</dt>" in html and "Seated in registration order" in html
    assert "verify_dice" not in html and "manage.py" not in html


def test_a_seeding_tie_settled_by_dice_is_said_and_linked(organised, client):
    tournament, _organiser = organised
    tournament.seating_method = "seeded"
    tournament.save()
    advance(tournament, SeededDice(seed=11))
    confirm_stage(tournament.stages.get(number=1), lambda seat: 10)  # everyone tied
    advance(tournament, SeededDice(seed=12))
    second = stage_seatings(tournament)[1]
    assert second.how.endswith("; dice settled the ties for a seed.")
    assert (second.stream, second.verifiable) == (seed_commitment(12), True)
    html = dice_page(client, tournament)
    assert f'href="#dice-{second.stream}"' in html and f'id="dice-{second.stream}"' in html


def test_random_seating_says_whose_dice_and_links_to_their_replay(organised, client):
    tournament, _organiser = organised
    advance(tournament, SeededDice(seed=11))
    [seating] = stage_seatings(tournament)
    assert seating.how == (
        "Seated at random with the app's dice; anyone can roll them again from the seed."
    )
    assert (seating.stream, seating.verifiable) == (seed_commitment(11), True)
    verify = reverse("tournaments:dice_verify", args=[tournament.slug, seating.stream])
    html = dice_page(client, tournament)
    assert f'<a href="{verify}">Verify them</a>' in html
    assert "Nothing to install." in html and "verify_dice" not in html


def test_random_seating_with_typed_dice_says_so():
    tournament = TournamentFactory()
    register_players(tournament, 4)  # two sessions: one table's seating rolls nothing
    seat_first_stage(tournament, ScriptedDice(values=[3, 1, 2, 4]))
    [seating] = stage_seatings(tournament)
    assert seating.how == "Seated at random with physical dice typed in by the organiser."
    assert seating.stream and not seating.verifiable
