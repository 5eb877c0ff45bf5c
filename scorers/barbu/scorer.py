"""Barbu: the scorer (28 hands, the declarer's turn and obligations)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import explain
from ..base import Replay, RoundImpossible, RoundResult, Rounds, Rule, Scorer, Table
from ..draw import Record
from ..options import MATCH_DEALS, Option
from ..refusal import Refusal
from ..words import _, lazy
from .oddities import ODDITIES
from .rules import (
    CONTRACTS,
    COUNTED,
    COUNTING,
    DOUBLES_OWED,
    HANDS_PER_DECLARER,
    check_doubles,
    declarer_of,
    raw_scores,
    read_hand,
    settle,
)

HANDS = 28


class Turn:
    """Where the match stands before a hand: who declares, what is left, who owes doubles."""

    def __init__(self, table: Table, played: Rounds):
        self.index = len(played)
        self.declarer = declarer_of(table, self.index)
        self.hand_in_block = self.index % HANDS_PER_DECLARER + 1
        block = played[self.index - self.hand_in_block + 1 :]
        self.used = [hand["contract"] for hand in block]
        self.doubles = {
            name: sum([name, self.declarer] in hand["doubles"] for hand in block)
            for name in table.players
            if name != self.declarer
        }

    @property
    def hands_left_after(self) -> int:
        """Return how many of the declarer's hands come after this one."""
        return HANDS_PER_DECLARER - self.hand_in_block

    def compulsory(self) -> list[str]:
        """Return the players who must double the declarer in this hand to keep their duty."""
        return [
            name
            for name, count in self.doubles.items()
            if count + self.hands_left_after < DOUBLES_OWED
        ]

    def check(self, hand: Mapping[str, Any]) -> None:
        """Refuse a hand that does not fit this turn: declarer, contract, doubles, obligation."""
        if hand.get("declarer", self.declarer) != self.declarer:
            raise Refusal.at(
                "declarer",
                _("Hand {number} is {declarer}'s to declare.").format(
                    number=self.index + 1, declarer=self.declarer
                ),
            )
        if hand["contract"] in self.used:
            left = ", ".join(str(CONTRACTS[c]) for c in CONTRACTS if c not in self.used)
            raise Refusal.at(
                "contract",
                _("{declarer} has played {contract} already; left: {left}.").format(
                    declarer=self.declarer, contract=CONTRACTS[hand["contract"]], left=left
                ),
            )
        check_doubles(hand, self.declarer)
        for name in self.compulsory():
            if [name, self.declarer] not in hand["doubles"]:
                raise Refusal.at(
                    "doubles",
                    _(
                        "{player} must double {declarer} in this hand: {player} has doubled "
                        "{declarer} {doubled} time(s), and {owed} are owed with {left} hand(s) "
                        "left after this one."
                    ).format(
                        player=name,
                        declarer=self.declarer,
                        doubled=self.doubles[name],
                        owed=DOUBLES_OWED,
                        left=self.hands_left_after,
                    ),
                )

    def state(self) -> dict[str, Any]:
        """Describe the turn for the API and the form."""
        return {
            "declarer": self.declarer,
            "hand_in_block": self.hand_in_block,
            "contracts_left": [c for c in CONTRACTS if c not in self.used],
            "doubles_of_declarer": self.doubles,
            "compulsory": self.compulsory(),
        }


