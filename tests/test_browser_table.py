"""Real-browser journeys at the table: Persian right to left, the live view, offline, and axe."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from babel.support import Translations
from playwright.sync_api import Browser, Page, expect

from tests import test_browser
from tests.test_browser import PHONE, expect_totals, hand, no_sideways_scroll, start_rami
from web import runtime
from web.numerals import numerals

pytestmark = pytest.mark.browser

# The phone's page of tests/test_browser.py; tests/conftest.py serves the app and launches the
# one Chromium.
page = test_browser.page

CATALOGS = Path(__file__).resolve().parent.parent / "translations"

LIVE_WAIT_MS = 8000
"""How long a change may take to reach the live view: app.js asks every 5 s, plus the answer."""


def catalog(language: str) -> Translations:
    """Read a language's compiled catalog, as the app does: untranslated messages stay English."""
    return Translations.load(str(CATALOGS), [language])


def pick_language(page: Page, code: str) -> None:
    """Choose a language with the picker at the foot of the page; it goes there at once."""
    page.locator("#language-picker").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)


def expect_direction(page: Page, language: str, direction: str) -> None:
    """Check the page's language and the direction it reads in."""
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("html")).to_have_attribute("dir", direction)


def record_rami_round(page: Page, bo: str, cy: str) -> None:
    """Record a round Ana went out of, Bo melded and Cy did not, their hands typed as values."""
    page.locator("#winner").get_by_text("Ana", exact=True).tap()
    page.locator("#hands-1-points").fill(bo)
    hand(page, "Bo").locator("input[value='y']").locator("..").tap()
    hand(page, "Cy").locator("input[value='n']").locator("..").tap()
    page.locator("#hands-2-points").fill(cy)
    page.locator(".next-round .actions button.primary").tap()


def explanation(page: Page, n: int) -> list[str]:
    """Read the sentences under a round of the sheet."""
    return page.locator(f"#round-{n} tr.why li").all_inner_texts()


# --- languages ---------------------------------------------------------------------------------


def test_a_rami_match_started_and_scored_in_persian(page: Page, server: str):
    """A Persian table types Persian digits on a right-to-left page and gets the same score."""
    fa = catalog("fa")
    page.goto(f"{server}/matches/new/rami")
    expect_direction(page, "en", "ltr")
    pick_language(page, "fa")
    expect_direction(page, "fa", "rtl")
    assert page.url == f"{server}/matches/new/rami"
    expect(page.locator("#language-picker")).to_have_value("fa")
    expect(page.locator("form:not(.language-form) button.primary")).to_have_text(
        fa.gettext("Start the match")
    )

    for seat, name in enumerate(("Ana", "Bo", "Cy")):
        page.locator(f"#players-{seat}").fill(name)
    page.locator("form:not(.language-form) button.primary").tap()
    expect(page).to_have_url(re.compile(rf"^{re.escape(server)}/matches/\d+$"))
    expect_direction(page, "fa", "rtl")
    # The page writes its numbers in Persian digits, as CLDR does.
    persian = numerals("fa").write
    expect(page.locator("#round-form-title")).to_have_text(
        persian(fa.gettext("%(round)s %(n)s") % {"round": fa.gettext("Round"), "n": 1})
    )
    expect(page.locator("#hands-1-points")).to_have_attribute("inputmode", "numeric")
    no_sideways_scroll(page)

    record_rami_round(page, bo="۳۲", cy="۱۵۲")
    expect(page).to_have_url(re.compile(r"/matches/\d+\?recorded=\d+$"))
    expect_direction(page, "fa", "rtl")
    expect_totals(page, "۰", "۳۲", "۱۰۰")
    expect(page.locator(".sheet tfoot th")).to_have_text(fa.gettext("Total"))
    capped = "{player} never melded: {value} + {bonus} = {charged}, capped at {cap}."
    # Each name and number filled into a right-to-left sentence is isolated.
    filled = {"player": "Cy", "value": 152, "bonus": 25, "charged": 177, "cap": 100}
    isolated = {name: f"\u2067{value}\u2069" for name, value in filled.items()}
    assert explanation(page, 1)[-1] == persian(fa.gettext(capped).format(**isolated))
    no_sideways_scroll(page)

    match_url = page.url.split("#")[0]
    pick_language(page, "en")
    expect_direction(page, "en", "ltr")
    assert page.url == match_url
    expect_totals(page, "0", "32", "100")
    assert explanation(page, 1) == [
        "Ana went out: 0.",
        "Bo's hand is worth 32.",
        "Cy's hand is worth 152.",
        "Cy never melded: 152 + 25 = 177, capped at 100.",
    ]


