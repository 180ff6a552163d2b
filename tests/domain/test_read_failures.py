"""Why a file could not be read or written, in the reader's language (the system words
it in English), for every command that reads or writes a path: an Italian message said
"(Is a directory)"."""

from __future__ import annotations

import errno

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from tests.factories import TournamentFactory
from tournaments.domain.file_limits import read_at_most
from tournaments.domain.read_failures import read_failure, write_failure


def failure(path) -> OSError:
    with pytest.raises(OSError) as raised:
        read_at_most(path, 10)
    return raised.value


def test_the_common_reasons_are_said_in_the_readers_language(tmp_path):
    (tmp_path / "file").write_text("x")
    with translation.override("it"):
        assert read_failure(failure(tmp_path)) == "è una cartella, non un file"
        assert read_failure(failure(tmp_path / "missing")) == "il file non esiste"
        assert read_failure(failure(tmp_path / "file" / "x")) == (
            "una parte del percorso è un file, non una cartella"
        )
        denied = PermissionError(errno.EACCES, "Permission denied")
        assert read_failure(denied) == "non hai il permesso di leggerlo"
    assert read_failure(failure(tmp_path)) == "it is a folder, not a file"


def test_another_reason_keeps_the_systems_words():
    assert read_failure(OSError(errno.EIO, "Input/output error")) == "Input/output error"


def refused(*args: str) -> str:
    with pytest.raises(CommandError) as caught, translation.override("it"):
        call_command(*args)
    assert caught.value.returncode == 2
    return str(caught.value)


def test_the_squad_draw_says_a_folder_is_a_folder(tmp_path):
    message = refused("squad_draw", "--input", str(tmp_path), "--seed", "1")
    assert message == f"impossibile leggere {tmp_path}: è una cartella, non un file"


@pytest.mark.django_db
def test_the_roster_import_says_a_folder_is_a_folder(tmp_path):
    TournamentFactory(slug="open")
    message = refused("import_roster", "open", str(tmp_path))
    assert message == f"impossibile leggere {tmp_path} (è una cartella, non un file)"


@pytest.mark.django_db
def test_the_tournament_import_says_a_folder_is_a_folder(tmp_path, capsys):
    refused("import_tournament", str(tmp_path))
    assert (
        f"il file {tmp_path} non si può leggere (è una cartella, non un file); controlla il "
        "percorso e i permessi"
    ) in capsys.readouterr().err


@pytest.mark.django_db
def test_the_export_says_why_it_cannot_write_in_the_readers_language(tmp_path):
    TournamentFactory(slug="open")
    message = refused("export_tournament", "open", "-o", str(tmp_path / "no" / "x.json"))
    assert message == (
        f"impossibile scrivere {tmp_path / 'no' / 'x.json'} (la sua cartella non esiste); "
        "scegli un file scrivibile"
    )
    message = refused("export_tournament", "open", "-o", str(tmp_path))
    assert "(è una cartella, non un file)" in message
    full = OSError(errno.ENOSPC, "No space left on device")
    with translation.override("it"):
        assert write_failure(full) == "il disco è pieno"
