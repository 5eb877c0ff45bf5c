"""The games Tablescore scores, by id."""

from .base import Replay, RoundImpossible, Scorer, Table
from .rami import Rami
from .refusal import Refusal

GAMES: dict[str, Scorer] = {scorer.id: scorer for scorer in (Rami(),)}

__all__ = ["GAMES", "Refusal", "Replay", "RoundImpossible", "Scorer", "Table"]
