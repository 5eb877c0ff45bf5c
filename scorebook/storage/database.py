"""Open the SQLite file and make each change one transaction: the connection rules every
storage module follows (foreign keys on, WAL, BEGIN IMMEDIATE for changes, snapshots for reads).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlite_utils import Database

STAMP = "%Y-%m-%dT%H:%M:%SZ"
"""How times are stored: UTC, ISO 8601 to the second, with a Z."""


def now_utc() -> str:
    """Return the current UTC time as stored."""
    return datetime.now(UTC).strftime(STAMP)


BUSY_SECONDS = 30
"""How long a change waits for another to finish (a large import) before it gives up."""
HELD_FILES = 4
"""Files held open at once in one process: a server has one; tests make many, one at a time."""
HELD: OrderedDict[str, sqlite3.Connection] = OrderedDict()
HOLDING = threading.Lock()


def hold_open(path: str) -> None:
    """Keep a read-only connection to the file open for as long as the process serves it.

    In WAL mode the last connection to close checkpoints the file and deletes its WAL, and the
    next to open builds them again: a third of a post at a quiet table, where each request's
    connection is the only one. A read-only connection never checkpoints, so holding one open
    is safe, even if the file is replaced under it.
    """
    with HOLDING:
        if path in HELD:
            HELD.move_to_end(path)
            return
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        HELD[path] = sqlite3.connect(uri, uri=True, check_same_thread=False)
        HELD[path].execute("select count(*) from sqlite_master").fetchone()
        if len(HELD) > HELD_FILES:
            HELD.popitem(last=False)[1].close()


ONE_CIRCLE = 1
"""The circle a server of one circle keeps everything in, and every database made before
circles were (m013)."""


def connect(path: str, circle: int | None = ONE_CIRCLE) -> Database:
    """Open a connection with foreign keys enforced, as every connection must, that reads and
    writes inside one circle (`enter_circle`)."""
    db = Database(sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False))
    db.execute("PRAGMA foreign_keys = ON")
    enter_circle(db, circle)
    return db


def enter_circle(db: Database, circle: int | None) -> None:
    """Let the connection see and change one circle's rows and no other's; with None, none.

    Every read of storage is bounded by it (`circle_id = ?`), so a door that forgot to check
    who is asking finds nothing rather than another circle's rows, and a write outside every
    circle fails its NOT NULL instead of landing in one.
    """
    db.circle = circle


def circle_of(db: Database) -> int | None:
    """Return the circle the connection reads and writes inside, or None for none; a
    connection opened without `connect` is in the first."""
    return getattr(db, "circle", ONE_CIRCLE)


@contextmanager
def opened(path: str, circle: int | None = ONE_CIRCLE) -> Iterator[Database]:
    """Open a connection of its own, inside one circle, for as long as the block runs (a
    stream outliving its request), and close it after."""
    db = connect(path, circle)
    try:
        yield db
    finally:
        db.close()


def backup(path: str, target: str) -> None:
    """Copy the database into `target` with SQLite's online backup, safe while phones score.

    :raises Fault: either file could not be read or written.
    """
    with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(target)) as copy:
        source.backup(copy)


@contextmanager
def writing(db: Database) -> Iterator[None]:
    """Make one change as one transaction that holds the write lock from its first read.

    A plain BEGIN lets two phones recording at once both read the match, and then one of them
    fails to write. BEGIN IMMEDIATE makes the second wait its turn and read the first's round.
    sqlite-utils' own writes inside it nest as savepoints.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        with db.atomic():
            yield
    except BaseException:
        db.conn.rollback()
        raise
    db.conn.commit()


@contextmanager
def reading(db: Database) -> Iterator[None]:
    """Read as of one moment: every read inside sees the same state, whatever is written
    meanwhile (WAL gives a read transaction its snapshot). Inside a change, that change's."""
    if in_transaction(db):
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        db.conn.rollback()


def in_transaction(db: Database) -> bool:
    """Say whether the connection is inside a change, or a read as of one moment, already."""
    return db.conn.in_transaction


def path_of(db: Database) -> str:
    """Return the file a connection reads: replays kept in memory are told apart by it.

    Asked once per connection: every change and every page asks it.
    """
    if not hasattr(db, "file"):
        db.file = db.execute("pragma database_list").fetchone()[2]
    return db.file


def rows(db: Database, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Read rows as dictionaries, without the savepoint sqlite-utils' query wraps each read
    in: the reads of every change and every page go through here."""
    cursor = db.execute(sql, params)
    columns = [column[0] for column in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def add(db: Database, table: str, row: dict[str, Any]) -> int:
    """Insert one row into a table whose columns are known, and return its rowid."""
    columns = ", ".join(row)
    marks = ", ".join("?" * len(row))
    sql = f"insert into {table} ({columns}) values ({marks})"
    return db.execute(sql, list(row.values())).lastrowid


def update(db: Database, table: str, row_id: int, values: dict[str, Any]) -> None:
    """Update some columns of one row, found by its id."""
    assignments = ", ".join(f"{column} = ?" for column in values)
    db.execute(f"update {table} set {assignments} where id = ?", [*values.values(), row_id])


def decoded(row: dict[str, Any]) -> dict[str, Any]:
    """Decode every *_json column of a row into its value, under the name without _json."""
    return {
        (key[: -len("_json")] if key.endswith("_json") else key): (
            orjson.loads(value) if key.endswith("_json") and value is not None else value
        )
        for key, value in row.items()
    }
