"""A match as stored: its seats, its rounds as entered, the append-only change log, the keys of
requests already answered, and the cached result of its last replay.

Storage knows nothing of the rules: it keeps what the table entered and the cached result of
the last replay, which the matches use-case rewrites in the same transaction as every change.
Only the words for a match's status are the scorers' own, taken from them: a match starts
`PLAYING`, and what it counts for its players changes once it is `FINISHED`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from scorers.base import FINISHED, PLAYING

from . import chain
from .database import Database, add, circle_of, decoded, rows, update
from .player_book import tally


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
    scorer_side: str | None = None,
) -> int:
    """Store a new match with its seats, the totals it starts from, and what it counts for
    its players; `variant` holds the options that keep its statistics apart; `scorer_side`,
    for a match whose rounds every side confirms, the side its scoring phone plays for.

    A match brought in by an import under way (`import_id`) counts for nobody yet: its seats
    wait under no player's key until `finish_import`. A match of an event names its event,
    round and table (`event`).
    """
    players = list(players)
    circle = circle_of(db)
    match_id = add(
        db,
        "matches",
        {
            "circle_id": circle,
            "uid": uid,
            "game": game,
            "options_json": json.dumps(options),
            "variant_json": json.dumps(variant, sort_keys=True),
            "players_json": json.dumps(players),
            "teams_json": None if teams is None else json.dumps(teams),
            "created_utc": at,
            "updated_utc": at,
            "status": PLAYING,
            "winner": None,
            "totals_json": json.dumps(totals),
            "rounds_played": 0,
            "rematch_of": rematch_of,
            "import_id": import_id,
            "played_at": at,
            "scorer_side": scorer_side,
            **dict(zip(("event_id", "event_round", "event_table"), event or (), strict=False)),
        },
    )
    for seat, name in enumerate(players):
        add(
            db,
            "seats",
            {
                "circle_id": circle,
                "match_id": match_id,
                "seat": seat,
                "name": name,
                "name_key": name.casefold(),
                "player_key": UNSEEN if import_id else name.casefold(),
                "side": side_of(name, teams),
            },
        )
    # The name typed last is the one shown.
    db.executemany(
        """
        INSERT INTO players (circle_id, key, name, named_utc) VALUES (?, ?, ?, ?)
        ON CONFLICT (circle_id, key) DO UPDATE SET
            name = CASE WHEN excluded.named_utc >= players.named_utc
                THEN excluded.name ELSE players.name END,
            named_utc = CASE WHEN excluded.named_utc > players.named_utc
                THEN excluded.named_utc ELSE players.named_utc END
        """,
        [(circle, name.casefold(), name, at) for name in players],
    )
    if import_id is None:
        tally(db, match_id, 1)
    return match_id


UNSEEN = ""
"""The player key of a seat whose match an import is still bringing in: no name has it."""


def side_of(name: str, teams: dict[str, list[str]] | None) -> str:
    """Return who a seated name scores for: their team, or themselves."""
    return next((team for team, members in (teams or {}).items() if name in members), name)


def match_version(db: Database, match_id: int) -> int:
    """Return how many changes a match of this circle has had: every change moves its version
    on. A match of another circle has had none."""
    query = (
        "select count(*) from changes where match_id = :match "
        "and exists (select 1 from matches where id = :match and circle_id = :circle)"
    )
    return db.execute(query, {"match": match_id, "circle": circle_of(db)}).fetchone()[0]


def match_stamp(db: Database, match_id: int) -> tuple[str, int] | None:
    """Return a match's uid and version in one read, or None: all a watcher's "anything
    new?" costs when nothing changed."""
    query = (
        "select uid, (select count(*) from changes c where c.match_id = m.id) from matches m "
        "where m.id = ? and m.circle_id = ? and m.import_id is null"
    )
    return db.execute(query, [match_id, circle_of(db)]).fetchone()


def get_match(db: Database, match_id: int) -> dict[str, Any] | None:
    """Return a match row of this circle with its JSON columns decoded, or None."""
    query = "select * from matches where id = ? and circle_id = ? and import_id is null"
    found = rows(db, query, [match_id, circle_of(db)])
    return decoded(found[0]) if found else None


@dataclass(frozen=True)
class MatchRecord:
    """A match's row as stored: its table, the result its last replay cached, the event it is
    played at and what it says of itself."""

    id: int
    uid: str
    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    teams: dict[str, tuple[str, ...]] | None
    created_utc: str
    status: str
    totals: dict[str, int]
    rounds_played: int
    rematch_of: int | None
    event: dict[str, int] | None
    """Its event's id, round and table, if it is an event's."""
    details: dict[str, str | None]
    """Its note, place and the moment it was played (DETAILS)."""
    abandoned_utc: str | None = None
    """When the table abandoned it, while it stays abandoned."""
    winner: str | None = None
    """Who its last replay found won it, once it is over."""
    scorer_side: str | None = None
    """The side its scoring phone plays for, when every side confirms its rounds."""


