"""The status a page answers with when it shows a form, so tests and tools see a refusal:
400 for a posted form refused, 409 for one refused because someone else saved what it
edits first (decision 46: the form comes back to check), 200 otherwise."""

from __future__ import annotations

from django.forms import BaseForm


def form_status(form: BaseForm) -> int:
    if form.is_bound and form.errors:
        return 409 if getattr(form, "stale", False) else 400
    return 200
