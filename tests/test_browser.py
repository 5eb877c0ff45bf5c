"""Real-browser journeys: Playwright drives Debian's Chromium at a 360×740 touch viewport."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def browser(browser: Browser) -> Browser:
    """Hand on the session's one Chromium (tests/conftest.py) to the modules importing this."""
    return browser


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """Open a fresh page as a phone held in one hand."""
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def start_rami(page: Page, server: str, *players: str) -> None:
    """Start a Rami match from the home page, as a player would."""
    page.goto(server)
    page.locator(".games").get_by_role("link", name="Rami").tap()
    for seat, name in enumerate(players, start=1):
        page.locator(f"#players-{seat - 1}").fill(name)
    page.get_by_role("button", name="Start the match").tap()
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()


def hand(page: Page, player: str):
    """Return the fieldset of one player's hand."""
    return page.locator(f"fieldset.hand[data-player='{player}']")


def melded(page: Page, player: str, said: bool) -> None:
    """Answer whether a player had melded: the Yes or No chip of their hand's line."""
    hand(page, player).locator(".melded").get_by_text("Yes" if said else "No", exact=True).tap()


def tap_cards(page: Page, player: str, *ranks: str) -> None:
    """Open a player's card pad, if closed, and tap cards onto their hand."""
    pad = hand(page, player).locator("details.hand-pad")
    if not pad.evaluate("details => details.open"):
        pad.locator("summary").tap()
    for rank in ranks:
        hand(page, player).locator(f"button[data-card='{rank}']").tap()


def expect_totals(page: Page, *expected: str) -> None:
    """Wait for the totals row of the score sheet to read as expected."""
    expect(page.locator(".sheet tfoot td")).to_have_text(list(expected))


def no_sideways_scroll(page: Page) -> None:
    """Fail if the page is wider than the phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_record_two_rounds_by_tapping_cards_then_correct_the_first(page: Page, server: str):
    start_rami(page, server, "Ana", "Bo", "Cy")
    no_sideways_scroll(page)

    page.locator("#winner").get_by_text("Ana", exact=True).tap()
    expect(hand(page, "Ana")).to_be_hidden()
    tap_cards(page, "Bo", "A", "JK", "5")
    expect(hand(page, "Bo").locator(".hand-total")).to_have_text("36 points")
    melded(page, "Bo", True)
    tap_cards(page, "Cy", "9", "9")
    melded(page, "Cy", True)
    page.get_by_role("button", name="Record round 1").tap()
    expect(page.locator(".notice span")).to_have_text("Round 1 recorded.")
    expect_totals(page, "0", "36", "18")
    expect(page.locator("#round-1")).to_contain_text("Bo holds A, JK, 5: 11 + 20 + 5 = 36.")

    page.locator("fieldset.choices").nth(1).get_by_text("Bo", exact=True).tap()
    tap_cards(page, "Ana", "K")
    melded(page, "Ana", False)
    tap_cards(page, "Cy", "2")
    hand(page, "Cy").get_by_role("button", name="Take back 2").tap()
    tap_cards(page, "Cy", "3")
    melded(page, "Cy", True)
    page.get_by_role("button", name="Record round 2").tap()
    expect_totals(page, "35", "36", "21")
    expect(page.locator("#round-2")).to_contain_text("Ana never melded: 10 + 25 = 35.")
    no_sideways_scroll(page)

    page.locator("#round-1 a.round-n").tap()
    page.get_by_role("link", name="Correct or remove round 1").tap()
    expect(hand(page, "Bo").locator(".hand-total")).to_have_text("36 points")
    hand(page, "Bo").get_by_role("button", name="Take back Joker").tap()
    expect(hand(page, "Bo").locator(".hand-total")).to_have_text("16 points")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.get_by_role("status").first).to_contain_text("Round 1 corrected")
    expect_totals(page, "35", "16", "21")
    expect(page.locator("#round-1")).to_contain_text("Corrected")


def test_cards_tap_without_javascript(browser: Browser, server: str):
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    start_rami(page, server, "Dee", "Eli")
    page.locator("#winner").get_by_text("Dee", exact=True).tap()
    tap_cards(page, "Eli", "Q")
    tap_cards(page, "Eli", "4")
    expect(hand(page, "Eli").locator(".hand-total")).to_have_text("14 points")
    melded(page, "Eli", True)
    page.get_by_role("button", name="Record round 1", exact=True).last.tap()
    expect_totals(page, "0", "14")
    context.close()


def test_a_mistake_comes_back_with_the_values_typed(page: Page, server: str):
    start_rami(page, server, "Fay", "Gus")
    page.locator("#winner").get_by_text("Fay", exact=True).tap()
    hand(page, "Gus").locator("input.points").fill("400")
    page.get_by_role("button", name="Record round 1").tap()
    expect(hand(page, "Gus")).to_contain_text("Gus's hand is worth between 2 and 280 points.")
    expect(hand(page, "Gus").locator("input.points")).to_have_value("400")
    expect(page.locator(".sheet")).to_have_count(0)


def start_belote(page: Page, server: str, rules: str = "maison") -> None:
    """Start a coinche match for Nous (Ana, Cy) against Eux (Bo, Di)."""
    page.goto(server)
    page.locator(".games").get_by_role("link", name="Belote").tap()
    for team, players in enumerate((("Ana", "Cy"), ("Bo", "Di"))):
        fieldset = page.locator("fieldset.names").nth(team)
        for seat, name in enumerate(players, start=1):
            fieldset.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.locator("#option_variant").get_by_text("Coinche, with contracts", exact=True).tap()
    words = {"maison": "House rules", "official": "Official rules"}
    page.locator("#option_rules").get_by_text(words[rules], exact=True).tap()
    page.get_by_role("button", name="Start the match").tap()
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()


def points(page: Page, team: str) -> Locator:
    """A team's card points box."""
    return page.locator("fieldset.points").get_by_label(team, exact=True)


