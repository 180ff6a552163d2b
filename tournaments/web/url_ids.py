"""``<id:…>`` in the URLs: a row's id, the digits of a number a row can have
(:data:`~tournaments.models.row_ids.ROW_IDS`). Django's ``<int:…>`` takes any number of
digits, and a page asked for a player or a session by a number beyond 64 bits failed on
SQLite instead of answering that there is no such one (404). Registered when this module
is imported, by the URL modules that use it."""

from __future__ import annotations

from django.urls import register_converter

from tournaments.models.row_ids import ROW_IDS


class RowIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number not in ROW_IDS:
            raise ValueError(f"{value} is no row's id")  # Django: the URL does not match
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowIdConverter, "id")
