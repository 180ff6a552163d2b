"""The organiser's pages of the tournament's own maps: the list beside the maps BoB ships,
a map added from its drawing or file, a map changed, renamed or removed."""

from __future__ import annotations

from itertools import chain, count

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from rules.engine.maps import bundled_map_text, bundled_maps
from tournaments.actions.map_edits import (
    MapDrawingError,
    MapInUseError,
    remove_map,
    save_map,
)
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.domain.map_copy import copied_map_text
from tournaments.forms.maps import MapForm
from tournaments.models import Tournament, TournamentMap
from tournaments.queries.playable_maps import (
    map_overview,
    map_users,
    own_drawing,
    own_map_label,
    own_map_row,
)
from tournaments.web.form_status import form_status
from tournaments.web.permissions import organiser_required


def _copy_name(tournament: Tournament, name: str) -> str:
    """A name no map of the tournament's or BoB's has: ``name-copy``, else ``name-copy-2``…"""
    taken = set(tournament.maps.values_list("name", flat=True)) | set(bundled_maps())
    base = f"{name[:100]}-copy"
    return next(
        candidate
        for candidate in chain([base], (f"{base}-{number}" for number in count(2)))
        if candidate not in taken
    )


def _copied_drawing(tournament: Tournament, name: str) -> str:
    """The drawing of the map ``name`` (the tournament's or BoB's) under a free name, titled
    as a copy in each of its languages (:func:`copied_map_text`), so it can be saved as a new
    map straight away and is not mistaken for the original in the map menus."""
    text = own_drawing(tournament, name)
    if text is None:
        if name not in bundled_maps():
            return ""
        text = bundled_map_text(name)
    return copied_map_text(text, name, _copy_name(tournament, name))


def _save(request: HttpRequest, form: MapForm, tournament: Tournament, replacing=None):
    """The saved map, or None with the form's errors set (nothing saved)."""
    if not form.is_valid():
        return None
    try:
        return save_map(
            tournament,
            form.cleaned_data["drawing"],
            replacing=replacing,
            actor=request.user,
            expected_version=form.expected_version,
        )
    except MapDrawingError as error:
        for problem in error.problems:
            form.add_error("drawing", problem)
    except StaleEditError:
        replacing.refresh_from_db()
        form.refuse_stale(MapForm(initial={"drawing": replacing.drawing}, stored=replacing))
    return None


@organiser_required
@require_http_methods(["GET", "POST"])
def maps(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every map the tournament can play; a POST adds one (``?from=NAME`` starts the new
    map's drawing from a copy of that map)."""
    copied = request.GET.get("from", "")
    form = MapForm(
        request.POST or None,
        request.FILES or None,
        initial={"drawing": _copied_drawing(tournament, copied)} if copied else None,
    )
    if request.method == "POST":
        saved = _save(request, form, tournament)
        if saved is not None:
            messages.success(request, _("Map %(name)s added.") % {"name": own_map_label(saved)})
            return redirect("tournaments:organiser_map", slug=tournament.slug, name=saved.name)
    context = {
        "tournament": tournament,
        "overview": map_overview(tournament),
        "form": form,
        "copied": copied,
        "otab": "maps",
    }
    status = 400 if form.errors else 200
    return render(request, "organiser/maps.html", context, status=status)


@organiser_required
@require_http_methods(["GET", "POST"])
def map_edit(request: HttpRequest, tournament: Tournament, name: str) -> HttpResponse:
    """One of the tournament's maps: its board, and its drawing to change."""
    tournament_map = TournamentMap.objects.filter(tournament=tournament, name=name).first()
    if tournament_map is None:
        if request.method == "POST":
            return _map_gone(request, tournament, name)
        raise Http404(name)
    form = MapForm(
        request.POST or None,
        request.FILES or None,
        initial={"drawing": tournament_map.drawing},
        stored=tournament_map,
    )
    if request.method == "POST":
        saved = _save(request, form, tournament, replacing=tournament_map)
        if saved is not None:
            messages.success(request, _("Map %(name)s saved.") % {"name": own_map_label(saved)})
            return redirect("tournaments:organiser_map", slug=tournament.slug, name=saved.name)
    context = {
        "tournament": tournament,
        "map": own_map_row(tournament_map, map_users(tournament)),
        "form": form,
        "otab": "maps",
    }
    return render(request, "organiser/map.html", context, status=form_status(form))


def _map_gone(request: HttpRequest, tournament: Tournament, name: str) -> HttpResponse:
    """A drawing posted for a map someone renamed or removed meanwhile: nothing is saved,
    the drawing stays in the new map's box."""
    form = MapForm(request.POST, request.FILES)
    form.is_valid()
    form.add_error(
        None,
        _(
            "The map %(name)s was renamed or removed in another tab or by someone else while "
            "you were editing it, so nothing was saved. Your drawing is in the box below: add "
            "it as a new map, or open the map under its new name in the list and change it "
            "there."
        )
        % {"name": name},
    )
    context = {
        "tournament": tournament,
        "overview": map_overview(tournament),
        "form": form,
        "copied": "",
        "otab": "maps",
    }
    return render(request, "organiser/maps.html", context, status=409)


@organiser_required
@require_POST
def map_remove(request: HttpRequest, tournament: Tournament, name: str) -> HttpResponse:
    tournament_map = get_object_or_404(TournamentMap, tournament=tournament, name=name)
    label = own_map_label(tournament_map)
    try:
        remove_map(tournament_map, actor=request.user)
    except MapInUseError as error:
        messages.error(request, str(error))
        return redirect("tournaments:organiser_map", slug=tournament.slug, name=name)
    messages.success(request, _("Map %(name)s removed.") % {"name": label})
    return redirect("tournaments:organiser_maps", slug=tournament.slug)
