"""Offline at the table, in a real browser with its service worker (Chromium, 360 × 740, touch):
the match stays readable as last seen, rounds recorded offline wait on the phone in order, and
each is recorded exactly once when the connection is back; one the server refuses says why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorebook import matches
from scorebook.storage import Unavailable
from tests.test_browser_scoring import (
    BELOTE,
    BELOTE_DEAL,
    GAIGEL,
    GAIGEL_DEAL,
    Table,
    close,
    fill_belote,
    fill_gaigel,
    record,
)
from tests.test_browser_scoring import table as served

table = served
"""The scoring tests' served app and its phones, for this module's phones too."""

pytestmark = pytest.mark.browser

GAMES = {
    "gaigel": (GAIGEL, GAIGEL_DEAL, fill_gaigel, "Deal"),
    "belote": (BELOTE, BELOTE_DEAL, fill_belote, "Deal"),
}


def worked_for(page: Page) -> None:
    """Wait until the service worker answers for the page, as it does from the second visit."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")


def opened_online(table: Table, match_id: int) -> Page:
    """Open a match on a scoring phone, and open it again once its service worker runs."""
    page = table.open(match_id)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    worked_for(page)
    return page


def back_online(page: Page) -> None:
    """Give the phone its connection back. Its browser then tells the page, as Chromium does
    (`online`), even one loaded offline: the page sends what waits and shows itself afresh."""
    page.context.set_offline(False)


BACK_WITHIN_MS = 20000
"""How long a phone back online may take to show the server's page: at once when its browser
says so (`online`), which some Chromium releases never tell a page loaded offline; otherwise
at the page's own check, every 15 seconds (SEND_EVERY_MS in static/app.js)."""


def shown_afresh(page: Page) -> None:
    """Wait until the phone, back online, shows the server's page instead of the one as last
    seen (which keeps its banner until it is replaced)."""
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=BACK_WITHIN_MS)


def sent_until(table: Table, page: Page, match_id: int, count: int) -> None:
    """Wait until the match holds `count` rounds, as the phone sends what it kept (as long as
    a phone back online may take): the outbox of a page just shown afresh reads empty until the
    page has read what this phone still keeps, so it alone does not say all was sent."""
    for _ in range(BACK_WITHIN_MS // 100):
        if len(table.rounds(match_id)) >= count:
            return
        page.wait_for_timeout(100)


def offline_record(page: Page, fill: Callable[[Page], None]) -> None:
    """Record a round while the server cannot be reached: it lands back on the match page."""
    fill(page)
    with page.expect_navigation():
        page.locator(".next-round .actions button.primary").tap()
    expect(page.locator("#outbox")).to_be_visible()


@pytest.mark.parametrize(("body", "deal", "fill", "word"), GAMES.values(), ids=GAMES.keys())
def test_rounds_recorded_offline_are_sent_once_each_in_order(
    table: Table, body: dict[str, Any], deal: dict[str, Any], fill: Callable, word: str
):
    match_id = table.start(body)
    page = opened_online(table, match_id)
    fill(page)
    record(page)
    assert len(table.rounds(match_id)) == 1
    totals = page.locator(".score-bar .bar-sides").inner_text()

    page.context.set_offline(True)
    page.reload()
    # The page as last seen, saying so, with the totals the server gave.
    expect(page.locator("#offline-banner")).to_contain_text("Offline — showing the score as of")
    assert page.locator(".score-bar .bar-sides").inner_text() == totals
    offline_record(page, fill)
    offline_record(page, fill)
    items = page.locator("#outbox .outbox-item")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator(".outbox-what")).to_have_text(f"{word} 2")
    expect(items.nth(1).locator(".outbox-what")).to_have_text(f"{word} 3")
    expect(items.nth(0).locator(".outbox-state")).to_contain_text("Waiting to be sent")
    expect(items.nth(0).locator(".outbox-summary")).not_to_be_empty()
    expect(page.locator("#bar-pending")).to_have_text("+ 2 waiting to be sent, not in these totals")
    # The next round is the fourth, whatever the page as last seen said.
    assert page.locator("input[name='expected']").input_value() == "4"
    page.reload()
    expect(page.locator("#outbox .outbox-item")).to_have_count(2)
    assert len(table.rounds(match_id)) == 1

    back_online(page)
    sent_until(table, page, match_id, 3)
    shown_afresh(page)
    expect(page.locator("#outbox .outbox-item")).to_have_count(0, timeout=BACK_WITHIN_MS)
    rounds = table.rounds(match_id)
    assert len(rounds) == 3
    assert rounds[1]["input"] == rounds[2]["input"] == rounds[0]["input"]
    # Opening the page again sends nothing more.
    page.reload()
    page.wait_for_timeout(300)
    assert len(table.rounds(match_id)) == 3
    close(page)


