"""Django's password length check with its refusal in the site's own catalogue.

Django 5.2 reworded the message ("at least %d characters") and its Italian catalogue still
translates the old wording, so an Italian page refused a short password in English; the
other checks' messages are translated as they are."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: it must have at least %(min_length)d character.",
            "This password is too short: it must have at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
