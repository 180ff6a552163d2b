"""The three management commands: success paths, and exit status 2 with a clear message."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import TournamentFactory, register_players
from tests.interchange.factories import rich_tournament, without_unique_ids
from tournaments.interchange.document import FORMAT_VERSION, dumps
from tournaments.models import Player, Registration, SquadPreference, Tournament


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def fails(*args: str) -> tuple[str, str]:
    """Run a command that must fail with exit status 2; returns (message, stderr)."""
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command(*args, stdout=StringIO(), stderr=err)
    assert error.value.returncode == 2
    return str(error.value), err.getvalue()


# --- export_tournament ---


def test_export_prints_the_document(document):
    out, _err = run("export_tournament", "bob-2025")
    assert out == dumps(document)
    assert json.loads(out)["format_version"] == FORMAT_VERSION


def test_export_writes_a_file(document, tmp_path):
    target = tmp_path / "bob.json"
    out, err = run("export_tournament", "bob-2025", "--output", str(target))
    assert out == ""
    assert target.read_text(encoding="utf-8") == dumps(document)
    assert "Exported" in err


@pytest.mark.django_db
def test_export_unknown_slug():
    Tournament.objects.create(name="Other", slug="other")
    message, _err = fails("export_tournament", "nope")
    assert message == 'no tournament has the slug "nope"; known slugs: other'


def test_export_to_an_unwritable_place(tournament, tmp_path):
    message, _err = fails("export_tournament", "bob-2025", "-o", str(tmp_path / "no" / "x.json"))
    assert "cannot write" in message


# --- import_tournament ---


def write(tmp_path: Path, content: str) -> str:
    path = tmp_path / "doc.json"
    path.write_text(content, encoding="utf-8")
    return str(path)


def without_batches(document: dict) -> str:
    return dumps(without_unique_ids(document))


def test_import_then_export_again(document, tmp_path):
    document["tournament"]["slug"] = "imported"
    out, _err = run("import_tournament", write(tmp_path, dumps(document)))
    assert 'Imported tournament "imported" (9 players, 2 stages).' in out
    exported, _err = run("export_tournament", "imported")
    # Same database as the original, so the copy's dice batches got fresh ids.
    assert without_batches(json.loads(exported)) == without_batches(document)


def test_import_reports_created_users(document, tmp_path):
    out, _err = run("import_tournament", write(tmp_path, dumps(document)), "--slug", "copy")
    assert "Created user accounts without a usable password" not in out  # all exist already
    document["tournament"]["organisers"] = ["new-organiser"]
    out, _err = run("import_tournament", write(tmp_path, dumps(document)), "--slug", "copy2")
    assert "without a usable password: new-organiser" in out


@pytest.mark.django_db
def test_import_missing_file(tmp_path):
    message, err = fails("import_tournament", str(tmp_path / "missing.json"))
    assert "does not exist; check the path" in err
    assert "nothing was imported" in message


@pytest.mark.django_db
def test_import_not_json(tmp_path):
    _message, err = fails("import_tournament", write(tmp_path, "{not json"))
    assert "the file is not valid JSON" in err
    assert "line 1, column 2" in err


@pytest.mark.django_db
def test_import_json_nested_too_deeply_to_read(tmp_path):
    """Python's decoder ran out of recursion: a traceback, where every reader says why."""
    _message, err = fails("import_tournament", write(tmp_path, "[" * 2000 + "]" * 2000))
    assert "the file is not valid JSON at line 1, column 500" in err
    assert "nested too deeply" in err and "Traceback" not in err


@pytest.mark.django_db
def test_import_wrong_format_version(tmp_path):
    doc = {"format": "bob-tournament", "format_version": 99}
    _message, err = fails("import_tournament", write(tmp_path, json.dumps(doc)))
    assert err.strip() == (
        "$.format_version: format version 99 is not supported; this BoB reads versions 1, 2, 3, "
        "4, 5, 6, 7, 8, 9, 10, 11, 12 (export the tournament again from a matching BoB)"
    )


def test_import_schema_and_semantic_errors_all_listed(document, tmp_path):
    document["tournament"]["slug"] = "fresh"
    document["stages"][1]["sessions"][0]["seats"][2]["player"] = "p12"
    document["stages"][0]["sessions"][0]["duration_minutes"] = -5
    before = Player.objects.count()
    message, err = fails("import_tournament", write(tmp_path, dumps(document)))
    lines = err.strip().splitlines()
    assert lines == [
        "$.stages[0].sessions[0].duration_minutes: -5 is too small; use a number from 0 up",
        '$.stages[1].sessions[0].seats[2].player: unknown player "p12"; '
        "use the id of an entry in $.players",
    ]
    assert message.startswith("2 problems found")
    assert Player.objects.count() == before
    assert not Tournament.objects.filter(slug="fresh").exists()


def test_import_existing_slug(document, tmp_path):
    _message, err = fails("import_tournament", write(tmp_path, dumps(document)))
    assert '$.tournament.slug: a tournament with slug "bob-2025" already exists' in err


@pytest.mark.django_db
def test_import_bad_slug_option(tmp_path):
    message, _err = fails("import_tournament", write(tmp_path, "{}"), "--slug", "bad slug!")
    assert "is not a valid slug" in message


def test_exit_status_is_really_2(tmp_path):
    """Through manage.py, as a user runs it (no database needed for a missing file)."""
    completed = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", str(tmp_path / "none.json")],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "does not exist" in completed.stderr


# --- import_roster ---

