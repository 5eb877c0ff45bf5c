"""The PostgreSQL engine: one database shared by any number of server processes, on any
number of machines, each process drawing connections from a pool of its own.

It speaks the statements storage writes for SQLite (`?` and `:name` marks become psycopg's
`%s` and `%(name)s`), serialises changes with one advisory lock held for the transaction, as
BEGIN IMMEDIATE does on a file, and reads each page from one snapshot (REPEATABLE READ).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool

from .faults import Duplicate, Fault, Unavailable

NAME = "postgresql"
SCHEMES = ("postgresql://", "postgres://")
WRITE_LOCK = 0x7461626C
"""The advisory lock every change holds until it commits: one writer at a time, whichever
process or machine it runs on."""
MIGRATE_LOCK = WRITE_LOCK + 1
"""The advisory lock the process migrating the database holds while the others wait."""
BUSY_SECONDS = 30
"""How long a change waits for the write lock (a large import holds it) before it gives up."""
BEGIN_CHANGE = "BEGIN"
LOCK_CHANGE = f"SELECT pg_advisory_xact_lock({WRITE_LOCK})"
BEGIN_READING = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
TABLES = (
    "select table_name from information_schema.tables "
    "where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name"
)
"""Every table's name, as the catalog lists them."""
ERRORS = (psycopg.Error,)
POOL_SIZE = 20
"""Connections one process keeps at most: a request's thread, an export stream and an import
each take one while they run; eight threads a process leave room for both."""
POOLS: dict[tuple[int, str], ConnectionPool] = {}
"""Each process's pool per database: a forked process makes its own."""
POOLING = threading.Lock()
MARK = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)|\?")


def serves(address: str) -> bool:
    """Say whether an address is a PostgreSQL URL."""
    return address.startswith(SCHEMES)


def pool_of(address: str) -> ConnectionPool:
    """Return this process's pool of connections to the database, opening it on first use."""
    key = (os.getpid(), address)
    with POOLING:
        pool = POOLS.get(key)
        if pool is None:
            pool = ConnectionPool(
                address,
                min_size=1,
                max_size=POOL_SIZE,
                kwargs={"autocommit": True, "options": f"-c lock_timeout={BUSY_SECONDS}s"},
                timeout=BUSY_SECONDS,
                reset=reset_session,
                name="tablescore",
                open=True,
            )
            POOLS[key] = pool
    return pool


def reset_session(conn: psycopg.Connection) -> None:
    """Give a connection back as it was opened, whatever a borrower set on it."""
    conn.execute("RESET ALL")


def connect(address: str) -> psycopg.Connection:
    """Take a connection from the pool; each statement its own transaction unless a change or
    a read begins one."""
    return pool_of(address).getconn()


def release(db: Any) -> None:
    """Give a request's connection back to its pool."""
    pool_of(db.address).putconn(db.conn)


def spoken(sql: str, params: Sequence[Any] | dict[str, Any]) -> tuple[str, Any]:
    """Say a statement with psycopg's marks: `?` as `%s`, `:name` as `%(name)s`."""
    if not params:
        return sql, None
    return marked(sql), params


@lru_cache(maxsize=2048)
def marked(sql: str) -> str:
    """Rewrite a statement's marks once, and keep it: the same few statements come back."""
    return MARK.sub(
        lambda found: f"%({found.group(1)})s" if found.group(1) else "%s", sql.replace("%", "%%")
    )


def json_number(column: str, key: str) -> str:
    """Say, in SQL, the number a JSON object column holds under a key."""
    return f"(({column})::jsonb ->> {key})::bigint"


def same_letters(column: str) -> str:
    """Say, in SQL, that a column equals the next parameter, whatever the case of its letters."""
    return f"lower({column}) = lower(?)"


def execute_many(conn: psycopg.Connection, sql: str, params: Sequence[Sequence[Any]]) -> None:
    """Run a statement for each set of parameters, in one round trip."""
    with conn.cursor() as cursor:
        cursor.executemany(sql, params)


@lru_cache(maxsize=64)
def returning_id(sql: str, table: str) -> str:
    """Ask an insert for the id it gave, in a table keyed by one."""
    return f"{sql} returning id" if table in KEYED_BY_ID else sql


