"""Open the database an address names and make each change one transaction: the connection
rules every storage module follows, whichever engine keeps the data (foreign keys on, one
writer at a time, snapshots for reads).

An address is a file path (SQLite, the default) or a `postgresql://` URL: `engine_of` picks
the engine, and nothing above this module knows which it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import orjson

from . import postgresql, sqlite
from .faults import Fault

STAMP = "%Y-%m-%dT%H:%M:%SZ"
"""How times are stored: UTC, ISO 8601 to the second, with a Z."""


def now_utc() -> str:
    """Return the current UTC time as stored."""
    return datetime.now(UTC).strftime(STAMP)


ONE_CIRCLE = 1
"""The circle a server of one circle keeps everything in, and every database made before
circles were (m013)."""

ENGINES = (postgresql, sqlite)
"""The engines, each a module: the first whose `serves` accepts an address keeps its data."""


def engine_of(address: str) -> Any:
    """Return the engine that keeps the data at an address: PostgreSQL for its URLs, SQLite
    for a file."""
    return next(engine for engine in ENGINES if engine.serves(address))


def shown(address: str) -> str:
    """Return an address as it may be printed: a URL's password hidden."""
    parts = urlsplit(address)
    if parts.password is None:
        return address
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def engine_name(address: str) -> str:
    """Name the engine an address is kept by ("sqlite" or "postgresql"), for the reader."""
    return engine_of(address).NAME


class Database:
    """A connection to the database, inside one circle: what every storage call takes.

    Statements are written once, with `?` or `:name` marks; the engine says them in its
    driver's words, and turns the driver's errors into storage's own faults.
    """

    def __init__(self, engine: Any, address: str, conn: Any, circle: int | None) -> None:
        self.engine = engine
        self.address = address
        self.conn = conn
        self.circle = circle

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        """Run one statement and return its cursor.

        :raises Fault: the database refused it (`Duplicate`) or could not run it
            (`Unavailable`).
        """
        try:
            return self.conn.execute(*self.engine.spoken(sql, params))
        except self.engine.ERRORS as error:
            raise self.engine.fault(error) from error

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        """Run one statement once for each set of parameters.

        :raises Fault: as `execute`.
        """
        try:
            self.engine.execute_many(self.conn, self.engine.spoken(sql, ["?"])[0], params)
        except self.engine.ERRORS as error:
            raise self.engine.fault(error) from error

    def close(self) -> None:
        """Give the connection back: closed, or returned to its pool."""
        self.engine.release(self)


def connect(address: str, circle: int | None = ONE_CIRCLE) -> Database:
    """Open a connection with foreign keys enforced, as every connection must, that reads and
    writes inside one circle (`enter_circle`).

    :raises Unavailable: the database can't be reached.
    """
    engine = engine_of(address)
    try:
        conn = engine.connect(address)
    except engine.ERRORS as error:
        raise engine.fault(error) from error
    return Database(engine, address, conn, circle)


def enter_circle(db: Database, circle: int | None) -> None:
    """Let the connection see and change one circle's rows and no other's; with None, none.

    Every read of storage is bounded by it (`circle_id = ?`), so a door that forgot to check
    who is asking finds nothing rather than another circle's rows, and a write outside every
    circle fails its NOT NULL instead of landing in one.
    """
    db.circle = circle


def circle_of(db: Database) -> int | None:
    """Return the circle the connection reads and writes inside, or None for none."""
    return db.circle


@contextmanager
def opened(address: str, circle: int | None = ONE_CIRCLE) -> Iterator[Database]:
    """Open a connection of its own, inside one circle, for as long as the block runs (a
    stream outliving its request), and close it after."""
    db = connect(address, circle)
    try:
        yield db
    finally:
        db.close()


def hold_open(address: str) -> None:
    """Keep what makes the next connection cheap for as long as the process serves the
    database (the engine says what: a file held open, or a pool)."""
    engine_of(address).hold_open(address)


def let_go(address: str) -> None:
    """Close whatever this process keeps open on a database (`hold_open`, a pool): done when
    it stops serving it, as a test does with each database it made."""
    engine_of(address).let_go(address)


def is_missing(address: str) -> bool:
    """Say whether the database is gone from under a running server (its file deleted): SQLite
    would quietly make a new, empty one."""
    return engine_of(address).is_missing(address)


@contextmanager
def writing(db: Database) -> Iterator[None]:
    """Make one change as one transaction that holds the write lock from its first read.

    A plain BEGIN lets two phones recording at once both read the match, and then one of them
    fails to write, or writes over what the other wrote. Holding the database's one write lock
    from the start (BEGIN IMMEDIATE on SQLite, an advisory lock on PostgreSQL, whichever
    server the other phone reached) makes the second wait its turn and read the first's round.

    :raises Unavailable: the lock could not be had in time (a large import holds it).
    """
    db.execute(db.engine.BEGIN_CHANGE)
    try:
        if db.engine.LOCK_CHANGE:
            db.execute(db.engine.LOCK_CHANGE)
        yield
    except BaseException:
        rollback(db)
        raise
    db.execute("COMMIT")


def rollback(db: Database) -> None:
    """Undo the change under way; a connection already lost has nothing left to undo."""
    try:
        db.execute("ROLLBACK")
    except Fault:
        if in_transaction(db):
            raise


@contextmanager
def reading(db: Database) -> Iterator[None]:
    """Read as of one moment: every read inside sees the same state, whatever is written
    meanwhile (a snapshot). Inside a change, that change's."""
    if in_transaction(db):
        yield
        return
    db.execute(db.engine.BEGIN_READING)
    try:
        yield
    finally:
        rollback(db)


def in_transaction(db: Database) -> bool:
    """Say whether the connection is inside a change, or a read as of one moment, already."""
    return db.engine.in_transaction(db.conn)


def table_names(db: Database) -> list[str]:
    """Return the name of every table of the database, in order."""
    return [row[0] for row in db.execute(db.engine.TABLES)]


def path_of(db: Database) -> str:
    """Return the database a connection reads, as its address: replays kept in memory are
    told apart by it."""
    return db.address


def rows(db: Database, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict]:
    """Read rows as dictionaries: the reads of every change and every page go through here."""
    cursor = db.execute(sql, params)
    columns = [column[0] for column in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def add(db: Database, table: str, row: dict[str, Any]) -> int:
    """Insert one row into a table whose columns are known, and return its id (for a table
    keyed by an id)."""
    columns = ", ".join(row)
    marks = ", ".join("?" * len(row))
    sql = f"insert into {table} ({columns}) values ({marks})"
    return db.engine.inserted_id(db.execute(db.engine.returning_id(sql, table), list(row.values())))


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
