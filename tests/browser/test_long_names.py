"""A 60-character nickname without a space (the longest a player may have) on a phone
(390×844, touch) and a desktop: no public page, nor the judge's board, scrolls sideways
because of it, a row's points stay on screen, a squad under it keeps its words and its
colour square, and in the bracket no name runs over its points or out of its box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules.engine.dice import SeededDice
from table.actions import create_game, latest_snapshot, snapshot_state
from table.models import Game
from table.turn_actions import finish_turn
from tests.browser.conftest import log_in, screenshot
from tests.browser.test_flows import account
from tests.factories import TournamentFactory, confirm_stage, register_players
from tournaments.actions.stage_advance import advance
from tournaments.models import Player, Seat, Stage, StageKind, StipulationKind

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LONG = "NovaSupercalifragilistichespiralidosoStellaCadenteDelNord60X"
assert len(LONG) == Player._meta.get_field("nickname").max_length

#: Per seat name drawn in the bracket, how far it runs past the points beside it (or its
#: box's edge when it has none); a podium name past its box. Empty when none does.
BRACKET_CLASHES = """() => {
  const texts = [...document.querySelectorAll('svg.bracket text')];
  const scores = texts.filter(t => t.getAttribute('text-anchor') === 'end');
  const clashes = [];
  for (const text of texts) {
    const size = text.getAttribute('font-size'), bold = text.getAttribute('font-weight');
    const box = text.getBBox(), x = Number(text.getAttribute('x'));
    let limit = null;
    if (size === '13' && !bold && text.getAttribute('text-anchor') !== 'end') {
      limit = x - 20 + 260;  // a seat's name: its row's right edge, or its points
      for (const score of scores) {
        const right = Number(score.getAttribute('x'));
        if (score.getAttribute('y') === text.getAttribute('y') && right > x && right - x < 260) {
          limit = score.getBBox().x - 2;
        }
      }
    } else if (size === '14') {
      limit = x - 8 + 260;  // a podium name: its box
    }
    if (limit !== null && box.x + box.width > limit) {
      clashes.push(`${text.textContent}: ${Math.round(box.x + box.width - limit)}px over`);
    }
  }
  return clashes;
}"""


@pytest.fixture
def tournament():
    """Nine players, the long name among them: the preliminary played, the semifinals
    seated, one of them being played on the judge's board."""
    tournament = TournamentFactory(name="Coppa del Lago", slug="coppa-lago")
    players = register_players(tournament, 9)
    Player.objects.filter(pk=players[4].pk).update(nickname=LONG)
    advance(tournament, SeededDice(seed=1))
    confirm_stage(tournament.stages.get(number=1), lambda seat: 10 * seat.seat_order)
    advance(tournament, SeededDice(seed=2))
    semifinal = Seat.objects.get(
        player_id=players[4].pk, session__stage__kind=StageKind.SEMIFINAL
    ).session
    Stage.objects.filter(pk=semifinal.stage_id).update(
        stipulation_kind=StipulationKind.ALIEN_HUNT, stipulation_params={"rounds": 8}
    )
    create_game(semifinal, "hunt-derelict", "bob", label="Tavolo 1")
    return tournament, players[4], semifinal


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_a_long_name_keeps_every_public_page_within_a_phone(new_page, tournament):
    tournament, player, semifinal = tournament
    slug = tournament.slug
    pages = {
        "standings": f"/t/{slug}/standings/",
        "standings-plain": f"/t/{slug}/standings/plain/",
        "home": f"/t/{slug}/",
        "schedule": f"/t/{slug}/schedule/",
        "bracket": f"/t/{slug}/bracket/",
        "player": f"/t/{slug}/players/{player.pk}/",
        "session": f"/t/{slug}/sessions/{semifinal.pk}/",
        "watch": f"/table/sessions/{semifinal.pk}/games/1/watch/",
        "projector": f"/t/{slug}/projector/",
    }
    page = new_page(locale="it-IT", width=PHONE["width"], height=PHONE["height"], touch=True)
    for name, url in pages.items():
        page.goto(url)
        if name == "projector":  # every panel at once, not one at a time
            page.evaluate("document.querySelectorAll('.panel').forEach(p => p.hidden = false)")
        assert page_width(page) <= PHONE["width"], name
        screenshot(page, f"long-name-{name}-phone")
    for url in (pages["standings"], pages["standings-plain"]):
        page.goto(url)
        row = page.locator("#standings-table tr, table tr").filter(has_text=LONG).first
        points = row.locator("td.num").last  # the points, right of the name
        box = points.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], url
    page.goto(pages["bracket"])
    assert page.evaluate(BRACKET_CLASHES) == []

    desktop = new_page(width=DESKTOP["width"], height=DESKTOP["height"])
    for name in ("standings", "standings-plain", "session", "bracket"):
        desktop.goto(pages[name])
        assert page_width(desktop) <= DESKTOP["width"], name
    assert desktop.evaluate(BRACKET_CLASHES) == []
    title = desktop.locator("svg.bracket g > title", has_text=LONG).first
    assert title.count() == 1  # the whole name, shown on hover and read aloud


