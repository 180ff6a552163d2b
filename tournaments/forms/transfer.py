"""The organiser's form to bring a whole tournament in from a document BoB exported (the
file the tournament's "Download" link gives, or ``manage.py export_tournament``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.domain.file_limits import MAX_DOCUMENT_BYTES
from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.uploads import uploaded_text


class TournamentImportForm(AccessibleForm):
    file = forms.FileField(
        label=_("Tournament document (JSON)"),
        help_text=_(
            "A file BoB exported (the “Download the tournament” link of a tournament's "
            "set-up page). Everything is checked first: if anything is wrong, every problem "
            "is listed and nothing is saved."
        ),
    )
    slug = forms.SlugField(
        label=_("Short name in the web address"),
        required=False,
        max_length=80,
        help_text=_(
            "Leave empty to keep the document's; give another when a tournament here "
            "already has it."
        ),
    )

    def clean_file(self) -> str:
        """The document's text (read as JSON, then checked, by the import)."""
        return uploaded_text(
            self.cleaned_data["file"],
            limit=MAX_DOCUMENT_BYTES,
            too_large=_("The file is larger than 50 MB; a tournament document is much smaller."),
            not_text=_("The file is not UTF-8 text: choose the JSON file BoB exported."),
        )
