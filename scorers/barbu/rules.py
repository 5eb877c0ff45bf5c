"""Barbu scoring (RULES.md §3): the seven contracts, the declarer's turn, doubles pair by pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from ..base import Table
from ..refusal import Problems, Refusal, read_one_of
from ..words import _, lazy

HANDS_PER_DECLARER = 7
DOUBLES_OWED = 2
"""Every other player must double the declarer at least this often in the declarer's hands."""

CONTRACTS = {
    "no_tricks": lazy("No tricks"),
    "no_queens": lazy("No queens"),
    "no_hearts": lazy("No hearts"),
    "no_last_two": lazy("No last two"),
    "barbu": lazy("Barbu"),
    "trumps": lazy("Trumps"),
    "dominoes": lazy("Dominoes"),
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
COUNTING = {
    "tricks": {
        "shape": lazy("Give the tricks each player took: player name → number."),
        "range": lazy("{player} took between 0 and {total} tricks."),
        "missing": lazy("Say how many tricks {player} took."),
        "sum": lazy("The tricks must add up to {total}: {shown} = {added}."),
        "scored": lazy("{contract}, {each} for each of the tricks: {parts}."),
        "said": lazy("tricks {counts}"),
    },
    "queens": {
        "shape": lazy("Give the queens each player took: player name → number."),
        "range": lazy("{player} took between 0 and {total} queens."),
        "missing": lazy("Say how many queens {player} took."),
        "sum": lazy("The queens must add up to {total}: {shown} = {added}."),
        "scored": lazy("{contract}, {each} for each of the queens: {parts}."),
        "said": lazy("queens {counts}"),
    },
    "hearts": {
        "shape": lazy("Give the hearts each player took: player name → number."),
        "range": lazy("{player} took between 0 and {total} hearts."),
        "missing": lazy("Say how many hearts {player} took."),
        "sum": lazy("The hearts must add up to {total}: {shown} = {added}."),
        "scored": lazy("{contract}, {each} for each of the hearts: {parts}."),
        "said": lazy("hearts {counts}"),
    },
}
"""What is said of each thing counted, in whole sentences, as translators need them."""
ACE_OF_HEARTS = -6
LAST_TWO = {"second_last": -10, "last": -20}
BARBU = -20
DOMINOES = (45, 20, 5, -5)


def read_count(table: Table, taken: Any, what: str, total: int) -> dict[str, int]:
    """Check a count per player (tricks, queens or hearts): every player once, adding up."""
    said = COUNTING[what]
    if not isinstance(taken, dict):
        raise Refusal.at("taken", str(said["shape"]))
    problems = Problems()

    def read_one(name: str, count: Any, path: str) -> int:
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= total:
            raise Refusal.at(path, said["range"].format(player=name, total=total))
        return count

    counts = table.each(taken, "taken", read_one, problems)
    for name in table.players:
        if name not in counts:
            problems.add(f"taken.{name}", said["missing"].format(player=name))
    problems.raise_any()
    if sum(counts.values()) != total:
        shown = " + ".join(str(counts[name]) for name in table.players)
        added = sum(counts.values())
        raise Refusal.at("taken", said["sum"].format(total=total, shown=shown, added=added))
    return {name: counts[name] for name in table.players}


def read_who(table: Table, given: Any, path: str, missing: str) -> str:
    """Check who took a single card or trick; `missing` asks for it when nobody is named."""
    if given is None:
        raise Refusal.at(path, missing)
    return table.player(given, path)


def read_taken(table: Table, contract: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Check what the contract counts: per-player numbers, who took a card, or the order out."""
    taken = data.get("taken")
    if contract in COUNTED:
        what, total, _cost = COUNTED[contract]
        read: dict[str, Any] = {"taken": read_count(table, taken, what, total)}
        if contract == "no_hearts":
            ace = read_who(
                table, data.get("ace_of_hearts"), "ace_of_hearts", _("Say who took the A♥.")
            )
            if read["taken"][ace] == 0:
                raise Refusal.at(
                    "ace_of_hearts",
                    _("{player} took the A♥, so took at least one heart.").format(player=ace),
                )
            read["ace_of_hearts"] = ace
        return read
    if not isinstance(taken, dict):
        raise Refusal.at(
            "taken", _("Say who took what in {contract}.").format(contract=CONTRACTS[contract])
        )
    expected = {"no_last_two": {"second_last", "last"}, "barbu": {"king_of_hearts"}}
    unknown = sorted(set(taken) - expected.get(contract, {"order"}))
    if unknown:
        raise Refusal.at(
            f"taken.{unknown[0]}",
            _("{contract} counts no {field}.").format(
                contract=CONTRACTS[contract], field=repr(unknown[0])
            ),
        )
    if contract == "no_last_two":
        problems = Problems()
        read = {}
        for trick, missing in (
            ("second_last", _("Say who took the second-last trick.")),
            ("last", _("Say who took the last trick.")),
        ):
            with problems.collect():
                read[trick] = read_who(table, taken.get(trick), f"taken.{trick}", missing)
        problems.raise_any()
        return {"taken": read}
    if contract == "barbu":
        king = read_who(
            table, taken.get("king_of_hearts"), "taken.king_of_hearts", _("Say who took the K♥.")
        )
        return {"taken": {"king_of_hearts": king}}
    return {"taken": {"order": read_order(table, taken.get("order"))}}


def read_order(table: Table, order: Any) -> list[str]:
    """Check the dominoes finishing order: every player once."""
    if not isinstance(order, list) or len(order) != len(table.players):
        raise Refusal.at("taken.order", _("Give the finishing order of all four players."))
    problems = Problems()
    names: list[str] = []
    for place, given in enumerate(order):
        with problems.collect():
            name = table.player(given, f"taken.order.{place}")
            if name in names:
                raise Refusal.at(
                    f"taken.order.{place}",
                    _("{player} is named twice in the order.").format(player=name),
                )
            names.append(name)
    problems.raise_any()
    return names


def read_doubles(table: Table, given: Any) -> list[list[str]]:
    """Check the doubles as [doubler, doubled] pairs: real players, nobody doubling themselves."""
    if given is None:
        return []
    if not isinstance(given, list):
        raise Refusal.at("doubles", _("Doubles are a list of [doubler, doubled] pairs."))
    problems = Problems()
    pairs: list[list[str]] = []
    for i, pair in enumerate(given):
        path = f"doubles.{i}"
        with problems.collect():
            if not isinstance(pair, list) or len(pair) != 2:
                raise Refusal.at(path, _("A double is a [doubler, doubled] pair."))
            doubler, doubled = (table.player(name, path) for name in pair)
            if doubler == doubled:
                raise Refusal.at(
                    path, _("{player} cannot double themselves.").format(player=doubler)
                )
            if [doubler, doubled] in pairs:
                raise Refusal.at(
                    path,
                    _("{doubler} doubles {doubled} only once.").format(
                        doubler=doubler, doubled=doubled
                    ),
                )
            pairs.append([doubler, doubled])
    problems.raise_any()
    return pairs


def read_hand(table: Table, data: Any) -> dict[str, Any]:
    """Check one hand's shape: the contract, what it counts and the doubles."""
    if not isinstance(data, dict):
        raise Refusal(_("A hand must be an object with contract, taken and doubles."))
    contract = read_one_of(
        data.get("contract"),
        "contract",
        CONTRACTS,
        lambda choices: _("The contract is one of: {choices}.").format(choices=choices),
    )
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
    problems.add_unknown(
        data, known, _("A {contract} hand has no field {field}."), contract=CONTRACTS[contract]
    )
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
                _("{declarer} declares, so may only redouble a player who doubled them.").format(
                    declarer=declarer
                ),
            )
        elif positive and declarer not in (doubler, doubled):
            problems.add(
                f"doubles.{i}",
                _("In {contract} only the declarer, {declarer}, may be doubled.").format(
                    contract=CONTRACTS[hand["contract"]], declarer=declarer
                ),
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
        if times == 2 and moved:
            sentence = _(
                "{first}–{second} redoubled: the difference is {difference}, "
                "twice {difference} = {moved}: {higher} +{moved}, {lower} −{moved}."
            )
        elif times == 2:
            sentence = _(
                "{first}–{second} redoubled: the difference is {difference}, "
                "twice {difference} = {moved}, so nothing moves."
            )
        elif moved:
            sentence = _(
                "{first}–{second} doubled: the difference is {difference}: "
                "{higher} +{moved}, {lower} −{moved}."
            )
        else:
            sentence = _(
                "{first}–{second} doubled: the difference is {difference}, so nothing moves."
            )
        sentences.append(
            sentence.format(first=a, second=b, difference=diff, moved=moved, higher=high, lower=low)
        )
    return net, sentences


def raw_scores(table: Table, hand: Mapping[str, Any]) -> tuple[dict[str, int], list[str]]:
    """Score the contract before doubles, with a sentence; the scores add up to its total."""
    contract, taken = hand["contract"], hand["taken"]
    raw = dict.fromkeys(table.players, 0)
    if contract in COUNTED:
        what, _total, each = COUNTED[contract]
        for name, count in taken.items():
            raw[name] = count * each
        parts = "; ".join(f"{name} {count} × {each}" for name, count in taken.items() if count)
        scored = COUNTING[what]["scored"]
        sentences = [scored.format(contract=CONTRACTS[contract], each=each, parts=parts)]
        if contract == "no_hearts":
            ace = hand["ace_of_hearts"]
            raw[ace] += ACE_OF_HEARTS - each
            sentences.append(
                _("{player} took the A♥: {ace} for it instead of {each}.").format(
                    player=ace, ace=ACE_OF_HEARTS, each=each
                )
            )
    elif contract == "no_last_two":
        for trick, value in LAST_TWO.items():
            raw[taken[trick]] += value
        sentences = [
            _(
                "No last two: {second_last} took the second-last trick ({second_last_points}), "
                "{last} the last ({last_points})."
            ).format(
                second_last=taken["second_last"],
                second_last_points=LAST_TWO["second_last"],
                last=taken["last"],
                last_points=LAST_TWO["last"],
            )
        ]
    elif contract == "barbu":
        raw[taken["king_of_hearts"]] = BARBU
        sentences = [
            _("Barbu: {player} took the K♥: {points}.").format(
                player=taken["king_of_hearts"], points=BARBU
            )
        ]
    else:
        places = list(zip(taken["order"], DOMINOES, strict=True))
        for name, value in places:
            raw[name] = value
        shown = ", ".join(f"{name} {value:+d}" for name, value in places)
        sentences = [_("Dominoes, in the order out: {order}.").format(order=shown)]
    scores = ", ".join(f"{name} {raw[name]}" for name in table.players)
    sentences.append(
        _("Raw: {scores} (total {total}).").format(scores=scores, total=TOTALS[contract])
    )
    assert sum(raw.values()) == TOTALS[contract], "a contract's raw scores add up to its total"
    return raw, sentences
