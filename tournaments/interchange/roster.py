"""CSV player rosters: parse and check a whole file, row by row, before anything is saved.

:func:`parse_roster` is a plain function (no database access) shared by the
``import_roster`` command and the organiser's upload form. It returns every good row and
every problem; callers save the rows only when :attr:`RosterResult.ok` is true.

Columns (header names are case-insensitive, spaces, hyphens and underscores alike, order is
free, Italian ones read too: ``nome``, ``soprannome``, ``e-mail``, ``preferenza 1``...; see
``docs/interchange.md``):

* ``name`` (required) -- the player's name, unique in the tournament (a row repeating a
  registered player exactly is left out, so a list can be uploaded again with late
  sign-ups added);
* ``nickname`` (optional);
* ``email`` (optional) -- a valid e-mail address;
* ``preference_1`` ... ``preference_N`` (optional, N = number of squads) -- the player's
  squad choices in order, each a squad's slug or name, without gaps or repeats.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import CharField
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Player, SquadPreference, Tournament

NAME = "name"
NICKNAME = "nickname"
EMAIL = "email"
PREFERENCE_PREFIX = "preference_"


@dataclass(frozen=True)
class RosterRow:
    """One good roster line. ``row`` is the spreadsheet row number (the header is row 1)."""

    row: int
    name: str
    nickname: str = ""
    email: str = ""
    preferences: tuple[str, ...] = ()  # squad slugs, first choice first


@dataclass(frozen=True)
class RowError:
    """A problem in the file: ``row`` None means the whole file, ``column`` None the whole row."""

    row: int | None
    column: str | None
    message: str

    def __str__(self) -> str:
        where = _("file") if self.row is None else _("row %(row)d") % {"row": self.row}
        if self.column:
            where = _("%(where)s, column %(column)s") % {"where": where, "column": self.column}
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class RegisteredPlayer:
    """A player the tournament already has, as a roster row would list them."""

    name: str
    nickname: str = ""
    email: str = ""
    preferences: tuple[str, ...] = ()


@dataclass
class RosterResult:
    rows: list[RosterRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    #: Rows repeating a registered player exactly: left out, nothing to save for them.
    already_registered: list[RosterRow] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


#: Header cells an Italian spreadsheet writes, read as the columns they name.
ITALIAN_HEADERS = {"nome": NAME, "soprannome": NICKNAME, "e-mail": EMAIL}
ITALIAN_PREFERENCE_PREFIX = "preferenza_"
#: Between words of a header cell, spaces, hyphens and underscores are alike.
_HEADER_SEPARATORS = re.compile(r"[\s_-]+")


def header_column(cell: str) -> str:
    """The column a header cell names: its name, case aside and with spaces, hyphens and
    underscores alike (``Nome``, ``Soprannome``, ``Preferenza 1``, ``preference-1`` and
    ``E-mail`` are read as ``name``, ``nickname``, ``preference_1``, ``preference_1`` and
    ``email``)."""
    column = _fold_header(cell)
    if column.startswith(ITALIAN_PREFERENCE_PREFIX):
        return PREFERENCE_PREFIX + column.removeprefix(ITALIAN_PREFERENCE_PREFIX)
    return _FOLDED_HEADERS.get(column, column)


def _fold_header(cell: str) -> str:
    return _HEADER_SEPARATORS.sub("_", cell.strip().casefold())


_FOLDED_HEADERS = {_fold_header(cell): column for cell, column in ITALIAN_HEADERS.items()}


def preference_columns(squad_count: int) -> list[str]:
    return [f"{PREFERENCE_PREFIX}{n}" for n in range(1, squad_count + 1)]


def _decode(data: str | bytes) -> str | None:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _dialect_delimiter(first_line: str) -> str:
    """Spreadsheets set to Italian save CSV with semicolons; accept those and tabs too."""
    counts = {delimiter: first_line.count(delimiter) for delimiter in (",", ";", "\t")}
    best = max(counts, key=lambda delimiter: counts[delimiter])
    return best if counts[best] else ","


SquadNames = Mapping[str, str | Sequence[str]]


class _SquadLookup:
    """Finds a squad by slug or any of its names, ignoring case, spaces, hyphens, _ and '.

    ``names`` lists the squads for a message: each by its first name (the reader's
    language), then its slug in brackets."""

    def __init__(self, squads: SquadNames) -> None:
        self._by_spelling: dict[str, str] = {}
        shown: list[str] = []
        for slug, names in squads.items():
            self._by_spelling[self._fold(slug)] = slug
            spellings = [names] if isinstance(names, str) else list(names)
            for name in spellings:
                self._by_spelling[self._fold(name)] = slug
            shown.append(f"{spellings[0] if spellings else slug} ({slug})")
        self.names = ", ".join(shown)

    @staticmethod
    def _fold(text: str) -> str:
        return "".join(ch for ch in text.casefold() if ch not in " -_'")

    def find(self, text: str) -> str | None:
        return self._by_spelling.get(self._fold(text))


def squad_list(squads: SquadNames) -> str:
    """The squads as the roster's messages and help list them: each by its first name,
    then its slug in brackets (``Angeli Sanguinari (blood-angels)``)."""
    return _SquadLookup(squads).names


def _allowed_text(allowed: list[str]) -> str:
    """The allowed header cells for a message: the English ones, then the Italian ones."""
    italian = {column: cell for cell, column in ITALIAN_HEADERS.items()}
    in_italian = [
        italian.get(column) or ITALIAN_PREFERENCE_PREFIX + column.removeprefix(PREFERENCE_PREFIX)
        for column in allowed
    ]
    return _("%(english)s, or in Italian %(italian)s") % {
        "english": ", ".join(allowed),
        "italian": ", ".join(in_italian),
    }


def _csv_reason(error: csv.Error) -> str:
    """The CSV reader's reason (English) in the active language. The one a roster meets is
    a cell longer than the reader takes: a double quote opening a cell and never closed
    runs the rest of the file into it. Another reason keeps the reader's own words."""
    if str(error).startswith("field larger than field limit"):
        return _(
            'a cell is too long to read; look for a double quote (") that opens a cell and '
            "is never closed, which runs the rest of the file into it"
        )
    return str(error)


