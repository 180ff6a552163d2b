"""Playwright (sync API) driving Debian's Chromium against pytest-django's live server.

The browser tests never skip: without Chromium they fail and say how to install it
(`make test` installs it). Screenshots of the main pages go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM must still be
# usable from the test body.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PASSWORD = "test-password"


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(
            "Chromium is missing at /usr/bin/chromium: install it with "
            "`apt-get install -y chromium` (make test does this for you).",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(
            "Playwright for Python is missing: `.venv/bin/pip install playwright` "
            "(no `playwright install` is needed; Debian's Chromium is used).",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def new_page(browser, live_server):
    """Open a fresh browser context (own cookies) on the live server; English UI;
    ``touch``: a phone's touch screen."""
    contexts = []

    def make(locale: str = "en-GB", width: int = 1280, height: int = 900, touch: bool = False):
        context = browser.new_context(
            base_url=live_server.url,
            locale=locale,
            viewport={"width": width, "height": height},
            has_touch=touch,
            is_mobile=touch,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def log_in(page, username: str, password: str = PASSWORD) -> None:
    """Log in through the login form, in whichever language the page speaks."""
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
