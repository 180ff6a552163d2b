"""A tournament whose settings changed after its results were saved exports into a
document that imports into the same standings (the organiser's QA pass: an Ork token
value changed after results made the tournament's own backup unrestorable).

The app keeps a result as the judge saved it and scores it from its breakdown, tokens at
the value they had then; the document keeps that value and the import accepts it
(docs/decisions.md, "Interchange decisions")."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from rules.engine.dice import SeededDice
from rules.engine.maps import bundled_map_text
from tests.factories import TournamentFactory, register_players
from tournaments.actions.catalogue_edits import save_token_values
from tournaments.actions.map_edits import save_map
from tournaments.actions.result_entry import correct_result, record_result
from tournaments.actions.stage_advance import advance
from tournaments.actions.tournament_setup import save_stage
from tournaments.domain.map_copy import copied_map_text
from tournaments.interchange.document import dumps
from tournaments.interchange.export import export_tournament
from tournaments.interchange.importer import check_document, import_document
from tournaments.models import ResultVersion, Stipulation, Tournament
from tournaments.queries.standings import compute_standings

pytestmark = pytest.mark.django_db


def breakdown(player_id: int, ork_tokens: int, value: int) -> dict:
    return {
        "seat": str(player_id),
        "alien_tokens": [{"alien_type": "ork", "value": value, "count": ork_tokens}],
    }


def save_results(tournament: Tournament, value: int) -> None:
    """A confirmed result for each session of the open stage: the seats took one, two and
    three Ork tokens worth ``value`` each."""
    stage = tournament.stages.get(status="open")
    for session in stage.sessions.order_by("number"):
        if not hasattr(session, "stipulation"):
            Stipulation.objects.create(session=session, kind="alien_hunt", params={"rounds": 8})
        seats = list(session.seats.order_by("seat_order"))
        breakdowns = [
            breakdown(seat.player_id, index + 1, value) for index, seat in enumerate(seats)
        ]
        survivors = [seat.player_id for seat in seats]
        record_result(
            session, breakdowns, survivors=survivors, confirmed=True, dice=SeededDice(seed=2)
        )


@pytest.fixture
def changed_tokens(django_capture_on_commit_callbacks) -> Tournament:
    """Six players, the first stage played with Ork tokens worth 2, then the organiser
    made them worth 7 and corrected one session with the new value."""
    tournament = TournamentFactory(slug="coppa", name="Coppa")
    register_players(tournament, 6)
    with django_capture_on_commit_callbacks(execute=True):
        advance(tournament, SeededDice(seed=1))
        save_results(tournament, value=2)
        save_token_values(tournament, {"ork": 7}, actor=None)
        session = tournament.stages.get(status="open").sessions.order_by("number").first()
        seats = list(session.seats.order_by("seat_order"))
        correct_result(
            session,
            [breakdown(seat.player_id, 1, 7) for seat in seats],
            survivors=[seat.player_id for seat in seats],
            reason="recount",
            dice=SeededDice(seed=4),
        )
    return Tournament.objects.get(pk=tournament.pk)


def standings(tournament: Tournament) -> list[tuple]:
    """What a player sees of the standings: names, points, places, sessions and wins."""
    data = compute_standings(tournament)
    return [
        (row["player"], row["points"], row["sessions"], row["wins"], row["last_position"])
        for row in data["players"]
    ]


def test_the_saved_value_is_what_the_app_scores(changed_tokens):
    """The ground truth the document must keep: a result saved before the change still
    counts its tokens at 2, the correction at 7."""
    points = sorted(row[1] for row in standings(changed_tokens))
    # The corrected session: 1 token at 7 each; the other: 1, 2 and 3 tokens at 2.
    assert points == sorted([7, 7, 7, 2, 4, 6])
    values = {
        token["value"]
        for version in ResultVersion.objects.filter(
            result__session__stage__tournament=changed_tokens
        )
        for seat in version.breakdown
        for token in seat["alien_tokens"]
    }
    assert values == {2, 7}


def test_the_backup_of_a_tournament_whose_token_value_changed_imports(changed_tokens):
    document = export_tournament(changed_tokens)
    assert check_document(document, check_slug=False) == []
    outcome = import_document(document, slug="coppa-copia")
    copy = outcome.tournament
    assert standings(copy) == standings(changed_tokens)
    assert export_tournament(copy)["stages"] == document["stages"]


def test_the_command_line_exports_without_warning_and_imports_the_same(changed_tokens, tmp_path):
    target = tmp_path / "coppa.json"
    err = StringIO()
    call_command("export_tournament", "coppa", "-o", str(target), stderr=err)
    assert "Warning" not in err.getvalue()
    out = StringIO()
    call_command("import_tournament", str(target), "--slug", "demo-copia", stdout=out)
    assert 'Imported tournament "demo-copia"' in out.getvalue()
    assert standings(Tournament.objects.get(slug="demo-copia")) == standings(changed_tokens)


def test_a_new_result_still_takes_the_present_value(changed_tokens):
    """The import does not loosen the judge's check: the result form and the actions
    still refuse the old value for a result saved now."""
    from tournaments.actions.result_entry import ImplausibleResult

    document = export_tournament(changed_tokens)
    copy = import_document(document, slug="coppa-copia").tournament
    session = copy.stages.get(status="open").sessions.order_by("number").last()
    seats = list(session.seats.order_by("seat_order"))
    with pytest.raises(ImplausibleResult, match="worth 7 points each"):
        correct_result(
            session,
            [breakdown(seat.player_id, 1, 2) for seat in seats],
            survivors=[seat.player_id for seat in seats],
            reason="again",
            dice=SeededDice(seed=5),
        )


def test_a_map_changed_after_its_results_still_imports(django_capture_on_commit_callbacks):
    """The tournament's own map the stage plays was redrawn with fewer Ork markers than
    the tokens its results counted: the app keeps the results, and so does an import.
    (A new stage map no longer reaches a session with a result, which keeps the map it was
    played on; a redrawn map still changes under it, as documents of older BoBs may show.)"""
    tournament = TournamentFactory(slug="mappe", name="Mappe")
    register_players(tournament, 6)
    with django_capture_on_commit_callbacks(execute=True):
        advance(tournament, SeededDice(seed=1))
        club = save_map(
            tournament, copied_map_text(bundled_map_text("reference"), "reference", "club")
        )
        stage = tournament.stages.get(status="open")
        stage.map_name = "club"  # eight Ork markers
        save_stage(stage, [], actor=None)
        save_results(tournament, value=2)  # three Ork tokens in a session here
        relay = copied_map_text(bundled_map_text("flag-relay"), "flag-relay", "club")
        save_map(tournament, relay, replacing=club)  # one Ork marker
    document = export_tournament(tournament)
    assert {session["map_name"] for session in document["stages"][0]["sessions"]} == {"club"}
    assert check_document(document, check_slug=False) == []
    copy = import_document(document, slug="mappe-copia").tournament
    assert standings(copy) == standings(tournament)


def test_the_document_keeps_each_value_as_saved(changed_tokens):
    text = dumps(export_tournament(changed_tokens))
    assert '"value": 2' in text and '"value": 7' in text
