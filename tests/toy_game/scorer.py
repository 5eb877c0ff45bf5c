"""Tally's scorer: the contract every game follows, and nothing more."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorers.base import Option, Replay, Scorer, Table

from .rules import add_round, read_points


class Tally(Scorer):
    """A score per player a round, highest total at the target wins."""

    id = "tally"
    name = "Tally"
    player_counts = (2, 3, 4)
    options = (Option("target", "Target", default=50, minimum=1, maximum=1000),)

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check each player's points."""
        return read_points(table, data)

    def score(self, table: Table, rounds: Sequence[Mapping[str, Any]]) -> Replay:
        """Add every round up, in order."""
        replay = Replay(rounds=[], totals=dict.fromkeys(table.players, 0))
        for entered in rounds:
            add_round(table, replay, entered)
        return replay

    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say each player's points."""
        return ", ".join(f"{player} {points}" for player, points in entered["points"].items())