def _header_errors(header: list[str], written: list[str], allowed: list[str]) -> list[RowError]:
    """The header's problems, each column named as the file writes it (``written``)."""
    errors = []
    first_cell: dict[str, str] = {}
    for position, (column, cell) in enumerate(zip(header, written, strict=True), start=1):
        if not column:
            errors.append(
                RowError(
                    1,
                    None,
                    _("header cell %(n)d is empty; give every column a name (allowed: %(allowed)s)")
                    % {"n": position, "allowed": _allowed_text(allowed)},
                )
            )
        elif column not in allowed:
            errors.append(
                RowError(
                    1,
                    cell,
                    _("unknown column %(column)s; rename or remove it (allowed: %(allowed)s)")
                    % {"column": cell, "allowed": _allowed_text(allowed)},
                )
            )
        elif column in first_cell:
            errors.append(
                RowError(
                    1,
                    cell,
                    _("column %(column)s appears twice; keep only one") % {"column": cell}
                    if first_cell[column] == cell
                    else _("column %(column)s is the same column as %(first)s; keep only one")
                    % {"column": cell, "first": first_cell[column]},
                )
            )
        first_cell.setdefault(column, cell)
    if NAME not in header:
        errors.append(
            RowError(1, NAME, _("the required column name is missing; add a 'name' header cell"))
        )
    return errors


def _row_preferences(
    number: int,
    values: dict[str, str],
    columns: list[str],
    squads: _SquadLookup,
    as_written: Mapping[str, str],
) -> tuple[tuple[str, ...], list[RowError]]:
    """The row's squad choices and their problems; a repeated squad is named as the file
    writes it, with the header cell of the column that chose it first."""
    chosen: list[str] = []
    chosen_in: dict[str, str] = {}
    errors: list[RowError] = []
    gap_column: str | None = None
    for column in columns:
        text = values.get(column, "")
        if not text:
            gap_column = gap_column or column
            continue
        if gap_column is not None:
            errors.append(
                RowError(
                    number,
                    gap_column,
                    _("empty, but a later preference is filled; fill the choices in order"),
                )
            )
            gap_column = None
        slug = squads.find(text)
        if slug is None:
            errors.append(
                RowError(
                    number,
                    column,
                    _("unknown squad %(squad)s; use one of: %(squads)s")
                    % {"squad": repr(text), "squads": squads.names},
                )
            )
        elif slug in chosen:
            errors.append(
                RowError(
                    number,
                    column,
                    _("squad %(squad)s is already the choice in %(column)s; list each squad once")
                    % {
                        "squad": repr(text),
                        "column": as_written.get(chosen_in[slug], chosen_in[slug]),
                    },
                )
            )
        else:
            chosen.append(slug)
            chosen_in[slug] = column
    return tuple(chosen), errors


def _line_break_error(
    number: int, values: Mapping[str, str], as_written: Mapping[str, str]
) -> RowError | None:
    """A cell holding a line break: no name, nickname, address or squad has one, so it is a
    double quote opened in the row and never closed, which reads the lines after it into
    the cell (those players would be lost in one strange name)."""
    for column, value in values.items():
        if "\n" in value or "\r" in value:
            return RowError(
                number,
                as_written[column],
                _(
                    'the cell runs on over the next lines: a double quote (") opened in '
                    "this row is never closed, so the rows after it were read into this "
                    "cell; close the quote or remove it"
                ),
            )
    return None


