"""The organiser's advanced page of house rules: every rules data change of the tournament as
one JSON object, for what the catalogue's forms do not reach (decision 48)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tournaments.actions.house_rules_edits import (
    HouseRulesError,
    house_rules_version,
    save_house_rules,
)
from tournaments.actions.optimistic_lock import StaleEditError
from tournaments.forms.house_rules import HouseRulesForm, house_rules_text
from tournaments.models import Tournament
from tournaments.queries.class_removal import (
    removal_problems,
    removal_warnings,
    removed_classes,
    sessions_naming,
)
from tournaments.web.permissions import organiser_required


def _form(tournament: Tournament, data=None) -> HouseRulesForm:
    return HouseRulesForm(
        data, tournament=tournament, version=lambda: house_rules_version(tournament)
    )


def _removal_warnings(tournament: Tournament, overrides: dict) -> list[str]:
    """What the organiser confirms before saving ``overrides`` (decision 77): the sessions
    without a result that would name a Dreadnought class they remove. None when sessions
    with a result name one too: the save refuses that, and says so."""
    uses = sessions_naming(tournament, removed_classes(tournament, overrides))
    return [] if removal_problems(uses) else removal_warnings(uses)


@organiser_required
@require_http_methods(["GET", "POST"])
def house_rules(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = _form(tournament, request.POST or None)
    status = 200
    warnings: list[str] = []
    if request.method == "POST":
        status = 400
        if form.is_valid() and request.POST.get("confirm") != "1":
            warnings = _removal_warnings(tournament, form.cleaned_data["text"])
        if warnings:
            status = 409
        elif form.is_valid():
            try:
                changes = save_house_rules(
                    tournament,
                    form.cleaned_data["text"],
                    expected_version=form.expected_version,
                    actor=request.user,
                )
            except HouseRulesError as error:
                form.add_problems(error.problems)
            except StaleEditError:
                tournament.refresh_from_db()
                form.refuse_stale(_form(tournament))
                status = 409
            else:
                if changes:
                    messages.success(
                        request,
                        ngettext(
                            "House rules saved: %(count)d value changed.",
                            "House rules saved: %(count)d values changed.",
                            len(changes),
                        )
                        % {"count": len(changes)},
                    )
                else:
                    messages.info(request, _("Nothing changed: the house rules are as they were."))
                return redirect("tournaments:organiser_house_rules", slug=tournament.slug)
    return render(
        request,
        "organiser/house_rules.html",
        {
            "tournament": tournament,
            "form": form,
            "saved": house_rules_text(tournament.data_overrides),
            "warnings": warnings,
            "otab": "catalogue",
        },
        status=status,
    )
