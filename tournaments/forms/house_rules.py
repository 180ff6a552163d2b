"""The organiser's advanced page: the tournament's house rules typed as one JSON object."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engine import json_text
from tournaments.domain.house_rules import problem_place
from tournaments.domain.json_syntax import syntax_reason
from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.models import Tournament


def house_rules_text(overrides: Any) -> str:
    """The house rules as the page shows them: indented JSON, keys in order."""
    return json.dumps(overrides or {}, ensure_ascii=False, indent=2, sort_keys=True)


class HouseRulesForm(VersionedFormMixin, AccessibleForm):
    text = forms.CharField(
        label=gettext_lazy("House rules (JSON)"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "class": "code-text"}),
        help_text=gettext_lazy(
            "One JSON object; {} plays every value as BoB ships it. Each part changes what "
            "it names and nothing else."
        ),
    )

    def __init__(self, *args, tournament: Tournament, version, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("text", house_rules_text(tournament.data_overrides))
        self.add_version_fields(version, tournament=tournament, remember=False)

    def clean_text(self) -> dict[str, Any]:
        text = self.cleaned_data["text"]
        if not text.strip():
            return {}
        try:
            value = json_text.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("Line %(line)d, column %(column)d is not valid JSON: %(reason)s.")
                % {"line": error.lineno, "column": error.colno, "reason": syntax_reason(error.msg)}
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(
                _('The house rules must be one JSON object, between {…}: {"units": {…}}.')
            )
        return value

    def add_problems(self, problems) -> None:
        """Each problem the app found in the house rules, at the text, by its place."""
        for where, message in problems:
            place = problem_place(where)
            self.add_error("text", f"{place}: {message}" if place else message)
