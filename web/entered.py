"""Say a round as it was entered in one compact line, for the change log and the "why?" view."""

from __future__ import annotations

from typing import Any


def entered(value: Any, depth: int = 0) -> str:
    """Render an entered value compactly: "outcome out · winner Ana · hands Bo (cards A JK)"."""
    if isinstance(value, dict):
        said = " · ".join(
            f"{key.replace('_', ' ')} {entered(item, depth + 1)}" for key, item in value.items()
        )
        # An object inside an object inside the round is bracketed, so its fields stay apart.
        return (f"({said})" if depth >= 2 else said) or "none"
    if isinstance(value, list):
        return " ".join(entered(item, depth + 1) for item in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)
