"""SQLite storage: matches, their seats, rounds as entered, and the append-only change log.

Storage knows nothing of the rules: it keeps what the table entered and the cached result of
the last replay, which `matches.py` rewrites in the same transaction as every change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
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
        {
            "match_id": match_id,
            "seat": seat,
            "name": name,
            "name_key": name.casefold(),
            "player_key": name.casefold(),
        }
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
    device: str | None = None
    """The label of the phone that made the change."""


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
            "device": change.device,
        }
    )


def replayed_round(db: Database, match_id: int, key: str) -> int | None:
    """Return the round a request with this idempotency key already made, if any."""
    rows = list(
        db.query("select round_id from replays where match_id = ? and key = ?", [match_id, key])
    )
    return rows[0]["round_id"] if rows else None


def remember_key(db: Database, match_id: int, key: str, round_id: int, at: str) -> None:
    """Note which round a request's idempotency key made."""
    db.table("replays").insert(
        {"match_id": match_id, "key": key, "round_id": round_id, "at_utc": at}
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
    since: date | None = None,
    until: date | None = None,
    page: int = 1,
    per_page: int = PAGE_SIZE,
) -> tuple[list[dict[str, Any]], int]:
    """Return one page of matches, newest first, and how many match the filters in all.

    `since` and `until` are UTC days, both included, of the match's creation.
    """
    where, params = [], []
    if game:
        where.append("game = ?")
        params.append(game)
    if status:
        where.append("status = ?")
        params.append(status)
    if player:
        where.append("id in (select match_id from seats where player_key = ?)")
        params.append(player.strip().casefold())
    if since:
        where.append("created_utc >= ?")
        params.append(since.isoformat())
    if until:
        # Stored times sort as text, so "before the next day" takes all of the last one.
        where.append("created_utc < ?")
        params.append((until + timedelta(days=1)).isoformat())
    clause = f"where {' and '.join(where)}" if where else ""
    total = next(db.query(f"select count(*) as n from matches {clause}", params))["n"]
    rows = db.query(
        f"select * from matches {clause} order by id desc limit ? offset ?",
        [*params, per_page, (page - 1) * per_page],
    )
    return [decoded(row) for row in rows], total


def player_seats(db: Database, player_key: str | None = None) -> list[dict[str, Any]]:
    """Return seats with their match's cached row, newest match first; one player's if given.

    Each row is the decoded match plus the seat's `seat_name` and `player_key`.
    """
    clause, params = ("where s.player_key = ?", [player_key]) if player_key else ("", [])
    rows = db.query(
        "select s.name as seat_name, s.player_key, m.* from seats s "
        f"join matches m on m.id = s.match_id {clause} order by m.id desc, s.seat",
        params,
    )
    return [decoded(row) for row in rows]


def table_mates(db: Database, player_key: str) -> list[dict[str, Any]]:
    """Return every seat of the matches a player sat in, theirs included."""
    return list(
        db.query(
            "select match_id, name, player_key from seats where match_id in "
            "(select match_id from seats where player_key = ?) order by match_id, seat",
            [player_key],
        )
    )


def spellings(db: Database) -> list[str]:
    """Return every name players were given, oldest first: typed at a table, or by a rename."""
    # A seat spells its player's name only while it still belongs to the name typed on it.
    query = """
        select s.name, m.created_utc as at, 0 as renamed from seats s
        join matches m on m.id = s.match_id where s.name_key = s.player_key
        union all select to_name, at_utc, 1 from renames
        order by at, renamed
    """
    return [row["name"] for row in db.query(query)]


def has_player(db: Database, player_key: str) -> bool:
    """Say whether anyone with this key has sat at a table."""
    return any(db.query("select 1 from seats where player_key = ? limit 1", [player_key]))


def shared_matches(db: Database, player_key: str, other_key: str) -> int:
    """Count the matches two players both sat in."""
    query = (
        "select count(*) as n from seats a join seats b on b.match_id = a.match_id "
        "where a.player_key = ? and b.player_key = ?"
    )
    return next(db.query(query, [player_key, other_key]))["n"]


def rename_player(db: Database, player_key: str, to_name: str, at: str) -> None:
    """Move a player's seats to the key of their new name, and log the rename."""
    db.execute(
        "update seats set player_key = ? where player_key = ?", [to_name.casefold(), player_key]
    )
    db.table("renames").insert({"from_key": player_key, "to_name": to_name, "at_utc": at})


def match_ids(db: Database) -> list[int]:
    """Return the id of every match, oldest first."""
    return [row["id"] for row in db.query("select id from matches order by id")]


def round_records(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return every round ever entered in a match, removed ones too, in the order entered."""
    return [
        decoded(row)
        for row in db.query("select * from rounds where match_id = ? order by id", [match_id])
    ]


def has_uid(db: Database, uid: str) -> bool:
    """Say whether a match with this uid is stored already."""
    return any(db.query("select 1 from matches where uid = ?", [uid]))
