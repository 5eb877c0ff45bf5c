"""Fixtures: an app over a temporary database, its test client, helpers to start matches, a
served app for the browser journeys, and the one Chromium every browser test shares.

Every test of storage, the API and the pages (each test that takes the `app` or `database`
fixture) runs twice: on a fresh SQLite file, and on a fresh PostgreSQL database of a throwaway
cluster the run starts (`tests/postgres.py`). `pytest --engine sqlite` runs them on SQLite
alone; where PostgreSQL is not installed, their PostgreSQL runs are skipped (failed under CI).
"""

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
from scorers import words
from tests.postgres import Cluster, Spares, binaries
from tests.served import free_port

CHROMIUM = "/usr/bin/chromium"


ENGINES = ("sqlite", "postgresql")
"""The engines a test of storage, the API and the pages runs on."""


def pytest_addoption(parser: pytest.Parser) -> None:
    """Let the run choose the engines the tests of storage, the API and the pages store in."""
    parser.addoption(
        "--engine",
        choices=(*ENGINES, "both"),
        default="both",
        help="run each test that takes a database on this engine, or on both (the default)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Name the marker of tests that read the SQLite file itself."""
    config.addinivalue_line(
        "markers", "sqlite_only: reads or breaks the SQLite file itself, beneath storage"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test whose app or connection stores in a fresh database once on each engine
    chosen: every test of storage, the API and the pages, but those that reach beneath
    storage into an SQLite file and the browser journeys (one served app of their own)."""
    if "database" not in metafunc.fixturenames:
        return
    definition = metafunc.definition
    if definition.get_closest_marker("sqlite_only") or definition.get_closest_marker("browser"):
        return
    chosen = metafunc.config.getoption("engine")
    engines = ENGINES if chosen == "both" else (chosen,)
    metafunc.parametrize("engine", engines, indirect=True)


@pytest.fixture(autouse=True)
def in_english() -> None:
    """Start every test speaking English: a page fetched through the test client speaks its
    phone's language in the test's own context, and would go on speaking it."""
    words.speak(None)


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """Name the engine this test stores in: SQLite unless the test runs on each."""
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def postgresql_installed() -> None:
    """Skip a test that needs Debian's PostgreSQL where it is missing (fail it under CI)."""
    if binaries() is None:
        needed("/usr/lib/postgresql/<version>/bin/initdb", "postgresql")


@pytest.fixture(scope="session")
def cluster(postgresql_installed: None) -> Iterator[Cluster]:
    """Start a throwaway PostgreSQL cluster for the run, with one migrated database every
    test's database is copied from."""
    started = Cluster(free_port()).start()
    template = started.create("migrated")
    storage.prepare(template)
    storage.let_go(template)
    yield started
    started.stop()


@pytest.fixture(scope="session")
def spares(cluster: Cluster) -> Spares:
    """Lend each test a PostgreSQL database as migrated, wiped back after it."""
    return Spares(cluster, "migrated")


@pytest.fixture
def another_database(
    engine: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[[], str]]:
    """Return a function that makes a fresh, migrated database on the test's engine, and
    returns its address; each is let go of after the test."""
    made: list[str] = []

    def make() -> str:
        if engine == "sqlite":
            number = len(made)
            path = tmp_path / ("tablescore.sqlite" if not made else f"other-{number}.sqlite")
            shutil.copyfile(request.getfixturevalue("migrated"), path)
            made.append(str(path))
        else:
            made.append(request.getfixturevalue("spares").lend())
        return made[-1]

    yield make
    for address in made:
        storage.let_go(address)
        if engine == "postgresql":
            request.getfixturevalue("spares").take_back(address)


@pytest.fixture
def database(another_database: Callable[[], str]) -> str:
    """Return the address of a fresh, migrated database for one test, on the run's engine."""
    return another_database()


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
def there(another_database: Callable[[], str]) -> FlaskClient:
    """A client of another Tablescore, over a database of its own on the run's engine: where
    an export is imported, or a file checked that this one does not keep."""
    elsewhere = create_app(
        {
            "TESTING": True,
            "DATABASE": another_database(),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
        }
    )
    return elsewhere.test_client()


@pytest.fixture
def app(database: str) -> Flask:
    """Return an app whose whole state lives in a fresh database."""
    return create_app(
        {
            "TESTING": True,
            "DATABASE": database,
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
