"""Rami scoring (RULES.md §1): the cards left in hand, going out, rami sec, a blocked round,
the never-melded bonus and its cap, and the end of the match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import explain
from ..base import Replay, RoundResult, Table
from ..cards import JOKER, RANKS, read_ranks
from ..refusal import Problems, Refusal
from ..words import _, ngettext

OUT = "out"
RAMI_SEC = "rami_sec"
BLOCKED = "blocked"
OUTCOMES = (OUT, RAMI_SEC, BLOCKED)
MAX_PLAYERS = 6

RAMI_RANKS = (JOKER, *RANKS)
CARD_VALUES = {JOKER: 20, "A": 11, "J": 10, "Q": 10, "K": 10} | {str(v): v for v in range(2, 11)}
MAX_HAND_CARDS = 14
"""A hand never holds more than the 14 cards its player had before a discard."""
MAX_HAND_POINTS = MAX_HAND_CARDS * CARD_VALUES[JOKER]
MIN_HAND_POINTS = min(CARD_VALUES.values())
"""A hand that counts holds at least one card, and the cheapest card costs 2 (RULES.md §1)."""


def never_melded_cap(options: Mapping[str, Any]) -> int:
    """Return the most a never-melded hand costs: the cap, and never more than half the target."""
    return min(options["unmelded_cap"], options["target"] // 2)


def hand_value(hand: Mapping[str, Any]) -> int:
    """Return what the cards left in a hand cost."""
    if "cards" in hand:
        return sum(CARD_VALUES[rank] for rank in hand["cards"])
    return hand["points"]


def missing(name: str) -> str:
    """Say that a hand that counts was not given."""
    return _("{player}'s hand is missing: tap the cards left or type their value.").format(
        player=name
    )


def read_cards(cards: Any, path: str, name: str) -> list[str]:
    """Check the cards left in a hand: known ranks, and no more than a hand can hold."""
    ranks = read_ranks(cards, path, RAMI_RANKS)
    if not 1 <= len(ranks) <= MAX_HAND_CARDS:
        given = ngettext(
            "{player} holds between 1 and {most} cards; {count} was given.",
            "{player} holds between 1 and {most} cards; {count} were given.",
            len(ranks),
        )
        raise Refusal.at(path, given.format(player=name, most=MAX_HAND_CARDS, count=len(ranks)))
    return ranks


def read_points(points: Any, path: str, name: str) -> int:
    """Check a typed hand value: a whole number a hand can be worth."""
    if isinstance(points, bool) or not isinstance(points, int):
        raise Refusal.at(
            path, _("{player}'s hand value must be a whole number.").format(player=name)
        )
    if 0 <= points < MIN_HAND_POINTS:
        # A player who did not go out still holds a card, and every card costs at least 2.
        raise Refusal.at(
            path,
            _(
                "{player}'s hand cannot be worth {points}: every card left costs at least 2, so "
                "a hand is worth 2 or more. Type the value of the cards {player} still holds."
            ).format(player=name, points=points),
        )
    if not MIN_HAND_POINTS <= points <= MAX_HAND_POINTS:
        raise Refusal.at(
            path,
            _("{player}'s hand is worth between {least} and {most} points.").format(
                player=name, least=MIN_HAND_POINTS, most=MAX_HAND_POINTS
            ),
        )
    return points


def read_hand(hand: Any, path: str, name: str, need_value: bool) -> dict[str, Any]:
    """Check one player's hand: cards or points (agreeing if both), and whether they melded."""
    if not isinstance(hand, dict):
        raise Refusal.at(
            path,
            _("{player}'s hand must be an object with cards or points and melded.").format(
                player=name
            ),
        )
    problems = Problems()
    problems.add_unknown(
        hand,
        {"cards", "points", "melded"},
        _("A hand has cards, points and melded, not {field}."),
        path,
    )
    read: dict[str, Any] = {}
    for key, reader in (("cards", read_cards), ("points", read_points)):
        if key in hand:
            with problems.collect():
                read[key] = reader(hand[key], f"{path}.{key}", name)
    if need_value and "cards" not in hand and "points" not in hand:
        problems.add(path, missing(name))
    if "cards" in read and "points" in read:
        counted = hand_value({"cards": read["cards"]})
        if counted != read["points"]:
            problems.add(
                f"{path}.points",
                _(
                    "{player}'s cards add up to {counted}, not {points}: give one or the other."
                ).format(player=name, counted=counted, points=read["points"]),
            )
    read["melded"] = hand.get("melded", None if need_value else False)
    if read["melded"] is None:
        problems.add(f"{path}.melded", _("Say whether {player} had melded.").format(player=name))
    elif not isinstance(read["melded"], bool):
        problems.add(
            f"{path}.melded",
            _("Say whether {player} had melded (true or false).").format(player=name),
        )
    problems.raise_any()
    return read


def read_hands(table: Table, data: Any, expected: Sequence[str], need_value: bool) -> dict:
    """Check the hands given: each expected player once, nobody else."""
    if data is None and not need_value:
        data = {}
    if not isinstance(data, dict):
        raise Refusal.at("hands", _("Hands must be an object: player name → hand."))
    problems = Problems()

    def read_one(name: str, hand: Any, path: str) -> dict[str, Any]:
        if name not in expected:
            raise Refusal.at(
                path, _("{player} went out and has no hand to count.").format(player=name)
            )
        return read_hand(hand, path, name, need_value)

    hands = table.each(data, "hands", read_one, problems)
    for name in expected:
        if need_value and name not in hands:
            problems.add(f"hands.{name}", missing(name))
    problems.raise_any()
    return {name: hands[name] for name in expected if name in hands}


