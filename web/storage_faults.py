"""Say so when the database can't keep a change: full, read-only, busy, or its file gone.

A phone at the table must never think a round was saved when it was not, nor see a blank
history because the file was deleted under a running server (SQLite would quietly make a
new, empty one).
"""

from __future__ import annotations

from flask import Flask, current_app
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorebook import storage

from .errors import answer

UNAVAILABLE = 503


def register(app: Flask) -> None:
    """Check the database file before each request and answer storage faults with a 503."""
    app.before_request(file_still_there)
    app.register_error_handler(storage.Unavailable, storage_fault)


def file_still_there() -> ResponseReturnValue | None:
    """Refuse to serve from a database file that was deleted while the server ran."""
    if not storage.is_missing(current_app.config["DATABASE"]):
        return None
    current_app.logger.error("The database file %s is gone.", current_app.config["DATABASE"])
    return answer(
        UNAVAILABLE,
        _(
            "Not saved: the server's database file is missing. Nothing was changed; ask "
            "whoever runs the server to put it back (or restore a backup) and restart it."
        ),
    )


def storage_fault(error: storage.Unavailable) -> ResponseReturnValue:
    """Answer a write the storage refused: nothing was saved, and say why."""
    if error.reason == "full":
        message = _(
            "Not saved: the server's storage is full. Nothing was changed; try again once "
            "space is freed."
        )
    elif error.reason == "read-only":
        message = _(
            "Not saved: the server's storage is read-only. Nothing was changed; try again "
            "once it can be written."
        )
    elif error.reason == "busy":
        message = _(
            "Not saved: the server is busy with a long change (an import). Nothing was "
            "changed; try again in a moment."
        )
    elif error.reason == "unreachable":
        message = _(
            "Not saved: the server can't reach its database just now. Nothing was changed; "
            "try again in a moment, or ask whoever runs the server."
        )
    else:
        raise error
    current_app.logger.error("Storage refused a change: %s", error)
    return answer(UNAVAILABLE, message)
