"""Barbu hands the rules accept but a table rarely sees: asked once before Record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Oddity, RoundResult, Table
from ..words import _, lazy, ngettext
from .rules import COUNTED

BIG_SWING = 100
"""A net score this far from 0 in one hand takes doubles and redoubles on a lopsided hand."""


def took_everything(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about one player taking every trick, queen or heart the contract counts."""
    if entered["contract"] not in COUNTED:
        return None
    what, total, _each = COUNTED[entered["contract"]]
    for player, count in entered["taken"].items():
        if count == total:
            return took_all(what, total).format(player=player, count=total)
    return None


def took_all(what: str, total: int) -> str:
    """Ask whether one player took all of what is counted, in a whole sentence per thing."""
    if what == "queens":
        return ngettext(
            "{player} took all {count} queen?", "{player} took all {count} queens?", total
        )
    if what == "hearts":
        return ngettext(
            "{player} took all {count} heart?", "{player} took all {count} hearts?", total
        )
    return ngettext("{player} took all {count} trick?", "{player} took all {count} tricks?", total)


def big_swing(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a player whose net score in one hand is 100 or more either way."""
    player, points = max(result.scores.items(), key=lambda item: abs(item[1]))
    if abs(points) < BIG_SWING:
        return None
    return _("{player} scores {points} in one hand?").format(player=player, points=points)


ODDITIES = (
    Oddity(
        lazy("One player taking every trick, queen or heart the contract counts."),
        took_everything,
    ),
    Oddity(lazy("A net score of 100 or more, either way, in one hand."), big_swing),
)
"""What a Barbu hand is asked about before it is recorded."""
