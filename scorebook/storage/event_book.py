"""Events as stored: the event, its entrants and each round's draw.

The tables of a round are the event's matches (`matches.event_id`, `event_round`,
`event_table`); their results are the matches' own, read from their rows.
"""

from __future__ import annotations

import json
from typing import Any

from .database import Database, add, circle_of, decoded, now_utc, rows


def insert_event(db: Database, event: dict[str, Any]) -> int:
    """Store a new event (its entrants apart) and return its id."""
    row = {key: value for key, value in event.items() if key != "options"}
    row["options_json"] = json.dumps(event["options"])
    row["circle_id"] = circle_of(db)
    return add(db, "events", row)


def insert_entrant(db: Database, event_id: int, name: str, members: Any, joined: int) -> None:
    """Enter a team or a player, to be drawn from round `joined` on."""
    add(
        db,
        "event_entrants",
        {
            "event_id": event_id,
            "name": name,
            "members_json": None if members is None else json.dumps(members),
            "joined_round": joined,
            "withdrawn_round": None,
        },
    )


def get_event(db: Database, event_id: int) -> dict[str, Any] | None:
    """Return an event's row of this circle with its options decoded, or None."""
    found = rows(
        db, "select * from events where id = ? and circle_id = ?", [event_id, circle_of(db)]
    )
    return decoded(found[0]) if found else None


def event_by_uid(db: Database, uid: str) -> int | None:
    """Return the id of the event with this uid, if it is here."""
    found = rows(db, "select id from events where circle_id = ? and uid = ?", [circle_of(db), uid])
    return found[0]["id"] if found else None


def list_events(db: Database) -> list[dict[str, Any]]:
    """Every event of the circle, newest first, with how many rounds are drawn."""
    return [
        decoded(row)
        for row in rows(
            db,
            "select e.*, (select count(*) from event_rounds r where r.event_id = e.id) as drawn "
            "from events e where e.circle_id = ? order by e.created_utc desc, e.id desc",
            [circle_of(db)],
        )
    ]


def entrants(db: Database, event_id: int) -> list[dict[str, Any]]:
    """An event's entrants in the order they were entered."""
    return [
        decoded(row)
        for row in rows(
            db, "select * from event_entrants where event_id = ? order by id", [event_id]
        )
    ]


def withdraw_entrant(db: Database, event_id: int, name: str, from_round: int) -> None:
    """Draw an entrant no more from this round on."""
    db.execute(
        "update event_entrants set withdrawn_round = ? where event_id = ? and name = ?",
        [from_round, event_id, name],
    )


def draws(db: Database, event_id: int) -> list[dict[str, Any]]:
    """Each drawn round, first to last, with its byes."""
    return [
        decoded(row)
        for row in rows(
            db, "select * from event_rounds where event_id = ? order by round", [event_id]
        )
    ]


def insert_draw(
    db: Database, event_id: int, n: int, seed: int | None, byes: list[str], at: str | None = None
) -> None:
    """Record that round n was drawn, with its seed and byes, now or when an import says."""
    add(
        db,
        "event_rounds",
        {
            "event_id": event_id,
            "round": n,
            "drawn_utc": at or now_utc(),
            "seed": seed,
            "byes_json": json.dumps(byes),
        },
    )


def table_matches(db: Database, event_id: int) -> list[dict[str, Any]]:
    """The rows of an event's matches, by round and table."""
    return [
        decoded(row)
        for row in rows(
            db,
            "select * from matches where event_id = ? and import_id is null "
            "order by event_round, event_table",
            [event_id],
        )
    ]


def close_event(db: Database, event_id: int) -> None:
    """Close the event: its last round's matches can no longer be changed."""
    db.execute("update events set closed_utc = ? where id = ?", [now_utc(), event_id])


def events_of_player(db: Database, player_key: str) -> list[dict[str, Any]]:
    """The events a player sat at a table of, newest first."""
    return rows(
        db,
        "select distinct e.id, e.name, e.game, e.created_utc from events e "
        "join matches m on m.event_id = e.id join seats s on s.match_id = m.id "
        "where s.circle_id = ? and s.player_key = ? order by e.created_utc desc, e.id desc",
        [circle_of(db), player_key],
    )


def is_round_closed(db: Database, event_id: int, n: int) -> bool:
    """Say whether round n of an event is closed: a later round is drawn, or the event is."""
    query = (
        "select exists (select 1 from event_rounds where event_id = ? and round > ?) "
        "or exists (select 1 from events where id = ? and closed_utc is not null)"
    )
    return bool(db.execute(query, [event_id, n, event_id]).fetchone()[0])


def event_stamp(db: Database, event_id: int) -> str:
    """Name the state an event is in, in one read: any change to one of its matches, a draw,
    an entrant coming or going, or its closing names a new one."""
    query = (
        "select (select count(*) from changes c join matches m on m.id = c.match_id "
        "where m.event_id = :id) || '.' || "
        "(select count(*) from event_rounds where event_id = :id) || '.' || "
        "(select count(*) + count(withdrawn_round) from event_entrants where event_id = :id) "
        "|| '.' || (select count(closed_utc) from events where id = :id)"
    )
    return db.execute(query, {"id": event_id}).fetchone()[0]


def event_of_match(db: Database, match_id: int) -> int | None:
    """Return the event a match is played in, if any."""
    query = "select event_id from matches where id = ? and circle_id = ?"
    found = db.execute(query, [match_id, circle_of(db)]).fetchone()
    return found[0] if found else None
