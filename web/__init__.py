"""The two doors into Tablescore: phone pages and the JSON API, over one database per request."""

from __future__ import annotations

from flask import current_app, g
from sqlite_utils import Database

import store


def get_db() -> Database:
    """Return this request's database connection, opening it on first use."""
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    """Close the request's connection, if it opened one."""
    db = g.pop("db", None)
    if db is not None:
        db.close()