def last_trick(page: Page, team: str) -> None:
    """Tap the chip saying the team took the last trick (dix de der)."""
    page.locator(".choice.der").filter(has=page.locator(f"input[value='{team}']")).tap()


def test_a_coinche_deal_entered_by_taps_then_corrected(page: Page, server: str):
    start_belote(page, server)
    no_sideways_scroll(page)
    page.locator("#taker").get_by_text("Ana").tap()
    page.locator("#trump").get_by_text("♥").tap()
    page.locator("#contract").get_by_text("100", exact=True).tap()
    page.locator("#extra-coinche summary").tap()
    page.locator("#coinche").get_by_text("Coinche ×2").tap()
    expect(page.locator("#extra-coinche summary")).to_contain_text("Coinche ×2")
    points(page, "Nous").fill("98")
    expect(points(page, "Eux")).to_have_value("54")
    last_trick(page, "Nous")
    page.get_by_role("button", name="Record deal 1").tap()
    expect(page.locator(".notice span")).to_have_text("Deal 1 recorded.")
    expect_totals(page, "520", "0")
    expect(page.locator("#round-1")).to_contain_text("(160 + 100 + 0) × 2 + 0 = 520")
    no_sideways_scroll(page)

    page.locator("#round-1 a.round-n").tap()
    page.get_by_role("link", name="Correct or remove deal 1").tap()
    expect(points(page, "Nous")).to_have_value("98")
    page.locator("#coinche").get_by_text("None").tap()
    page.get_by_role("button", name="Save deal 1").tap()
    expect_totals(page, "208", "54")
    expect(page.locator("#round-1")).to_contain_text("Corrected")


def test_the_card_counter_fills_a_teams_points(page: Page, server: str):
    start_belote(page, server)
    page.locator("#trump").get_by_text("♥").tap()
    page.get_by_text("Count the card points").tap()
    page.get_by_role("button", name="J♥").tap()
    page.get_by_role("button", name="9♥").tap()
    expect(page.locator(".counter-total")).to_have_text("Counted: 34 points")
    expect(points(page, "Nous")).to_have_value("34")
    expect(points(page, "Eux")).to_have_value("118")
    page.get_by_role("button", name="9♥").tap()
    expect(points(page, "Nous")).to_have_value("20")


