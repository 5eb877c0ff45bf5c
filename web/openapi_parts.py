"""The pieces every part of the OpenAPI document is written with: web/openapi.py gathers the
paths the blueprints describe, and they all borrow these from here, so none imports another."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .passcode import PASSCODE_HEADER

JSON = "application/json"


def header(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """Describe a request header a client may send, a string unless told."""
    return {
        "name": name,
        "in": "header",
        "required": False,
        "description": description,
        "schema": {"type": "string"} if schema is None else schema,
    }


PASSCODE = header(
    PASSCODE_HEADER, "The site passcode, when the server sets one (TABLESCORE_PASSCODE)."
)
"""The header that carries the site passcode, on the doors that ask for it."""


def ref(name: str) -> dict[str, str]:
    """Point at a schema of the whole document."""
    return {"$ref": f"#/components/schemas/{name}"}


def obj(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    """Describe a JSON object by its properties; `more` gives its other keywords (`required`,
    `description`, a `type` that also allows null)."""
    return {"type": "object", **more, "properties": properties}


def array(items: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    """Describe a JSON array, by its items if they have one schema."""
    described: dict[str, Any] = {"type": "array", **more}
    if items is not None:
        described["items"] = items
    return described


def answer(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """Describe one response, with its JSON body if it has one."""
    described: dict[str, Any] = {"description": description}
    if schema is not None:
        described["content"] = {JSON: {"schema": schema}}
    return described


def body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    """Describe a JSON request body."""
    return {"required": required, "content": {JSON: {"schema": schema}}}


def refusal(description: str) -> dict[str, Any]:
    """Describe an error answer, in the API's one error shape."""
    return answer(description, ref("Error"))


def refusals_from(meaning: dict[int, str], codes: Iterable[int]) -> dict[str, Any]:
    """Describe the error answers of the codes given, each in the words `meaning` has for it."""
    return {str(code): refusal(meaning[code]) for code in codes}