def test_a_rami_match_started_and_scored_in_english(page: Page, server: str):
    """The same table in English: left to right, the same totals, explained in English."""
    start_rami(page, server, "Ana", "Bo", "Cy")
    expect_direction(page, "en", "ltr")
    expect(page.locator("#language-picker")).to_have_value("en")
    record_rami_round(page, bo="32", cy="152")
    expect(page.locator(".notice span")).to_have_text("Round 1 recorded.")
    expect_totals(page, "0", "32", "100")
    assert explanation(page, 1) == [
        "Ana went out: 0.",
        "Bo's hand is worth 32.",
        "Cy's hand is worth 152.",
        "Cy never melded: 152 + 25 = 177, capped at 100.",
    ]
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()


def test_the_picker_button_changes_the_language_without_javascript(browser: Browser, server: str):
    """Without JavaScript the select cannot go by itself: its button must."""
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}/players")
    page.locator("#language-picker").select_option("fa")
    expect_direction(page, "en", "ltr")
    page.locator(".language-form button").tap()
    expect_direction(page, "fa", "rtl")
    assert page.url == f"{server}/players"
    page.locator("#language-picker").select_option("en")
    page.locator(".language-form button").tap()
    expect_direction(page, "en", "ltr")
    context.close()


def test_a_persian_phone_gets_persian_until_another_language_is_picked(
    browser: Browser, server: str
):
    """The phone's own language comes first; the picker wins over it, and is remembered."""
    context = browser.new_context(**PHONE, locale="fa-IR")
    page = context.new_page()
    page.goto(server)
    expect_direction(page, "fa", "rtl")
    pick_language(page, "en")
    expect_direction(page, "en", "ltr")
    page.goto(f"{server}/history")
    expect_direction(page, "en", "ltr")
    context.close()


# --- the live view -----------------------------------------------------------------------------


