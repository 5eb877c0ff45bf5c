"""Gaigel's deal as the API takes it: a team deal, or a three-player deal."""

from __future__ import annotations

from typing import Any

NAME = "GaigelDeal"
"""The schema's name among the document's components."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Teams mode; three-player deals give card_points, took_trick, cut_order.",
    "properties": {
        "winner": {
            "type": "string",
            "description": "The team that wins the deal; with evidence and no outcome, "
            "the team that called Aus.",
        },
        "outcome": {
            "type": "string",
            "enum": [
                "aus",
                "gaigel",
                "untergaigeln",
                "uebergaigeln",
                "five_sevens",
                "auf_farbe",
            ],
        },
        "evidence": {
            "type": "object",
            "properties": {
                "points": {"type": "integer", "minimum": 0, "maximum": 240},
                "marriages": {"type": "array", "items": {"type": "integer", "enum": [20, 40]}},
                "loser_tricks": {"type": "integer", "minimum": 0},
                "caller_tricks": {"type": "integer", "minimum": 0},
            },
        },
        "card_points": {"type": "object", "additionalProperties": {"type": "integer"}},
        "took_trick": {"type": "object", "additionalProperties": {"type": "boolean"}},
        "cut_order": {"type": "array", "items": {"type": "string"}},
    },
}
"""One round's body, as the API's POST and PUT take it."""
