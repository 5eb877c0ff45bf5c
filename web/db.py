"""One database connection per request, opened when a view first asks for it."""

from __future__ import annotations

from flask import current_app, g

from scorebook import storage
from scorebook.circles import ONE
from scorebook.storage import Database


def get_db() -> Database:
    """Return this request's database connection, opening it on first use, inside the
    request's circle: on a server of many, none until one is found for it (web.circles)."""
    if "db" not in g:
        storage.hold_open(current_app.config["DATABASE"])
        g.db = storage.connect(current_app.config["DATABASE"], request_circle())
    return g.db


def request_circle() -> int | None:
    """Return the circle this request acts in, as far as it is known yet: on a server of one
    circle, that one; on a server of many, none before a key opens one."""
    if "circle_id" in g:
        return g.circle_id
    return storage.ONE_CIRCLE if current_app.config["CIRCLES"] == ONE else None


def close_db(_error: BaseException | None = None) -> None:
    """Close the request's connection, if it opened one."""
    db = g.pop("db", None)
    if db is not None:
        db.close()