def test_the_live_view_follows_a_round_entered_elsewhere_without_a_reload(
    browser: Browser, server: str
):
    """A watcher's phone shows each new round by itself, and never a control to change it."""
    scorer = browser.new_context(**PHONE)
    scoring = scorer.new_page()
    start_rami(scoring, server, "Ana", "Bo", "Cy")
    match_url = scoring.url
    live_url = scoring.locator(".show-table figcaption a").get_attribute("href")
    assert live_url == f"{match_url}/live"
    expect(scoring.locator(".show-table .qr-code[role=img] svg path")).to_have_count(2)

    # Another client scores through the API, with a token traded for the scoring phone's code.
    scoring.goto(f"{match_url}/handoff")
    scoring.get_by_role("button", name="Make a code").tap()
    code = scoring.locator("strong.code").inner_text()
    api = browser.new_context()
    joined = api.request.post(f"{server}/api/join", data={"code": code, "device": "Tablet"})
    assert joined.status == 200, joined.text()
    token = joined.json()["scorer_token"]

    watcher = browser.new_context(**PHONE)
    page = watcher.new_page()
    page.goto(match_url)
    page.locator(".show-table figcaption a").tap()
    expect(page).to_have_url(live_url)
    expect(page.locator(".live-totals strong")).to_have_text(["0", "0", "0"])
    expect(page.locator("#live-sheet p.empty")).to_be_visible()
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.evaluate("window.__marker = 1")

    entered = api.request.post(
        f"{server}/api/matches/{match_url.rsplit('/', 1)[1]}/rounds",
        data={
            "outcome": "out",
            "winner": "Ana",
            "hands": {"Bo": {"points": 32, "melded": True}, "Cy": {"points": 152, "melded": False}},
        },
        headers={"Authorization": f"Bearer {token}"},
    )
    assert entered.status == 201, entered.text()

    expect(page.locator(".live-totals strong")).to_have_text(
        ["0", "32", "100"], timeout=LIVE_WAIT_MS
    )
    expect(page.locator(".live-totals li > bdi")).to_have_text(["Ana", "Bo", "Cy"])
    expect_totals(page, "0", "32", "100")
    expect(page.locator("#round-1")).to_contain_text(
        "Cy never melded: 152 + 25 = 177, capped at 100."
    )
    expect(page.locator("#live-sheet p.empty")).to_have_count(0)
    assert page.evaluate("window.__marker") == 1
    assert navigations == []

    # Even on the scoring phone, which corrects rounds from its match page, the live view
    # offers no control: no correction link, no round form, no way to hand the match over.
    scoring.goto(match_url)
    scoring.locator("#round-1 a.round-n").tap()
    expect(scoring.get_by_role("link", name="Correct or remove round 1")).to_be_visible()
    scoring.goto(live_url)
    for phone in (page, scoring):
        phone.locator("#round-1 a.round-n").tap()
        expect(phone.locator("#round-1").get_by_role("link", name="Why?")).to_be_visible()
        expect(phone.get_by_role("link", name=re.compile("Correct or remove"))).to_have_count(0)
        expect(phone.locator("a[href$='/edit'], a[href$='/handoff']")).to_have_count(0)
        expect(phone.locator("form")).to_have_count(1)
        expect(phone.locator("form")).to_have_class("language-form")
        expect(phone.locator("input:not([type='hidden']), button")).to_have_count(1)
    for context in (scorer, api, watcher):
        context.close()


# --- offline -----------------------------------------------------------------------------------


def test_a_page_out_of_reach_shows_the_offline_page(browser: Browser, server: str):
    """A table that loses the Wi-Fi must see what still works, not the browser's error page."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server)
    script = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert script == f"{server}/sw.js"
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{server}/sw.js"

    context.set_offline(True)
    answer = page.goto(f"{server}/history")
    assert answer is not None and answer.from_service_worker
    assert page.url == f"{server}/history"
    expect(page).to_have_title("No connection · Tablescore")
    expect(page.get_by_role("heading", level=1)).to_have_text("No connection")
    # A fourth where the phone's Python is installed: a ready phone starts and scores alone.
    alone = runtime.marked(runtime.runtime_dir(runtime.ROOT), runtime.SHA256)
    expect(page.locator(".offline-list li")).to_have_count(3 + alone)
    # The stylesheet came from the worker's cache: the header bar wears the accent colour.
    expect(page.locator("header.bar")).to_have_css("background-color", "rgb(31, 111, 74)")
    no_sideways_scroll(page)

    context.set_offline(False)
    page.get_by_role("link", name="Try again").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("History")
    assert page.url == f"{server}/history"
    context.close()


# --- axe on every page -------------------------------------------------------------------------

TEAM_SEATS = ["team_0_players-0", "team_0_players-1", "team_1_players-0", "team_1_players-1"]
FRESH_MATCHES = {
    "belote": TEAM_SEATS,
    "barbu": ["players-0", "players-1", "players-2", "players-3"],
    "gaigel": TEAM_SEATS,
    "porrazo": ["players-0", "players-1", "players-2"],
}
"""The other games' match pages, each started with these boxes filled: their round forms."""


