"""Porrazo."""

from .scorer import Porrazo

SCORER = Porrazo()
"""The game as the registry offers it."""

__all__ = ["SCORER", "Porrazo"]
