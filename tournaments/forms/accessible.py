"""Form behaviour shared by every page: errors announced to screen readers and kept visible."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    # What the mixins of forms/ are mixed into: the type checker sees a form's attributes.
    FormMixinBase = forms.BaseForm
else:
    FormMixinBase = object


#: Django's own refusals of a value that is missing, not a number, not a choice or holds a
#: NUL character.
BUILT_IN_REFUSALS = frozenset(
    {"required", "invalid", "invalid_choice", "null_characters_not_allowed"}
)


class AccessibleFormMixin(FormMixinBase):
    """Marks invalid fields with ``aria-invalid`` and links them to their error text.

    A hidden field (a version, a row count, what the form was loaded from) is filled by the
    page, not typed, and has nowhere to show an error: a value missing from one, not a
    number or not a choice, which only a page cut short or altered can send, becomes one
    error over the form saying so (Django's own message would name a field nobody sees, or
    nothing at all). A form's own word on a hidden value (too many rows) stays its own."""

    def full_clean(self) -> None:
        super().full_clean()
        self._tell_hidden_refusals()
        for name in self.errors:
            if name in self.fields:
                widget = self.fields[name].widget
                widget.attrs["aria-invalid"] = "true"
                widget.attrs["aria-describedby"] = f"id_{self.add_prefix(name)}_error"

    def _tell_hidden_refusals(self) -> None:
        refused = [
            name
            for name, errors in self.errors.as_data().items()
            if name in self.fields
            and self.fields[name].widget.is_hidden
            and all(error.code in BUILT_IN_REFUSALS for error in errors)
        ]
        for name in refused:
            del self.errors[name]
        if refused:
            self.add_error(
                None,
                ValidationError(
                    _(
                        "The page sent was incomplete or altered (a value it keeps hidden was "
                        "missing or wrong), so nothing was saved: reload the page and try "
                        "again."
                    ),
                    code="page_altered",
                ),
            )


class AccessibleForm(AccessibleFormMixin, forms.Form):
    """Render with ``{% include "forms/accessible.html" %}`` (labels, help, errors)."""


class AccessibleModelForm(AccessibleFormMixin, forms.ModelForm):
    """Render with ``{% include "forms/accessible.html" %}`` (labels, help, errors)."""
