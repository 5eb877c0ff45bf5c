"""Both sides confirm: links that let each other side's phone confirm or contest the rounds
the scoring phone enters, and what those phones say, logged like any change.

A side's phone never records, corrects or removes a round: its token opens only these doors,
and a scorer's token never opens them (its side's word is every round it enters).
"""

from __future__ import annotations

import secrets
from typing import Any

from scorebook import access, matches, storage, verdicts
from scorebook.matches import Conflict, Match
from scorebook.storage import Database
from scorers import Refusal
from scorers.words import _


def confirming(db: Database, match_id: int) -> Match:
    """Load a match whose sides confirm its rounds, refusing one started without confirm."""
    match = matches.load(db, match_id)
    if match.scorer_side is None:
        raise not_confirming()
    return match


def not_confirming() -> Conflict:
    """Say that a match was started without confirm (409)."""
    return Conflict(
        _(
            "This match was started without confirm: the scoring phone's word is enough, "
            "and no other side confirms its rounds."
        )
    )


def link_side(db: Database, match_id: int, side: Any) -> tuple[str, str, str]:
    """Make a one-time link for one other side's phone: return the side, the link's code and
    a token for that side (for a phone scripting the API)."""
    match = confirming(db, match_id)
    sides = verdicts.sides_of(match.table)
    if side not in sides:
        raise Refusal.at(
            "side",
            _("This match's sides are {sides}.").format(sides=", ".join(sides)),
        )
    if side == match.scorer_side:
        raise Refusal.at(
            "side",
            _("{side} is the scoring phone's side: its word is every round it enters.").format(
                side=side
            ),
        )
    code, token = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
    with storage.writing(db):
        storage.insert_side_phone(
            db, match_id, side, access.digest(token), storage.now_utc(), access.digest(code)
        )
    return side, code, token


def join_side(db: Database, code: str, device: str) -> tuple[int, str, str]:
    """Trade a side's one-time link for this phone's own token: return the match, the side
    and the token."""
    with storage.writing(db):
        link = storage.waiting_side_code(db, access.digest(code))
        if link is None:
            raise Refusal.at(
                "code",
                _(
                    "This link was already opened, or never given: ask the scoring phone for "
                    "a new one."
                ),
            )
        if link["created_utc"] < access.oldest_code_utc():
            raise Refusal.at(
                "code",
                _("This link is too old and no longer works: ask the scoring phone for a new one."),
            )
        storage.use_side_code(db, link["id"], storage.now_utc())
        token = secrets.token_urlsafe(24)
        storage.insert_side_phone(
            db,
            link["match_id"],
            link["side"],
            access.digest(token),
            storage.now_utc(),
            device=device,
        )
        return link["match_id"], link["side"], token


def side_phones(db: Database, match_id: int) -> list[dict[str, Any]]:
    """List the sides' links not opened yet and the phones that opened one, first to last,
    left out those taken back."""
    found = []
    for row in storage.side_phones_of(db, match_id):
        waiting = row["is_link"] and row["used_utc"] is None
        if row["revoked_utc"] is None and (waiting or not row["is_link"]):
            found.append(row | {"kind": "link" if waiting else "phone"})
    return found


def revoke_side(db: Database, match_id: int, row_id: int) -> None:
    """Take back a side's link or a side's phone, as the scoring phone asks."""
    with storage.writing(db):
        try:
            storage.revoke_side_phone(db, match_id, row_id, storage.now_utc())
        except storage.NotFound:
            raise Refusal.at("id", _("This match has no such link or phone.")) from None


def side_for(db: Database, match_id: int, token: str | None) -> tuple[str, str]:
    """Return the side a token speaks for in a match, and its phone's label, or refuse."""
    found = storage.side_of_token(db, match_id, access.digest(token or "")) if token else None
    if found is None:
        raise access.Forbidden(
            _(
                "Confirming or contesting a round needs a side's link: ask the scoring phone "
                "for your side's link."
            )
        )
    return found["side"], found["device"] or _("{side}'s phone").format(side=found["side"])


def confirm(db: Database, match_id: int, n: int, side: str, device: str) -> Match:
    """Confirm round n for a side; confirming again what stands changes nothing."""
    return say(db, match_id, n, "confirm", {"side": side}, device)


def contest(db: Database, match_id: int, n: int, side: str, data: Any, device: str) -> Match:
    """Contest round n for a side, saying why; the round waits until it is corrected and
    confirmed, or the side confirms it after all."""
    if not isinstance(data, dict):
        raise Refusal(_('Say why, like {"reason": "Eux had the belote, not Nous"}.'))
    reason = verdicts.read_reason(data.get("reason"))
    return say(db, match_id, n, "contest", {"side": side, "reason": reason}, device)


def say(
    db: Database, match_id: int, n: int, action: str, words: dict[str, str], device: str
) -> Match:
    """Log what a side says of round n, unless it already stands as said."""
    with storage.writing(db):
        stored = matches.read_stored(db, match_id)
        matches.refuse_closed(db, stored.record)
        match = matches.read_said(db, matches.score(stored))
        if match.confirmations is None:
            raise not_confirming()
        said_of = match.round(n)
        verdict = match.confirmations.by_round[said_of.id]
        standing = (
            words["side"] in verdict.confirmed_by
            if action == "confirm"
            else verdict.contest is not None
            and verdict.contest["side"] == words["side"]
            and verdict.contest["reason"] == words["reason"]
        )
        if not standing:
            at = storage.now_utc()
            change = storage.Change(action, n, said_of.id, words, None, at, device)
            storage.log_change(db, match_id, change)
        return matches.read_extras(db, match)
