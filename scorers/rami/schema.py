"""Rami's round as the API takes it: how it ended and each hand left."""

from __future__ import annotations

from typing import Any

NAME = "RamiRound"
"""The schema's name among the document's components."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["outcome"],
    "properties": {
        "outcome": {"type": "string", "enum": ["out", "rami_sec", "blocked"]},
        "winner": {"type": "string", "description": "Who went out; not for a blocked round."},
        "hands": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "cards": {"type": "array", "items": {"type": "string"}},
                    "points": {"type": "integer", "minimum": 2},
                    "melded": {"type": "boolean"},
                },
            },
        },
    },
}
"""One round's body, as the API's POST and PUT take it."""
