"""Read-only pages for everyone: tournaments, schedule, sessions, bracket, honours."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.core.cache import cache, caches
from django.db.models import Count, Q, Value
from django.db.models.functions import Coalesce, Lower, NullIf
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_safe

from tournaments.caching import generations, release
from tournaments.forms.stipulation import StipulationSummary, describe_stipulation
from tournaments.models import (
    Honour,
    Rank,
    Session,
    Squad,
    SquadRank,
    StageKind,
    Tournament,
    readable_rules,
)
from tournaments.queries.bracket_plan import PlannedStage, planned_stages, standings_facts
from tournaments.queries.bracket_svg import (
    BracketLabels,
    BracketSeat,
    BracketSession,
    BracketStage,
    render_bracket_svg,
)
from tournaments.queries.home_page import home_sessions
from tournaments.queries.live_honours import pending_honours, pending_wins, tournament_squads
from tournaments.queries.pages import (
    PODIUM_PLACES,
    final_podium,
    is_best_runner_up,
    latest_results,
    schedule_order,
    tournament_sessions,
    upcoming_sessions,
    with_live_games,
)
from tournaments.queries.playable_maps import map_title
from tournaments.queries.player_profile import player_page
from tournaments.queries.result_versions import scored_rows, seat_names
from tournaments.queries.roles import sessions_to_judge
from tournaments.queries.session_dice import session_dice
from tournaments.queries.session_stipulation import session_map_name, stage_defaults
from tournaments.queries.standings import (
    data_stamp,
    get_standings,
    read_tournament,
    stamp_by_slug,
)
from tournaments.queries.standings_reads import squads_of
from tournaments.queries.tournament_catalogue import catalogue_words
from tournaments.queries.venue_screen import next_round, timer_view
from tournaments.web.header_links import header_links
from tournaments.web.page_cache import cached_page
from tournaments.web.permissions import public
from tournaments.web.request_types import HtmxHttpRequest


@public
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The tournaments; above them, for a logged-in judge, the sessions still to judge.
    "Create a tournament" is offered as the site header offers "Organise"."""
    tournaments = Tournament.objects.annotate(player_count=Count("registrations")).order_by(
        "-starts_on", "name"
    )
    context = {
        "tournaments": tournaments,
        "to_judge": list(sessions_to_judge(request.user)),
        "offer_create": header_links(request).organise,
    }
    return render(request, "tournaments/home.html", context)


def _tournament(slug: str, stamped: bool = False) -> Tournament:
    """The tournament of a public page (``stamped``: with its data stamp, for the pages
    that read the standings: :func:`read_tournament`)."""
    tournament = read_tournament(slug, stamped)
    if tournament is None:
        raise Http404(f"no tournament {slug!r}")
    return tournament


def cached_tournament_page(
    request: HttpRequest,
    slug: str,
    template: str,
    context: Callable[[Tournament], dict],
    stamped: bool = False,
) -> HttpResponse:
    """A public page of the tournament, cached whole for anonymous visitors per the
    tournament's cache generation (:func:`cached_page`): ``context(tournament)`` is built
    only when the page is not cached yet (``stamped``: it reads the standings, and the
    tournament is read with their data stamp)."""
    version = f"{template}:{slug}:{generations.current(slug)}"

    def render_page(extra: dict) -> HttpResponse:
        return render(request, template, {**context(_tournament(slug, stamped)), **extra})

    return cached_page(request, version, render_page)


@public
@require_GET
def tournament_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Cached like every public page: the sessions listed as upcoming may lag the clock by
    the page cache's minute at most."""

    def context(tournament: Tournament) -> dict:
        sessions = home_sessions(tournament, latest=3, upcoming=5)
        return {
            "tournament": tournament,
            "player_count": sessions.player_count,
            "stages": sessions.stages,
            "current_stage": tournament.current_stage(sessions.stages),
            "latest": sessions.latest,
            "playing": sessions.playing,
            "playing_count": sessions.playing_count,
            "upcoming": sessions.upcoming,
            "podium": sessions.podium,
            "tab": "home",
        }

    return cached_tournament_page(
        request, slug, "tournaments/tournament_home.html", context, stamped=True
    )