def _max_length(column: str) -> int:
    """The longest value the player record can hold for a roster column."""
    field = Player._meta.get_field(column)
    # The roster's columns are the player's bounded text fields (name, nickname, email).
    assert isinstance(field, CharField) and field.max_length is not None
    return field.max_length


def _length_error(number: int, column: str, value: str, limit: int) -> RowError | None:
    if len(value) <= limit:
        return None
    return RowError(
        number,
        column,
        _("%(length)d characters, longer than the %(limit)d allowed; shorten it")
        % {"length": len(value), "limit": limit},
    )


def parse_roster(
    data: str | bytes,
    *,
    squads: SquadNames,
    taken_names: Iterable[str] = (),
    registered: Iterable[RegisteredPlayer] = (),
) -> RosterResult:
    """Parse and check a roster CSV.

    ``squads`` maps each squad slug of the tournament, in squad order, to its name or
    names, the first the one messages name it by (see :func:`tournament_squads`); it
    decides how many preference columns exist. Messages name each column as the file's
    header writes it.
    ``taken_names`` are names already used by players of the tournament (compared ignoring
    case); a nickname may not repeat how a registered player shows, nor a nickname of an
    earlier row. ``registered`` are the tournament's players with their
    details: a row repeating one exactly (:func:`_same_player`) goes to
    :attr:`RosterResult.already_registered`, not to the rows to save, so a list uploaded
    again with late sign-ups added registers only those; a row naming one with other
    details is refused. Blank lines are skipped.
    """
    result = RosterResult()
    text = _decode(data)
    if text is None:
        result.errors.append(
            RowError(None, None, _("the file is not UTF-8 text; save it as 'CSV UTF-8'"))
        )
        return result
    if not text.strip():
        result.errors.append(
            RowError(None, None, _("the file is empty; put a header row first (name, ...)"))
        )
        return result

    delimiter = _dialect_delimiter(text.splitlines()[0])
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as error:
        result.errors.append(
            RowError(
                None,
                None,
                _("the file is not valid CSV: %(error)s") % {"error": _csv_reason(error)},
            )
        )
        return result

    written = [cell.strip() for cell in records[0]]
    header = [header_column(cell) for cell in written]
    pref_columns = preference_columns(len(squads))
    allowed = [NAME, NICKNAME, EMAIL, *pref_columns]
    result.errors.extend(_header_errors(header, written, allowed))
    if result.errors:
        return result

    lookup = _SquadLookup(squads)
    as_written = dict(zip(header, written, strict=True))
    known = {player.name.casefold(): player for player in registered}
    taken = {name.casefold() for name in taken_names} | set(known)
    shown_taken = {(player.nickname or player.name).casefold() for player in known.values()}
    first_row_of_name: dict[str, int] = {}
    first_row_of_shown: dict[str, int] = {}
    for number, record in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in record):
            continue
        if len(record) > len(header):
            result.errors.append(
                RowError(
                    number,
                    None,
                    _("%(cells)d cells but the header has %(columns)d; remove the extra cells")
                    % {"cells": len(record), "columns": len(header)},
                )
            )
            continue
        values = {column: cell.strip() for column, cell in zip(header, record, strict=False)}
        broken = _line_break_error(number, values, as_written)
        if broken is not None:
            result.errors.append(broken)
            continue
        errors: list[RowError] = []

        name = values.get(NAME, "")
        key = name.casefold()
        nickname = values.get(NICKNAME, "")
        email = values.get(EMAIL, "")
        preferences, preference_errors = _row_preferences(
            number, values, pref_columns, lookup, as_written
        )
        row = RosterRow(number, name, nickname, email, preferences)
        same = known.get(key)
        differing = (
            _differing_columns(row, same, as_written, with_preferences=not preference_errors)
            if same is not None
            else []
        )
        if same is not None and not differing and not preference_errors:
            if key not in first_row_of_name:
                first_row_of_name[key] = number
                first_row_of_shown.setdefault((nickname or name).casefold(), number)
                result.already_registered.append(row)
                continue
        if not name:
            errors.append(RowError(number, NAME, _("empty; every player needs a name")))
        elif key in first_row_of_name:
            errors.append(
                RowError(
                    number,
                    NAME,
                    _("%(name)s is already on row %(row)d; names must be unique")
                    % {"name": repr(name), "row": first_row_of_name[key]},
                )
            )
        elif differing:
            first_row_of_name[key] = number
            errors.append(
                RowError(
                    number,
                    NAME,
                    _(
                        "%(name)s is already registered with other details (%(columns)s): "
                        "correct the row or remove it"
                    )
                    % {"name": repr(name), "columns": ", ".join(differing)},
                )
            )
        elif key in taken and same is None:
            errors.append(
                RowError(
                    number,
                    NAME,
                    _("%(name)s is already a player of this tournament; use another name")
                    % {"name": repr(name)},
                )
            )
        else:
            first_row_of_name[key] = number

        shown = (nickname or name).casefold()
        own_shown = (same.nickname or same.name).casefold() if same is not None else None
        if nickname and shown in shown_taken and shown != own_shown:
            errors.append(
                RowError(
                    number,
                    NICKNAME,
                    _("%(name)s already shows for a player of this tournament; choose another")
                    % {"name": repr(nickname)},
                )
            )
        elif nickname and shown in first_row_of_shown:
            errors.append(
                RowError(
                    number,
                    NICKNAME,
                    _("%(name)s is already shown on row %(row)d; nicknames must be unique")
                    % {"name": repr(nickname), "row": first_row_of_shown[shown]},
                )
            )
        elif shown:
            first_row_of_shown.setdefault(shown, number)
        for column, value in ((NAME, name), (NICKNAME, nickname), (EMAIL, email)):
            too_long = _length_error(number, column, value, _max_length(column))
            if too_long:
                errors.append(too_long)
        if email:
            try:
                validate_email(email)
            except ValidationError:
                errors.append(
                    RowError(
                        number,
                        EMAIL,
                        _("%(email)s is not an e-mail address; fix it or leave the cell empty")
                        % {"email": repr(email)},
                    )
                )

        errors.extend(preference_errors)

        if errors:
            result.errors.extend(errors)
        else:
            result.rows.append(row)

    if not result.rows and not result.errors and not result.already_registered:
        result.errors.append(
            RowError(None, None, _("the file has a header but no players; add one row per player"))
        )
    # Each column named as the file's header writes it (``preferenza_1``, ``Nome``).
    result.errors = [
        replace(error, column=as_written.get(error.column, error.column)) if error.column else error
        for error in result.errors
    ]
    return result


