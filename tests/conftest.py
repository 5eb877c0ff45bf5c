"""Fixtures: an app over a temporary database, its test client, helpers to start matches, a
served app for the browser journeys, and the one Chromium every browser test shares."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, Playwright, sync_playwright
from werkzeug.serving import make_server

from app import create_app
from scorebook import storage

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build one migrated database for the whole run: migrating a new file for every test
    costs three times what copying one does."""
    path = tmp_path_factory.mktemp("migrated") / "tablescore.sqlite"
    storage.prepare(str(path))
    # Its last connection closed: the file holds everything, with no WAL beside it to copy.
    assert not Path(f"{path}-wal").exists()
    return path


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    """Return an app whose whole state lives in a fresh SQLite file."""
    database = tmp_path / "tablescore.sqlite"
    shutil.copyfile(migrated, database)
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(database),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
        }
    )


class ScoringPhone(FlaskClient):
    """A test client that is the phone that started its matches: it keeps their scorer tokens.

    Every match it starts through the API gives it a token, which it then sends as the bearer
    of that match's changes (unless a test sends its own) and keeps in its browser session,
    as a phone handed the match would.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.tokens: dict[str, str] = {}

    def open(self, *args: Any, **kwargs: Any) -> Any:
        path = args[0] if args and isinstance(args[0], str) else ""
        found = re.match(r"/api/matches/(\d+)(?:/|$)", path)
        headers = dict(kwargs.pop("headers", None) or {})
        if found and found.group(1) in self.tokens and "Authorization" not in headers:
            headers["Authorization"] = f"Bearer {self.tokens[found.group(1)]}"
        response = super().open(*args, headers=headers, **kwargs)
        started = path == "/api/matches" or re.fullmatch(r"/api/matches/\d+/rematch", path)
        if started and response.status_code == 201:
            self.keep(str(response.json["id"]), response.json["scorer_token"])
        return response

    def keep(self, match_id: str, token: str) -> None:
        """Hold a match's token, for the API and in the browser session."""
        self.tokens[match_id] = token
        with self.session_transaction() as session:
            session["scorer_tokens"] = {**session.get("scorer_tokens", {}), match_id: token}


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a test client that scores the matches it starts."""
    app.test_client_class = ScoringPhone
    return app.test_client()


@pytest.fixture
def stranger(app: Flask) -> FlaskClient:
    """Return a client that holds no scorer token: another phone at the table."""
    return FlaskClient(app, app.response_class)


@pytest.fixture
def new_match(client: FlaskClient) -> Callable[..., dict[str, Any]]:
    """Return a function that starts a match through the API and returns it."""

    def start(game: str = "rami", players: tuple[str, ...] = ("Ana", "Bo", "Cy"), **options):
        response = client.post(
            "/api/matches", json={"game": game, "players": list(players), "options": options}
        )
        assert response.status_code == 201, response.json
        return response.json

    return start


CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]
"""The machine has no network beyond localhost: keep Chromium from reaching for it."""


def needed(program: str, package: str) -> None:
    """Skip a test whose program from Debian is missing; under CI, fail it instead."""
    if not Path(program).exists():
        message = f"{program} is missing: apt-get install {package}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """Start Playwright once for all browser tests: its sync API runs one at a time only."""
    needed(CHROMIUM, "chromium")
    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Launch Debian's Chromium once for all browser tests."""
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the app on a free local port for the whole session; return its address."""
    app = create_app(
        {"DATABASE": str(tmp_path_factory.mktemp("db") / "browser.sqlite"), "SECRET_KEY": "test"}
    )
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join()