def schedule_context(tournament: Tournament) -> dict:
    sessions = sorted(tournament_sessions(tournament), key=schedule_order)
    return {"tournament": tournament, "sessions": sessions, "tab": "schedule"}


@public
@require_GET
def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    """Cached like every public page (it reads every session: 340 ms for the 729 sessions
    of 2,187 players)."""
    return cached_tournament_page(request, slug, "tournaments/schedule.html", schedule_context)


@public
@require_GET
def session_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(slug)
    lines = with_live_games(tournament_sessions(tournament, Q(pk=pk)))
    if not lines:
        return render(
            request,
            "tournaments/not_found.html",
            {"message": _("This tournament has no session with that number.")},
            status=404,
        )
    entry = lines[0]
    # The points line by line; a breakdown that cannot be scored shows the totals only.
    breakdown = (
        scored_rows(entry.version, seat_names(entry.session), tournament)
        if entry.version is not None
        else None
    )
    return render(
        request,
        "tournaments/session_detail.html",
        {
            "tournament": tournament,
            "entry": entry,
            "breakdown": breakdown,
            "stipulation": _session_stipulation(entry.session),
            "map_title": map_title(tournament, session_map_name(entry.session)),
            "session_dice": session_dice(tournament, entry.session),
            "tab": "schedule",
        },
    )


def _session_stipulation(session: Session) -> StipulationSummary | None:
    """The stipulation the session plays: its own, or else its stage's (its event cards
    named as the tournament's catalogue names them)."""
    own = getattr(session, "stipulation", None)
    played = own if own is not None else stage_defaults(session)
    with catalogue_words(session.stage.tournament):
        return describe_stipulation(
            played.kind, played.params, readable_rules(session.stage.tournament)[0]
        )


#: A stage of more sessions than this is drawn in the bracket page's picture as one box
#: linking to its sessions in the standings (27 sessions: a column about three screens tall);
#: ``?stages=all`` and the downloaded picture draw every session.
BRACKET_SESSIONS_DRAWN = 27


def bracket_stages(
    tournament: Tournament, drawn: int | None = None
) -> tuple[list[BracketStage], list[str]]:
    """The bracket's data: one column per stage with sessions (a stage of more than
    ``drawn`` sessions as a summary box), then one per stage planned but not seated yet; the
    podium once the final has a result. Read from the standings (cached with their data
    stamp, and plain rows when rebuilt), not from the sessions' model objects."""
    standings = get_standings(tournament)
    colours = {squad.slug: squad.colour for squad in squads_of(tournament.pk)}
    kinds = dict(StageKind.choices)
    session_path = _id_path("tournaments:session", tournament.slug)
    session_label = _("Session %(number)s")  # translated once, not once per session
    standings_path = reverse("tournaments:standings", args=[tournament.slug])
    columns = []
    finals: list[dict] = []
    for stage in standings["stages"]:
        if not stage["sessions"]:
            continue
        if stage["kind"] == StageKind.FINAL:
            finals += stage["sessions"]
        label = str(kinds.get(stage["kind"], stage["kind"]))
        count = len(stage["sessions"])
        if drawn is not None and count > drawn:
            columns.append(
                BracketStage(
                    label=label,
                    sessions=[],
                    summary=(
                        ngettext("%(count)s session", "%(count)s sessions", count)
                        % {"count": count},
                        _("listed in the standings"),
                    ),
                    link=f"{standings_path}?page={ALL_PAGES}#sessions-{stage['number']}",
                )
            )
            continue
        runners_up = [
            seat
            for session in stage["sessions"]
            for seat in session["seats"]
            if seat["position"] == 2
        ]
        every_runner_up_qualifies = all(seat["qualified"] for seat in runners_up)
        columns.append(
            BracketStage(
                label=label,
                sessions=[
                    BracketSession(
                        label=session_label % {"number": session["number"]},
                        link=f"{session_path}{session['id']}/",
                        seats=[
                            BracketSeat(
                                player_key=str(seat["player_id"]),
                                player_name=seat["player"],
                                squad_colour=colours.get(seat["squad"], ""),
                                points=seat["points"],
                                place=seat["position"],
                                qualified=seat["qualified"],
                                best_runner_up=is_best_runner_up(
                                    seat["qualified"], seat["position"], every_runner_up_qualifies
                                ),
                            )
                            for seat in _ranked(session)
                        ],
                    )
                    for session in stage["sessions"]
                ],
            )
        )
    columns += [
        _planned_column(stage, str(kinds.get(stage.kind, stage.kind)))
        for stage in planned_stages(tournament, standings_facts(standings["stages"]))
    ]
    podium = []
    if len(finals) == 1 and finals[0]["result_version"] is not None:
        podium = [
            seat["player"]
            for seat in _ranked(finals[0])
            if seat["position"] is not None and seat["position"] <= PODIUM_PLACES
        ]
    return columns, podium