def _same_player_preferences(row: RosterRow, player: RegisteredPlayer) -> bool:
    """A row with no preferences leaves the registered player's as they are."""
    return not row.preferences or row.preferences == player.preferences


def _differing_columns(
    row: RosterRow,
    player: RegisteredPlayer,
    as_written: Mapping[str, str],
    *,
    with_preferences: bool,
) -> list[str]:
    """The header cells of the row's columns that differ from the registered ``player``
    (none: the row repeats the player exactly). Names are compared as written, e-mail
    addresses case aside; a column the file does not have says nothing, nor do empty
    preferences; preferences only ``with_preferences`` (not when the row's are wrong:
    those cells have their own errors)."""
    differing = [
        column
        for column, mine, theirs in (
            (NAME, row.name, player.name),
            (NICKNAME, row.nickname, player.nickname),
            (EMAIL, row.email.casefold(), player.email.casefold()),
        )
        if column in as_written and mine != theirs
    ]
    if with_preferences and not _same_player_preferences(row, player):
        differing += [column for column in as_written if column.startswith(PREFERENCE_PREFIX)]
    return [as_written.get(column, column) for column in differing]


def tournament_squads(tournament: Tournament) -> dict[str, list[str]]:
    """The tournament's squads in squad order: slug -> its names, the one in the active
    language first (messages name the squad by it), then its English and Italian names."""
    return {
        squad.slug: list(
            dict.fromkeys(name for name in (squad.name, squad.name_en, squad.name_it) if name)
        )
        for squad in tournament.squads.order_by("order", "pk")
    }


def registered_players(tournament: Tournament) -> list[RegisteredPlayer]:
    """The tournament's players with their tournament-wide squad preference, as a roster
    row would list them."""
    choices = dict(
        SquadPreference.objects.filter(tournament=tournament, stage__isnull=True).values_list(
            "player_id", "choices"
        )
    )
    return [
        RegisteredPlayer(
            player.name, player.nickname, player.email, tuple(choices.get(player.pk) or ())
        )
        for player in Player.objects.filter(registrations__tournament=tournament)
    ]


def parse_roster_for(tournament: Tournament, data: str | bytes) -> RosterResult:
    """:func:`parse_roster` with the tournament's squads and already registered players."""
    return parse_roster(
        data, squads=tournament_squads(tournament), registered=registered_players(tournament)
    )


def already_registered_note(result: RosterResult) -> str:
    """What the upload and the command add about the rows left out as already registered;
    "" when there were none."""
    count = len(result.already_registered)
    if not count:
        return ""
    return ngettext(
        "%(count)d player of the file was already registered and was left as is.",
        "%(count)d players of the file were already registered and were left as they are.",
        count,
    ) % {"count": count}
