"""The history page's search over stored matches, newest first, a page at a time."""

from __future__ import annotations

from datetime import date
from typing import Any

from .database import Database, circle_of, decoded, rows
from .imports import importing

PAGE_SIZE = 20


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
    """Return one page of the circle's matches, newest first, and how many match the filters
    in all.

    `status` is playing, finished or abandoned. `since` and `until` are UTC days, both
    included, of the match's creation. Each filter reads only its own rows: a player's through
    their seats, in the order they sat down; a range of days through the creation times,
    which then order the page. Every read starts with the circle.
    """
    params: list[Any] = [circle_of(db)]
    if player:
        source, order = "seats s join matches m on m.id = s.match_id", "s.match_id desc"
        where = ["s.circle_id = ?", "s.player_key = ?"]
        params.append(player.strip().casefold())
    elif since or until:
        source, order = "matches m", "m.created_utc desc, m.id desc"
        where = ["m.circle_id = ?"]
    else:
        source, order = "matches m", "m.id desc"
        where = ["m.circle_id = ?"]
    if game:
        where.append("m.game = ?")
        params.append(game)
    if status == "abandoned":
        where.append("m.abandoned_utc is not null")
    elif status:
        # A match abandoned is listed as abandoned, not as playing or finished.
        where.append("m.status = ? and m.abandoned_utc is null")
        params.append(status)
    if place:
        where.append(db.engine.same_letters("m.place"))
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
    if player and len(where) == 2:
        counted = f"select count(*) from seats s {where_clause(where)}"
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
