"""Rami (French rummy): penalties for the cards left in hand; lowest total wins (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import explain
from ..base import FINISHED, Entered, Replay, Rounds, Rule, Scorer, Table
from ..cards import said
from ..draw import Record
from ..options import FIRST_DEALER, MATCH_DEALS, Option, target_option
from ..words import _, lazy
from .oddities import ODDITIES
from .rules import (
    BLOCKED,
    MAX_PLAYERS,
    OUT,
    RAMI_SEC,
    losing_hands,
    never_melded_cap,
    read_round,
    score_round,
    settle,
)

ENDINGS = {
    OUT: lazy("{player} went out"),
    RAMI_SEC: lazy("{player} went out rami sec"),
    BLOCKED: lazy("Blocked: no stock"),
}
"""How a round ended, as the table says it."""


def hand_said(name: str, hand: Mapping[str, Any]) -> str:
    """Say a hand left at the end of a round: "Bo held K, Q, 5 and had melded"."""
    if "cards" not in hand and "points" not in hand:
        melded = _("{player} had melded") if hand.get("melded") else _("{player} had not melded")
        return melded.format(player=name)
    held = said(hand["cards"]) if "cards" in hand else str(hand["points"])
    if hand.get("melded"):
        return _("{player} held {hand} and had melded").format(player=name, hand=held)
    return _("{player} held {hand} and had not melded").format(player=name, hand=held)


class Rami(Scorer):
    """Rami: each round charges the losers their hands; the target ends the match."""

    id = "rami"
    name = "Rami"
    player_counts = tuple(range(2, MAX_PLAYERS + 1))
    tie_message = lazy("Tie for the lowest total: extra round.")
    low_leads = True
    oddities = ODDITIES
    event_rule = lazy(
        "Matches won first, then the fewest points (in Rami points count against a player), "
        "then the most points scored by the others at the table."
    )

    def event_order(self, record: Record) -> tuple[int, ...]:
        """Few points are good in Rami."""
        return (-record.won, record.points, -record.against)

    options = (
        target_option(
            lambda players, _chosen: 100 * (len(players) - 1),
            lazy("The match ends when a total reaches it; 100 per opponent by default."),
            maximum=10_000,
            placeholder=lazy("100 per opponent"),
        ),
        Option(
            "rami_sec_points",
            lazy("Rami sec points"),
            default=200,
            help=lazy("What every opponent scores when a player goes out rami sec."),
            minimum=0,
            maximum=1_000,
        ),
        Option(
            "unmelded_bonus",
            lazy("Never-melded bonus"),
            default=25,
            help=lazy("Added to the hand of a player who had not melded."),
            minimum=0,
            maximum=1_000,
        ),
        Option(
            "unmelded_cap",
            lazy("Never-melded cap"),
            default=100,
            help=lazy("A never-melded hand costs at most this, and at most half the target."),
            minimum=0,
            maximum=10_000,
        ),
        FIRST_DEALER,
        MATCH_DEALS,
    )

    def kept_apart(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Keep races to different targets apart: 100 points mean more in a race to 300."""
        return {"target": options["target"]}

    def name_kept_apart(self, key: Mapping[str, Any]) -> str:
        """Name the variant by its target."""
        return _("Rami, to {target}").format(target=key["target"])

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §1 for this match's target, rami sec and never-melded values."""
        cap = never_melded_cap(options)
        return [
            Rule(
                _("Cards left in hand"),
                _("Joker 20, ace 11, J, Q and K 10, 2 to 10 their face value."),
                lambda entered, _result: entered["outcome"] != RAMI_SEC,
            ),
            Rule(
                _("Going out"),
                _("Whoever goes out scores 0; everyone else scores the cards left in hand."),
                lambda entered, _result: entered["outcome"] == OUT,
            ),
            Rule(
                _("Rami sec"),
                _(
                    "Going out at the first meld, before anyone else melded: every opponent "
                    "scores {points}, whatever they hold."
                ).format(points=options["rami_sec_points"]),
                lambda entered, _result: entered["outcome"] == RAMI_SEC,
            ),
            Rule(
                _("Blocked"),
                _("When the stock runs out the lowest hand scores 0 (tied lowest hands all 0)."),
                lambda entered, _result: entered["outcome"] == BLOCKED,
            ),
            Rule(
                _("Never melded"),
                _("A loser who never melded scores the hand + {bonus}, at most {cap}.").format(
                    bonus=options["unmelded_bonus"], cap=cap
                ),
                lambda entered, _result: any(
                    not hand["melded"] for hand in losing_hands(entered).values()
                ),
            ),
            Rule(
                _("The end"),
                _(
                    "When a total reaches {target} the lowest total wins; a tie for lowest plays "
                    "another round."
                ).format(target=options["target"]),
            ),
            self.dealing_rule(options),
        ]

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check who went out, how, and every hand that counts."""
        return read_round(table, data)

    def cell_mark(self, entered: Mapping[str, Any], player: str) -> str:
        """Mark who went out, and a rami sec, on the sheet's row, as the pad does."""
        if entered.get("winner") != player:
            return ""
        return _("rami sec") if entered.get("outcome") == RAMI_SEC else _("out")

    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say a round as the table told it: how it ended, then each hand left."""
        ending = ENDINGS[entered["outcome"]].format(player=entered.get("winner"))
        hands = [hand_said(name, hand) for name, hand in entered["hands"].items()]
        return explain.clauses([ending, *hands])

    def score(self, table: Table, rounds: Rounds) -> Replay:
        """Score every round, then end the match at the target unless the lowest is shared."""
        cap = never_melded_cap(table.options)
        replay = Replay(
            rounds=[], totals=dict.fromkeys(table.players, 0), state={"extra_round": False}
        )
        for entered in rounds:
            round_on(table, replay, entered, cap)
        replay.name_dealers(table, self.deal_step)
        last = rounds[-1]["hands"] if rounds else {}
        replay.state["melded"] = {name: hand["melded"] for name, hand in last.items()}
        return replay

    def score_on(self, table: Table, replay: Replay, rounds: Rounds, entered: Entered) -> Replay:
        """Score one more round on the totals the replay holds."""
        round_on(table, replay, entered, never_melded_cap(table.options))
        replay.name_dealers(table, self.deal_step)
        replay.state["melded"] = {name: hand["melded"] for name, hand in entered["hands"].items()}
        return replay


def round_on(table: Table, replay: Replay, entered: Mapping[str, Any], cap: int) -> None:
    """Score the next round of a replay and end the match at the target if it is reached."""
    result = score_round(table, entered, cap)
    for name, score in result.scores.items():
        replay.totals[name] += score
    result.totals = dict(replay.totals)
    # A match of a fixed number of rounds ends after them: the target only caps hands then.
    if replay.status != FINISHED and table.options.get("match_deals") is None:
        settle(replay, table.options["target"], result.explanation)
    replay.rounds.append(result)
