"""Offline with the server really stopped (issue 27): not the browser's offline switch, but a
server that no longer answers its port, then starts again on it.

The first match page a phone opens was loaded before its service worker ran: a deal recorded
from it once the server is gone must still bring the phone back to the match (not to "No
connection"), with the deal kept, the form empty and moved on to the next deal and dealer,
and Back showing the match again. Once the server answers again, the deal is sent, once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from werkzeug.serving import BaseWSGIServer, make_server

from app import create_app
from tests.test_browser import PHONE
from tests.test_browser_table import TEAM_SEATS

pytestmark = pytest.mark.browser


class Server:
    """The app served on one port, stopped and started again on that same port."""

    def __init__(self, database: Path) -> None:
        self.app = create_app({"DATABASE": str(database), "SECRET_KEY": "test"})
        self.port = 0
        self.httpd: BaseWSGIServer | None = None
        self.start()

    def start(self) -> None:
        self.httpd = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.httpd.server_port
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """Stop answering: the port refuses every connection until `start`."""
        assert self.httpd is not None
        self.httpd.shutdown()
        self.httpd.server_close()
        self.httpd = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    served = Server(tmp_path / "stopped.sqlite")
    yield served
    if served.httpd is not None:
        served.stop()


FORGET = """async () => {
  await Promise.all((await navigator.serviceWorker.getRegistrations()).map((r) => r.unregister()));
  await Promise.all((await caches.keys()).map((name) => caches.delete(name)));
}"""
"""Take away the phone's service worker and everything it kept."""
KEPT = """async (path) => {
  const names = await caches.keys();
  const found = await Promise.all(names.map(async (name) => (await caches.open(name)).match(path)));
  return found.some(Boolean);
}"""
"""Whether the phone keeps a page as last seen, in any of its caches."""


def rounds_stored(server: Server, match_id: int) -> int:
    with server.app.test_client() as client:
        return len(client.get(f"/api/matches/{match_id}").json["rounds"])


def test_a_deal_recorded_from_the_first_match_page_with_the_server_gone_is_kept_and_sent(
    browser: Browser, server: Server
):
    context = browser.new_context(**PHONE)
    page: Page = context.new_page()
    page.goto(f"{server.base}/matches/new/belote")
    for seat, box in enumerate(TEAM_SEATS):
        page.locator(f"#{box}").fill(("Ana", "Bo", "Cy", "Di")[seat])
    page.get_by_role("button", name="Start the match").tap()
    expect(page.locator(".bar-round")).to_have_text("Deal 1 · Ana deals")
    match_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    # As a phone opening the match first (a shared link, another phone's hand-off): nothing
    # installed, nothing kept, the page loaded before its worker runs.
    page.evaluate(FORGET)
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # The page asked to be kept once the worker took charge: wait until it is.
    page.wait_for_function(KEPT, arg=f"/matches/{match_id}")

    server.stop()
    page.locator("#taker").get_by_text("Bo", exact=True).tap()
    page.locator("#trump").get_by_text("♠").tap()
    page.keyboard.type("62")
    page.locator(".choice.der").nth(1).tap()
    page.get_by_role("button", name="Record deal 1").tap()

    # Back on the match as last seen, the deal waiting, the form moved on.
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#outbox .outbox-item")).to_have_count(1)
    expect(page.locator(".bar-round")).to_have_text("Deal 2 · Di deals")
    expect(page.get_by_role("button", name="Record deal 2")).to_be_visible()
    expect(page.locator("input.points[data-side='1']")).to_have_value("")
    expect(page.locator("#taker input:checked")).to_have_count(0)
    page.go_back()
    expect(page.locator(".score-bar")).to_be_visible()
    expect(page.locator("#outbox .outbox-item")).to_have_count(1)
    assert rounds_stored(server, match_id) == 0

    server.start()
    for _ in range(200):  # the page sends what waits within its 15-second check
        if rounds_stored(server, match_id):
            break
        page.wait_for_timeout(100)
    assert rounds_stored(server, match_id) == 1
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=20000)
    expect(page.locator(".bar-round")).to_have_text("Deal 2 · Di deals", timeout=20000)
    page.wait_for_timeout(500)
    assert rounds_stored(server, match_id) == 1
    context.close()
