"""The phone alone (issue 32), with the server process really stopped: bin/serve killed, then
started again on the same port.

A phone that opened Tablescore gets ready to score offline. With the server gone, it starts a
Rami match for three from the same new-match page and records three rounds, each scored by the
phone's own Python: the totals and every Why? sentence are the server's rules' own. It corrects,
undoes and restores, and a reload keeps it all. Once the server is back, the match arrives
once, its changes in order, with the same totals, and the phone shows the server's page, where
it scores on. A uid the server already holds is a conflict shown, never merged; a metered
connection is asked first; a phone that only watches never fetches the scorers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from scorers import GAMES
from tests import test_porrazo_web as porrazo
from tests.api_helpers import TABLES
from tests.served import ROOT, ask, free_port, serve, stop
from tests.test_browser import PHONE
from web import runtime

pytestmark = pytest.mark.browser

ROUNDS = [(0, {1: 10, 2: 25}), (1, {0: 30, 2: 5}), (2, {0: 7, 1: 12})]
"""Who went out (by seat), and the value of each other hand: every player had melded."""
NAMES = {"en": ("Ana", "Bo", "Cy"), "fa": ("داریوش", "بهرام", "سارا")}
DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


class Server:
    """bin/serve over the test's own database, on one port, stopped and started again."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port, self.process = folder, free_port(), None

    def start(self) -> None:
        self.process, _port = serve(self.folder, self.port, WORKERS="1")

    def stop(self) -> None:
        stop(self.process)
        self.process = None

    def get(self, path: str) -> dict:
        status, _headers, answer = ask(self.port, "GET", path)
        assert status == 200, answer
        return answer

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    if not runtime.marked(runtime.runtime_dir(ROOT), runtime.SHA256):
        pytest.fail("the phone's Python is not installed: run .venv/bin/python -m web.runtime")
    served = Server(tmp_path)
    served.start()
    yield served
    if served.process is not None:
        served.stop()


