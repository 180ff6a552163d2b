"""Accessibility of the main pages in a real browser, for every audience.

axe-core (bundled by axe-playwright-python) checks each page against the WCAG 2.1 A and AA
rules at phone width and at desktop width (the projector view at projector width too), in
Italian and in English; a serious or critical violation fails the test (moderate and minor ones
are listed in the message and in test-artifacts/accessibility-report.txt). Also: every form
control has a label, every aria-labelledby/aria-describedby names an id on the page, one h1 per
page, the page language is declared, and a phone never scrolls the page sideways.

The keyboard tests Tab through the judge's result entry and the player's loadout: focus
reaches every control in visual order, each with a visible indicator.

The pages are those of the demo tournament (``load_demo``: results, honours, a bracket and a
pending semifinal), each page in each language a test case of its own (``standings-it``), so
that one failure hides no other. The cases share one demo, one live server and one logged-in
browser page per audience and language (``DemoSite``), built once for all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test.utils import modify_settings, setup_databases, teardown_databases
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from demo.management.commands.load_demo import DEMO_SLUG, JUDGES, ORGANISER
from table.actions import create_game
from tests.browser import accessibility_report
from tests.browser.conftest import log_in
from tests.browser.test_flows import seated_tournament
from tournaments.actions.result_entry import record_result
from tournaments.models import Loadout, Result, Seat, Session, SessionStatus, Tournament
from tournaments.queries.session_stipulation import result_limits
from tournaments.views import public

pytestmark = pytest.mark.browser

AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
BLOCKING = {"serious", "critical"}
PHONE, DESKTOP, PROJECTOR = 390, 1280, 1920
BROWSER_LOCALES = {"it": "it-IT", "en": "en-GB"}
JUDGE = next((name, password) for name, password, *_rest in JUDGES if name == "judge2")

UNLABELLED = """
() => Array.from(document.querySelectorAll('input, select, textarea'))
  .filter(el => el.type !== 'hidden' && el.offsetParent !== null)
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby'))
  .map(el => el.outerHTML.slice(0, 120))
"""

#: The visible tables wider than their box (a column to scroll sideways to), by their
#: caption or first heading, but for the grids read across (``.scrolls``), which may be.
CLIPPED_TABLES = """
() => [...document.querySelectorAll(".table-wrap:not(.scrolls)")]
  .filter(wrap => wrap.checkVisibility() && wrap.scrollWidth > wrap.clientWidth)
  .map(wrap => wrap.querySelector("caption, th")?.textContent.trim())
"""

#: aria-labelledby and aria-describedby naming an id that is not on the page: the name or
#: the description (help text, error) is then silently lost.
BROKEN_REFERENCES = """
() => Array.from(document.querySelectorAll('[aria-labelledby], [aria-describedby]'))
  .flatMap(el => ['aria-labelledby', 'aria-describedby'].flatMap(
    attribute => (el.getAttribute(attribute) || '').split(/\\s+/)
      .filter(id => id && !document.getElementById(id))
      .map(id => `${attribute}="${id}" on ${el.outerHTML.slice(0, 80)}`)))
