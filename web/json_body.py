"""Read a JSON request body the same way in every blueprint that answers JSON."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from flask import Blueprint, abort, g, request

from scorebook.json_guards import MAX_DEPTH, SURROGATE_ESCAPE, lone_surrogate, nesting_depth

WITH_BODY = ("POST", "PUT", "PATCH")
"""The methods whose body a view reads."""


def guard(blueprint: Blueprint, body_optional: Collection[str] = ()) -> None:
    """Make a blueprint refuse a body that is not JSON before any of its views reads one;
    the endpoints in body_optional may be called with no body at all."""
    blueprint.before_request(lambda: require_json(body_optional))


def require_json(body_optional: Collection[str] = ()) -> None:
    """Refuse a body that is not JSON before anything reads it.

    Endpoints in body_optional may be called with no body at all; one they do send must
    still be JSON.
    """
    if request.endpoint in body_optional and not request.content_length:
        return
    if request.method in WITH_BODY and not request.is_json:
        abort(415, "Send the body as JSON, with Content-Type: application/json.")
    check_body()


def check_body() -> None:
    """Refuse, once per request, a JSON body nested too deeply or holding broken text.

    Every view that reads a JSON body then parses one that is safe to parse and to walk.
    Installed before every request of the app, it covers views that read the body themselves.
    """
    if g.get("json_body_checked") or request.method not in WITH_BODY:
        return
    g.json_body_checked = True
    if not request.is_json or not request.content_length:
        return
    data = request.get_data(cache=True)
    if nesting_depth(data) > MAX_DEPTH:
        abort(
            400,
            f"The body is nested too deeply: at most {MAX_DEPTH} levels of arrays and objects.",
        )
    # A surrogate escape is rare (a pair spells an emoji): only then is the body walked.
    if SURROGATE_ESCAPE.search(data):
        lone_surrogate(request.get_json(silent=True))


def body() -> dict[str, Any]:
    """Return the request's JSON object, or answer 400."""
    check_body()
    data = request.get_json(silent=True)
    if data is None:
        abort(400, "The body is not valid JSON.")
    if not isinstance(data, dict):
        abort(400, "The body must be a JSON object.")
    return data
