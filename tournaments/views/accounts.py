"""A person's own account: changing its password, and setting one from a link an organiser
issued (:mod:`tournaments.actions.passwords`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN, PasswordResetConfirmView
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.actions.passwords import set_password
from tournaments.forms.passwords import AccountPasswordForm, LinkPasswordForm
from tournaments.views.auth import start_session
from tournaments.web.permissions import login_required, public
from tournaments.web.request_types import AccountHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def account(request: AccountHttpRequest) -> HttpResponse:
    """The logged-in person's account: their user name and a new password."""
    form = AccountPasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        set_password(request.user, form.cleaned_data["new_password1"])
        update_session_auth_hash(request, request.user)
        messages.success(request, _("Your password is changed; use the new one next time."))
        return redirect("tournaments:account")
    return render(
        request, "tournaments/account.html", {"form": form}, status=400 if form.errors else 200
    )


class PasswordSetView(PasswordResetConfirmView):
    """The page a password link opens: the new password twice, then logged in on the page
    of the person's main role. A link already used, expired or mistyped says so."""

    template_name = "tournaments/password_set.html"
    form_class = LinkPasswordForm

    def get_user(self, uidb64: str):
        """The link's account while it may log in (one deactivated since is refused)."""
        user = super().get_user(uidb64)
        return user if user is not None and user.is_active else None

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        user = form.user
        set_password(user, form.cleaned_data["new_password1"])
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        landing = start_session(self.request, user)
        messages.success(
            self.request,
            _("Your password is set, %(name)s; log in with it from now on.")
            % {"name": user.get_username()},
        )
        return redirect(reverse(landing))

    def form_invalid(self, form: SetPasswordForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


#: Its pages are a template or a redirect, both ``HttpResponse`` (its type says the base class).
password_set = public(PasswordSetView.as_view())  # type: ignore[arg-type]
