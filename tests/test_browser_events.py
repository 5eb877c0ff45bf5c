"""An event in real browsers (Chromium, 360 × 740, touch): the organiser creates a coinche
concours and draws round 1, a table's phone joins by its hand-off link and scores its match,
and the standings page on another screen moves without a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.test_browser import PHONE, no_sideways_scroll

pytestmark = pytest.mark.browser

TEAMS = "Les As: Ana, Bo\nLes Rois: Cy, Di\nPique: Ed, Flo\nCoeur: Gus, Hana"


def create_concours(page: Page, server: str) -> None:
    """Create a four-team coinche event of one deal a match, from the events page."""
    page.goto(server)
    page.locator("header nav").get_by_role("link", name="Events").tap()
    page.locator(".games").get_by_role("link", name="Coinche").tap()
    page.get_by_label("Name of the event").fill("Concours du samedi")
    page.get_by_label("Venue").fill("Café du Port")
    page.get_by_label("Deals per match").fill("1")
    page.get_by_label("Teams").fill(TEAMS)
    expect(page.locator("#option_variant").get_by_label("Coinche, with contracts")).to_be_checked()
    no_sideways_scroll(page)
    page.get_by_role("button", name="Create the event").tap()
    expect(page.get_by_role("heading", name=re.compile("Concours du samedi"))).to_be_visible()


def score_a_deal(page: Page) -> None:
    """Take at 80 for the first team seated at this table and make 100 of 152."""
    taker = page.locator("#taker .choice").first
    taker.tap()
    team = page.locator("fieldset.points input:not([type=hidden])").first
    page.locator("#trump").get_by_text("♥").tap()
    page.locator("#contract").get_by_text("80", exact=True).tap()
    team.fill("100")
    page.locator("#last_trick .choice").first.tap()
    page.get_by_role("button", name="Record deal 1").tap()
    expect(page.locator(".banner.winner")).to_be_visible()


def test_an_evening_of_coinche_across_two_tables(browser: Browser, server: str):
    organiser = browser.new_context(**PHONE).new_page()
    create_concours(organiser, server)
    organiser.get_by_role("button", name="Draw round 1").tap()
    expect(organiser.locator(".flash")).to_contain_text("Round 1 is drawn")
    expect(organiser.locator(".event-table")).to_have_count(2)
    no_sideways_scroll(organiser)
    event_url = organiser.url

    # A big screen follows the standings.
    screen = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    screen.goto(f"{event_url}/standings")
    expect(screen.locator("#live-sheet")).to_contain_text("2 tables playing")

    # The organiser hands table 1 to a phone; that phone joins by the link and scores.
    organiser.locator(".event-table").first.get_by_role("link", name="Hand to a phone").tap()
    organiser.get_by_role("button", name=re.compile("code")).first.tap()
    link = organiser.locator("a[href*='/join/']").first.get_attribute("href")
    table = browser.new_context(**PHONE).new_page()
    table.goto(link)
    table.get_by_label(re.compile("phone", re.I)).first.fill("Table 1")
    table.get_by_role("button", name=re.compile("Join|Score", re.I)).first.tap()
    expect(table.get_by_role("heading", name="Deal 1")).to_be_visible()
    no_sideways_scroll(table)
    score_a_deal(table)

    # The standings moved on the big screen without a reload: one table still playing.
    expect(screen.locator("#live-sheet")).to_contain_text("1 table playing", timeout=15_000)
    first_row = screen.locator(".standings tbody tr").first
    expect(first_row.locator("td.num").nth(1)).to_have_text("1")

    # The organiser's phone scores the other table itself, then draws round 2.
    organiser.goto(event_url)
    organiser.locator(".event-table").nth(1).locator("a").first.tap()
    score_a_deal(organiser)
    organiser.goto(event_url)
    organiser.get_by_role("button", name="Draw round 2").tap()
    expect(organiser.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(screen.locator("#live-sheet")).to_contain_text("Round 2 of 3", timeout=15_000)


def finished_rami(server: str) -> tuple[int, str]:
    """A Rami match to 10, finished in one round, started through the API of the served app."""
    import json
    import urllib.request

    def send(path: str, body: dict, token: str | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        asked = urllib.request.Request(
            f"{server}{path}", json.dumps(body).encode(), headers, method="POST"
        )
        with urllib.request.urlopen(asked) as answer:
            return json.load(answer)

    match = send(
        "/api/matches", {"game": "rami", "options": {"target": 10}, "players": ["Ana", "Bo"]}
    )
    hand = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}
    send(f"/api/matches/{match['id']}/rounds", hand, match["scorer_token"])
    return match["id"], match["scorer_token"]


def test_share_the_result_as_a_file_or_download_it(browser: Browser, server: str):
    match_id, _token = finished_rami(server)
    # A phone without the Web Share API downloads the picture.
    page = browser.new_context(**PHONE, accept_downloads=True).new_page()
    page.goto(f"{server}/matches/{match_id}")
    with page.expect_download() as downloaded:
        page.get_by_role("link", name="Share the result").tap()
    assert downloaded.value.suggested_filename == f"tablescore-match-{match_id}.png"
    # A phone that shares files hands the PNG itself to the share sheet.
    sharing = browser.new_context(**PHONE, bypass_csp=True).new_page()
    sharing.add_init_script(
        """
        navigator.canShare = (data) => Boolean(data.files && data.files.length);
        navigator.share = async (data) => {
          window.shared = {name: data.files[0].name, type: data.files[0].type,
                           size: data.files[0].size, title: data.title};
        };
        """
    )
    sharing.goto(f"{server}/matches/{match_id}")
    sharing.get_by_role("link", name="Share the result").tap()
    sharing.wait_for_function("window.shared !== undefined")
    shared = sharing.evaluate("window.shared")
    assert shared["name"] == f"tablescore-match-{match_id}.png" and shared["type"] == "image/png"
    assert shared["size"] > 1000 and shared["title"] == "Ana wins with 0!"
    no_sideways_scroll(sharing)
