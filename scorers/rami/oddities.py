"""Rami rounds the rules accept but a table rarely sees: asked once before Record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Oddity, RoundResult, Table
from ..words import _, lazy
from .rules import BLOCKED, RAMI_SEC, hand_value

BIG_HAND = 100
"""Every hand worth more than this: a round played on long after someone could go out."""
HEAVY_PENALTY = 150
"""One hand costing more than this: a melded player left holding most of the pack."""


def counted_hands(entered: Mapping[str, Any]) -> dict[str, int]:
    """Return what each hand given with a value is worth (a rami sec needs none)."""
    return {
        name: hand_value(hand)
        for name, hand in entered["hands"].items()
        if "cards" in hand or "points" in hand
    }


def every_hand_big(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a round where every hand left, two or more of them, is worth over 100."""
    values = counted_hands(entered)
    if entered["outcome"] == RAMI_SEC or len(values) < 2:
        return None
    if min(values.values()) <= BIG_HAND:
        return None
    return _("Every hand left is worth over {points}?").format(points=BIG_HAND)


def heavy_penalty(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about one player charged over 150 for a hand (a rami sec's flat points aside)."""
    if entered["outcome"] == RAMI_SEC:
        return None
    player, points = max(result.scores.items(), key=lambda item: item[1])
    if points <= HEAVY_PENALTY:
        return None
    return _("{player} scores {points} for one hand?").format(player=player, points=points)


def blocked_level(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a blocked round where every hand is worth the same, so nobody scores."""
    values = set(counted_hands(entered).values())
    if entered["outcome"] != BLOCKED or len(values) != 1:
        return None
    return _("Blocked, and every hand is worth {points}, so nobody scores?").format(
        points=values.pop()
    )


ODDITIES = (
    Oddity(lazy("Every hand left worth over 100, two hands or more."), every_hand_big),
    Oddity(lazy("One player scoring over 150 for a hand."), heavy_penalty),
    Oddity(
        lazy("A blocked round where every hand is worth the same: nobody scores."), blocked_level
    ),
)
"""What a Rami round is asked about before it is recorded."""
