"""The SQLite engine: one file, opened per request, in WAL mode, the embedded default.

An engine is a module `database` calls through: whether it serves an address, how it opens,
says a statement, locks a change, holds an import's lock, and what its driver's errors mean.
"""

from __future__ import annotations

import fcntl
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .faults import Duplicate, Fault, Unavailable

NAME = "sqlite"
BUSY_SECONDS = 30
"""How long a change waits for another to finish (a large import) before it gives up."""
BEGIN_CHANGE = "BEGIN IMMEDIATE"
"""A change takes the file's one write lock before its first read."""
LOCK_CHANGE = ""
BEGIN_READING = "BEGIN"
"""A read transaction in WAL mode reads one snapshot."""
TABLES = (
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name"
)
"""Every table's name, as the catalog lists them."""
ERRORS = (sqlite3.Error,)
HELD_FILES = 4
"""Files held open at once in one process: a server has one; tests make many, one at a time."""
HELD: OrderedDict[str, sqlite3.Connection] = OrderedDict()
HOLDING = threading.Lock()


def serves(address: str) -> bool:
    """Say whether an address is SQLite's: any that is not another engine's URL is a file."""
    return "://" not in address


def connect(address: str) -> sqlite3.Connection:
    """Open the file with foreign keys enforced; each statement its own transaction unless a
    change or a read begins one."""
    conn = sqlite3.connect(
        address, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None
    )
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def release(db: Any) -> None:
    """Close a request's connection."""
    db.conn.close()


def spoken(sql: str, params: Sequence[Any] | dict[str, Any]) -> tuple[str, Any]:
    """Say a statement as sqlite3 takes it: it reads `?` and `:name` as written."""
    return sql, params


def json_number(column: str, key: str) -> str:
    """Say, in SQL, the number a JSON object column holds under a key."""
    return f"(select value from json_each({column}) where key = {key})"


def same_letters(column: str) -> str:
    """Say, in SQL, that a column equals the next parameter, whatever the case of its letters."""
    return f"{column} = ? COLLATE NOCASE"


def execute_many(conn: sqlite3.Connection, sql: str, params: Sequence[Sequence[Any]]) -> None:
    """Run a statement for each set of parameters."""
    conn.executemany(sql, params)


def returning_id(sql: str, _table: str) -> str:
    """Return an insert as it is: the cursor knows the id it gave."""
    return sql


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """Return the id the insert gave its row."""
    return cursor.lastrowid


def in_transaction(conn: sqlite3.Connection) -> bool:
    """Say whether a transaction is open on the connection."""
    return conn.in_transaction


def fault(error: sqlite3.Error) -> Fault:
    """Name a driver's error as storage's own fault."""
    if isinstance(error, sqlite3.IntegrityError):
        return Duplicate(str(error))
    if isinstance(error, sqlite3.OperationalError):
        return Unavailable(str(error))
    return Fault(str(error))


def hold_open(address: str) -> None:
    """Keep a read-only connection to the file open for as long as the process serves it.

    In WAL mode the last connection to close checkpoints the file and deletes its WAL, and the
    next to open builds them again: a third of a post at a quiet table, where each request's
    connection is the only one. A read-only connection never checkpoints, so holding one open
    is safe, even if the file is replaced under it.
    """
    with HOLDING:
        if address in HELD:
            HELD.move_to_end(address)
            return
        uri = f"{Path(address).resolve().as_uri()}?mode=ro"
        HELD[address] = sqlite3.connect(uri, uri=True, check_same_thread=False)
        HELD[address].execute("select count(*) from sqlite_master").fetchone()
        if len(HELD) > HELD_FILES:
            HELD.popitem(last=False)[1].close()


def let_go(address: str) -> None:
    """Close the file held open, if it is."""
    with HOLDING:
        held = HELD.pop(address, None)
    if held is not None:
        held.close()


def is_missing(address: str) -> bool:
    """Say whether the file was deleted."""
    return not Path(address).exists()


def make_ready(address: str) -> None:
    """Switch the file to WAL once: readers never wait for the writer.

    :raises Fault: the file is not a database, or can't be opened.
    """
    try:
        conn = sqlite3.connect(address, timeout=BUSY_SECONDS, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=wal")
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise fault(error) from error


def migrating(address: str) -> IO[str]:
    """Hold the lock beside the file that lets one process migrate it while the others wait;
    return it, to be closed once migrated. The file's folder is made first, if it is new."""
    Path(address).parent.mkdir(parents=True, exist_ok=True)
    lock = Path(f"{address}.lock").open("w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


def checkpoint(db: Any) -> None:
    """Copy what the WAL holds into the file without waiting for anyone: done by a large
    writer as it goes, so a phone's commit never meets a WAL past SQLite's threshold and pays
    for copying it."""
    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def holder_file(db: Any, holder: str) -> str:
    """Name the lock file an import's process holds while it stores its matches."""
    return f"{db.address}.import-{holder}.lock"


def hold_import(db: Any, holder: str) -> IO[str]:
    """Take the lock an import's process holds while it stores, on a file beside the database:
    the system lets go of it when the process ends, however it ends (kill -9 included)."""
    held = Path(holder_file(db, holder)).open("w")
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return held


def import_held(db: Any, holder: str) -> bool:
    """Say whether some process still holds an import's lock; forget its file if none does."""
    path = holder_file(db, holder)
    try:
        probe = Path(path).open()
    except FileNotFoundError:
        return False
    with probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
    Path(path).unlink(missing_ok=True)
    return False


def release_import(held: IO[str]) -> None:
    """Let go of an ended import's lock, and its file."""
    Path(held.name).unlink(missing_ok=True)
    held.close()


def renumber(_db: Any, _tables: Sequence[str]) -> None:
    """Nothing to do: SQLite gives the next id after the largest one stored."""


def backup(address: str, target: str) -> None:
    """Copy the file into `target` with SQLite's online backup, safe while phones score.

    :raises Fault: either file could not be read or written.
    """
    try:
        source, copy = sqlite3.connect(address), sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            source.close()
            copy.close()
    except sqlite3.Error as error:
        raise fault(error) from error
