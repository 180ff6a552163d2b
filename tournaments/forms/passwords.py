"""A person's own password: changed with the current one, or set from a one-time link
(Django's forms and checks, shown like every form of the site)."""

from __future__ import annotations

from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm

from tournaments.forms.accessible import AccessibleFormMixin


class AccountPasswordForm(AccessibleFormMixin, PasswordChangeForm):
    """The current password, then the new one twice."""


class LinkPasswordForm(AccessibleFormMixin, SetPasswordForm):
    """The new password twice, from a link an organiser issued
    (:mod:`tournaments.actions.passwords`)."""
