"""Downloads and imports never stall scoring: against a real waitress server on 127.0.0.1, a
round post succeeds while large exports stream and while a large import runs. Bounded in count
and in time; nothing here asserts how fast anything was."""

from __future__ import annotations

import copy
import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from waitress.server import create_server

from app import create_app
from scorebook import storage

MATCHES = 1500
"""How many matches the history holds: a long way past one evening, quick to build."""
DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"}
TEAMS = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
SEATS = ["Ana", "Bo", "Cy"]
NOTHING_COUNTED = {"event": "cards", "counts": {"Ana": 20, "Bo": 20, "Cy": 12}}


class Server:
    """Tablescore served by waitress as bin/serve serves it, on a free local port."""

    def __init__(self, database: str):
        app = create_app({"DATABASE": database, "SECRET_KEY": "test"})
        self.database = database
        self.httpd = create_server(
            app, host="127.0.0.1", port=0, threads=8, connection_limit=1000, channel_timeout=60
        )
        self.base = f"http://127.0.0.1:{self.httpd.effective_port}"
        self.thread = threading.Thread(target=self.httpd.run, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Stop serving from inside waitress's own loop: closed there, no poll of the loop can
        meet a socket closed under it (which it reports as a bad file descriptor)."""
        try:
            self.httpd.trigger.pull_trigger(self.httpd.close)
        except OSError:
            # Its wake-up pipe was closed already: seen once in CI (EBADF), at teardown, after
            # every request of the test had been answered. Nothing is left to wake; the daemon
            # thread ends with the tests.
            return
        self.thread.join(timeout=5)

    def ask(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """Send one request; return its status and its JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")

    def belote(self, deals: int = 0) -> dict[str, Any]:
        """Start a Belote to 5000 and record some deals; return it with its token."""
        status, match = self.ask(
            "POST", "/api/matches", {"game": "belote", "teams": TEAMS, "options": {"target": 5000}}
        )
        assert status == 201
        for _ in range(deals):
            assert self.post(match) == 201
        return match

    def post(self, match: dict[str, Any], entered: dict[str, Any] = DEAL) -> int:
        """Record a round in a match, as the scoring phone does; return the status."""
        path = f"/api/matches/{match['id']}/rounds"
        return self.ask("POST", path, entered, match["scorer_token"])[0]

    def porrazo(self) -> dict[str, Any]:
        """Start a Porrazo whose card counts score nothing: it can be pegged for ever."""
        status, match = self.ask("POST", "/api/matches", {"game": "porrazo", "players": SEATS})
        assert status == 201
        return match


def documents(server: Server, count: int, prefix: str) -> list[dict[str, Any]]:
    """Export one played match and copy it under `count` new uids, as another Tablescore's."""
    match = server.belote(deals=8)
    status, document = server.ask("GET", f"/api/matches/{match['id']}/export?format=json")
    assert status == 200
    copies = []
    for i in range(count):
        copied = copy.deepcopy(document)
        copied["uid"] = f"{prefix}-{i}"
        copies.append(copied)
    return copies


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    """A server holding a history of MATCHES matches."""
    running = Server(str(tmp_path / "load.sqlite"))
    status, outcome = running.ask("POST", "/api/import", documents(running, MATCHES, "old"))
    assert status == 200 and len(outcome["imported"]) == MATCHES
    yield running
    running.stop()


def posting(server: Server, match: dict[str, Any], until: threading.Event) -> list[tuple]:
    """Peg one after another until told to stop (at most 300); note each status."""
    seen = []
    while not until.is_set() and len(seen) < 300:
        started = time.monotonic()
        seen.append((started, server.post(match, NOTHING_COUNTED)))
        time.sleep(0.05)
    return seen


def looking(server: Server, match: dict[str, Any], until: threading.Event) -> list[tuple]:
    """Read the file as another connection would, until told to stop: how many matches an
    import has stored out of sight so far, and how many rounds the match holds."""
    db = storage.connect(server.database)
    seen = []
    while not until.is_set() and len(seen) < 3000:
        hidden = db.execute("select count(*) from matches where import_id is not null")
        rounds = db.execute("select count(*) from rounds where match_id = ?", [match["id"]])
        seen.append((hidden.fetchone()[0], rounds.fetchone()[0]))
        time.sleep(0.01)
    db.close()
    return seen


def test_a_round_post_succeeds_while_big_exports_stream(server: Server):
    match = server.porrazo()
    done = threading.Event()
    exported: list[int] = []

    def download() -> None:
        # Each process writes two at once: the third is told when to come back, and does.
        for _ in range(30):
            try:
                with urllib.request.urlopen(server.base + "/api/export", timeout=120) as answer:
                    exported.append(len(json.loads(answer.read())))
                    return
            except urllib.error.HTTPError as busy:
                assert busy.code == 503 and busy.headers["Retry-After"] == "10"
                busy.close()
                time.sleep(0.5)

    pulls = [threading.Thread(target=download) for _ in range(3)]
    for pull in pulls:
        pull.start()
    poster = threading.Thread(target=lambda: posts.extend(posting(server, match, done)))
    posts: list[tuple] = []
    poster.start()
    for pull in pulls:
        pull.join(timeout=120)
    done.set()
    poster.join(timeout=60)
    # Every export holds the whole history (and the matches started for the test).
    assert exported == [MATCHES + 2] * 3
    assert posts and {status for _, status in posts} == {201}
    status, after = server.ask("GET", f"/api/matches/{match['id']}")
    assert len(after["rounds"]) == len(posts)


def test_a_round_post_succeeds_while_a_big_import_runs(server: Server):
    match = server.porrazo()
    incoming = documents(server, MATCHES, "new")
    done = threading.Event()
    posts: list[tuple] = []
    poster = threading.Thread(target=lambda: posts.extend(posting(server, match, done)))
    looks: list[tuple[int, int]] = []
    looker = threading.Thread(target=lambda: looks.extend(looking(server, match, done)))
    poster.start()
    looker.start()
    time.sleep(0.2)
    began = time.monotonic()
    status, outcome = server.ask("POST", "/api/import", incoming)
    ended = time.monotonic()
    time.sleep(0.2)
    done.set()
    poster.join(timeout=60)
    looker.join(timeout=60)
    assert status == 200 and len(outcome["imported"]) == MATCHES
    during = [status for started, status in posts if began <= started <= ended]
    assert during, "no post was made while the import ran"
    assert {status for _, status in posts} == {201}
    status, after = server.ask("GET", f"/api/matches/{match['id']}")
    assert len(after["rounds"]) == len(posts)
    # Rounds were recorded between the import's batches, while its matches were half stored.
    halfway = [rounds for stored, rounds in looks if 0 < stored < MATCHES]
    assert len(set(halfway)) > 1, [look for look in looks if look[0]]
