"""A tournament's alien event deck (RULES §12): the shipped cards with the organiser's
names and texts for them, kept in the tournament's rules data overrides
(``data_overrides["events"]``, the section the board passes to the engine when it sets a
game up, so the cards drawn read as the catalogue says)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from rules.engine.card_names import named_cards
from rules.engine.event_cards import EventCard, EventDataError, load_cards
from tournaments.models import Tournament

#: The section of ``Tournament.data_overrides`` holding the event cards' changes.
EVENTS = "events"


def event_overrides(tournament: Tournament) -> dict[str, Any]:
    """The organiser's changes by card id (``{card_id: {"name": ..., "text": ...}}``)."""
    return dict((tournament.data_overrides or {}).get(EVENTS) or {})


def tournament_event_cards(tournament: Tournament) -> tuple[EventCard, ...]:
    """The tournament's deck; :class:`EventDataError` when its stored changes are not valid
    (only an edit outside the app can make them so)."""
    return load_cards(event_overrides(tournament) or None)


def event_card_names(tournament: Tournament) -> dict[str, dict[str, str]]:
    """The tournament's names of the event cards by id (the shipped ones when its changes
    cannot be read: the catalogue page says what is wrong with them)."""
    try:
        cards = tournament_event_cards(tournament)
    except EventDataError:
        cards = load_cards()
    return {card.id: dict(card.name) for card in cards}


def in_event_words(tournament: Tournament) -> AbstractContextManager[None]:
    """A block in which the event cards are named as the tournament's catalogue names them
    (the stage's deck choices, the stipulation summaries)."""
    return named_cards(events=event_card_names(tournament))
