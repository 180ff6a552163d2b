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
pending semifinal).
"""

from __future__ import annotations

from io import StringIO

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.core.management import call_command
from playwright.sync_api import expect

from demo.management.commands.load_demo import DEMO_SLUG, JUDGES, ORGANISER
from table.actions import create_game
from tests.browser.conftest import SCREENSHOTS, log_in
from tests.browser.test_flows import seated_tournament
from tournaments.actions.result_entry import record_result
from tournaments.models import Loadout, Seat, Session, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
BLOCKING = {"serious", "critical"}
PHONE, DESKTOP, PROJECTOR = 390, 1280, 1920
#: Every finding, the moderate and minor ones too, of the last run.
REPORT = SCREENSHOTS.parent / "accessibility-report.txt"
BROWSER_LOCALES = {"it": "it-IT", "en": "en-GB"}
JUDGE = next((name, password) for name, password, *_rest in JUDGES if name == "judge2")

UNLABELLED = """
() => Array.from(document.querySelectorAll('input, select, textarea'))
  .filter(el => el.type !== 'hidden' && el.offsetParent !== null)
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !el.getAttribute('aria-labelledby'))
  .map(el => el.outerHTML.slice(0, 120))
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

    def pages(self, pages: dict[str, object], urls: list[str], widths=(PHONE, DESKTOP)) -> None:
        """Check each URL in each language; ``pages`` maps a language to its browser page."""
        for url in urls:
            for language, page in pages.items():
                page.goto(url)
                self.page(page, language, widths)

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

    def report(self) -> str:
        lines = [f"{len(self.blocking)} serious or critical accessibility problems:"]
        lines += self.blocking
        if self.other:
            lines += ["", "moderate or minor (not failing):", *self.other]
        return "\n".join(lines)


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
        username, password = user
        page.goto("/accounts/login/")
        page.locator("#id_username").fill(username)
        page.locator("#id_password").fill(password)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
    if player is not None:
        page.goto(f"/p/{player.access_token}/")
    return page


def in_each_language(new_page, **who) -> dict[str, object]:
    return {language: open_as(new_page, language, **who) for language in BROWSER_LOCALES}


def test_main_pages_have_no_serious_accessibility_violations(new_page):
    tournament, played, pending = demo_tournament()
    slug = tournament.slug
    Seat.objects.filter(session=pending).update(squad=None)  # the judge draws in the browser
    audit = Audit()

    public = in_each_language(new_page)
    audit.pages(
        public,
        [
            "/",
            f"/t/{slug}/",
            f"/t/{slug}/standings/",
            f"/t/{slug}/bracket/",
            f"/t/{slug}/honours/",
            f"/t/{slug}/schedule/",
            f"/t/{slug}/sessions/{played.pk}/",
            "/accounts/login/",
        ],
    )
    audit.pages(public, [f"/t/{slug}/projector/"], widths=(PHONE, DESKTOP, PROJECTOR))
    for language, page in public.items():  # a failed log-in shows its error
        page.goto("/accounts/login/")
        page.locator("#id_username").fill("nobody")
        page.locator("#id_password").fill("wrong")
        page.locator("main form button[type=submit]").click()
        expect(page.locator("main [role=alert]")).to_be_visible()
        audit.page(page, language)

    judge = in_each_language(new_page, user=JUDGE)
    audit.pages(judge, ["/judge/", f"/judge/sessions/{pending.pk}/"])
    judge["en"].goto(f"/judge/sessions/{pending.pk}/")
    judge["en"].get_by_role("button", name="Run the squad draw").click()
    expect(judge["en"].locator(".squad-blue").first).to_be_visible()
    seats = list(pending.seats.select_related("player").order_by("seat_order"))
    Loadout.objects.create(
        seat=seats[0],
        commander_combo="bolter",
        marine_weapons=["laser-rifle", "plasma-gun", "laser-rifle", "missile-launcher"],
    )
    Loadout.objects.create(
        seat=seats[1],
        commander_combo="bolter",
        marine_weapons=["plasma-gun", "plasma-gun", "plasma-gun", "plasma-gun"],
    )
    create_game(pending, "hunt-derelict", "bob", label="Tavolo 2", actor=pending.judge)
    audit.pages(
        judge,
        [
            f"/judge/sessions/{pending.pk}/",
            f"/judge/sessions/{pending.pk}/result/",
            f"/judge/sessions/{pending.pk}/print/score-sheet/",
            f"/judge/sessions/{pending.pk}/print/loadouts/",
            f"/table/sessions/{pending.pk}/games/",
            f"/table/sessions/{pending.pk}/games/1/",
        ],
    )

    organiser = in_each_language(new_page, user=ORGANISER)
    audit.pages(
        organiser,
        [
            "/organise/",
            f"/organise/{slug}/",
            f"/organise/{slug}/players/",
            f"/organise/{slug}/judges/",
            f"/organise/{slug}/stages/1/",
            f"/organise/{slug}/schedule/",
            f"/organise/{slug}/sessions/{pending.pk}/settings/",
            f"/organise/{slug}/sessions/{played.pk}/correct/",
            f"/organise/{slug}/activity/",
            "/organise/new/",
        ],
    )

    player = in_each_language(new_page, player=seats[1].player)
    loadout = f"/me/seats/{seats[1].pk}/loadout/"
    audit.pages(player, ["/me/", f"/me/{slug}/preferences/", loadout, "/me/account/"])
    for language, page in player.items():  # the live check lists what breaks the rules
        page.goto(loadout)
        page.locator("#id_marine_2").select_option(index=0)
        expect(page.locator("#loadout-problems .problems")).to_be_visible()
        audit.page(page, language)

    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(audit.report() + "\n", encoding="utf-8")
    assert not audit.blocking, audit.report()


