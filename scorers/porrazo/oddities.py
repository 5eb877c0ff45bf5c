"""Porrazo pegs the rules accept but a table rarely sees: asked once before Record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Oddity, RoundResult, Table
from ..words import _, lazy, ngettext
from .rules import PACK, best_tendido

RICH_TENDIDO = 20
"""A tendido worth this much takes four of a kind of a high rank, or several sets at once."""


def san_benito(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a San Benito: the fourth matching card in a row, which wins the game."""
    if entered["event"] != "san_benito":
        return None
    return _("San Benito by {player}: it wins the game?").format(player=entered["player"])


def every_card(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a card count where one side won every card of the hand."""
    if entered["event"] != "cards":
        return None
    whole = [side for side, count in entered["counts"].items() if count == PACK]
    if not whole:
        return None
    said = ngettext(
        "{side} won all {count} card of the hand?",
        "{side} won all {count} cards of the hand?",
        PACK,
    )
    return said.format(side=whole[0], count=PACK)


def rich_tendido(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a tendido worth 20 or more."""
    if entered["event"] != "tendido":
        return None
    points = best_tendido(entered["pairs"], entered["table"])[0]
    if points < RICH_TENDIDO:
        return None
    return _("A tendido worth {points} to {player}?").format(
        points=points, player=entered["player"]
    )


ODDITIES = (
    Oddity(lazy("A San Benito, which wins the game at once."), san_benito),
    Oddity(lazy("One side winning every card of a hand."), every_card),
    Oddity(lazy("A tendido worth 20 or more."), rich_tendido),
)
"""What a Porrazo peg is asked about before it is recorded."""
