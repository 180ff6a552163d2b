"""The CSV roster parser: good files, and a clear per-row error for every kind of mistake."""

from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.interchange.roster import RosterRow, RowError, parse_roster

SQUADS = {
    "ultramarines": "Ultramarines",
    "blood-angels": "Blood Angels",
    "imperial-fists": "Imperial Fists",
}


def parse(text: str | bytes, **kwargs):
    return parse_roster(text, squads=SQUADS, **kwargs)


def test_good_roster_with_all_columns():
    text = (
        "name,nickname,email,preference_1,preference_2,preference_3\n"
        "Mario Rossi,Mario,mario@example.com,blood-angels,Ultramarines,imperial fists\n"
        "Luigi Verdi,,,,,\n"
    )
    result = parse(text)
    assert result.ok, result.errors
    assert result.rows == [
        RosterRow(
            2,
            "Mario Rossi",
            "Mario",
            "mario@example.com",
            ("blood-angels", "ultramarines", "imperial-fists"),
        ),
        RosterRow(3, "Luigi Verdi"),
    ]


def test_header_is_case_insensitive_columns_in_any_order_and_only_name_required():
    result = parse("Email; NAME\nx@example.com;Anna\n\n;Bruno\n")
    assert result.ok, result.errors
    assert [(row.row, row.name, row.email) for row in result.rows] == [
        (2, "Anna", "x@example.com"),
        (4, "Bruno", ""),
    ]


def test_an_italian_spreadsheets_headers_are_read():
    """QA: an Italian organiser's sheet with "nome;soprannome" was refused."""
    result = parse(
        "Nome;Soprannome;E-mail;Preferenza_1\nAnna Neri;Nera;a@example.com;ultramarines\n"
    )
    assert result.ok, result.errors
    assert result.rows == [RosterRow(2, "Anna Neri", "Nera", "a@example.com", ("ultramarines",))]


def test_bytes_with_utf8_bom_and_tab_delimiter():
    result = parse("\ufeffname\tnickname\nNicolò\tNico\n".encode())
    assert result.ok, result.errors
    assert result.rows[0].name == "Nicolò"


def test_partial_preferences_are_kept_in_order():
    result = parse("name,preference_1,preference_2\nAnna,imperial-fists,blood angels\n")
    assert result.rows[0].preferences == ("imperial-fists", "blood-angels")


def test_header_problems_are_all_reported():
    result = parse("nickname,colour,nickname,\nx,y,z,w\n")
    assert not result.ok
    assert result.rows == []
    messages = [(error.row, error.column) for error in result.errors]
    assert (1, "colour") in messages
    assert (1, "nickname") in messages
    assert (1, None) in messages  # the empty header cell
    assert (1, "name") in messages  # the missing required column
    assert "allowed: name, nickname, email, preference_1" in str(result.errors[0])


def test_every_row_problem_names_row_column_and_fix():
    text = (
        "name,email,preference_1,preference_2,preference_3\n"
        ",,,,\n"  # blank line: skipped
        "Anna,not-an-email,,ultramarines,\n"
        "anna,,space wolves,,\n"
        ",a@example.com,ultramarines,ultramarines,\n"
        "Carla,,,,,extra\n"
        "Dario,,,,\n"
    )
    result = parse(text, taken_names=["Dario"])
    assert not result.ok
    errors = {(error.row, error.column): error.message for error in result.errors}
    assert "not an e-mail address" in errors[(3, "email")]
    assert "fill the choices in order" in errors[(3, "preference_1")]
    assert "already on row 3" in errors[(4, "name")]
    assert "unknown squad 'space wolves'" in errors[(4, "preference_1")]
    assert (
        "use one of: Ultramarines (ultramarines), Blood Angels (blood-angels), "
        "Imperial Fists (imperial-fists)"
    ) in errors[(4, "preference_1")]
    assert "every player needs a name" in errors[(5, "name")]
    assert "already the choice in preference_1" in errors[(5, "preference_2")]
    assert "remove the extra cells" in errors[(6, None)]
    assert "already a player of this tournament" in errors[(7, "name")]
    assert result.rows == []


def test_too_long_values_are_reported_with_the_limit():
    result = parse("name,nickname\n" + "N" * 121 + "," + "k" * 61 + "\n")
    errors = {(error.row, error.column): error.message for error in result.errors}
    assert "121 characters, longer than the 120 allowed" in errors[(2, "name")]
    assert "61 characters, longer than the 60 allowed" in errors[(2, "nickname")]


