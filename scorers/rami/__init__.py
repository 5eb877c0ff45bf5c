"""Rami (French rummy)."""

from .scorer import Rami

SCORER = Rami()
"""The game as the registry offers it."""

__all__ = ["SCORER", "Rami"]
