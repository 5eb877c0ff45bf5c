"""Circles as stored: each group's name and the digest of its key, and taking a circle away
with everything it holds.

Only a key's SHA-256 is kept, as for scorer tokens: the key itself is shown when it is made.
"""

from __future__ import annotations

from typing import Any

from .database import Database, add, rows, update

MATCH_ROWS = ("changes", "replays", "rounds", "scorers", "handoffs", "side_phones", "seats")
"""Every table holding rows of a match, in an order their foreign keys allow deleting."""
CIRCLE_ROWS = ("starts", "matches", "players", "records", "rivalries", "renames", "results")
"""Every table holding a circle's own rows, after its matches' and events' rows are gone."""


def insert_circle(db: Database, name: str, key_sha256: str, at: str) -> int:
    """Store a new circle under the digest of its key, and return its id."""
    row = {"name": name, "key_sha256": key_sha256, "created_utc": at, "keyed_utc": at}
    return add(db, "circles", row)


def circle_keyed(db: Database, key_sha256: str) -> dict[str, Any] | None:
    """Return the circle (its id, name and key digest) whose key has this digest, or None.

    The digest is found through a unique index, the same one read whether the key is known or
    not; comparing digests says nothing of the key a guess came close to.
    """
    query = "select id, name, key_sha256 from circles where key_sha256 = ? and leaving_utc is null"
    found = rows(db, query, [key_sha256])
    return found[0] if found else None


def get_circle(db: Database, circle_id: int) -> dict[str, Any] | None:
    """Return a circle's row (its id, name, when it was made and last given a key), or None."""
    query = (
        "select id, name, created_utc, keyed_utc from circles where id = ? and leaving_utc is null"
    )
    found = rows(db, query, [circle_id])
    return found[0] if found else None


def circle_names(db: Database, key_digests: list[str]) -> dict[str, dict[str, Any]]:
    """Map each of these key digests still in use to its circle (id and name): the circles a
    phone joined, as their keys now stand."""
    marks = ", ".join("?" * len(key_digests))
    query = (
        "select key_sha256, id, name from circles "
        f"where key_sha256 in ({marks}) and leaving_utc is null"
    )
    return {row.pop("key_sha256"): row for row in rows(db, query, key_digests)}


def set_circle_key(db: Database, circle_id: int, key_sha256: str, at: str) -> None:
    """Give a circle a new key: the old one opens nothing from now on."""
    update(db, "circles", circle_id, {"key_sha256": key_sha256, "keyed_utc": at})


def rename_circle(db: Database, circle_id: int, name: str) -> None:
    """Give a circle a new name."""
    update(db, "circles", circle_id, {"name": name})


def circle_ids(db: Database) -> list[int]:
    """Return the id of every circle of the site, oldest first."""
    return [row[0] for row in db.execute("select id from circles order by id")]


def circle_counts(db: Database, circle_id: int) -> dict[str, int]:
    """Count what a circle holds: its matches in sight, players and events."""
    # All of the circle's matches through its index alone, less the few an import is bringing.
    query = """
        select
            (select count(*) from matches where circle_id = :c)
            - (select count(*) from matches where import_id is not null and +circle_id = :c),
            (select count(*) from players where circle_id = :c),
            (select count(*) from events where circle_id = :c)
    """
    found = db.execute(query, {"c": circle_id}).fetchone()
    return dict(zip(("matches", "players", "events"), found, strict=True))


def circle_of_match(db: Database, match_id: int) -> int | None:
    """Return the circle a match belongs to, whoever asks: what a match's live link opens."""
    found = db.execute("select circle_id from matches where id = ?", [match_id]).fetchone()
    return found[0] if found else None


def delete_circle(db: Database, circle_id: int, at: str) -> None:
    """Take a circle away with every match, round, log, player, rating and event it holds.

    Marked as leaving first, inside the same change: the logs, which refuse every other
    delete, let this one through (m013).
    """
    update(db, "circles", circle_id, {"leaving_utc": at, "key_sha256": None})
    params = {"c": circle_id}
    ids = "select id from matches where circle_id = :c"
    for table in MATCH_ROWS:
        db.execute(f"delete from {table} where match_id in ({ids})", params)
    events = "select id from events where circle_id = :c"
    for table in ("event_entrants", "event_rounds"):
        db.execute(f"delete from {table} where event_id in ({events})", params)
    for table in CIRCLE_ROWS:
        db.execute(f"delete from {table} where circle_id = :c", params)
    db.execute("delete from events where circle_id = :c", params)
    db.execute("delete from circles where id = :c", params)