"""


def resize(page, width: int) -> None:
    """Resize the viewport and wait two frames, so that resize observers have run."""
    page.set_viewport_size({"width": width, "height": page.viewport_size["height"]})
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


class Audit:
    """Runs the checks on pages and gathers every finding, so that one run reports them all."""

    def __init__(self) -> None:
        self.blocking: list[str] = []
        self.other: list[str] = []

    def page(self, page, language: str, widths=(PHONE, DESKTOP)) -> None:
        """Check the page as it is now with axe at each width (phone and desktop unless
        told), and its structure at the first width."""
        where = f"[{language}] /{page.url.split('//', 1)[-1].split('/', 1)[-1]}"
        lang = page.locator("html").get_attribute("lang")
        if lang != language:
            self.blocking.append(f"{where}: <html lang={lang!r}> instead of {language!r}")
        for width in widths:
            resize(page, width)
            self._axe(page, f"{where} at {width}px")
        resize(page, widths[0])
        self._structure(page, f"{where} at {widths[0]}px")

    def _axe(self, page, where: str) -> None:
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(AXE_SCRIPT)  # once per page load, not once per width
        results = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)
        for violation in results["violations"]:
            targets = "; ".join(
                " ".join(map(str, node["target"])) for node in violation["nodes"][:4]
            )
            finding = (
                f"{where}: {violation['id']} ({violation['impact']}) "
                f"{violation['help']} — {len(violation['nodes'])}x, e.g. {targets}"
            )
            if violation["impact"] in BLOCKING:
                self.blocking.append(finding)
            else:
                self.other.append(finding)

    def _structure(self, page, where: str) -> None:
        unlabelled = page.evaluate(UNLABELLED)
        if unlabelled:
            self.blocking.append(f"{where}: controls without a label: {unlabelled}")
        broken = page.evaluate(BROKEN_REFERENCES)
        if broken:
            self.blocking.append(f"{where}: references to missing ids: {broken}")
        headings = page.locator("h1").count()
        if headings != 1:
            self.blocking.append(f"{where}: {headings} h1 headings instead of one")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 1:
            self.blocking.append(f"{where}: the page scrolls sideways by {overflow}px")
        clipped = page.evaluate(CLIPPED_TABLES)
        if clipped:
            self.blocking.append(f"{where}: tables scrolling sideways: {clipped}")

    def report(self) -> str:
        return accessibility_report.summary(self.blocking, self.other)


def check_page(page, url: str) -> None:
    """Open ``url`` and run this module's checks at the page's current width; for browser
    tests whose flows reach pages in states that the audit here does not build."""
    page.goto(url)
    language = page.locator("html").get_attribute("lang")
    assert language in BROWSER_LOCALES, f"{url}: <html lang={language!r}>"
    audit = Audit()
    audit.page(page, language, widths=(page.viewport_size["width"],))
    assert not audit.blocking, audit.report()


def demo_tournament() -> tuple[Tournament, Session, Session]:
    """The demo, its played first semifinal and its pending second one."""
    call_command("load_demo", stdout=StringIO())
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    played, pending = Session.objects.filter(
        stage__tournament=tournament, stage__number=2
    ).order_by("number")
    return tournament, played, pending


def open_as(new_page, language: str, *, user: tuple[str, str] | None = None, player=None):
    """A new browser context in ``language``, logged in as ``user`` or speaking for
    ``player`` (through their private link)."""
    page = new_page(locale=BROWSER_LOCALES[language], width=PHONE, height=900)
    if user is not None:
        log_in(page, *user)
    if player is not None:
        page.goto(f"/p/{player.access_token}/")
    return page


def fail_to_log_in(page) -> None:
    """A failed log-in shows its error."""
    page.locator("#id_username").fill("nobody")
    page.locator("#id_password").fill("wrong")
    page.locator("main form button[type=submit]").click()
    expect(page.locator("main [role=alert]")).to_be_visible()


def not_played_yet(session: Session) -> None:
    """Take ``session`` back to before it was played: its loadouts are offered as a form
    again (a game on the board locks them, decision 52)."""
    Session.objects.filter(pk=session.pk).update(status=SessionStatus.SCHEDULED)


def break_the_loadout(page) -> None:
    """Before the session is played, the live check lists what breaks the rules."""
    seat = Seat.objects.get(pk=int(page.url.rstrip("/").split("/")[-2]))
    not_played_yet(seat.session)
    page.reload()
    page.locator("#id_marine_2").select_option(index=0)
    expect(page.locator("#loadout-problems .problems")).to_be_visible()


def add_a_broken_map(page) -> None:
    """The organiser adds a map whose drawing does not read: each problem at the box."""
    page.locator("#id_drawing").fill("name: broken\n\n+--+--+\n|.  ? |\n+--+--+\n")
    page.locator("#add-map button[type=submit]").click()
    expect(page.locator("#add-map [aria-invalid=true]")).to_be_visible()


def import_a_wrong_document(page) -> None:
    """The organiser brings in a file that is no tournament: the problems are listed."""
    page.locator("#id_file").set_input_files(
        files=[{"name": "x.json", "mimeType": "application/json", "buffer": b'{"format": "x"}'}]
    )
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("#import-problems")).to_be_visible()


def issue_a_password_link(page) -> None:
    """The organiser asks for a link with which a judge sets their password."""
    page.locator("main form[action*='/password-link/'] button").first.click()
    expect(page.locator("#password-link")).to_be_visible()


def open_a_password_link(page) -> None:
    """The page a judge's password link opens: their new password, twice."""
    issue_a_password_link(page)
    page.goto(page.locator("#password-link").input_value())
    expect(page.locator("#id_new_password1")).to_be_visible()


