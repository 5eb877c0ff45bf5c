"""An unusual round on a phone with its service worker running (docs/UNUSUAL_ROUNDS.md): the
page that asks replaces the form, and its answer records the round once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.test_browser_offline import opened_online
from tests.test_browser_scoring import RAMI, Table, close, fill_rami
from tests.test_browser_scoring import record as tap_record
from tests.test_browser_scoring import table as served

pytestmark = pytest.mark.browser

table = served
"""The scoring tests' served app and its phones."""


def test_a_phone_with_its_service_worker_asks_then_records_once(table: Table) -> None:
    """The service worker passes Record on as the navigation it is: the page that asks
    replaces the form, and its answer records the round once."""
    match_id = table.start(RAMI)
    page = opened_online(table, match_id)
    fill_rami(page, bo="160")
    tap_record(page)
    expect(page.locator(".round-form .oddities")).to_contain_text("Bo scores 160 for one hand?")
    expect(page.locator("#hands-1-points")).to_have_value("160")
    assert table.rounds(match_id) == []
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, record it").tap()
    expect(page.locator(".notice span")).to_have_text("Round 1 recorded.")
    assert [entered["scores"]["Bo"] for entered in table.rounds(match_id)] == [160]
    close(page)