def test_the_judges_refusals_and_redraw_have_no_serious_accessibility_violations(new_page):
    """The states of the judge's pages that only a judge's action reaches, in each language:
    a result refused as impossible, a save refused by a newer version (the comparison), and
    the session sheet's redraw with the line saying which dice are still needed."""
    _tournament, _played, pending = demo_tournament()
    seats = [str(seat.player_id) for seat in pending.seats.order_by("seat_order")]
    judge = in_each_language(new_page, user=JUDGE)
    audit = Audit()
    for language, page in judge.items():
        page.goto(f"/judge/sessions/{pending.pk}/")
        page.locator("details.redraw summary").click()
        page.locator("#redraw-form input[type=radio][value=physical]").check()
        page.locator("#id_redraw-dice").fill("0,7")
        expect(page.locator("#redraw-need .problems")).to_be_visible()
        audit.page(page, language)
    result = f"/judge/sessions/{pending.pk}/result/"
    for number, (language, page) in enumerate(judge.items(), start=1):
        page.goto(result)
        field = page.locator("#result-form input[type=number]").first
        field.fill("50")
        page.locator("#result-form .actions button[type=submit]").click()
        expect(page.locator("#result-form [aria-invalid=true]").first).to_be_visible()
        audit.page(page, language)

        page.goto(result)
        record_result(
            pending,
            [
                {"seat": seat, "objectives": [{"label": "flag", "points": 5 * number}]}
                for seat in seats
            ],
            survivors=seats,
            confirmed=True,
        )
        page.locator("#result-form input[type=number]").first.fill("1")
        page.locator("#result-form .actions button[type=submit]").click()
        expect(page.get_by_test_id("conflict")).to_be_visible()
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

    player = open_as(new_page, "en", player=seat.player)
    resize(player, width)
    player.goto(f"/me/seats/{seat.pk}/loadout/")
    stops = tab_through(player, "main form")
    assert_visual_order(stops)
    assert stops[-1]["html"].startswith("<button")


def test_skip_link_is_the_first_tab_stop(new_page):
    tournament = seated_tournament()
    page = new_page()
    page.goto(f"/t/{tournament.slug}/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    assert focused == "#content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "content"


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
    targets = nav.locator("a, button")
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