def type_and_save(page, count: str) -> None:
    """Type ``count`` in the result form's first field, wait for the live preview it asks
    for, then save: a tap during the preview's redraw could land on another button."""
    with page.expect_response(lambda response: "/result/preview/" in response.url):
        page.locator("#result-form input[type=number]").first.fill(count)
    page.locator("#result-form .actions button[type=submit]").click()


def refuse_an_impossible_result(page) -> None:
    """The judge types 50 kills of a five-figure squad: the save is refused at the field."""
    type_and_save(page, "50")
    expect(page.locator("#result-form [aria-invalid=true]").first).to_be_visible()


def conflict_with_a_newer_version(page) -> None:
    """Someone saves a newer version of the result while the form is open: the save is
    refused with the field-by-field comparison."""
    session = Session.objects.get(pk=int(page.url.rstrip("/").split("/")[-2]))
    latest = Result.objects.get(session=session).latest_version()
    changed = [dict(entry) for entry in latest.breakdown]
    scoring = result_limits(session).scoring
    if scoring is not None and scoring.flags:
        brought = [{"label": "flag", "points": scoring.flag_value}]  # one flag home, or none
        changed[0]["objectives"] = [] if changed[0].get("objectives") == brought else brought
    else:  # no objective outside Catch the Flag (decision 71): a marine lost to own fire, or not
        own = {"marine_class": "light", "cause": "own_fire", "killer": None, "count": 1}
        losses = list(changed[0].get("losses", []))
        kept = [loss for loss in losses if loss != own]
        changed[0]["losses"] = kept if len(kept) < len(losses) else [*losses, own]
    record_result(session, changed, survivors=latest.survivors, confirmed=True)
    type_and_save(page, "1")
    expect(page.get_by_test_id("conflict")).to_be_visible()


def type_a_redraw_with_bad_dice(page) -> None:
    """The judge opens the redraw and types dice a d6 cannot show: the line under the
    field names them."""
    page.locator("details.redraw summary").click()
    page.locator("#redraw-form input[type=radio][value=physical]").check()
    page.locator("#id_redraw-dice").fill("0,7")
    expect(page.locator("#redraw-need .problems")).to_be_visible()


def tap_a_marine(page) -> None:
    """The judge taps a marine on the touch board: its reachable squares light up."""
    page.locator('g.figure[data-figure="p1-m2"]').click()
    expect(page.locator(".mark-reach").first).to_be_attached()


@dataclass(frozen=True)
class AuditedPage:
    """A page of the audit: ``url`` is formatted with the demo's ``slug``, ``played`` and
    ``pending`` sessions, the first ``player`` of the played one and ``pending_seat`` of the
    pending one, the audited player's ``seat`` and a session of their ``history``; ``then``
    acts on the page before the checks. The public pages and the judge's first two are
    audited before the judge draws the pending semifinal's squads, the others after the
    draw, with two loadouts and a game on the board."""

    name: str
    audience: str
    url: str
    squads_drawn: bool = True
    widths: tuple[int, ...] = (PHONE, DESKTOP)
    then: Callable | None = None


