"""The history and player pages find their rows through indexes, never by reading a whole table.

Not a timing: the app serves each page while a trace callback records every SQL statement its
connection runs, and `EXPLAIN QUERY PLAN` then reads how SQLite runs each of them. A `SCAN` of
matches, seats or rounds that no index serves reads every row, so its cost grows with the
history; `SEARCH` and `SCAN … USING (COVERING) INDEX` are fine. Ten years of game nights must
still open instantly (issue 10).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from scorebook import storage

pytestmark = pytest.mark.sqlite_only  # the plans SQLite makes

WATCHED = {"matches", "seats", "rounds", "changes"}
"""The tables that grow with every match played."""

SOURCE = re.compile(r"\b(?:from|join)\s+([A-Za-z_]\w*)(?:\s+(?:as\s+)?([A-Za-z_]\w*))?", re.I)
NOT_ALIAS = {"where", "join", "on", "order", "group", "left", "inner", "cross", "union", "limit"}
FULL_SCAN = re.compile(r"^SCAN (\w+)$")
"""A plan step that reads a whole table: `SCAN m`, with no index after it."""


@contextmanager
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Record every statement the app's connections run, with their values filled in."""
    statements: list[str] = []
    connect = storage.connect

    def traced(path: str, *circle: int | None):
        db = connect(path, *circle)
        db.conn.set_trace_callback(statements.append)
        return db

    with monkeypatch.context() as patched:
        patched.setattr(storage, "connect", traced)
        yield statements


def tables_named(sql: str) -> dict[str, str]:
    """Map each name a query gives a table (the table's own name, or its alias) to the table."""
    named = {}
    for table, alias in SOURCE.findall(sql):
        named[table.lower()] = table.lower()
        if alias and alias.lower() not in NOT_ALIAS:
            named[alias.lower()] = table.lower()
    return named


def plans(database: str, statements: list[str]) -> Iterator[tuple[str, dict[str, str], list[str]]]:
    """Yield each query of the statements with the tables it names and how SQLite runs it."""
    with closing(sqlite3.connect(database)) as conn:
        for sql in statements:
            if not re.match(r"\s*(select|with)\b", sql, re.I) or "sqlite_master" in sql:
                continue
            plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")]
            yield " ".join(sql.split()), tables_named(sql), plan


def full_scans(database: str, statements: list[str]) -> list[str]:
    """Return, for each query that reads a whole watched table, the query and its plan."""
    found = []
    for sql, named, plan in plans(database, statements):
        scanned = [
            named.get(step.group(1).lower(), step.group(1))
            for step in map(FULL_SCAN.match, plan)
            if step
        ]
        if WATCHED & set(scanned):
            steps = "\n    ".join(plan)
            found.append(f"{sql}\n    {steps}")
    return found


@pytest.fixture
def played(client: FlaskClient, new_match) -> FlaskClient:
    """A few matches of several games, some finished, so every page has rows to find."""
    rami = new_match("rami", ("Ana", "Bo", "Cy"), target=50)
    client.post(
        f"/api/matches/{rami['id']}/rounds",
        json={
            "outcome": "out",
            "winner": "Ana",
            "hands": {"Bo": {"points": 60, "melded": True}, "Cy": {"points": 5, "melded": True}},
        },
    )
    new_match("rami", ("Ana", "Di"))
    new_match("porrazo", ("Bo", "Ana", "Ed"))
    return client


HISTORY = [
    "game=rami",
    "status=finished",
    "status=playing",
    "player=Ana",
    "from=2020-01-01",
    "to=2099-12-31",
    "from=2020-01-01&to=2099-12-31",
    "game=rami&status=finished",
    "game=rami&player=ana",
    "player=Ana&from=2020-01-01&to=2099-12-31",
    "game=rami&status=playing&player=Ana&from=2020-01-01&to=2099-12-31",
    "player=Ana&page=2",
]


@pytest.mark.parametrize("door", ["/history", "/api/matches"])
@pytest.mark.parametrize("filters", HISTORY)
def test_history_finds_its_page_and_count_through_indexes(
    app: Flask, played: FlaskClient, monkeypatch: pytest.MonkeyPatch, door: str, filters: str
):
    with recorded(monkeypatch) as statements:
        assert played.get(f"{door}?{filters}").status_code == 200
    counted = [sql for sql in statements if "count(*)" in sql.lower()]
    assert counted, "the history must count the matches its filters find"
    scans = full_scans(app.config["DATABASE"], statements)
    assert not scans, "reads a whole table:\n" + "\n".join(scans)


@pytest.mark.parametrize("door", ["/players/ana", "/api/players/Ana", "/players", "/api/players"])
def test_player_page_finds_its_rows_through_indexes(
    app: Flask, played: FlaskClient, monkeypatch: pytest.MonkeyPatch, door: str
):
    with recorded(monkeypatch) as statements:
        assert played.get(door).status_code == 200
    assert any("players" in sql for sql in statements)
    scans = full_scans(app.config["DATABASE"], statements)
    assert not scans, "reads a whole table:\n" + "\n".join(scans)


@pytest.mark.parametrize(
    "page",
    ["/matches/{}", "/matches/{}/sheet", "/matches/{}/live", "/api/matches/{}/log"],
)
def test_a_match_finds_its_rounds_and_changes_through_indexes(
    app: Flask, played: FlaskClient, monkeypatch: pytest.MonkeyPatch, page: str
):
    """Removed rounds are numbered from the change log: by the match's own changes, not by
    reading every change ever logged."""
    match_id = played.get("/api/matches?game=rami&status=finished").json["matches"][0]["id"]
    assert played.delete(f"/api/matches/{match_id}/rounds/1").status_code == 200
    with recorded(monkeypatch) as statements:
        assert played.get(page.format(match_id)).status_code == 200
    assert any("changes" in sql for sql in statements)
    scans = full_scans(app.config["DATABASE"], statements)
    assert not scans, "reads a whole table:\n" + "\n".join(scans)


