"""Organiser pages: create and configure a tournament, players, judges, stages, schedule."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from rules.engine.dice import DiceError, seed_commitment
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.player_accounts import AccountLinkError, link_account, unlink_account
from tournaments.actions.registration import (
    RegistrationClosed,
    register_player,
    register_roster,
)
from tournaments.actions.result_disputes import DisputeError, resolve_dispute
from tournaments.actions.result_entry import RecordedResult
from tournaments.actions.scheduling import schedule_session
from tournaments.actions.stage_advance import (
    DiceRefused,
    MissingResultsError,
    StageError,
    advance,
    seat_first_stage,
)
from tournaments.actions.tournament_setup import (
    create_tournament,
    reopen_advice,
    update_tournament,
)
from tournaments.domain.progression import ProgressionError
from tournaments.forms.judge import RollOffForm
from tournaments.forms.organiser import (
    AccountLinkForm,
    PlayerForm,
    RosterUploadForm,
    ScheduleChoices,
    ScheduleForm,
    TournamentForm,
)
from tournaments.interchange.roster import (
    already_registered_note,
    parse_roster_for,
    squad_list,
    tournament_squads,
)
from tournaments.models import (
    DisputeStatus,
    Registration,
    Session,
    StaleSessionError,
    Tournament,
)
from tournaments.queries.activity_actors import entry_actors
from tournaments.queries.dice_needed import AdvanceDice, listed_dice
from tournaments.queries.dice_subjects import registered_player_names
from tournaments.queries.dispute_lists import asked_dispute
from tournaments.queries.pages import SessionLines, schedule_sessions
from tournaments.queries.player_list import (
    PLAYERS_PAGE_SIZE,
    SEARCH_ABOVE,
    page_of,
    registrations,
)
from tournaments.queries.player_profile import has_started
from tournaments.queries.schedule_clashes import ScheduleBook
from tournaments.queries.schedule_pages import (
    SCHEDULE_PAGE_SIZE,
    schedule_page_of,
    schedule_session_ids,
)
from tournaments.queries.stage_checklist import first_stage_warning
from tournaments.queries.stage_plan import tournament_plan
from tournaments.views.judge import edit_result
from tournaments.views.organiser_stages import shown_start_dice, stage_control
from tournaments.web.dice_choice import dice_from_form, forget_seed, pending_seed
from tournaments.web.form_status import form_status
from tournaments.web.notice_words import players_told
from tournaments.web.paging import page_links
from tournaments.web.permissions import creator_required, login_required, organiser_required
from tournaments.web.request_types import AccountHttpRequest, HtmxHttpRequest


@login_required
@require_http_methods(["GET"])
def organiser_home(request: AccountHttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.annotate(player_count=Count("registrations"))
    if not request.user.is_superuser:
        tournaments = tournaments.filter(organisers=request.user)
    return render(request, "organiser/home.html", {"tournaments": tournaments})


@creator_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = create_tournament(form.save(commit=False), organiser=request.user)
        messages.success(request, _("Tournament created. Now register the players."))
        return redirect("tournaments:organiser_players", slug=tournament.slug)
    return render(
        request, "organiser/tournament_form.html", {"form": form}, status=form_status(form)
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = update_tournament(
                form.save(commit=False),
                actor=request.user,
                expected_version=form.expected_version,
            )
        except StaleEditError:
            # The form's instance holds this post's values: the page shows what is stored.
            tournament = Tournament.objects.get(pk=tournament.pk)
            form.refuse_stale(TournamentForm(instance=tournament))
        else:
            messages.success(request, _("Tournament saved."))
            return redirect("tournaments:organiser_dashboard", slug=tournament.slug)
    return _dashboard(request, tournament, form)


def _dashboard(
    request: HttpRequest,
    tournament: Tournament,
    form,
    start_form=None,
    advance_form=None,
    missing=(),
    advance_dice: AdvanceDice | None = None,
) -> HttpResponse:
    planned = tournament_plan(tournament)
    context = {
        "plan": planned.plan,
        "tournament": tournament,
        "form": form,
        "stages": planned.stages,
        "player_count": planned.registered,
        "recent": entry_actors(list(tournament.activity.select_related("actor")[:8])),
        "missing": missing,
        "otab": "dashboard",
    }
    if not has_started(tournament):  # stages may be prepared before stage 1 is seated
        context["start_form"] = start_form or RollOffForm(initial={"version": 0}, prefix="start")
        context["start_warning"] = first_stage_warning(tournament)
        context["start_commitment"] = seed_commitment(pending_seed(request, tournament, "start"))
        context["start_dice"] = shown_start_dice(tournament, context["start_form"])
    else:
        context.update(
            stage_control(
                request,
                tournament,
                tournament.current_stage(),
                advance_form=advance_form,
                advance_dice=advance_dice,
            )
        )
        if advance_form is not None and advance_form.errors:  # a refused close stays in view
            context["advance_form"] = advance_form
            context["advance_commitment"] = seed_commitment(
                pending_seed(request, tournament, "advance")
            )
    refused = any(f is not None and f.errors for f in (start_form, advance_form))
    return render(
        request,
        "organiser/dashboard.html",
        context,
        status=400 if refused else form_status(form),
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayerForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            player = register_player(tournament, form.details(), actor=request.user)
        except RegistrationClosed as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("%(name)s registered.") % {"name": player.name})
            return redirect(_player_row_url(tournament, player.pk))
    return render(
        request,
        "organiser/players.html",
        _players_context(request, tournament, form, RosterUploadForm()),
        status=form_status(form),
    )


def _players_context(
    request, tournament, form, upload_form, roster_errors=(), link_form=None
) -> dict:
    """The players page: one page of the registered players (those the organiser searched
    for, ``?q=``), or the page of the player whose account link was refused."""
    search = "" if link_form is not None else request.GET.get("q", "").strip()
    number = (
        page_of(tournament, link_form.player.pk)
        if link_form is not None
        else request.GET.get("page")
    )
    page = Paginator(registrations(tournament, search), PLAYERS_PAGE_SIZE).get_page(number)
    previous, following = page_links(request, page)
    # Unless a search narrowed it, the list paged is the whole one: its count is the total.
    total = (
        Registration.objects.filter(tournament=tournament).count()
        if search
        else page.paginator.count
    )
    squads = tournament_squads(tournament)
    rows = [
        (
            registration,
            link_form
            if link_form is not None and link_form.player.pk == registration.player_id
            else AccountLinkForm(tournament=tournament, player=registration.player),
        )
        for registration in page.object_list
    ]
    return {
        "tournament": tournament,
        "form": form,
        "upload_form": upload_form,
        "total": total,
        "searchable": total > SEARCH_ABOVE or bool(search),
        "search": search,
        "page": page,
        "previous": previous,
        "next": following,
        "rows": rows,
        "roster_errors": roster_errors,
        # What the roster's help says a preference cell may hold, and how many there are.
        "roster_squads": squad_list(squads),
        "roster_preferences": len(squads),
        "started": has_started(tournament),
        "link_base": request.build_absolute_uri("/p/"),
        "otab": "players",
    }


@organiser_required
@require_POST
def player_account_link(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Link an existing user account to a player, so logging in opens the player's pages."""
    registration = get_object_or_404(
        Registration.objects.select_related("player__user"), tournament=tournament, player_id=pk
    )
    player = registration.player
    form = AccountLinkForm(request.POST, tournament=tournament, player=player)
    if form.is_valid():
        user = form.cleaned_data["account"]
        try:
            link_account(tournament, player, user, actor=request.user)
        except AccountLinkError as error:
            form.add_error("account", str(error))
        else:
            messages.success(
                request,
                _("%(user)s is now linked to %(player)s: logging in opens the player's pages.")
                % {"user": user, "player": player},
            )
            return redirect(_player_row_url(tournament, player.pk))
    context = _players_context(
        request,
        tournament,
        PlayerForm(tournament=tournament),
        RosterUploadForm(),
        link_form=form,
    )
    return render(request, "organiser/players.html", context, status=400)