def start_match(page: Page, server: str, game: str, seats: list[str]) -> str:
    """Start a match from its form, filling the player boxes by id; return its page's path."""
    page.goto(f"{server}/matches/new/{game}")
    for seat, box in enumerate(seats):
        page.locator(f"#{box}").fill(f"P{seat + 1}")
    page.locator("form:not(.language-form) button.primary").tap()
    expect(page.locator("form.round-form")).to_have_count(1)
    return page.url.removeprefix(server)


@pytest.fixture(scope="module")
def scoring_phone(browser: Browser, server: str) -> Iterator[dict[str, Any]]:
    """Return a scoring phone's cookies and every page it sees, each with what it must show."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    start_rami(page, server, "Ana", "Bo", "Cy")
    match = page.url.removeprefix(server)
    record_rami_round(page, bo="32", cy="152")
    expect_totals(page, "0", "32", "100")
    pages = {"/": ".games", "/offline": ".offline-list"}
    pages |= {f"/matches/new/{game}": "form .names" for game in ["rami", *FRESH_MATCHES]}
    pages |= {
        match: "form.round-form",
        f"{match}/sheet": "#round-1",
        f"{match}/rounds/1/why": "ol.steps li",
        f"{match}/rules": "h1",
        f"{match}/whatif": "h1",
        f"{match}/handoff": "ul.phones li",
        f"{match}/live": "#live-sheet #round-1",
        "/history": ".match-list li",
        "/players": "main a[href='/players/Ana']",
        "/players/Ana": "h1",
        "/join": "#code",
        "/import": "input[type='file']",
        "/patterns": "section.patterns",
    }
    for game, seats in FRESH_MATCHES.items():
        pages[start_match(page, server, game, seats)] = "form.round-form"
    yield {"storage": context.storage_state(), "pages": pages}
    context.close()


def serious(results: Any) -> list[str]:
    """Say each serious or critical axe violation: its rule, impact and the elements."""
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(" ".join(node["target"]) for node in violation["nodes"])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize(("language", "direction"), [("en", "ltr"), ("fa", "rtl")])
def test_axe_finds_nothing_serious_on_any_page(
    browser: Browser, server: str, scoring_phone: dict[str, Any], language: str, direction: str
):
    """Every page, as the scoring phone sees it, must be usable with a screen reader."""
    context = browser.new_context(**PHONE, storage_state=scoring_phone["storage"])
    page = context.new_page()
    page.goto(server)
    pick_language(page, language)
    axe = Axe()
    found = []
    for path, shown in scoring_phone["pages"].items():
        answer = page.goto(f"{server}{path}")
        assert answer is not None and answer.status == 200, path
        expect_direction(page, language, direction)
        expect(page.locator(shown).first).to_be_attached()
        found += [f"{path}: {problem}" for problem in serious(axe.run(page))]
    context.close()
    assert not found, "\n".join(found)


# --- the keyboard ------------------------------------------------------------------------------


def test_a_match_started_and_scored_with_the_keyboard_alone(page: Page, server: str):
    """Everything works by keyboard: tab to each box, type, pick with arrows, Enter to send."""
    page.goto(f"{server}/matches/new/rami")
    page.locator("#players-0").focus()
    page.keyboard.type("Ana")
    page.keyboard.press("Tab")
    page.keyboard.type("Bo")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    # The outcome and winner are radio groups: arrows move the choice, as in any form.
    page.locator("#winner-0").focus()
    page.keyboard.press("Space")
    expect(page.locator("#winner-0")).to_be_checked()
    page.locator("#hands-1-points").focus()
    page.keyboard.type("12")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "hands-1-melded-0", "Tab goes on in order"
    page.keyboard.press("Space")
    expect(page.locator("#hands-1-melded-0")).to_be_checked()
    page.locator("#hands-1-points").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".notice span")).to_have_text("Round 1 recorded.")
    expect_totals(page, "0", "12")
