"""The games Tablescore scores, by id."""

from .barbu import Barbu
from .base import Replay, RoundImpossible, Scorer, Table
from .belote import Belote
from .gaigel import Gaigel
from .porrazo import Porrazo
from .rami import Rami
from .refusal import Refusal

GAMES: dict[str, Scorer] = {
    scorer.id: scorer for scorer in (Rami(), Belote(), Barbu(), Gaigel(), Porrazo())
}

__all__ = ["GAMES", "Refusal", "Replay", "RoundImpossible", "Scorer", "Table"]
