"""Who may change a match, as stored: the scorers (a token's digest and its phone's label) and
the handoff codes that let another phone join, each until it is revoked.

Only digests are kept: a token or a code is shown once, by the use-case that made it.
"""

from __future__ import annotations

from typing import Any

from .database import Database, add, circle_of, rows, update
from .faults import NotFound

TABLES = {"phone": "scorers", "code": "handoffs"}
"""Where each kind of grant is kept."""
GRANTS = tuple(TABLES)
"""What a phone may revoke, by kind: a phone's right to score, or a code not used yet."""


def insert_scorer(db: Database, match_id: int, token_sha256: str, device: str, at: str) -> int:
    """Let the phone labelled `device`, holding the token of this digest, change a match."""
    row = {"match_id": match_id, "token_sha256": token_sha256, "device": device}
    return add(db, "scorers", row | {"created_utc": at})


def active_scorer(db: Database, match_id: int, token_sha256: str) -> dict[str, Any] | None:
    """Return the scorer (its id and device) holding this token for a match of the circle,
    unless revoked: a token opens its match only inside the match's circle."""
    found = rows(
        db,
        "select s.id, s.device from scorers s join matches m on m.id = s.match_id "
        "where s.match_id = ? and s.token_sha256 = ? and s.revoked_utc is null "
        "and m.circle_id = ?",
        [match_id, token_sha256, circle_of(db)],
    )
    return found[0] if found else None


def keeper(db: Database, match_id: int) -> int | None:
    """Return the id of the match's first scorer not revoked, if one is left."""
    query = "select min(id) as id from scorers where match_id = ? and revoked_utc is null"
    return rows(db, query, [match_id])[0]["id"]


def scorers_of(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return every scorer a match ever had, revoked ones too, first to last."""
    query = (
        "select id, device, created_utc, revoked_utc from scorers where match_id = ? order by id"
    )
    return rows(db, query, [match_id])


def insert_handoff(db: Database, match_id: int, code_sha256: str, at: str) -> int:
    """Keep a new handoff code's digest for a match."""
    row = {"match_id": match_id, "code_sha256": code_sha256, "created_utc": at}
    return add(db, "handoffs", row)


def waiting_handoff(db: Database, code_sha256: str) -> dict[str, Any] | None:
    """Return the handoff (its id, match and creation time) of a code neither used nor
    revoked, for a match of the circle."""
    found = rows(
        db,
        "select h.id, h.match_id, h.created_utc from handoffs h "
        "join matches m on m.id = h.match_id where h.code_sha256 = ? "
        "and h.used_utc is null and h.revoked_utc is null and m.circle_id = ?",
        [code_sha256, circle_of(db)],
    )
    return found[0] if found else None


def handoffs_waiting(db: Database, match_id: int, since: str) -> list[dict[str, Any]]:
    """Return a match's codes made from `since` on and neither used nor revoked, first to last."""
    return rows(
        db,
        "select id, created_utc from handoffs where match_id = ? and used_utc is null "
        "and revoked_utc is null and created_utc >= ? order by id",
        [match_id, since],
    )


def use_handoff(db: Database, handoff_id: int, device: str, at: str) -> None:
    """Mark a code used, by the phone labelled `device`."""
    update(db, "handoffs", handoff_id, {"used_utc": at, "device": device})


def check_grant(db: Database, kind: str, match_id: int, row_id: int) -> None:
    """Check that a match has this phone (kind "phone") or this code (kind "code").

    :raises NotFound: the match has no such phone or code.
    """
    query = f"select id from {TABLES[kind]} where id = ? and match_id = ?"
    if not rows(db, query, [row_id, match_id]):
        raise NotFound(f"match {match_id} has no {kind} {row_id}")


def revoke_grant(db: Database, kind: str, row_id: int, at: str) -> None:
    """Take back a phone's right to score (kind "phone") or a code (kind "code")."""
    update(db, TABLES[kind], row_id, {"revoked_utc": at})


def insert_side_phone(
    db: Database,
    match_id: int,
    side: str,
    token_sha256: str,
    at: str,
    code_sha256: str | None = None,
    device: str | None = None,
) -> int:
    """Let the holder of this token confirm or contest a match's rounds for one side; a link's
    one-time code (`code_sha256`) hands that right to the phone that opens it."""
    row = {"match_id": match_id, "side": side, "token_sha256": token_sha256}
    extra = {"code_sha256": code_sha256, "device": device, "created_utc": at}
    return add(db, "side_phones", row | extra)


def side_of_token(db: Database, match_id: int, token_sha256: str) -> dict[str, Any] | None:
    """Return the side (and its phone's label) a token speaks for in a match of the circle,
    unless revoked."""
    found = rows(
        db,
        "select p.side, p.device from side_phones p join matches m on m.id = p.match_id "
        "where p.match_id = ? and p.token_sha256 = ? and p.revoked_utc is null "
        "and m.circle_id = ?",
        [match_id, token_sha256, circle_of(db)],
    )
    return found[0] if found else None


def waiting_side_code(db: Database, code_sha256: str) -> dict[str, Any] | None:
    """Return the link (its id, match, side and creation time) of a side's code not used yet,
    for a match of the circle."""
    found = rows(
        db,
        "select p.id, p.match_id, p.side, p.created_utc from side_phones p "
        "join matches m on m.id = p.match_id where p.code_sha256 = ? and p.used_utc is null "
        "and p.revoked_utc is null and m.circle_id = ?",
        [code_sha256, circle_of(db)],
    )
    return found[0] if found else None


def use_side_code(db: Database, link_id: int, at: str) -> None:
    """Mark a side's link used: it opens nothing more."""
    update(db, "side_phones", link_id, {"used_utc": at})


def side_phones_of(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return every link and phone a match's sides were given, first to last."""
    query = (
        "select id, side, device, created_utc, used_utc, revoked_utc, "
        "code_sha256 is not null as is_link from side_phones where match_id = ? order by id"
    )
    return rows(db, query, [match_id])


def revoke_side_phone(db: Database, match_id: int, row_id: int, at: str) -> None:
    """Take back a side's link or a side's phone: its token opens nothing more.

    :raises NotFound: the match has no such link or phone.
    """
    if not rows(db, "select id from side_phones where id = ? and match_id = ?", [row_id, match_id]):
        raise NotFound(f"match {match_id} has no side phone {row_id}")
    update(db, "side_phones", row_id, {"revoked_utc": at})