def _planned_column(stage: PlannedStage, label: str) -> BracketStage:
    """A stage not seated yet, headed ``label``: how many players in how many sessions, how
    many go on (or that it is the final), and that nobody is seated yet."""
    size = " · ".join(
        (
            ngettext("%(count)s player", "%(count)s players", stage.players)
            % {"count": stage.players},
            ngettext("%(count)s session", "%(count)s sessions", stage.sessions)
            % {"count": stage.sessions},
        )
    )
    going_on = (
        ngettext("%(count)s qualifies", "%(count)s qualify", stage.qualifiers)
        % {"count": stage.qualifiers}
        if stage.qualifiers
        else _("plays for the podium")
    )
    return BracketStage(
        label=label,
        sessions=[],
        summary=(size, going_on, _("not seated yet")),
        planned=True,
    )


def _ranked(session: dict) -> list[dict]:
    """A standings session's seats, by place once it has a result (else in seat order)."""
    if session["result_version"] is None:
        return session["seats"]
    return sorted(session["seats"], key=lambda seat: (seat["position"] or 99, seat["seat_order"]))


def bracket_labels(tournament: Tournament) -> BracketLabels:
    return BracketLabels(
        title=_("Bracket of %(name)s") % {"name": tournament.name},
        description=_(
            "Stages from left to right; each box is a session with its seats, places and "
            "points. Lines join qualifiers to their next session. A dashed box is a stage "
            "not seated yet."
        ),
        podium=_("Podium"),
        qualified=_("qualified"),
        best_runner_up=_("best runner-up"),
        points=_("pts"),
        legend=_("Legend"),
        planned=_("dashed box: stage not seated yet"),
    )


@public
@require_GET
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The bracket's picture: a stage too long to draw as one box (``?stages=all``: every
    session drawn)."""
    every = request.GET.get("stages") == ALL_PAGES

    def context(tournament: Tournament) -> dict:
        columns, podium = bracket_stages(tournament, None if every else BRACKET_SESSIONS_DRAWN)
        return {
            "tournament": tournament,
            "svg": render_bracket_svg(columns, podium, bracket_labels(tournament)),
            "columns": columns,
            "podium": podium,
            "summarised": any(
                column.summary is not None and not column.planned for column in columns
            ),
            "tab": "bracket",
        }

    return cached_tournament_page(request, slug, "tournaments/bracket.html", context, stamped=True)


@public
@require_GET
def bracket_svg(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    columns, podium = bracket_stages(tournament)
    svg = render_bracket_svg(columns, podium, bracket_labels(tournament))
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


@public
@require_GET
def player_profile(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player's public page: sessions played, places and points, honours, squad and
    rank, and each loadout once its session has a confirmed result."""
    tournament = _tournament(slug)
    page = player_page(tournament, pk)
    if page is None:
        return render(
            request,
            "tournaments/not_found.html",
            {"message": _("This tournament has no player with that number.")},
            status=404,
        )
    # A confirmed win shows at once, pending until its stage closes (stored tournament
    # decision 18), as on the honours page, the standings and the player's own page.
    pending = [honour for honour in pending_honours(tournament) if honour.player_id == pk]
    return render(
        request,
        "tournaments/player.html",
        {"tournament": tournament, "page": page, "pending": pending, "tab": "standings"},
    )


