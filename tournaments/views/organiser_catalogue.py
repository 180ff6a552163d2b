"""Organiser pages of the catalogue: chapter cards, weapons, alien token values and the
alien event cards' names and texts (issue 15 item 5, RULES §12; the Django admin is not
needed for any of it)."""

from __future__ import annotations

from django.contrib import messages
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from rules.engine.event_cards import EventDataError
from rules.engine.units import RulesDataError
from tournaments.actions.catalogue_edits import (
    CatalogueEditError,
    add_shipped_cards,
    save_card,
    save_event_card,
    save_rules_values,
    save_token_values,
    save_weapon,
)
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.actions.squad_edits import save_squads
from tournaments.domain.engine_language import narration_language
from tournaments.forms.catalogue import (
    ChapterCardForm,
    EventCardForm,
    TokenValuesForm,
    WeaponForm,
)
from tournaments.forms.rules_values import SECTIONS, RulesValuesForm
from tournaments.forms.squads import SquadsForm
from tournaments.models import ChapterCard, Tournament
from tournaments.queries.event_deck import (
    event_overrides,
    shipped_event_card,
    tournament_event_cards,
)
from tournaments.queries.rules_values import LABELS, VALUES, rules_item, rules_items
from tournaments.web.form_status import form_status
from tournaments.web.page_parts import redirect_to_section
from tournaments.web.permissions import organiser_required


def _refused(form: BaseForm, error: CatalogueEditError) -> None:
    for field, problem in error.problems.items():
        form.add_error(field, problem)


def _item_page(
    request: HttpRequest, tournament: Tournament, form: BaseForm, title: str, section: str
) -> HttpResponse:
    """The page editing one item of the catalogue (a card, a weapon, an event card, a unit's
    values); its way back leads to the catalogue's ``section`` (the id of the part listing
    it: the catalogue is long on a phone)."""
    return render(
        request,
        "organiser/catalogue_item.html",
        {
            "tournament": tournament,
            "form": form,
            "title": title,
            "section": section,
            "otab": "catalogue",
        },
        status=form_status(form),
    )


