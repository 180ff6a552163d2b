"""The stage form shows only the chosen stipulation's parameters (QA on a phone: a stage
without a stipulation listed every type's parameters, some 7,000 px of fields, until one
was chosen). With JavaScript: none until a type is chosen, a line saying to choose one,
then the chosen type's group and the aliens' material. Without JavaScript the page still
shows every group, under a line saying only the chosen type's are used, and saves."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PASSWORD, screenshot
from tests.browser.test_flows import account, seated_tournament
from tournaments.models import Stage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GROUPS = {
    "alien_hunt": "Alien Hunt parameters",
    "catch_the_flag": "Catch the Flag parameters",
    "tpk": "TPK and Extended TPK parameters",
}
MATERIAL = "The aliens' material"


def unchosen_stage() -> str:
    """A seated stage 1 with no stipulation yet; its page's address."""
    organiser = account("org")
    tournament = seated_tournament()
    tournament.organisers.add(organiser)
    tournament.stages.filter(number=1).update(stipulation_kind="", stipulation_params={})
    return f"/organise/{tournament.slug}/stages/1/"


def log_in(page) -> None:
    page.goto("/accounts/login/")
    page.locator("#id_username").fill("org")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.mark.parametrize(("locale", "width"), [("it-IT", 390), ("en-GB", 1280)])
def test_only_the_chosen_stipulations_parameters_show(new_page, locale, width):
    url = unchosen_stage()
    page = new_page(locale=locale, width=width, touch=width < 500)
    log_in(page)
    page.goto(url)
    groups = page.locator("fieldset[data-stipulation]")
    expect(groups.first).to_be_hidden()
    for index in range(groups.count()):
        expect(groups.nth(index)).to_be_hidden()
    expect(page.locator("#stipulation-choose")).to_be_visible()
    expect(page.locator("#stipulation-groups-help")).to_be_hidden()
    short = page.evaluate("document.documentElement.scrollHeight")
    screenshot(page, f"organiser-stage-unchosen-{width}")

    page.locator("#id_stipulation_kind").select_option("catch_the_flag")
    if locale == "en-GB":
        expect(page.get_by_role("group", name=GROUPS["catch_the_flag"])).to_be_visible()
        expect(page.get_by_role("group", name=MATERIAL)).to_be_visible()
        for kind in ("alien_hunt", "tpk"):
            expect(page.get_by_role("group", name=GROUPS[kind])).to_be_hidden()
    visible = [
        groups.nth(i).get_attribute("data-stipulation")
        for i in range(groups.count())
        if groups.nth(i).is_visible()
    ]
    assert len(visible) == 2 and visible[0] == "catch_the_flag"
    expect(page.locator("#stipulation-choose")).to_be_hidden()
    page.locator("#id_stipulation_kind").select_option("extended_tpk")
    expect(page.locator("fieldset[data-stipulation='tpk extended_tpk']")).to_be_visible()
    expect(page.locator("fieldset[data-stipulation='catch_the_flag']")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"organiser-stage-chosen-{width}")
    assert short < 2500  # was ~7,900 px on a phone with every group shown


def test_without_javascript_every_group_shows_and_the_page_saves(browser, live_server):
    url = unchosen_stage()
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", java_script_enabled=False
    )
    try:
        page = context.new_page()
        log_in(page)
        page.goto(url)
        expect(page.locator("#stipulation-groups-help")).to_be_visible()
        expect(page.locator("#stipulation-groups-help")).to_contain_text(
            "only the chosen type's parameters are used"
        )
        expect(page.locator("#stipulation-choose")).to_be_hidden()
        for name in (*GROUPS.values(), MATERIAL):
            expect(page.get_by_role("group", name=name)).to_be_visible()
        page.locator("#id_stipulation_kind").select_option("tpk")
        page.get_by_role("button", name="Save the stage").click()
        page.wait_for_url(lambda address: "/stages/" not in address)
        stage = Stage.objects.get(tournament__slug="coppa-nord", number=1)
        assert stage.stipulation_kind == "tpk"
    finally:
        context.close()
