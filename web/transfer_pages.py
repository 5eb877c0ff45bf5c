"""Export and import: a match or the whole history as documents, and the command-line tools."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import click
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from limits import parse as parse_limit

from scorebook import access, moving, storage, transfer
from scorebook.matches import Conflict
from scorers import Refusal

from .db import get_db, request_circle
from .errors import answer
from .language import chosen
from .limits import limiter
from .openapi_parts import PASSCODE, refusal
from .pages import keep_token
from .passcode import PASSCODE_HEADER, check_passcode

bp = Blueprint("transfer", __name__, cli_group=None)

IMPORT_LIMIT = 16 * 1024 * 1024
"""A whole history runs to megabytes, where a round or a form fits the app's 64 KB."""


@bp.url_value_preprocessor
def allow_whole_histories(_endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """Take bodies as large as a whole history's export."""
    # URL value preprocessors run before every before_request hook, CSRF's among them, which
    # reads the form: the limit must be in place before the body is first read.
    request.max_content_length = IMPORT_LIMIT
    if current_app.config["IMPORT_APART"]:
        # The import's own process checks the body (transfer.parse_export): walking megabytes here
        # would hold this process's threads, the tables' among them, for a quarter second.
        g.json_body_checked = True


@bp.record_once
def exempt_api_from_csrf(state: BlueprintSetupState) -> None:
    """Let scripts import without a form's CSRF token, as they make every other API change."""
    state.app.extensions["csrf"].exempt(import_history)


def download(text: str | Iterable[str], mimetype: str, filename: str) -> Response:
    """Answer with a file the browser saves rather than shows."""
    disposition = f'attachment; filename="{filename}"'
    return Response(text, mimetype=mimetype, headers={"Content-Disposition": disposition})


@bp.get("/api/matches/<int:match_id>/export")
def export_match(match_id: int) -> ResponseReturnValue:
    """Download one match as its export document (JSON) or its score sheet (CSV)."""
    kind = request.args.get("format", "json")
    if kind == "json":
        text = transfer.as_text(transfer.export_match(get_db(), match_id))
        return download(text, "application/json", f"tablescore-match-{match_id}.json")
    if kind == "csv":
        text = transfer.score_sheet(get_db(), match_id)
        return download(text, "text/csv", f"tablescore-match-{match_id}.csv")
    raise Refusal.at("format", "Choose format=json (the whole match) or format=csv (the sheet).")


EXPORTS_AT_ONCE = 2
"""Whole histories one process writes at once: the other threads stay free for the tables."""
EXPORT_RETRY_SECONDS = 10
exporting = threading.BoundedSemaphore(EXPORTS_AT_ONCE)


@bp.get("/api/export")
def export_history() -> ResponseReturnValue:
    """Download every match as a JSON array of export documents, oldest first.

    It is written to a file on the server first, then sent from that file by waitress's own
    I/O loop (its wsgi.file_wrapper): a phone that asks for it and never reads holds a socket,
    never a thread.
    """
    if not exporting.acquire(blocking=False):
        busy = answer(
            503,
            _(
                "Other exports are being written right now. Nothing is lost; try again in "
                "{seconds} seconds."
            ).format(seconds=EXPORT_RETRY_SECONDS),
        )
        return busy[0], busy[1], {"Retry-After": str(EXPORT_RETRY_SECONDS)}
    try:
        written = tempfile.TemporaryFile()
        transfer.write_history(current_app.config["DATABASE"], written, request_circle())
    finally:
        exporting.release()
    written.seek(0)
    name = f"tablescore-{storage.now_utc()[:10]}.json"
    if "wsgi.file_wrapper" in request.environ:
        return send_file(written, "application/json", as_attachment=True, download_name=name)
    # A server that cannot send a file by itself (the test client) gets its text.
    with written:
        return download(written.read(), "application/json", name)


def no_passcode_asked() -> bool:
    """Say whether this server lets anyone import: then each phone's imports are counted."""
    return not current_app.config.get("PASSCODE")


def too_many_imports() -> str:
    """Say why a phone must wait before importing again."""
    allowance = parse_limit(current_app.config["IMPORT_ALLOWANCE"])
    return _(
        "Too many imports from this phone: without a passcode this Tablescore takes "
        "{megabytes} MB of imports from each every {minutes} minutes. Wait a while, or ask "
        "whoever runs it to set a passcode."
    ).format(megabytes=allowance.amount, minutes=allowance.get_expiry() // 60)


def megabytes_sent() -> int:
    """Count an import by its size, a megabyte started as one: small or large, it counts."""
    return max(1, -(-(request.content_length or 0) // 2**20))


importing = limiter.shared_limit(
    lambda: current_app.config["IMPORT_ALLOWANCE"],
    scope="import",
    methods=["POST"],
    cost=megabytes_sent,
    exempt_when=lambda: not no_passcode_asked(),
    error_message=too_many_imports,
)
"""One allowance of imports per address, in megabytes, shared by POST /import and /api/import."""


def imported(data: bytes) -> transfer.Outcome:
    """Import an export file's bytes, apart from the tables' requests unless told otherwise.

    :raises transfer.Unreadable: the file is not a Tablescore export's JSON.
    :raises Refusal: a match of it is refused; nothing was imported.
    :raises Conflict: another import is storing some of its matches.
    """
    if current_app.config["IMPORT_APART"]:
        database = current_app.config["DATABASE"]
        return transfer.import_apart(database, data, chosen(), request_circle())
    return transfer.import_history(get_db(), transfer.parse_export(data))


@bp.post("/api/import")
@importing
def import_history() -> ResponseReturnValue:
    """Import an array of export documents: every new match, or nothing if one is refused."""
    check_passcode(request.headers.get(PASSCODE_HEADER), "import")
    if not request.is_json:
        abort(415, "Send the export as JSON, with Content-Type: application/json.")
    try:
        return jsonify(asdict(imported(request.get_data())))
    except transfer.Unreadable as unreadable:
        abort(400, unreadable.message)


@bp.route("/import", methods=["GET", "POST"])
@importing
def import_page() -> ResponseReturnValue:
    """Import an export file chosen on this device, then show the history it joins."""
    if request.method == "GET":
        return render_template("transfer/import.html")
    try:
        check_passcode(request.form.get("passcode"), "import")
    except access.Forbidden as refused:
        return render_template("transfer/import.html", refusal=Refusal(str(refused))), 403
    upload = request.files.get("document")
    try:
        if upload is None or not upload.filename:
            raise Refusal.at("document", _("Choose the export file to import."))
        outcome = imported(upload.read())
    except Refusal as refusal:
        return render_template("transfer/import.html", refusal=refusal), 422
    except Conflict as busy:
        return render_template("transfer/import.html", refusal=Refusal(str(busy))), 409
    for match_id, token in outcome.scorer_tokens.items():
        keep_token(int(match_id), token)
    flash(outcome.summary())
    return redirect(url_for("pages.history"))


CIRCLE_OPTION = click.option(
    "--circle",
    "circle_id",
    type=int,
    default=storage.ONE_CIRCLE,
    show_default=True,
    help="The circle, on a server of many (circle 1 holds what was made before circles).",
)


@bp.cli.command("export")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
@CIRCLE_OPTION
def export_command(file: str, circle_id: int) -> None:
    """Write every match of a circle to FILE as JSON, for `flask import` or POST /api/import
    elsewhere."""
    g.circle_id = circle_id
    with open(file, "wb") as written:
        transfer.write_history(current_app.config["DATABASE"], written, circle_id)
    count = len(storage.match_ids(get_db()))
    click.echo(f"Exported {transfer.matches_count(count)} to {os.path.abspath(file)}.")


@bp.cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@CIRCLE_OPTION
def import_command(file: str, circle_id: int) -> None:
    """Import the matches of an export FILE into a circle: every new one, or none if one is
    refused."""
    g.circle_id = circle_id
    try:
        outcome = transfer.import_history(get_db(), transfer.parse_export(Path(file).read_bytes()))
    except Refusal as refusal:
        raise click.ClickException(refusal.message) from None
    except Conflict as busy:
        raise click.ClickException(str(busy)) from None
    click.echo(outcome.summary())
    for match_id, token in outcome.scorer_tokens.items():
        click.echo(f"Match {match_id}: scorer token {token}")


@bp.cli.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
def backup_command(file: str) -> None:
    """Copy the whole database into the SQLite FILE, safe while the app runs: SQLite's online
    backup of a file, or every row of a PostgreSQL database."""
    database = current_app.config["DATABASE"]
    try:
        storage.backup(database, file)
    except storage.NotEmpty:
        message = f"{file} holds matches already: back up into a new file."
        raise click.ClickException(message) from None
    except storage.Fault as error:
        raise click.ClickException(f"Could not back up into {file}: {error}.") from None
    click.echo(f"Backed up {storage.shown(database)} to {os.path.abspath(file)}.")


@bp.cli.command("copy-database")
@click.argument("target")
def copy_database_command(target: str) -> None:
    """Copy the whole database into TARGET, a new one on the other engine (a postgresql:// URL,
    or an SQLite file), and replay every match there to check it arrived as it was."""
    database = current_app.config["DATABASE"]
    try:
        moved = moving.move(database, target)
    except storage.NotEmpty:
        raise click.ClickException(
            f"{storage.shown(target)} holds matches already: copy into a new database."
        ) from None
    except storage.ImportUnderWay:
        raise click.ClickException("An import is under way: copy once it ends.") from None
    except (moving.Mismatch, storage.Fault) as error:
        raise click.ClickException(f"Could not copy: {error}.") from None
    click.echo(f"{storage.shown(database)} → {storage.shown(target)}: {moved.summary()}")


TIME = {"type": "string", "format": "date-time"}
MAYBE_TIME = {"type": ["string", "null"], "format": "date-time"}
NUMBERS = {"type": "object", "additionalProperties": {"type": "integer"}}
EXPORT = {
    "type": "object",
    "description": "One match: every round as entered, its results, every stored round and the "
    "change log, whose round_ref is the place of its round in round_records.",
    "required": [
        "format",
        "version",
        "uid",
        "game",
        "options",
        "players",
        "teams",
        "created_at",
        "rounds",
        "totals",
        "status",
        "winner",
        "log",
        "round_records",
    ],
    "properties": {
        "format": {"const": transfer.FORMAT},
        "version": {"const": transfer.VERSION},
        "uid": {"type": "string"},
        "game": {"type": "string"},
        "options": {"type": "object"},
        "players": {"type": "array", "items": {"type": "string"}},
        "teams": {
            "type": ["object", "null"],
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "created_at": TIME,
        "note": {"type": ["string", "null"], "maxLength": 500},
        "place": {"type": ["string", "null"], "maxLength": 100},
        "played_at": TIME,
        "abandoned_at": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "When the table abandoned the match, if it still is; an export "
            "made before abandoning existed leaves it out.",
        },
        "rounds": {"type": "array", "items": {"$ref": "#/components/schemas/Round"}},
        "totals": NUMBERS,
        "status": {"type": "string", "enum": ["playing", "finished"]},
        "winner": {"type": ["string", "null"]},
        "log": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "action": {
                        "type": "string",
                        "enum": [
                            "add",
                            "correct",
                            "remove",
                            "restore",
                            "note",
                            "details",
                            "abandon",
                            "resume",
                        ],
                    },
                    "n": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "0 for details, abandon and resume.",
                    },
                    "input": {"type": ["object", "null"]},
                    "replaced": {"type": ["object", "null"]},
                    "at": TIME,
                    "round_ref": {
                        "type": ["integer", "null"],
                        "minimum": 0,
                        "description": "null for a change of the match's note, place or date.",
                    },
                },
            },
        },
        "round_records": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "ref": {"type": "integer", "minimum": 0},
                    "input": {"type": "object"},
                    "entered_at": TIME,
                    "corrected_at": MAYBE_TIME,
                    "removed_at": MAYBE_TIME,
                    "note": {"type": "string", "description": "Only when the round has one."},
                },
            },
        },
    },
}
HISTORY = {"type": "array", "items": EXPORT}

