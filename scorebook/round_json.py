"""One round as JSON: the shape the API answers with, and every export lists."""

from __future__ import annotations

from typing import Any

from scorebook.storage import Round
from scorers.base import RoundResult


def round_json(stored: Round, result: RoundResult) -> dict[str, Any]:
    """Return one round: as entered, what it scored, why, and the totals after it."""
    return {
        "id": stored.id,
        "version": stored.version,
        "n": stored.n,
        "input": stored.input,
        **result.answered(),
        "entered_at": stored.entered_utc,
        "corrected_at": stored.corrected_utc,
        "note": stored.note,
    }
