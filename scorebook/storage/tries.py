"""SQLite storage of the tries counted per phone at the doors a guess could open, in the
database file itself: every server process counts the same tries.

Counts are fixed windows (Flask-Limiter's default strategy): a key's count grows until its
window closes, and the next try starts a new window.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager

COUNT = """
    insert into tries (key, count, expires) values (:key, :amount, :now + :window)
    on conflict (key) do update set
        count = CASE WHEN expires <= :now THEN :amount ELSE count + :amount END,
        expires = CASE WHEN expires <= :now THEN :now + :window ELSE expires END
    returning count
"""
"""Add to a count, or start it again once its window closed: one statement, so two processes
counting at once both count."""


@contextmanager
def connected(database: str) -> Iterator[sqlite3.Connection]:
    """Open the database for one count, each statement its own transaction, waiting for a
    change under way as changes do."""
    with closing(sqlite3.connect(database, timeout=30, isolation_level=None)) as db:
        yield db


def count_try(database: str, key: str, window: float, amount: int = 1) -> int:
    """Count `amount` more tries of `key` in its window of `window` seconds; return them all."""
    now = time.time()
    with connected(database) as db:
        db.execute("delete from tries where expires <= ?", [now])
        row = db.execute(
            COUNT, {"key": key, "amount": amount, "now": now, "window": window}
        ).fetchone()
    return row[0]


def tries_of(database: str, key: str) -> int:
    """Return the tries of `key` in its window still open (0 once it closed)."""
    with connected(database) as db:
        row = db.execute(
            "select count from tries where key = ? and expires > ?", [key, time.time()]
        ).fetchone()
    return row[0] if row else 0


def window_closes(database: str, key: str) -> float | None:
    """Return when the window of `key` closes (a Unix time), or None if it has none."""
    with connected(database) as db:
        row = db.execute("select expires from tries where key = ?", [key]).fetchone()
    return row[0] if row else None


def forget_tries(database: str, key: str | None = None) -> int:
    """Forget the count of `key`, or every count; return how many were forgotten."""
    with connected(database) as db:
        if key is None:
            return db.execute("delete from tries").rowcount
        return db.execute("delete from tries where key = ?", [key]).rowcount
