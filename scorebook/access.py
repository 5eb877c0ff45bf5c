"""Who may change a match: scorer tokens, handed from phone to phone, and revoked.

A token is shown once, when it is issued; the database keeps only its SHA-256, so no read,
export or log can ever show it. Each phone that scores holds its own token under a label the
phone chose, so the change log can say which phone made each change.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from scorebook import storage
from scorebook.storage import Database
from scorers import Refusal
from scorers.seating import DEVICE, checked_name
from scorers.words import _

CODE_LENGTH = 8
CODE_LIFE = timedelta(hours=24)
"""How long a handoff code works: a game night, not for ever, so an old photo opens nothing."""


class Forbidden(Exception):
    """The request may not change this match: no token, or not this match's token."""


def digest(secret: str) -> str:
    """Return what the database keeps of a token or a handoff code."""
    # A lone surrogate (JSON's "\ud800") opens nothing, but must not fail to encode.
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def read_label(given: Any, unnamed: str | None = None) -> str:
    """Check the short label a phone gives itself ("Ana's phone"); `unnamed` if it gave none."""
    label = given.strip() if isinstance(given, str) else ""
    if not label:
        return unnamed or _("a phone")
    return checked_name(label, "device", DEVICE)


def issue(db: Database, match_id: int, device: str) -> str:
    """Give a phone a new token for a match; only its digest is stored."""
    token = secrets.token_urlsafe(24)
    storage.insert_scorer(db, match_id, digest(token), device, storage.now_utc())
    return token


def admit(db: Database, match_id: int, token_sha256: str, device: str) -> None:
    """Let a token given for something else (an event's organiser's) change this match too."""
    storage.insert_scorer(db, match_id, token_sha256, device, storage.now_utc())


def device_for(db: Database, match_id: int, token: str | None) -> str:
    """Return the label of the phone holding this token for the match, or refuse."""
    if not token:
        raise Forbidden(
            _(
                "Changing this match needs its scorer token: use the phone that started it, "
                "or ask it to let this phone score."
            )
        )
    found = storage.active_scorer(db, match_id, digest(token))
    if found is None:
        raise Forbidden(_("This scorer token does not open this match, or it was revoked."))
    return found["device"]


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
    storage.insert_handoff(db, match_id, digest(code), storage.now_utc())
    return code


def accept(db: Database, code: str, device: str) -> tuple[int, str]:
    """Trade an unused, unrevoked code made within CODE_LIFE for a token of its match."""
    with storage.writing(db):
        handoff = storage.waiting_handoff(db, digest(code.strip().upper()))
        if handoff is None:
            raise Refusal.at("code", _("This code was already used, revoked, or never given."))
        if handoff["created_utc"] < oldest_code_utc():
            raise Refusal.at(
                "code",
                _(
                    "This code is more than {hours} hours old and no longer works: ask the "
                    "scoring phone for a new one."
                ).format(hours=int(CODE_LIFE.total_seconds() // 3600)),
            )
        storage.use_handoff(db, handoff["id"], device, storage.now_utc())
        return handoff["match_id"], issue(db, handoff["match_id"], device)


def oldest_code_utc() -> str:
    """Return the creation time, as stored, before which a code no longer works."""
    return (datetime.now(UTC) - CODE_LIFE).strftime(storage.STAMP)


def phones(db: Database, match_id: int) -> list[dict[str, Any]]:
    """List the phones that may score a match, and the codes still waiting to be used."""
    scorers = storage.scorers_of(db, match_id)
    waiting = storage.handoffs_waiting(db, match_id, oldest_code_utc())
    return [{"kind": "phone", **row} for row in scorers] + [
        {"kind": "code", **row} for row in waiting
    ]


def scorer_id(db: Database, match_id: int, token: str | None) -> int | None:
    """Return the scorer row of the phone holding this token for the match, if it still may."""
    found = storage.active_scorer(db, match_id, digest(token or ""))
    return None if found is None else found["id"]


def owner(db: Database, match_id: int) -> int | None:
    """Return the scorer row of the phone that keeps the match: the first one still scoring.

    That is the phone that started it (or imported it, or asked for the rematch) until it gives
    up its own right; then the phone that joined next keeps it.
    """
    return storage.keeper(db, match_id)


def may_revoke(by: int | None, keeper: int | None, kind: str, row_id: int) -> bool:
    """Say whether the phone of scorer row `by` may revoke a row: any waiting code, itself,
    or, as the match's keeper, any phone."""
    if by is None:
        return False
    return kind == "code" or row_id == by or by == keeper


def revoke(db: Database, match_id: int, kind: str, row_id: int, by: int | None) -> None:
    """Take back a phone's right to score, or a code not used yet, as the phone `by` asks.

    A phone joined with a code may take back only itself and waiting codes: were it able to
    revoke the phone that started the match, one shared code would be enough to seize it.
    """
    if kind not in storage.GRANTS:
        raise Refusal.at("kind", _("Revoke a phone or a code."))
    try:
        storage.check_grant(db, kind, match_id, row_id)
    except storage.NotFound:
        raise Refusal.at("id", _("This match has no such phone or code.")) from None
    if not may_revoke(by, owner(db, match_id), kind, row_id):
        raise Forbidden(
            _(
                "Only the phone that started this match can take back another phone's right "
                "to score; this phone can take back only itself."
            )
        )
    storage.revoke_grant(db, kind, row_id, storage.now_utc())
