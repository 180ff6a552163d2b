"""The organiser's form for a tournament's own map: its drawing typed or pasted, or a map
file uploaded (whose text then shows in the box, to be fixed there if need be)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.forms.accessible import AccessibleForm
from tournaments.forms.stale_edits import VersionedFormMixin
from tournaments.forms.uploads import uploaded_text
from tournaments.models import DRAWING_LIMIT, TournamentMap
from tournaments.queries.edit_versions import map_version


def map_menu() -> forms.Select:
    """The widget of every map menu (a stage's, a session's, a new game's): its maps' names
    are long ("Stazione ripetitrice (Cattura la Bandiera) (flag-relay)"), so the style sheet
    lets the chosen one wrap instead of cutting it at a phone's edge (``.map-menu``)."""
    return forms.Select(attrs={"class": "map-menu"})


class MapForm(VersionedFormMixin, AccessibleForm):
    """A new map's drawing, or ``stored``'s new drawing (the form then carries the map's
    version: a save after someone else's is refused, the drawing typed kept)."""

    drawing = forms.CharField(
        label=_("Drawing"),
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 24, "class": "map-drawing", "spellcheck": "false", "wrap": "off"}
        ),
        help_text=_(
            "The map in BoB's text format: a 'name:' line (and a title) at the top, the "
            "drawing, then its legend. Every problem is listed with its line and column; "
            "nothing is saved until the map reads."
        ),
    )
    file = forms.FileField(
        label=_("Or a map file"),
        required=False,
        help_text=_("A .txt map file, used instead of the box above."),
    )

    def __init__(self, *args: Any, stored: TournamentMap | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if stored is not None:
            self.add_version_fields(
                lambda: map_version(stored), tournament=stored.tournament, remember=False
            )

    def clean_file(self) -> str | None:
        """The uploaded map's text (None: no file)."""
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        return uploaded_text(
            upload,
            limit=DRAWING_LIMIT,
            too_large=_("The file is larger than 200 KB; a map is much smaller."),
            not_text=_("The file is not UTF-8 text: save the map as plain text (UTF-8)."),
        )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        text = cleaned.get("file")
        if text is not None:
            # Shown in the box when the map is refused, so it can be fixed there.
            self.data = {**dict(self.data.items()), "drawing": text}
            cleaned["drawing"] = text
        elif "file" not in self.errors and not cleaned.get("drawing", "").strip():
            raise ValidationError(_("Type or paste the map's drawing, or choose a map file."))
        return cleaned
