"""Player pages: their games, squad preferences, loadouts, history and calendar feed; the
squad preferences form the organiser's and the judge's pages share with the player's."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.player_accounts import create_player_account
from tournaments.actions.player_choices import (
    ChoiceLocked,
    preferences_locked,
    remember_language,
    save_loadout,
    save_preferences,
)
from tournaments.actions.result_disputes import CLOSED_STAGE, DisputeError, flag_dispute
from tournaments.forms.loadout import LoadoutForm
from tournaments.forms.player import PlayerAccountForm, PreferenceForm
from tournaments.forms.venue import DisputeForm
from tournaments.models import (
    Honour,
    Player,
    Registration,
    ResultDispute,
    Seat,
    Session,
    Squad,
    SquadPreference,
    SquadRank,
    Stage,
    Tournament,
)
from tournaments.queries.calendar import feed_calendar
from tournaments.queries.dispute_lists import open_dispute, player_disputes, session_disputes
from tournaments.queries.live_honours import pending_honours
from tournaments.queries.loadout_checks import loadout_lock_reason, loadout_lock_reasons
from tournaments.queries.pages import tournament_sessions
from tournaments.queries.player_overview import next_games
from tournaments.queries.result_versions import (
    latest_confirmed_versions,
    latest_corrections,
    scored_rows,
    scoring_values,
    seat_names,
    version_totals,
)
from tournaments.queries.roles import AccountPlayer, account_players
from tournaments.queries.tournament_catalogue import squad_names, tournament_catalogue
from tournaments.sheets.seats import loadout_checks
from tournaments.web.permissions import player_required, public, remember_player


def _other_account_players(request: HttpRequest, player: Player) -> list[AccountPlayer]:
    """The account's players in other tournaments, offered by the switcher on player pages
    (only when the browser speaks for one of the logged-in account's own players)."""
    if not request.user.is_authenticated or player.user_id != request.user.pk:
        return []
    return [entry for entry in account_players(request.user) if entry.player.pk != player.pk]


def _render_player_page(
    request: HttpRequest, player: Player, template: str, context: dict, status: int = 200
) -> HttpResponse:
    """Render a player page with the switcher to the account's other tournaments."""
    context = {
        **context,
        "player": player,
        "other_players": _other_account_players(request, player),
    }
    return render(request, template, context, status=status)


def _player_seats(player: Player) -> list[Seat]:
    return list(
        Seat.objects.filter(player=player)
        .select_related("session__stage__tournament", "session__judge", "session__table", "squad")
        .order_by("session__scheduled_at", "session__stage__number", "session__number")
    )


@player_required
@require_GET
def player_home(request: HttpRequest, player: Player) -> HttpResponse:
    remember_language(player, translation.get_language())  # the language of their mails
    seats = _player_seats(player)
    versions = latest_confirmed_versions([seat.session for seat in seats])
    disputes: dict[int, ResultDispute] = {}
    for dispute in player_disputes(player):  # the latest first: each session's latest
        disputes.setdefault(dispute.session_id, dispute)
    corrections = latest_corrections(versions)
    upcoming, history = [], []
    for seat in seats:
        version = versions.get(seat.session_id)
        if version is None:
            upcoming.append(seat)
            continue
        values = scoring_values(seat.session.stage.tournament)
        history.append(
            {
                "seat": seat,
                "points": version_totals(version, values).get(player.pk),
                "place": version.positions().get(player.pk),
                "dispute": disputes.get(seat.session_id),
                "correction": corrections.get(seat.session_id),
            }
        )
    registrations = Registration.objects.filter(player=player).select_related("tournament")
    names = {
        (squad.tournament_id, squad.slug): squad.name
        for squad in Squad.objects.filter(tournament__registrations__player=player)
    }
    preferences = {
        row.tournament_id: [names.get((row.tournament_id, slug), slug) for slug in row.choices]
        for row in SquadPreference.objects.filter(player=player, stage__isnull=True)
    }
    locks = loadout_lock_reasons(seat.pk for seat in upcoming)
    return _render_player_page(
        request,
        player,
        "player/home.html",
        {
            "registrations": [(r, preferences.get(r.tournament_id)) for r in registrations],
            "upcoming": upcoming,
            "locked_seats": locks,
            "history": history,
            "honours": Honour.objects.filter(player=player).select_related(
                "squad", "session__stage__tournament"
            ),
            "ranks": SquadRank.objects.filter(player=player).select_related("tournament", "squad"),
            "pending_honours": [
                (registration.tournament, honour)
                for registration in registrations
                for honour in pending_honours(registration.tournament)
                if honour.player_id == player.pk
            ],
            "next_games": next_games(player, locks),
            "calendar_url": request.build_absolute_uri(
                reverse("tournaments:player_calendar", args=[player.access_token])
                + "?"
                + urlencode({"lang": translation.get_language()})
            ),
        },
    )


def _kept_preferences(
    player: Player, tournament: Tournament, current: SquadPreference | None
) -> dict[str, Any]:
    """What is shown instead of the form once a squad is drawn for the player: their choices
    in order (by squad name) and the squad the draw gave them."""
    names = squad_names(tournament)
    drawn = (
        Seat.objects.filter(
            player=player, session__stage__tournament=tournament, squad__isnull=False
        )
        .select_related("squad")
        .order_by("session__stage__number")
        .first()
    )
    return {
        "kept": [names.get(slug, slug) for slug in (current.choices if current else [])],
        "drawn_squad": drawn.squad if drawn else None,
    }


def _stored_preferences(player: Player, tournament: Tournament) -> SquadPreference | None:
    return SquadPreference.objects.filter(
        player=player, tournament=tournament, stage__isnull=True
    ).first()


def preferences_editing(
    player: Player,
    tournament: Tournament,
    data: QueryDict | None = None,
    *,
    actor: AbstractBaseUser | AnonymousUser | None = None,
    stage: Stage | None = None,
) -> tuple[dict[str, Any], int | None]:
    """The squad preferences of ``player`` as a page shows them — their own page, the
    organiser's player page, the judge's — and, with posted ``data``, saved by ``actor``
    through the one action: the page's context and its status, or None for the status when
    saved (the caller says so, :func:`staff_saved_message`, and redirects; the context's
    ``outcome`` says whether the list was ``saved``, ``cleared`` or left ``unchanged``).
    Once a squad is drawn for the player the context holds the list kept instead of a form
    (``locked``), with 409 for a post. ``stage``: the stage whose draw the list is entered
    for (the judge's), whose own list for the player refuses the save: the action's
    :class:`~tournaments.actions.player_choices.StageListKept` is left to the caller."""
    current = _stored_preferences(player, tournament)
    if preferences_locked(player, tournament):
        kept = _kept_preferences(player, tournament, current)
        return {"locked": True, **kept}, 200 if data is None else 409
    choices = current.choices if current else []
    form = PreferenceForm(data, tournament=tournament, current=choices)
    if data is None:
        return {"locked": False, "form": form}, 200
    if not form.is_valid():
        return {"locked": False, "form": form}, 400
    choices = form.cleaned_data["choices"]
    try:
        changed = save_preferences(
            player,
            tournament,
            choices,
            actor=actor,
            expected_version=form.expected_version,
            stage=stage,
        )
    except ChoiceLocked:  # the draw happened while the form was open
        return {"locked": True, **_kept_preferences(player, tournament, current)}, 409
    except StaleEditError:
        stored = _stored_preferences(player, tournament)
        form.refuse_stale(
            PreferenceForm(tournament=tournament, current=stored.choices if stored else [])
        )
        return {"locked": False, "form": form}, 409
    return {"outcome": ("saved" if choices else "cleared") if changed else "unchanged"}, None


def staff_saved_message(player: Player, context: dict[str, Any]) -> str:
    """What the organiser's and the judge's page say once :func:`preferences_editing` saved
    the list of ``player`` (its ``context``)."""
    said = {
        "saved": _("The squad preferences of %(name)s are saved."),
        "cleared": _("The squad preferences of %(name)s are cleared."),
        "unchanged": _("The squad preferences of %(name)s are unchanged."),
    }
    return said[context["outcome"]] % {"name": player.display_name}


@player_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest, player: Player, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not Registration.objects.filter(tournament=tournament, player=player).exists():
        raise Http404(_("You are not registered in this tournament."))
    # The player's own account when they are logged in with it (not by their link).
    own = request.user.is_authenticated and request.user.pk == player.user_id
    context, status = preferences_editing(
        player,
        tournament,
        request.POST if request.method == "POST" else None,
        actor=request.user if own else None,
    )
    if status is None:
        said = {
            "saved": _("Your squad preferences are saved."),
            "cleared": _("Your squad preferences are cleared."),
            "unchanged": _("Your squad preferences are unchanged."),
        }
        messages.success(request, said[context["outcome"]])
        return redirect("tournaments:player_home")
    if context["locked"] and status == 409:
        messages.error(request, _("Your squad is already drawn; preferences can no longer change."))
    return _render_player_page(
        request,
        player,
        "player/preferences.html",
        {"tournament": tournament, **context},
        status=status,
    )


@public
@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """All the player's scheduled sessions as one iCalendar feed (the link is the secret),
    in the language of its ``lang`` parameter (the page's language when the link was
    copied; without it, the request's), each event linking its session's public page."""
    player = get_object_or_404(Player, access_token=token)
    language = request.GET.get("lang", "") or translation.get_language()
    if language not in dict(settings.LANGUAGES):
        choices = get_text_list([f"lang={code}" for code, _name in settings.LANGUAGES], _("or"))
        return HttpResponseBadRequest(
            _("Unknown calendar language %(lang)r: use %(choices)s.")
            % {"lang": language, "choices": choices},
            content_type="text/plain; charset=utf-8",
        )

    def url_of(session: Session) -> str:
        return request.build_absolute_uri(
            reverse("tournaments:session", args=[session.stage.tournament.slug, session.pk])
        )

    with translation.override(language):
        body = feed_calendar(
            [seat.session for seat in _player_seats(player)],
            stamp=timezone.now(),
            url_of=url_of,
        )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="bob-schedule.ics"'
    return response


def _seat_for(player: Player, seat_pk: int) -> Seat:
    return get_object_or_404(
        Seat.objects.select_related("session__stage__tournament", "squad", "player"),
        pk=seat_pk,
        player=player,
    )


def _locked_loadout(
    request: HttpRequest, player: Player, seat: Seat, reason: str, context: dict[str, Any]
) -> HttpResponse:
    """The loadout of ``seat`` read-only, with why it can no longer change (409 for a save
    refused)."""
    [check] = loadout_checks(seat.session, [seat])
    refused = request.method == "POST"
    context.update({"locked": reason, "check": check, "refused": refused})
    return _render_player_page(
        request, player, "player/loadout.html", context, status=409 if refused else 200
    )


@player_required
@require_http_methods(["GET", "POST"])
def loadout(request: HttpRequest, player: Player, seat: int) -> HttpResponse:
    seat_obj = _seat_for(player, seat)
    context: dict[str, Any] = {"player": player, "seat": seat_obj, "session": seat_obj.session}
    if seat_obj.squad is None:
        context["waiting"] = True
        return _render_player_page(request, player, "player/loadout.html", context)
    reason = loadout_lock_reason(seat_obj)
    if reason:
        return _locked_loadout(request, player, seat_obj, reason, context)
    catalogue = tournament_catalogue(seat_obj.session.stage.tournament)
    form = LoadoutForm(
        request.POST or None,
        initial=LoadoutForm.initial_for(seat_obj),
        seat=seat_obj,
        catalogue=catalogue,
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                save_loadout(seat_obj, form.loadout())
            except ChoiceLocked as error:  # the session began while the form was open
                return _locked_loadout(request, player, seat_obj, str(error), context)
            messages.success(request, _("Your loadout is saved and valid."))
            return redirect("tournaments:player_home")
        status = 400
    context["form"] = form
    return _render_player_page(request, player, "player/loadout.html", context, status=status)


@player_required
@require_POST
def loadout_check(request: HttpRequest, player: Player, seat: int) -> HttpResponse:
    """Live validation while the player chooses (htmx); nothing is saved."""
    seat_obj = _seat_for(player, seat)
    if seat_obj.squad is None:
        return render(request, "player/partials/loadout_problems.html", {"waiting": True})
    form = LoadoutForm(
        request.POST,
        seat=seat_obj,
        catalogue=tournament_catalogue(seat_obj.session.stage.tournament),
    )
    return render(request, "player/partials/loadout_problems.html", {"form": form})


@player_required
@require_http_methods(["GET", "POST"])
def dispute(request: HttpRequest, player: Player, pk: int) -> HttpResponse:
    """Flag the confirmed result of one of the player's sessions to the organiser."""
    seat = get_object_or_404(
        Seat.objects.select_related("session__stage__tournament", "squad"),
        session_id=pk,
        player=player,
    )
    form = DisputeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                flag_dispute(player, seat.session, form.cleaned_data["reason"])
            except DisputeError as error:
                form.add_error(None, str(error))
                status = 409
            else:
                messages.success(
                    request, _("Your dispute is sent to the organiser, who will answer it.")
                )
                return redirect("tournaments:player_home")
    tournament = seat.session.stage.tournament
    [entry] = tournament_sessions(tournament, Q(pk=seat.session_id))
    context = {
        "seat": seat,
        "session": seat.session,
        "entry": entry,
        # The points of the result the player contests, line by line, and its correction.
        "breakdown": (
            scored_rows(entry.version, seat_names(entry.session), tournament)
            if entry.version
            else None
        ),
        "correction": latest_corrections([seat.session_id]).get(seat.session_id),
        "disputes": session_disputes(player, seat.session),
        "form": form,
        # The form only when it can be sent: a confirmed result, no dispute unanswered,
        # the stage still open.
        "pending": open_dispute(player, seat.session),
        "closed_stage": CLOSED_STAGE if not seat.session.stage.is_open else "",
    }
    return _render_player_page(request, player, "player/dispute.html", context, status=status)


@player_required
@require_http_methods(["GET", "POST"])
def player_account(request: HttpRequest, player: Player) -> HttpResponse:
    """Create a log-in for the player, so they can use any device without the link."""
    if player.user_id is not None:
        return _render_player_page(request, player, "player/account.html", {"has_account": True})
    form = PlayerAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = create_player_account(player, form.save(commit=False))
        login(request, user)
        remember_player(request, player, via_account=True)
        messages.success(request, _("Your account is ready; log in with it on any device."))
        return redirect("tournaments:player_home")
    return _render_player_page(
        request,
        player,
        "player/account.html",
        {"form": form},
        status=400 if form.errors else 200,
    )


@player_required
@require_POST
def player_switch(request: HttpRequest, player: Player) -> HttpResponse:
    """Switch this browser to another player of the logged-in account (another tournament)."""
    wanted = request.POST.get("player", "")
    chosen = next(
        (e.player for e in _other_account_players(request, player) if str(e.player.pk) == wanted),
        None,
    )
    if chosen is None:
        messages.error(
            request,
            _(
                "You can switch only to another tournament where your account plays; "
                "choose one from the list."
            ),
        )
        return redirect("tournaments:player_home")
    remember_player(request, chosen, via_account=True)
    messages.success(
        request,
        _("You now see the games of %(name)s.") % {"name": chosen.display_name},
    )
    return redirect("tournaments:player_home")
