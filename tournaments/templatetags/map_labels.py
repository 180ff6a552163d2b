"""Maps named as the map menus name them, in the reader's language:
``{% map_menu_label tournament name as label %}`` gives "Title (name)" (the name alone for a
map the tournament cannot play)."""

from __future__ import annotations

from django import template

from tournaments.models import Tournament
from tournaments.queries import playable_maps

register = template.Library()


@register.simple_tag
def map_menu_label(tournament: Tournament, name: str) -> str:
    return playable_maps.map_menu_label(tournament, name)
