"""Circles: each group's own Tablescore on a server of many, behind a key of its own.

A key is a secret of 192 bits, shown when it is made; the database keeps its SHA-256 only. A
server of one circle keeps everything in the first, which a key can open once it is served
to many (`rekey`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from scorebook import storage
from scorebook.storage import Database
from scorers.seating import CIRCLE, checked_name
from scorers.words import _

KEY_BYTES = 24
"""A key's randomness: 192 bits, written in 32 URL-safe characters."""
ONE, MANY = "one", "many"
"""The two ways a server keeps circles: one for everyone who reaches it, or many, each
private."""


@dataclass(frozen=True)
class Circle:
    """A circle as a phone in it sees it."""

    id: int
    name: str


class NotFound(storage.NotFound):
    """No circle here has this id, or it is not the circle of the key given."""


def key_digest(key: str) -> str:
    """Return what the database keeps of a key."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def read_name(given: Any) -> str:
    """Check a circle's name as players' names are checked, or refuse it.

    :raises Refusal: empty, too long, or holding a hidden character.
    """
    return checked_name(given, "name", CIRCLE)


def start(db: Database, name: Any) -> tuple[Circle, str]:
    """Make a circle, and return it with its key, shown this once.

    :raises Refusal: the name is refused (`read_name`).
    """
    name = read_name(name)
    key = secrets.token_urlsafe(KEY_BYTES)
    with storage.writing(db):
        circle_id = storage.insert_circle(db, name, key_digest(key), storage.now_utc())
    return Circle(circle_id, name), key


def find(db: Database, key: str) -> Circle | None:
    """Return the circle a key opens, or None.

    Whatever the key, known or not, the same digest is made and the same index read; the
    stored digest is compared in constant time.
    """
    digest = key_digest(key)
    found = storage.circle_keyed(db, digest)
    stored = found["key_sha256"] if found else NO_DIGEST
    if not hmac.compare_digest(stored, digest) or found is None:
        return None
    return Circle(found["id"], found["name"])


NO_DIGEST = "0" * 64
"""What an unknown key's digest is compared with, as long as a known one's."""


def joined(db: Database, keys: list[str]) -> dict[str, Circle]:
    """Map each of these keys that still opens a circle to its circle: those a phone joined."""
    if not keys:
        return {}
    found = storage.circle_names(db, [key_digest(key) for key in keys])
    return {
        key: Circle(found[key_digest(key)]["id"], found[key_digest(key)]["name"])
        for key in keys
        if key_digest(key) in found
    }


def read(db: Database, circle_id: int) -> Circle:
    """Return a circle by its id.

    :raises NotFound: there is none.
    """
    found = storage.get_circle(db, circle_id)
    if found is None:
        raise NotFound(_("There is no circle {id} here.").format(id=circle_id))
    return Circle(found["id"], found["name"])


def describe(db: Database, circle: Circle) -> dict[str, Any]:
    """Say what a circle is and holds: its id, name, and how many matches and players."""
    counts = storage.circle_counts(db, circle.id)
    return {"id": circle.id, "name": circle.name, **counts}


def rekey(db: Database, circle_id: int, name: Any = None) -> str:
    """Give a circle a new key (and a new name, if one is given), and return the key, shown
    this once: the old key and its invite link open nothing from now on.

    :raises NotFound: there is no such circle.
    :raises Refusal: the new name is refused.
    """
    name = None if name is None else read_name(name)
    key = secrets.token_urlsafe(KEY_BYTES)
    with storage.writing(db):
        read(db, circle_id)
        storage.set_circle_key(db, circle_id, key_digest(key), storage.now_utc())
        if name is not None:
            storage.rename_circle(db, circle_id, name)
    return key


def delete(db: Database, circle: Circle) -> dict[str, int]:
    """Take a circle away with everything it holds, and say how much that was.

    :raises NotFound: it was taken away already.
    """
    with storage.writing(db):
        read(db, circle.id)
        counts = storage.circle_counts(db, circle.id)
        storage.delete_circle(db, circle.id, storage.now_utc())
    return counts
