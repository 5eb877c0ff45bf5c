"""SQLite storage: matches, their seats, rounds as entered, and the append-only change log.

Storage knows nothing of the rules: it keeps what the table entered and the cached result of
the last replay, which `matches.py` rewrites in the same transaction as every change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from migrations import migrations

PAGE_SIZE = 20


def now_utc() -> str:
    """Return the current UTC time as stored: ISO 8601 to the second, with a Z."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def prepare(path: str) -> None:
    """Create the database file if needed, switch it to WAL once, and apply migrations."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        db.enable_wal()
        migrations.apply(db)
    finally:
        db.close()


def connect(path: str) -> Database:
    """Open a connection with foreign keys enforced, as every connection must."""
    db = Database(path)
    db.execute("PRAGMA foreign_keys = ON")
    return db


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


def insert_match(
    db: Database,
    *,
    uid: str,
    game: str,
    options: dict,
    players: Iterable[str],
    teams: Any,
    totals: dict,
    at: str,
) -> int:
    """Store a new match with its seats, and the totals it starts from."""
    players = list(players)
    match_id = (
        db.table("matches")
        .insert(
            {
                "uid": uid,
                "game": game,
                "options_json": json.dumps(options),
                "players_json": json.dumps(players),
                "teams_json": None if teams is None else json.dumps(teams),
                "created_utc": at,
                "updated_utc": at,
                "status": "playing",
                "winner": None,
                "totals_json": json.dumps(totals),
                "rounds_played": 0,
            }
        )
        .last_pk
    )
    db.table("seats").insert_all(
        {"match_id": match_id, "seat": seat, "name": name, "name_key": name.casefold()}
        for seat, name in enumerate(players)
    )
    return match_id


def get_match(db: Database, match_id: int) -> dict[str, Any] | None:
    """Return a match row with its JSON columns decoded, or None."""
    rows = list(db.query("select * from matches where id = ?", [match_id]))
    return decoded(rows[0]) if rows else None


def decoded(row: dict[str, Any]) -> dict[str, Any]:
    """Decode every *_json column of a row into its value, under the name without _json."""
    return {
        (key[: -len("_json")] if key.endswith("_json") else key): (
            json.loads(value) if key.endswith("_json") and value is not None else value
        )
        for key, value in row.items()
    }


def live_rounds(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return the rounds that count, in the order they were entered."""
    return [
        decoded(row)
        for row in db.query(
            "select * from rounds where match_id = ? and removed_utc is null order by id",
            [match_id],
        )
    ]


def insert_round(db: Database, match_id: int, entered: dict, at: str) -> int:
    """Store a new round as entered."""
    row = {"match_id": match_id, "input_json": json.dumps(entered), "entered_utc": at}
    return db.table("rounds").insert(row).last_pk


def replace_round(db: Database, round_id: int, entered: dict, at: str) -> None:
    """Store a correction as the round's input; the log keeps the version it replaces."""
    db.table("rounds").update(round_id, {"input_json": json.dumps(entered), "corrected_utc": at})


def mark_removed(db: Database, round_id: int, at: str) -> None:
    """Take a round out of play without forgetting it."""
    db.table("rounds").update(round_id, {"removed_utc": at})


@dataclass(frozen=True)
class Change:
    """One entry of a match's change log: what was done to which round, and when."""

    action: str
    n: int
    round_id: int
    entered: dict | None
    replaced: dict | None
    at: str


def log_change(db: Database, match_id: int, change: Change) -> None:
    """Append one change to the match's log."""
    db.table("changes").insert(
        {
            "match_id": match_id,
            "round_id": change.round_id,
            "action": change.action,
            "n": change.n,
            "input_json": None if change.entered is None else json.dumps(change.entered),
            "replaced_json": None if change.replaced is None else json.dumps(change.replaced),
            "at_utc": change.at,
        }
    )


def changes(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return every change made to a match, oldest first."""
    return [
        decoded(row)
        for row in db.query("select * from changes where match_id = ? order by id", [match_id])
    ]


def cache_result(
    db: Database,
    match_id: int,
    *,
    totals: dict,
    status: str,
    winner: str | None,
    rounds_played: int,
    at: str,
) -> None:
    """Keep the match's totals, status and winner as the latest replay found them."""
    db.table("matches").update(
        match_id,
        {
            "totals_json": json.dumps(totals),
            "status": status,
            "winner": winner,
            "rounds_played": rounds_played,
            "updated_utc": at,
        },
    )


def find_matches(
    db: Database,
    *,
    game: str | None = None,
    player: str | None = None,
    status: str | None = None,
    page: int = 1,
    per_page: int = PAGE_SIZE,
) -> tuple[list[dict[str, Any]], int]:
    """Return one page of matches, newest first, and how many match the filters in all."""
    where, params = [], []
    if game:
        where.append("game = ?")
        params.append(game)
    if status:
        where.append("status = ?")
        params.append(status)
    if player:
        where.append("id in (select match_id from seats where name_key = ?)")
        params.append(player.strip().casefold())
    clause = f"where {' and '.join(where)}" if where else ""
    total = next(db.query(f"select count(*) as n from matches {clause}", params))["n"]
    rows = db.query(
        f"select * from matches {clause} order by id desc limit ? offset ?",
        [*params, per_page, (page - 1) * per_page],
    )
    return [decoded(row) for row in rows], total