def read_round(table: Table, data: Any) -> dict[str, Any]:
    """Check who went out, how, and every hand that counts."""
    if not isinstance(data, dict):
        raise Refusal(_("A Rami round must be an object with outcome, winner and hands."))
    outcome = data.get("outcome")
    if outcome not in OUTCOMES:
        raise Refusal.at(
            "outcome", _("Say how the round ended: someone went out, rami sec, or blocked.")
        )
    problems = Problems()
    read: dict[str, Any] = {"outcome": outcome}
    expected = list(table.players)
    winner = data.get("winner")
    if outcome == BLOCKED and winner is not None:
        problems.add("winner", _("A blocked round has no winner to name: the lowest hand wins."))
    elif outcome != BLOCKED and winner is None:
        problems.add("winner", _("Say who went out."))
    elif outcome != BLOCKED:
        with problems.collect():
            read["winner"] = table.player(winner, "winner")
            expected.remove(read["winner"])
    with problems.collect():
        read["hands"] = read_hands(table, data.get("hands"), expected, outcome != RAMI_SEC)
    unknown = sorted(set(data) - {"outcome", "winner", "hands"})
    if unknown:
        problems.add(
            unknown[0],
            _("A Rami round has outcome, winner and hands, not {field}.").format(
                field=repr(unknown[0])
            ),
        )
    problems.raise_any()
    if outcome == RAMI_SEC:
        melded = [name for name, hand in read["hands"].items() if hand["melded"]]
        if melded:
            unmelded = _("A rami sec needs every opponent unmelded.")
            raise Refusal(
                _("No rami sec: {players} had already melded.").format(
                    players=explain.names(melded)
                ),
                {f"hands.{name}.melded": [unmelded] for name in melded},
            )
    return read


def losing_hands(entered: Mapping[str, Any]) -> dict[str, Any]:
    """Return the hands a round charges: all after going out, all but the lowest when blocked."""
    hands = entered["hands"]
    if entered["outcome"] == RAMI_SEC:
        return {}
    if entered["outcome"] == OUT:
        return dict(hands)
    lowest = min(hand_value(hand) for hand in hands.values())
    return {name: hand for name, hand in hands.items() if hand_value(hand) > lowest}


def score_round(table: Table, entered: Mapping[str, Any], cap: int) -> RoundResult:
    """Score one round as entered, with a sentence for every number."""
    options = table.options
    hands = entered["hands"]
    scores = dict.fromkeys(table.players, 0)
    explanation: list[str] = []
    if entered["outcome"] == RAMI_SEC:
        winner = entered["winner"]
        losers = [name for name in table.players if name != winner]
        for name in losers:
            scores[name] = options["rami_sec_points"]
        explanation.append(
            _(
                "Rami sec by {winner}: nobody else had melded, so {losers} score {points} each, "
                "whatever their hands."
            ).format(winner=winner, losers=explain.names(losers), points=options["rami_sec_points"])
        )
        return RoundResult(scores, explanation)
    if entered["outcome"] == OUT:
        explanation.append(_("{winner} went out: 0.").format(winner=entered["winner"]))
    else:
        lowest = min(hand_value(hand) for hand in hands.values())
        winners = [name for name, hand in hands.items() if hand_value(hand) == lowest]
        blocked = ngettext(
            "Blocked: {players} holds the lowest hand ({points}) and scores 0.",
            "Blocked: {players} tie for the lowest hand ({points}) and score 0.",
            len(winners),
        )
        explanation.append(blocked.format(players=explain.names(winners), points=lowest))
    for name, hand in losing_hands(entered).items():
        scores[name] = penalty(name, hand, options["unmelded_bonus"], cap, explanation)
    return RoundResult(scores, explanation)


def penalty(
    name: str, hand: Mapping[str, Any], bonus: int, cap: int, explanation: list[str]
) -> int:
    """Charge a loser their hand, plus the bonus up to the cap if they never melded."""
    value = hand_value(hand)
    if "cards" in hand:
        parts = [CARD_VALUES[rank] for rank in hand["cards"]]
        explanation.append(
            _("{player} holds {cards}: {addition}.").format(
                player=name, cards=", ".join(hand["cards"]), addition=explain.addition(parts)
            )
        )
    else:
        explanation.append(
            _("{player}'s hand is worth {points}.").format(player=name, points=value)
        )
    if hand["melded"]:
        return value
    charged = value + bonus
    numbers = {"player": name, "value": value, "bonus": bonus, "charged": charged, "cap": cap}
    if charged > cap:
        explanation.append(
            _("{player} never melded: {value} + {bonus} = {charged}, capped at {cap}.").format(
                **numbers
            )
        )
        return cap
    explanation.append(_("{player} never melded: {value} + {bonus} = {charged}.").format(**numbers))
    return charged


def settle(replay: Replay, target: int, explanation: list[str]) -> None:
    """End the match once a total reaches the target, unless the lowest total is shared."""
    reached = [name for name, total in replay.totals.items() if total >= target]
    if not reached:
        return
    lowest = min(replay.totals.values())
    leaders = [name for name, total in replay.totals.items() if total == lowest]
    if len(leaders) > 1:
        replay.state["extra_round"] = True
        explanation.append(
            _(
                "{players} reached the target of {target}, but {leaders} tie for the lowest "
                "total ({points}): another round is played."
            ).format(
                players=explain.names(reached),
                target=target,
                leaders=explain.names(leaders),
                points=lowest,
            )
        )
        return
    replay.finish(leaders[0])
    replay.state["extra_round"] = False
    explanation.append(
        _(
            "{players} reached the target of {target}: the match is over and {winner} wins "
            "with {points}."
        ).format(players=explain.names(reached), target=target, winner=leaders[0], points=lowest)
    )
