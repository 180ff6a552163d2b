"""Log-in (rate limited), log-out, and players' private links."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.forms.login import ThrottledLoginForm
from tournaments.models import Player
from tournaments.queries.roles import account_players
from tournaments.web import login_throttle
from tournaments.web.permissions import forget_player, player_required, public, remember_player


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def _landing_page(user, linked: Player | None) -> str:
    """Where a log-in without ``next`` goes: the page of the user's main role."""
    if user.organised_tournaments.exists():
        return "tournaments:organiser_home"
    if user.judged_sessions.exists() or user.judged_tournaments.exists():
        return "tournaments:judge_home"
    return "tournaments:player_home" if linked else "tournaments:home"


def start_session(request: HttpRequest, user) -> str:
    """Log ``user`` in, this browser speaking for their player of the most recent
    tournament if they have one; returns the name of the page of their main role."""
    login(request, user)
    players = account_players(user)
    linked = players[0].player if players else None
    if linked is not None:
        remember_player(request, linked, via_account=True)
    return _landing_page(user, linked)


@public
def login_view(request: HttpRequest) -> HttpResponse:
    form = ThrottledLoginForm(request, data=request.POST or None)
    status = 200
    if request.method == "POST":
        username = request.POST.get("username", "")
        reservation = login_throttle.reserve(request, username)
        if not reservation.allowed:
            form.refusal = login_throttle.refusal_message(reservation.retry_at)
            form.is_valid()
            status = 429
        elif form.is_valid():
            login_throttle.succeeded(request, username)
            return redirect(_safe_next(request, start_session(request, form.get_user())))
        else:
            status = 400
    return render(
        request,
        "tournaments/login.html",
        {"form": form, "next": request.GET.get("next", request.POST.get("next", ""))},
        status=status,
    )


@public
@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.success(request, _("You are logged out."))
    return redirect("tournaments:home")


@public
@require_http_methods(["GET", "POST"])
def player_link(request: HttpRequest, token: str) -> HttpResponse:
    """A player's private link: remember the player in this browser and open their page.

    A browser logged in with another account (a judge's phone handed to a player) is asked
    first: the account is logged out before the browser speaks for the player, so nobody
    sees one person's pages under another's name, or keeps a judge's rights with a
    player's link."""
    player = Player.objects.filter(access_token=token).first()
    if player is None:  # cut short when pasted, or replaced by a newer link
        return render(
            request,
            "tournaments/not_found.html",
            {
                "message": _(
                    "This private link is not recognised: it may be cut short or replaced by "
                    "a newer one. Ask the organiser for your link."
                )
            },
            status=404,
        )
    logged_in = request.user if request.user.is_authenticated else None
    if logged_in is not None and player.user_id != logged_in.pk:
        if request.method != "POST":
            return render(
                request,
                "tournaments/player_link_switch.html",
                {"player": player, "account": logged_in.get_username()},
            )
        logout(request)
        messages.info(
            request,
            _("%(account)s is logged out of this browser.") % {"account": logged_in.get_username()},
        )
    request.session.cycle_key()
    remember_player(request, player, via_account=False)
    messages.success(
        request,
        _("Welcome, %(name)s. This browser now shows your games; keep your link private.")
        % {"name": player.display_name},
    )
    return redirect("tournaments:player_home")


@player_required
@require_POST
def player_forget(request: HttpRequest, player: Player) -> HttpResponse:
    """Stop this browser speaking for the player (a shared device at the venue)."""
    forget_player(request)
    messages.success(request, _("This browser no longer shows your games."))
    return redirect("tournaments:home")
