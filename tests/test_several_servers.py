"""A site on several servers, for real: Debian's Caddy with deploy/Caddyfile in front of two
bin/serve processes over one PostgreSQL database, as two machines would run them. An upgrade
one server at a time (each stopped, then started again) while a phone records a round every
tenth of a second and another reads the match: each round is stored once, in order (one that
met the stopped server is sent again with its key, as the phone's outbox does), the reading
phone sees the match throughout, and both servers show the same match. Bounded: every wait has
a timeout, and Caddy, both servers and the database are stopped or dropped at the end,
whatever happened."""

from __future__ import annotations

import http.client
import ssl
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import needed
from tests.postgres import Cluster
from tests.served import ROOT, ask, free_port, listening, started, stop
from tests.test_https import CADDY, Site

RAMI = {"game": "rami", "players": ["Ana", "Bo"], "options": {"target": 10000}}
ROUND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}
ROUNDS = 60
"""Rounds the phone records while the servers are upgraded one at a time."""
EVERY = 0.1
"""Seconds between two of the phone's rounds."""
WATCHED_MISSES = 1
"""Reads a watching phone may see fail: one its server was answering when it stopped (a read
the server never received is tried on the other by Caddy)."""


class Servers(Site):
    """Caddy on https://tablescore.test:<port> in front of two bin/serve over one PostgreSQL
    database, each of which a test may stop and start again on its port."""

    def __init__(self, folder: Path, database: str):
        super().__init__(folder)
        self.database = database
        self.ports = [free_port(), free_port()]
        self.servers: list[Any] = [None, None]

    @property
    def upstream(self) -> str:
        """Both servers, as TABLESCORE_UPSTREAM lists them."""
        return " ".join(f"127.0.0.1:{port}" for port in self.ports)

    def start_server(self, n: int) -> None:
        """Start server n as its machine would: bin/serve behind the proxy, with the site's
        database and secret."""
        self.servers[n] = started(
            [str(ROOT / "bin" / "serve")],
            self.folder,
            PORT=str(self.ports[n]),
            HOST="127.0.0.1",
            WORKERS="1",
            TABLESCORE_DATABASE=self.database,
            TABLESCORE_BEHIND_PROXY="1",
        )
        listening(self.ports[n], self.servers[n])

    def stop_server(self, n: int) -> None:
        """Stop server n as an upgrade does (systemctl stop: a TERM signal)."""
        if self.servers[n] is not None:
            stop(self.servers[n])
            self.servers[n] = None


@pytest.fixture
def site(tmp_path: Path, cluster: Cluster) -> Iterator[Servers]:
    """Caddy in front of two servers over a new PostgreSQL database."""
    needed(CADDY, "caddy")
    cluster.drop("several")
    served = Servers(tmp_path, cluster.create("several"))
    try:
        for n in (0, 1):
            served.start_server(n)
        served.start_caddy()
        yield served
    finally:
        served.stop_caddy()
        for n in (0, 1):
            served.stop_server(n)
        cluster.drop("several")


class Phone(threading.Thread):
    """A scoring phone recording a round every tenth of a second through Caddy, each with its
    own idempotency key, sending one again (as its outbox does) until it is stored."""

    def __init__(self, site: Servers, match: dict[str, Any]):
        super().__init__()
        self.site = site
        self.url = f"/api/matches/{match['id']}/rounds"
        self.bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
        self.stored: list[int] = []
        self.stumbles: list[int] = []

    def run(self) -> None:
        deadline = time.monotonic() + 120
        for n in range(ROUNDS):
            while time.monotonic() < deadline:
                key = {"Idempotency-Key": f"round-{n}"}
                status, said = reached(self.site, "POST", self.url, ROUND, **self.bearer, **key)
                if status == 201:
                    self.stored.append(said["round"]["n"])
                    break
                self.stumbles.append(status)
                time.sleep(EVERY)
            time.sleep(EVERY)


class Watcher(threading.Thread):
    """A phone reading the match through Caddy every twentieth of a second until told."""

    def __init__(self, site: Servers, match: dict[str, Any]):
        super().__init__()
        self.site = site
        self.url = f"/api/matches/{match['id']}"
        self.done = threading.Event()
        self.reads = 0
        self.misses: list[int] = []

    def run(self) -> None:
        while not self.done.wait(EVERY / 2):
            status, _said = reached(self.site, "GET", self.url)
            self.reads += 1
            if status != 200:
                self.misses.append(status)


def reached(site: Servers, method: str, path: str, body: Any = None, **headers: str) -> tuple:
    """Send one request through Caddy; return its status (0 if it got no answer) and JSON."""
    try:
        status, _headers, said = site.ask(method, path, body, **headers)
    except (OSError, http.client.HTTPException, ssl.SSLError):
        return 0, None
    return status, said


def test_an_upgrade_one_server_at_a_time_stops_no_table(site: Servers):
    status, _, match = site.ask("POST", "/api/matches", RAMI)
    assert status == 201, match
    phone, watcher = Phone(site, match), Watcher(site, match)
    phone.start()
    watcher.start()
    try:
        for n in (0, 1):
            time.sleep(1)
            site.stop_server(n)
            time.sleep(2.5)  # the other server alone answers meanwhile
            site.start_server(n)
    finally:
        phone.join(timeout=150)
        watcher.done.set()
        watcher.join(timeout=30)
    assert not phone.is_alive()
    # Every round arrived once, in order; a round that met the stopped server was told so by
    # Caddy (502), never refused or failed by the app, and sent again.
    assert phone.stored == list(range(1, ROUNDS + 1)), phone.stumbles
    assert set(phone.stumbles) <= {502}, phone.stumbles
    # Reads are tried on the other server: the watching phone saw the match throughout.
    assert watcher.reads > ROUNDS and len(watcher.misses) <= WATCHED_MISSES, watcher.misses
    seen = [ask(port, "GET", f"/api/matches/{match['id']}") for port in site.ports]
    for _status, headers, stored in seen:
        assert [each["n"] for each in stored["rounds"]] == list(range(1, ROUNDS + 1))
        assert stored["totals"] == {"Ana": 0, "Bo": 12 * ROUNDS}
        assert headers["ETag"] == seen[0][1]["ETag"]
