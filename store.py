"""SQLite storage: matches, their seats, rounds as entered, and the append-only change log.

Storage knows nothing of the rules: it keeps what the table entered and the cached result of
the last replay, which `matches.py` rewrites in the same transaction as every change.
"""

from __future__ import annotations

import fcntl
import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, Any

import orjson
from sqlite_utils import Database

from migrations import migrations

PAGE_SIZE = 20
FINISHED = "finished"
"""A match's status once it is over (the scorers' own word for it)."""


STAMP = "%Y-%m-%dT%H:%M:%SZ"
"""How times are stored: UTC, ISO 8601 to the second, with a Z."""


def now_utc() -> str:
    """Return the current UTC time as stored."""
    return datetime.now(UTC).strftime(STAMP)


def prepare(path: str) -> None:
    """Create the database file if needed, switch it to WAL once, apply migrations, and drop
    what dead imports left.

    Several server processes may start at once over one file: a lock beside it lets one
    migrate while the others wait, then find nothing left to do.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(f"{path}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        db = connect(path)
        try:
            db.enable_wal()
            migrations.apply(db)
            # An import whose process died (a crash, kill -9) left its hidden rows.
            with writing(db):
                drop_dead_imports(db)
        finally:
            db.close()


BUSY_SECONDS = 30
"""How long a change waits for another to finish (a large import) before it gives up."""


HELD_FILES = 4
"""Files held open at once in one process: a server has one; tests make many, one at a time."""

HELD: OrderedDict[str, sqlite3.Connection] = OrderedDict()
HOLDING = threading.Lock()


def hold_open(path: str) -> None:
    """Keep a read-only connection to the file open for as long as the process serves it.

    In WAL mode the last connection to close checkpoints the file and deletes its WAL, and the
    next to open builds them again: a third of a post at a quiet table, where each request's
    connection is the only one. A read-only connection never checkpoints, so holding one open
    is safe, even if the file is replaced under it.
    """
    with HOLDING:
        if path in HELD:
            HELD.move_to_end(path)
            return
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        HELD[path] = sqlite3.connect(uri, uri=True, check_same_thread=False)
        HELD[path].execute("select count(*) from sqlite_master").fetchone()
        if len(HELD) > HELD_FILES:
            HELD.popitem(last=False)[1].close()


def connect(path: str) -> Database:
    """Open a connection with foreign keys enforced, as every connection must."""
    db = Database(sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False))
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


@contextmanager
def reading(db: Database) -> Iterator[None]:
    """Read as of one moment: every read inside sees the same state, whatever is written
    meanwhile (WAL gives a read transaction its snapshot). Inside a change, that change's."""
    if db.conn.in_transaction:
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        db.conn.rollback()


