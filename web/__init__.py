"""The two doors into Tablescore: phone pages and the JSON API, over one database per request."""

from __future__ import annotations

import hmac

from flask import current_app, g
from sqlite_utils import Database

import access
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


def check_passcode(given: str | None) -> None:
    """Refuse to start a match without the site passcode, when the site has one."""
    passcode = current_app.config.get("PASSCODE")
    if passcode and not hmac.compare_digest(str(given or ""), str(passcode)):
        raise access.Forbidden("This Tablescore asks for its passcode to start a match.")
