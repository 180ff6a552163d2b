"""A session's seats as the judge's pages show them, and each seat's loadout check."""

from __future__ import annotations

from django.utils.translation import gettext as _

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


def loadouts_before_initiative(checks: list[dict]) -> str:
    """What the judge should know before rolling initiative, which fixes every loadout
    and its cards (decision 53): the players who have submitted none yet (the board would
    arm them with its standard loadout, with no cards) and those whose loadout the rules
    refuse; empty when every loadout is in and allowed."""
    missing = [check["seat"].player.display_name for check in checks if not check["loadout"]]
    refused = [check["seat"].player.display_name for check in checks if check["problems"]]
    if not missing and not refused:
        return ""
    parts = [_("Rolling initiative fixes every loadout and its cards.")]
    if missing:
        parts.append(
            _(
                "No loadout submitted yet: %(names)s (the board would arm them with its "
                "standard loadout, without cards)."
            )
            % {"names": ", ".join(missing)}
        )
    if refused:
        parts.append(
            _("Loadout not allowed: %(names)s (see Loadouts and cards below).")
            % {"names": ", ".join(refused)}
        )
    return " ".join(parts)
