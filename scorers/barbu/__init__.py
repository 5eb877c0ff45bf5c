"""Barbu."""

from .scorer import Barbu

__all__ = ["Barbu"]
