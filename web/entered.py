"""Say a round as it was entered in one compact line, for the change log and the "why?" view."""

from __future__ import annotations

from typing import Any


def entered(value: Any) -> str:
    """Render an entered value compactly: "outcome out · winner Ana · hands Bo (cards A JK)"."""
    if isinstance(value, dict):
        return " · ".join(f"{key.replace('_', ' ')} {entered(item)}" for key, item in value.items())
    if isinstance(value, list):
        return " ".join(entered(item) for item in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)