KEYED_BY_ID = frozenset(
    {
        "circles",
        "changes",
        "event_entrants",
        "events",
        "handoffs",
        "imports",
        "matches",
        "renames",
        "results",
        "rounds",
        "scorers",
        "side_phones",
    }
)
"""The tables whose rows are keyed by an id the database gives (`tests/test_postgresql.py`
checks it against the schema)."""


def inserted_id(cursor: psycopg.Cursor) -> int:
    """Return the id an insert returned, or 0 for a table keyed otherwise."""
    if cursor.description is None:
        return 0
    return cursor.fetchone()[0]


def in_transaction(conn: psycopg.Connection) -> bool:
    """Say whether a transaction is open on the connection."""
    return conn.info.transaction_status != TransactionStatus.IDLE


def fault(error: psycopg.Error) -> Fault:
    """Name a driver's error as storage's own fault."""
    said = str(error).strip()
    if isinstance(error, psycopg.IntegrityError):
        return Duplicate(said)
    if isinstance(error, errors.DiskFull | errors.OutOfMemory):
        return Unavailable(said, "full")
    if isinstance(error, errors.ReadOnlySqlTransaction):
        return Unavailable(said, "read-only")
    if isinstance(error, errors.LockNotAvailable | errors.QueryCanceled):
        return Unavailable(said, "busy")
    if isinstance(error, psycopg.OperationalError):
        return Unavailable(said, "unreachable")
    return Fault(said)


def renumber(db: Any, tables: Sequence[str]) -> None:
    """Let each table keyed by an id give the next id after the largest one copied in."""
    for table in sorted(KEYED_BY_ID & set(tables)):
        db.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"coalesce(max(id), 0) + 1, false) FROM {table}"
        )


def hold_open(address: str) -> None:
    """Keep the process's pool open: its connections are what make the next one cheap."""
    pool_of(address)


def let_go(address: str) -> None:
    """Close the process's pool of connections to the database, if it has one."""
    with POOLING:
        pool = POOLS.pop((os.getpid(), address), None)
    if pool is not None:
        pool.close()


def is_missing(_address: str) -> bool:
    """A database on a server is never missing the way a deleted file is: losing it answers
    each request as unreachable instead."""
    return False


def make_ready(_address: str) -> None:
    """Nothing to make: the database exists once its URL is given, and answered `migrating`."""


class Migrating:
    """The session-level lock one process holds while it migrates the database, on a
    connection of its own: the others wait for it, then find nothing left to do."""

    def __init__(self, address: str) -> None:
        try:
            self.conn = psycopg.connect(address, autocommit=True, connect_timeout=BUSY_SECONDS)
            self.conn.execute(f"SELECT pg_advisory_lock({MIGRATE_LOCK})")
        except psycopg.Error as error:
            raise fault(error) from error

    def close(self) -> None:
        """Let the others in."""
        self.conn.close()


def migrating(address: str) -> Migrating:
    """Hold the lock that lets one process migrate the database while the others wait.

    :raises Unavailable: the database can't be reached.
    """
    return Migrating(address)


def checkpoint(_db: Any) -> None:
    """Nothing to do: PostgreSQL writes its own log out as it goes."""


IMPORT_LOCK = "hashtextextended('tablescore import ' || ?, 0)"
"""The advisory lock an import's holder takes, named by the holder."""


def hold_import(db: Any, holder: str) -> psycopg.Connection:
    """Take the lock an import's process holds while it stores, on a session of its own: the
    database lets go of it when that session ends, however the process ends."""
    held = psycopg.connect(db.address, autocommit=True)
    held.execute(marked(f"SELECT pg_advisory_lock({IMPORT_LOCK})"), [holder])
    return held


def import_held(db: Any, holder: str) -> bool:
    """Say whether some session still holds an import's lock (trying it, and letting go)."""
    taken = db.execute(f"SELECT pg_try_advisory_lock({IMPORT_LOCK})", [holder]).fetchone()[0]
    if taken:
        db.execute(f"SELECT pg_advisory_unlock({IMPORT_LOCK})", [holder])
    return not taken


def release_import(held: psycopg.Connection) -> None:
    """Let go of an ended import's lock: its session ends."""
    held.close()
