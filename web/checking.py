"""Checking a result file: is this export what was scored, and if not, where it differs."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue

from scorebook import transfer
from scorers import Refusal
from scorers.words import _

from .db import get_db
from .json_body import body, require_json
from .openapi_parts import answer, obj, refusals_from
from .openapi_parts import body as request_body

bp = Blueprint("checking", __name__)

CHECK_LIMIT = 16 * 1024 * 1024
"""A long match's export runs past the app's 64 KB; a whole history's to megabytes."""


@bp.url_value_preprocessor
def allow_result_files(_endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """Take bodies as large as a result file."""
    request.max_content_length = CHECK_LIMIT


@bp.before_request
def refuse_other_bodies() -> None:
    """Refuse a body that is not JSON at the API's door, as the rest of the API does."""
    if request.path.startswith("/api/"):
        require_json()


@bp.record_once
def exempt_api_from_csrf(state: BlueprintSetupState) -> None:
    """Let scripts check a file without a form's CSRF token."""
    state.app.extensions["csrf"].exempt(verify)


def check_json(found: transfer.Check) -> dict[str, Any]:
    """Return what checking found, as the API answers it."""
    answer = {
        "valid": found.valid,
        "first_bad_change": found.first_bad_change,
        "kept_here": found.kept_here,
        "changes_since": found.changes_since,
    }
    return answer | ({"reason": found.reason} if found.reason else {})


@bp.post("/api/verify")
def verify() -> ResponseReturnValue:
    """Say whether a match document is what was scored: 200 with valid and the first change
    that differs."""
    return check_json(transfer.verify(get_db(), body()))


@bp.route("/check", methods=["GET", "POST"])
def check_page() -> ResponseReturnValue:
    """Check a result file chosen on this phone: each match of it, what was scored or not."""
    if request.method == "GET":
        return render_template("check.html")
    upload = request.files.get("document")
    try:
        if upload is None or not upload.filename:
            raise Refusal.at("document", _("Choose the result file to check."))
        read = transfer.parse_export(upload.read())
    except Refusal as refusal:
        return render_template("check.html", refusal=refusal), 422
    documents = read if isinstance(read, list) else [read]
    if not documents:
        refusal = Refusal.at("document", _("This file holds no match to check."))
        return render_template("check.html", refusal=refusal), 422
    checked = [(document, transfer.verify(get_db(), document)) for document in documents]
    return render_template("check.html", checked=checked, filename=upload.filename)


OPENAPI_PATHS: dict[str, Any] = {
    "/api/verify": {
        "post": {
            "summary": "Say whether a match's export is what was scored",
            "description": "Its log's chain must be unbroken, its log_head the hash of its "
            "last change, and its numbers what its log replays to; where this Tablescore keeps "
            "the match, the rest as kept here (an export made before the latest changes is "
            "valid, with changes_since).",
            "requestBody": request_body({"type": "object", "description": "A match export"}),
            "responses": {
                "200": answer(
                    "What checking found",
                    obj(
                        {
                            "valid": {"type": "boolean"},
                            "first_bad_change": {
                                "type": ["integer", "null"],
                                "description": "The index in its log of the first change "
                                "that is not what was scored.",
                            },
                            "reason": {"type": "string"},
                            "kept_here": {
                                "type": "boolean",
                                "description": "This Tablescore keeps the match: the file was "
                                "compared with it too, its table and options included.",
                            },
                            "changes_since": {
                                "type": ["integer", "null"],
                                "description": "Changes made to the match kept here since the "
                                "file was exported.",
                            },
                        }
                    ),
                )
            }
            | refusals_from(
                {400: "The body is not a JSON object.", 415: "The body is not JSON."}, (400, 415)
            ),
        }
    },
}
"""The paths of this module, for the OpenAPI document."""
