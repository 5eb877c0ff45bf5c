"""The scoring phone in a real browser (Chromium, 360 × 740, touch): the score bar in view, the
first field focused, mistakes in view, every round once whatever Back and reload do, undo,
remove and restore, the draft kept through a reload, and play again."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from werkzeug.serving import make_server

from app import create_app
from tests.api_helpers import send
from tests.test_barbu_web import full_match_hands
from tests.test_browser import PHONE, no_sideways_scroll

pytestmark = pytest.mark.browser

SCREEN = PHONE["viewport"]["height"]
RAMI = {"game": "rami", "players": ["Ana", "Bo", "Cy"]}
BELOTE = {"game": "belote", "teams": {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}}
GAIGEL = {"game": "gaigel", "teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}}
BARBU = {"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]}
PORRAZO = {"game": "porrazo", "players": ["Ana", "Bo", "Cy"]}


def rami_round(bo: int, cy: int) -> dict[str, Any]:
    """Ana went out; Bo and Cy had melded and held these values."""
    held = {"Bo": {"points": bo, "melded": True}, "Cy": {"points": cy, "melded": True}}
    return {"outcome": "out", "winner": "Ana", "hands": held}


BELOTE_DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"}
GAIGEL_DEAL = {"winner": "Oben", "outcome": "aus"}
# A card count with a tie for the most cards scores nothing, and passes the deal on.
NOTHING_COUNTED = {"event": "cards", "counts": {"Ana": 20, "Bo": 20, "Cy": 12}}


class Table:
    """A served app whose matches are started through its API, and phones that score them."""

    def __init__(self, app: Flask, base: str, browser: Browser):
        self.app, self.base, self.browser = app, base, browser
        self.client = app.test_client()
        self.tokens: dict[str, str] = {}

    def start(self, body: dict[str, Any], *rounds: dict[str, Any]) -> int:
        """Start a match and record these rounds; return its id."""
        match = send(self.client, "POST", "/api/matches", body).json
        self.tokens[str(match["id"])] = match["scorer_token"]
        for entered in rounds:
            self.post(match["id"], entered)
        return match["id"]

    def post(self, match_id: int, entered: dict[str, Any]) -> None:
        """Record a round from elsewhere (another phone)."""
        headers = {"Authorization": f"Bearer {self.tokens[str(match_id)]}"}
        answer = self.client.post(f"/api/matches/{match_id}/rounds", json=entered, headers=headers)
        assert answer.status_code == 201, answer.json

    def rounds(self, match_id: int) -> list[dict[str, Any]]:
        """The rounds the match holds."""
        return self.client.get(f"/api/matches/{match_id}").json["rounds"]

    def phone(self, scheme: str = "light", language: str = "en-US") -> Page:
        """Open a phone that holds the scorer token of every match started so far."""
        context = self.browser.new_context(**PHONE, color_scheme=scheme, locale=language)
        serializer = self.app.session_interface.get_signing_serializer(self.app)
        cookie = serializer.dumps({"scorer_tokens": dict(self.tokens)})
        context.add_cookies([{"name": "session", "value": cookie, "url": self.base}])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.script_errors = errors  # type: ignore[attr-defined]
        return page

    def open(self, match_id: int, page: Page | None = None) -> Page:
        """Open a match's page on a scoring phone."""
        page = page or self.phone()
        page.goto(f"{self.base}/matches/{match_id}")
        return page


@pytest.fixture(scope="module")
def table(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """Serve an app over its own database for this module's phones."""
    database = tmp_path_factory.mktemp("scoring") / "scoring.sqlite"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "test"})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield Table(app, f"http://127.0.0.1:{httpd.server_port}", browser)
    httpd.shutdown()
    thread.join()


def in_view(page: Page, selector: str) -> bool:
    """Say whether an element lies wholly within the phone's screen."""
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN


def record(page: Page) -> None:
    """Tap the round form's record button and wait for the page it leads to."""
    with page.expect_navigation():
        page.locator(".next-round .actions button.primary").tap()


def close(page: Page) -> None:
    """Close a phone, failing the test if a script broke on any page it opened."""
    assert page.script_errors == []  # type: ignore[attr-defined]
    page.context.close()


