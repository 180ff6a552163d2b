"""A tournament's own maps: add one from its drawing, change or rename it, remove one no
stage or session plays on.

The drawing is checked as the board will read it (every problem with its line and column,
in the organiser's language) and saved only when it reads; a refused drawing changes
nothing. Games already started keep the board they started on (their state holds it)."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.engine.board import Board
from rules.engine.maps import MapError, bundled_maps, parse_map
from tournaments.actions.activity_log import describe, log_activity
from tournaments.actions.optimistic_lock import check_unchanged
from tournaments.domain.engine_language import narration_language
from tournaments.models import ActivityVerb, Session, Stage, Tournament, TournamentMap
from tournaments.queries.edit_versions import map_version
from tournaments.queries.playable_maps import map_users


class MapDrawingError(ValueError):
    """The map is refused; ``problems`` says each thing wrong, in the active language."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def checked_board(drawing: str) -> Board:
    """The board ``drawing`` draws, with a name BoB does not ship; else
    :class:`MapDrawingError` listing every problem."""
    try:
        board = parse_map(drawing, source="map")
    except MapError as error:
        language = narration_language()
        raise MapDrawingError([problem.text_in(language) for problem in error.problems]) from None
    if not board.name:
        raise MapDrawingError(
            [
                _(
                    "The drawing has no name: add a line such as 'name: my-map' at its top "
                    "(small letters, digits and dashes); stages and sessions choose the map "
                    "by that name."
                )
            ]
        )
    if board.name in bundled_maps():
        raise MapDrawingError(
            [
                _("BoB ships a map called %(name)s: give yours another name in its 'name:' line.")
                % {"name": board.name}
            ]
        )
    return board


def _normalised(drawing: str) -> str:
    """The drawing with one kind of line end (a browser sends CR LF) and a final one;
    spaces stay, since a map may draw its outer edge with them."""
    return "\n".join(drawing.splitlines()).strip("\n") + "\n"


@transaction.atomic
def save_map(
    tournament: Tournament,
    drawing: str,
    *,
    replacing: TournamentMap | None = None,
    actor=None,
    expected_version: str | None = None,
) -> TournamentMap:
    """Add the map ``drawing`` draws to the tournament, or put it in place of ``replacing``.

    A new name given to ``replacing`` follows to the stages and sessions that played on
    it; a name another of the tournament's maps has is refused. Raises StaleEditError when
    ``replacing`` was changed since its form was loaded at ``expected_version``."""
    drawing = _normalised(drawing)
    board = checked_board(drawing)
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if replacing is not None:
        check_unchanged(expected_version, map_version(TournamentMap.objects.get(pk=replacing.pk)))
    others = TournamentMap.objects.filter(tournament=tournament, name=board.name)
    if replacing is not None:
        others = others.exclude(pk=replacing.pk)
    if others.exists():
        raise MapDrawingError(
            [
                _(
                    "The tournament already has a map called %(name)s: change the name in "
                    "the drawing's 'name:' line, or edit that map instead."
                )
                % {"name": board.name}
            ]
        )
    if replacing is None:
        saved = TournamentMap.objects.create(
            tournament=tournament, name=board.name, drawing=drawing
        )
        log_activity(
            tournament, ActivityVerb.CREATED, describe("map_added", name=board.name), actor=actor
        )
        return saved
    old_name = replacing.name
    replacing.name, replacing.drawing = board.name, drawing
    replacing.save(update_fields=["name", "drawing", "updated_at"])
    if old_name != board.name:
        Stage.objects.filter(tournament=tournament, map_name=old_name).update(map_name=board.name)
        Session.all_objects.filter(stage__tournament=tournament, map_name=old_name).update(
            map_name=board.name
        )
        description = describe("map_renamed", old=old_name, name=board.name)
    else:
        description = describe("map_changed", name=board.name)
    log_activity(tournament, ActivityVerb.UPDATED, description, actor=actor)
    return replacing


class MapInUseError(ValueError):
    """The map is still some stage's or session's; the message names them."""


@transaction.atomic
def remove_map(tournament_map: TournamentMap, *, actor=None) -> None:
    """Remove a map no stage or session names (games played on it keep their board)."""
    tournament = tournament_map.tournament
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    users = map_users(tournament).get(tournament_map.name, [])
    if users:
        raise MapInUseError(
            ngettext(
                "%(users)s plays on the map %(name)s: choose another map for it first.",
                "%(users)s play on the map %(name)s: choose another map for them first.",
                len(users),
            )
            % {"users": capfirst(", ".join(users)), "name": tournament_map.name}
        )
    tournament_map.delete()
    log_activity(
        tournament,
        ActivityVerb.UPDATED,
        describe("map_removed", name=tournament_map.name),
        actor=actor,
    )
