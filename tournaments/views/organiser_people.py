"""Organiser pages for the people over the event: a player's details, squad preferences
and withdrawal (decisions 32 and 36), the judges and organisers added and removed, and a
link for an account to set its password."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.passwords import (
    NoRoleHere,
    PasswordLink,
    PasswordLinkError,
    issue_password_link,
)
from tournaments.actions.people import (
    PeopleError,
    edit_player,
    renew_private_link,
    withdraw_player,
)
from tournaments.actions.player_choices import preferences_locked_reason
from tournaments.actions.staff import (
    StaffError,
    add_judge,
    add_organiser,
    remove_judge,
    remove_organiser,
)
from tournaments.forms.organiser import StaffForm
from tournaments.forms.people import PlayerEditForm, WithdrawForm
from tournaments.models import Registration, Seat, Tournament
from tournaments.queries.player_profile import reserve_candidates
from tournaments.queries.roles import is_organiser, labelled_staff
from tournaments.views.player import preferences_editing, staff_saved_message
from tournaments.web.form_status import form_status
from tournaments.web.page_parts import redirect_to_section
from tournaments.web.permissions import organiser_required
from tournaments.web.request_types import AccountHttpRequest


def _registration(tournament: Tournament, pk: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, player_id=pk
    )


def _page(
    request: HttpRequest,
    tournament: Tournament,
    registration: Registration,
    *,
    form: PlayerEditForm | None = None,
    withdraw_form: WithdrawForm | None = None,
    preferences: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    player = registration.player
    if preferences is None:
        preferences, _status = preferences_editing(player, tournament)
    seats = (
        Seat.objects.filter(player=player, session__stage__tournament=tournament)
        .select_related("session__stage", "squad")
        .order_by("session__stage__number", "session__number")
    )
    return render(
        request,
        "organiser/player.html",
        {
            "tournament": tournament,
            "registration": registration,
            "player": player,
            "seats": seats,
            "form": form or PlayerEditForm(tournament=tournament, player=player),
            "withdraw_form": withdraw_form
            or WithdrawForm(candidates=reserve_candidates(tournament, player)),
            "preferences": preferences,
            "private_link": request.build_absolute_uri(
                reverse("tournaments:player_link", args=[player.access_token])
            ),
            "otab": "players",
        },
        status=status,
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = _registration(tournament, pk)
    if request.method != "POST":
        return _page(request, tournament, registration)
    form = PlayerEditForm(request.POST, tournament=tournament, player=registration.player)
    if form.is_valid():
        try:
            player = edit_player(
                tournament,
                registration.player,
                name=form.cleaned_data["name"],
                nickname=form.cleaned_data["nickname"],
                email=form.cleaned_data["email"],
                actor=request.user,
                expected_version=form.expected_version,
            )
        except StaleEditError:
            registration = _registration(tournament, pk)
            form.refuse_stale(PlayerEditForm(tournament=tournament, player=registration.player))
        except PeopleError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("%(name)s saved.") % {"name": player.display_name})
            return redirect("tournaments:organiser_player", slug=tournament.slug, pk=pk)
    return _page(request, tournament, registration, form=form, status=form_status(form))


@organiser_required
@require_POST
def player_preferences(
    request: AccountHttpRequest, tournament: Tournament, pk: int
) -> HttpResponse:
    """The organiser enters or corrects a player's squad preferences (RULES §3: the player
    hands them in on paper), until a squad is drawn for them."""
    registration = _registration(tournament, pk)
    player = registration.player
    context, status = preferences_editing(player, tournament, request.POST, actor=request.user)
    if status is None:
        messages.success(request, staff_saved_message(player, context))
        return redirect("tournaments:organiser_player", slug=tournament.slug, pk=pk)
    if context["locked"]:
        messages.error(request, preferences_locked_reason(player))
    return _page(request, tournament, registration, preferences=context, status=status)


@organiser_required
@require_POST
def player_private_link(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """A new private link for the player, when the old one leaked."""
    player = renew_private_link(
        tournament, _registration(tournament, pk).player, actor=request.user
    )
    messages.success(
        request,
        _(
            "%(name)s has a new private link; the old one no longer works, in any browser. "
            "Send them the new one."
        )
        % {"name": player.display_name},
    )
    return redirect_to_section(
        "tournaments:organiser_player", "private-link", slug=tournament.slug, pk=pk
    )


@organiser_required
@require_POST
def player_withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = _registration(tournament, pk)
    player = registration.player
    form = WithdrawForm(request.POST, candidates=reserve_candidates(tournament, player))
    if form.is_valid():
        try:
            done = withdraw_player(
                tournament,
                player,
                reason=form.cleaned_data["reason"],
                reserve=form.cleaned_data["reserve"],
                actor=request.user,
            )
        except PeopleError as error:
            form.add_error(None, str(error))
        else:
            if done.replaced:
                text = _("%(name)s withdrew; %(reserve)s takes the seat.") % {
                    "name": player.display_name,
                    "reserve": form.cleaned_data["reserve"].display_name,
                }
            elif done.forfeited:
                text = _("%(name)s withdrew and forfeits the sessions still to play.") % {
                    "name": player.display_name
                }
            else:
                text = _("%(name)s withdrew.") % {"name": player.display_name}
            messages.success(request, text)
            return redirect("tournaments:organiser_player", slug=tournament.slug, pk=pk)
    return _page(request, tournament, registration, withdraw_form=form, status=400)


def _staff_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    judge_form: StaffForm | None = None,
    organiser_form: StaffForm | None = None,
) -> HttpResponse:
    """The judges and organisers page, with the form that was sent and refused if any."""
    return render(
        request,
        "organiser/judges.html",
        {
            "tournament": tournament,
            "form": judge_form or StaffForm(),
            "organiser_form": organiser_form or StaffForm(prefix="organiser"),
            "judges": labelled_staff(tournament.judges.order_by("username")),
            "organisers": labelled_staff(tournament.organisers.order_by("username")),
            "otab": "judges",
        },
        status=400 if judge_form or organiser_form else 200,
    )


def _add_staff(
    request: AccountHttpRequest,
    tournament: Tournament,
    form: StaffForm,
    add: Callable[..., Any],
    said: str,
    section: str,
) -> HttpResponse | None:
    """Make the account ``form`` names a judge or an organiser with ``add`` and say so
    (``said``); the page to go back to (at its part ``section``), or None when the form
    holds why not."""
    if not form.is_valid():
        return None
    try:
        user = add(
            tournament,
            form.cleaned_data["username"],
            form.cleaned_data["password"],
            actor=request.user,
        )
    except StaffError as error:
        form.add_error("username", str(error))
        return None
    name = user.get_username()
    if not user.has_usable_password():
        # A new account created without a password (or an imported one): the link for its
        # owner to set one, straight away.
        try:
            link = issue_password_link(tournament, user, actor=request.user)
        except PasswordLinkError:
            pass  # a role in a tournament this organiser does not run: no link from here
        else:
            no_password = _(
                "The account %(name)s has no password yet: give them this one-time link to "
                "set their own."
            )
            messages.success(request, f"{said} {no_password}" % {"name": name})
            return _password_link_page(request, tournament, user, link, back="judges")
    messages.success(request, said % {"name": name})
    return redirect_to_section("tournaments:organiser_judges", section, slug=tournament.slug)


@organiser_required
@require_http_methods(["GET", "POST"])
def judges(request: AccountHttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method != "POST":
        return _staff_page(request, tournament)
    form = StaffForm(request.POST)
    said = _("%(name)s is now a judge of this tournament.")
    added = _add_staff(request, tournament, form, add_judge, said, "judges")
    return added or _staff_page(request, tournament, judge_form=form)


def _remove_staff(
    request: HttpRequest, tournament: Tournament, pk: int, remove: Callable[..., None], said: str
) -> bool:
    """Take the account ``pk`` off the tournament's judges or organisers with ``remove``
    and say so (``said``), or say why not; whether it was."""
    user = get_object_or_404(get_user_model(), pk=pk)
    try:
        remove(tournament, user, actor=request.user)
    except StaffError as error:
        messages.error(request, str(error))
        return False
    messages.success(request, said % {"name": user.get_username()})
    return True


@organiser_required
@require_POST
def judge_remove(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    said = _("%(name)s no longer judges this tournament; their sessions need a judge.")
    _remove_staff(request, tournament, pk, remove_judge, said)
    return redirect_to_section("tournaments:organiser_judges", "judges", slug=tournament.slug)


@organiser_required
@require_POST
def organiser_add(request: AccountHttpRequest, tournament: Tournament) -> HttpResponse:
    form = StaffForm(request.POST, prefix="organiser")
    said = _("%(name)s now organises this tournament too.")
    added = _add_staff(request, tournament, form, add_organiser, said, "organisers")
    return added or _staff_page(request, tournament, organiser_form=form)


@organiser_required
@require_POST
def organiser_remove(request: AccountHttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Another organiser, or oneself (then the organiser's home: these pages are not
    theirs any more)."""
    said = _("%(name)s no longer organises this tournament.")
    if _remove_staff(request, tournament, pk, remove_organiser, said) and not is_organiser(
        request.user, tournament
    ):
        return redirect("tournaments:organiser_home")
    return redirect_to_section("tournaments:organiser_judges", "organisers", slug=tournament.slug)


