"""Server-side role checks for every page and htmx endpoint.

Roles: the public (anyone), a player (identified by their private link, kept in the browser
session, or by a user account linked to the player), a judge (only for the sessions assigned
to them), an organiser (per tournament) and the superuser (everything). An organiser may also
act as judge of any session of their tournament, so a missing judge never blocks a table.

Each view states its rule with one of the decorators below; the role-matrix test walks every
URL and checks the rule actually applied.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse

from .models import Player, Session, Tournament

PLAYER_SESSION_KEY = "bob_player_id"

View = Callable[..., HttpResponse]


def is_organiser(user, tournament: Tournament) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def can_judge(user, session: Session) -> bool:
    """The session's own judge, an organiser of its tournament, or a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or (session.judge_id is not None and session.judge_id == user.pk):
        return True
    return is_organiser(user, session.stage.tournament)


def current_player(request: HttpRequest) -> Player | None:
    """The player this browser speaks for: a private link opened earlier, or a linked account."""
    player_id = request.session.get(PLAYER_SESSION_KEY)
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is not None:
            return player
    if request.user.is_authenticated:
        return Player.objects.filter(user=request.user).order_by("pk").first()
    return None


def _login_redirect(request: HttpRequest) -> HttpResponse:
    return redirect_to_login(request.get_full_path(), reverse("tournaments:login"))


def public(view: View) -> View:
    """Anyone may see this page (read-only)."""
    view.bob_access = "public"
    return view


def login_required(view: View) -> View:
    """Any logged-in account (the page itself shows only what concerns that account)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return _login_redirect(request)
        return view(request, *args, **kwargs)

    wrapper.bob_access = "login"
    return wrapper


def organiser_required(view: View) -> View:
    """Organisers of the tournament named by ``slug``; the view receives the tournament."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return _login_redirect(request)
        tournament = get_object_or_404(Tournament, slug=slug)
        if not is_organiser(request.user, tournament):
            raise PermissionDenied
        return view(request, tournament, *args, **kwargs)

    wrapper.bob_access = "organiser"
    return wrapper


def judge_required(view: View) -> View:
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

    wrapper.bob_access = "judge"
    return wrapper


def player_required(view: View) -> View:
    """A browser that speaks for a player; the view receives the player."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        player = current_player(request)
        if player is None:
            raise PermissionDenied
        return view(request, player, *args, **kwargs)

    wrapper.bob_access = "player"
    return wrapper