@organiser_required
@require_POST
def player_account_unlink(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, player_id=pk
    )
    if unlink_account(tournament, registration.player, actor=request.user):
        messages.success(
            request,
            _("%(player)s is no longer linked to an account; the private link still works.")
            % {"player": registration.player},
        )
    else:
        messages.info(
            request, _("%(player)s had no linked account.") % {"player": registration.player}
        )
    return redirect(_player_row_url(tournament, pk))


def _player_row_url(tournament: Tournament, player_pk: int) -> str:
    """The players page at the player's row (on the page of the list that holds it)."""
    number = page_of(tournament, player_pk)
    query = f"?page={number}" if number > 1 else ""
    url = reverse("tournaments:organiser_players", args=[tournament.slug])
    return f"{url}{query}#player-{player_pk}"


@organiser_required
@require_POST
def roster_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    upload_form = RosterUploadForm(request.POST, request.FILES)
    errors: list = []
    if upload_form.is_valid():
        # Squads by slug, English or Italian name, as the import command reads them.
        result = parse_roster_for(tournament, upload_form.cleaned_data["file"].read())
        if result.ok:
            try:
                register_roster(tournament, result.rows, actor=request.user)
            except RegistrationClosed as error:
                upload_form.add_error(None, str(error))
            else:
                registered = ngettext(
                    "%(count)d player registered from the file.",
                    "%(count)d players registered from the file.",
                    len(result.rows),
                ) % {"count": len(result.rows)}
                note = already_registered_note(result)
                messages.success(request, " ".join(filter(None, [registered, note])))
                return redirect("tournaments:organiser_players", slug=tournament.slug)
        errors = result.errors
    context = _players_context(
        request, tournament, PlayerForm(tournament=tournament), upload_form, errors
    )
    return render(request, "organiser/players.html", context, status=400)


