"""A roster uploaded again (the morning list plus late sign-ups): a row repeating a
registered player exactly is left out and counted, a row naming one with other details is
refused with advice that fits; repeated squads are named as the file writes them; header
cells read spaces, hyphens and underscores alike."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import TournamentFactory
from tournaments.actions.registration import NewPlayer, register_player
from tournaments.interchange.roster import (
    RegisteredPlayer,
    RosterRow,
    already_registered_note,
    header_column,
    parse_roster,
)
from tournaments.models import Player, Registration

SQUADS = {
    "ultramarines": "Ultramarines",
    "blood-angels": "Blood Angels",
    "imperial-fists": "Imperial Fists",
}
NICOLA = RegisteredPlayer("Nicola Bruno", "Nico", "nicola@example.com", ("ultramarines",))


def parse(text: str, registered=(NICOLA,)):
    return parse_roster(text, squads=SQUADS, registered=registered)


def errors_of(result) -> dict[tuple[int | None, str | None], str]:
    return {(error.row, error.column): error.message for error in result.errors}


def test_a_row_repeating_a_registered_player_is_left_out_and_counted():
    result = parse(
        "nome;soprannome;e-mail;preferenza 1\n"
        "Nicola Bruno;Nico;Nicola@Example.com;ultramarines\n"
        "Sara Galli;;;blood angels\n"
    )
    assert result.ok, result.errors
    assert result.rows == [RosterRow(3, "Sara Galli", preferences=("blood-angels",))]
    assert [row.row for row in result.already_registered] == [2]
    assert already_registered_note(result) == (
        "1 player of the file was already registered and was left as is."
    )


def test_a_row_without_preferences_leaves_the_registered_ones_alone():
    result = parse("name,nickname,email\nNicola Bruno,Nico,nicola@example.com\n")
    assert result.ok, result.errors
    assert result.rows == [] and len(result.already_registered) == 1


def test_a_column_the_file_does_not_have_says_nothing():
    result = parse("name,email\nNicola Bruno,nicola@example.com\n")
    assert result.ok, result.errors
    assert result.rows == [] and len(result.already_registered) == 1


@pytest.mark.parametrize(
    ("row", "columns"),
    [
        ("Nicola Bruno;Nicky;nicola@example.com;ultramarines", "Soprannome"),
        ("Nicola Bruno;Nico;;ultramarines", "E-mail"),
        ("Nicola Bruno;Nico;nicola@example.com;blood-angels", "Preferenza 1"),
        ("nicola bruno;;nicola@example.com;", "Nome, Soprannome"),
    ],
)
def test_the_same_name_with_other_details_is_refused_with_the_columns_that_differ(row, columns):
    result = parse("Nome;Soprannome;E-mail;Preferenza 1\n" + row + "\n")
    assert result.rows == [] and result.already_registered == []
    assert errors_of(result) == {
        (2, "Nome"): f"{row.split(';')[0]!r} is already registered with other details "
        f"({columns}): correct the row or remove it"
    }


def test_a_registered_player_twice_in_the_file_is_a_repeated_row():
    result = parse(
        "name,nickname,email\nNicola Bruno,Nico,nicola@example.com\n"
        "Nicola Bruno,Nico,nicola@example.com\n"
    )
    assert errors_of(result) == {
        (3, "name"): "'Nicola Bruno' is already on row 2; names must be unique",
        (3, "nickname"): "'Nico' is already shown on row 2; nicknames must be unique",
    }


def test_another_players_nickname_is_still_refused():
    result = parse("name,nickname\nSara Galli,Nico\n")
    assert "already shows for a player of this tournament" in errors_of(result)[(2, "nickname")]


def test_a_repeated_squad_is_named_as_the_file_writes_it_with_the_earlier_column():
    result = parse("Nome;Preferenza 1;Preferenza 2\nSara;Blood Angels;blood-angels\n", ())
    assert [str(error) for error in result.errors] == [
        "row 2, column Preferenza 2: squad 'blood-angels' is already the choice in "
        "Preferenza 1; list each squad once"
    ]


@pytest.mark.parametrize(
    ("cell", "column"),
    [
        ("preferenza 1", "preference_1"),
        ("preferenza-1", "preference_1"),
        ("preferenza_1", "preference_1"),
        ("Preference 1", "preference_1"),
        ("PREFERENCE-2", "preference_2"),
        (" E mail ", "email"),
        ("E-Mail", "email"),
        ("e_mail", "email"),
        ("Nome", "name"),
    ],
)
def test_header_cells_read_spaces_hyphens_and_underscores_alike(cell, column):
    assert header_column(cell) == column


def test_a_header_with_spaces_is_read():
    result = parse("Nome,Preferenza 1,Preference-2\nSara,ultramarines,imperial fists\n", ())
    assert result.ok, result.errors
    assert result.rows[0].preferences == ("ultramarines", "imperial-fists")


def test_the_same_column_spelled_two_ways_is_still_refused():
    result = parse("name,preference 1,preference_1\nSara,ultramarines,ultramarines\n", ())
    assert "is the same column as preference 1" in errors_of(result)[(1, "preference_1")]


# --- the import command reads them the same way ---


@pytest.fixture
def open_tournament(db):
    tournament = TournamentFactory(slug="open")
    register_player(
        tournament,
        NewPlayer("Nicola Bruno", "Nico", "nicola@example.com", ("ultramarines",)),
    )
    return tournament


def test_import_roster_again_registers_only_the_new_players(open_tournament, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text(
        "Nome;Soprannome;E-mail;Preferenza 1\n"
        "Nicola Bruno;Nico;nicola@example.com;ultramarines\n"
        "Sara Galli;;;\n",
        encoding="utf-8",
    )
    out = StringIO()
    call_command("import_roster", "open", str(path), stdout=out, stderr=StringIO())
    assert out.getvalue().strip() == (
        'Registered 1 player in "open". 1 player of the file was already registered and '
        "was left as is."
    )
    names = Registration.objects.filter(tournament=open_tournament).order_by("number")
    assert [(r.number, r.player.name) for r in names] == [(1, "Nicola Bruno"), (2, "Sara Galli")]
    out = StringIO()
    call_command("import_roster", "open", str(path), stdout=out, stderr=StringIO())
    assert out.getvalue().strip() == (
        'Registered 0 players in "open". 2 players of the file were already registered and '
        "were left as they are."
    )
    assert Player.objects.count() == 2


def test_import_roster_refuses_a_registered_name_with_other_details(open_tournament, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("name,email\nNicola Bruno,other@example.com\nSara Galli,\n", encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_roster", "open", str(path), stdout=StringIO(), stderr=err)
    assert (
        "row 2, column name: 'Nicola Bruno' is already registered with other details "
        "(email): correct the row or remove it"
    ) in err.getvalue()
    assert not Player.objects.filter(name="Sara Galli").exists()
