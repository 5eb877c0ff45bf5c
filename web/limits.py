"""The tries each phone may make at the doors a guess could open, counted in the database."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, current_app
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits.storage import Storage

from scorebook import storage


class TriesStorage(Storage):
    """Flask-Limiter's counts kept in the serving app's own database, so every server process
    counts the same tries (in memory, four processes would let a phone try four times over)."""

    STORAGE_SCHEME = ["tablescore"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **_options: Any):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)

    @property
    def base_exceptions(self) -> type[Exception]:
        """What a failing database raises."""
        return storage.Fault

    @staticmethod
    def database() -> str:
        """The file of the app answering this request: a process may serve several (tests)."""
        return current_app.config["DATABASE"]

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count more tries of `key` in its window of `expiry` seconds."""
        return storage.count_try(self.database(), key, expiry, amount)

    def get(self, key: str) -> int:
        """Return the tries of `key` in its window still open."""
        return storage.tries_of(self.database(), key)

    def get_expiry(self, key: str) -> float:
        """Return when the window of `key` closes (now, if it has none)."""
        closes = storage.window_closes(self.database(), key)
        return time.time() if closes is None else closes

    def check(self) -> bool:
        """Say whether the counts can be read."""
        storage.tries_of(self.database(), "")
        return True

    def reset(self) -> int:
        """Forget every count."""
        return storage.forget_tries(self.database())

    def clear(self, key: str) -> None:
        """Forget the count of `key`."""
        storage.forget_tries(self.database(), key)


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
