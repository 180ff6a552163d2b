"""Long tables' rows rendered in one Python pass: the standings'
``{% standings_rows rows player_path %}``, the honours page's
``{% squad_rank_rows ranks player_path %}``,
``{% pending_honour_rows pending player_path session_path %}`` and
``{% honour_rows honours player_path session_path %}``, and a session's seat table
``{% seat_rows lines play_order tournament %}`` (the home lists three of them).

A Django template costs tens of microseconds per variable: at 2,187 players the honours
page's 2,900 rows took most of a second that way, and a standings page's 100 rows were a
third of the page computed afresh. ``format_html`` is not much cheaper (its checks of each
value cost 15–28 µs a row, a fifth of such a page), so each row is an f-string with every
text escaped by ``html.escape`` (what Django's ``escape`` calls); the numbers are ints. The
markup is the one the templates wrote.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Squad, Tournament
from tournaments.queries.live_honours import PendingHonour
from tournaments.queries.pages import SeatRow

register = template.Library()


class _SquadCells:
    """A squad's cell, written once per squad and table (``swatch``: with its colour swatch
    before the name, as the standings show it, kept together as ``squad_name.html`` does)."""

    def __init__(self, swatch: bool = False) -> None:
        self.swatch = swatch
        # By id: a model's own hash cost more than the rest of the row.
        self.cells: dict[int | None, str] = {None: "–"}

    def __call__(self, squad: Squad | None) -> str:
        cell = self.cells.get(squad.pk if squad is not None else None)
        if cell is None:
            assert squad is not None  # no squad's cell is set from the start
            colour = escape(squad.colour)
            name = f'<span class="squad-{colour}">{escape(squad.name)}</span>'
            cell = self.cells[squad.pk] = (
                f'<span class="squad"><span class="swatch swatch-{colour}" aria-hidden="true">'
                f"</span> {name}</span>"
                if self.swatch
                else name
            )
        return cell


def _badge(text: str) -> str:
    return f'<span class="badge">{escape(text)}</span>'


def _pending_honours_badge(count: int) -> str:
    text = ngettext(
        "+%(counter)s honour, pending until the stage closes",
        "+%(counter)s honours, pending until the stage closes",
        count,
    ) % {"counter": count}
    return (
        f'<span class="badge pending-honour"><span aria-hidden="true">☆</span> '
        f"{escape(text)}</span>"
    )


@register.simple_tag
def standings_rows(rows: Iterable[dict], player_path: str) -> SafeString:
    """The standings table's rows (``rows`` from :func:`standings_page_context`: the
    standings' player rows with their squad object and stage label)."""
    out = " " + _badge(_("out"))
    # A note under the stage, not a badge: a badge keeps its words on one line, too wide
    # for a phone's last column in some languages ("in attesa del risultato").
    awaiting = f'<br><span class="help">{escape(_("awaiting result"))}</span>'
    path = escape(player_path)
    squad_cell = _SquadCells(swatch=True)
    pending_badges: dict[int, str] = {}  # by count: one translation each, not one a row
    html = []
    for row in rows:
        held, pending = row["honours"], row["pending_honours"]
        if pending and pending not in pending_badges:
            pending_badges[pending] = _pending_honours_badge(pending)
        honours = " ".join(
            ([f'<span aria-hidden="true">★</span> {held:d}'] if held else [])
            + ([pending_badges[pending]] if pending else [])
        )
        reached = row["stage_reached"]
        stage = (
            escape(row["stage_label"] or str(reached))
            + (out if row["eliminated_in_stage"] else "")
            + (awaiting if row["awaiting_result"] else "")
            if reached
            else "–"
        )
        squad = squad_cell(row["squad_obj"])
        below = f'<span class="show-small"><br>{squad}</span>' if row["squad_obj"] else ""
        html.append(
            f'<tr><td class="num">{row["place"]:d}</td>'
            f'<td class="player-name"><a href="{path}{row["player_id"]:d}/">'
            f"{escape(row['player'])}</a>{below}</td>"
            f'<td class="hide-small">{squad}</td>'
            f'<td class="hide-small">{honours or "–"}</td>'
            f'<td class="num hide-small">{row["sessions"]:d}</td>'
            f'<td class="num hide-small">{row["wins"]:d}</td>'
            f'<td class="num" data-testid="points">{row["points"]:d}</td>'
            f"<td>{stage}</td></tr>"
        )
    return mark_safe("".join(html))