@dataclass
class Round:
    """A round as entered and stored, numbered by its place among the rounds that count."""

    id: int
    n: int
    input: dict[str, Any]
    entered_utc: str
    corrected_utc: str | None
    version: int = 1
    """1 as entered, one more at each correction."""
    removed_utc: str | None = None
    """When it was taken out, for a removed round."""
    note: str | None = None
    """What the table wrote beside it ("misdeal, dealt again")."""


@dataclass(frozen=True)
class StoredMatch:
    """A match as stored, all its page needs before a replay: its row, the rounds that count
    and the rounds taken out and not put back."""

    record: MatchRecord
    rounds: list[Round]
    removed: list[Round]


def read_match(db: Database, match_id: int) -> StoredMatch | None:
    """Return a match with its rounds, or None."""
    record = read_record(db, match_id)
    if record is None:
        return None
    live = [Round(n=n, **row) for n, row in enumerate(live_rounds(db, match_id), start=1)]
    return StoredMatch(record, live, removed_rounds(db, match_id))


def read_record(db: Database, match_id: int) -> MatchRecord | None:
    """Return a match's row as a record, without its rounds, or None."""
    row = get_match(db, match_id)
    if row is None:
        return None
    teams = row["teams"]
    event = row["event_id"]
    return MatchRecord(
        id=row["id"],
        uid=row["uid"],
        game=row["game"],
        players=tuple(row["players"]),
        options=row["options"],
        teams=None if teams is None else {name: tuple(seats) for name, seats in teams.items()},
        created_utc=row["created_utc"],
        status=row["status"],
        totals=row["totals"],
        rounds_played=row["rounds_played"],
        rematch_of=row["rematch_of"],
        event=None
        if event is None
        else {"id": event, "round": row["event_round"], "table": row["event_table"]},
        details={name: row[name] for name in DETAILS},
        abandoned_utc=row["abandoned_utc"],
        winner=row["winner"],
        scorer_side=row["scorer_side"],
    )


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


def removed_rounds(db: Database, match_id: int) -> list[Round]:
    """Return the rounds taken out of a match and not put back, in the order they were removed."""
    # Numbered where each stood when it was last removed, as the log says.
    query = """
        select r.id, (select c.n from changes c where c.match_id = r.match_id
             and c.round_id = r.id and c.action = 'remove' order by c.id desc limit 1) as n,
            r.input_json, r.entered_utc, r.corrected_utc, r.version, r.removed_utc, r.note
        from rounds r where r.match_id = ? and r.removed_utc is not null
        order by r.removed_utc, r.id
    """
    return [
        Round(round_id, n, orjson.loads(text), entered, corrected, version, removed, note)
        for round_id, n, text, entered, corrected, version, removed, note in db.execute(
            query, [match_id]
        )
    ]


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


def set_round_as_exported(db: Database, round_id: int, version: int, note: str | None) -> None:
    """Write the version a round of an imported history had reached, and its note."""
    update(db, "rounds", round_id, {"version": version, "note": note})


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


def log_change(db: Database, match_id: int, made: Change) -> str:
    """Append one change to the match's log, chained to the change before it; return its
    hash, the log's new head."""
    # Hashed as the log will read it back: as JSON gives it, lists for tuples.
    entered, replaced = (
        None if part is None else json.loads(json.dumps(part))
        for part in (made.entered, made.replaced)
    )
    # One read for both: what the chain goes on from, and the round's place in the match.
    query = (
        "select (select hash from changes where match_id = :match order by id desc limit 1), "
        "(select count(*) from rounds where match_id = :match and id < :round)"
    )
    previous, before = db.execute(query, {"match": match_id, "round": made.round_id}).fetchone()
    ref = None if made.round_id is None else before
    shown = chain.logged_form(made.action, made.n, entered, replaced, made.at, made.device, ref)
    link = chain.link(previous or chain.FIRST, shown)
    add(
        db,
        "changes",
        {
            "match_id": match_id,
            "round_id": made.round_id,
            "action": made.action,
            "n": made.n,
            "input_json": None if entered is None else json.dumps(entered),
            "replaced_json": None if replaced is None else json.dumps(replaced),
            "at_utc": made.at,
            "device": made.device,
            "hash": link,
        },
    )
    return link


def log_head(db: Database, match_id: int) -> str:
    """Return the hash of a match's last change: what the next change is chained to."""
    query = "select hash from changes where match_id = ? order by id desc limit 1"
    row = db.execute(query, [match_id]).fetchone()
    return chain.FIRST if row is None else row[0]


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


def remember_request(db: Database, match_id: int, key: str, made: Request, at: str) -> None:
    """Note which change a request's idempotency key made."""
    row = {"match_id": match_id, "key": key, "round_id": made.round_id, "at_utc": at}
    add(db, "replays", row | {"action": made.action, "fingerprint": made.fingerprint})


