"""Barbu scoring (RULES.md §3): the seven contracts, the declarer's turn, doubles pair by pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from . import explain
from .base import Table
from .refusal import Problems, Refusal

HANDS_PER_DECLARER = 7
DOUBLES_OWED = 2
"""Every other player must double the declarer at least this often in the declarer's hands."""

CONTRACTS = {
    "no_tricks": "No tricks",
    "no_queens": "No queens",
    "no_hearts": "No hearts",
    "no_last_two": "No last two",
    "barbu": "Barbu",
    "trumps": "Trumps",
    "dominoes": "Dominoes",
}
POSITIVE = ("trumps", "dominoes")
TOTALS = {
    "no_tricks": -26,
    "no_queens": -24,
    "no_hearts": -30,
    "no_last_two": -30,
    "barbu": -20,
    "trumps": 65,
    "dominoes": 65,
}
COUNTED = {
    "no_tricks": ("tricks", 13, -2),
    "no_queens": ("queens", 4, -6),
    "no_hearts": ("hearts", 13, -2),
    "trumps": ("tricks", 13, 5),
}
"""Contracts scored by a count per player: what is counted, its sum, and what each one costs."""
ACE_OF_HEARTS = -6
LAST_TWO = {"second_last": -10, "last": -20}
BARBU = -20
DOMINOES = (45, 20, 5, -5)


def read_count(table: Table, taken: Any, what: str, total: int) -> dict[str, int]:
    """Check a count per player (tricks, queens or hearts): every player once, adding up."""
    if not isinstance(taken, dict):
        raise Refusal.at("taken", f"Give the {what} each player took: player name → number.")
    problems = Problems()

    def read_one(name: str, count: Any, path: str) -> int:
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= total:
            raise Refusal.at(path, f"{name} took between 0 and {total} {what}.")
        return count

    counts = table.each(taken, "taken", read_one, problems)
    for name in table.players:
        if name not in counts:
            problems.add(f"taken.{name}", f"Say how many {what} {name} took.")
    problems.raise_any()
    if sum(counts.values()) != total:
        shown = " + ".join(str(counts[name]) for name in table.players)
        added = sum(counts.values())
        raise Refusal.at("taken", f"The {what} must add up to {total}: {shown} = {added}.")
    return {name: counts[name] for name in table.players}


def read_who(table: Table, given: Any, path: str, what: str) -> str:
    """Check who took a single card or trick."""
    if given is None:
        raise Refusal.at(path, f"Say who took {what}.")
    return table.player(given, path)


