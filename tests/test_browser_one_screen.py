"""A plain round of every game on one screen, in few taps (issue 27).

At 360 × 740, the controls of a plain round (a Coinche deal: who took, the contract, the trump,
one team's card points, the last trick; a Rami round for four: who went out, each other hand's
value and whether it had melded; …) and Record are all on the first screen, under the score
bar: every tap lands on a control already in view and the page never scrolls. The taps are
counted (digits typed into a box the form has put the cursor in are not taps) and bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from tests import test_browser
from tests.test_browser import PHONE, start_belote, start_rami
from tests.test_browser_table import TEAM_SEATS, start_match

pytestmark = pytest.mark.browser

page = test_browser.page

SCREEN = PHONE["viewport"]["height"]


class Taps:
    """Tap as a thumb would, counting; refuse a control that is not on the first screen."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, control: Locator) -> None:
        box = control.bounding_box()
        assert box is not None, f"{control} is not shown"
        assert box["y"] >= 0 and box["y"] + box["height"] <= SCREEN, f"{control} is off screen"
        assert self.page.evaluate("window.scrollY") == 0, "the page scrolled"
        control.tap()
        self.count += 1

    def type(self, digits: str, into: Locator) -> None:
        """Type into the box the form moved to; a box it did not move to costs a tap."""
        if not into.evaluate("box => box === document.activeElement"):
            self.tap(into)
        self.page.keyboard.type(digits)

    def record(self, label: str) -> None:
        """Tap Record, on the first screen with everything else, and wait for the next round."""
        assert self.page.evaluate("window.scrollY") == 0, "the page scrolled"
        self.tap(self.page.get_by_role("button", name=label))
        expect(self.page.locator(".notice span")).to_contain_text("1 recorded.")


def coinche(page: Page, taps: Taps) -> None:
    taps.tap(page.locator("#taker").get_by_text("Ana", exact=True))
    taps.tap(page.locator("#contract").get_by_text("90", exact=True))
    taps.tap(page.locator("#trump").get_by_text("♥"))
    taps.type("82", page.locator("input.points[data-side='0']"))
    expect(page.locator("input.points[data-side='1']")).to_have_value("70")
    taps.tap(page.locator(".choice.der").first)
    taps.record("Record deal 1")
    expect(page.locator(".bar-sides")).to_contain_text("Nous 182")


def belote(page: Page, taps: Taps) -> None:
    taps.tap(page.locator("#taker").get_by_text("Bo", exact=True))
    taps.tap(page.locator("#trump").get_by_text("♠"))
    taps.type("62", page.locator("input.points[data-side='1']"))
    expect(page.locator("input.points[data-side='0']")).to_have_value("90")
    taps.tap(page.locator(".choice.der").nth(1))
    taps.record("Record deal 1")


def rami(page: Page, taps: Taps) -> None:
    taps.tap(page.locator("#winner").get_by_text("Ana", exact=True))
    for player, value, melded in (("Bo", "14", "Yes"), ("Cy", "31", "Yes"), ("Di", "20", "No")):
        hand = page.locator(f"fieldset.hand[data-player='{player}']")
        taps.type(value, hand.locator("input.points"))
        taps.tap(hand.locator(".melded").get_by_text(melded, exact=True))
    taps.record("Record round 1")
    expect(page.locator(".bar-sides")).to_contain_text("Di 45")


def barbu(page: Page, taps: Taps) -> None:
    taps.tap(page.locator("#contract").get_by_text("Barbu", exact=True))
    taps.tap(page.locator("#king_of_hearts").get_by_text("P2", exact=True))
    taps.record("Record hand 1")


def barbu_counts(page: Page, taps: Taps) -> None:
    """A hand of counts (no tricks): the four counts, their sum and Record on one screen."""
    taps.tap(page.locator("#contract").get_by_text("No tricks", exact=True))
    for value, box in zip("3406", page.locator("input.count").all(), strict=True):
        taps.type(value, box)
    expect(page.locator(".count-sum")).to_contain_text("13 of 13")
    taps.record("Record hand 1")
    expect(page.locator(".bar-sides")).to_contain_text("P4 −12")


def gaigel(page: Page, taps: Taps) -> None:
    taps.tap(page.locator("#winner .choice").first)
    taps.tap(page.locator("#outcome").get_by_text("Aus", exact=True))
    taps.record("Record deal 1")


