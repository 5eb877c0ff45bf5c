"""The two doors into Tablescore: phone pages and the JSON API, over one database per request."""

from __future__ import annotations

import hmac
import sqlite3
import time
from typing import Any

from flask import Response, current_app, g, request
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits.storage import Storage
from sqlite_utils import Database

from scorebook import access, storage


def get_db() -> Database:
    """Return this request's database connection, opening it on first use."""
    if "db" not in g:
        storage.hold_open(current_app.config["DATABASE"])
        g.db = storage.connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    """Close the request's connection, if it opened one."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


def bearer_token() -> str | None:
    """Return the token a request carries as `Authorization: Bearer <token>`, if any."""
    header = request.headers.get("Authorization", "")
    return header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else None


PASSCODE_HEADER = "X-Tablescore-Passcode"


def check_passcode(given: str | None, door: str = "start") -> None:
    """Refuse a change outside a match's own token without the site passcode, when it has one.

    `door` names what is asked for ("start", "import", "rename"), so the refusal says it.
    """
    passcode = current_app.config.get("PASSCODE")
    if passcode is None or passcode == "":
        return
    expected = as_bytes(str(passcode))
    # Either reading may be the one typed: a header's UTF-8 bytes reach WSGI read as Latin-1.
    readings = {as_bytes(text) for text in spellings(given or "")}
    # Compare every reading, so the time taken says nothing about which one came close.
    matched = [hmac.compare_digest(reading, expected) for reading in readings]
    if not any(matched):
        raise access.Forbidden(passcode_refusal(door))


def as_bytes(text: str) -> bytes:
    """Encode text as UTF-8 for comparing; a lone surrogate is kept rather than refused (a 500)."""
    return text.encode("utf-8", "surrogatepass")


def spellings(given: str) -> list[str]:
    """Return the text as received and, if it is UTF-8 read as Latin-1 (a header), as sent."""
    try:
        return [given, given.encode("latin-1").decode("utf-8")]
    except UnicodeError:
        return [given]


def passcode_refusal(door: str) -> str:
    """Say what the passcode is asked for and where to give it, in the door's own way."""
    if request.blueprint == "api" or request.path.startswith("/api/"):
        return {
            "import": _(
                "This Tablescore asks for its passcode to import matches: send it in the "
                "X-Tablescore-Passcode header."
            ),
            "rename": _(
                "This Tablescore asks for its passcode to rename or merge players: send it in "
                "the X-Tablescore-Passcode header."
            ),
            "event": _(
                "This Tablescore asks for its passcode to create an event: send it in the "
                "X-Tablescore-Passcode header."
            ),
        }.get(
            door,
            _(
                "This Tablescore asks for its passcode to start a match: send it in the "
                "X-Tablescore-Passcode header."
            ),
        )
    return {
        "import": _(
            "This Tablescore asks for its passcode to import matches: type it in the passcode "
            "box, or ask whoever runs it."
        ),
        "rename": _(
            "This Tablescore asks for its passcode to rename or merge players: type it in the "
            "passcode box, or ask whoever runs it."
        ),
        "event": _(
            "This Tablescore asks for its passcode to create an event: type it in the passcode "
            "box, or ask whoever runs it."
        ),
    }.get(
        door,
        _(
            "This Tablescore asks for its passcode to start a match: type it in the passcode "
            "box, or ask whoever runs it."
        ),
    )


class TriesStorage(Storage):
    """Flask-Limiter's counts kept in the serving app's own database, so every server process
    counts the same tries (in memory, four processes would let a phone try four times over)."""

    STORAGE_SCHEME = ["tablescore"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **_options: Any):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)

    @property
    def base_exceptions(self) -> type[Exception]:
        """What a failing database raises."""
        return sqlite3.Error

    @staticmethod
    def database() -> str:
        """The file of the app answering this request: a process may serve several (tests)."""
        return current_app.config["DATABASE"]

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count more tries of `key` in its window of `expiry` seconds."""
        return storage.count_try(self.database(), key, expiry, amount)

    def get(self, key: str) -> int:
        """Return the tries of `key` in its window still open."""
        return storage.tries(self.database(), key)

    def get_expiry(self, key: str) -> float:
        """Return when the window of `key` closes (now, if it has none)."""
        closes = storage.window_closes(self.database(), key)
        return time.time() if closes is None else closes

    def check(self) -> bool:
        """Say whether the counts can be read."""
        storage.tries(self.database(), "")
        return True

    def reset(self) -> int:
        """Forget every count."""
        return storage.forget(self.database())

    def clear(self, key: str) -> None:
        """Forget the count of `key`."""
        storage.forget(self.database(), key)


limiter = Limiter(get_remote_address, storage_uri="tablescore://")
"""Counts tries per phone at the doors a guess could open, in the database (TriesStorage)."""


def join_limit() -> str:
    """Return how many wrong codes one address may try, per the app's JOIN_LIMIT."""
    return current_app.config["JOIN_LIMIT"]


def too_many_codes() -> str:
    """Say why a phone must wait before trying another code."""
    return _(
        "Too many wrong codes from this phone: wait a minute, then type the code again or ask "
        "the scoring phone for a new one."
    )


def wrong_code(response: Response) -> bool:
    """Count only refused codes, so a table of phones joining rightly is never held back."""
    return response.status_code == 422


joining = limiter.shared_limit(
    join_limit,
    scope="join",
    methods=["POST"],
    error_message=too_many_codes,
    deduct_when=wrong_code,
)
"""One count of wrong codes per address, shared by POST /join and POST /api/join."""