AUDITED_PAGES = [
    AuditedPage("home", "public", "/", squads_drawn=False),
    AuditedPage("tournament", "public", "/t/{slug}/", squads_drawn=False),
    AuditedPage("standings", "public", "/t/{slug}/standings/", squads_drawn=False),
    AuditedPage("bracket", "public", "/t/{slug}/bracket/", squads_drawn=False),
    AuditedPage("honours", "public", "/t/{slug}/honours/", squads_drawn=False),
    AuditedPage("dice", "public", "/t/{slug}/dice/", squads_drawn=False),
    AuditedPage("schedule", "public", "/t/{slug}/schedule/", squads_drawn=False),
    AuditedPage("session", "public", "/t/{slug}/sessions/{played}/", squads_drawn=False),
    AuditedPage("player", "public", "/t/{slug}/players/{player}/", squads_drawn=False),
    AuditedPage("login", "public", "/accounts/login/", squads_drawn=False),
    AuditedPage(
        "projector",
        "public",
        "/t/{slug}/projector/",
        squads_drawn=False,
        widths=(PHONE, DESKTOP, PROJECTOR),
    ),
    AuditedPage(
        "login-failed", "public", "/accounts/login/", squads_drawn=False, then=fail_to_log_in
    ),
    AuditedPage("judge-home", "judge", "/judge/", squads_drawn=False),
    AuditedPage("judge-session-undrawn", "judge", "/judge/sessions/{pending}/", squads_drawn=False),
    AuditedPage("judge-session", "judge", "/judge/sessions/{pending}/"),
    AuditedPage("judge-result", "judge", "/judge/sessions/{pending}/result/"),
    AuditedPage(
        "judge-result-impossible",
        "judge",
        "/judge/sessions/{pending}/result/",
        then=refuse_an_impossible_result,
    ),
    # The organiser may judge every session of theirs: the played one has a result.
    AuditedPage(
        "judge-result-conflict",
        "organiser",
        "/judge/sessions/{played}/result/",
        then=conflict_with_a_newer_version,
    ),
    AuditedPage(
        "judge-session-redraw",
        "judge",
        "/judge/sessions/{pending}/",
        then=type_a_redraw_with_bad_dice,
    ),
    AuditedPage("judge-score-sheet", "judge", "/judge/sessions/{pending}/print/score-sheet/"),
    AuditedPage("judge-loadout-sheet", "judge", "/judge/sessions/{pending}/print/loadouts/"),
    AuditedPage(
        "judge-preferences", "judge", "/judge/sessions/{pending}/seats/{pending_seat}/preferences/"
    ),
    AuditedPage("table-games", "judge", "/table/sessions/{pending}/games/"),
    AuditedPage("table-game", "judge", "/table/sessions/{pending}/games/1/"),
    AuditedPage(
        "table-game-touched", "judge", "/table/sessions/{pending}/games/1/", then=tap_a_marine
    ),
    AuditedPage("table-watch", "public", "/table/sessions/{pending}/games/1/watch/"),
    AuditedPage("organise", "organiser", "/organise/"),
    AuditedPage("organise-tournament", "organiser", "/organise/{slug}/"),
    AuditedPage("organise-players", "organiser", "/organise/{slug}/players/"),
    AuditedPage("organise-player", "organiser", "/organise/{slug}/players/{player}/"),
    AuditedPage("organise-judges", "organiser", "/organise/{slug}/judges/"),
    AuditedPage(
        "organise-password-link",
        "organiser",
        "/organise/{slug}/judges/",
        then=issue_a_password_link,
    ),
    AuditedPage("password-set", "organiser", "/organise/{slug}/judges/", then=open_a_password_link),
    AuditedPage(
        "password-set-expired", "public", "/accounts/password/MQ/expired/", squads_drawn=False
    ),
    AuditedPage("account", "judge", "/accounts/"),
    AuditedPage("organise-stage", "organiser", "/organise/{slug}/stages/1/"),
    AuditedPage("organise-schedule", "organiser", "/organise/{slug}/schedule/"),
    AuditedPage("organise-tables", "organiser", "/organise/{slug}/tables/"),
    AuditedPage("organise-grid", "organiser", "/organise/{slug}/stages/1/grid/"),
    AuditedPage(
        "organise-session-settings", "organiser", "/organise/{slug}/sessions/{pending}/settings/"
    ),
    AuditedPage("organise-correction", "organiser", "/organise/{slug}/sessions/{played}/correct/"),
    AuditedPage("organise-activity", "organiser", "/organise/{slug}/activity/"),
    AuditedPage("organise-venue", "organiser", "/organise/{slug}/venue/"),
    AuditedPage("organise-new", "organiser", "/organise/new/"),
    AuditedPage("organise-import", "organiser", "/organise/import/"),
    AuditedPage("organise-delete", "organiser", "/organise/{slug}/delete/"),
    AuditedPage(
        "organise-import-refused", "organiser", "/organise/import/", then=import_a_wrong_document
    ),
    AuditedPage("organise-catalogue", "organiser", "/organise/{slug}/catalogue/"),
    AuditedPage("organise-maps", "organiser", "/organise/{slug}/maps/"),
    AuditedPage(
        "organise-maps-broken", "organiser", "/organise/{slug}/maps/", then=add_a_broken_map
    ),
    AuditedPage("organise-map", "organiser", "/organise/{slug}/maps/circolo-arena/"),
    AuditedPage("organise-event-card", "organiser", "/organise/{slug}/catalogue/events/report/"),
    AuditedPage("organise-values", "organiser", "/organise/{slug}/catalogue/values/units/ork/"),
    AuditedPage("me", "player", "/me/"),
    AuditedPage("me-preferences", "player", "/me/{slug}/preferences/"),
    AuditedPage("me-loadout", "player", "/me/seats/{seat}/loadout/"),
    AuditedPage("me-account", "player", "/me/account/"),
    AuditedPage("me-dispute", "player", "/me/sessions/{history}/dispute/"),
    AuditedPage(
        "me-loadout-problems", "player", "/me/seats/{seat}/loadout/", then=break_the_loadout
    ),
]
AUDIT_CASES = [
    pytest.param(page, language, id=f"{page.name}-{language}")
    for page in AUDITED_PAGES
    for language in BROWSER_LOCALES
]