def test_a_long_name_keeps_the_judges_board_and_the_spectators_page_within_a_phone(
    new_page, tournament
):
    """The board's texts name the players: the last step's outcome, the log, who is
    playing. On a phone they wrap; the judge's board, its log open, and the spectators'
    page stay within the screen (the desktop's too)."""
    _tournament, _player, semifinal = tournament
    semifinal.judge = account("arbitro")
    semifinal.save(update_fields=["judge"])
    game = Game.objects.get(session=semifinal)
    board = f"/table/sessions/{semifinal.pk}/games/{game.number}/"
    page = new_page(locale="it-IT", width=PHONE["width"], height=PHONE["height"], touch=True)
    desktop = new_page(width=DESKTOP["width"], height=DESKTOP["height"])
    for each in (page, desktop):
        log_in(each, "arbitro")
    for _turn in range(len(snapshot_state(latest_snapshot(game)).players)):
        page.goto(board)
        if LONG in page.locator("#turn").inner_text():
            break
        finish_turn(game, expected_number=latest_snapshot(game).number)
    named = [page.locator(part) for part in ("#turn", "#step-outcome", "#log")]
    for part in named:
        expect(part).to_contain_text(LONG)
    page.locator("#drawer").evaluate("drawer => drawer.open = true")  # the log and the history
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "long-name-board-phone")
    page.goto(f"{board}watch/")
    expect(page.locator("#watch-panel")).to_contain_text(LONG)
    assert page_width(page) <= PHONE["width"]
    screenshot(page, "long-name-board-watch-phone")
    for url in (board, f"{board}watch/"):
        desktop.goto(url)
        assert page_width(desktop) <= DESKTOP["width"], url


#: Per squad shown under a player's name, what went wrong: its colour square on a line of
#: its own, or its name broken inside a word (more lines than words).
SQUADS_APART = """() => [...document.querySelectorAll('.show-small .squad')]
  .filter(squad => squad.getClientRects().length)
  .flatMap(squad => {
    const swatch = squad.querySelector('.swatch').getBoundingClientRect();
    const name = squad.querySelector('.swatch ~ span');
    const lines = name.getClientRects();
    const words = name.textContent.trim().split(/\\s+/).length;
    const problems = [];
    if (Math.abs(swatch.bottom - lines[0].bottom) > lines[0].height) {
      problems.push(`${name.textContent}: its square apart`);
    }
    if (lines.length > words) { problems.push(`${name.textContent}: broken in a word`); }
    return problems;
  })"""


def test_beside_a_long_name_a_squad_keeps_its_words_and_its_colour_square(new_page, tournament):
    """QA: the name cell breaking anywhere narrowed its column on a phone, so
    "Ultramarines" split inside the word and its colour square sat on a line alone."""
    tournament, _player, semifinal = tournament
    page = new_page(locale="it-IT", width=PHONE["width"], height=PHONE["height"], touch=True)
    for url in (
        f"/t/{tournament.slug}/standings/",
        f"/t/{tournament.slug}/sessions/{semifinal.pk}/",
    ):
        page.goto(url)
        assert page.locator(".show-small .squad").count() >= 3, url
        assert page.evaluate(SQUADS_APART) == [], url
        assert page_width(page) <= PHONE["width"], url
    screenshot(page, "long-name-squads-phone")
