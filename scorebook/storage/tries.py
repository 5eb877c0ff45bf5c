"""Storage of the tries counted per phone at the doors a guess could open, in the database
itself: every server process counts the same tries.

Counts are fixed windows (Flask-Limiter's default strategy): a key's count grows until its
window closes, and the next try starts a new window.
"""

from __future__ import annotations

import time

from .database import opened, writing

COUNT = """
    insert into tries (key, count, expires) values (:key, :amount, :now + :window)
    on conflict (key) do update set
        count = CASE WHEN tries.expires <= :now THEN :amount ELSE tries.count + :amount END,
        expires = CASE WHEN tries.expires <= :now THEN :now + :window ELSE tries.expires END
    returning count
"""
"""Add to a count, or start it again once its window closed: one statement, so two processes
counting at once both count."""


def count_try(database: str, key: str, window: float, amount: int = 1) -> int:
    """Count `amount` more tries of `key` in its window of `window` seconds; return them all."""
    now = time.time()
    with opened(database, None) as db, writing(db):
        db.execute("delete from tries where expires <= ?", [now])
        row = db.execute(
            COUNT, {"key": key, "amount": amount, "now": now, "window": float(window)}
        ).fetchone()
    return row[0]


def tries_of(database: str, key: str) -> int:
    """Return the tries of `key` in its window still open (0 once it closed)."""
    with opened(database, None) as db:
        query = "select count from tries where key = ? and expires > ?"
        row = db.execute(query, [key, time.time()]).fetchone()
    return row[0] if row else 0


def window_closes(database: str, key: str) -> float | None:
    """Return when the window of `key` closes (a Unix time), or None if it has none."""
    with opened(database, None) as db:
        row = db.execute("select expires from tries where key = ?", [key]).fetchone()
    return row[0] if row else None


def forget_tries(database: str, key: str | None = None) -> int:
    """Forget the count of `key`, or every count; return how many were forgotten."""
    with opened(database, None) as db, writing(db):
        if key is None:
            return db.execute("delete from tries").rowcount
        return db.execute("delete from tries where key = ?", [key]).rowcount
