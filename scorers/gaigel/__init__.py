"""Gaigel."""

from .scorer import Gaigel

SCORER = Gaigel()
"""The game as the registry offers it."""

__all__ = ["SCORER", "Gaigel"]