OPENAPI_PATHS: dict[str, Any] = {
    "/api/matches/{match_id}/export": {
        "get": {
            "summary": "Download one match: its export document, or its score sheet as CSV",
            "parameters": [
                {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}},
                {
                    "name": "format",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "enum": ["json", "csv"], "default": "json"},
                },
            ],
            "responses": {
                "200": {
                    "description": "The match, as an attachment",
                    "content": {
                        "application/json": {"schema": EXPORT},
                        "text/csv": {
                            "schema": {
                                "type": "string",
                                "description": "n, then each side's score and total per round.",
                            }
                        },
                    },
                },
                "404": refusal("No such match."),
                "422": refusal("The format is neither json nor csv."),
            },
        }
    },
    "/api/export": {
        "get": {
            "summary": "Download every match as an array of export documents, oldest first",
            "responses": {
                "200": {
                    "description": "The whole history, as an attachment",
                    "content": {"application/json": {"schema": HISTORY}},
                }
            },
        }
    },
    "/api/import": {
        "post": {
            "summary": "Import export documents: all of them or, if one is refused, none",
            "description": "A match whose uid is already here with the same history is "
            "skipped; with another history it is listed in conflicts and left as it is. Every "
            "other match is replayed from its log and must give the document's scores and totals. "
            "The new matches are stored in short batches, out of sight until the last is in, "
            "so phones go on recording rounds while a large import runs; the import runs in a "
            "process of its own, below the tables' requests.",
            "parameters": [PASSCODE],
            "requestBody": {"required": True, "content": {"application/json": {"schema": HISTORY}}},
            "responses": {
                "200": {
                    "description": "The uids imported and the uids skipped",
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["imported", "skipped", "conflicts"],
                                "properties": {
                                    "imported": {"type": "array", "items": {"type": "string"}},
                                    "skipped": {"type": "array", "items": {"type": "string"}},
                                    "conflicts": {
                                        "type": "array",
                                        "items": {"type": "string"},
                                        "description": "uids already here with another "
                                        "history: neither changed",
                                    },
                                },
                            }
                        }
                    },
                },
                "400": refusal("The body is not JSON."),
                "403": refusal("The server has a passcode and the request did not send it."),
                "413": refusal(f"The body is larger than {IMPORT_LIMIT // 2**20} MB."),
                "409": refusal(
                    "Another import is storing some of these matches right now: nothing was "
                    "imported."
                ),
                "429": refusal(
                    "Without a passcode, one address may import so many megabytes an hour "
                    "(IMPORT_ALLOWANCE, 64 by default; each import counts one at least): "
                    "nothing was imported."
                ),
                "415": refusal("The body is not sent as application/json."),
                "422": refusal(
                    "A document is malformed, or does not replay to its own numbers "
                    "(tampered): nothing was imported."
                ),
            },
        }
    },
}
"""This blueprint's part of /api/openapi.json."""
