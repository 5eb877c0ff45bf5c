"""Card ranks as players write them, shared by every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Refusal
from .words import _

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"


def read_rank(value: Any, path: str, allowed: Sequence[str] = RANKS) -> str:
    """Return a rank in its canonical spelling ("a" → "A"), refusing anything else."""
    rank = value.strip().upper() if isinstance(value, str) else None
    if rank not in allowed:
        raise Refusal.at(
            path,
            _("{value} is not a card rank; use one of {ranks}.").format(
                value=repr(value), ranks=" ".join(allowed)
            ),
        )
    return rank


def read_ranks(values: Any, path: str, allowed: Sequence[str] = RANKS) -> list[str]:
    """Return a list of ranks in canonical spelling, refusing a non-list or a bad rank."""
    if not isinstance(values, list):
        raise Refusal.at(path, _('Cards must be a list of ranks, like ["A", "10", "K"].'))
    return [read_rank(value, f"{path}.{i}", allowed) for i, value in enumerate(values)]


def said(ranks: Sequence[str]) -> str:
    """Say cards as the table names them: "A, Joker, 5" (the joker is stored as JK)."""
    return ", ".join(_("Joker") if rank == JOKER else rank for rank in ranks)