def ready_phone(browser: Browser, server: Server, language: str = "en") -> tuple[Page, object]:
    """Open Tablescore twice on a new phone: the second page gets it ready to score alone."""
    context = browser.new_context(**PHONE, locale=language)
    page = context.new_page()
    page.goto(server.base + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    expect(page.locator("#alone-ready[data-state=ready]")).to_be_visible(timeout=120_000)
    return page, context


def start_offline(page: Page, server: Server, names: tuple[str, ...]) -> str:
    """Start a Rami match from the new-match page with the server gone; return its uid."""
    page.goto(server.base + "/matches/new/rami")
    boxes = page.locator("input[name^=players-]")
    for seat, name in enumerate(names):
        boxes.nth(seat).fill(name)
    page.locator("form button[type=submit].primary").last.click()
    page.wait_for_url("**/alone?match=*")
    expect(page.locator("form.round-form")).to_be_visible(timeout=60_000)
    return page.url.rpartition("=")[2]


def record(page: Page, winner: int, hands: dict[int, int], n: int) -> None:
    """Enter one Rami round on the phone's own form, and wait for the phone to score it."""
    form = page.locator("form.round-form")
    form.locator("fieldset").nth(1).locator("label.choice").nth(winner).click()
    for seat, points in hands.items():
        page.fill(f"input[name='hands-{seat}-points']", str(points))
        page.locator(f"#hand-{seat} .melded label.choice").first.click()
    form.locator(".actions button.primary").click()
    expect(page.locator("tbody.round")).to_have_count(n)


def totals(page: Page) -> list[str]:
    return page.locator(".score-bar .bar-total").all_inner_texts()


def kept(page: Page) -> dict:
    return page.evaluate("TablescorePhone.get(new URLSearchParams(location.search).get('match'))")


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_rami_match_started_and_scored_with_the_server_stopped_arrives_once(
    browser: Browser, server: Server, language: str
) -> None:
    names = NAMES[language]
    shown = (lambda n: str(n).translate(DIGITS)) if language == "fa" else str
    page, context = ready_phone(browser, server, language)

    server.stop()
    uid = start_offline(page, server, names)
    for n, (winner, hands) in enumerate(ROUNDS, 1):
        record(page, winner, hands, n)
    match = kept(page)
    assert match["data"] == {
        "game": "rami",
        "players": list(names),
        "options": {"first_dealer": names[0]},
    }
    scorer = GAMES["rami"]
    by_server = scorer.replay(
        scorer.read_table(match["data"]), [r["input"] for r in match["rounds"]]
    )
    assert list(by_server.totals.values()) == [37, 22, 30]
    assert totals(page) == [shown(37), shown(22), shown(30)]

    # Why? round 2, as the server's rules say it, word for word (in English).
    page.locator("#round-2 a.round-n").click()
    page.locator("#round-2 tr.why a").first.click()
    expect(page.locator("h1")).to_contain_text(shown(2))
    steps = page.locator("ol.steps li").all_inner_texts()
    if language == "en":
        assert steps == by_server.rounds[1].explanation
    assert len(steps) == len(by_server.rounds[1].explanation)
    page.go_back()

    # Correct round 2 (Cy held 9, not 5), undo round 3, restore it.
    page.locator("#round-2 a.round-n").click()
    page.locator("#round-2 tr.why a").nth(1).click()
    save = page.locator("form.round-form .actions button.primary")
    expect(save).to_contain_text(shown(2))
    page.fill("input[name='hands-2-points']", "9")
    save.click()
    expect(page.locator("form.round-form .actions button.primary")).to_contain_text(shown(4))
    assert totals(page) == [shown(37), shown(22), shown(34)]
    page.locator(".notice .undo-button").click()
    expect(page.locator("tbody.round")).to_have_count(2)
    assert totals(page) == [shown(30), shown(10), shown(34)]
    page.locator("form.restore button").click()
    expect(page.locator("tbody.round")).to_have_count(3)
    assert totals(page) == [shown(37), shown(22), shown(34)]

    # The rules page, from the phone's rules.
    page.locator("main a[href='?phone=rules']").first.click()
    options = scorer.read_table(match["data"]).options
    rules = [*scorer.rules(options), *scorer.length_rule(options)]
    if language == "en":
        expect(page.locator("ol.rules > li h2")).to_have_text([rule.title for rule in rules])
    expect(page.locator("ol.rules > li h2")).to_have_count(len(rules))
    # "Applied in round 1, 2, 3": a round's number opens its Why? on the sheet.
    page.locator("ol.rules .applied a").first.click()
    expect(page.locator("tbody.round:target tr.why")).to_be_visible()

    page.reload()
    expect(page.locator("tbody.round")).to_have_count(3, timeout=60_000)
    assert totals(page) == [shown(37), shown(22), shown(34)]
    match = kept(page)

    server.start()
    page.reload()
    page.wait_for_url("**/matches/*", timeout=60_000)
    listed = server.get("/api/matches")["matches"]
    assert [(m["uid"], m["rounds_played"], m["totals"]) for m in listed] == [
        (uid, 3, dict(zip(names, [37, 22, 34], strict=True)))
    ]
    match_id = listed[0]["id"]
    on_server = server.get(f"/api/matches/{match_id}")
    assert [r["input"] for r in on_server["rounds"]] == [r["input"] for r in match["rounds"]]
    log = server.get(f"/api/matches/{match_id}/log")["changes"]
    assert [(c["action"], c["n"]) for c in log] == [
        ("add", 1),
        ("add", 2),
        ("add", 3),
        ("correct", 2),
        ("remove", 3),
        ("restore", 3),
    ]
    assert page.url == f"{server.base}/matches/{match_id}"
    # The server's page lets this phone score on: its session holds the token.
    expect(page.locator("form.round-form")).to_be_visible()

    # Opened again, the phone sends nothing twice.
    page.goto(server.base + "/alone")
    expect(page.locator(".phone-list li")).to_have_count(1, timeout=60_000)
    assert server.get("/api/matches")["total"] == 1
    assert len(server.get(f"/api/matches/{match_id}/log")["changes"]) == 6
    context.close()


def test_a_uid_the_server_already_holds_is_shown_never_merged(
    browser: Browser, server: Server
) -> None:
    page, context = ready_phone(browser, server)
    server.stop()
    uid = start_offline(page, server, NAMES["en"])
    record(page, *ROUNDS[0], 1)
    server.start()
    # Meanwhile another phone's copy of the same match reached the server first.
    status, _headers, theirs = ask(
        server.port,
        "POST",
        "/api/matches",
        {"game": "rami", "players": ["Ana", "Bo", "Cy"], "uid": uid},
    )
    assert status == 201
    page.reload()
    notice = page.locator(".alert.conflict")
    expect(notice).to_contain_text(f"#{theirs['id']}", timeout=60_000)
    expect(notice).to_contain_text("This phone’s copy stays here unchanged")
    assert totals(page) == ["0", "10", "25"]
    assert server.get("/api/matches")["total"] == 1
    assert server.get(f"/api/matches/{theirs['id']}")["rounds"] == []

    notice.get_by_role("button").click()
    page.wait_for_url("**/matches/*", timeout=60_000)
    listed = server.get("/api/matches")["matches"]
    assert sorted((m["rounds_played"], m["uid"] == uid) for m in listed) == [(0, True), (1, False)]
    context.close()


def test_a_metered_phone_is_asked_first_and_a_watching_one_never_fetches(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(**PHONE)
    context.add_init_script(
        "Object.defineProperty(navigator, 'connection', {value: {saveData: true}})"
    )
    page = context.new_page()
    page.goto(server.base + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.reload()
    offer = page.locator("#alone-ready button")
    expect(offer).to_contain_text("Get ready to score offline (6.", timeout=30_000)
    assert not [url for url in fetched if "/alone/" in url and "ready.json" not in url]
    offer.click()
    expect(page.locator("#alone-ready[data-state=ready]")).to_be_visible(timeout=120_000)
    context.close()

    status, _headers, match = ask(
        server.port, "POST", "/api/matches", {"game": "rami", "players": ["Ana", "Bo"]}
    )
    watcher = browser.new_context(**PHONE)
    page = watcher.new_page()
    page.goto(f"{server.base}/matches/{match['id']}")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.reload(wait_until="load")
    expect(page.locator("h1")).to_contain_text("Rami")
    assert [url for url in asked if "/alone" in url] == []
    assert f"phone-alone-{runtime.VERSION}" not in page.evaluate("caches.keys()")
    assert page.locator("#alone-ready").is_hidden()
    watcher.close()


def correct_or_remove(page: Page, n: int) -> None:
    """Open round n's correction page from the phone's sheet."""
    page.locator(f"#round-{n} a.round-n").click()
    page.locator(f"#round-{n} tr.why a").nth(1).click()
    expect(page.locator("form.remove button")).to_be_visible()


def test_rounds_go_back_where_they_stood_and_a_removal_that_breaks_one_is_refused(
    browser: Browser, server: Server
) -> None:
    page, context = ready_phone(browser, server)
    server.stop()
    said: list[str] = []

    def answer(dialog: Any) -> None:
        said.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    start_offline(page, server, NAMES["en"])
    for n, (winner, hands) in enumerate(ROUNDS, 1):
        record(page, winner, hands, n)
    entered = [r["key"] for r in kept(page)["rounds"]]
    # Round 2 taken out, then round 1; round 2 put back first goes back before round 3, as the
    # server puts it (rounds count in the order they were entered).
    for n, left in ((2, 2), (1, 1)):
        correct_or_remove(page, n)
        page.locator("form.remove button").click()
        expect(page.locator("tbody.round")).to_have_count(left)
    for n, back in ((2, 2), (1, 3)):
        page.locator("form.restore button", has_text=f"round {n}").click()
        expect(page.locator("tbody.round")).to_have_count(back)
    assert [r["key"] for r in kept(page)["rounds"]] == entered
    assert [(c["action"], c["n"]) for c in kept(page)["log"][3:]] == [
        ("remove", 2),
        ("remove", 1),
        ("restore", 1),
        ("restore", 1),
    ]
    assert totals(page) == ["37", "22", "30"]

    # A Porrazo match kept on this phone: taking out Bo's porrazo leaves Cy's counter to it
    # answering nothing. The phone says so in the server's words and changes nothing.
    pegs = [porrazo.T1, porrazo.BO_PORRAZO, porrazo.CY_COUNTER]
    match = kept(page) | {
        "uid": "ab" * 16,
        "data": TABLES["porrazo"] | {"options": {}},
        "rounds": [{"key": f"peg-{n}", "input": peg} for n, peg in enumerate(pegs, 1)],
        "removed": [],
        "log": [
            {"action": "add", "n": n, "key": f"peg-{n}", "round": f"peg-{n}", "input": peg}
            for n, peg in enumerate(pegs, 1)
        ],
    }
    page.evaluate("(match) => TablescorePhone.put(match)", match)
    page.goto(f"{server.base}/alone?match={match['uid']}")
    expect(page.locator("tbody.round")).to_have_count(3, timeout=60_000)
    said.clear()
    correct_or_remove(page, 2)
    page.locator("form.remove button").click()
    for _ in range(100):  # "Remove peg 2?", then the refusal
        if len(said) == 2:
            break
        page.wait_for_timeout(100)
    expect(page.locator("form.remove button")).to_be_visible()
    assert said[1:] == [
        "With this change, peg 2 could no longer be scored: "
        "Counter-porrazo answers a pending porrazo, and none is waiting."
    ], said
    assert [r["key"] for r in kept(page)["rounds"]] == ["peg-1", "peg-2", "peg-3"]
    assert kept(page)["removed"] == []
    context.close()


def test_rounds_waiting_on_a_server_match_are_counted_by_the_phone(
    browser: Browser, server: Server
) -> None:
    page, context = ready_phone(browser, server)
    page.goto(server.base + "/matches/new/rami")
    boxes = page.locator("input[name^=players-]")
    for seat, name in enumerate(NAMES["en"]):
        boxes.nth(seat).fill(name)
    page.locator("form button[type=submit].primary").last.click()
    page.wait_for_url("**/matches/1*")
    record(page, *ROUNDS[0], 1)
    # The phone keeps the match as the server answered it, to count on it offline.
    page.wait_for_function(
        "() => caches.open(localStorage.getItem('tablescore-alone-cache'))"
        ".then((cache) => cache.match('/api/matches/1')).then((kept) => kept && kept.json())"
        ".then((match) => match && match.rounds.length === 1)"
    )

    server.stop()
    record_waiting = page.locator("form.round-form")
    record_waiting.locator("fieldset").nth(1).locator("label.choice").nth(1).click()
    for seat, points in {0: 30, 2: 5}.items():
        page.fill(f"input[name='hands-{seat}-points']", str(points))
        page.locator(f"#hand-{seat} .melded label.choice").first.click()
    record_waiting.locator(".actions button.primary").click()
    expect(page.locator("#outbox .outbox-item")).to_have_count(1)
    bar = page.locator(".score-bar[data-counted='1']")
    expect(bar).to_be_visible(timeout=60_000)
    assert totals(page) == ["30", "10", "30"]
    expect(bar.locator("#bar-pending")).to_have_text(
        "With the 1 waiting to be sent, counted on this phone"
    )
    expect(bar.locator(".bar-progress")).to_have_text("Round 3")

    server.start()
    page.reload()
    # The outbox list is empty for a moment on any reload: wait for the page the server drew
    # once the round was sent (the page reloads itself then), not for an empty list.
    served = page.locator(".score-bar:not([data-counted]) .bar-progress")
    expect(served).to_have_text("Round 3", timeout=60_000)
    expect(page.locator("#outbox .outbox-item")).to_have_count(0)
    assert server.get("/api/matches/1")["totals"] == {"Ana": 30, "Bo": 10, "Cy": 30}
    assert totals(page) == ["30", "10", "30"]
    context.close()
