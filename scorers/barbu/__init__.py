"""Barbu."""

from .scorer import Barbu

SCORER = Barbu()
"""The game as the registry offers it."""

__all__ = ["SCORER", "Barbu"]
