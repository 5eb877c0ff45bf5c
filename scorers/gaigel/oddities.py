"""Gaigel deals the rules accept but a table rarely sees: asked once before Record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Oddity, RoundResult, Table
from ..words import _, lazy
from .rules import OUTCOMES, VARIANTS

LATE_AUS = 150
"""Card points a team rarely holds when it calls: it says Aus as soon as it counts 101."""


def won_at_once(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a deal won at once by five sevens or five cards of a suit."""
    if table.options["mode"] == "three" or entered["outcome"] not in VARIANTS:
        return None
    return _("{outcome}: {team} won at once?").format(
        team=entered["winner"], outcome=OUTCOMES[entered["outcome"]][0]
    )


def late_aus(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about an Aus called with 150 or more in cards."""
    evidence = entered.get("evidence") or {}
    if entered.get("outcome") not in ("aus", "gaigel") or evidence.get("points", 0) < LATE_AUS:
        return None
    return _("{team} called Aus only at {points} in cards?").format(
        team=entered["winner"], points=evidence["points"]
    )


def one_took_all(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a three-player deal where one player took every trick."""
    if table.options["mode"] != "three":
        return None
    took = [name for name, took in entered["took_trick"].items() if took]
    if len(took) != 1:
        return None
    return _("{player} took every trick?").format(player=took[0])


ODDITIES = (
    Oddity(lazy("A deal won at once by five sevens or Auf Farbe."), won_at_once),
    Oddity(lazy("An Aus called with 150 or more in cards."), late_aus),
    Oddity(lazy("For three players: one player taking every trick."), one_took_all),
)
"""What a Gaigel deal is asked about before it is recorded."""
