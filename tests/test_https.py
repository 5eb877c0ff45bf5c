"""Tablescore on the internet, for real: Debian's Caddy with deploy/Caddyfile and its own
certificate authority (TABLESCORE_TLS=internal) on https://tablescore.test, in front of bin/serve
as a user starts it on the internet (TABLESCORE_BEHIND_PROXY=1, TABLESCORE_CIRCLES=many), and
phones' Chromium at 360 × 740 that finds tablescore.test on 127.0.0.1 and trusts Caddy's root,
as a phone given it.

A phone starts a circle from the home page and a second phone joins it by the invite link; the
first starts a match through the new-match form (a real form, over https), records a round, runs
under its service worker, holds only Secure cookies and is told HSTS; the second sees the match,
a third in no circle does not; with the app server stopped behind Caddy the first records a
round into its outbox, which arrives once when the server is back. 40 sockets stalled in
their request headers at Caddy delay no round, and Caddy closes them after its read_header
timeout. A journey of its own takes the `site` and `phones` fixtures. Bounded: every wait has
a timeout, and Caddy, the app server, Chromium and every socket are stopped at the end,
whatever happened."""

from __future__ import annotations

import http.client
import json
import os
import socket
import ssl
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, needed
from tests.served import ROOT, free_port, serve, stop
from tests.test_browser import PHONE
from tests.test_browser_offline import offline_record, worked_for
from tests.test_browser_scoring import close, fill_rami, record

pytestmark = pytest.mark.browser

CADDY = "/usr/bin/caddy"
CERTUTIL = "/usr/bin/certutil"
"""From libnss3-tools, which Debian's caddy depends on."""
NAME = "tablescore.test"
"""The site's name: the phone's Chromium maps it to 127.0.0.1, as DNS would map a real one."""
READ_HEADER = 10
"""Seconds Caddy gives a client to send its request headers (deploy/Caddyfile, read_header)."""
STALLED = 40
PATIENCE = 1.0
"""Seconds a round posted through Caddy may take, however many clients stall meanwhile."""
DUEL = {"game": "rami", "players": ["Ana", "Bo"]}
ROUND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}


class SiteConnection(http.client.HTTPSConnection):
    """An https connection to the site by its name, made to 127.0.0.1 where it is served."""

    def connect(self) -> None:
        raw = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)


