"""Copying a whole database into another, on either engine: SQLite into PostgreSQL when a
site moves to several servers, PostgreSQL into an SQLite file to come back or keep a backup.

Every row is copied as stored, ids included, so every match, its rounds and its change log
are the same rows on the other side; the use-case replays them there to prove it
(`scorebook.moving`).
"""

from __future__ import annotations

from .database import Database, engine_of, opened, reading, writing
from .migrations import prepare

COPIED = (
    "circles",
    "events",
    "event_entrants",
    "event_rounds",
    "matches",
    "seats",
    "rounds",
    "changes",
    "scorers",
    "handoffs",
    "side_phones",
    "replays",
    "starts",
    "players",
    "records",
    "rivalries",
    "renames",
    "results",
    "tries",
)
"""Every table that holds a site's data, in an order their foreign keys allow inserting;
imports under way are never copied (`copy_database` waits for none)."""
BATCH = 1000
"""Rows inserted at once."""


class NotEmpty(Exception):
    """The database to copy into already holds matches, events or players: a copy never
    mixes two sites' data, nor replaces what one holds."""


class ImportUnderWay(Exception):
    """The database to copy is importing matches: copy it once the import ends."""


def copy_database(source: str, target: str) -> dict[str, int]:
    """Copy every row of the database at `source` into the one at `target` (made and migrated
    first if it is new), as one read and one change; return how many rows of each table.

    :raises NotEmpty: the target holds data already; nothing was copied.
    :raises ImportUnderWay: the source is importing; nothing was copied.
    :raises Fault: either database failed; nothing was copied.
    """
    prepare(source)
    prepare(target)
    with opened(source, None) as read, opened(target, None) as written:
        with reading(read), writing(written):
            if read.execute("select 1 from imports limit 1").fetchone():
                raise ImportUnderWay(source)
            if any(
                written.execute(f"select 1 from {table} limit 1").fetchone()
                for table in ("matches", "events", "players")
            ):
                raise NotEmpty(target)
            # The first circle every new database has is replaced by the source's.
            written.execute("delete from circles")
            copied = {table: copy_table(read, written, table) for table in COPIED}
            engine_of(target).renumber(written, COPIED)
    return copied


def copy_table(read: Database, written: Database, table: str) -> int:
    """Copy every row of one table; return how many."""
    cursor = read.execute(f"select * from {table}")
    columns = [column[0] for column in cursor.description]
    marks = ", ".join("?" * len(columns))
    insert = f"insert into {table} ({', '.join(columns)}) values ({marks})"
    count = 0
    while batch := cursor.fetchmany(BATCH):
        written.executemany(insert, batch)
        count += len(batch)
    return count


def backup(address: str, target: str) -> None:
    """Copy the database into the SQLite file `target`, safe while phones score: SQLite's
    online backup of a file, or a copy of every row of a PostgreSQL database.

    :raises NotEmpty: `target` is a Tablescore file holding data already.
    :raises Fault: either database could not be read or written.
    """
    engine = engine_of(address)
    if engine.NAME == "sqlite":
        engine.backup(address, target)
    else:
        copy_database(address, target)