def read_taken(table: Table, contract: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Check what the contract counts: per-player numbers, who took a card, or the order out."""
    taken = data.get("taken")
    if contract in COUNTED:
        what, total, _ = COUNTED[contract]
        read: dict[str, Any] = {"taken": read_count(table, taken, what, total)}
        if contract == "no_hearts":
            ace = read_who(table, data.get("ace_of_hearts"), "ace_of_hearts", "the A♥")
            if read["taken"][ace] == 0:
                raise Refusal.at("ace_of_hearts", f"{ace} took the A♥, so took at least one heart.")
            read["ace_of_hearts"] = ace
        return read
    if not isinstance(taken, dict):
        raise Refusal.at("taken", f"Say who took what in {CONTRACTS[contract]}.")
    expected = {"no_last_two": {"second_last", "last"}, "barbu": {"king_of_hearts"}}
    unknown = sorted(set(taken) - expected.get(contract, {"order"}))
    if unknown:
        raise Refusal.at(f"taken.{unknown[0]}", f"{CONTRACTS[contract]} counts no {unknown[0]!r}.")
    if contract == "no_last_two":
        problems = Problems()
        read = {}
        for trick, label in (("second_last", "the second-last trick"), ("last", "the last trick")):
            with problems.collect():
                read[trick] = read_who(table, taken.get(trick), f"taken.{trick}", label)
        problems.raise_any()
        return {"taken": read}
    if contract == "barbu":
        king = read_who(table, taken.get("king_of_hearts"), "taken.king_of_hearts", "the K♥")
        return {"taken": {"king_of_hearts": king}}
    return {"taken": {"order": read_order(table, taken.get("order"))}}


def read_order(table: Table, order: Any) -> list[str]:
    """Check the dominoes finishing order: every player once."""
    if not isinstance(order, list) or len(order) != len(table.players):
        raise Refusal.at("taken.order", "Give the finishing order of all four players.")
    problems = Problems()
    names: list[str] = []
    for place, given in enumerate(order):
        with problems.collect():
            name = table.player(given, f"taken.order.{place}")
            if name in names:
                raise Refusal.at(f"taken.order.{place}", f"{name} is named twice in the order.")
            names.append(name)
    problems.raise_any()
    return names


def read_doubles(table: Table, given: Any) -> list[list[str]]:
    """Check the doubles as [doubler, doubled] pairs: real players, nobody doubling themselves."""
    if given is None:
        return []
    if not isinstance(given, list):
        raise Refusal.at("doubles", "Doubles are a list of [doubler, doubled] pairs.")
    problems = Problems()
    pairs: list[list[str]] = []
    for i, pair in enumerate(given):
        path = f"doubles.{i}"
        with problems.collect():
            if not isinstance(pair, list) or len(pair) != 2:
                raise Refusal.at(path, "A double is a [doubler, doubled] pair.")
            doubler, doubled = (table.player(name, path) for name in pair)
            if doubler == doubled:
                raise Refusal.at(path, f"{doubler} cannot double themselves.")
            if [doubler, doubled] in pairs:
                raise Refusal.at(path, f"{doubler} doubles {doubled} only once.")
            pairs.append([doubler, doubled])
    problems.raise_any()
    return pairs


def read_hand(table: Table, data: Any) -> dict[str, Any]:
    """Check one hand's shape: the contract, what it counts and the doubles."""
    if not isinstance(data, dict):
        raise Refusal("A hand must be an object with contract, taken and doubles.")
    contract = data.get("contract")
    if not isinstance(contract, str) or contract not in CONTRACTS:
        choices = explain.names(list(CONTRACTS), "or")
        raise Refusal.at("contract", f"The contract is one of: {choices}.")
    problems = Problems()
    hand: dict[str, Any] = {"contract": contract}
    if data.get("declarer") is not None:
        with problems.collect():
            hand["declarer"] = table.player(data["declarer"], "declarer")
    with problems.collect():
        hand |= read_taken(table, contract, data)
    with problems.collect():
        hand["doubles"] = read_doubles(table, data.get("doubles"))
    known = {"declarer", "contract", "taken", "doubles"}
    if contract == "no_hearts":
        known.add("ace_of_hearts")
    for unknown in sorted(set(data) - known):
        problems.add(unknown, f"A {CONTRACTS[contract]} hand has no field {unknown!r}.")
    problems.raise_any()
    return hand


# --- the declarer's turn, and the doubles the rules allow -------------------------------------


def declarer_of(table: Table, hand_index: int) -> str:
    """Return who declares the hand at this index (0-based): seven hands each, round the table."""
    first = table.players.index(table.options["first_declarer"])
    return table.players[(first + hand_index // HANDS_PER_DECLARER) % len(table.players)]


def check_doubles(hand: Mapping[str, Any], declarer: str) -> None:
    """Refuse doubles the rules forbid: the declarer only redoubles, and only the declarer is
    doubled in a positive contract."""
    pairs = hand["doubles"]
    positive = hand["contract"] in POSITIVE
    problems = Problems()
    for i, (doubler, doubled) in enumerate(pairs):
        if doubler == declarer and [doubled, doubler] not in pairs:
            problems.add(
                f"doubles.{i}",
                f"{declarer} declares, so may only redouble a player who doubled them.",
            )
        elif positive and declarer not in (doubler, doubled):
            problems.add(
                f"doubles.{i}",
                f"In {CONTRACTS[hand['contract']]} only the declarer, {declarer}, may be doubled.",
            )
    problems.raise_any()


def settle(
    table: Table, raw: Mapping[str, int], pairs: Sequence[Sequence[str]]
) -> tuple[dict[str, int], list[str]]:
    """Settle the doubles pair by pair: the difference once, or twice when redoubled."""
    net = dict(raw)
    sentences = []
    for a, b in combinations(table.players, 2):
        times = ([a, b] in pairs) + ([b, a] in pairs)
        if not times:
            continue
        high, low = (a, b) if raw[a] >= raw[b] else (b, a)
        diff = raw[high] - raw[low]
        moved = diff * times
        net[high] += moved
        net[low] -= moved
        how = "redoubled" if times == 2 else "doubled"
        sentences.append(
            f"{a}–{b} {how}: the difference is {diff}"
            + (f", twice {diff} = {moved}" if times == 2 else "")
            + (f": {high} +{moved}, {low} −{moved}." if moved else ", so nothing moves.")
        )
    return net, sentences


def raw_scores(table: Table, hand: Mapping[str, Any]) -> tuple[dict[str, int], list[str]]:
    """Score the contract before doubles, with a sentence; the scores add up to its total."""
    contract, taken = hand["contract"], hand["taken"]
    raw = dict.fromkeys(table.players, 0)
    if contract in COUNTED:
        what, _, each = COUNTED[contract]
        for name, count in taken.items():
            raw[name] = count * each
        parts = [f"{name} {count} × {each}" for name, count in taken.items() if count]
        sentences = [f"{CONTRACTS[contract]}, {each} for each of the {what}: {'; '.join(parts)}."]
        if contract == "no_hearts":
            ace = hand["ace_of_hearts"]
            raw[ace] += ACE_OF_HEARTS - each
            sentences.append(f"{ace} took the A♥: {ACE_OF_HEARTS} for it instead of {each}.")
    elif contract == "no_last_two":
        for trick, value in LAST_TWO.items():
            raw[taken[trick]] += value
        sentences = [
            f"No last two: {taken['second_last']} took the second-last trick "
            f"({LAST_TWO['second_last']}), {taken['last']} the last ({LAST_TWO['last']})."
        ]
    elif contract == "barbu":
        raw[taken["king_of_hearts"]] = BARBU
        sentences = [f"Barbu: {taken['king_of_hearts']} took the K♥: {BARBU}."]
    else:
        places = list(zip(taken["order"], DOMINOES, strict=True))
        for name, value in places:
            raw[name] = value
        shown = ", ".join(f"{name} {value:+d}" for name, value in places)
        sentences = [f"Dominoes, in the order out: {shown}."]
    sentences.append(
        "Raw: "
        + ", ".join(f"{name} {raw[name]}" for name in table.players)
        + f" (total {TOTALS[contract]})."
    )
    assert sum(raw.values()) == TOTALS[contract], "a contract's raw scores add up to its total"
    return raw, sentences
