"""Form behaviour shared by every page: errors announced to screen readers and kept visible."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms

if TYPE_CHECKING:
    # What the mixins of forms/ are mixed into: the type checker sees a form's attributes.
    FormMixinBase = forms.BaseForm
else:
    FormMixinBase = object


class AccessibleFormMixin(FormMixinBase):
    """Marks invalid fields with ``aria-invalid`` and links them to their error text."""

    def full_clean(self) -> None:
        super().full_clean()
        for name in self.errors:
            if name in self.fields:
                widget = self.fields[name].widget
                widget.attrs["aria-invalid"] = "true"
                widget.attrs["aria-describedby"] = f"id_{self.add_prefix(name)}_error"


class AccessibleForm(AccessibleFormMixin, forms.Form):
    """Render with ``{% include "forms/accessible.html" %}`` (labels, help, errors)."""


class AccessibleModelForm(AccessibleFormMixin, forms.ModelForm):
    """Render with ``{% include "forms/accessible.html" %}`` (labels, help, errors)."""