@register.simple_tag
def squad_rank_rows(rows: Iterable[dict], player_path: str) -> SafeString:
    """The squad-rank table's rows (``rows`` from the honours view: player id and name,
    squad, rank label and the rank a pending honour promises, or "")."""
    pending = " " + _badge(_("pending until the stage closes"))
    path = escape(player_path)
    squad_cell = _SquadCells()
    return mark_safe(
        "".join(
            f'<tr><td><a href="{path}{row["player_id"]:d}/">{escape(row["player"])}</a></td>'
            f"<td>{squad_cell(row['squad'])}</td><td>{escape(str(row['rank']))}"
            + (f" → {escape(str(row['promised']))}{pending}" if row["promised"] else "")
            + "</td></tr>"
            for row in rows
        )
    )


@register.simple_tag
def pending_honour_rows(
    pending: Iterable[PendingHonour], player_path: str, session_path: str
) -> SafeString:
    """The honours table's rows for the honours pending until their stage closes."""
    badge = _badge(_("pending until the stage closes"))
    players, sessions = escape(player_path), escape(session_path)
    squad_cell = _SquadCells()
    stages: dict[str, str] = {}
    html = []
    for honour in pending:
        stage = stages.get(honour.stage_kind)
        if stage is None:
            stage = stages[honour.stage_kind] = escape(honour.stage_label)
        html.append(
            f'<tr class="pending-honour-row">'
            f'<td><a href="{players}{honour.player_id:d}/">{escape(honour.player_name)}</a></td>'
            f"<td>{squad_cell(honour.squad)}</td>"
            f'<td><a href="{sessions}{honour.session_id:d}/">'
            f"{stage} · {honour.session_number:d}</a></td>"
            f"<td>{badge}</td></tr>"
        )
    return mark_safe("".join(html))


@register.simple_tag
def honour_rows(honours: Iterable, player_path: str, session_path: str) -> SafeString:
    """The honours table's rows for the honours awarded (``Honour`` objects with their
    player, squad and session's stage)."""
    players, sessions = escape(player_path), escape(session_path)
    html = []
    for honour in honours:
        session = honour.session
        colour = escape(honour.squad.colour)
        awarded = date_format(localtime(honour.created_at), "SHORT_DATETIME_FORMAT")
        html.append(
            f'<tr><td><a href="{players}{honour.player_id:d}/">'
            f"{escape(honour.player.display_name)}</a></td>"
            f'<td class="squad-{colour}">{escape(honour.squad.name)}</td>'
            f'<td><a href="{sessions}{session.pk:d}/">'
            f"{escape(str(session.stage.get_kind_display()))} · {session.number:d}</a></td>"
            f"<td>{escape(awarded)}</td></tr>"
        )
    return mark_safe("".join(html))


def _podium_badge(place: int) -> str:
    return render_to_string("tournaments/partials/podium_badge.html", {"place": place})


@register.simple_tag
def seat_rows(
    lines: Iterable[SeatRow], play_order: bool, tournament: Tournament | None = None
) -> SafeString:
    """A session's seat table's rows (``partials/seat_table.html``): place with its
    podium and qualifier badges, player (linked to their page in ``tournament``), squad,
    play order when ``play_order``, points."""
    path = (
        escape(reverse("tournaments:player", args=[tournament.slug, 0])[: -len("0/")])
        if tournament
        else ""
    )
    squad_cell = _SquadCells(swatch=True)
    podium_badges: dict[int, str] = {}
    qualified = f' <span class="badge ok">{escape(_("qualified"))}</span>'
    best_runner_up = f' <span class="badge ok">{escape(_("best runner-up"))}</span>'
    not_drawn = f'<span class="help">{escape(_("not drawn yet"))}</span>'
    html = []
    for line in lines:
        place = "–" if line.place is None else f"{line.place:d}"
        if line.podium:
            if line.podium not in podium_badges:
                podium_badges[line.podium] = _podium_badge(line.podium)
            place += " " + podium_badges[line.podium]
        if line.qualified:
            place += best_runner_up if line.best_runner_up else qualified
        name = escape(line.player_name)
        if path:
            name = f'<a href="{path}{line.player_id:d}/">{name}</a>'
        squad = squad_cell(line.squad) if line.squad else ""
        below = f'<span class="show-small"><br>{squad}</span>' if squad else ""
        initiative = line.initiative_position
        order = (
            f'<td class="num hide-small">{f"{initiative:d}" if initiative else "–"}</td>'
            if play_order
            else ""
        )
        points = "–" if line.points is None else f"{line.points:d}"
        html.append(
            ('<tr class="qualified">' if line.qualified else "<tr>") + f"<td>{place}</td>"
            f'<td class="player-name">{name}{below}</td>'
            f'<td class="hide-small">{squad or not_drawn}</td>'
            f'{order}<td class="num">{points}</td></tr>'
        )
    return mark_safe("".join(html))
