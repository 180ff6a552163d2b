"""Organiser pages of the catalogue: chapter cards, weapons and alien token values
(issue 15 item 5; the Django admin is not needed for any of it)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.actions.catalogue_edits import (
    add_shipped_cards,
    save_card,
    save_token_values,
    save_weapon,
)
from tournaments.forms.catalogue import ChapterCardForm, TokenValuesForm, WeaponForm
from tournaments.models import ChapterCard, Tournament
from tournaments.web.permissions import organiser_required


def _status(form) -> int:
    return 400 if form.is_bound and form.errors else 200


def _catalogue_page(
    request: HttpRequest, tournament: Tournament, tokens: TokenValuesForm
) -> HttpResponse:
    squads = tournament.squads.prefetch_related("cards").order_by("order", "pk")
    return render(
        request,
        "organiser/catalogue.html",
        {
            "tournament": tournament,
            "squads": squads,
            "weapons": tournament.weapons.all(),
            "tokens": tokens,
            "otab": "catalogue",
        },
        status=_status(tokens),
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def catalogue(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The chapter cards and weapons with links to edit them, and the token values' form."""
    tokens = TokenValuesForm(request.POST or None, tournament=tournament, prefix="tokens")
    if request.method == "POST" and tokens.is_valid():
        save_token_values(tournament, tokens.cleaned_data, actor=request.user)
        messages.success(request, _("Token values saved."))
        return redirect("tournaments:organiser_catalogue", slug=tournament.slug)
    return _catalogue_page(request, tournament, tokens)


@organiser_required
@require_http_methods(["GET", "POST"])
def card_edit(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    card = get_object_or_404(
        ChapterCard.objects.select_related("squad__tournament"), pk=pk, squad__tournament=tournament
    )
    form = ChapterCardForm(request.POST or None, instance=card)
    if request.method == "POST" and form.is_valid():
        card = save_card(form.save(commit=False), actor=request.user)
        messages.success(request, _("%(card)s saved.") % {"card": card.name})
        return redirect("tournaments:organiser_catalogue", slug=tournament.slug)
    return render(
        request,
        "organiser/catalogue_item.html",
        {
            "tournament": tournament,
            "form": form,
            "title": _("%(card)s (%(squad)s)") % {"card": card.name, "squad": card.squad.name},
            "otab": "catalogue",
        },
        status=_status(form),
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def weapon_edit(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    weapon = get_object_or_404(tournament.weapons, pk=pk)
    form = WeaponForm(request.POST or None, instance=weapon)
    if request.method == "POST" and form.is_valid():
        weapon = save_weapon(form.save(commit=False), actor=request.user)
        messages.success(request, _("%(weapon)s saved.") % {"weapon": weapon.name})
        return redirect("tournaments:organiser_catalogue", slug=tournament.slug)
    return render(
        request,
        "organiser/catalogue_item.html",
        {"tournament": tournament, "form": form, "title": weapon.name, "otab": "catalogue"},
        status=_status(form),
    )


@organiser_required
@require_POST
def cards_complete(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Add the shipped chapter cards the tournament lacks."""
    added = add_shipped_cards(tournament, actor=request.user)
    if added:
        messages.success(
            request,
            ngettext("%(count)d chapter card added.", "%(count)d chapter cards added.", added)
            % {"count": added},
        )
    else:
        messages.info(request, _("Every shipped chapter card is already in the catalogue."))
    return redirect("tournaments:organiser_catalogue", slug=tournament.slug)
