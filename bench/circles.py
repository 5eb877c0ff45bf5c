#!/usr/bin/env python3
"""Circles at scale (issue 29): one circle among 10 000 in a file of 1 000 000 matches.

    .venv/bin/python bench/circles.py                       # 10 000 circles × 100 matches
    .venv/bin/python bench/circles.py --circles 500 --repeat 10 --db /tmp/c.sqlite --keep

It builds two files with the same measured circle, a club of 16 players with 2 000 matches of
the five games over ten years and the Porrazo matches the timed posts go to, stored through the
app's own storage code (bench.store_match) in the circle a key opens. The big file also holds the
other circles, each a copy of one circle of 100 matches (built the same way, then copied by SQL
with ids of their own), written in step with the measured circle's matches so that its rows lie
scattered among everyone else's, as on a server where every circle plays every week. The small
file holds the measured circle alone. The app serves both with TABLESCORE_CIRCLES=many, every
request carrying the circle's key; each door is timed three ways (median of --repeat calls):
the big file against the floor of bench.py, the small one against the floor, and the big file
against the small one call by call. While it serves each door once, a trace records every query
its connections run, and `EXPLAIN QUERY PLAN` on the big file shows how SQLite finds the rows:
each step that reads a table of circles' rows must go through an index whose first column is the
circle, or take one row by its key.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402
from bench import (  # noqa: E402
    NEXT_PEG,
    POOL,
    SEED,
    YEARS,
    database_bytes,
    expect,
    floor_app,
    generate,
    peg_matches,
    store_match,
    timed,
)
from scorebook import circles, storage  # noqa: E402
from scorers import GAMES  # noqa: E402

CLUB = POOL[:16]
"""The measured circle's players: a club, each of them at about a quarter of its tables."""
FAMILY = POOL[100:110]
"""The players of every other circle."""
COPIED = ("matches", "seats", "rounds", "changes", "scorers", "results")
"""The tables a match's rows lie in, copied with the match into each other circle."""
PER_CIRCLE = ("players", "records", "rivalries")
"""The tables of what a circle's matches count for its players, copied whole."""
SLICES = 10
"""The other circles take each copied match in this many slices, the measured circle's next
matches stored between two: its rows lie among theirs all through the file."""


def new_file(path: str, count: int) -> tuple[storage.Database, str]:
    """Make a file of `count` circles, the measured one in the middle; return a connection in
    it and its key."""
    storage.prepare(path)
    db = storage.connect(path, None)
    now = storage.now_utc()
    with storage.writing(db):
        for n in range(2, count // 2 + 1):
            storage.insert_circle(db, f"Circle {n}", circles.key_digest(secrets.token_hex()), now)
    measured, key = circles.start(db, "Mesa de los jueves")
    with storage.writing(db):
        for n in range(count // 2 + 2, count + 1):
            storage.insert_circle(db, f"Circle {n}", circles.key_digest(secrets.token_hex()), now)
    storage.enter_circle(db, measured.id)
    return db, key


def played(db: storage.Database, pool: list[str], seed: int, count: int) -> Iterator[int]:
    """Store `count` matches among `pool` over ten years, oldest first, one at each step."""
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    first = now - timedelta(days=365 * YEARS)
    for i in range(count):
        start, table, inputs, replay = generate(rng, pool)
        created = first + (now - first) / count * i
        store_match(db, GAMES[start["game"]], table, inputs, replay, created)
        yield i


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f"pragma table_info({table})")]


