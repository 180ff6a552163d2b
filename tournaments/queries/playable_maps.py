"""The maps a tournament plays on: its own (:class:`~tournaments.models.TournamentMap`)
and the ones BoB ships, found by name.

A tournament's own map comes first, so a session names its board the same way whichever
kind it is; the actions refuse an own map named like a shipped one, so neither hides the
other. Boards are shared by the drawing's content (:func:`rules.engine.maps.shared_map_text`),
so a map read again costs one query and no parsing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import F
from django.utils.translation import gettext as _

from rules.engine.board import Board
from rules.engine.maps import MapError, bundled_maps, shared_map, shared_map_text
from tournaments.domain.engine_language import narration_language
from tournaments.models import Session, Stage, Tournament, TournamentMap


def own_drawing(tournament: Tournament, name: str) -> str | None:
    """The drawing of the tournament's own map ``name`` (None: it has none of that name)."""
    return (
        TournamentMap.objects.filter(tournament=tournament, name=name)
        .values_list("drawing", flat=True)
        .first()
    )


def own_board(tournament_map: TournamentMap) -> Board:
    """The board of a tournament's own map (its drawing was checked when it was saved;
    a drawing changed behind the app's back raises :class:`MapError`)."""
    return shared_map_text(tournament_map.drawing, source=f"{tournament_map.name}.txt")


def board_of(name: str, drawing: str | None) -> Board | None:
    """The board of the map ``name``: the one ``drawing`` draws when the tournament has its
    own map of that name (its database's or its document's), else the shipped one; None
    when neither exists (or the drawing no longer reads)."""
    if drawing is not None:
        try:
            return shared_map_text(drawing, source=f"{name}.txt")
        except MapError:
            return None
    return shared_map(name) if name in bundled_maps() else None


def map_board(tournament: Tournament, name: str) -> Board | None:
    """The board of the map ``name`` the tournament plays (:func:`board_of`)."""
    return board_of(name, own_drawing(tournament, name)) if name else None


def map_boards(tournament: Tournament, names: Iterable[str]) -> dict[str, Board | None]:
    """The boards of the maps ``names`` (:func:`board_of`), the tournament's own read in
    one query however many there are."""
    wanted = {name for name in names if name}
    if not wanted:
        return {}
    drawings = dict(
        TournamentMap.objects.filter(tournament=tournament, name__in=wanted).values_list(
            "name", "drawing"
        )
    )
    return {name: board_of(name, drawings.get(name)) for name in wanted}


def map_title(tournament: Tournament, name: str) -> str:
    """The map's title in the active language; its name when it has no title (or is not
    a map of the tournament's or BoB's)."""
    board = map_board(tournament, name)
    return (board.title_in(narration_language()) if board is not None else "") or name