def test_a_round_the_server_refuses_on_arrival_says_why_and_can_be_fixed(table: Table):
    match_id = table.start(GAIGEL)
    page = opened_online(table, match_id)
    page.context.set_offline(True)
    page.reload()
    offline_record(page, fill_gaigel)
    # Meanwhile another phone records deal 1: the kept one was for deal 1 too.
    table.post(match_id, GAIGEL_DEAL)
    back_online(page)
    shown_afresh(page)
    refused = page.locator("#outbox .outbox-item.refused")
    expect(refused).to_have_count(1, timeout=BACK_WITHIN_MS)
    expect(refused.locator(".outbox-state")).to_contain_text(
        "Not recorded: This form was for deal 1"
    )
    assert len(table.rounds(match_id)) == 1
    page.reload()
    expect(page.locator("#outbox .outbox-item.refused")).to_have_count(1)
    # Fixed from the form, it is recorded as the next deal.
    page.locator("#outbox [data-outbox-edit]").tap()
    expect(page.locator("#outbox")).to_be_hidden()
    assert page.locator("input[name='outcome'][value='gaigel']").is_checked()
    record(page)
    rounds = table.rounds(match_id)
    assert [r["input"]["winner"] for r in rounds] == ["Oben", "Unten"]
    close(page)


def test_a_kept_round_can_be_dropped(table: Table):
    match_id = table.start(BELOTE, BELOTE_DEAL)
    page = opened_online(table, match_id)
    page.context.set_offline(True)
    page.reload()
    offline_record(page, fill_belote)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#outbox [data-outbox-drop]").tap()
    expect(page.locator("#outbox")).to_be_hidden()
    back_online(page)
    shown_afresh(page)
    page.wait_for_timeout(500)
    assert len(table.rounds(match_id)) == 1
    close(page)


def test_the_sheet_and_the_live_view_stay_readable_and_other_forms_say_not_sent(table: Table):
    match_id = table.start(BELOTE, BELOTE_DEAL, BELOTE_DEAL)
    page = opened_online(table, match_id)
    for path in ("sheet", "live"):
        page.goto(f"{table.base}/matches/{match_id}/{path}")
    page.goto(f"{table.base}/matches/{match_id}")
    page.context.set_offline(True)
    for path in ("sheet", "live"):
        page.goto(f"{table.base}/matches/{match_id}/{path}")
        expect(page.locator("#offline-banner")).to_contain_text("Offline")
        expect(page.locator("main")).to_contain_text("Nous")
    # A page never opened shows the offline page, not the browser's error.
    page.goto(f"{table.base}/history")
    expect(page.locator("h1")).to_have_text("No connection")
    expect(page.locator(".unsent")).to_be_hidden()
    # A form other than a round's is not kept: the phone says it was not sent.
    page.goto(f"{table.base}/matches/{match_id}/rounds/1/edit")
    expect(page.locator("h1")).to_have_text("No connection")
    page.goto(f"{table.base}/matches/{match_id}")
    with page.expect_navigation():
        page.evaluate(
            """(id) => {
              const form = document.createElement("form");
              form.method = "post";
              form.action = `/matches/${id}/handoff`;
              document.body.append(form);
              form.submit();
            }""",
            match_id,
        )
    expect(page.locator(".unsent")).to_be_visible()
    page.context.set_offline(False)
    close(page)


def test_a_round_the_server_cannot_store_yet_keeps_waiting(
    table: Table, monkeypatch: pytest.MonkeyPatch
):
    match_id = table.start(GAIGEL)
    page = opened_online(table, match_id)
    page.context.set_offline(True)
    page.reload()
    offline_record(page, fill_gaigel)

    def full(*args: Any, **kwargs: Any) -> None:
        raise Unavailable("database or disk is full")

    with monkeypatch.context() as storage:
        storage.setattr(matches, "add_round", full)
        back_online(page)
        shown_afresh(page)
        state = page.locator("#outbox .outbox-state")
        expect(state).to_contain_text("Not sent yet: Not saved: the server's storage is full")
        # Sent again as the page opened and once more when asked: every turn ends while the
        # storage is full, and it still waits.
        page.evaluate("sendOutbox()")
        expect(state).to_contain_text("Not sent yet: Not saved: the server's storage is full")
    # Not refused: it is sent on the next turn, once the server can store it.
    expect(page.locator("#outbox .outbox-item.refused")).to_have_count(0)
    # Not awaited: once sent, the page goes back to the match, which ends this script.
    page.evaluate("() => { sendOutbox(); }")
    expect(page.locator("#outbox .outbox-item")).to_have_count(0, timeout=BACK_WITHIN_MS)
    assert len(table.rounds(match_id)) == 1
    close(page)


def test_online_a_refusal_a_fix_a_double_tap_and_back_never_say_offline(table: Table):
    """With the server answering all along, a refused deal, its fix, a double tap on Record
    and Back leave the phone saying what the server holds: one deal, the form for the next,
    nothing waiting, never "Offline"."""
    match_id = table.start(BELOTE)
    page = opened_online(table, match_id)
    page.locator("input.points[data-side]").first.fill("100")
    record(page)
    expect(page.locator(".field-errors li").first).to_be_visible()
    assert table.rounds(match_id) == []
    fill_belote(page)
    with page.expect_navigation():
        page.locator(".next-round .actions button.primary").dblclick()
    expect(page.locator(".notice span")).to_contain_text("1 recorded.")
    page.go_back()
    page.wait_for_load_state()
    for _ in range(2):
        expect(page.locator("#offline-banner")).to_be_hidden()
        expect(page.locator("#bar-pending")).to_be_hidden()
        expect(page.locator("#outbox")).to_be_hidden()
        expect(page.locator(".bar-progress")).to_contain_text("Deal 2")
        expect(page.locator(".next-round .actions button.primary")).to_have_text("Record deal 2")
        # Whatever the phone checks meanwhile, it still says so a moment later.
        page.wait_for_timeout(3000)
    assert len(table.rounds(match_id)) == 1
    close(page)