def test_a_full_scan_is_caught(tmp_path):
    """The check itself, on a schema of its own: a query that reads every row of a watched
    table is reported, through its alias too; one that an index serves is not."""
    database = str(tmp_path / "plans.sqlite")
    with closing(sqlite3.connect(database)) as conn:
        conn.execute("create table matches (id integer primary key, game text, created_utc text)")
        conn.execute("create table seats (match_id integer, player_key text, name text)")
        conn.execute("create index seats_player on seats (player_key, match_id)")
        conn.execute("create table renames (id integer primary key, to_name text)")
    assert full_scans(database, ["select * from seats s where s.name = 'Ana'"])
    assert full_scans(database, ["select count(*) from matches where created_utc >= '2020'"])
    assert full_scans(
        database,
        ["select s.name from seats s join matches m on m.id = s.match_id where m.game = 'rami'"],
    )
    assert not full_scans(database, ["select * from seats s where s.player_key = 'ana'"])
    assert not full_scans(database, ["select count(*) from seats"])
    assert not full_scans(database, ["select * from renames"])


CIRCLE_TABLES = {"matches", "seats", "events", "players", "records", "rivalries", "results"}
"""The tables whose rows belong to a circle of their own (m013)."""
BY_KEY = re.compile(
    r"\((?:circle_id|rowid|id|match_id|event_id|rematch_of|import_id)=|PRIMARY KEY"
    r"|matches_importing \(import_id>\?\)"
)
"""How a step may find a circle's rows: through an index that starts with the circle, by the
key of one row already found in it (a match's seats, an event's matches), or among the few
matches an import is bringing in."""
STEP = re.compile(r"^(SCAN|SEARCH) (\w+)")


def outside_the_circle(database: str, statements: list[str]) -> list[str]:
    """Return each query with a step that reads a circle's table neither through an index
    starting with the circle nor by one row's key: its cost would grow with every circle."""
    found = []
    for sql, named, plan in plans(database, statements):
        for step in plan:
            read = STEP.match(step)
            table = read and named.get(read.group(2).lower(), read.group(2).lower())
            if table in CIRCLE_TABLES and (read.group(1) == "SCAN" or not BY_KEY.search(step)):
                found.append(f"{sql}\n    {step}")
    return found


def test_every_door_of_a_circle_reads_through_indexes_that_start_with_it(
    tmp_path, migrated, monkeypatch: pytest.MonkeyPatch
):
    database = tmp_path / "circles.sqlite"
    database.write_bytes(migrated.read_bytes())
    app = create_app({"TESTING": True, "DATABASE": str(database), "CIRCLES": "many"})
    client = app.test_client()
    keys = [client.post("/api/circles", json={"name": name}).json["key"] for name in "AB"]
    for key in keys:
        client.environ_base["HTTP_X_TABLESCORE_CIRCLE"] = key
        started = client.post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo"]})
        token = {"Authorization": f"Bearer {started.json['scorer_token']}"}
        won = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 99, "melded": True}}}
        for _ in range(2):
            client.post(f"/api/matches/{started.json['id']}/rounds", json=won, headers=token)
    doors = [
        "/",
        *(f"/history?{filters}" for filters in HISTORY),
        *(f"/api/matches?{filters}" for filters in HISTORY),
        "/players",
        "/players/Ana",
        "/api/players/Ana",
        "/ratings?game=rami",
        "/events",
        "/api/circle",
        f"/matches/{started.json['id']}",
        "/api/export",
    ]
    with recorded(monkeypatch) as statements:
        for door in doors:
            assert client.get(door).status_code == 200, door
        answer = client.post(f"/api/matches/{started.json['id']}/rounds", json=won, headers=token)
        assert answer.status_code in (201, 409)
    assert len(statements) > 50
    outside = outside_the_circle(str(database), statements)
    assert not outside, "reads past the circle:\n" + "\n".join(outside)


def circle_schema(database: str) -> None:
    """A schema of its own for the checks of the checks: matches by game or by circle, players
    keyed by their circle."""
    with closing(sqlite3.connect(database)) as conn:
        conn.execute("create table matches (id integer primary key, circle_id, game)")
        conn.execute("create index by_game on matches (game)")
        conn.execute("create index by_circle on matches (circle_id, game)")
        conn.execute("create table players (circle_id, key, name, primary key (circle_id, key))")


READS_PAST = [
    "select id from matches indexed by by_game where game = 'x'",
    "select * from players where name = 'Ana'",
]
"""Reads that go past the circle: by game alone, and of players by name."""
READS_IN = [
    "select id from matches where circle_id = 2 and game = 'x'",
    "select * from matches where id = 4",
    "select * from players where circle_id = 1 and key = 'a'",
]
"""Reads that stay in it: through the circle's index, or by one row's key."""


def test_a_read_past_the_circle_is_caught(tmp_path):
    """The check itself: a read of matches by its game alone, or of players by name, is
    reported; one through an index starting with the circle, or by a row's key, is not."""
    database = str(tmp_path / "plans.sqlite")
    circle_schema(database)
    for sql in READS_PAST:
        assert outside_the_circle(database, [sql]), sql
    for sql in READS_IN:
        assert not outside_the_circle(database, [sql]), sql
