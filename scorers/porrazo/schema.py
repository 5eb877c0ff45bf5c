"""Porrazo's peg as the API takes it: one event and the cards it needs."""

from __future__ import annotations

from typing import Any

NAME = "PorrazoEvent"
"""The schema's name among the document's components."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["event"],
    "properties": {
        "event": {
            "type": "string",
            "enum": [
                "porrazo",
                "counter_porrazo",
                "san_benito",
                "ronda",
                "rondin",
                "four_of_a_kind",
                "rondas",
                "limpia",
                "in_place",
                "tendido",
                "confirm",
                "cards",
            ],
        },
        "player": {"type": "string", "description": "A player, or with teams a team."},
        "rank": {"type": "string"},
        "limpia": {"type": "string", "description": "Porrazo or counter: the limpia's rank."},
        "pairs": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "table": {"type": "array", "items": {"type": "string"}},
        "declared": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
}
"""One round's body, as the API's POST and PUT take it."""