class DemoSite:
    """The demo on a live server of its own, before or after the squad draw as a case asks,
    and one browser page per audience and language, logged in once and reused by every case.

    The cases take no ``db`` fixture: the demo is built once (not once per case, as a
    transactional test would after each flush) and flushed when the class's cases are done.
    Going back to before the draw (a worker handed the cases out of order) or past a step
    that failed builds the demo anew."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.server = LiveServer("localhost")
        #: Whether the squads are drawn; None before the demo is built or after a failure.
        self.squads_drawn: bool | None = None
        self.written = False
        self.urls: dict[str, object] = {}
        self.pages: dict[tuple[str, str], object] = {}

    def page(self, audience: str, language: str, squads_drawn: bool):
        if self.squads_drawn is None or (self.squads_drawn and not squads_drawn):
            self.build()
        if squads_drawn and not self.squads_drawn:
            self.draw()
        return self.browser_page(audience, language)

    def browser_page(self, audience: str, language: str):
        if (audience, language) not in self.pages:
            self.pages[audience, language] = self.open(audience, language)
        return self.pages[audience, language]

    def build(self) -> None:
        if self.written:
            self.clear()
        self.written = True
        tournament, played, pending = demo_tournament()
        Seat.objects.filter(session=pending).update(squad=None)  # the judge draws in the browser
        self.pending = pending
        self.urls = {
            "slug": tournament.slug,
            "played": played.pk,
            "pending": pending.pk,
            "player": played.seats.order_by("seat_order").values_list("player_id", flat=True)[0],
            "pending_seat": pending.seats.order_by("seat_order").values_list("pk", flat=True)[0],
        }
        self.squads_drawn = False

    def draw(self) -> None:
        """The judge runs the squad draw in the browser; then two seats get loadouts and
        the session a game on the board."""
        judge = self.browser_page("judge", "en")
        self.squads_drawn = None  # until every step is through
        judge.goto(f"/judge/sessions/{self.pending.pk}/")
        judge.get_by_role("button", name="Run the squad draw").click()
        expect(judge.locator(".squad-blue").first).to_be_visible()
        seats = list(self.pending.seats.select_related("player").order_by("seat_order"))
        # The demo saved legal loadouts; these replace them, the second with problems to show.
        for seat, weapons in (
            (seats[0], ["laser-rifle", "plasma-gun", "laser-rifle", "missile-launcher"]),
            (seats[1], ["plasma-gun", "plasma-gun", "plasma-gun", "plasma-gun"]),
        ):
            Loadout.objects.update_or_create(
                seat=seat,
                defaults={
                    "commander_combo": "bolter",
                    "marine_weapons": weapons,
                    "order_cards": [],
                    "equipment_cards": [],
                },
            )
        pending = self.pending
        create_game(pending, "hunt-derelict", "bob", label="Tavolo 2", actor=pending.judge)
        self.player = seats[1].player
        self.urls["seat"] = seats[1].pk
        earlier = Seat.objects.filter(player=self.player).exclude(session=pending)
        self.urls["history"] = earlier.order_by("session__stage__number").first().session_id
        self.squads_drawn = True

    def open(self, audience: str, language: str):
        """A new browser context in ``language`` at phone width, logged in as the judge or
        the organiser, or speaking for the audited player (through their private link,
        once the squads are drawn)."""
        context = self.browser.new_context(
            base_url=self.server.url,
            locale=BROWSER_LOCALES[language],
            viewport={"width": PHONE, "height": 900},
        )
        context.set_default_timeout(10_000)
        page = context.new_page()
        if audience in {"judge", "organiser"}:
            log_in(page, *(JUDGE if audience == "judge" else ORGANISER))
        elif audience == "player":
            page.goto(f"/p/{self.player.access_token}/")
        return page

    def close_pages(self) -> None:
        for page in self.pages.values():
            page.context.close()
        self.pages = {}

    def clear(self) -> None:
        """Close the browser pages and empty the database and the caches."""
        self.close_pages()
        self.squads_drawn = None
        call_command("flush", verbosity=0, interactive=False)
        for alias in settings.CACHES:
            caches[alias].clear()

    def close(self) -> None:
        """Stop the server and leave the database empty, as a transactional test does,
        closing this thread's connections too, so that the test database can be dropped."""
        self.close_pages()
        self.server.stop()
        call_command("flush", verbosity=0, interactive=False)
        for conn in connections.all(initialized_only=True):
            conn.close()


