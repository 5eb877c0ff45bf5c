"""Who may change a match: scorer tokens, handed from phone to phone, and revoked.

A token is shown once, when it is issued; the database keeps only its SHA-256, so no read,
export or log can ever show it. Each phone that scores holds its own token under a label the
phone chose, so the change log can say which phone made each change.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from sqlite_utils import Database

import store
from scorers import Refusal
from scorers.words import _

MAX_LABEL = 40
CODE_LENGTH = 8


class Forbidden(Exception):
    """The request may not change this match: no token, or not this match's token."""


def digest(secret: str) -> str:
    """Return what the database keeps of a token or a handoff code."""
    return hashlib.sha256(secret.encode()).hexdigest()


def read_label(given: Any, unnamed: str | None = None) -> str:
    """Check the short label a phone gives itself ("Ana's phone"); `unnamed` if it gave none."""
    label = given.strip() if isinstance(given, str) else ""
    if not label:
        return unnamed or _("a phone")
    if len(label) > MAX_LABEL:
        raise Refusal.at(
            "device",
            _("A device label has at most {count} characters.").format(count=MAX_LABEL),
        )
    return label


def issue(db: Database, match_id: int, device: str) -> str:
    """Give a phone a new token for a match; only its digest is stored."""
    token = secrets.token_urlsafe(24)
    db.table("scorers").insert(
        {
            "match_id": match_id,
            "token_sha256": digest(token),
            "device": device,
            "created_utc": store.now_utc(),
        }
    )
    return token


def device_for(db: Database, match_id: int, token: str | None) -> str:
    """Return the label of the phone holding this token for the match, or refuse."""
    if not token:
        raise Forbidden(
            _(
                "Changing this match needs its scorer token: use the phone that started it, "
                "or ask it to let this phone score."
            )
        )
    rows = list(
        db.query(
            "select device from scorers where match_id = ? and token_sha256 = ? "
            "and revoked_utc is null",
            [match_id, digest(token)],
        )
    )
    if not rows:
        raise Forbidden(_("This scorer token does not open this match, or it was revoked."))
    return rows[0]["device"]


def may_score(db: Database, match_id: int, token: str | None) -> bool:
    """Say whether a token opens a match, for pages deciding to show editing controls."""
    try:
        device_for(db, match_id, token)
    except Forbidden:
        return False
    return True


def offer(db: Database, match_id: int) -> str:
    """Create a one-time code that lets another phone score this match."""
    code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(CODE_LENGTH))
    db.table("handoffs").insert(
        {"match_id": match_id, "code_sha256": digest(code), "created_utc": store.now_utc()}
    )
    return code


def accept(db: Database, code: str, device: str) -> tuple[int, str]:
    """Trade an unused, unrevoked code for a token of its match: (match id, token)."""
    with store.writing(db):
        rows = list(
            db.query(
                "select id, match_id from handoffs where code_sha256 = ? "
                "and used_utc is null and revoked_utc is null",
                [digest(code.strip().upper())],
            )
        )
        if not rows:
            raise Refusal.at("code", _("This code was already used, revoked, or never given."))
        used = {"used_utc": store.now_utc(), "device": device}
        db.table("handoffs").update(rows[0]["id"], used)
        return rows[0]["match_id"], issue(db, rows[0]["match_id"], device)


def phones(db: Database, match_id: int) -> list[dict[str, Any]]:
    """List the phones that may score a match, and the codes still waiting to be used."""
    scorers = db.query(
        "select id, device, created_utc, revoked_utc from scorers where match_id = ? order by id",
        [match_id],
    )
    waiting = db.query(
        "select id, created_utc from handoffs where match_id = ? and used_utc is null "
        "and revoked_utc is null order by id",
        [match_id],
    )
    return [{"kind": "phone", **row} for row in scorers] + [
        {"kind": "code", **row} for row in waiting
    ]


def revoke(db: Database, match_id: int, kind: str, row_id: int) -> None:
    """Take back a phone's right to score, or a code not used yet."""
    table = {"phone": "scorers", "code": "handoffs"}.get(kind)
    if table is None:
        raise Refusal.at("kind", _("Revoke a phone or a code."))
    found = list(
        db.query(f"select id from {table} where id = ? and match_id = ?", [row_id, match_id])
    )
    if not found:
        raise Refusal.at("id", _("This match has no such phone or code."))
    db.table(table).update(row_id, {"revoked_utc": store.now_utc()})