def test_a_quote_never_closed_is_refused_not_read_as_one_player_of_many_lines():
    """QA: ``"Bea,b1`` with its quote unclosed read the rows after it into one name, and
    three players were registered as one called "Bea,b1\\nBruno,b2\\nCarlo,c3"."""
    result = parse('Name,Nickname\nAnna,a1\n"Bea,b1\nBruno,b2\nCarlo,c3\n')
    assert not result.ok
    assert result.errors == [
        RowError(
            3,
            "Name",
            'the cell runs on over the next lines: a double quote (") opened in this row is '
            "never closed, so the rows after it were read into this cell; close the quote or "
            "remove it",
        )
    ]


def test_whole_file_problems():
    assert parse(b"\xff\xfename\n").errors == [
        RowError(None, None, "the file is not UTF-8 text; save it as 'CSV UTF-8'")
    ]
    assert "the file is empty" in parse("  \n").errors[0].message
    assert "no players" in parse("name\n\n").errors[0].message


def test_errors_name_each_column_as_the_file_writes_it():
    """QA: an Italian sheet's unknown squad was reported at "column preference_1", a
    column the file does not have."""
    text = "Nome;E-Mail;Preferenza_1;preferenza_2\nAnna;nope;Blu;ultramarines\nBruno;;;blu\n"
    result = parse(text)
    errors = {(error.row, error.column): error.message for error in result.errors}
    assert set(errors) == {
        (2, "E-Mail"),
        (2, "Preferenza_1"),
        (3, "Preferenza_1"),
        (3, "preferenza_2"),
    }
    assert "unknown squad 'Blu'" in errors[(2, "Preferenza_1")]
    assert "fill the choices in order" in errors[(3, "Preferenza_1")]
    assert str(result.errors[1]).startswith("row 2, column Preferenza_1: unknown squad 'Blu'")


def test_unknown_squads_are_listed_by_the_first_name_given_with_their_slug():
    squads = {
        "ultramarines": ["Ultramarines", "Ultramarines"],
        "blood-angels": ["Angeli Sanguinari", "Blood Angels"],
    }
    result = parse_roster("nome,preferenza_1\nAnna,Blu\nBruno,blood angels\n", squads=squads)
    [error] = result.errors
    assert error.message == (
        "unknown squad 'Blu'; use one of: Ultramarines (ultramarines), "
        "Angeli Sanguinari (blood-angels)"
    )
    assert result.rows == [RosterRow(3, "Bruno", preferences=("blood-angels",))]


def test_header_problems_name_the_cells_as_written_and_the_italian_headers():
    result = parse("Nome,Colour,name\nAnna,blue,Anna\n")
    errors = {(error.row, error.column): error.message for error in result.errors}
    assert "unknown column Colour" in errors[(1, "Colour")]
    assert "or in Italian nome, soprannome, e-mail, preferenza_1" in errors[(1, "Colour")]
    assert errors[(1, "name")] == "column name is the same column as Nome; keep only one"


def test_row_error_text():
    assert str(RowError(4, "email", "bad")) == "row 4, column email: bad"
    assert str(RowError(None, None, "bad")) == "file: bad"


NAMES = (
    st.text(
        alphabet=st.characters(categories=["L", "N"], include_characters=" '"),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)


@settings(max_examples=100)
@given(st.lists(NAMES, min_size=1, max_size=12, unique_by=str.casefold))
def test_any_distinct_names_round_trip_through_csv(names):
    text = "name\n" + "".join(f'"{name}"\n' for name in names)
    result = parse(text)
    assert result.ok, result.errors
    assert [row.name for row in result.rows] == names
    assert [row.row for row in result.rows] == list(range(2, len(names) + 2))


def test_a_quote_never_closed_is_named_in_the_readers_language():
    """The CSV reader's English reason ("field larger than field limit (131072)") was put
    in the Italian message as it was."""
    text = 'name\n"Anna\n' + "Bruno\n" * 30_000
    with translation.override("it"):
        errors = parse(text).errors
    assert [(error.row, error.message) for error in errors] == [
        (
            None,
            "il file non è un CSV valido: una cella è troppo lunga da leggere; cerca delle "
            'virgolette (") che aprono una cella e non vengono mai chiuse, così tutto il '
            "resto del file finisce in quella cella",
        )
    ]