def test_official_no_trump_shows_its_own_carres_as_the_trump_changes(page: Page, server: str):
    start_belote(page, server, rules="official")
    announcements = page.locator("fieldset.announcements")
    at_trump = announcements.locator(".quick[data-trumps='trump']")
    at_no_trump = announcements.locator(".quick[data-trumps='no_trump']")
    expect(at_trump).to_have_count(2)
    expect(at_no_trump).to_have_count(2)

    def trump(value: str) -> None:
        page.locator("#trump label").filter(has=page.locator(f"input[value='{value}']")).tap()

    def shown(at_no_trump_set: bool) -> None:
        # The script sets `hidden` on the set of the other trump, each team's alike.
        for n in range(2):
            expect(at_trump.nth(n)).to_have_js_property("hidden", at_no_trump_set)
            expect(at_no_trump.nth(n)).to_have_js_property("hidden", not at_no_trump_set)

    shown(False)
    trump("no_trump")
    shown(True)
    trump("hearts")
    shown(False)
    trump("all_trump")
    shown(False)
    trump("no_trump")
    shown(True)
    page.locator("#extra-announcements summary").tap()
    at_no_trump.first.get_by_role("button", name="carré d'as").tap()
    expect(page.locator("#extra-announcements summary")).to_contain_text("Nous +200")
    expect(announcements.get_by_label("Nous", exact=True)).to_have_value("200")


def test_a_barbu_hand_with_a_redouble(page: Page, server: str):
    page.goto(server)
    page.locator(".games").get_by_role("link", name="Barbu").tap()
    for seat, name in enumerate(("Ana", "Bo", "Cy", "Di"), start=1):
        page.locator(f"#players-{seat - 1}").fill(name)
    page.get_by_role("button", name="Start the match").tap()
    expect(page.get_by_text("Ana declares · hand 1 of 7")).to_be_visible()
    no_sideways_scroll(page)

    page.locator("#contract").get_by_text("No hearts").tap()
    expect(page.get_by_text("Who took the A♥?")).to_be_visible()
    expect(page.get_by_text("Who took the K♥?")).to_be_hidden()
    page.get_by_role("button", name="One more for Ana").tap()
    page.get_by_role("button", name="One more for Ana").tap()
    page.locator("input.count").nth(1).fill("5")
    page.locator("input.count").nth(3).fill("6")
    expect(page.locator(".count-sum")).to_have_text("Sum: 13 of 13")
    page.locator("#ace_of_hearts").get_by_text("Bo").tap()

    ana_redoubles_bo = page.locator("input[name='doubles'][value='0>1']")
    expect(ana_redoubles_bo).to_be_disabled()
    for code in ("1>0", "1>2", "2>1", "2>0", "3>0"):
        page.locator(f"input[name='doubles'][value='{code}']").tap()
    expect(ana_redoubles_bo).to_be_enabled()
    ana_redoubles_bo.tap()
    no_sideways_scroll(page)
    page.get_by_role("button", name="Record hand 1").tap()
    expect_totals(page, "20", "\u221262", "32", "\u221220")
    expect(page.locator("#round-1")).to_contain_text("Ana–Bo redoubled")
    expect(page.get_by_text("Ana declares · hand 2 of 7")).to_be_visible()


def record_gaigel_deal(page: Page, n: int, winner: str, outcome: str) -> None:
    """Tap the winning team and the outcome, then record the deal."""
    page.locator("#winner").get_by_text(winner, exact=True).tap()
    page.locator("#outcome").get_by_text(outcome, exact=True).tap()
    page.get_by_role("button", name=f"Record deal {n}").tap()
    expect(page.locator(".notice span")).to_have_text(f"Deal {n} recorded.")


