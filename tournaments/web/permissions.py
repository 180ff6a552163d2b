"""Server-side role checks for every page and htmx endpoint.

Roles: the public (anyone), a player (identified by their private link, kept in the browser
session, or by a user account linked to the player), a judge (only for the sessions assigned
to them), an organiser (per tournament) and the superuser (everything). An organiser may also
act as judge of any session of their tournament, so a missing judge never blocks a table.

Each view states its rule with one of the decorators below; the role-matrix test walks every
URL and checks the rule actually applied.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol, cast

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from tournaments.models import Player, Session, Tournament
from tournaments.queries.roles import (
    account_players,
    can_judge,
    is_organiser,
    may_create_tournaments,
)

PLAYER_SESSION_KEY = "bob_player_id"
#: How the browser came to speak for that player: "link" or "account".
PLAYER_VIA_KEY = "bob_player_via"
#: Which private link the browser opened (a digest of it): a link renewed since is no
#: longer the player's, and the browser no longer speaks for them.
PLAYER_LINK_KEY = "bob_player_link"

View = Callable[..., HttpResponse]


class RuledView(Protocol):
    """A view marked with the access rule its decorator applies (``bob_access``, which the
    role-matrix test reads)."""

    bob_access: str

    def __call__(self, request: HttpRequest, /, *args: Any, **kwargs: Any) -> HttpResponse: ...


def _ruled(view: View, rule: str) -> RuledView:
    marked = cast(RuledView, view)  # a function takes any attribute
    marked.bob_access = rule
    return marked


def remember_player(request: HttpRequest, player: Player, *, via_account: bool) -> None:
    """This browser now speaks for ``player``: through its private link, or through the
    account it logged in with (then only while that account stays linked to the player)."""
    request.session.update(player_session(player, via_account=via_account))


def player_session(player: Player, *, via_account: bool = False) -> dict[str, Any]:
    """What a browser's session keeps when it speaks for ``player``."""
    return {
        PLAYER_SESSION_KEY: player.pk,
        PLAYER_VIA_KEY: "account" if via_account else "link",
        PLAYER_LINK_KEY: "" if via_account else _link_digest(player),
    }


def forget_player(request: HttpRequest) -> None:
    request.session.pop(PLAYER_SESSION_KEY, None)
    request.session.pop(PLAYER_VIA_KEY, None)
    request.session.pop(PLAYER_LINK_KEY, None)


def _link_digest(player: Player) -> str:
    """A digest of the player's private link: the session keeps no copy of the secret."""
    return hashlib.sha256(player.access_token.encode()).hexdigest()


def _still_speaks_for(request: HttpRequest, player: Player) -> bool:
    """Whether the browser still speaks for ``player``: its account is still linked to
    them, or the private link it opened is still theirs (not renewed since)."""
    if request.session.get(PLAYER_VIA_KEY) == "account":
        return request.user.is_authenticated and player.user_id == request.user.pk
    return request.session.get(PLAYER_LINK_KEY) == _link_digest(player)


def current_player(request: HttpRequest) -> Player | None:
    """The player this browser speaks for: a private link opened earlier, or a linked account.

    A player remembered from a log-in is dropped once an organiser unlinks the account (or
    another account logs in), and one remembered from a private link once the organiser
    gives the player a new link, so either takes effect at the next request."""
    player_id = request.session.get(PLAYER_SESSION_KEY)
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is not None and _still_speaks_for(request, player):
            return player
        forget_player(request)
    if request.user.is_authenticated:
        players = account_players(request.user)
        return players[0].player if players else None
    return None


def _login_redirect(request: HttpRequest) -> HttpResponse:
    return redirect_to_login(request.get_full_path(), reverse("tournaments:login"))


def public(view: View) -> RuledView:
    """Anyone may see this page (read-only)."""
    return _ruled(view, "public")


def login_required(view: View) -> RuledView:
    """Any logged-in account (the page itself shows only what concerns that account)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return _login_redirect(request)
        return view(request, *args, **kwargs)

    return _ruled(wrapper, "login")


def creator_required(view: View) -> RuledView:
    """An account allowed to create tournaments (decision 60); anyone else logged in is
    told why not and whom to ask, with a 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return _login_redirect(request)
        if not may_create_tournaments(request.user):
            return render(request, "organiser/creation_not_allowed.html", status=403)
        return view(request, *args, **kwargs)

    return _ruled(wrapper, "creator")


def organiser_required(view: View) -> RuledView:
    """Organisers of the tournament named by ``slug``; the view receives the tournament."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return _login_redirect(request)
        tournament = get_object_or_404(Tournament, slug=slug)
        if not is_organiser(request.user, tournament):
            raise PermissionDenied
        return view(request, tournament, *args, **kwargs)

    return _ruled(wrapper, "organiser")


def judge_required(view: View) -> RuledView:
    """The judge of the session ``pk`` (or an organiser); the view receives the session."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return _login_redirect(request)
        session = get_object_or_404(
            Session.objects.select_related("stage__tournament", "judge"), pk=pk
        )
        if not can_judge(request.user, session):
            raise PermissionDenied
        return view(request, session, *args, **kwargs)

    return _ruled(wrapper, "judge")


def player_required(view: View) -> RuledView:
    """A browser that speaks for a player; the view receives the player. Any other browser
    is told how a player's pages open here (the private link, or a linked account)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        player = current_player(request)
        if player is None:
            return render(request, "player/not_recognised.html", status=403)
        return view(request, player, *args, **kwargs)

    return _ruled(wrapper, "player")
