"""Belote and Coinche."""

from .scorer import Belote

__all__ = ["Belote"]
