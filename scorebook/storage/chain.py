"""The chain that keeps a match's change log honest: each change carries the SHA-256 of the
hash before it followed by the change itself, so no change can be edited, dropped or slipped
in afterwards without every later hash telling.

The form hashed is API.md's, a promise to whoever checks a result file: the change exactly as
the log shows it, without its "hash", as JSON with its keys sorted, no spaces, in UTF-8. It
never changes, or every stored hash would stop matching.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

FIRST = ""
"""What the first change of a log is chained to."""


def logged_form(
    action: str,
    n: int,
    entered: Any,
    replaced: Any,
    at: str,
    device: str | None,
    round_ref: int | None,
) -> dict[str, Any]:
    """Return a change as the log and the export show it: what was done to which round (its
    place among the match's rounds, `round_ref`), when, from which phone."""
    return {
        "action": action,
        "n": n,
        "input": entered,
        "replaced": replaced,
        "at": at,
        "device": device,
        "round_ref": round_ref,
    }


def link(previous: str, change: dict[str, Any]) -> str:
    """Return a change's hash: SHA-256, in hex, of the hash before it and its canonical JSON."""
    shown = {key: value for key, value in change.items() if key != "hash"}
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # A lone surrogate (JSON's "\ud800") is refused before anything is stored; a file checked
    # here may still carry one, and must be answered, not crash.
    return hashlib.sha256((previous + text).encode("utf-8", "surrogatepass")).hexdigest()


def first_broken(changes: Sequence[Any]) -> int | None:
    """Return the index of the first change whose "hash" is not its link in the chain, or
    None when every one is."""
    previous = FIRST
    for i, change in enumerate(changes):
        if not isinstance(change, dict) or not isinstance(change.get("hash"), str):
            return i
        if change["hash"] != link(previous, change):
            return i
        previous = change["hash"]
    return None


def head(changes: Sequence[dict[str, Any]]) -> str:
    """Return the hash of a chained log's last change: FIRST for a log with none."""
    return changes[-1]["hash"] if changes else FIRST


def chain_every_log(db: Any) -> None:
    """Write the hash of every change logged before the chain was, match by match, as
    `log_change` would have: on either engine, the same hashes. The log's triggers refuse
    updates: the caller lets this one through."""
    refs: dict[int, int] = {}
    counted: dict[int, int] = {}
    for match_id, round_id in list(
        db.execute("SELECT match_id, id FROM rounds ORDER BY match_id, id")
    ):
        refs[round_id] = counted.get(match_id, 0)
        counted[match_id] = refs[round_id] + 1
    heads: dict[int, str] = {}
    logged = db.execute(
        "SELECT id, match_id, round_id, action, n, input_json, replaced_json, at_utc, device "
        "FROM changes ORDER BY match_id, id"
    )
    hashes = []
    for change_id, match_id, round_id, action, n, entered, replaced, at, device in list(logged):
        shown = logged_form(
            action,
            n,
            None if entered is None else json.loads(entered),
            None if replaced is None else json.loads(replaced),
            at,
            device,
            None if round_id is None else refs[round_id],
        )
        heads[match_id] = link(heads.get(match_id, FIRST), shown)
        hashes.append((heads[match_id], change_id))
    for digest, change_id in hashes:
        db.execute("UPDATE changes SET hash = ? WHERE id = ?", [digest, change_id])
