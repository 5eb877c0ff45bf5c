"""One database connection per request, opened when a view first asks for it."""

from __future__ import annotations

from flask import current_app, g

from scorebook import storage
from scorebook.storage import Database


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