def started_with(db: Database, key: str) -> tuple[int, str] | None:
    """Return the match a start with this idempotency key made, and that start's fingerprint."""
    query = "select match_id, fingerprint from starts where circle_id = ? and key = ?"
    row = db.execute(query, [circle_of(db), key]).fetchone()
    return (row[0], row[1]) if row else None


def remember_start(db: Database, key: str, fingerprint: str, match_id: int, at: str) -> None:
    """Note which match a start's idempotency key made."""
    row = {"circle_id": circle_of(db), "key": key, "fingerprint": fingerprint}
    add(db, "starts", row | {"match_id": match_id, "at_utc": at})


def rematched_by(db: Database, match_id: int) -> int | None:
    """Return the match started as this one's rematch, if one was."""
    query = "select id from matches where rematch_of = ? and circle_id = ? order by id limit 1"
    row = db.execute(query, [match_id, circle_of(db)]).fetchone()
    return row[0] if row else None


def changes(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return every change made to a match, oldest first, each with its round's `round_ref`."""
    query = """
        select c.*, case when c.round_id is null then null else (
            select count(*) from rounds r where r.match_id = c.match_id and r.id < c.round_id
        ) end as round_ref
        from changes c where c.match_id = ? order by c.id
    """
    return [decoded(row) for row in rows(db, query, [match_id])]


def amendments(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return a match's corrections and removals, oldest first: what its sheet shows struck."""
    query = "select * from changes where match_id = ? and action != 'add' order by id"
    return [decoded(row) for row in rows(db, query, [match_id])]


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
    query = "select status, winner, import_id, totals_json, circle_id from matches where id = ?"
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
        add(db, "results", {"match_id": match_id, "circle_id": before[4]})


def set_abandoned(db: Database, match_id: int, at: str | None) -> None:
    """Abandon a match at `at`, or take it back (None): abandoned, it counts for none of its
    players and rates nobody; its rounds and log stay as they are."""
    query = "select status, circle_id, import_id from matches where id = ?"
    status, circle, import_id = db.execute(query, [match_id]).fetchone()
    # One an import is bringing in counts for nobody yet: it is counted, or not, once in.
    counted = import_id is None
    if counted and at is not None:
        tally(db, match_id, -1)
    update(db, "matches", match_id, {"abandoned_utc": at})
    if counted and at is None:
        tally(db, match_id, 1)
    if counted and status == FINISHED:
        # Its result leaves its board, or comes back to it: the board is rated again.
        add(db, "results", {"match_id": match_id, "circle_id": circle})


MATCH_ROWS = ("replays", "scorers", "handoffs", "side_phones", "seats")
"""The rows of a match besides its rounds and log, in an order its foreign keys allow
deleting."""


def delete_match(db: Database, match_id: int) -> None:
    """Take away a match nothing was ever entered in (no change logged): its seats, its
    scorers' tokens, the key that started it; a match played again from it forgets it.

    :raises ValueError: if its log holds a change, which nothing may take away.
    """
    if match_version(db, match_id):
        raise ValueError(f"match {match_id} has changes: it can be abandoned, not deleted")
    tally(db, match_id, -1)
    for table in MATCH_ROWS:
        db.execute(f"delete from {table} where match_id = ?", [match_id])
    db.execute("delete from starts where circle_id = ? and match_id = ?", [circle_of(db), match_id])
    db.execute("update matches set rematch_of = null where rematch_of = ?", [match_id])
    db.execute("delete from matches where id = ?", [match_id])


def match_ids(db: Database) -> list[int]:
    """Return the id of every match of the circle, oldest first."""
    query = "select id from matches where circle_id = ? and import_id is null order by id"
    return [row[0] for row in db.execute(query, [circle_of(db)])]


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
        for row in rows(db, "select * from rounds where match_id = ? order by id", [match_id])
    ]


def sayings(db: Database, match_ids: Sequence[int], actions: Sequence[str]) -> list[dict[str, Any]]:
    """Return the changes of these kinds made to these matches, each match's oldest first:
    what its sides' verdicts are read from."""
    if not match_ids:
        return []
    query = (
        f"select match_id, action, round_id, input_json, at_utc as at from changes "
        f"where match_id in ({', '.join('?' * len(match_ids))}) "
        f"and action in ({', '.join('?' * len(actions))}) order by match_id, id"
    )
    return [decoded(row) for row in rows(db, query, [*match_ids, *actions])]


def live_round_ids(db: Database, match_ids: Sequence[int]) -> dict[int, list[int]]:
    """Return the ids of the rounds that count in each of these matches, in the order entered."""
    if not match_ids:
        return {}
    query = (
        f"select match_id, id from rounds where match_id in ({', '.join('?' * len(match_ids))}) "
        "and removed_utc is null order by match_id, id"
    )
    found: dict[int, list[int]] = {}
    for match_id, round_id in db.execute(query, list(match_ids)):
        found.setdefault(match_id, []).append(round_id)
    return found
