"""Readable at the table, in a real browser at 360 × 740: right to left that reads right, red
hearts and diamonds, every helper opened within the screen, a sheet as dense as paper, and
times in the phone's own time zone."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest
from playwright.sync_api import Page, expect

from tests import test_browser_scoring
from tests.test_browser import PHONE
from tests.test_browser_scoring import BELOTE, GAIGEL, PORRAZO, Table, close

pytestmark = pytest.mark.browser

# The served app of tests/test_browser_scoring.py, and its phones, for this module.
table = test_browser_scoring.table

ISOLATES = ("\u2067", "\u2069")
DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"}


def width(page: Page) -> int:
    """The page's width: wider than the phone means sideways scrolling."""
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.fixture
def belote(table: Table) -> Iterator[int]:
    """A Belote match of twelve deals."""
    yield table.start(BELOTE | {"options": {"target": 3000}}, *[DEAL] * 12)


def test_ten_belote_deals_fit_the_first_screen_of_the_whole_sheet(table: Table, belote: int):
    page = table.open(belote)
    page.goto(f"{table.base}/matches/{belote}/sheet")
    shown = page.evaluate(
        "[...document.querySelectorAll('.sheet tbody')]"
        ".filter(round => round.getBoundingClientRect().bottom <= innerHeight).length"
    )
    assert shown >= 10
    # The explanation is folded behind the row: a tap on its number opens it.
    why = page.locator("#round-3 tr.why")
    expect(why).to_be_hidden()
    page.locator("#round-3 a.round-n").tap()
    expect(why).to_be_visible()
    expect(why).to_contain_text("Nous: 90 in cards + 10 for the last trick = 100.")
    expect(why.get_by_role("link", name="Why?")).to_be_visible()
    close(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_hearts_and_diamonds_are_drawn_red(table: Table, belote: int, scheme: str):
    page = table.phone(scheme, "en-US")
    page.goto(f"{table.base}/matches/{belote}/sheet")
    red = page.evaluate("getComputedStyle(document.querySelector('.red-suit')).color")
    black = page.evaluate("getComputedStyle(document.querySelector('.sheet td.deal')).color")
    assert red != black
    channels = [int(part) for part in red.removeprefix("rgb(").rstrip(")").split(",")]
    assert channels[0] > 150 and channels[1] < 150
    page.goto(f"{table.base}/matches/{belote}")
    heart = page.locator("input[name='trump'][value='hearts']").locator("..").locator(".red-suit")
    expect(heart).to_have_text("♥")
    close(page)


HELPERS = {
    "gaigel: check the Aus": (GAIGEL, "details.evidence summary"),
    "belote: count the card points": (BELOTE, "details.counter summary"),
    "porrazo: what a card captures": (PORRAZO, "details.capture summary"),
}


@pytest.mark.parametrize(
    ("scheme", "language"), [("light", "en-US"), ("dark", "en-US"), ("light", "fa")]
)
@pytest.mark.parametrize(("body", "opener"), HELPERS.values(), ids=HELPERS.keys())
def test_every_helper_opened_fits_the_phone(table: Table, body, opener, scheme, language):
    match_id = table.start(body)
    page = table.phone(scheme, language)
    page.goto(f"{table.base}/matches/{match_id}")
    page.locator(opener).tap()
    assert width(page) <= PHONE["viewport"]["width"]
    close(page)


SIGN_AND_DIGIT = """bdi => { const text = bdi.firstChild, range = document.createRange();
  const sign = text.data.indexOf("\u2212");
  return [sign, sign + 1].map(i => { range.setStart(text, i); range.setEnd(text, i + 1);
    return range.getBoundingClientRect().x; }); }"""
"""Where a signed number's minus and first digit are drawn, from the left of the screen."""


def no_tricks_why(table: Table, players: list[str], language: str) -> Page:
    """Open, in a language, the Why? of a Barbu hand of no tricks the players took 4, 3, 3, 3
    of: its first step lists each of them with a count and −2."""
    match_id = table.start(
        {"game": "barbu", "players": players},
        {"contract": "no_tricks", "taken": dict(zip(players, [4, 3, 3, 3], strict=True))},
    )
    page = table.phone("light", language)
    page.goto(f"{table.base}/matches/{match_id}/rounds/1/why")
    return page


def test_persian_sentences_isolate_names_and_numbers(table: Table):
    """With Persian names, every name and every signed number is set apart on its own, not
    the list as a whole: "آنا ۴ × −۲؛ بهرام ۳ × −۲" keeps each item whole, in order, with a
    real minus."""
    players = ["آنا", "بهرام", "سارا", "داریوش"]
    page = no_tricks_why(table, players, "fa")
    steps = page.locator("ol.steps li")
    texts = steps.all_text_contents()
    assert texts and all(ISOLATES[0] in step and ISOLATES[1] in step for step in texts)
    # Persian digits, and the minus as CLDR writes it in Persian: a left-to-right mark first.
    minus_two = "\u200e−۲"
    items = [f"{name} {count} × {minus_two}" for name, count in zip(players, "۴۳۳۳", strict=True)]
    listed = "\u2067" + "؛ ".join(items) + "\u2069"
    assert listed in texts[0]
    apart = steps.first.locator("bdi").all_text_contents()
    assert apart[-12:] == [
        "آنا",
        "۴",
        minus_two,
        "بهرام",
        "۳",
        minus_two,
        "سارا",
        "۳",
        minus_two,
        "داریوش",
        "۳",
        minus_two,
    ]
    assert "\u2067\u200e\u2212۲۶\u2069" in texts[1]
    # Right to left, each number still reads left to right: its minus sits left of its digits.
    signed = steps.first.locator("bdi[dir='ltr']", has_text="−۲").first
    minus, digit = signed.evaluate(SIGN_AND_DIGIT)
    assert minus < digit
    assert read_right_to_left(steps.first, players), "the list's items run left to right"
    close(page)


NAMES_AT = """(li, names) => [...li.querySelectorAll("bdi")]
  .filter((bdi) => names.includes(bdi.textContent))
  .map((bdi) => { const box = bdi.getBoundingClientRect(); return [box.x, box.y]; })"""
"""Where each name of a sentence is drawn, in the sentence's order."""


def read_right_to_left(sentence, players: list[str]) -> bool:
    """Say whether a sentence's names come in its order as a right-to-left reader meets them:
    each further left on its line, or on a line below."""
    at = sentence.evaluate(NAMES_AT, players)[-len(players) :]
    return all(y2 > y1 or (y2 == y1 and x2 < x1) for (x1, y1), (x2, y2) in pairwise(at))


def test_an_arabic_list_keeps_its_order_right_to_left(table: Table):
    """Arabic, with Arabic names and its own minus (U+061C): the items of "آنا ٤ × -٢؛ باسل
    ٣ × -٢؛ …" are met right to left in the order the sentence gives them."""
    players = ["آنا", "باسل", "سلمى", "دانة"]
    page = no_tricks_why(table, players, "ar")
    first = page.locator("ol.steps li").first
    expect(first).to_contain_text("آنا ٤ × \u061c-٢؛ باسل ٣ × \u061c-٢")
    assert read_right_to_left(first, players)
    close(page)


def test_times_are_shown_in_the_phones_own_time_zone(table: Table):
    match_id = table.start(BELOTE, DEAL)
    table.client.put(
        f"/api/matches/{match_id}/rounds/1",
        json=DEAL | {"points": {"Nous": 100}},
        headers={"Authorization": f"Bearer {table.tokens[str(match_id)]}"},
    )
    context = table.browser.new_context(**PHONE, timezone_id="Asia/Tokyo", locale="en-GB")
    page = context.new_page()
    page.goto(f"{table.base}/matches/{match_id}/sheet")
    badge = page.locator("#round-1 .badge time")
    stored = badge.get_attribute("datetime")
    hour = (int(stored[11:13]) + 9) % 24
    expect(badge).to_have_text(f"{hour:02d}:{stored[14:16]}")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_barbu_double_that_cannot_be_tapped_says_why(table: Table, scheme: str):
    match_id = table.start({"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]})
    page = table.phone(scheme, "en-US")
    page.goto(f"{table.base}/matches/{match_id}")
    # Ana declares: she only redoubles a player who doubled her.
    cell = page.locator("label.toggle:has(input[value='0>1'])")
    expect(cell.locator("input")).to_be_disabled()
    assert float(page.evaluate("el => getComputedStyle(el).opacity", cell.element_handle())) >= 0.7
    cell.tap(force=True)
    expect(page.locator(".doubles-why")).to_have_text(
        "Ana declares: only a redouble of a player who doubled them."
    )
    close(page)
