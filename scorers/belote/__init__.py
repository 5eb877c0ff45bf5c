"""Belote and Coinche."""

from .scorer import Belote

SCORER = Belote()
"""The game as the registry offers it."""

__all__ = ["SCORER", "Belote"]