def map_choices(tournament: Tournament, current: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Every map the tournament can play, as (name, "Title (name)"): its own, then BoB's.
    A name in ``current`` that is neither (an imported stage's, say) is kept, as itself,
    so a form showing it does not change it unasked."""
    language = narration_language()
    choices = []
    for tournament_map in tournament.maps.order_by("name"):
        try:
            title = own_board(tournament_map).title_in(language)
        except MapError:
            title = ""
        choices.append((tournament_map.name, _label(title, tournament_map.name)))
    known = {name for name, _label_text in choices}
    for name in bundled_maps():
        if name not in known:
            choices.append((name, _label(shared_map(name).title_in(language), name)))
            known.add(name)
    choices.extend((name, name) for name in current if name and name not in known)
    return choices


def _label(title: str, name: str) -> str:
    return f"{title} ({name})" if title and title != name else name


def map_label(name: str, board: Board) -> str:
    """The map as the map menus show it: "Title (name)" in the active language."""
    return _label(board.title_in(narration_language()), name)


def own_map_label(tournament_map: TournamentMap) -> str:
    """One of the tournament's maps as the map menus show it (:func:`map_label`); its name
    alone when its drawing no longer reads."""
    try:
        return map_label(tournament_map.name, own_board(tournament_map))
    except MapError:
        return tournament_map.name


def map_menu_label(tournament: Tournament, name: str) -> str:
    """The map ``name`` as the map menus show it (:func:`map_label`); its name alone when
    it is not one the tournament can play."""
    return map_menu_labels(tournament, [name]).get(name, name)


def map_menu_labels(tournament: Tournament, names: Iterable[str]) -> dict[str, str]:
    """The maps ``names`` (blanks left out) as :func:`map_menu_label` shows them, the
    tournament's own read in one query however many there are."""
    return {
        name: map_label(name, board) if board is not None else name
        for name, board in map_boards(tournament, names).items()
    }


def flag_maps(tournament: Tournament, spots: int) -> list[str]:
    """The maps the tournament can play with at least ``spots`` flag spots, as the map
    menus show them (:func:`map_label`): its own, then BoB's."""
    boards: dict[str, Board] = {}
    for tournament_map in tournament.maps.order_by("name"):
        try:
            boards[tournament_map.name] = own_board(tournament_map)
        except MapError:
            continue
    for name in bundled_maps():
        boards.setdefault(name, shared_map(name))
    return [
        map_label(name, board) for name, board in boards.items() if len(board.flag_spots) >= spots
    ]


def map_users(tournament: Tournament) -> dict[str, list[str]]:
    """By map name, the stages ("stage 1") and the sessions choosing another map than
    their stage's ("session 2.3") that play on it."""
    users: dict[str, list[str]] = {}
    for number, name in (
        Stage.objects.filter(tournament=tournament)
        .exclude(map_name="")
        .order_by("number")
        .values_list("number", "map_name")
    ):
        users.setdefault(name, []).append(_("stage %(number)d") % {"number": number})
    for stage, number, name in (
        Session.objects.filter(stage__tournament=tournament)
        .exclude(map_name="")
        .exclude(map_name=F("stage__map_name"))
        .order_by("stage__number", "number")
        .values_list("stage__number", "number", "map_name")
    ):
        users.setdefault(name, []).append(
            _("session %(stage)d.%(number)d") % {"stage": stage, "number": number}
        )
    return users


@dataclass(frozen=True)
class MapRow:
    """A map as the organiser's pages show it (``problem``: why an own map's drawing no
    longer reads, "" when it does; ``users``: the stages and sessions that play on it)."""

    name: str
    own: bool
    title: str = ""
    description: str = ""
    size: str = ""
    claws: int = 0
    markers: int = 0
    problem: str = ""
    users: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapOverview:
    own: list[MapRow]
    shipped: list[MapRow]


def _row(name: str, board: Board, *, own: bool, users: tuple[str, ...]) -> MapRow:
    language = narration_language()
    return MapRow(
        name=name,
        own=own,
        title=board.title_in(language),
        description=board.description_in(language),
        size=f"{board.width} × {board.height}",
        claws=len(board.claws),
        markers=len(board.markers),
        users=users,
    )


def own_map_row(tournament_map: TournamentMap, users: dict[str, list[str]]) -> MapRow:
    """One of the tournament's maps as its pages show it (``users``: :func:`map_users`)."""
    used = tuple(users.get(tournament_map.name, ()))
    try:
        board = own_board(tournament_map)
    except MapError as error:
        language = narration_language()
        problem = "; ".join(p.text_in(language) for p in error.problems)
        return MapRow(name=tournament_map.name, own=True, problem=problem, users=used)
    return _row(tournament_map.name, board, own=True, users=used)


def map_overview(tournament: Tournament) -> MapOverview:
    """The tournament's own maps and the ones BoB ships, each with what a list shows."""
    users = map_users(tournament)
    return MapOverview(
        own=[own_map_row(each, users) for each in tournament.maps.order_by("name")],
        shipped=[
            _row(name, shared_map(name), own=False, users=tuple(users.get(name, ())))
            for name in bundled_maps()
        ],
    )