MATCHES: dict[str, Callable[[], tuple[dict[str, Any], list[dict[str, Any]]]]] = {
    "rami, first round": lambda: (RAMI, []),
    "rami, mid-match": lambda: (RAMI, [rami_round(10, 20)] * 5),
    "belote, first deal": lambda: (BELOTE, []),
    "belote, mid-match": lambda: (BELOTE, [BELOTE_DEAL] * 6),
    "gaigel, mid-match": lambda: (GAIGEL, [GAIGEL_DEAL] * 3),
    "barbu, hand 20": lambda: (BARBU, full_match_hands("Ana")[:19]),
    "porrazo, peg 150": lambda: (PORRAZO, [NOTHING_COUNTED] * 149),
}


@pytest.mark.parametrize("made", MATCHES.values(), ids=MATCHES.keys())
def test_the_score_bar_stays_in_view_and_the_form_starts_on_the_first_screen(
    table: Table, made: Callable[[], tuple[dict[str, Any], list[dict[str, Any]]]]
):
    body, rounds = made()
    match_id = table.start(body, *rounds)
    page = table.open(match_id)
    bar = page.locator(".score-bar")
    expect(bar).to_contain_text(f"{len(rounds) + 1}")
    expect(bar.locator(".bar-dealer")).to_contain_text("deals")
    assert in_view(page, ".score-bar")
    form_top = page.locator("form.round-form").bounding_box()["y"]
    assert form_top < SCREEN / 2
    # The first choice of the round is focused, on the first screen.
    focused = page.evaluate("document.activeElement.closest('form.round-form') !== null")
    assert focused
    assert page.evaluate("document.activeElement.getBoundingClientRect().bottom") <= SCREEN
    # Down at the record button, the score is still on screen.
    page.locator(".next-round .actions button.primary").scroll_into_view_if_needed()
    page.mouse.wheel(0, 5000)
    page.wait_for_timeout(100)
    assert in_view(page, ".score-bar")
    no_sideways_scroll(page)
    close(page)


def test_the_bar_names_the_leader_the_distance_and_the_dealer(table: Table):
    match_id = table.start(BELOTE, BELOTE_DEAL)
    page = table.open(match_id)
    bar = page.locator(".score-bar")
    expect(bar.locator(".bar-round")).to_have_text("Deal 2 · Di deals")
    expect(bar.locator("li.leads .bar-side")).to_have_text("Nous")
    expect(bar.locator("li").first).to_contain_text("Nous 100 900 to go")
    close(page)


REFUSED = {
    "rami": (RAMI, "#winner"),
    "belote": (BELOTE, "#taker"),
    "gaigel": (GAIGEL, "#winner"),
}


@pytest.mark.parametrize(("body", "first"), REFUSED.values(), ids=REFUSED.keys())
def test_a_refused_round_comes_back_focused_on_the_first_problem_in_view(
    table: Table, body: dict[str, Any], first: str
):
    match_id = table.start(body)
    page = table.open(match_id)
    record(page)
    expect(page.locator("form.round-form .alert")).to_be_visible()
    focused_in = page.evaluate(f"!!document.activeElement.closest('{first}')")
    assert focused_in, page.evaluate("document.activeElement.outerHTML")
    box = page.evaluate("document.activeElement.getBoundingClientRect().toJSON()")
    bar = page.locator(".score-bar").bounding_box()
    assert bar["y"] + bar["height"] <= box["y"] and box["y"] + box["height"] <= SCREEN
    assert table.rounds(match_id) == []
    close(page)


def fill_rami(page: Page, bo: str = "12") -> None:
    """Ana went out; Bo holds `bo` and had melded; Cy holds 8 and had not."""
    page.locator("#winner").get_by_text("Ana", exact=True).tap()
    page.locator("#hands-1-points").fill(bo)
    page.locator("#hands-1-melded").get_by_text("Yes", exact=True).tap()
    page.locator("#hands-2-points").fill("8")
    page.locator("#hands-2-melded").get_by_text("No", exact=True).tap()


def fill_belote(page: Page) -> None:
    """Bo takes at spades; Nous make 100 in cards; Eux take the last trick."""
    page.locator("#taker").get_by_text("Bo", exact=True).tap()
    page.locator("input[name='trump'][value='spades']").locator("..").tap()
    page.locator("input.points[data-side]").first.fill("100")
    page.locator("input[name='last_trick']").nth(1).locator("..").tap()


def fill_gaigel(page: Page) -> None:
    """Unten wins with a Gaigel."""
    page.locator("#winner").get_by_text("Unten", exact=True).tap()
    page.locator("input[name='outcome'][value='gaigel']").locator("..").tap()


FILLED = {
    "rami": (RAMI, fill_rami),
    "belote": (BELOTE, fill_belote),
    "gaigel": (GAIGEL, fill_gaigel),
}


