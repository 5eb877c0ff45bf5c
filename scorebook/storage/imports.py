"""Imports under way, kept out of sight: the import rows, the lock an importing process holds
(the engine says where), and dropping what a dead import left.
"""

from __future__ import annotations

import secrets
from typing import Any

from .database import Database, add, circle_of
from .player_book import count_for_players, note_results

IMPORTED_ROWS = ("changes", "replays", "rounds", "scorers", "handoffs", "starts", "seats")
"""Every table holding rows of a match, in an order their foreign keys allow deleting."""
HELD_IMPORTS: dict[int, tuple[Any, Any]] = {}
"""The engine and the lock of each import this process is storing, held until it ends."""


def importing(db: Database) -> bool:
    """Say whether an import is under way (or died and awaits dropping)."""
    return db.execute("select 1 from imports limit 1").fetchone() is not None


def begin_import(db: Database, at: str) -> int:
    """Drop imports whose process is gone, and start keeping a new one, held by this process.

    The process storing an import holds a lock of its own (a file beside an SQLite database,
    a session's advisory lock on PostgreSQL); the system lets go of it when the process ends,
    however it ends (kill -9 included), so an import whose lock is free is dead, and its
    hidden rows can go at once.
    """
    drop_dead_imports(db)
    holder = secrets.token_hex(16)
    held = db.engine.hold_import(db, holder)
    import_id = add(db, "imports", {"started_utc": at, "touched_utc": at, "holder": holder})
    HELD_IMPORTS[import_id] = (db.engine, held)
    return import_id


def stored_under(db: Database, uid: str) -> tuple[int, int | None, str | None] | None:
    """Return the match of the circle stored under this uid, if one is: its id, the import
    still bringing it in (None once it is in sight), and the holder of that import's lock.
    Another circle's match under the same uid is another match."""
    query = (
        "select m.id, m.import_id, i.holder from matches m "
        "left join imports i on i.id = m.import_id where m.circle_id = ? and m.uid = ?"
    )
    return db.execute(query, [circle_of(db), uid]).fetchone()


def holder_alive(db: Database, holder: str | None) -> bool:
    """Say whether the process storing an import still holds its lock."""
    return holder is not None and db.engine.import_held(db, holder)


def drop_dead_imports(db: Database) -> bool:
    """Drop every import whose process is gone, with its hidden rows; say if one was.

    Run inside a change (the write lock held): an import can't finish meanwhile.
    """
    dead = [
        import_id
        for import_id, holder in db.execute("select id, holder from imports").fetchall()
        if not holder_alive(db, holder)
    ]
    for import_id in dead:
        drop_import(db, import_id)
    return bool(dead)


def checkpoint(db: Database) -> None:
    """Let the engine write out what a large writer wrote so far, without waiting for anyone
    (SQLite's WAL), so a phone's commit never pays for it."""
    db.engine.checkpoint(db)


def release_import(import_id: int) -> None:
    """Release an ended import's lock, once its end is committed."""
    held = HELD_IMPORTS.pop(import_id, None)
    if held is not None:
        engine, lock = held
        engine.release_import(lock)


def finish_import(db: Database, import_id: int) -> None:
    """Bring every match of the import into sight at once, counted for its players."""
    ids = "select id from matches where import_id = :import"
    db.execute(
        f"update seats set player_key = name_key where match_id in ({ids})", {"import": import_id}
    )
    count_for_players(db, "m.import_id = :import", {"import": import_id, "sign": 1})
    note_results(db, "m.import_id = :import", {"import": import_id})
    db.execute("update matches set import_id = null where import_id = ?", [import_id])
    db.execute("delete from imports where id = ?", [import_id])


def drop_import(db: Database, import_id: int) -> None:
    """Forget every match an import stored before it failed: none was ever in sight."""
    ids = "select id from matches where import_id = :import"
    for table in IMPORTED_ROWS:
        db.execute(f"delete from {table} where match_id in ({ids})", {"import": import_id})
    db.execute("delete from matches where import_id = ?", [import_id])
    db.execute("delete from imports where id = ?", [import_id])
