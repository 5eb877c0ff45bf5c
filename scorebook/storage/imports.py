"""Imports under way, kept out of sight: the import rows, the lock file an importing process
holds beside the database, and dropping what a dead import left.
"""

from __future__ import annotations

import fcntl
import secrets
from pathlib import Path
from typing import IO

from sqlite_utils import Database

from .database import add, circle_of, path_of
from .player_book import RECORDS_TALLY, RIVALRIES_TALLY, note_results

IMPORTED_ROWS = ("changes", "replays", "rounds", "scorers", "handoffs", "starts", "seats")
"""Every table holding rows of a match, in an order their foreign keys allow deleting."""
HELD_IMPORTS: dict[int, IO[str]] = {}
"""The lock file of each import this process is storing, held open (and locked) until it ends."""


def importing(db: Database) -> bool:
    """Say whether an import is under way (or died and awaits dropping)."""
    return db.execute("select 1 from imports limit 1").fetchone() is not None


def begin_import(db: Database, at: str) -> int:
    """Drop imports whose process is gone, and start keeping a new one, held by this process.

    The process storing an import holds a lock on a file of its own beside the database; the
    system lets go of it when the process ends, however it ends (kill -9 included), so an
    import whose lock is free is dead, and its hidden rows can go at once.
    """
    drop_dead_imports(db)
    holder = secrets.token_hex(16)
    held = open(holder_file(db, holder), "w")  # noqa: SIM115 - held until the import ends
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    import_id = add(db, "imports", {"started_utc": at, "touched_utc": at, "holder": holder})
    HELD_IMPORTS[import_id] = held
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


def holder_file(db: Database, holder: str) -> str:
    """Name the lock file an import's process holds while it stores its matches."""
    return f"{path_of(db)}.import-{holder}.lock"


def holder_alive(db: Database, holder: str | None) -> bool:
    """Say whether the process storing an import still holds its lock; forget it if not."""
    if holder is None:
        return False
    path = holder_file(db, holder)
    try:
        probe = open(path)  # noqa: SIM115 - closed below, whatever the answer
    except FileNotFoundError:
        return False
    with probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
    Path(path).unlink(missing_ok=True)
    return False


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
    """Copy what the WAL holds into the database file without waiting for anyone: done by a
    large writer as it goes, so a phone's commit never meets a WAL past SQLite's threshold and
    pays for copying it."""
    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def release_import(import_id: int) -> None:
    """Release an ended import's lock file, once its end is committed."""
    held = HELD_IMPORTS.pop(import_id, None)
    if held is not None:
        Path(held.name).unlink(missing_ok=True)
        held.close()


def finish_import(db: Database, import_id: int) -> None:
    """Bring every match of the import into sight at once, counted for its players."""
    ids = "select id from matches where import_id = :import"
    db.execute(
        f"update seats set player_key = name_key where match_id in ({ids})", {"import": import_id}
    )
    for query in (RECORDS_TALLY, RIVALRIES_TALLY):
        db.execute(query.format(matches="m.import_id = :import"), {"import": import_id, "sign": 1})
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