class Site:
    """Caddy on https://tablescore.test:<port> in front of bin/serve, whose server a test may
    stop and start again on the same port (Caddy goes on answering meanwhile)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port, self.app_port = free_port(), free_port()
        self.base = f"https://{NAME}:{self.port}"
        self.app: Any = None
        self.caddy: Any = None
        self.key = ""
        """The key of the circle the API requests act in (`start_circle`)."""

    @property
    def root(self) -> Path:
        """Caddy's own certificate authority, made in the test's folder at its first start."""
        return self.folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def start_app(self) -> None:
        """Start bin/serve behind Caddy, as a user does, over the site's database."""
        if self.app is None:
            self.app, _port = serve(
                self.folder, self.app_port, TABLESCORE_BEHIND_PROXY="1", TABLESCORE_CIRCLES="many"
            )

    def stop_app(self) -> None:
        """Stop the app server as Ctrl-C would; Caddy stays."""
        if self.app is not None:
            stop(self.app)
            self.app = None

    def start_caddy(self) -> None:
        """Start Debian's Caddy with deploy/Caddyfile, its state kept in the test's folder, and
        wait until it answers over https with a certificate from its own authority."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.folder / "home"),
            "XDG_DATA_HOME": str(self.folder / "data"),
            "XDG_CONFIG_HOME": str(self.folder / "config"),
            "TABLESCORE_SITE": self.base,
            "TABLESCORE_UPSTREAM": self.upstream,
            "TABLESCORE_TLS": "internal",
            "TABLESCORE_CADDY_ADMIN": "off",
            # Its redirect from http:// on a free port, never a packaged Caddy's port 80.
            "TABLESCORE_HTTP_PORT": str(free_port()),
        }
        command = [CADDY, "run", "--config", str(ROOT / "deploy" / "Caddyfile")]
        with (self.folder / "caddy.log").open("w") as log:
            self.caddy = subprocess.Popen(
                [*command, "--adapter", "caddyfile"], cwd=ROOT, env=env, stdout=log, stderr=log
            )
        for _ in range(100):
            if self.caddy.poll() is not None:
                pytest.fail(f"Caddy stopped: {(self.folder / 'caddy.log').read_text()}")
            try:
                if self.ask("GET", "/api/games")[0] == 200:
                    return
            except (OSError, ssl.SSLError):
                pass
            time.sleep(0.1)
        pytest.fail(f"Caddy did not answer: {(self.folder / 'caddy.log').read_text()}")

    def stop_caddy(self) -> None:
        """Stop Caddy, forcibly if its graceful stop takes too long."""
        if self.caddy is not None:
            self.caddy.terminate()
            try:
                self.caddy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.caddy.kill()
                self.caddy.wait(timeout=10)
            self.caddy = None

    @property
    def upstream(self) -> str:
        """Where Caddy finds the app: its server's port on 127.0.0.1."""
        return f"127.0.0.1:{self.app_port}"

    def trusted(self) -> ssl.SSLContext:
        """A client that trusts Caddy's root, and nothing else."""
        return ssl.create_default_context(cafile=str(self.root))

    def start_circle(self) -> None:
        """Start the circle the API requests act in, as a program would."""
        status, _headers, circle = self.ask("POST", "/api/circles", {"name": "Over https"})
        assert status == 201, circle
        assert circle["invite_url"] == f"{self.base}/circles/join/{circle['key']}"
        self.key = circle["key"]

    def ask(self, method: str, path: str, body: Any = None, **headers: str) -> tuple:
        """Send one request over https by the site's name, in the site's circle unless told;
        return its status, headers, JSON."""
        connection = SiteConnection(NAME, self.port, timeout=10, context=self.trusted())
        try:
            data = None if body is None else json.dumps(body)
            sent = {"Content-Type": "application/json", "X-Tablescore-Circle": self.key, **headers}
            connection.request(method, path, data, sent)
            answer = connection.getresponse()
            text = answer.read()
        finally:
            connection.close()
        is_json = answer.headers.get_content_type() == "application/json"
        return answer.status, answer.headers, json.loads(text) if is_json and text else text

    def rounds(self, match_id: int, key: str | None = None) -> list[dict[str, Any]]:
        """The rounds the match holds, as the API says over https in its circle."""
        circle = {} if key is None else {"X-Tablescore-Circle": key}
        status, _headers, match = self.ask("GET", f"/api/matches/{match_id}", **circle)
        assert status == 200
        return match["rounds"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """Caddy from Debian in front of bin/serve, for this module's phones."""
    needed(CADDY, "caddy")
    served = Site(tmp_path_factory.mktemp("https"))
    try:
        served.start_app()
        served.start_caddy()
        served.start_circle()
        yield served
    finally:
        served.stop_caddy()
        served.stop_app()


def trusting(root: Path, home: Path) -> dict[str, str]:
    """Return an environment whose HOME holds an NSS database (where Chromium on Linux looks)
    trusting Caddy's root, as a phone trusts a root installed on it. A browser that only
    ignored certificate errors would refuse the service worker."""
    nss = f"sql:{home / '.pki' / 'nssdb'}"
    (home / ".pki" / "nssdb").mkdir(parents=True)
    subprocess.run([CERTUTIL, "-d", nss, "-N", "--empty-password"], check=True, timeout=30)
    trust = [CERTUTIL, "-d", nss, "-A", "-n", "Caddy's test root", "-t", "C,,", "-i", str(root)]
    subprocess.run(trust, check=True, timeout=30)
    return {**os.environ, "HOME": str(home)}


@pytest.fixture(scope="module")
def chromium(playwright: Playwright, site: Site) -> Iterator[Browser]:
    """A Chromium that finds tablescore.test on this machine and trusts Caddy's root."""
    needed(CERTUTIL, "libnss3-tools")
    launched = playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
        env=trusting(site.root, site.folder / "phone-home"),
    )
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def phones(chromium: Browser, site: Site) -> Iterator[Callable[[], Page]]:
    """Open phones on the site (each its own browser profile), closed at the end."""
    site.start_app()
    opened: list[Page] = []

    def phone() -> Page:
        context = chromium.new_context(**PHONE)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.script_errors = errors  # type: ignore[attr-defined]
        opened.append(page)
        return page

    try:
        yield phone
    finally:
        for page in opened:
            page.context.close()


def started_with_the_form(page: Page, site: Site) -> int:
    """Start a Rami match between Ana, Bo and Cy through the new-match form; return its id."""
    page.goto(f"{site.base}/matches/new/rami")
    for seat, name in enumerate(["Ana", "Bo", "Cy"]):
        page.locator(f"#players-{seat}").fill(name)
    with page.expect_navigation():
        page.locator("form .actions button.primary").tap()
    expect(page.locator("form.round-form")).to_be_visible()
    return int(page.url.split("/matches/")[1].split("?")[0])


def arrived(site: Site, match_id: int, count: int, page: Page, key: str) -> list[dict[str, Any]]:
    """Wait until the match holds `count` rounds (20 seconds at most); return them."""
    for _ in range(200):
        rounds = site.rounds(match_id, key)
        if len(rounds) >= count:
            return rounds
        page.wait_for_timeout(100)
    return site.rounds(match_id, key)


def circle_started(page: Page, site: Site, name: str) -> str:
    """Start a circle from the home page of a phone in none; return its invite link."""
    home = page.goto(f"{site.base}/")
    assert home is not None and home.status == 200
    assert home.headers["strict-transport-security"].startswith("max-age=")
    expect(page.locator("h2#start-title")).to_be_visible()
    page.locator("#circle-name").fill(name)
    with page.expect_navigation():
        page.locator("form button.primary").tap()
    expect(page.locator(".bar .circle-name")).to_have_text(name)
    expect(page.locator(".qr-code svg")).to_be_visible()
    return page.locator("a.invite-link").get_attribute("href") or ""


