"""A newcomer's tour of the demo: every page each demo log-in reaches, in Italian and English.

The demo is loaded by ``load_demo`` as ``make demo`` does; then, for every role the demo
offers (the public, the organiser, each judge, a player through a linked account and a
player through their private link) and for each language, the crawl follows every internal
link and ``hx-get`` endpoint the pages render (GET only, the demo tournament only, bounded
depth). It fails on a crash; on a 404 (or any other 4xx) behind a link the app rendered
itself; on a page without ``<html lang>`` matching the language, a ``<title>`` and exactly
one ``<h1>``; on markup inside the ``<title>`` (a tab shows it as text); on two pages of
different views sharing one ``<title>`` (a browser's tabs and history, and a screen
reader, tell pages apart by it); on a stored key or squad slug shown
instead of words; and, on Italian pages, on visible English text: a text node (or an
``aria-label``, ``title``, ``placeholder`` or ``alt``) that is exactly an English msgid of our
catalogue whose Italian translation differs, or an obvious English word, an English month or
weekday name, or a number written with a decimal point.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpResponse
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from demo.management.commands.load_demo import DEMO_SLUG, JUDGES, ORGANISER, PLAYER_ACCOUNT
from tournaments.models import Session, Squad, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
ITALIAN_CATALOGUE = ROOT / "locale/it/LC_MESSAGES/django.po"

#: How many links away from a role's start pages the crawl goes.
MAX_DEPTH = 4
#: At most this many distinct URLs of one view per role and language (session pages look
#: alike), so the crawl stays fast; the demo has five sessions.
MAX_PER_VIEW = 6
#: ``make demo`` loads the demo in the project's default language, so the texts the demo
#: stores (its description, the activity log) are Italian, as a newcomer sees them.
DEMO_LANGUAGE = "it"
#: A user name and password linked to one of the demo's players (the demo has no such log-in).

#: Views never followed: they change state (log out, forget or switch the player, open a
#: private link, which makes the browser speak for that player) or belong to Django.
SKIPPED_VIEWS = {
    "tournaments:logout",
    "tournaments:player_forget",
    "tournaments:player_switch",
    "tournaments:player_link",
    "set_language",
}
SKIPPED_PREFIXES = ("/static/", "/media/", "/admin/", "/i18n/")

#: Text that is the same in every language: names, acronyms, the language names the
#: language menu lists in their own language.
PROPER_NOUNS = {"BoB", "StarQuest", "StarQuest BoB", "JSON", "SVG", "PDF", "iCalendar", "English"}

#: Obvious English words and phrases that never belong on an Italian page as a whole text
#: node, whether or not our catalogue has them (those its Italian texts use, such as
#: "Password" or "Round", are dropped when the catalogue is read).
ENGLISH_WORDS = {
    *"""Actions Add Administration Alien Aliens Back Bracket Cancel Change Check Close Closed
    Confirm Confirmed Date Delete Details Download Draft Edit Error Final Finals Game
    Games Home Honours Judge Judges Kills Language Loadout Loadouts Login Logout Losses Map
    Name Next None Notes Open Organise Organiser Pending Player Players Points
    Preferences Preliminary Previous Print Rank Result Results Save Schedule Scheduled
    Score Seat Seats Semifinal Semifinals Session Sessions Settings Squad Squads Stage
    Stages Standings Status Submit Table Time Total Tournament Tournaments Username Winner
    Yes Unknown Today Tomorrow Yesterday Welcome""".split(),
    "Log in",
    "Log out",
    "Sign in",
    "Not yet",
    "Not scheduled",
    "Not played yet",
    "Read more",
    "Show more",
    "Loading…",
    "Loading...",
    "True",
    "False",
}

MONTHS_AND_DAYS = re.compile(
    r"\b(January|February|March|April|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Aug|Sept|Oct|Nov|Dec|Monday|Tuesday|Wednesday|Thursday|Friday"
    r"|Saturday|Sunday|a\.m\.|p\.m\.|noon|midnight)(?=\W|$)"
)
#: A decimal number written the English way (Italian uses a comma); not part of a longer
#: dotted token such as a version, an address or a hash.
DECIMAL_POINT = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
#: A stored key such as ``end_condition`` or ``one_per_squad``, shown as a whole text node.
RAW_KEY = re.compile(r"[a-z]+(?:_[a-z0-9]+)+")
#: Attributes whose values are shown to people (or read out by screen readers).
VISIBLE_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


def normalise(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Vocabulary:
    """What an Italian page may not show, and the names it may show in any language."""

    #: English msgids of the Italian catalogue whose Italian text differs.
    msgids: frozenset[str]
    #: The obvious English words, less those the Italian catalogue uses itself ("Password").
    words: frozenset[str]
    #: Proper nouns, and the demo's people, user names, tournament and venue.
    names: frozenset[str]
    #: The squads' slugs, which pages show as the squads' names.
    slugs: frozenset[str] = frozenset()


def vocabulary(names: set[str] = frozenset(), slugs: set[str] = frozenset()) -> Vocabulary:
    msgids, italian = set(), set()
    for entry in polib.pofile(str(ITALIAN_CATALOGUE)):
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        if entry.msgid_plural:
            texts = [normalise(text) for text in entry.msgstr_plural.values()]
            pairs = [(entry.msgid, texts[:1]), (entry.msgid_plural, texts[1:])]
        else:
            texts = [normalise(entry.msgstr)]
            pairs = [(entry.msgid, texts)]
        italian.update(texts)
        for msgid, translations in pairs:
            if any(text and text != normalise(msgid) for text in translations):
                msgids.add(normalise(msgid))
    known = frozenset(PROPER_NOUNS | set(names))
    english = frozenset(ENGLISH_WORDS - italian)
    return Vocabulary(frozenset(msgids - known), english, known, frozenset(slugs))


@dataclass
class Page:
    """What the crawl reads from one HTML (or SVG) response."""

    lang: str | None = None
    titles: list[str] = field(default_factory=list)
    #: Elements written inside the <title> (a browser shows them as text in the tab).
    title_markup: list[str] = field(default_factory=list)
    h1_count: int = 0
    texts: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    htmx_links: list[str] = field(default_factory=list)


class PageParser(HTMLParser):
    HIDDEN = {"script", "style"}
    #: Literal text to be typed as it is (a JSON key in a house rule, a command), in no
    #: language: not words to translate.
    LITERAL = {"code", "pre", "textarea"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "title" in self._open:
            self.page.title_markup.append(tag)
        if tag == "html":
            self.page.lang = values.get("lang")
        if tag == "h1":
            self.page.h1_count += 1
        if tag == "a" and values.get("href"):
            self.page.links.append(values["href"])
        if values.get("hx-get") and tag != "form":
            # A form's hx-get is a submission of its fields (the flow tests cover them).
            self.page.htmx_links.append(values["hx-get"])
        for name in VISIBLE_ATTRIBUTES:
            if values.get(name, "").strip():
                self.page.texts.append(values[name])
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.page.texts.append(values["value"])
        if tag not in ("meta", "link", "input", "br", "img", "hr", "source"):
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._open:
            while self._open and self._open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if any(tag in self.HIDDEN | self.LITERAL for tag in self._open) or not data.strip():
            return
        if self._open and self._open[-1] == "title":
            self.page.titles.append(data)
        self.page.texts.append(data)


def view_name(url: str) -> str:
    """The name of the view ``url`` reaches (the path itself when it reaches none)."""
    try:
        return resolve(urlsplit(url).path).view_name
    except Resolver404:
        return urlsplit(url).path


def parse(content: str) -> Page:
    parser = PageParser()
    parser.feed(content)
    parser.close()
    return parser.page


@dataclass
class Crawl:
    """One role's crawl in one language; ``problems`` lists what a newcomer would meet."""

    role: str
    language: str
    client: Client
    vocabulary: Vocabulary
    problems: list[str] = field(default_factory=list)
    visited: set[tuple[str, bool]] = field(default_factory=set)
    queued: set[tuple[str, bool]] = field(default_factory=set)
    per_view: dict[tuple[str, bool], int] = field(default_factory=dict)
    #: The views whose pages carried each ``<title>``, and one URL of each.
    titled: dict[str, dict[str, str]] = field(default_factory=dict)

    def report(self, url: str, origin: str, message: str) -> None:
        self.problems.append(f"[{self.language}/{self.role}] {url} (from {origin}): {message}")

    def run(self, starts: list[str]) -> None:
        queue: deque[tuple[str, bool, int, str]] = deque((url, False, 0, "start") for url in starts)
        while queue:
            url, htmx, depth, origin = queue.popleft()
            if (url, htmx) in self.visited:
                continue
            self.visited.add((url, htmx))
            response = self.client.get(url, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
            status = response.status_code
            if status >= 500:
                self.report(url, origin, f"server error {status}")
            elif status >= 400:
                # A link the app rendered for this role must work for it: no 404, and no
                # 403 or 405 either (a page this role may not see, a POST-only view).
                self.report(url, origin, f"{status} behind a link the app rendered")
            elif status in (301, 302, 303, 307, 308):
                target = self.internal(urljoin(url, response["Location"]))
                if target and urlsplit(target).path == reverse("tournaments:login"):
                    if origin != "start":
                        self.report(url, origin, "a link the app rendered asks to log in")
                elif target:
                    queue.appendleft((target, htmx, depth, url))
            else:
                page = self.read(url, origin, response, htmx)
                if page is not None and depth < MAX_DEPTH:
                    queue.extend(self.links(url, page, depth + 1))

    def read(self, url: str, origin: str, response: HttpResponse, htmx: bool) -> Page | None:
        """Check an HTML or SVG page; ``None`` for other content (PDF, calendar, JSON)."""
        content_type = response.get("Content-Type", "")
        if response.status_code != 200 or not content_type.startswith(
            ("text/html", "image/svg+xml")
        ):
            return None
        page = parse(response.content.decode(response.charset or "utf-8"))
        if content_type.startswith("text/html") and not htmx:
            self.check_structure(url, origin, page)
        self.check_raw_values(url, origin, page)
        if self.language == "it":
            self.check_italian(url, origin, page)
        return page

    @staticmethod
    def internal(url: str) -> str | None:
        """``url`` as a path and query when it points into the site, else ``None``."""
        parts = urlsplit(url)
        if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
            return None
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def links(self, url: str, page: Page, depth: int) -> list[tuple[str, bool, int, str]]:
        """The page's links worth following, as queue entries (at most ``MAX_PER_VIEW`` URLs
        of one view); a link to no URL of the site is reported at once."""
        found = []
        candidates = [(link, False) for link in page.links]
        candidates += [(link, True) for link in page.htmx_links]
        for link, htmx in candidates:
            target = self.internal(urljoin(url, link).split("#", 1)[0])
            if target is None or target.startswith(SKIPPED_PREFIXES):
                continue
            if (target, htmx) in self.visited or (target, htmx) in self.queued:
                continue
            self.queued.add((target, htmx))
            try:
                match = resolve(urlsplit(target).path)
            except Resolver404:
                self.report(target, url, "404 behind a link the app rendered (no such URL)")
                continue
            if match.view_name in SKIPPED_VIEWS or match.kwargs.get("slug", DEMO_SLUG) != DEMO_SLUG:
                continue
            key = (match.view_name, htmx)
            if self.per_view.get(key, 0) >= MAX_PER_VIEW:
                continue
            self.per_view[key] = self.per_view.get(key, 0) + 1
            found.append((target, htmx, depth, url))
        return found

    def check_structure(self, url: str, origin: str, page: Page) -> None:
        if page.lang != self.language:
            self.report(url, origin, f'<html lang="{page.lang}">, expected "{self.language}"')
        if not any(title.strip() for title in page.titles):
            self.report(url, origin, "no <title>")
        if page.title_markup:
            self.report(url, origin, f"markup in the <title>: <{'>, <'.join(page.title_markup)}>")
        title = " ".join(" ".join(page.titles).split())
        self.titled.setdefault(title, {}).setdefault(view_name(url), url)
        if page.h1_count != 1:
            self.report(url, origin, f"{page.h1_count} <h1> elements, expected one")

    def check_titles(self) -> None:
        """Pages of different views have different titles (one view's pages, a session's
        sheet for each session, may share one only when their headings do too)."""
        for title, views in self.titled.items():
            if len(views) > 1:
                urls = ", ".join(sorted(views.values()))
                self.report(urls, "crawl", f"the same <title> {title!r} on different pages")

    def check_raw_values(self, url: str, origin: str, page: Page) -> None:
        """Stored values shown as they are instead of in words, in any language: a parameter
        or choice key (``end_condition``) or a squad's slug (``blood-angels``)."""
        for raw in page.texts:
            text = raw.strip(" \n\t:")
            if RAW_KEY.fullmatch(text):
                self.report(url, origin, f"raw key instead of words: {text!r}")
            slugs = {word for word in re.split(r"[^\w-]+", text) if word in self.vocabulary.slugs}
            if slugs:
                self.report(url, origin, f"squad slug instead of its name: {text!r}")

    def check_italian(self, url: str, origin: str, page: Page) -> None:
        vocabulary = self.vocabulary
        for raw in page.texts:
            text = normalise(raw)
            if text in vocabulary.names:
                continue
            if text in vocabulary.msgids or text.rstrip(":") in vocabulary.msgids:
                self.report(url, origin, f"English text from the catalogue: {text!r}")
            elif text in vocabulary.words or text.rstrip(":") in vocabulary.words:
                self.report(url, origin, f"English word: {text!r}")
            elif MONTHS_AND_DAYS.search(text):
                self.report(url, origin, f"English date: {text!r}")
            elif DECIMAL_POINT.search(text):
                self.report(url, origin, f"number with a decimal point: {text!r}")


def browser(language: str) -> Client:
    """A browser whose language cookie asks for ``language``."""
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def logged_in(language: str, username: str, password: str) -> Client:
    """A browser that logged in through the log-in form, as a newcomer does."""
    client = browser(language)
    response = client.post(
        reverse("tournaments:login"), {"username": username, "password": password}
    )
    assert response.status_code == 302, f"the log-in {username} / {password} is refused"
    return client


def pending_session() -> Session:
    """The semifinal still waiting for its result."""
    return Session.objects.get(stage__tournament__slug=DEMO_SLUG, stage__number=2, number=2)


def played_session() -> Session:
    """The semifinal with a confirmed result."""
    return Session.objects.get(stage__tournament__slug=DEMO_SLUG, stage__number=2, number=1)


def load_demo() -> str:
    """Load the demo as ``make demo`` does; the printed output (log-ins and private links)
    is returned."""
    output = StringIO()
    with translation.override(DEMO_LANGUAGE):
        call_command("load_demo", stdout=output)
    return output.getvalue()


def demo_names() -> set[str]:
    """Names that read the same in every language: people, user names, tournament, venue."""
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    names = {tournament.name, tournament.venue}
    for user in get_user_model().objects.all():
        names |= {user.get_username(), user.get_full_name()}
    for player in tournament.players.all():
        names |= {player.name, player.nickname, str(player)}
    return {name for name in names if name}


def demo_roles(language: str, output: str) -> dict[str, tuple[Client, list[str]]]:
    """Every role of the demo: a browser in ``language`` and the pages it starts from."""
    public_pages = [
        reverse("tournaments:home"),
        reverse("tournaments:tournament", args=[DEMO_SLUG]),
    ]
    roles = {"public": (browser(language), [*public_pages, reverse("tournaments:login")])}
    for username, password in (ORGANISER[:2], *(judge[:2] for judge in JUDGES)):
        assert f"{username} / {password}" in output, f"load_demo does not print {username}"
        client = logged_in(language, username, password)
        roles[username] = (client, [reverse("tournaments:judge_home"), *public_pages])
    roles[ORGANISER[0]][1].insert(0, reverse("tournaments:organiser_home"))
    player_pages = [reverse("tournaments:player_home"), *public_pages]
    player = pending_session().seats.order_by("seat_order").first().player
    link = reverse("tournaments:player_link", args=[player.access_token])
    assert link in output, "load_demo does not print the players' private links"
    client = browser(language)
    assert client.get(link).status_code == 302
    roles["player (private link)"] = (client, player_pages)
    username, password = PLAYER_ACCOUNT[:2]
    assert f"{username} / {password}" in output, "load_demo does not print the player log-in"
    roles["player (account)"] = (logged_in(language, username, password), player_pages)
    return roles


@pytest.mark.parametrize("language", ["it", "en"])
def test_every_page_of_the_demo_is_complete_in_each_language(language):
    output = load_demo()
    slugs = Squad.objects.filter(tournament__slug=DEMO_SLUG).values_list("slug", flat=True)
    words = vocabulary(demo_names(), set(slugs))
    problems = []
    pages = 0
    for role, (client, starts) in demo_roles(language, output).items():
        crawl = Crawl(role, language, client, words)
        crawl.run(starts)
        crawl.check_titles()
        assert len(crawl.visited) > len(starts), f"the crawl as {role} found no links"
        pages += len(crawl.visited)
        problems.extend(crawl.problems)
    assert pages > 100
    assert not problems, f"{len(problems)} problems on the demo:\n" + "\n".join(problems)


def test_the_checks_catch_english_on_an_italian_page():
    """The checks themselves: a page with English text is caught, a clean one is not."""
    crawl = Crawl("test", "it", Client(), vocabulary({"Kraken"}, {"blood-angels"}))
    clean = parse(
        '<html lang="it"><head><title>Classifica · BoB</title></head><body><h1>Classifica</h1>'
        '<p>Kraken</p><a title="Apri">BoB</a><p>Password</p><p>12,5 punti</p><p>Angeli</p>'
        "<p>demo-alien_hunt</p>"
        '<script>var x = "Save";</script>'
    )
    crawl.check_structure("/clean", "test", clean)
    crawl.check_raw_values("/clean", "test", clean)
    crawl.check_italian("/clean", "test", clean)
    crawl.check_structure("/clean", "test", clean)
    crawl.check_titles()
    assert crawl.problems == []
    dirty = parse(
        '<html lang="en"><body><h1>A</h1><h1>B</h1><p> Standings </p><span aria-label="Save">'
        "x</span><p>Nov. 23, 2025</p><p>12.5 punti</p><li><span>end_condition</span>: 8</li>"
        "<p>preferenze: ultramarines, blood-angels</p>"
    )
    crawl.check_structure("/dirty", "test", dirty)
    crawl.check_raw_values("/dirty", "test", dirty)
    crawl.check_italian("/dirty", "test", dirty)
    crawl.check_structure("/other", "test", clean)
    marked = parse(
        '<html lang="it"><head><title>Organizza<p class="help"><a href="/conto/">Il tuo conto'
        "</a></p> · BoB</title></head><body><h1>Organizza</h1>"
    )
    crawl.check_structure("/marked", "test", marked)
    crawl.check_titles()
    found = "\n".join(crawl.problems)
    assert '<html lang="en">' in found and "no <title>" in found and "2 <h1>" in found
    assert "/marked" in found and "markup in the <title>: <p>, <a>" in found
    assert "/clean, /other" in found and "the same <title> 'Classifica · BoB'" in found
    assert "'Standings'" in found and "'Save'" in found
    assert "English date" in found and "decimal point" in found
    assert "raw key instead of words: 'end_condition'" in found
    assert "squad slug instead of its name: 'preferenze: ultramarines, blood-angels'" in found