#: The organiser pages a password link is asked for from, and the one its page leads back to.
_PEOPLE_PAGES = {
    "players": "tournaments:organiser_players",
    "judges": "tournaments:organiser_judges",
}


@organiser_required
@require_POST
def account_password_link(
    request: AccountHttpRequest, tournament: Tournament, pk: int
) -> HttpResponse:
    """A one-time link for the account ``pk`` (a judge, an organiser or a player's account
    of this tournament) to set its password, shown once to hand over; or why not."""
    user = get_object_or_404(get_user_model(), pk=pk)
    back = request.POST.get("from", "")
    try:
        link = issue_password_link(tournament, user, actor=request.user)
    except NoRoleHere:
        raise Http404 from None
    except PasswordLinkError as error:
        return _password_link_page(request, tournament, user, error, back=back)
    return _password_link_page(request, tournament, user, link, back=back)


def _password_link_page(
    request: HttpRequest,
    tournament: Tournament,
    user: Any,
    link: PasswordLink | PasswordLinkError,
    *,
    back: str,
) -> HttpResponse:
    """The page showing an issued ``link`` once, to hand over, or why there is none; its
    way back leads to the page it was asked from (``back``: a key of ``_PEOPLE_PAGES``)."""
    context = {
        "tournament": tournament,
        "account": user,
        "back": _PEOPLE_PAGES.get(back, _PEOPLE_PAGES["judges"]),
        "otab": "judges",
    }
    if isinstance(link, PasswordLinkError):
        return render(
            request, "organiser/password_link.html", {**context, "refusal": link}, status=403
        )
    context.update({"link": request.build_absolute_uri(link.path), "expires_at": link.expires_at})
    return render(request, "organiser/password_link.html", context)
