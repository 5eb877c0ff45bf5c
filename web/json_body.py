"""Read a JSON request body the same way in every blueprint that answers JSON."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from flask import abort, request


def require_json(body_optional: Collection[str] = ()) -> None:
    """Refuse a body that is not JSON before anything reads it.

    Endpoints in body_optional may be called with no body at all; one they do send must
    still be JSON.
    """
    if request.endpoint in body_optional and not request.content_length:
        return
    if request.method in ("POST", "PUT") and not request.is_json:
        abort(415, "Send the body as JSON, with Content-Type: application/json.")


def body() -> dict[str, Any]:
    """Return the request's JSON object, or answer 400."""
    data = request.get_json(silent=True)
    if data is None:
        abort(400, "The body is not valid JSON.")
    if not isinstance(data, dict):
        abort(400, "The body must be a JSON object.")
    return data
