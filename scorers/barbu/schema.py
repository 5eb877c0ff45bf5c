"""Barbu's hand as the API takes it: the contract, what it counted, the doubles."""

from __future__ import annotations

from typing import Any

NAME = "BarbuHand"
"""The schema's name among the document's components."""
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["contract", "taken"],
    "properties": {
        "declarer": {"type": "string", "description": "Optional: known from the rotation."},
        "contract": {
            "type": "string",
            "enum": [
                "no_tricks",
                "no_queens",
                "no_hearts",
                "no_last_two",
                "barbu",
                "trumps",
                "dominoes",
            ],
        },
        "taken": {
            "type": "object",
            "description": "Counts per player, or second_last/last, king_of_hearts, order.",
        },
        "ace_of_hearts": {"type": "string", "description": "no_hearts: who took the A♥."},
        "doubles": {
            "type": "array",
            "description": "[doubler, doubled] pairs; both directions = redoubled.",
            "items": {"type": "array", "items": {"type": "string"}},
        },
    },
}
"""One round's body, as the API's POST and PUT take it."""
RESULT: dict[str, Any] = {
    "raw": {
        "type": "object",
        "description": "Barbu: the contract's scores before doubles.",
    },
}
"""What a scored hand carries beyond every game's round: properties of the Round schema."""