#: Rows per page of each of the honours page's tables (``?page=all`` shows every one).
HONOURS_PAGE_SIZE = 100


@public
@require_GET
def honours(request: HttpRequest, slug: str) -> HttpResponse:
    """The honours awarded and pending, and every player's squad rank: a page of each
    table at a time (``?page=N``, ``?page=all`` for every row), as the standings are."""
    asked = standings_page(request)

    def context(tournament: Tournament) -> dict:
        ranks = _squad_ranks(tournament)
        wins = pending_wins(tournament, {row[0]: row[4] for row in ranks})
        awarded = Honour.objects.filter(tournament=tournament)
        counts = (len(wins.winners) + wins.awarded, len(ranks))
        number, pages, start, stop = _page_span(asked, max(counts), HONOURS_PAGE_SIZE)
        squads = tournament_squads(tournament)
        # The page's rows of the awarded honours, listed after the pending ones.
        first, last = (min(max(end - len(wins.winners), 0), wins.awarded) for end in (start, stop))
        return {
            "tournament": tournament,
            "honours": (
                awarded.select_related("player", "squad", "session__stage")[first:last]
                if first < last
                else []
            ),
            "pending": pending_honours(tournament, wins, slice(start, stop), squads),
            "has_honours": counts[0] > 0,
            "ranks": _rank_rows(squads, ranks[start:stop], wins.ranks()),
            "page": _pager(reverse("tournaments:honours", args=[tournament.slug]), number, pages),
            "player_path": _id_path("tournaments:player", tournament.slug),
            "session_path": _id_path("tournaments:session", tournament.slug),
            "tab": "honours",
        }

    return cached_tournament_page(request, slug, "tournaments/honours.html", context)


def _squad_ranks(tournament: Tournament) -> list[tuple[int, str, str, int, int]]:
    """Every squad rank of the tournament in the order of the players' names: player id,
    name, nickname, squad id, rank. All of them, in one statement: the page counts them,
    lists a page of them, and the pending honours start from them."""
    shown = Lower(Coalesce(NullIf("player__nickname", Value("")), "player__name"))
    return list(
        SquadRank.objects.filter(tournament=tournament)
        .order_by(shown, "player_id")
        .values_list("player_id", "player__name", "player__nickname", "squad_id", "rank")
    )


def _rank_rows(
    squads: Mapping[int, Squad],
    ranks: list[tuple[int, str, str, int, int]],
    promised: dict[int, int],
) -> list[dict]:
    """The squad ranks ``ranks`` (a page of :func:`_squad_ranks`) as plain rows (one per
    player: no model objects; ``squads`` by id), with the rank a pending honour promises
    when it is another."""
    # Translated once, not once a row (a label is a lazy translation).
    labels = {value: str(label) for value, label in Rank.choices}
    rows = []
    for player_id, name, nickname, squad_id, rank in ranks:
        pending = promised.get(player_id, rank)
        rows.append(
            {
                "player_id": player_id,
                "player": nickname or name,
                "squad": squads.get(squad_id),
                "rank": labels.get(rank, rank),
                "promised": labels.get(pending, pending) if pending != rank else "",
            }
        )
    return rows


