"""Rami (French rummy)."""

from .scorer import Rami

__all__ = ["Rami"]
