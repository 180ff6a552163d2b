"""CSV player rosters: parse and check a whole file, row by row, before anything is saved.

:func:`parse_roster` is a plain function (no database access) shared by the
``import_roster`` command and the organiser's upload form. It returns every good row and
every problem; callers save the rows only when :attr:`RosterResult.ok` is true.

Columns (header names are case-insensitive, order is free, Italian ones read too: ``nome``,
``soprannome``, ``e-mail``, ``preferenza_1``...; see ``docs/interchange.md``):

* ``name`` (required) -- the player's name, unique in the tournament;
* ``nickname`` (optional);
* ``email`` (optional) -- a valid e-mail address;
* ``preference_1`` ... ``preference_N`` (optional, N = number of squads) -- the player's
  squad choices in order, each a squad's slug or name, without gaps or repeats.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import CharField
from django.utils.translation import gettext as _

from tournaments.models import Player, Tournament

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


@dataclass
class RosterResult:
    rows: list[RosterRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


#: Header cells an Italian spreadsheet writes, read as the columns they name.
ITALIAN_HEADERS = {"nome": NAME, "soprannome": NICKNAME, "e-mail": EMAIL}
ITALIAN_PREFERENCE_PREFIX = "preferenza_"


def header_column(cell: str) -> str:
    """The column a header cell names: its name, case aside (``Nome``, ``Soprannome``,
    ``preferenza_1`` and ``e-mail`` are read as ``name``, ``nickname``, ``preference_1``
    and ``email``)."""
    column = cell.strip().casefold()
    if column.startswith(ITALIAN_PREFERENCE_PREFIX):
        return PREFERENCE_PREFIX + column.removeprefix(ITALIAN_PREFERENCE_PREFIX)
    return ITALIAN_HEADERS.get(column, column)


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
    number: int, values: dict[str, str], columns: list[str], squads: _SquadLookup
) -> tuple[tuple[str, ...], list[RowError]]:
    chosen: list[str] = []
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
                    _("squad %(squad)s is already an earlier choice; list each squad once")
                    % {"squad": slug},
                )
            )
        else:
            chosen.append(slug)
    return tuple(chosen), errors


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
    taken_display_names: Iterable[str] = (),
) -> RosterResult:
    """Parse and check a roster CSV.

    ``squads`` maps each squad slug of the tournament, in squad order, to its name or
    names, the first the one messages name it by (see :func:`tournament_squads`); it
    decides how many preference columns exist. Messages name each column as the file's
    header writes it.
    ``taken_names`` are names already used by players of the tournament (compared ignoring
    case); ``taken_display_names`` are how they show (a nickname may not repeat one, nor a
    nickname of an earlier row). Blank lines are skipped.
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
            RowError(None, None, _("the file is not valid CSV (%(error)s)") % {"error": error})
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
    taken = {name.casefold(): None for name in taken_names}
    shown_taken = {shown.casefold() for shown in taken_display_names}
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
        errors: list[RowError] = []

        name = values.get(NAME, "")
        key = name.casefold()
        if not name:
            errors.append(RowError(number, NAME, _("empty; every player needs a name")))
        elif key in taken:
            errors.append(
                RowError(
                    number,
                    NAME,
                    _("%(name)s is already a player of this tournament; use another name")
                    % {"name": repr(name)},
                )
            )
        elif key in first_row_of_name:
            errors.append(
                RowError(
                    number,
                    NAME,
                    _("%(name)s is already on row %(row)d; names must be unique")
                    % {"name": repr(name), "row": first_row_of_name[key]},
                )
            )
        else:
            first_row_of_name[key] = number

        nickname = values.get(NICKNAME, "")
        shown = (nickname or name).casefold()
        if nickname and shown in shown_taken:
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
        email = values.get(EMAIL, "")
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

        preferences, preference_errors = _row_preferences(number, values, pref_columns, lookup)
        errors.extend(preference_errors)

        if errors:
            result.errors.extend(errors)
        else:
            result.rows.append(RosterRow(number, name, nickname, email, preferences))

    if not result.rows and not result.errors:
        result.errors.append(
            RowError(None, None, _("the file has a header but no players; add one row per player"))
        )
    # Each column named as the file's header writes it (``preferenza_1``, ``Nome``).
    as_written = dict(zip(header, written, strict=True))
    result.errors = [
        replace(error, column=as_written.get(error.column, error.column)) if error.column else error
        for error in result.errors
    ]
    return result


def tournament_squads(tournament: Tournament) -> dict[str, list[str]]:
    """The tournament's squads in squad order: slug -> its names, the one in the active
    language first (messages name the squad by it), then its English and Italian names."""
    return {
        squad.slug: list(
            dict.fromkeys(name for name in (squad.name, squad.name_en, squad.name_it) if name)
        )
        for squad in tournament.squads.order_by("order", "pk")
    }


def parse_roster_for(tournament: Tournament, data: str | bytes) -> RosterResult:
    """:func:`parse_roster` with the tournament's squads and already registered names."""
    taken = Player.objects.filter(registrations__tournament=tournament).values_list(
        "name", flat=True
    )
    shown = [
        player.display_name
        for player in Player.objects.filter(registrations__tournament=tournament)
    ]
    return parse_roster(
        data,
        squads=tournament_squads(tournament),
        taken_names=list(taken),
        taken_display_names=shown,
    )