class Barbu(Scorer):
    """Barbu for four: each declares seven hands, one of each contract; highest total wins."""

    id = "barbu"
    name = "Barbu"
    player_counts = (4,)
    round_name = lazy("Hand")
    oddities = ODDITIES
    event_sizes = (4,)
    event_rule = lazy("Points summed over the rounds first, then matches won.")

    def event_order(self, record: Record) -> tuple[int, ...]:
        """Barbu's points say it all; wins part equal totals."""
        return (-record.points, -record.won)

    round_word = lazy("hand")
    rounds_word = lazy("hands")
    options = (
        Option(
            "first_declarer",
            lazy("First declarer"),
            default=lambda players, _chosen: players[0],
            help=lazy("Who declares the first seven hands; then the next seat, round the table."),
            player=True,
        ),
        MATCH_DEALS,
    )

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check one hand's shape; whose turn it is is checked on replay."""
        return read_hand(table, data)

    def progress(self, table: Table, replay: Replay) -> str:
        """Name the hand being entered out of the 28 a match plays: "Hand 20 of 28"."""
        return _("Hand {n} of {hands}").format(n=len(replay.rounds) + 1, hands=HANDS)

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §3: the seven contracts, the doubles and the obligation."""
        texts = {
            "no_tricks": _("−2 a trick (−26 in all)."),
            "no_queens": _("−6 a queen (−24)."),
            "no_hearts": _("−2 a heart, the A♥ −6 (−30)."),
            "no_last_two": _("−10 for the second-last trick, −20 for the last (−30)."),
            "barbu": _("−20 for the K♥."),
            "trumps": _("+5 a trick (+65)."),
            "dominoes": _("+45, +20, +5, −5 in the order out (+65)."),
        }
        rules = [
            Rule(str(CONTRACTS[c]), text, lambda entered, _r, c=c: entered["contract"] == c)
            for c, text in texts.items()
        ]
        return [
            Rule(
                _("Declarers"),
                _(
                    "{player} declares the first seven hands, one of each contract; then the "
                    "next seat, round the table: 28 hands."
                ).format(player=options["first_declarer"]),
            ),
            *rules,
            Rule(
                _("Doubles"),
                _(
                    "Any player may double any other in a negative contract; only the declarer "
                    "may be doubled in trumps and dominoes; the declarer only redoubles. Pair by "
                    "pair, the difference of raw scores moves once (twice when redoubled)."
                ),
                lambda entered, _result: bool(entered["doubles"]),
            ),
            Rule(
                _("Who deals"),
                _(
                    "The declarer deals each hand: {player} the first seven, then the player to "
                    "the left (clockwise)."
                ).format(player=options["first_declarer"]),
            ),
            Rule(
                _("Obligation"),
                _(
                    "In the declarer's seven hands every other player doubles the declarer at "
                    "least twice."
                ),
            ),
        ]

    def contract_name(self, contract: str) -> str:
        """Name a contract as the sheet shows it."""
        return str(CONTRACTS[contract])

    def dealers_ahead(self, table: Table, replay: Replay, count: int = 12) -> list[str]:
        """The declarer changes every seven hands, by the rules of the block: not a seat a round."""
        return []

    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say a hand as the table told it: the contract, who took what, and the doubles."""
        contract = CONTRACTS[entered["contract"]]
        if entered.get("declarer"):
            contract = _("{contract}, declared by {declarer}").format(
                contract=contract, declarer=entered["declarer"]
            )
        taken = explain.clauses(taken_said(entered))
        doubles = [
            _("{doubler} doubled {doubled}").format(doubler=doubler, doubled=doubled)
            for doubler, doubled in entered["doubles"]
        ]
        return explain.clauses(
            [_("{contract}: {taken}").format(contract=contract, taken=taken), *doubles]
        )

    def score(self, table: Table, rounds: Rounds) -> Replay:
        """Score the hands, checking each against the declarer's turn, and end after 28."""
        replay = Replay(rounds=[], totals=dict.fromkeys(table.players, 0))
        for index, hand in enumerate(rounds):
            if index >= HANDS:
                raise RoundImpossible(index + 1, Refusal(_("A match of Barbu has 28 hands.")))
            turn = Turn(table, rounds[:index])
            try:
                turn.check(hand)
            except Refusal as refusal:
                raise RoundImpossible(index + 1, refusal) from None
            raw, explanation = raw_scores(table, hand)
            net, settled = settle(table, raw, hand["doubles"])
            for name in table.players:
                replay.totals[name] += net[name]
            extra = {
                "raw": raw,
                "declarer": turn.declarer,
                "hand_in_block": turn.hand_in_block,
                "doubles_of_declarer": {
                    name: count + ([name, turn.declarer] in hand["doubles"])
                    for name, count in turn.doubles.items()
                },
            }
            result = RoundResult(
                net, [*explanation, *settled], dict(replay.totals), extra, turn.declarer
            )
            if index + 1 == HANDS:
                finish(replay, result.explanation)
            replay.rounds.append(result)
        if len(rounds) < HANDS:
            replay.state = Turn(table, rounds).state()
        # The declarer deals; after the last hand the deal would go back to the first declarer.
        replay.state["dealer"] = declarer_of(table, len(rounds))
        return replay


def taken_said(hand: Mapping[str, Any]) -> list[str]:
    """Say who took what the contract counts: "tricks Ana 4, Bo 3, Cy 6, Di 0"."""
    taken = hand["taken"]
    if hand["contract"] in COUNTED:
        what = COUNTED[hand["contract"]][0]
        said = [COUNTING[what]["said"].format(counts=explain.each(taken))]
        if hand.get("ace_of_hearts"):
            said.append(_("{player} took the A♥").format(player=hand["ace_of_hearts"]))
        return said
    if hand["contract"] == "no_last_two":
        return [
            _("{player} took the second-last trick").format(player=taken["second_last"]),
            _("{player} took the last trick").format(player=taken["last"]),
        ]
    if hand["contract"] == "barbu":
        return [_("{player} took the K♥").format(player=taken["king_of_hearts"])]
    return [_("out in this order: {players}").format(players=", ".join(taken["order"]))]


def finish(replay: Replay, explanation: list[str]) -> None:
    """End the match after the 28th hand: the highest total wins, a shared first is named."""
    assert sum(replay.totals.values()) == 0, "a full match of Barbu adds up to 0"
    best = max(replay.totals.values())
    leaders = [name for name, total in replay.totals.items() if total == best]
    if len(leaders) > 1:
        replay.finish(None)
        replay.state["shared_first"] = leaders
        explanation.append(
            _("28 hands played: {players} share first place, {points}.").format(
                players=explain.names(leaders), points=best
            )
        )
        return
    replay.finish(leaders[0])
    explanation.append(
        _("28 hands played: {player} wins with {points}.").format(player=leaders[0], points=best)
    )
