"""Gaigel."""

from .scorer import Gaigel

__all__ = ["Gaigel"]