def _catalogue_page(
    request: HttpRequest,
    tournament: Tournament,
    tokens: TokenValuesForm,
    squad_form: SquadsForm | None = None,
) -> HttpResponse:
    """The catalogue, ``tokens`` or ``squad_form`` (unbound when not given) as posted."""
    squad_form = squad_form or SquadsForm(tournament=tournament, prefix="squads")
    squads = tournament.squads.prefetch_related("cards").order_by("order", "pk")
    events, events_error = tournament_event_cards(tournament)
    edited = set(event_overrides(tournament))
    lang = narration_language()
    items, values_error = rules_items(tournament)
    return render(
        request,
        "organiser/catalogue.html",
        {
            "tournament": tournament,
            "squads": squads,
            "weapons": tournament.weapons.all(),
            "tokens": tokens,
            "squad_form": squad_form,
            "event_cards": [
                (card.id, card.name[lang], card.text[lang], card.id in edited) for card in events
            ],
            "events_error": events_error,
            "rules_tables": [
                (section, *SECTIONS[section], [LABELS[name] for name in names], items[section])
                for section, names in VALUES.items()
            ],
            "values_error": values_error,
            "otab": "catalogue",
        },
        status=max(form_status(tokens), form_status(squad_form)),
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def catalogue(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The chapter cards and weapons with links to edit them, and the token values' form."""
    tokens = TokenValuesForm(request.POST or None, tournament=tournament, prefix="tokens")
    if request.method == "POST" and tokens.is_valid():
        try:
            save_token_values(
                tournament,
                tokens.values(),
                actor=request.user,
                expected_version=tokens.expected_version,
            )
        except StaleEditError:
            tournament.refresh_from_db()
            tokens.refuse_stale(TokenValuesForm(tournament=tournament, prefix="tokens"))
        else:
            messages.success(request, _("Token values saved."))
            return redirect_to_section(
                "tournaments:organiser_catalogue", "tokens", slug=tournament.slug
            )
    return _catalogue_page(request, tournament, tokens)


@organiser_required
@require_POST
def squads_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The squads' names and the squad order (decision 59), from the catalogue's form."""
    form = SquadsForm(request.POST, tournament=tournament, prefix="squads")
    if form.is_valid():
        try:
            save_squads(
                tournament,
                form.names(),
                form.order(),
                actor=request.user,
                expected_version=form.expected_version,
            )
        except StaleEditError:
            form.refuse_stale(SquadsForm(tournament=tournament, prefix="squads"))
        except CatalogueEditError as error:
            _refused(form, error)
        else:
            messages.success(request, _("Squads saved."))
            return redirect_to_section(
                "tournaments:organiser_catalogue", "squads", slug=tournament.slug
            )
    tokens = TokenValuesForm(tournament=tournament, prefix="tokens")
    return _catalogue_page(request, tournament, tokens, form)


@organiser_required
@require_http_methods(["GET", "POST"])
def card_edit(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    card = get_object_or_404(
        ChapterCard.objects.select_related("squad__tournament"), pk=pk, squad__tournament=tournament
    )
    title = _("%(card)s (%(squad)s)") % {"card": card.name, "squad": card.squad.name}
    form = ChapterCardForm(request.POST or None, instance=card)
    if request.method == "POST" and form.is_valid():
        edited = form.save(commit=False)
        try:
            save_card(edited, actor=request.user, expected_version=form.expected_version)
        except StaleEditError:
            form.refuse_stale(ChapterCardForm(instance=ChapterCard.objects.get(pk=pk)))
        except CatalogueEditError as error:
            _refused(form, error)
        else:
            messages.success(request, _("Card %(card)s saved.") % {"card": edited.name})
            return redirect_to_section(
                "tournaments:organiser_catalogue", f"cards-{card.squad.slug}", slug=tournament.slug
            )
    return _item_page(request, tournament, form, title, f"cards-{card.squad.slug}")


@organiser_required
@require_http_methods(["GET", "POST"])
def weapon_edit(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    weapon = get_object_or_404(tournament.weapons, pk=pk)
    title = weapon.name
    form = WeaponForm(request.POST or None, instance=weapon)
    if request.method == "POST" and form.is_valid():
        edited = form.save(commit=False)
        try:
            save_weapon(edited, actor=request.user, expected_version=form.expected_version)
        except StaleEditError:
            form.refuse_stale(WeaponForm(instance=tournament.weapons.get(pk=pk)))
        except CatalogueEditError as error:
            _refused(form, error)
        else:
            messages.success(request, _("Weapon %(weapon)s saved.") % {"weapon": edited.name})
            return redirect_to_section(
                "tournaments:organiser_catalogue", "weapons", slug=tournament.slug
            )
    return _item_page(request, tournament, form, title, "weapons")


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
    return redirect_to_section(
        "tournaments:organiser_catalogue", "shipped-cards", slug=tournament.slug
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def event_card_edit(request: HttpRequest, tournament: Tournament, card: str) -> HttpResponse:
    """One alien event card's names and texts, as the board shows it when it is drawn."""
    shipped = shipped_event_card(card)
    if shipped is None:
        raise Http404(card)
    current = next(found for found in tournament_event_cards(tournament)[0] if found.id == card)
    form = EventCardForm(request.POST or None, tournament=tournament, card=current, shipped=shipped)
    if request.method == "POST" and form.is_valid():
        try:
            saved = save_event_card(
                tournament,
                card,
                name=form.wording("name"),
                text=form.wording("text"),
                actor=request.user,
                expected_version=form.expected_version,
            )
        except StaleEditError:
            tournament.refresh_from_db()
            now = next(c for c in tournament_event_cards(tournament)[0] if c.id == card)
            form.refuse_stale(EventCardForm(tournament=tournament, card=now, shipped=shipped))
        except EventDataError as error:
            form.add_error(
                None,
                _(
                    "The tournament's other event card changes are wrong, so this one cannot "
                    "be saved. %(error)s"
                )
                % {"error": error},
            )
        else:
            name = saved.name[narration_language()]
            messages.success(request, _("Alien event card %(card)s saved.") % {"card": name})
            return redirect_to_section(
                "tournaments:organiser_catalogue", "event-cards", slug=tournament.slug
            )
    title = _("Alien event card: %(card)s") % {"card": current.name[narration_language()]}
    return _item_page(request, tournament, form, title, "event-cards")


@organiser_required
@require_http_methods(["GET", "POST"])
def rules_values_edit(
    request: HttpRequest, tournament: Tournament, section: str, item: str
) -> HttpResponse:
    """One unit's or weapon's numbers (RULES §10b), as the tournament's games play them."""
    found = rules_item(tournament, section, item)
    if found is None:
        raise Http404(item)
    form = RulesValuesForm(request.POST or None, item=found, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            save_rules_values(
                tournament,
                section,
                item,
                form.values(),
                actor=request.user,
                expected_version=form.expected_version,
            )
        except StaleEditError:
            tournament.refresh_from_db()
            now = rules_item(tournament, section, item) or found
            form.refuse_stale(RulesValuesForm(item=now, tournament=tournament))
        except RulesDataError as error:
            form.add_data_error(error)
        else:
            messages.success(request, _("Values of %(item)s saved.") % {"item": found.label})
            return redirect_to_section(
                "tournaments:organiser_catalogue", "rules-values", slug=tournament.slug
            )
    return _item_page(request, tournament, form, found.label, "rules-values")
