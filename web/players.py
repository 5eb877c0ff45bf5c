"""Players across matches: statistics per game, head-to-head records, renaming."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("players", __name__)

OPENAPI_PATHS: dict[str, Any] = {}
"""This blueprint's part of /api/openapi.json."""
