"""Tally, a toy game that lives in the tests alone: each player's points a round, the first to
the target wins. Registered only by the test that proves a game is one folder and one line."""

from .scorer import Tally

SCORER = Tally()
"""The game as the registry offers it."""

__all__ = ["SCORER", "Tally"]
