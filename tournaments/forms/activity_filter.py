"""What the organiser narrows the activity log to: an action, a session, an account."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import AccessibleForm
from tournaments.models import ActivityVerb, Tournament
from tournaments.queries.activity_page import logged_accounts, session_choices


class ActivityFilterForm(AccessibleForm):
    """Read from the page's query string; each field left at "every" narrows nothing. A
    value that is not one of the choices (an old link, a session since undone) is refused
    by the field, and the page then lists every entry."""

    action = forms.ChoiceField(label=_("Action"), required=False)
    session = forms.TypedChoiceField(
        label=_("Session"), required=False, coerce=int, empty_value=None
    )
    who = forms.TypedChoiceField(label=_("Who"), required=False, coerce=int, empty_value=None)

    def __init__(self, data: Any = None, *, tournament: Tournament) -> None:
        super().__init__(data)
        accounts = [(user.pk, user.get_username()) for user in logged_accounts(tournament)]
        for name, every, choices in (
            ("action", _("every action"), ActivityVerb.choices),
            ("session", _("every session"), session_choices(tournament)),
            ("who", _("anyone"), accounts),
        ):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = [("", every), *choices]

    def narrowing(self) -> dict[str, Any]:
        """The keywords of :func:`~tournaments.queries.activity_page.activity_entries` the
        valid fields give (nothing when a field is invalid: every entry)."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {"action": data["action"], "session": data["session"], "actor": data["who"]}
