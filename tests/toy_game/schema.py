"""Tally's round as the OpenAPI document describes it."""

NAME = "TallyRound"
SCHEMA = {
    "type": "object",
    "required": ["points"],
    "properties": {
        "points": {
            "type": "object",
            "description": "Each player's points this round, 0 to 100.",
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100},
        }
    },
}