@pytest.fixture(scope="session")
def audit_database(django_db_setup, django_db_blocker):
    """The test database, also when these cases are all the session runs: pytest-django
    then sets up none, as no test asks for one (the cases take no ``db`` fixture)."""
    if connection.settings_dict["NAME"] == connection.creation._get_test_db_name():
        yield
        return
    with django_db_blocker.unblock():
        databases = setup_databases(verbosity=0, interactive=False, aliases={DEFAULT_DB_ALIAS})
    yield
    with django_db_blocker.unblock():
        teardown_databases(databases, verbosity=0)


@pytest.fixture(scope="class")
def demo_site(browser, audit_database, django_db_blocker):
    """The shared site of the cases of a class. The database stays open to the live server
    for as long as the cases run, between them too (the projector page keeps polling)."""
    with django_db_blocker.unblock(), modify_settings(ALLOWED_HOSTS={"append": "localhost"}):
        site = DemoSite(browser)
        try:
            yield site
        finally:
            site.close()


class TestMainPages:
    @pytest.mark.parametrize(("audited", "language"), AUDIT_CASES)
    def test_has_no_serious_accessibility_violations(self, demo_site, audited, language, request):
        page = demo_site.page(audited.audience, language, audited.squads_drawn)
        page.goto(audited.url.format(**demo_site.urls))
        if audited.then is not None:
            audited.then(page)
        audit = Audit()
        audit.page(page, language, audited.widths)
        order = (AUDITED_PAGES.index(audited), list(BROWSER_LOCALES).index(language))
        accessibility_report.record(request.node, order, audit.blocking, audit.other)
        assert not audit.blocking, audit.report()


class TestPagedStandings:
    """The standings a page at a time (pages of 4 players here, as 2,187 players make
    pages of 100): the pager and the stage's link to its session cards."""

    @pytest.mark.parametrize("language", list(BROWSER_LOCALES))
    def test_the_pager_has_no_serious_accessibility_violations(
        self, demo_site, language, monkeypatch
    ):
        monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 4)
        monkeypatch.setattr(public, "SESSION_CARDS_PER_PAGE", 1)
        page = demo_site.page("public", language, squads_drawn=False)
        page.goto("/t/{slug}/standings/?page=2".format(**demo_site.urls))
        expect(page.locator("nav.pager a[rel=next]")).to_be_visible()
        expect(page.locator("#standings-table tbody tr")).to_have_count(4)
        audit = Audit()
        audit.page(page, language)
        assert not audit.blocking, audit.report()


FOCUS_STOP = """
form => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  const indicated = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
                    || style.boxShadow !== 'none';
  return {
    key: el.type === 'radio' ? 'radio:' + el.name : el.dataset.tabKey || null,
    inForm: form.contains(el),
    html: el.outerHTML.slice(0, 100),
    indicated: indicated,
    top: box.top + scrollY, bottom: box.bottom + scrollY, left: box.left, right: box.right,
  };
}
"""