ROSTER = (
    "name,nickname,email,preference_1,preference_2\n"
    "Anna Bianchi,Anna,anna@example.com,Blood Angels,ultramarines\n"
    "Bruno Neri,,,,\n"
)


@pytest.fixture
def small_tournament(db):
    return rich_tournament("small")


@pytest.fixture
def not_started(db):
    """Nine players registered, stage 1 not seated: registration is still open."""
    tournament = TournamentFactory(slug="open")
    register_players(tournament, 9)
    return tournament


def test_roster_registers_players_after_the_last_number(not_started, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    out, _err = run("import_roster", "open", str(path))
    assert out.strip() == 'Registered 2 players in "open".'
    registrations = Registration.objects.filter(tournament=not_started, number__gt=9)
    assert [(r.number, r.player.name) for r in registrations.order_by("number")] == [
        (10, "Anna Bianchi"),
        (11, "Bruno Neri"),
    ]
    anna = Player.objects.get(name="Anna Bianchi")
    assert (anna.nickname, anna.email) == ("Anna", "anna@example.com")
    preference = SquadPreference.objects.get(player=anna)
    assert preference.choices == ["blood-angels", "ultramarines"] and preference.stage is None
    assert not SquadPreference.objects.filter(player__name="Bruno Neri").exists()


def test_roster_accepts_italian_squad_names(not_started, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("nome\n", encoding="utf-8")
    path.write_text("name;preference_1\nCarla;Pugni d'Acciaio\n", encoding="utf-8")
    run("import_roster", "open", str(path))
    assert SquadPreference.objects.get(player__name="Carla").choices == ["imperial-fists"]


def test_roster_after_stage_one_is_seated_is_refused(small_tournament, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    message, _err = fails("import_roster", "small", str(path))
    assert "late registration is closed" in message
    assert not Player.objects.filter(name="Anna Bianchi").exists()


def test_roster_with_errors_saves_nothing(small_tournament, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER + "Player 3,,bad-mail,,\n", encoding="utf-8")
    before = Player.objects.count()
    message, err = fails("import_roster", "small", str(path))
    assert err.splitlines() == [
        "row 4, column name: 'Player 3' is already registered with other details "
        "(nickname, email): correct the row or remove it",
        "row 4, column email: 'bad-mail' is not an e-mail address; fix it or leave the cell empty",
    ]
    assert message == f"2 problems found in {path}; no player was registered."
    assert Player.objects.count() == before


def test_roster_unknown_slug_and_missing_file(small_tournament, tmp_path):
    message, _err = fails("import_roster", "nope", str(tmp_path / "x.csv"))
    assert 'no tournament has the slug "nope"' in message
    message, _err = fails("import_roster", "small", str(tmp_path / "x.csv"))
    assert "does not exist; check the path" in message


def test_roster_not_utf8_or_empty(small_tournament, tmp_path):
    path = tmp_path / "roster.csv"
    path.write_bytes("name\nNicolò\n".encode("latin-1"))
    _message, err = fails("import_roster", "small", str(path))
    assert err.strip() == "file: the file is not UTF-8 text; save it as 'CSV UTF-8'"
    path.write_bytes(b"")
    _message, err = fails("import_roster", "small", str(path))
    assert "the file is empty" in err


def test_a_file_far_too_large_is_refused_after_its_first_bytes(small_tournament, tmp_path):
    """A wrong file (a video, ``/dev/zero``) was read whole into memory, then called not
    UTF-8 or not CSV; now its size is said, with what to check, and nothing is saved."""
    path = tmp_path / "roster.csv"
    path.write_bytes(b"name\n" + b"Anna\n" * 200_000)
    message, _err = fails("import_roster", "small", str(path))
    assert message == (
        f"file {path} is larger than 1 MB, and a roster is much smaller; check that it is "
        "the roster's CSV file"
    )
    assert not Registration.objects.filter(player__name="Anna").exists()


@pytest.mark.django_db
def test_a_document_far_too_large_is_refused_after_its_first_bytes(tmp_path, monkeypatch):
    monkeypatch.setattr("tournaments.interchange.importer.MAX_DOCUMENT_BYTES", 1_000_000)
    document = {"format": "bob-tournament", "padding": "x" * 1_000_000}
    path = write(tmp_path, json.dumps(document))
    message, err = fails("import_tournament", path)
    assert err.strip() == (
        f"$: file {path} is larger than 1 MB, and a tournament document is much smaller; "
        "choose the JSON file BoB exported"
    )
    assert "nothing was imported" in message


def test_export_warns_about_data_the_format_cannot_hold(tournament):
    from tournaments.models import Loadout

    loadout = Loadout.objects.filter(seat__session__stage__tournament=tournament).first()
    loadout.order_cards = ["Fuoco!"]
    loadout.save()
    out, err = run("export_tournament", "bob-2025")
    assert json.loads(out)["format"] == "bob-tournament"
    assert "Warning: 2 problems in the stored data break the document format" in err
    assert "an import will refuse it" in err
    assert 'order_cards[0]: "Fuoco!" does not have the form needed here' in err


def test_export_warns_about_broken_references(tournament):
    from tournaments.models import ResultVersion

    version = ResultVersion.objects.filter(result__session__stage__number=1).first()
    stale = [{**entry, "seat": "999999"} for entry in version.breakdown]
    ResultVersion.objects.filter(pk=version.pk).update(breakdown=stale)
    _out, err = run("export_tournament", "bob-2025")
    assert '.breakdown[0].seat: unknown player "999999"' in err
