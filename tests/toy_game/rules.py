"""Tally's rules, pure: a round is a score per player; totals add up; the target ends it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorers.base import PLAYING, Replay, RoundResult, Table
from scorers.refusal import Problems, Refusal


def read_points(table: Table, data: Any) -> dict[str, Any]:
    """Check that every player has a whole number of points from 0 to 100."""
    if not isinstance(data, dict) or not isinstance(data.get("points"), dict):
        raise Refusal.at("points", "Points must be an object: player → points.")
    problems = Problems()
    points = {}
    for player in table.players:
        given = data["points"].get(player)
        if isinstance(given, bool) or not isinstance(given, int) or not 0 <= given <= 100:
            problems.add(f"points.{player}", f"{player}'s points must be from 0 to 100.")
        else:
            points[player] = given
    problems.raise_any()
    return {"points": points}


def add_round(table: Table, replay: Replay, entered: Mapping[str, Any]) -> None:
    """Add one round's points to the totals; end the match once a total reaches the target."""
    scores = dict(entered["points"])
    for player, points in scores.items():
        replay.totals[player] += points
    said = ", ".join(f"{player} {points}" for player, points in scores.items())
    explanation = [f"Each scores what was counted: {said}."]
    replay.rounds.append(RoundResult(scores, explanation, dict(replay.totals)))
    best = max(replay.totals.values())
    leaders = [player for player, total in replay.totals.items() if total == best]
    if best >= table.options["target"] and len(leaders) == 1 and replay.status == PLAYING:
        replay.finish(leaders[0])
