"""The board's pages speak in the tournament's own words: the chapter cards, the alien event
cards and the weapons are named as the tournament's catalogue names them (the organiser may
have renamed them, or given the Italian names RULES §5 leaves to them), in the step log, the
panels, the game summaries and the errors alike
(:func:`tournaments.queries.tournament_catalogue.catalogue_words`). A player's card is
named as their own chapter's deck names it: the session's seats say whose chapter each
player and figure is.

The players are named as the session's seats name them (``Valchiria``, not ``p3``), an
alien or a vehicle by the label the board draws for it with its id (``Or1 · ork-blip-1-1``,
:func:`table.board_svg.short_labels`), a marine by its player and its kind with the id the
board draws on it (``Valchiria's heavy bolter marine · p3-m1``, :func:`marine_names`), a
line weapon's aim as a direction in words, and every square as the board's rulers number
it and the judge types it (``5,4``): the engine's own texts (its tests, its command line)
keep the ids and write ``(5,4)``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from rules.engine.naming import current_naming, named
from rules.engine.narration import format_param
from rules.engine.state import MARINE, VEHICLE_UNITS, GameState
from rules.engine.vehicles import is_vehicle
from table.actions import snapshot_state
from table.board_svg import short_label, short_labels
from table.game_setup import seat_arms, squad_figure_ids
from table.models import Game
from table.seating import game_player_id
from table.step_log import narration_language
from tournaments.models import Seat, Tournament
from tournaments.queries.tournament_catalogue import catalogue_naming


def seated_words(session_pk: int) -> tuple[dict[str, str], dict[str, str]]:
    """The session's seats, read once: the chapter (squad slug) of each player's id in the
    session's games (``p1``) and of each of their figures' ids as a game sets them up
    (``p1-cmd``, ``p1-m1``...), for the seats with a squad; and each seated player's name
    by their id (``p1`` -> name)."""
    chapters: dict[str, str] = {}
    names: dict[str, str] = {}
    seats = Seat.objects.filter(session_id=session_pk).select_related("player", "squad", "loadout")
    for seat in seats:
        player = game_player_id(seat)
        names[player] = seat.player.display_name
        if seat.squad is not None:
            for owner in (player, *squad_figure_ids(player, seat_arms(seat))):
                chapters[owner] = seat.squad.slug
    return chapters, names


def marine_name(player: str, unit: str, weapons: Sequence[str]) -> str:
    """What a judge calls a marine of ``player`` (their name) of ``unit`` armed with
    ``weapons``: the player's commander, or the player's marine by its first weapon (the
    weapons tell a squad's marines apart)."""
    if unit == "commander":
        return _("%(player)s's commander") % {"player": player}
    if weapons:
        weapon = format_param("weapon", weapons[0], narration_language())
        return _("%(player)s's %(weapon)s marine") % {"player": player, "weapon": weapon}
    return _("%(player)s's marine") % {"player": player}


def marine_names(state: GameState, players: Mapping[str, str]) -> dict[str, str]:
    """What a judge calls each marine of ``state`` whose player has a name in ``players``
    (:func:`marine_name`), by figure id."""
    names = {}
    for figure in state.figures:
        player = players.get(figure.player or "")
        if figure.side != MARINE or not player or is_vehicle(figure):
            continue
        names[figure.id] = marine_name(player, figure.unit, figure.weapons)
    return names


def _stored_label(figure: Mapping[str, Any], players: Mapping[str, str]) -> str | None:
    """The label :func:`labelled` gives a figure as a stored state's JSON writes it: an
    alien or a vehicle by its board label (:func:`table.board_svg.short_label`), a marine
    of a named player by :func:`marine_name`; None for a figure without one (a marine of a
    player the page has no name for, an alien of a state stored before figures had
    numbers)."""
    unit = str(figure.get("unit", ""))
    if figure.get("side") == MARINE and unit not in VEHICLE_UNITS:
        player = players.get(str(figure.get("player") or ""))
        return marine_name(player, unit, figure.get("weapons") or ()) if player else None
    number = figure.get("number")
    return short_label(unit, number) if isinstance(number, int) else None


def history_labels(game: Game, first: int, last: int) -> dict[str, str]:
    """The labels of every figure standing in ``game``'s states ``first`` to ``last``, by
    id (a figure in several, as the latest of them labels it): a page listing those steps
    names a figure they killed, gone from the states the page reads whole, as the board
    named it while it stood. One query, reading the states' figures only (no state is
    parsed)."""
    labels: dict[str, str] = {}
    players = current_naming().players
    stored = (
        game.snapshots.filter(number__range=(first, last))
        .order_by("number")
        .values_list("state__figures", flat=True)
    )
    for figures in stored:
        for figure in figures or ():
            label = _stored_label(figure, players) if isinstance(figure, Mapping) else None
            if label:
                labels[str(figure["id"])] = label
    return labels


@contextmanager
def also_labelled(labels: Mapping[str, str]) -> Iterator[None]:
    """Render this block's texts naming the figures of ``labels`` too, those the naming in
    effect has no label for (the ones it has keep theirs)."""
    naming = current_naming()
    naming = dataclasses.replace(naming, figure_labels={**labels, **naming.figure_labels})
    with named(naming):
        yield


@contextmanager
def labelled(*states: GameState) -> Iterator[None]:
    """Render this block's texts naming the figures of ``states`` (a step's state and the
    one before it, so a figure the step killed keeps its label; the game's first, for the
    marines killed earlier): the aliens and vehicles by their board labels with their ids,
    the marines by :func:`marine_names` with their ids; a line weapon's aim in words and
    the squares as the rulers number them."""
    labels: dict[str, str] = {}
    naming = current_naming()
    for state in states:
        labels.update(marine_names(state, naming.players))
        labels.update(short_labels(state))
    naming = dataclasses.replace(
        naming, figure_labels=labels, aims_in_words=True, plain_squares=True
    )
    with named(naming):
        yield


def _named_states(session_pk: int, number: int | None) -> tuple[GameState, ...]:
    """The game's states whose figures its pages name: its first (every squad's marines,
    the ones killed since too) and its latest two (none without such a game)."""
    game = Game.objects.filter(session_id=session_pk, number=number).first() if number else None
    if game is None:
        return ()
    latest = list(game.snapshots.order_by("-number")[:2])
    if not latest:
        return ()
    first = [] if latest[-1].number == 1 else list(game.snapshots.filter(number=1))
    return tuple(snapshot_state(snapshot) for snapshot in [*first, *reversed(latest)])


def in_catalogue_words(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` (of the session ``pk``) rendering the engine's texts in its tournament's
    catalogue words, each player's cards in their chapter's, the players by their names
    and, on a game's pages, its figures by their board labels."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        tournament = Tournament.objects.filter(stages__sessions=kwargs["pk"]).first()
        if tournament is None:  # no such session: the view answers
            return view(request, *args, **kwargs)
        chapters, names = seated_words(kwargs["pk"])
        naming = dataclasses.replace(catalogue_naming(tournament, chapters), players=names)
        with named(naming):
            states = _named_states(kwargs["pk"], kwargs.get("number"))
            if not states:
                return view(request, *args, **kwargs)
            with labelled(*states):
                return view(request, *args, **kwargs)

    return wrapper
