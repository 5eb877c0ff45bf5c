"""Belote and Coinche deals the rules accept but a table rarely sees: asked once before Record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Oddity, RoundResult, Table
from ..words import _, lazy
from .rules import CAPOT, contract_name

HUGE_DEAL = 1000
"""A deal worth this much to one team takes a surcoinche, or a coinched capot."""


def takers_of(table: Table, entered: Mapping[str, Any]) -> tuple[str, str]:
    """Return the takers' team and the defence."""
    takers = table.team_of(entered["taker"])
    return takers, next(team for team in table.teams or {} if team != takers)


def capot_against_takers(
    table: Table, entered: Mapping[str, Any], result: RoundResult
) -> str | None:
    """Ask about a capot by the defence: the takers took no trick, so 0 card points."""
    takers, defence = takers_of(table, entered)
    if entered["capot"] != defence:
        return None
    return _("Capot by {defence}, with 0 card points for the takers, {takers}?").format(
        defence=defence, takers=takers
    )


def no_points_no_capot(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a team with 0 card points that made no capot against it: a Capot left untapped
    is the likelier story than tricks of sevens and eights."""
    empty = [team for team, points in entered["points"].items() if points == 0]
    if entered["capot"] is not None or not empty:
        return None
    return _("0 card points for {team}, and no capot?").format(team=empty[0])


def capot_contract_made(
    table: Table, entered: Mapping[str, Any], result: RoundResult
) -> str | None:
    """Ask about a capot or générale bid and made."""
    contract = entered.get("contract")
    if contract not in ("capot", "generale") or result.extra["result"] != CAPOT:
        return None
    return _("{taker} bid {contract} and made it?").format(
        taker=entered["taker"], contract=contract_name(contract)
    )


def huge_deal(table: Table, entered: Mapping[str, Any], result: RoundResult) -> str | None:
    """Ask about a deal worth 1000 or more to one team."""
    team, points = max(result.scores.items(), key=lambda item: item[1])
    if points < HUGE_DEAL:
        return None
    return _("{team} scores {points} in one deal?").format(team=team, points=points)


ODDITIES = (
    Oddity(lazy("A capot by the defence: the takers took no trick."), capot_against_takers),
    Oddity(lazy("A team with 0 card points, and no capot entered."), no_points_no_capot),
    Oddity(lazy("A capot or générale bid, and made."), capot_contract_made),
    Oddity(lazy("One team scoring 1000 or more in one deal."), huge_deal),
)
"""What a Belote or Coinche deal is asked about before it is recorded."""