def insert_match(
    db: Database,
    *,
    uid: str,
    game: str,
    options: dict,
    variant: dict,
    players: Iterable[str],
    teams: Any,
    totals: dict,
    at: str,
    rematch_of: int | None = None,
    import_id: int | None = None,
    event: tuple[int, int, int] | None = None,
) -> int:
    """Store a new match with its seats, the totals it starts from, and what it counts for
    its players; `variant` holds the options that keep its statistics apart.

    A match brought in by an import under way (`import_id`) counts for nobody yet: its seats
    wait under no player's key until `finish_import`. A match of an event names its event,
    round and table (`event`).
    """
    players = list(players)
    match_id = (
        db.table("matches")
        .insert(
            {
                "uid": uid,
                "game": game,
                "options_json": json.dumps(options),
                "variant_json": json.dumps(variant, sort_keys=True),
                "players_json": json.dumps(players),
                "teams_json": None if teams is None else json.dumps(teams),
                "created_utc": at,
                "updated_utc": at,
                "status": "playing",
                "winner": None,
                "totals_json": json.dumps(totals),
                "rounds_played": 0,
                "rematch_of": rematch_of,
                "import_id": import_id,
                "played_at": at,
                **dict(zip(("event_id", "event_round", "event_table"), event or (), strict=False)),
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
            "player_key": UNSEEN if import_id else name.casefold(),
            "side": side_of(name, teams),
        }
        for seat, name in enumerate(players)
    )
    # The name typed last is the one shown.
    db.conn.executemany(
        """
        INSERT INTO players (key, name, named_utc) VALUES (?, ?, ?)
        ON CONFLICT (key) DO UPDATE SET
            name = iif(excluded.named_utc >= named_utc, excluded.name, name),
            named_utc = max(named_utc, excluded.named_utc)
        """,
        [(name.casefold(), name, at) for name in players],
    )
    if import_id is None:
        tally(db, match_id, 1)
    return match_id


UNSEEN = ""
"""The player key of a seat whose match an import is still bringing in: no name has it."""


def side_of(name: str, teams: dict[str, list[str]] | None) -> str:
    """Return who a seated name scores for: their team, or themselves."""
    return next((team for team, members in (teams or {}).items() if name in members), name)


def path_of(db: Database) -> str:
    """Return the file a connection reads: replays kept in memory are told apart by it.

    Asked once per connection: every change and every page asks it.
    """
    if not hasattr(db, "file"):
        db.file = db.execute("pragma database_list").fetchone()[2]
    return db.file


def rows(db: Database, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Read rows as dictionaries, without the savepoint sqlite-utils' query wraps each read
    in: the reads of every change and every page go through here."""
    cursor = db.execute(sql, params)
    columns = [column[0] for column in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def match_version(db: Database, match_id: int) -> int:
    """Return how many changes a match has had: every change moves its version on."""
    query = "select count(*) from changes where match_id = ?"
    return db.execute(query, [match_id]).fetchone()[0]


def match_stamp(db: Database, match_id: int) -> tuple[str, int] | None:
    """Return a match's uid and version in one read, or None: all a watcher's "anything
    new?" costs when nothing changed."""
    query = (
        "select uid, (select count(*) from changes c where c.match_id = m.id) from matches m "
        "where m.id = ? and m.import_id is null"
    )
    return db.execute(query, [match_id]).fetchone()


def get_match(db: Database, match_id: int) -> dict[str, Any] | None:
    """Return a match row with its JSON columns decoded, or None."""
    found = rows(db, "select * from matches where id = ? and import_id is null", [match_id])
    return decoded(found[0]) if found else None


def decoded(row: dict[str, Any]) -> dict[str, Any]:
    """Decode every *_json column of a row into its value, under the name without _json."""
    return {
        (key[: -len("_json")] if key.endswith("_json") else key): (
            orjson.loads(value) if key.endswith("_json") and value is not None else value
        )
        for key, value in row.items()
    }


def live_rounds(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return the rounds that count, in the order they were entered, with their input decoded."""
    # Every change reads them all, so only the columns a replay needs are read and decoded.
    cursor = db.execute(
        "select id, input_json, entered_utc, corrected_utc, version, note from rounds "
        "where match_id = ? and removed_utc is null order by id",
        [match_id],
    )
    return [
        {
            "id": n,
            "input": orjson.loads(text),
            "entered_utc": entered,
            "corrected_utc": corrected,
            "version": version,
            "note": note,
        }
        for n, text, entered, corrected, version, note in cursor
    ]


def removed_rounds(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return the rounds taken out of a match and not put back, in the order they were removed."""
    # Numbered where each stood when it was last removed, as the log says.
    query = """
        select r.id, r.input_json, r.entered_utc, r.corrected_utc, r.removed_utc, r.version,
            r.note, (select c.n from changes c where c.round_id = r.id and c.action = 'remove'
             order by c.id desc limit 1) as n
        from rounds r where r.match_id = ? and r.removed_utc is not null
        order by r.removed_utc, r.id
    """
    return [decoded(row) for row in rows(db, query, [match_id])]


# Every change to a match writes through these two: sqlite-utils' own insert and update first
# read the table's schema, which costs a round more than its writes do.


def add(db: Database, table: str, row: dict[str, Any]) -> int:
    """Insert one row into a table whose columns are known, and return its rowid."""
    columns = ", ".join(row)
    marks = ", ".join("?" * len(row))
    sql = f"insert into {table} ({columns}) values ({marks})"
    return db.execute(sql, list(row.values())).lastrowid


def update(db: Database, table: str, row_id: int, values: dict[str, Any]) -> None:
    """Update some columns of one row, found by its id."""
    assignments = ", ".join(f"{column} = ?" for column in values)
    db.execute(f"update {table} set {assignments} where id = ?", [*values.values(), row_id])


def insert_round(db: Database, match_id: int, entered: dict, at: str) -> int:
    """Store a new round as entered."""
    row = {"match_id": match_id, "input_json": json.dumps(entered), "entered_utc": at}
    return add(db, "rounds", row)


def replace_round(db: Database, round_id: int, entered: dict, at: str) -> None:
    """Store a correction as the round's next version; the log keeps the version it replaces."""
    db.execute(
        "update rounds set input_json = ?, corrected_utc = ?, version = version + 1 where id = ?",
        [json.dumps(entered), at, round_id],
    )


def mark_removed(db: Database, round_id: int, at: str) -> None:
    """Take a round out of play without forgetting it."""
    update(db, "rounds", round_id, {"removed_utc": at})


def mark_restored(db: Database, round_id: int) -> None:
    """Put a removed round back in play; the log keeps when it was removed and restored."""
    update(db, "rounds", round_id, {"removed_utc": None})


@dataclass(frozen=True)
class Change:
    """One entry of a match's change log: what was done to which round, and when."""

    action: str
    n: int
    round_id: int | None
    entered: dict | None
    replaced: dict | None
    at: str
    device: str | None = None
    """The label of the phone that made the change."""


def log_change(db: Database, match_id: int, made: Change) -> None:
    """Append one change to the match's log."""
    add(
        db,
        "changes",
        {
            "match_id": match_id,
            "round_id": made.round_id,
            "action": made.action,
            "n": made.n,
            "input_json": None if made.entered is None else json.dumps(made.entered),
            "replaced_json": None if made.replaced is None else json.dumps(made.replaced),
            "at_utc": made.at,
            "device": made.device,
        },
    )


@dataclass(frozen=True)
class Request:
    """A change already made under an idempotency key: what it did, to which round."""

    action: str | None
    """add, correct or remove; None for a key kept before requests were told apart."""
    fingerprint: str | None
    round_id: int | None


def replayed_request(db: Database, match_id: int, key: str) -> Request | None:
    """Return the change a request with this idempotency key already made, if any."""
    query = "select action, fingerprint, round_id from replays where match_id = ? and key = ?"
    row = db.execute(query, [match_id, key]).fetchone()
    return Request(*row) if row else None


def remember_key(db: Database, match_id: int, key: str, made: Request, at: str) -> None:
    """Note which change a request's idempotency key made."""
    row = {"match_id": match_id, "key": key, "round_id": made.round_id, "at_utc": at}
    add(db, "replays", row | {"action": made.action, "fingerprint": made.fingerprint})


def started_with(db: Database, key: str) -> tuple[int, str] | None:
    """Return the match a start with this idempotency key made, and that start's fingerprint."""
    row = db.execute("select match_id, fingerprint from starts where key = ?", [key]).fetchone()
    return (row[0], row[1]) if row else None


def remember_start(db: Database, key: str, fingerprint: str, match_id: int, at: str) -> None:
    """Note which match a start's idempotency key made."""
    add(db, "starts", {"key": key, "fingerprint": fingerprint, "match_id": match_id, "at_utc": at})


def rematched_by(db: Database, match_id: int) -> int | None:
    """Return the match started as this one's rematch, if one was."""
    query = "select id from matches where rematch_of = ? order by id limit 1"
    row = db.execute(query, [match_id]).fetchone()
    return row[0] if row else None


def changes(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return every change made to a match, oldest first."""
    return [
        decoded(row)
        for row in db.query("select * from changes where match_id = ? order by id", [match_id])
    ]


def amendments(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return a match's corrections and removals, oldest first: what its sheet shows struck."""
    query = "select * from changes where match_id = ? and action != 'add' order by id"
    return [decoded(row) for row in db.query(query, [match_id])]


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
    """Keep the match's totals, status and winner as the latest replay found them, and what
    the match counts for its players with them."""
    query = "select status, winner, import_id, totals_json from matches where id = ?"
    before = db.execute(query, [match_id]).fetchone()
    # A match being played counts as played only, whatever its totals: most rounds leave the
    # players' records as they are. One an import is bringing in counts once it is in.
    recount = before[2] is None and (FINISHED in (before[0], status) or before[1] != winner)
    if recount:
        tally(db, match_id, -1)
    totals_json = json.dumps(totals)
    update(
        db,
        "matches",
        match_id,
        {
            "totals_json": totals_json,
            "status": status,
            "winner": winner,
            "rounds_played": rounds_played,
            "updated_utc": at,
        },
    )
    if recount:
        tally(db, match_id, 1)
    # Ratings move only with a finished result: a round of a match still played leaves them.
    changed = (before[0], before[1], before[3]) != (status, winner, totals_json)
    if recount and FINISHED in (before[0], status) and changed:
        add(db, "results", {"match_id": match_id})


RECORDS_TALLY = """
    insert into records (player_key, game, variant_json, matches, finished, wins, scored)
    select s.player_key, m.game, m.variant_json, :sign,
        :sign * (m.status = 'finished'),
        :sign * (m.status = 'finished' and m.winner is s.side),
        :sign * iif(m.status = 'finished',
            (select value from json_each(m.totals_json) where key = s.side), 0)
    from seats s join matches m on m.id = s.match_id where {matches}
    on conflict (player_key, game, variant_json) do update set
        matches = matches + excluded.matches, finished = finished + excluded.finished,
        wins = wins + excluded.wins, scored = scored + excluded.scored
"""

RIVALRIES_TALLY = """
    insert into rivalries (player_key, opponent_key, matches, wins, losses)
    select s.player_key, o.player_key, :sign, :sign * (m.winner is s.side),
        :sign * (m.winner is o.side)
    from seats s join seats o on o.match_id = s.match_id and o.side != s.side
    join matches m on m.id = s.match_id where {matches}
    on conflict (player_key, opponent_key) do update set
        matches = matches + excluded.matches, wins = wins + excluded.wins,
        losses = losses + excluded.losses
"""


def tally(db: Database, match_id: int, sign: int) -> None:
    """Add (sign 1) or take back (sign -1) what a match counts for each of its players: a
    match played, finished, won, its final total, and who they played it against."""
    for query in (RECORDS_TALLY, RIVALRIES_TALLY):
        db.execute(query.format(matches="s.match_id = :match"), {"match": match_id, "sign": sign})


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
    place: str | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Return one page of matches, newest first, and how many match the filters in all.

    `since` and `until` are UTC days, both included, of the match's creation. Each filter
    reads only its own rows: a player's through their seats, in the order they sat down; a
    range of days through the creation times, which then order the page.
    """
    where, params = [], []
    if player:
        source, order = "seats s join matches m on m.id = s.match_id", "s.match_id desc"
        where.append("s.player_key = ?")
        params.append(player.strip().casefold())
    elif since or until:
        source, order = "matches m", "m.created_utc desc, m.id desc"
    else:
        source, order = "matches m", "m.id desc"
    if game:
        where.append("m.game = ?")
        params.append(game)
    if status:
        where.append("m.status = ?")
        params.append(status)
    if place:
        where.append("m.place = ? COLLATE NOCASE")
        params.append(place.strip())
    if since:
        where.append("m.created_utc >= ?")
        params.append(since.isoformat())
    if until:
        # Stored times sort as text, so "before hour 24" takes all of the last day, and the
        # last day the calendar has (9999-12-31) needs no day after it.
        where.append("m.created_utc < ?")
        params.append(f"{until.isoformat()}T24")
    # A player's seats alone count their matches, when nothing else filters them: the seats
    # of an import under way are no player's. Other counts leave out an import's matches
    # only while one is under way, so the plain count reads no row.
    if player and len(where) == 1:
        counted = f"select count(*) from seats s where {where[0]}"
    else:
        counting = [*where, "m.import_id is null"] if importing(db) else where
        counted = f"select count(*) from {source} {where_clause(counting)}"
    total = db.execute(counted, params).fetchone()[0]
    clause = where_clause([*where, "m.import_id is null"])
    page_rows = rows(
        db,
        f"select m.* from {source} {clause} order by {order} limit ? offset ?",
        [*params, per_page, (page - 1) * per_page],
    )
    return [decoded(row) for row in page_rows], total


def where_clause(conditions: list[str]) -> str:
    """Join conditions into a where clause, or none when there are none."""
    return f"where {' and '.join(conditions)}" if conditions else ""


def players(db: Database) -> list[dict[str, Any]]:
    """Return every player: the name they go by, how many matches they played and won."""
    query = """
        select p.name, sum(r.matches) as matches, sum(r.wins) as wins
        from players p join records r on r.player_key = p.key group by p.key
    """
    return list(db.query(query))


def player_names(db: Database, keys: Iterable[str]) -> dict[str, str]:
    """Map each of these player keys to the name the player goes by."""
    keys = list(keys)
    marks = ", ".join("?" * len(keys))
    query = f"select key, name from players where key in ({marks})"
    return {row["key"]: row["name"] for row in db.query(query, keys)}


def records(db: Database, player_key: str) -> list[dict[str, Any]]:
    """Return a player's matches, finished ones, wins and final totals, per game variant."""
    query = "select * from records where player_key = ? and matches > 0"
    return [decoded(row) for row in db.query(query, [player_key])]


def rivals(db: Database, player_key: str) -> list[dict[str, Any]]:
    """Return, per opponent, the matches a player sat on the other side of, won and lost."""
    query = "select * from rivalries where player_key = ? and matches > 0"
    return list(db.query(query, [player_key]))


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
    """Move a player's seats to the key of their new name, count their matches for that key,
    and log the rename."""
    new_key = to_name.casefold()
    query = "select match_id from seats where player_key = ?"
    played = [row[0] for row in db.execute(query, [player_key]).fetchall()]
    for match_id in played:
        tally(db, match_id, -1)
    db.execute("update seats set player_key = ? where player_key = ?", [new_key, player_key])
    for match_id in played:
        tally(db, match_id, 1)
    if new_key != player_key:
        # The old key's counts are all zero now: it stands for nobody.
        db.execute("delete from records where player_key = ?", [player_key])
        db.execute("delete from rivalries where ? in (player_key, opponent_key)", [player_key])
    if new_key != player_key:
        note_results(db, "s.player_key = :player", {"player": new_key})
    db.execute("delete from players where key in (?, ?)", [player_key, new_key])
    add(db, "players", {"key": new_key, "name": to_name, "named_utc": at})
    add(db, "renames", {"from_key": player_key, "to_name": to_name, "at_utc": at})


def match_ids(db: Database) -> list[int]:
    """Return the id of every match, oldest first."""
    query = "select id from matches where import_id is null order by id"
    return [row["id"] for row in db.query(query)]


DETAILS = ("note", "place", "played_at")
"""What a match says of itself besides its rounds: a note, where and when it was played."""


def set_details(db: Database, match_id: int, values: dict[str, Any]) -> None:
    """Write some of a match's note, place and date."""
    update(db, "matches", match_id, {name: values[name] for name in DETAILS if name in values})


def set_round_note(db: Database, round_id: int, note: str | None) -> None:
    """Write a round's note (None takes it away)."""
    update(db, "rounds", round_id, {"note": note})


def round_records(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return every round ever entered in a match, removed ones too, in the order entered."""
    return [
        decoded(row)
        for row in db.query("select * from rounds where match_id = ? order by id", [match_id])
    ]


# An import stores its matches in batches, each a short transaction, out of sight until the
# last is in: a phone recording a round waits for one batch at most, never for the import.

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


def holder_file(db: Database, holder: str) -> str:
    """Name the lock file an import's process holds while it stores its matches."""
    return f"{path_of(db)}.import-{holder}.lock"


def alive(db: Database, holder: str | None) -> bool:
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
        if not alive(db, holder)
    ]
    for import_id in dead:
        drop_import(db, import_id)
    return bool(dead)


def checkpoint(db: Database) -> None:
    """Copy what the WAL holds into the database file without waiting for anyone: done by a
    large writer as it goes, so a phone's commit never meets a WAL past SQLite's threshold and
    pays for copying it."""
    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def let_go(import_id: int) -> None:
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


def finished_seats(
    db: Database, board: tuple[str, str] | None = None, since: tuple[str, int] = ("", 0)
) -> list[tuple[Any, ...]]:
    """Every seat of every finished match in sight, oldest match first: what ratings replay;
    or only one board's (game, variant JSON), from the match `since` names on (its creation
    time and id), which is all a board rated again from that match reads.

    Each row: match id, creation time, game, variant JSON, options JSON, totals JSON, winner,
    the seat's player key and side.
    """
    # One board's read is a range of the index of finished matches by board (m010).
    only = "and m.game = ? and m.variant_json = ? and (m.created_utc, m.id) >= (?, ?)"
    query = f"""
        select m.id, m.created_utc, m.game, m.variant_json, m.options_json, m.totals_json,
            m.winner, s.player_key, s.side
        from matches m join seats s on s.match_id = m.id
        where m.status = 'finished' and m.import_id is null {only if board else ""}
        order by m.created_utc, m.id, s.seat
    """
    return db.execute(query, [*board, *since] if board else []).fetchall()


def history_stamp(db: Database) -> int:
    """Name the state of every finished result in sight in one read, through the results'
    key: it moves when one changes, and a round of a match still played leaves it (ratings
    are kept under it)."""
    return db.execute("select coalesce(max(id), 0) from results").fetchone()[0]


def results_since(db: Database, stamp: int) -> dict[tuple[str, str], tuple[str, int]]:
    """Each board (game, variant JSON) whose finished results changed after `stamp`, with the
    first match they changed on (its creation time and id): the ratings before it stand."""
    query = (
        "select m.game, m.variant_json, m.created_utc, m.id "
        "from results r join matches m on m.id = r.match_id where r.id > ?"
    )
    changed: dict[tuple[str, str], tuple[str, int]] = {}
    for game, variant, created, match_id in db.execute(query, [stamp]):
        first = changed.get((game, variant), (created, match_id))
        changed[game, variant] = min(first, (created, match_id))
    return changed


FIRST_FINISHED = """
    insert into results (match_id)
    select id from (
        select m.id, row_number() over (
            partition by m.game, m.variant_json order by m.created_utc, m.id
        ) as nth
        from matches m where m.status = 'finished' and m.id in (
            select s.match_id from seats s join matches m on m.id = s.match_id where {matches}
        )
    ) where nth = 1
"""


def note_results(db: Database, matches: str, params: dict[str, Any]) -> None:
    """Log the first finished match of each board among those `matches` names (a condition on
    m and its seats s): each board's ratings change from it on, and stand before it."""
    db.execute(FIRST_FINISHED.format(matches=matches), params)
