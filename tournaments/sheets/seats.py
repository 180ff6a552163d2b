"""A session's seats as the judge's pages show them, and each seat's loadout check."""

from __future__ import annotations

from tournaments.forms.loadout import problems_for, stored_loadout
from tournaments.models import CommanderCombo, Seat, Session
from tournaments.queries.tournament_catalogue import tournament_catalogue


def session_seats(session: Session) -> list[Seat]:
    """The seats in seat order, with what every judge page shows of them."""
    return list(session.seats.select_related("player", "squad", "loadout").order_by("seat_order"))


def loadout_checks(session: Session, seats: list[Seat]) -> list[dict]:
    """Each seat's chosen loadout and what the rules say about it (with the reason)."""
    catalogue = tournament_catalogue(session.stage.tournament)
    combos = dict(CommanderCombo.choices)

    def weapon(slug: str) -> str:
        spec = catalogue.weapon(slug)
        return spec.display_name() if spec else slug

    checks = []
    for seat in seats:
        chosen = stored_loadout(seat)
        cards = catalogue.card_names(seat.squad.slug) if seat.squad else {}
        checks.append(
            {
                "seat": seat,
                "loadout": chosen,
                "problems": problems_for(seat, chosen, catalogue) if chosen else (),
                "commander": combos.get(chosen.commander_combo, "") if chosen else "",
                "weapons": [
                    weapon(slug) for slug in (chosen.marine_weapons + chosen.extra_marine_weapons)
                ]
                if chosen
                else [],
                "orders": [cards.get(s, s) for s in chosen.order_cards] if chosen else [],
                "equipment": [cards.get(s, s) for s in chosen.equipment_cards] if chosen else [],
            }
        )
    return checks