def standings_context(
    tournament: Tournament, standings: dict | None = None, rows: list[dict] | None = None
) -> dict:
    """The standings with what the templates show beside each row (squad, pending
    honours, stage name) and each shown stage's sessions ranked: for ``rows`` (default:
    every player) and the stages not marked ``cards_shown: False``."""
    standings = standings if standings is not None else get_standings(tournament)
    squads = {squad.slug: squad for squad in squads_of(tournament.pk)}
    stage_labels = dict(StageKind.choices)
    for stage in standings["stages"]:
        stage["label"] = stage_labels.get(stage["kind"], stage["kind"])
    stage_names = {stage["number"]: str(stage["label"]) for stage in standings["stages"]}
    for row in standings["players"] if rows is None else rows:
        row["squad_obj"] = squads.get(row["squad"])
        row["stage_label"] = stage_names.get(row["stage_reached"])
    for stage in standings["stages"]:
        if not stage.get("cards_shown", True):
            continue
        for session in stage["sessions"]:
            session["ranked"] = sorted(
                session["seats"], key=lambda s: (s["position"] or 99, s["seat_order"])
            )
            for seat in session["seats"]:
                seat["squad_obj"] = squads.get(seat["squad"])
    return {
        "tournament": tournament,
        "standings": standings,
        "awaiting_results": sum(row["awaiting_result"] for row in standings["players"]),
        "generated_at": parse_datetime(standings["generated_at"]),
        "tab": "standings",
    }


#: Players per page of the standings table (``?page=all`` shows every one): a phone needs
#: the top of the table and a way to the rest, not a megabyte of 2,187 rows every 15 s.
STANDINGS_PAGE_SIZE = 100
#: A stage's session-by-session cards are listed on every page up to this many sessions;
#: a larger stage's are on the ``?page=all`` page (each player's page lists their own).
SESSION_CARDS_PER_PAGE = 16
ALL_PAGES = "all"


def standings_page(request: HttpRequest) -> int | None:
    """The standings page asked for (``?page=N``; None: ``?page=all``, every player). A
    page number that is not one (or out of range) shows the nearest page."""
    asked = request.GET.get("page", "")
    if asked == ALL_PAGES:
        return None
    try:
        return max(int(asked), 1)
    except ValueError:
        return 1


def _id_path(name: str, slug: str) -> str:
    """The path of ``name`` for an object id, without the id: reversed once per page
    rather than once per row (``{% url %}`` on each of thousands of rows is slow)."""
    path = reverse(name, args=[slug, 0])
    assert path.endswith("/0/"), path
    return path[: -len("0/")]


