"""The games Tablescore scores, by id: a registry built from the game packages.

A game is one package (`scorers/<game>/`): its `__init__` names its scorer as `SCORER`; its
`form` module holds the round form a phone fills in (`round_form`), its `schema` module the
OpenAPI schema of a round (`NAME`, `SCHEMA`; and `RESULT`, the fields its scored rounds carry
beyond every game's, if any). The rules never import the form or the schema, so they run
without the web stack; the registry finds those two only when asked.
"""

from collections.abc import Callable
from importlib import import_module
from typing import Any

from .base import Replay, RoundImpossible, Scorer, Table, Unfit
from .refusal import Refusal

GAME_PACKAGES = (
    "scorers.rami",
    "scorers.belote",
    "scorers.barbu",
    "scorers.gaigel",
    "scorers.porrazo",
)
"""The games built in, one line a game, loaded the way any game package is."""

GAMES: dict[str, Scorer] = {}
PACKAGES: dict[str, str] = {}
"""Each game's package, by game id: where its form and its schema are found."""


def register(package: str) -> Scorer:
    """Load a game package and add its scorer to the games every page and door offers."""
    scorer: Scorer = import_module(package).SCORER
    GAMES[scorer.id] = scorer
    PACKAGES[scorer.id] = package
    return scorer


def unregister(game: str) -> None:
    """Take a game out of the registry (a test's own game, once the test is over)."""
    GAMES.pop(game, None)
    PACKAGES.pop(game, None)


def part_of(scorer: Scorer, module: str) -> Any:
    """Import one module of a game's package: its `form` or its `schema`."""
    return import_module(f"{PACKAGES[scorer.id]}.{module}")


def round_form_of(scorer: Scorer) -> Callable[..., Any]:
    """Return what builds a game's round form, called as
    `round_form(table, formdata=None, *, entered=None, state=None)`."""
    return part_of(scorer, "form").round_form


for _package in GAME_PACKAGES:
    register(_package)

__all__ = [
    "GAMES",
    "GAME_PACKAGES",
    "Refusal",
    "Replay",
    "RoundImpossible",
    "Scorer",
    "Table",
    "Unfit",
    "part_of",
    "register",
    "round_form_of",
    "unregister",
]