def copy_sql(conn: sqlite3.Connection, table: str) -> str:
    """The statement copying a template match's rows of `table` into a slice of circles, with
    new ids: match :base + j for the j-th circle of the slice, its rounds after :rounds."""
    given = {
        "circle_id": "f.circle_id",
        "match_id": ":base + f.j",
        "uid": "lower(hex(randomblob(16)))",
        "token_sha256": "lower(hex(randomblob(32)))",
        "round_id": ":rounds + f.j * :count + x.round_id - :first",
    }
    if table == "matches":
        given["id"] = ":base + f.j"
    elif table == "rounds":
        given["id"] = ":rounds + f.j * :count + x.id - :first"
    names = [name for name in columns(conn, table) if name != "id" or name in given]
    chosen = ", ".join(given.get(name, f"x.{name}") for name in names)
    key = "id" if table == "matches" else "match_id"
    return (
        f"insert into main.{table} ({', '.join(names)}) select {chosen} "
        f"from template.{table} x join fill f on f.slice = :slice "
        f"where x.{key} = :match order by f.j, x.rowid"
    )


def template(path: str, per_circle: int) -> None:
    """Build the one circle every other is a copy of, in a file of its own."""
    storage.prepare(path)
    db = storage.connect(path)
    with storage.writing(db):
        for _ in played(db, FAMILY, SEED + 1, per_circle):
            pass
    db.close()


