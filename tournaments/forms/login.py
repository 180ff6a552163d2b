"""The log-in form, refusing without checking the password when the throttle says so."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError


class ThrottledLoginForm(AuthenticationForm):
    """``refusal``: the throttle's message; the form is then invalid with it, and the
    password is never checked (no answer to a guess made past the limit)."""

    def __init__(self, request: Any = None, *args: Any, refusal: str = "", **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.refusal = refusal

    @property
    def focus(self) -> str:
        """The field the page focuses: the password after a refusal, when the user name
        typed is kept and not itself refused; else the user name."""
        if self.errors and self["username"].value() and "username" not in self.errors:
            return "password"
        return "username"

    def clean(self) -> dict[str, Any]:
        if self.refusal:
            raise ValidationError(self.refusal, code="throttled")
        return super().clean()