@pytest.mark.parametrize(("body", "fill"), FILLED.values(), ids=FILLED.keys())
def test_reload_and_back_after_recording_add_no_round(
    table: Table, body: dict[str, Any], fill: Callable[[Page], None]
):
    match_id = table.start(body)
    page = table.open(match_id)
    fill(page)
    record(page)
    assert page.url.startswith(f"{table.base}/matches/{match_id}?recorded=")
    page.reload()
    page.go_back()
    # Back shows the page as the server has it now: the next round, nothing filled in.
    expect(page.locator(".score-bar .bar-round")).to_contain_text("2")
    assert page.locator("input[name='expected']").input_value() == "2"
    record(page)
    page.go_forward()
    page.reload()
    assert len(table.rounds(match_id)) == 1
    close(page)


@pytest.mark.parametrize(("body", "fill"), FILLED.values(), ids=FILLED.keys())
def test_a_half_entered_round_survives_a_reload_until_it_is_recorded(
    table: Table, body: dict[str, Any], fill: Callable[[Page], None]
):
    match_id = table.start(body)
    page = table.open(match_id)
    fill(page)
    typed = page.evaluate(FORM_VALUES)
    page.reload()
    expect(page.locator("#draft-note")).to_be_visible()
    assert page.evaluate(FORM_VALUES) == typed
    record(page)
    assert len(table.rounds(match_id)) == 1
    page.reload()
    expect(page.locator("#draft-note")).to_be_hidden()
    assert page.evaluate(FORM_VALUES) != typed
    close(page)


FORM_VALUES = """() => [...new FormData(document.querySelector('form.round-form'))]
  .filter(([name]) => !['csrf_token', 'idempotency_key', 'expected'].includes(name))"""


def test_undo_takes_the_round_back_to_fix_it(table: Table):
    match_id = table.start(RAMI)
    page = table.open(match_id)
    fill_rami(page, bo="21")
    record(page)
    notice = page.locator(".notice")
    expect(notice).to_contain_text("Round 1 recorded.")
    assert in_view(page, ".notice")
    with page.expect_navigation():
        notice.get_by_role("button", name="Undo").tap()
    assert table.rounds(match_id) == []
    expect(page.locator("#hands-1-points")).to_have_value("21")
    page.locator("#hands-1-points").fill("12")
    record(page)
    [stored] = table.rounds(match_id)
    assert stored["totals"] == {"Ana": 0, "Bo": 12, "Cy": 33}
    close(page)


def test_remove_asks_once_and_restore_brings_the_round_back(table: Table):
    match_id = table.start(RAMI, rami_round(10, 20), rami_round(5, 5))
    page = table.open(match_id)
    page.goto(f"{table.base}/matches/{match_id}/rounds/1/edit")
    page.get_by_role("button", name="Remove round 1").tap()
    expect(page.get_by_role("heading", name="Remove round 1?")).to_be_visible()
    assert len(table.rounds(match_id)) == 2
    page.get_by_role("button", name="Yes, remove round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 removed")
    assert len(table.rounds(match_id)) == 1
    page.goto(f"{table.base}/matches/{match_id}/sheet")
    page.get_by_role("button", name="Restore round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 restored")
    assert [r["totals"] for r in table.rounds(match_id)] == [
        {"Ana": 0, "Bo": 10, "Cy": 20},
        {"Ana": 0, "Bo": 15, "Cy": 25},
    ]
    close(page)


def test_a_finished_match_is_played_again_in_one_tap(table: Table):
    match_id = table.start(
        {"game": "rami", "players": ["Ana", "Bo"], "options": {"target": 100}},
        {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 100, "melded": True}}},
    )
    page = table.open(match_id)
    page.get_by_role("button", name="Play again, everyone one seat on").tap()
    expect(page.locator(".score-bar .bar-round")).to_have_text("Round 1 · Bo deals")
    expect(page.locator(".score-bar .bar-side")).to_have_text(["Bo", "Ana"])
    expect(page.locator("form.round-form")).to_be_visible()
    close(page)


def test_the_new_match_form_offers_the_names_already_played(table: Table):
    table.start({"game": "rami", "players": ["Zoé", "Yann"]})
    page = table.phone()
    page.goto(f"{table.base}/matches/new/rami")
    offered = page.locator("#known-players option").evaluate_all("o => o.map(x => x.value)")
    assert {"Zoé", "Yann"} <= set(offered)
    assert page.locator("#players-0").get_attribute("list") == "known-players"
    close(page)