def build(path: str, count: int, per_circle: int, club: int, copies: int, others: str | None):
    """Build a file of `count` circles and the measured circle's `club` matches; with `others`
    (the template's file), each other circle holds a copy of its matches. Return the measured
    circle's key, its Porrazo matches to post to, and what was built."""
    begun = time.perf_counter()
    db, key = new_file(path, count)
    measured = storage.circle_of(db)
    conn = db.conn
    stored = played(db, CLUB, SEED, club)
    if others:
        conn.execute("attach database ? as template", [others])
        filled = [n for n in range(1, count + 1) if n != measured]
        with storage.writing(db):
            conn.execute("create temp table fill (slice int, j int, circle_id int)")
            conn.executemany(
                "insert into fill values (?, ?, ?)",
                [(i % SLICES, i // SLICES, n) for i, n in enumerate(filled)],
            )
        template_matches = [row[0] for row in conn.execute("select id from template.matches")]
        statements = {table: copy_sql(conn, table) for table in COPIED}
        steps = len(template_matches) * SLICES
        for step in range(steps):
            match = template_matches[step // SLICES]
            with storage.writing(db):
                first, rounds = conn.execute(
                    "select coalesce(min(id), 0), count(*) from template.rounds where match_id = ?",
                    [match],
                ).fetchone()
                values = {
                    "match": match,
                    "slice": step % SLICES,
                    "base": conn.execute("select coalesce(max(id), 0) + 1 from matches").fetchone()[
                        0
                    ],
                    "rounds": conn.execute(
                        "select coalesce(max(id), 0) + 1 from rounds"
                    ).fetchone()[0],
                    "first": first,
                    "count": rounds,
                }
                for sql in statements.values():
                    conn.execute(sql, values)
                for _ in range(club * (step + 1) // steps - club * step // steps):
                    next(stored)
            if (step + 1) % (steps // 10 or 1) == 0:
                spent = time.perf_counter() - begun
                print(f"  {step + 1:>6} of {steps} slices copied, {spent:6.0f} s", flush=True)
        with storage.writing(db):
            for table in PER_CIRCLE:
                names = [name for name in columns(conn, table) if name != "circle_id"]
                conn.execute(
                    f"insert into main.{table} ({', '.join(names)}, circle_id) "
                    f"select {', '.join(f'x.{n}' for n in names)}, f.circle_id "
                    f"from template.{table} x, fill f"
                )
        conn.execute("detach database template")
    with storage.writing(db):
        for _ in stored:
            pass
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    posts = peg_matches(path, copies, measured)
    spent = time.perf_counter() - begun
    return key, posts, {"seconds": spent, "bytes": database_bytes(path), "circle": measured}


def counted(path: str, circle_id: int | None = None) -> dict[str, int]:
    """Rows of the file, or of one circle of it."""
    where = "" if circle_id is None else f" where circle_id = {int(circle_id)}"
    with closing(sqlite3.connect(path)) as conn:
        found = {
            table: conn.execute(f"select count(*) from {table}{where}").fetchone()[0]
            for table in ("circles", "matches", "seats", "players")
            if not (where and table == "circles")
        }
        if not where:
            found |= {
                table: conn.execute(f"select count(*) from {table}").fetchone()[0]
                for table in ("rounds", "changes")
            }
    return found


# --- how SQLite finds each circle's rows -------------------------------------------------------

CIRCLE_TABLES = {"matches", "seats", "events", "players", "records", "rivalries", "results"}
BY_ROW = ("(rowid=", "(id=", "(match_id=", "(event_id=", "(rematch_of=")
"""A step taking the rows of one row already found: a match by its id, its seats, its rounds,
the match played as its rematch."""
UNDER_WAY = {"imports", "matches_importing"}
"""The table and the index holding only what an import has under way: a row or none."""
WORKING = ("SCAN CONSTANT ROW", "SCAN (subquery", "SCAN json_each", "SCAN v", "SCAN ranked")
"""Steps over a query's own working rows, not a table's."""


@contextmanager
def traced() -> Iterator[list[str]]:
    """Record every statement the app's connections run, with their values filled in."""
    statements: list[str] = []
    connect = storage.connect

    def tracing(path: str, *circle: int | None) -> storage.Database:
        db = connect(path, *circle)
        db.conn.set_trace_callback(statements.append)
        return db

    storage.connect = tracing
    try:
        yield statements
    finally:
        storage.connect = connect


def indexed(conn: sqlite3.Connection) -> dict[str, tuple[str, str]]:
    """Each index of the file: its table and its first column."""
    found = {}
    for name, table in conn.execute("select name, tbl_name from sqlite_master where type='index'"):
        first = conn.execute(f"pragma index_info('{name}')").fetchone()
        found[name] = (table, first[2] if first else "")
    return found


def read_steps(path: str, statements: list[str]) -> tuple[Counter, list[str]]:
    """Count how the queries find their rows; return that with each step that reads a whole
    table or index, or a circle's table neither through an index whose first column is the
    circle nor by one row's key: its cost would grow with every circle on the server."""
    used: Counter = Counter()
    astray = []
    with closing(sqlite3.connect(path)) as conn:
        indexes = indexed(conn)
        for sql in dict.fromkeys(statements):
            if not sql.lstrip().lower().startswith(("select", "with")) or "sqlite_" in sql:
                continue
            for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"):
                step = row[3]
                if not step.startswith(("SCAN", "SEARCH")) or step.startswith(WORKING):
                    continue
                index = step.split(" INDEX ", 1)[1].split()[0] if " INDEX " in step else None
                table, first = indexes.get(index, ("", ""))
                used[index or ("rowid" if "(rowid=" in step else step)] += 1
                by_circle = first == "circle_id" and "(circle_id=" in step
                by_row = any(key in step for key in BY_ROW)
                if step.startswith("SEARCH") and (
                    by_circle or by_row or table not in CIRCLE_TABLES
                ):
                    continue
                if index in UNDER_WAY or step.startswith("SCAN") and step.split()[1] in UNDER_WAY:
                    continue
                astray.append(f"{' '.join(sql.split())[:160]}\n      {step}")
    return used, astray


# --- measuring --------------------------------------------------------------------------------

BUDGETS = {"post": 3, "match_page": 5, "history": 5, "history_player": 5, "history_api": 5}
"""Today's budgets of bench.py, in floors: the post and the pages a table opens all evening."""
APART = 2
"""The goal for the big file against the small one: a circle among 10 000 at most twice as slow
as alone."""
LABELS = {
    "post": "POST /api/matches/<id>/rounds (201st event)",
    "match_page": "GET /matches/<id> (200 events, scorer)",
    "history": "GET /history",
    "history_player": "GET /history?player=…",
    "history_api": "GET /api/matches?player=…",
    "player_page": "GET /players/<name>",
    "players_list": "GET /players",
    "home": "GET / (the circle's home)",
    "circle_api": "GET /api/circle",
}

TRACED_TOO = (
    "/history?game=belote&status=finished",
    "/history?player={player}&from=2020-01-01&to=2099-12-31&page=2",
    "/api/players/{player}",
    "/ratings?game=rami",
    "/events",
    "/circle",
)
"""More doors whose queries are read, untimed."""


class Served:
    """One file served as a server of many circles, every request in the measured circle."""

    def __init__(self, path: str, key: str, posts: dict[str, Any]) -> None:
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "CIRCLES": "many"})
        self.client = app.test_client()
        self.client.environ_base["HTTP_X_TABLESCORE_CIRCLE"] = key
        self.match_id, token = posts["match_200"]
        self.copies = posts["copies_200"]
        self.posted = 0
        with self.client.session_transaction() as session:
            session["scorer_tokens"] = {str(self.match_id): token}

    def door(self, name: str) -> Callable[[int], Any]:
        """The call timing door `name`: a page or answer read, or the next post."""
        if name == "post":
            return lambda _i: self.post()
        url = {
            "match_page": f"/matches/{self.match_id}",
            "history": "/history",
            "history_player": f"/history?player={CLUB[0]}",
            "history_api": f"/api/matches?player={CLUB[0]}",
            "player_page": f"/players/{CLUB[0]}",
            "players_list": "/players",
            "home": "/",
            "circle_api": "/api/circle",
        }[name]
        return lambda _i: expect(self.client.get(url))

    def post(self) -> Any:
        """Record the 201st event of the next copy nobody posted to."""
        copy_id, token = self.copies[self.posted]
        self.posted += 1
        auth = {"Authorization": f"Bearer {token}"}
        return expect(
            self.client.post(f"/api/matches/{copy_id}/rounds", json=NEXT_PEG, headers=auth), 201
        )

    def read_next(self) -> None:
        """Read the copy the next post goes to, as the scoring phone has just done."""
        expect(self.client.get(f"/api/matches/{self.copies[self.posted][0]}"))


def measure(big: Served, small: Served, floor_path: str, warmup: int, repeat: int) -> dict:
    """Time every door three ways: big file and floor, small file and floor, big and small."""
    floor_client = floor_app(floor_path).test_client()
    floors = iter(range(10**9))

    def floor(_i: int) -> Any:
        return expect(floor_client.post("/floor", json=NEXT_PEG | {"i": next(floors)}))

    def ready(*served: Served) -> Callable[[int], Any]:
        return lambda _i: [each.read_next() for each in served]

    idle = ready()
    results = {}
    for name in LABELS:
        posting = name == "post"
        results[name] = {
            "big": timed(big.door(name), floor, warmup, repeat, ready(big) if posting else idle),
            "small": timed(
                small.door(name), floor, warmup, repeat, ready(small) if posting else idle
            ),
            "apart": timed(
                big.door(name),
                small.door(name),
                warmup,
                repeat,
                ready(big, small) if posting else idle,
            ),
        }
    return results


def ratio(pair: dict[str, list[float]]) -> tuple[float, float, float]:
    """The median call, the median of what it was timed beside, and their ratio."""
    call, beside = statistics.median(pair["call"]), statistics.median(pair["floor"])
    return call, beside, call / beside


def report(args: Any, built: dict[str, Any], results: dict, used: Counter, astray: list) -> None:
    print()
    print(f"Circles at scale, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores,")
    print(f"Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}")
    for name in ("big", "small"):
        made = built[name]
        rows = ", ".join(f"{table} {count}" for table, count in made["rows"].items())
        size, spent = made["bytes"] / 2**20, made["seconds"]
        print(f"{name} file: {size:.0f} MiB, built in {spent:.0f} s: {rows}")
    rows = ", ".join(f"{table} {count}" for table, count in built["measured"].items())
    print(f"the measured circle, in both: {rows}")
    print(f"medians of {args.repeat} calls after {args.warmup} warm-up calls, each timed in turn")
    print(
        "with a floor call (bare Flask, 1 insert + 1-line template), or with the same call to the"
    )
    print(f"small file; goals: today's budgets in floors, and the big file ≤{APART}× the small one")
    print()
    heads = ("big", "× floor", "small", "× floor", "budget")
    print(f"{'':44} " + " ".join(f"{head:>8}" for head in heads) + f" {'big/small':>10}")
    for name, label in LABELS.items():
        big, _, big_floors = ratio(results[name]["big"])
        small, _, small_floors = ratio(results[name]["small"])
        _, _, apart = ratio(results[name]["apart"])
        budget = BUDGETS.get(name)
        verdict = f"≤{budget} {'ok' if big_floors <= budget else 'FAIL'}" if budget else ""
        kept = "ok" if apart <= APART else "FAIL"
        print(
            f"{label:44} {big:6.2f}ms {big_floors:7.1f}× {small:6.2f}ms {small_floors:7.1f}× "
            f"{verdict:>8} {apart:6.2f}× {kept}"
        )
    print()
    print(f"how the queries of every door found their rows in the big file, {sum(used.values())}")
    print("steps in all:")
    for way, count in used.most_common():
        print(f"  {count:5}  {way}")
    if astray:
        print(f"FAIL: {len(astray)} steps read past the circle:")
        for step in astray:
            print(f"  {step}")
    else:
        print("ok: every step reads a circle's rows through an index that starts with the circle,")
        print("or takes one row by its key")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--circles", type=int, default=10_000, help="circles in the big file")
    parser.add_argument("--per-circle", type=int, default=100, help="matches of every other circle")
    parser.add_argument("--club", type=int, default=2_000, help="matches of the measured circle")
    parser.add_argument("--db", help="the big file to build (default: in a temporary folder)")
    parser.add_argument("--repeat", type=int, default=30, help="timed calls per measurement")
    parser.add_argument("--warmup", type=int, default=5, help="untimed calls before them")
    parser.add_argument("--keep", action="store_true", help="keep the files afterwards")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tablescore-circles-")
    big_path = os.path.abspath(args.db) if args.db else os.path.join(folder, "big.sqlite")
    if os.path.exists(big_path):
        raise SystemExit(f"{big_path} exists: remove it or choose another --db.")
    paths = [
        big_path,
        *(os.path.join(folder, f"{n}.sqlite") for n in ("small", "template", "floor")),
    ]
    big_path, small_path, template_path, floor_path = paths
    copies = 2 * (args.warmup + args.repeat) + 1  # and the one post traced
    try:
        print(f"building the circle every other copies ({args.per_circle} matches) …", flush=True)
        template(template_path, args.per_circle)
        print(f"building {args.circles} circles in {big_path} …", flush=True)
        big_key, big_posts, big_made = build(
            big_path, args.circles, args.per_circle, args.club, copies, template_path
        )
        print(f"building the measured circle alone in {small_path} …", flush=True)
        small_key, small_posts, small_made = build(
            small_path, args.circles, args.per_circle, args.club, copies, None
        )
        big = Served(big_path, big_key, big_posts)
        small = Served(small_path, small_key, small_posts)
        with traced() as statements:
            for name in LABELS:
                big.door(name)(0)
            for url in TRACED_TOO:
                expect(big.client.get(url.format(player=CLUB[0])))
        used, astray = read_steps(big_path, statements)
        results = measure(big, small, floor_path, args.warmup, args.repeat)
        built = {
            "big": big_made | {"rows": counted(big_path)},
            "small": small_made | {"rows": counted(small_path)},
            "measured": counted(big_path, big_made["circle"]),
        }
        report(args, built, results, used, astray)
    finally:
        for path in (template_path, floor_path) if args.keep else paths:
            for suffix in ("", "-wal", "-shm", ".lock"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
        if not args.keep and not os.listdir(folder):
            os.rmdir(folder)


if __name__ == "__main__":
    main()