def _closed_advice(entry: SessionLines, known: dict[int, str]) -> str:
    """For a session with a result in a closed stage: how the organiser reopens the stage
    to correct it, or why it no longer can (decision 38), as the result page says it;
    ``known`` keeps each stage's, asked once. Empty otherwise."""
    stage = entry.session.stage
    if not entry.has_result or stage.is_open:
        return ""
    if stage.pk not in known:
        known[stage.pk] = reopen_advice(stage)
    return known[stage.pk]


@organiser_required
@require_http_methods(["GET"])
def schedule(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    page = Paginator(schedule_session_ids(tournament), SCHEDULE_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    previous, following = page_links(request, page)
    entries = schedule_sessions(tournament, Q(pk__in=list(page.object_list)))
    choices = ScheduleChoices.of(tournament)
    advice: dict[int, str] = {}
    rows = [
        (
            entry,
            _schedule_form(tournament, entry.session, choices=choices),
            _closed_advice(entry, advice),
        )
        for entry in entries
    ]
    return render(
        request,
        "organiser/schedule.html",
        {
            "tournament": tournament,
            "rows": rows,
            "page": page,
            "previous": previous,
            "next": following,
            "otab": "schedule",
        },
    )


def schedule_row_url(tournament: Tournament, session: Session) -> str:
    """The organiser's schedule at ``session``'s form, on the page that lists it."""
    number = schedule_page_of(session)
    query = f"?page={number}" if number > 1 else ""
    url = reverse("tournaments:organiser_schedule", args=[tournament.slug])
    return f"{url}{query}#schedule-{session.pk}"


def _schedule_form(
    tournament: Tournament,
    session: Session,
    data=None,
    choices: ScheduleChoices | None = None,
) -> ScheduleForm:
    initial = {
        "scheduled_at": session.scheduled_at,
        "table": session.table,
        "judge": session.judge_id,
        "version": session.version,
    }
    return ScheduleForm(
        data,
        initial=initial,
        prefix=f"s{session.pk}",
        tournament=tournament,
        session=session,
        choices=choices,
    )


@organiser_required
@require_POST
def session_schedule(request: HtmxHttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    session = get_object_or_404(Session, pk=pk, stage__tournament=tournament)
    form = _schedule_form(tournament, session, request.POST)
    warnings: list[str] = []
    if form.is_valid() and request.POST.get("confirm") != "1":
        book = ScheduleBook.of(tournament)
        data = form.cleaned_data
        placement = book.placement(session, data["scheduled_at"], data["table"], data["judge"])
        warnings = book.warnings(placement)
    if form.is_valid() and not warnings:
        try:
            schedule_session(
                session,
                when=form.cleaned_data["scheduled_at"],
                table=form.cleaned_data["table"],
                judge=form.cleaned_data["judge"],
                actor=request.user,
                expected_version=form.cleaned_data["version"],
            )
        except StaleSessionError:
            form.add_error(
                None,
                _(
                    "Someone changed this session while you were editing it; the form now "
                    "shows your values — check the current schedule below and save again."
                ),
            )
            session.refresh_from_db()
            data = request.POST.copy()  # the form's data, now with the current version
            data[form.add_prefix("version")] = str(session.version)
            form.data = data
        else:
            if request.htmx:
                entry = schedule_sessions(tournament, Q(pk=session.pk))[0]
                return render(
                    request,
                    "organiser/partials/schedule_row.html",
                    {
                        "tournament": tournament,
                        "entry": entry,
                        "form": _schedule_form(tournament, entry.session),
                        "closed_advice": _closed_advice(entry, {}),
                        "saved": True,
                    },
                )
            messages.success(request, f"{_('Session scheduled.')} {players_told()}")
            return redirect(schedule_row_url(tournament, session))
    entry = schedule_sessions(tournament, Q(pk=session.pk))[0]
    return render(
        request,
        "organiser/partials/schedule_row.html" if request.htmx else "organiser/schedule_one.html",
        {
            "tournament": tournament,
            "entry": entry,
            "form": form,
            "closed_advice": _closed_advice(entry, {}),
            "warnings": warnings,
            "otab": "schedule",
        },
        status=200 if request.htmx else (409 if warnings else 400),
    )


@organiser_required
@require_POST
def start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Seat the first stage from the registrations; the judges draw squads at the tables."""
    form = RollOffForm(request.POST, prefix="start")
    if form.is_valid():
        dice = dice_from_form(
            request, form, tournament, "start", registered_player_names(tournament)
        )
        try:
            seat_first_stage(tournament, dice, actor=request.user)
        except (StageError, DiceError, ProgressionError) as error:
            form.add_error(None, str(error))
        else:
            forget_seed(request, tournament, "start")
            messages.success(request, _("The first stage is seated. Now schedule its sessions."))
            return redirect("tournaments:organiser_schedule", slug=tournament.slug)
    return _dashboard(request, tournament, TournamentForm(instance=tournament), start_form=form)


@organiser_required
@require_POST
def advance_stage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Close the open stage (honours, qualifiers) and seat the next one, or finish."""
    form = RollOffForm(request.POST, prefix="advance")
    missing: list = []
    listed: AdvanceDice | None = None  # the dice a refused close named, listed again
    if form.is_valid():
        players = registered_player_names(tournament)
        dice = dice_from_form(request, form, tournament, "advance", players)
        try:
            report = advance(tournament, dice, actor=request.user)
        except MissingResultsError as error:
            missing = error.sessions
            form.add_error(None, str(error))
        except DiceRefused as error:
            listed = listed_dice(tournament, error.ahead, players)
            form.add_error(None, str(error))
        except (StageError, DiceError, ProgressionError) as error:
            form.add_error(None, str(error))
        else:
            forget_seed(request, tournament, "advance")
            if report["action"] == "finished":
                messages.success(request, _("The final is closed: the podium is published."))
            else:
                messages.success(request, _("Stage closed; the next stage is seated."))
            return redirect("tournaments:organiser_dashboard", slug=tournament.slug)
    return _dashboard(
        request,
        tournament,
        TournamentForm(instance=tournament),
        advance_form=form,
        missing=missing,
        advance_dice=listed,
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def result_correct(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Correct a session's result: a new confirmed version that records why. Opened from a
    player's dispute (``?dispute=<id>``, the Venue page's link), the saved correction
    answers that dispute ("corrected", the correction's reason as the player's note) and
    the organiser is back on the Venue page."""
    session = get_object_or_404(
        Session.objects.select_related("stage__tournament", "judge"),
        pk=pk,
        stage__tournament=tournament,
    )
    dispute = asked_dispute(session, request.GET.get("dispute", ""))
    if dispute is None:
        return edit_result(
            request,
            session,
            correction=True,
            done_url=reverse("tournaments:organiser_schedule", args=[tournament.slug])
            + f"#schedule-{session.pk}",
        )

    def answer(recorded: RecordedResult) -> None:
        try:
            resolve_dispute(
                dispute,
                outcome=DisputeStatus.CORRECTED,
                note=recorded.version.reason,
                actor=request.user,
            )
        except DisputeError as error:  # answered meanwhile, from another page
            messages.warning(request, str(error))
        else:
            messages.success(
                request,
                _("The dispute of %(name)s is answered: the result is corrected.")
                % {"name": dispute.player.display_name},
            )

    return edit_result(
        request,
        session,
        correction=True,
        done_url=reverse("tournaments:organiser_venue", args=[tournament.slug]),
        on_saved=answer,
        answering=dispute,
    )