#: The controls Tab should stop at, in document order: radio groups are one stop each.
TAB_STOPS = """
form => {
  const stops = [];
  form.querySelectorAll('input, select, textarea, button, a[href], summary, [tabindex]')
    .forEach((el, index) => {
      if (el.disabled || el.tabIndex < 0 || el.type === 'hidden' || !el.checkVisibility()) {
        return;
      }
      el.dataset.tabKey = 'control:' + index;
      const key = el.type === 'radio' ? 'radio:' + el.name : el.dataset.tabKey;
      if (!stops.includes(key)) stops.push(key);
    });
  return stops;
}
"""


def tab_through(page, form_selector: str) -> list[dict]:
    """Press Tab from the top of the page until focus has passed through the form; return
    the stops inside the form. Every stop on the way must show a focus indicator."""
    form = page.locator(form_selector)
    expected = form.evaluate(TAB_STOPS)
    stops: list[dict] = []
    for _press in range(len(expected) + 60):
        page.keyboard.press("Tab")
        stop = form.evaluate(FOCUS_STOP)
        if stop["inForm"]:
            stops.append(stop)
        elif stops:
            break
        assert stop["indicated"], f"no visible focus indicator on {stop['html']}"
    assert [stop["key"] for stop in stops] == expected, "Tab skips controls or is out of order"
    return stops


def assert_visual_order(stops: list[dict]) -> None:
    """Each stop is to the right of the previous one on the same line, or on a lower line."""
    for before, after in zip(stops, stops[1:], strict=False):
        same_line = after["top"] < before["bottom"] - 2 and after["bottom"] > before["top"] + 2
        if same_line:
            assert after["left"] >= before["right"] - 2, (before["html"], after["html"])
        else:
            assert after["top"] >= before["bottom"] - 2, (before["html"], after["html"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_result_entry_and_loadout_work_with_the_keyboard(new_page, width):
    _tournament, _played, pending = demo_tournament()
    seat = pending.seats.select_related("player").order_by("seat_order").first()

    judge = open_as(new_page, "en", user=JUDGE)
    resize(judge, width)
    judge.goto(f"/judge/sessions/{pending.pk}/result/")
    # The optional rows (aliens, objectives...) are folded away; open them so that their
    # controls are on the way too.
    judge.locator("#result-form details").evaluate_all("all => all.forEach(d => d.open = true)")
    stops = tab_through(judge, "#result-form")
    assert_visual_order(stops)
    assert len(stops) > 30

    not_played_yet(pending)  # the demo's game on the board locks the loadouts
    player = open_as(new_page, "en", player=seat.player)
    resize(player, width)
    player.goto(f"/me/seats/{seat.pk}/loadout/")
    stops = tab_through(player, "main form")
    assert_visual_order(stops)
    assert stops[-1]["html"].startswith("<button")


@pytest.mark.django_db(transaction=True)
def test_skip_link_is_the_first_tab_stop(new_page):
    tournament = seated_tournament()
    page = new_page()
    page.goto(f"/t/{tournament.slug}/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    assert focused == "#content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "content"


@pytest.mark.django_db(transaction=True)
def test_phone_header_takes_two_rows_and_every_link_is_in_view(new_page):
    """On a phone the header is the brand and the language on one row and the links the
    visitor can use below (a staff account: the tournaments, the administration and the
    log-out button), keeping the page's content near the top; Tab reaches each of them, in
    view."""
    from tests.browser.test_flows import account

    account("capo", is_staff=True)
    page = new_page(width=PHONE, height=844)
    log_in(page, "capo")
    page.goto("/")
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 2 * 48 + 16, header
    nav = page.locator(".site-nav")
    targets = nav.locator("a:visible, button:visible")
    assert targets.count() == 3
    page.locator(".brand").focus()
    for index in range(targets.count()):
        page.keyboard.press("Tab")
        focused = targets.nth(index)
        expect(focused).to_be_focused()
        box, frame = focused.bounding_box(), nav.bounding_box()
        assert (
            frame["x"] - 1 <= box["x"]
            and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
