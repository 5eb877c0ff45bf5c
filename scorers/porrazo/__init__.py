"""Porrazo."""

from .scorer import Porrazo

__all__ = ["Porrazo"]
