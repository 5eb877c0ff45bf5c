"""Export and import: a match or the whole history as documents, and the command-line tools."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("transfer", __name__, cli_group=None)

OPENAPI_PATHS: dict[str, Any] = {}
"""This blueprint's part of /api/openapi.json."""
