"""The pieces every part of the OpenAPI document is written with: web/openapi.py gathers the
paths the blueprints describe, and they all borrow these from here, so none imports another."""

from __future__ import annotations

from typing import Any

from .passcode import PASSCODE_HEADER

JSON = "application/json"
PASSCODE = {
    "name": PASSCODE_HEADER,
    "in": "header",
    "required": False,
    "description": "The site passcode, when the server sets one (TABLESCORE_PASSCODE).",
    "schema": {"type": "string"},
}
"""The header that carries the site passcode, on the doors that ask for it."""


def ref(name: str) -> dict[str, str]:
    """Point at a schema of the whole document."""
    return {"$ref": f"#/components/schemas/{name}"}


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