def _page_span(asked: int | None, rows: int, size: int) -> tuple[int | None, int, int, int]:
    """Page ``asked`` (None: every row) of ``rows`` rows, ``size`` a page: the page shown
    (the nearest one; None for every row), the number of pages, and the rows' start and
    stop."""
    pages = max((rows + size - 1) // size, 1)
    if asked is None:
        return None, pages, 0, rows
    number = min(asked, pages)
    return number, pages, (number - 1) * size, number * size


def _pager(path: str, number: int | None, pages: int) -> dict:
    """The links between the ``pages`` pages of ``path`` for page ``number`` (None: the
    page of every row)."""
    return {
        "number": number,
        "count": pages,
        "previous": f"{path}?page={number - 1}" if number and number > 1 else "",
        "next": f"{path}?page={number + 1}" if number and number < pages else "",
        "all": f"{path}?page={ALL_PAGES}",
        "first": f"{path}?page=1",
    }


def standings_page_context(tournament: Tournament, standings: dict, page: int | None) -> dict:
    """The standings' context for one page of the table (``page`` None: all of it)."""
    players = standings["players"]
    number, pages, start, stop = _page_span(page, len(players), STANDINGS_PAGE_SIZE)
    path = reverse("tournaments:standings", args=[tournament.slug])
    rows = players[start:stop]
    for stage in standings["stages"]:
        stage["cards_shown"] = number is None or len(stage["sessions"]) <= SESSION_CARDS_PER_PAGE
    context = standings_context(tournament, standings, rows)
    context.update(
        {
            "rows": rows,
            "page": _pager(path, number, pages),
            "player_path": _id_path("tournaments:player", tournament.slug),
            "session_path": _id_path("tournaments:session", tournament.slug),
        }
    )
    return context


STANDINGS_HTML_SECONDS = 3600


def standings_html(
    tournament: Tournament, stamp: list[int | str] | None = None, page: int | None = 1
) -> str:
    """One page of the standings tables as HTML (``page`` None: every player), rendered
    once per data stamp, page and language.

    The key is the tournament's data stamp (:func:`data_stamp`: it changes with every
    committed change), so a stale table is never served, and the live poll, every 15 s from
    every open standings page, costs the stamp and one cache read: the standings
    themselves are read (and rebuilt when stale) only when the table must be rendered.
    """
    return _standings_html(tournament.pk, stamp or data_stamp(tournament), page, lambda: tournament)


def _standings_html(
    pk: int, stamp: list[int | str], page: int | None, tournament: Callable[[], Tournament]
) -> str:
    """:func:`standings_html` for the tournament ``pk`` (``tournament()`` read only to
    render). A key names one stamp's table, which never changes, so each process keeps the
    tables it served in its own memory too: a poll served again costs no shared read."""
    key = ":".join(
        [
            "bob:standings-html",
            release.current(),
            str(pk),
            get_language() or "",
            str(page or ALL_PAGES),
            *map(str, stamp),
        ]
    )
    local = caches["local"]
    html = local.get(key)
    if html is None:
        html = cache.get(key)
        if html is None:
            found = tournament()
            html = render_to_string(
                "tournaments/partials/standings_body.html",
                standings_page_context(found, get_standings(found, stamp), page),
            )
            cache.set(key, html, STANDINGS_HTML_SECONDS)
        local.set(key, html, STANDINGS_HTML_SECONDS)
    return html


def _page_query(page: int | None) -> str:
    return f"?page={page or ALL_PAGES}" if page != 1 else ""


@public
@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    page = standings_page(request)

    def context(tournament: Tournament) -> dict:
        return {
            "tournament": tournament,
            "standings_html": standings_html(tournament, page=page),
            "page_query": _page_query(page),
            "tab": "standings",
        }

    return cached_tournament_page(
        request, slug, "tournaments/standings.html", context, stamped=True
    )


@public
@require_GET
def standings_partial(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings table the page polls every 15 s (the same page of it). Its ETag is
    the tournament's data stamp (with the page, the language and the code's release), so
    a browser polling again gets ``304 Not Modified`` while nothing changed: the poll then
    costs the stamp, and no table is sent."""
    found = stamp_by_slug(slug)
    if found is None:
        raise Http404
    pk, stamp = found
    page = standings_page(request)
    etag = '"{}"'.format(
        ":".join(
            [release.current(), get_language() or "", str(page or ALL_PAGES), *map(str, stamp)]
        )
    )
    response: HttpResponse
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(_standings_html(pk, stamp, page, lambda: _tournament(slug)))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@public
@require_GET
def projector(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Full-screen venue view: the round timer, the podium once the final is confirmed, and
    panels cycling the next round's tables, the latest results, standings and schedule.

    Cached like every public page, the panels apart from the whole page: every open
    projector asks for its panels every minute (about 0.3 s at 2,187 players, once per
    screen without the cache). The next round and the schedule may lag the clock by the
    cache's minute at most; the timer reads its own state as soon as the page opens."""

    def context(tournament: Tournament) -> dict:
        sessions = tournament_sessions(tournament)
        return {
            **standings_context(tournament),
            "latest": latest_results(sessions)[:4],
            "upcoming": upcoming_sessions(sessions)[:8],
            "tables": next_round(sessions),
            "podium": final_podium(sessions),
            "timer": timer_view(tournament, timezone.now()),
        }

    template = (
        "tournaments/partials/projector_panels.html"
        if request.htmx
        else "tournaments/projector.html"
    )
    return cached_tournament_page(request, slug, template, context, stamped=True)


@public
@require_GET
def projector_timer(request: HttpRequest, slug: str) -> JsonResponse:
    """The round timer's state, read every few seconds by every projector screen."""
    timer = timer_view(_tournament(slug), timezone.now())
    response = JsonResponse(timer.as_dict())
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def standings_plain(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as a plain page without scripts (for screen readers and old phones)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    context = standings_context(tournament, get_standings(tournament))
    rows = [
        {**row, "rank_name": Rank(row["rank"]).label} for row in context["standings"]["players"]
    ]
    return render(request, "tournaments/standings_plain.html", {**context, "rows": rows})
