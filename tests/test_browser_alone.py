"""The phone alone (issue 32), with the server process really stopped: bin/serve killed, then
started again on the same port.

A phone that opened Tablescore gets ready to score offline. With the server gone, it starts a
Rami match for three from the same new-match page, records three rounds, each scored by the
phone's own Python; the totals and every Why? sentence are the server's rules' own. A reload
keeps the match. Once the server is back, the match arrives once, with the same totals, and the
phone shows the server's page, where it scores on.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scorers import GAMES
from scorers.base import Table
from tests.served import ask, free_port, listening, started, stop
from tests.test_browser import PHONE
from web import runtime

pytestmark = pytest.mark.browser

PLAYERS = ("Ana", "Bo", "Cy")
ROUNDS = [(0, {1: 10, 2: 25}), (1, {0: 30, 2: 5}), (2, {0: 7, 1: 12})]
"""Who went out (by seat), and the value of each other hand: every player had melded."""


class Server:
    """bin/serve over the test's own database, on one port, stopped and started again."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port, self.process = folder, free_port(), None

    def start(self) -> None:
        self.process = started(
            [str(Path(__file__).resolve().parent.parent / "bin" / "serve")],
            self.folder,
            PORT=str(self.port),
            HOST="127.0.0.1",
            WORKERS="1",
        )
        listening(self.port, self.process)

    def stop(self) -> None:
        stop(self.process)
        self.process = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    if not runtime.marked(runtime.runtime_dir(Path(runtime.ROOT)), runtime.SHA256):
        pytest.fail("the phone's Python is not installed: run python -m web.runtime")
    served = Server(tmp_path)
    served.start()
    yield served
    if served.process is not None:
        served.stop()


def record(page: Page, winner: int, hands: dict[int, int], n: int) -> None:
    """Enter one Rami round on the phone's own form, and wait for the phone to score it."""
    form = page.locator("form.round-form")
    form.locator("fieldset").nth(1).locator("label.choice").nth(winner).click()
    for seat, points in hands.items():
        page.fill(f"input[name='hands-{seat}-points']", str(points))
        page.locator(f"#hand-{seat} .melded label.choice").first.click()
    form.locator(".actions button.primary").click()
    expect(page.locator(".phone-round")).to_have_count(n)


def test_a_rami_match_started_and_scored_with_the_server_stopped_arrives_once(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.base + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # The first page loads alone; from the second, the phone gets ready by itself.
    page.reload()
    ready = page.locator("#alone-ready[data-state=ready]")
    expect(ready).to_contain_text("Ready to score offline", timeout=120_000)

    server.stop()
    page.goto(server.base + "/matches/new/rami")
    boxes = page.locator("input[name^=players-]")
    for seat, name in enumerate(PLAYERS):
        boxes.nth(seat).fill(name)
    page.locator("form button[type=submit].primary").last.click()
    page.wait_for_url("**/alone#*")
    expect(page.locator("form.round-form")).to_be_visible(timeout=60_000)
    for n, (winner, hands) in enumerate(ROUNDS, 1):
        record(page, winner, hands, n)

    kept = page.evaluate("TablescorePhone.get(location.hash.slice(1))")
    assert kept["data"] == {
        "game": "rami",
        "players": list(PLAYERS),
        "options": {"first_dealer": "Ana"},
    }
    inputs = [entered["input"] for entered in kept["rounds"]]
    scorer = GAMES["rami"]
    by_server = scorer.replay(Table(PLAYERS, scorer.read_table(kept["data"]).options), inputs)
    assert by_server.totals == {"Ana": 37, "Bo": 22, "Cy": 30}
    assert page.locator(".score-bar .bar-total").all_inner_texts() == ["37", "22", "30"]
    why = [
        [line.strip() for line in round_.locator(".steps li").all_text_contents()]
        for round_ in page.locator(".phone-round").all()
    ]
    assert why[::-1] == [result.explanation for result in by_server.rounds]

    page.reload()
    expect(page.locator(".phone-round")).to_have_count(3, timeout=60_000)
    assert page.locator(".score-bar .bar-total").all_inner_texts() == ["37", "22", "30"]

    server.start()
    page.reload()
    page.wait_for_url("**/matches/*", timeout=60_000)
    status, _headers, listed = ask(server.port, "GET", "/api/matches")
    assert status == 200
    assert [(m["uid"], m["rounds_played"], m["totals"]) for m in listed["matches"]] == [
        (kept["uid"], 3, {"Ana": 37, "Bo": 22, "Cy": 30})
    ]
    match_id = listed["matches"][0]["id"]
    _status, _headers, match = ask(server.port, "GET", f"/api/matches/{match_id}")
    assert [r["explanation"] for r in match["rounds"]] == why[::-1]
    assert page.url == f"{server.base}/matches/{match_id}"
    # The server's page lets this phone score on: its session holds the token.
    expect(page.locator("form.round-form")).to_be_visible()

    # Opened again, the phone sends nothing twice.
    page.goto(server.base + "/alone")
    expect(page.locator(".phone-list li")).to_have_count(1, timeout=60_000)
    _status, _headers, again = ask(server.port, "GET", "/api/matches")
    assert again["total"] == 1
    assert len(ask(server.port, "GET", f"/api/matches/{match_id}")[2]["rounds"]) == 3
    context.close()