def porrazo(page: Page, taps: Taps) -> None:
    taps.tap(page.locator("#player").get_by_text("P1", exact=True))
    taps.tap(page.locator("#event").get_by_text("Ronda", exact=True))
    taps.tap(page.locator("#rank").get_by_text("7", exact=True))
    taps.record("Record peg 1")


PLAIN = {
    "coinche": (coinche, 8),
    "belote": (belote, 8),
    "rami": (rami, 8),
    "barbu": (barbu, 4),
    "barbu counts": (barbu_counts, 6),
    "gaigel": (gaigel, 4),
    "porrazo": (porrazo, 5),
}
"""Each game's plain round, and the most taps it may take (Record included)."""


def started(page: Page, server: str, game: str) -> None:
    if game == "coinche":
        start_belote(page, server)
    elif game == "belote":
        page.goto(f"{server}/matches/new/belote")
        for seat, box in enumerate(TEAM_SEATS):
            page.locator(f"#{box}").fill(("Ana", "Bo", "Cy", "Di")[seat])
        page.get_by_role("button", name="Start the match").tap()
        expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    elif game == "rami":
        start_rami(page, server, "Ana", "Bo", "Cy", "Di")
    else:
        game = game.split()[0]
        seats = {"barbu": 4, "gaigel": 4, "porrazo": 4}[game]
        boxes = TEAM_SEATS if game == "gaigel" else [f"players-{n}" for n in range(seats)]
        start_match(page, server, game, boxes)


@pytest.mark.parametrize("game", list(PLAIN))
def test_a_plain_round_is_on_one_screen_in_few_taps(page: Page, server: str, game: str):
    started(page, server, game)
    assert page.evaluate("window.scrollY") == 0
    play: Callable[[Page, Taps], None]
    play, most = PLAIN[game]
    taps = Taps(page)
    play(page, taps)
    assert taps.count <= most, f"{game}: {taps.count} taps"


def test_the_other_teams_points_stay_derived_after_a_refusal_and_on_a_correction(
    page: Page, server: str
):
    """A refused deal comes back with both boxes filled: fixing one makes the other the rest
    again, and the deal is taken; a correction does the same."""
    start_belote(page, server)
    page.locator("#taker").get_by_text("Ana", exact=True).tap()
    page.locator("#contract").get_by_text("80", exact=True).tap()
    page.locator("#trump").get_by_text("♥").tap()
    page.keyboard.type("1")  # no card is worth 1 point: refused
    page.locator(".choice.der").first.tap()
    page.get_by_role("button", name="Record deal 1").tap()
    expect(page.locator(".alert")).to_be_visible()
    nous, eux = (page.locator(f"input.points[data-side='{side}']") for side in "01")
    expect(eux).to_have_value("151")
    nous.fill("")
    nous.press_sequentially("100")
    expect(eux).to_have_value("52")
    page.get_by_role("button", name="Record deal 1").tap()
    expect(page.locator(".notice span")).to_have_text("Deal 1 recorded.")
    match = re.search(r"/matches/\d+", page.url).group(0)
    page.goto(f"{server}{match}/rounds/1/edit")
    eux.fill("")
    eux.press_sequentially("62")
    expect(nous).to_have_value("90")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".bar-sides")).to_contain_text("Nous 180")


def test_the_other_teams_points_stay_derived_in_a_draft_that_comes_back(page: Page, server: str):
    """A deal half typed when the page was left comes back with its derived box, which then
    follows the box typed again."""
    start_belote(page, server)
    page.locator("#taker").get_by_text("Ana", exact=True).tap()
    page.locator("#contract").get_by_text("80", exact=True).tap()
    page.locator("#trump").get_by_text("♥").tap()
    page.keyboard.type("90")
    nous, eux = (page.locator(f"input.points[data-side='{side}']") for side in "01")
    expect(eux).to_have_value("62")
    page.reload()
    expect(page.locator("#draft-note")).to_be_visible()
    expect(nous).to_have_value("90")
    expect(eux).to_have_value("62")
    nous.fill("")
    nous.press_sequentially("120")
    expect(eux).to_have_value("32")
    eux.fill("")
    eux.press_sequentially("52")
    expect(nous).to_have_value("100")
    page.locator(".choice.der").first.tap()
    page.get_by_role("button", name="Record deal 1").tap()
    expect(page.locator(".notice span")).to_have_text("Deal 1 recorded.")
