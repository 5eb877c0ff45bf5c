"""Belote's deal as the API takes it: taker, trump, points and the extras."""

from __future__ import annotations

from typing import Any

NAME = "BeloteDeal"
"""The schema's name among the document's components."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["taker", "trump"],
    "properties": {
        "taker": {"type": "string"},
        "trump": {
            "type": "string",
            "enum": ["hearts", "diamonds", "clubs", "spades", "no_trump", "all_trump"],
        },
        "points": {
            "type": "object",
            "description": "Card points per team without the last trick; one may be left out.",
            "additionalProperties": {"type": "integer"},
        },
        "last_trick": {"type": ["string", "null"]},
        "belote": {
            "type": ["string", "null"],
            "description": "The team that announced belote-rebelote. At all trump, in "
            "answers: the team holding belotes when only one does, null when both do "
            "(see belotes).",
        },
        "belotes": {
            "type": "object",
            "description": "All trump only: belotes per team, 20 each (official rules: up to "
            "four between the teams, one per suit; maison: one). Answers give it for every "
            "all-trump deal, both teams, 0 included; other trumps take only zeros.",
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4},
            "example": {"Nous": 2, "Eux": 1},
        },
        "capot": {"type": ["string", "null"]},
        "announcements": {"type": "object", "additionalProperties": {"type": "integer"}},
        "contract": {
            "description": 'Coinche only: 80–160 by tens (a number: the text "100" is '
            "refused), capot or generale.",
            "anyOf": [{"type": "integer"}, {"type": "string", "enum": ["capot", "generale"]}],
        },
        "coinche": {
            "type": "string",
            "enum": ["none", "coinche", "surcoinche"],
            "description": 'Coinche only; classic belote takes "none" (or nothing).',
        },
        "taker_alone": {
            "type": "boolean",
            "description": "Coinche générale only; classic belote takes false (or nothing).",
        },
    },
}
"""One round's body, as the API's POST and PUT take it."""
RESULT: dict[str, Any] = {
    "result": {"type": "string", "description": "Belote: made, fall, litige or capot."},
    "reserve": {"type": "integer", "description": "Belote: points held after the deal."},
    "reserve_won": {
        "type": "integer",
        "description": "Belote: the reserve this deal's winner took (0 when none).",
    },
    "rounded": {
        "type": "boolean",
        "description": "Belote: whether rounding to tens changed this deal's scores.",
    },
    "tie": {
        "type": "boolean",
        "description": "Belote: both teams made the same total (a litige, or a fall "
        "when ties count as one).",
    },
}
"""What a scored deal carries beyond every game's round: properties of the Round schema."""