def test_phones_join_a_circle_and_score_over_https_and_the_outbox_survives_a_restart(
    site: Site, phones: Callable[[], Page]
):
    page, friend, stranger = phones(), phones(), phones()
    invite = circle_started(page, site, "Jeudi کوینش")
    assert invite.startswith(f"{site.base}/circles/join/")
    key = invite.rsplit("/", 1)[1]
    friend.goto(invite)
    expect(friend.locator(".bar .circle-name")).to_have_text("Jeudi کوینش")
    match_id = started_with_the_form(page, site)
    fill_rami(page)
    record(page)
    assert len(site.rounds(match_id, key)) == 1
    # The friend's phone sees the match; a phone in no circle finds nothing there.
    friend.goto(f"{site.base}/")
    expect(friend.locator(".match-list")).to_contain_text("Ana")
    assert friend.goto(f"{site.base}/matches/{match_id}").status == 200
    assert stranger.goto(f"{site.base}/matches/{match_id}").status == 404
    assert stranger.goto(f"{site.base}/history").status == 401
    assert site.ask("GET", f"/api/matches/{match_id}")[0] == 404
    # Over https from a certificate the phone trusts, the service worker runs (10 s at most).
    ready = "Promise.race([navigator.serviceWorker.ready.then(() => true),"
    ready += " new Promise((resolve) => setTimeout(() => resolve(false), 10000))])"
    assert page.evaluate(ready)
    page.reload()
    worked_for(page)
    cookies = page.context.cookies()
    assert cookies and all(cookie["secure"] for cookie in cookies), cookies
    # The links the app writes are the phone's own: https, by the site's name; the live
    # link opens this match to whoever holds it, in a circle or not.
    live = page.locator(".show-table figcaption a").get_attribute("href") or ""
    assert live.startswith(f"{site.base}/matches/{match_id}/live?watch=")
    assert stranger.goto(live).status == 200
    expect(stranger.locator(".live-totals")).to_contain_text("Ana")

    site.stop_app()
    try:
        # Caddy answers 502 for the server it cannot reach: the phone keeps the round.
        offline_record(page, fill_rami)
        expect(page.locator("#outbox .outbox-item")).to_have_count(1)
    finally:
        site.start_app()
    page.reload()
    rounds = arrived(site, match_id, 2, page, key)
    assert len(rounds) == 2
    expect(page.locator("#outbox .outbox-item")).to_have_count(0, timeout=20000)
    page.reload()
    page.wait_for_timeout(500)
    assert len(site.rounds(match_id, key)) == 2
    close(page)


def test_the_app_behind_caddy_writes_https_links_by_the_sites_name(site: Site):
    site.start_app()
    status, headers, match = site.ask("POST", "/api/matches", DUEL)
    assert status == 201
    assert match["url"].startswith(f"{site.base}/api/matches/")
    assert match["html_url"].startswith(f"{site.base}/matches/")
    assert headers["Strict-Transport-Security"].startswith("max-age=")


def stalled_at(site: Site) -> ssl.SSLSocket:
    """Open a connection to Caddy, shake hands, send half a request line and stall."""
    raw = socket.create_connection(("127.0.0.1", site.port), timeout=READ_HEADER + 10)
    stalled = site.trusted().wrap_socket(raw, server_hostname=NAME)
    stalled.sendall(b"POST /api/matches/1/rou")
    return stalled


def closed_by_caddy(stalled: ssl.SSLSocket) -> bool:
    """Wait (its timeout at most) until Caddy closes a stalled connection, with at most a 4xx
    answer before it (Go's server answers 400 to a request whose headers time out)."""
    said = b""
    try:
        while chunk := stalled.recv(1024):
            said += chunk
    except (ConnectionResetError, ssl.SSLError):
        pass
    except TimeoutError:
        return False
    return said == b"" or said.startswith(b"HTTP/1.1 4")


def test_slow_headers_at_caddy_delay_no_round_and_are_closed(site: Site):
    site.start_app()
    status, _headers, match = site.ask("POST", "/api/matches", DUEL)
    assert status == 201
    bearer = f"Bearer {match['scorer_token']}"
    stalled: list[ssl.SSLSocket] = []
    try:
        for _ in range(STALLED):
            stalled.append(stalled_at(site))
        opened = time.monotonic()
        for _ in range(8):
            began = time.monotonic()
            status, _headers, _body = site.ask(
                "POST", f"/api/matches/{match['id']}/rounds", ROUND, Authorization=bearer
            )
            took = time.monotonic() - began
            assert status == 201
            assert took < PATIENCE, f"a round took {took:.2f} s"
            time.sleep(0.25)
        assert all(closed_by_caddy(slow) for slow in stalled)
        waited = time.monotonic() - opened
        assert READ_HEADER - 2 <= waited <= READ_HEADER + 5, waited
    finally:
        for slow in stalled:
            slow.close()
    assert len(site.rounds(match["id"])) == 8