def test_gaigel_through_the_phase_change_to_a_winner_then_a_phase_1_correction(
    page: Page, server: str
):
    page.goto(server)
    page.locator(".games").get_by_role("link", name="Gaigel").tap()
    for team, players in enumerate((("Ann", "Cat"), ("Ben", "Dan"))):
        fieldset = page.locator("fieldset.names").nth(team)
        for seat, name in enumerate(players, start=1):
            fieldset.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_label("Strokes").fill("3")
    page.get_by_role("button", name="Start the match").tap()
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    no_sideways_scroll(page)

    record_gaigel_deal(page, 1, "Oben", "Aus")
    record_gaigel_deal(page, 2, "Unten", "Aus")
    record_gaigel_deal(page, 3, "Oben", "Aus")
    expect(page.locator(".board figcaption")).to_contain_text("Phase 2, erasing")
    record_gaigel_deal(page, 4, "Oben", "Aus")
    expect(page.locator(".banner.winner")).to_have_text("Oben wins: every stroke erased!")
    expect(page.locator(".board figcaption")).to_contain_text("Oben holds 0 strokes (I crossed)")
    no_sideways_scroll(page)

    page.locator("#round-1 a.round-n").tap()
    page.get_by_role("link", name="Correct or remove deal 1").tap()
    page.locator("#winner").get_by_text("Unten", exact=True).tap()
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".banner.winner")).to_have_count(0)
    expect(page.locator("#round-1")).to_contain_text("Oben takes 1 stroke: 1 of 3 given.")
    expect(page.locator("#round-4")).to_contain_text("Oben erases 1 (now 1).")
    expect(page.locator(".board figcaption")).to_contain_text("Oben holds 1 stroke")
    expect(page.get_by_role("heading", name="Deal 5")).to_be_visible()


def peg(page: Page, n: int, player: str, event: str, rank: str = "", limpia: str = "") -> None:
    """Tap who, what, and the rank (and limpia) a peg needs, without recording it yet."""
    page.locator("#player").get_by_text(player, exact=True).tap()
    page.locator("#event").get_by_text(event, exact=True).tap()
    if rank:
        page.locator("#rank").get_by_text(rank, exact=True).tap()
    if limpia:
        page.locator("#limpia").get_by_text(limpia, exact=True).tap()


def record_peg(page: Page, n: int) -> None:
    """Record the peg and wait for the sheet to show it."""
    page.get_by_role("button", name=f"Record peg {n}").tap()
    expect(page.locator(".notice span")).to_have_text(f"Peg {n} recorded.")


def test_porrazo_pegging_a_counter_and_a_tendido_then_undo(page: Page, server: str):
    page.goto(server)
    page.locator(".games").get_by_role("link", name="Porrazo").tap()
    for seat, name in enumerate(("Ana", "Bo", "Cy"), start=1):
        page.locator(f"#players-{seat - 1}").fill(name)
    page.get_by_role("button", name="Start the match").tap()
    expect(page.locator(".board figcaption")).to_contain_text("Ana 0, Bo 0, Cy 0 of 61.")
    no_sideways_scroll(page)

    peg(page, 1, "Bo", "Porrazo")
    expect(page.locator("#rank")).to_be_visible()
    expect(page.locator(".tendido")).to_be_hidden()
    page.locator("#rank").get_by_text("6", exact=True).tap()
    page.locator("#limpia").get_by_text("7", exact=True).tap()
    record_peg(page, 1)
    expect(page.locator("#round-1")).to_contain_text("provisional")
    expect(page.get_by_text("Waiting: Bo's porrazo of 6")).to_be_visible()

    peg(page, 2, "Cy", "Counter-porrazo", "6", "7")
    record_peg(page, 2)
    expect(page.locator("#round-2")).to_contain_text("Bo's porrazo of 6 is void.")

    peg(page, 3, "Ana", "Tendido")
    expect(page.locator("#rank")).to_be_hidden()
    for box, rank in enumerate(("2", "4", "7", "3")):
        page.locator(f"#pair_cards-{box}").select_option(rank)
    record_peg(page, 3)
    expect(page.locator("#round-3")).to_contain_text("Cy's counter-porrazo of 6 stands: +4.")
    expect(page.locator("#round-3")).to_contain_text("Best row 4-2-3-7: cards in place 5.")
    expect(page.locator(".board figcaption")).to_contain_text("Ana 5, Bo 0, Cy 4 of 61.")

    peg(page, 4, "Ana", "Ronda", "K")
    record_peg(page, 4)
    expect(page.locator(".board figcaption")).to_contain_text("Ana 9, Bo 0, Cy 4 of 61.")
    page.get_by_role("button", name="Undo last peg (4)").tap()
    expect(page.locator(".notice span")).to_contain_text("Peg 4 taken back")
    expect(page.locator(".board figcaption")).to_contain_text("Ana 5, Bo 0, Cy 4 of 61.")
    expect(page.locator("#round-4")).to_have_count(0)
    no_sideways_scroll(page)
