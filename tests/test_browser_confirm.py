"""Both sides confirm, at the table (issue 31): two phones at 360 × 740, one scoring for its
team, the other confirming and contesting from its own link, in English and in Persian.

The scorer starts a Belote match with confirm ticked and records a deal; the other team's phone
opens its one-time link, confirms it; the scorer records a second deal, which the other phone
contests with a reason; the scorer sees the contest, corrects the deal, and the other phone,
asked again, confirms it: both phones then show the match settled.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.test_browser import PHONE
from tests.test_browser_table import TEAM_SEATS

pytestmark = pytest.mark.browser

TABLES = {
    "en": (("Nous", "Eux"), ("Ana", "Cy", "Bo", "Di"), "the belote was ours"),
    "fa": (("ما", "آنها"), ("آنا", "کوروش", "بهرام", "داریوش"), "بلوت مال ما بود"),
}
"""Per language: the team names, the players (first team's, then the second's) and a reason."""


@pytest.fixture
def phones(browser: Browser, request: pytest.FixtureRequest) -> Iterator[tuple[Page, Page]]:
    """Open two phones, each with its own session, speaking the test's language."""
    language = request.node.callspec.params["language"]
    contexts: list[BrowserContext] = [
        browser.new_context(
            **PHONE, locale=language, extra_http_headers={"Accept-Language": language}
        )
        for _phone in range(2)
    ]
    yield contexts[0].new_page(), contexts[1].new_page()
    for context in contexts:
        context.close()


def fits(page: Page) -> None:
    """Assert the page needs no sideways scrolling at 360 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def record(page: Page, taker: str, points: str, n: int) -> None:
    """Record a plain belote deal: who took, hearts, the takers' card points, their last trick."""
    page.locator("#taker").get_by_text(taker, exact=True).tap()
    page.locator("#trump").get_by_text("♥").tap()
    page.locator("input.points[data-side='0']").fill(points)
    page.locator(".choice.der").first.tap()
    page.locator("button.primary[type=submit]").first.tap()
    expect(page.locator(f"#round-{n}")).to_be_visible()


@pytest.mark.parametrize("language", list(TABLES))
def test_two_phones_confirm_and_contest_a_match(
    phones: tuple[Page, Page], server: str, language: str
) -> None:
    scorer, other = phones
    (us, them), players, reason = TABLES[language]
    scorer.goto(f"{server}/matches/new/belote")
    scorer.locator("#team_0").fill(us)
    scorer.locator("#team_1").fill(them)
    for box, name in zip(TEAM_SEATS, (players[0], players[2], players[1], players[3]), strict=True):
        scorer.locator(f"#{box}").fill(name)
    scorer.locator("#confirm").check()
    scorer.locator("button.primary[type=submit]").tap()
    expect(scorer.locator(".confirming")).to_contain_text(us)
    record(scorer, players[0], "100", 1)
    expect(scorer.locator("#round-1 .verdict.waiting")).to_be_visible()

    # The scorer shows the other team its link; their phone opens it once.
    scorer.locator(".match-links a[href$='/sides']").tap()
    scorer.locator("form.actions button").first.tap()
    link = scorer.locator("figure.qr a").get_attribute("href")
    assert link is not None and "/side/" in link
    fits(scorer)
    other.goto(link)
    other.locator("#device").fill("B")
    other.locator("button.primary[type=submit]").tap()
    expect(other.locator(".confirming")).to_contain_text(them)
    expect(other.locator("#confirm-1 h2")).to_contain_text(us)
    # A side's phone confirms and contests: it records, corrects and removes nothing.
    assert other.locator("form[action$='/rounds']").count() == 0
    assert other.locator("a[href$='/edit']").count() == 0
    fits(other)
    other.locator("#confirm-1 button[value=confirm]").tap()
    expect(other.locator("#round-1 .verdict.settled")).to_be_visible()
    expect(other.locator(".banner.settled")).to_be_visible()

    # A second deal, contested with a reason.
    scorer.goto(scorer.url.split("/sides")[0])
    record(scorer, players[0], "90", 2)
    other.reload()
    other.locator("#confirm-2 summary").tap()
    other.locator("#reason-2").fill(reason)
    other.locator("#confirm-2 button[value=contest]").tap()
    expect(other.locator("#round-2 .verdict.contested")).to_be_visible()
    expect(other.locator("#confirm-2 .said.contested")).to_contain_text(reason)

    # The scorer sees the contest, with the way to correct the deal.
    scorer.reload()
    expect(scorer.locator(".banner.contested")).to_contain_text(reason)
    expect(scorer.locator("#round-2 .verdict.contested")).to_be_visible()
    scorer.locator(".banner.contested a").tap()
    scorer.locator("input.points[data-side='0']").fill("62")
    scorer.locator("button.primary[type=submit]").first.tap()
    expect(scorer.locator("#round-2 .verdict.waiting")).to_be_visible()

    # The correction cleared the contest: asked again, the other phone confirms it.
    other.reload()
    expect(other.locator("#confirm-2 .said.contested")).to_have_count(0)
    other.locator("#confirm-2 button[value=confirm]").tap()
    expect(other.locator(".banner.settled")).to_be_visible()
    scorer.reload()
    expect(scorer.locator(".banner.settled")).to_be_visible()
    expect(scorer.locator(".verdict.settled")).to_have_count(2)
    expect(scorer.locator(".log-head code")).to_have_text(re.compile(r"^[0-9a-f]{8}$"))
