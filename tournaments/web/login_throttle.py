"""The log-in throttle: failed log-ins limited per account, per client address, and per
account from one address, counted atomically in the database
(:mod:`tournaments.actions.login_attempts`).

* An account and client address together allow ``BOB_LOGIN_ATTEMPTS`` failures per
  window (``BOB_LOGIN_WINDOW_SECONDS``): someone guessing a password from one place is
  stopped, while the account's owner elsewhere can still log in.
* An account allows ``BOB_LOGIN_ACCOUNT_ATTEMPTS`` failures from all addresses together
  (guessing from many places), a client address ``BOB_LOGIN_ADDRESS_ATTEMPTS`` for all
  accounts together (trying many accounts).

The client address is the one the trusted reverse proxies saw (``BOB_TRUSTED_PROXIES``
entries from the right of ``X-Forwarded-For``), so behind a proxy every visitor is not
counted as the proxy's one address, and a client cannot pick its own address by sending
the header. A log-in refused by the throttle never checks the password.
"""

from __future__ import annotations

import hashlib
import math
from datetime import datetime

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import ngettext

from tournaments.actions.login_attempts import Reservation, Scope, release_attempt, reserve_attempt


def client_address(request: HttpRequest) -> str:
    """The client's address, as the last of the ``BOB_TRUSTED_PROXIES`` proxies saw it."""
    proxies = settings.BOB_TRUSTED_PROXIES
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    if proxies <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    # Each proxy appends the address it received the request from: the last proxy's entry
    # is the rightmost; with N trusted proxies the client is the N-th from the right.
    if len(forwarded) >= proxies:
        return forwarded[-proxies]
    return forwarded[0] if forwarded else remote


def _key(kind: str, *parts: str) -> str:
    text = "\x1f".join([kind, *parts])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _scopes(address: str, username: str) -> dict[str, Scope]:
    account = username.strip().lower()
    return {
        "pair": Scope(_key("pair", account, address), settings.BOB_LOGIN_ATTEMPTS),
        "account": Scope(_key("account", account), settings.BOB_LOGIN_ACCOUNT_ATTEMPTS),
        "address": Scope(_key("address", address), settings.BOB_LOGIN_ADDRESS_ATTEMPTS),
    }


def reserve(request: HttpRequest, username: str) -> Reservation:
    """Count this log-in attempt, or refuse it when a limit is reached (check first)."""
    scopes = _scopes(client_address(request), username)
    return reserve_attempt(list(scopes.values()), settings.BOB_LOGIN_WINDOW_SECONDS)


def succeeded(request: HttpRequest, username: str) -> None:
    """The password was right: the account's counts start again, the address gets its
    attempt back."""
    scopes = _scopes(client_address(request), username)
    release_attempt(
        cleared=[scopes["pair"].key, scopes["account"].key], returned=[scopes["address"].key]
    )


def refusal_message(retry_at: datetime | None) -> str:
    """What a refused visitor reads: how long to wait, from the settings."""
    seconds = settings.BOB_LOGIN_WINDOW_SECONDS
    if retry_at is not None:
        seconds = max(1, (retry_at - timezone.now()).total_seconds())
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed log-ins for this user name or from this address. Wait %(minutes)d "
        "minute and try again, or ask an organiser to reset your password.",
        "Too many failed log-ins for this user name or from this address. Wait %(minutes)d "
        "minutes and try again, or ask an organiser to reset your password.",
        minutes,
    ) % {"minutes": minutes}
