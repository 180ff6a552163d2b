"""A tournament's alien event deck (RULES §12): the shipped cards with the organiser's
names and texts for them, kept in the tournament's rules data overrides
(``data_overrides["events"]``, the section the board passes to the engine when it sets a
game up, so the cards drawn read as the catalogue says)."""

from __future__ import annotations

from typing import Any

from rules.engine.event_cards import EventCard, EventDataError, default_cards, load_cards
from tournaments.models import Tournament

#: The section of ``Tournament.data_overrides`` holding the event cards' changes.
EVENTS = "events"


def event_overrides(tournament: Tournament) -> dict[str, Any]:
    """The organiser's changes by card id (``{card_id: {"name": ..., "text": ...}}``)."""
    return dict((tournament.data_overrides or {}).get(EVENTS) or {})


def shipped_event_card(card_id: str) -> EventCard | None:
    """The shipped card ``card_id`` (None: no such card)."""
    return next((card for card in default_cards() if card.id == card_id), None)


def tournament_event_cards(tournament: Tournament) -> tuple[tuple[EventCard, ...], str]:
    """The tournament's deck, and what is wrong with its stored changes (empty when nothing;
    only an edit outside the app can make them wrong: the shipped deck is given then)."""
    try:
        return load_cards(event_overrides(tournament) or None), ""
    except EventDataError as error:
        return load_cards(), str(error)


def event_card_names(tournament: Tournament) -> dict[str, dict[str, str]]:
    """The tournament's names of the event cards by id."""
    cards, _error = tournament_event_cards(tournament)
    return {card.id: dict(card.name) for card in cards}
