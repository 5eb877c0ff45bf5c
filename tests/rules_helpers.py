"""What the pure rules tests of every game share: reading a refusal and an explanation."""

from __future__ import annotations

from scorers import Refusal


def assert_at(refusal: Refusal, path: str, words: str = "") -> None:
    """Check a refusal names the field and says the words there."""
    assert path in refusal.fields, refusal.fields
    assert words.casefold() in " ".join(refusal.fields[path]).casefold(), refusal.fields[path]


def said(played) -> str:
    """Return a round's explanation as one text."""
    assert played.explanation
    assert all(isinstance(sentence, str) and sentence for sentence in played.explanation)
    return " ".join(played.explanation)
