"""Read a JSON request body the same way in every blueprint that answers JSON."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from itertools import accumulate
from typing import Any

from flask import Blueprint, abort, g, request

from scorers import Refusal
from scorers.words import _

MAX_DEPTH = 32
"""The deepest nesting a body may have: an import document needs under ten levels.

Python's parser recurses once per level and fails near a thousand, and so would any code that
walks the parsed body: refusing deeper bodies before they are parsed keeps both safe.
"""

STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


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


def nesting_depth(data: bytes | str) -> int:
    """Return how deeply a JSON text nests its arrays and objects, without parsing it.

    Brackets inside strings do not count. Text that is not JSON may be miscounted, which is
    harmless: the parser refuses it next.
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    steps = STRING.sub(b"", data).translate(None, NOT_BRACKETS).translate(STEPS)
    return max(accumulate(step - 1 for step in steps), default=0)


def lone_surrogate(parsed: Any) -> None:
    """Refuse a parsed body holding a lone surrogate ("\\ud800"), naming where it is.

    No database or answer can hold such text, so it is refused at the door, wherever it is.
    """
    waiting: list[tuple[str, Any]] = [("", parsed)]
    while waiting:
        path, value = waiting.pop()
        if isinstance(value, str) and not valid_text(value):
            refuse_surrogate(path)
        for key, item in children(value):
            if not valid_text(str(key)):
                refuse_surrogate(path)
            waiting.append((f"{path}.{key}" if path else str(key), item))


def children(value: Any) -> Iterable[tuple[Any, Any]]:
    """Return the keys (or places) and values inside an object or array; nothing otherwise."""
    if isinstance(value, dict):
        return value.items()
    if isinstance(value, list):
        return enumerate(value)
    return ()


def valid_text(text: str) -> bool:
    """Say whether text can be stored: no lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def refuse_surrogate(path: str) -> None:
    """Refuse text holding half of a character."""
    message = _(
        "This text holds a lone surrogate (like \\ud800), half of a character: send it again "
        "as plain text."
    )
    raise Refusal.at(path, message)


def body() -> dict[str, Any]:
    """Return the request's JSON object, or answer 400."""
    check_body()
    data = request.get_json(silent=True)
    if data is None:
        abort(400, "The body is not valid JSON.")
    if not isinstance(data, dict):
        abort(400, "The body must be a JSON object.")
    return data
