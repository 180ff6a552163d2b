"""The site header's links for who is asking, worked out once per request: the header
(``{% navigation as nav %}``) and a page offering the same thing (the home page's "Create
a tournament", offered as the header offers "Organise") read the same answer.

A link shows only where it leads somewhere for this visitor: the judge's sessions to those
who judge, the organiser's pages to those who organise (and to an account the site's
administrator allowed to create a tournament, whose way in that is: decision 60), the
player's pages to whoever speaks for a player, the Django admin to staff."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest

from tournaments.queries.roles import offers_organising, staff_roles
from tournaments.web.permissions import current_player

#: Where the request keeps its answer.
_ON_REQUEST = "_bob_header_links"


@dataclass(frozen=True)
class HeaderLinks:
    judge: bool
    organise: bool
    player: bool
    admin: bool


def header_links(request: HttpRequest) -> HeaderLinks:
    """The header's links for ``request``'s visitor (read once, then kept on the request)."""
    links = getattr(request, _ON_REQUEST, None)
    if links is None:
        user = request.user
        player = current_player(request) is not None
        roles = staff_roles(user)
        organise = offers_organising(user, roles=roles)
        links = HeaderLinks(roles.judges, organise, player, user.is_active and user.is_staff)
        setattr(request, _ON_REQUEST, links)
    return links
