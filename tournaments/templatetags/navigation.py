"""The site header's links for who is asking: ``{% navigation as nav %}``.

A link shows only where it leads somewhere for this visitor: the judge's sessions to those
who judge, the organiser's pages to those who organise (and to an account with no role
yet, whose way in is creating a tournament), the player's pages to whoever speaks for a
player, the Django admin to staff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template

from tournaments.queries.roles import judges_anything, offers_organising
from tournaments.web.permissions import current_player

register = template.Library()


@dataclass(frozen=True)
class Navigation:
    judge: bool
    organise: bool
    player: bool
    admin: bool


@register.simple_tag(takes_context=True)
def navigation(context: dict[str, Any]) -> Navigation:
    request = context.get("request")
    if request is None:
        return Navigation(False, False, False, False)
    user = request.user
    player = current_player(request) is not None
    judge = judges_anything(user)
    organise = offers_organising(user, speaks_for_player=player, judges=judge)
    return Navigation(judge, organise, player, user.is_active and user.is_staff)
