"""Porrazo scoring (RULES.md §5): values by rank, captures and limpias, rondas, the tendido,
and the end-of-hand card count."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import permutations, product
from typing import Any

from .. import explain
from ..base import Table
from ..cards import RANKS, read_rank, read_ranks
from ..refusal import Problems, Refusal
from ..words import _, lazy

ORDER = {rank: place for place, rank in enumerate(RANKS, start=1)}
"""Ace low, king high."""
PACK = 52
IN_PLACE = ("A", "2", "3", "4")

SIMPLE = {"K": 4, "Q": 3, "J": 2}
"""Ronda, porrazo and limpia by rank (A–10 are worth 1)."""


def simple(rank: str) -> int:
    """Return what a ronda, porrazo or limpia of this rank is worth: K 4, Q 3, J 2, A–10 1."""
    return SIMPLE.get(rank, 1)


def triple(rank: str) -> int:
    """Return what a rondín or counter-porrazo is worth: 12 / 9 / 6 / 3."""
    return 3 * simple(rank)


def four_of_a_kind(rank: str) -> int:
    """Return what four of a kind is worth: twice a rondín."""
    return 2 * triple(rank)


EVENT_VALUES = {
    "porrazo": simple,
    "counter_porrazo": triple,
    "ronda": simple,
    "rondin": triple,
    "four_of_a_kind": four_of_a_kind,
    "limpia": simple,
    "in_place": lambda rank: ORDER[rank],
}
EVENT_NAMES = {
    "porrazo": lazy("Porrazo"),
    "counter_porrazo": lazy("Counter-porrazo"),
    "san_benito": lazy("San Benito"),
    "ronda": lazy("Ronda"),
    "rondin": lazy("Rondín"),
    "four_of_a_kind": lazy("Four of a kind"),
    "rondas": lazy("Rondas"),
    "limpia": lazy("Limpia"),
    "in_place": lazy("Card in place"),
    "tendido": lazy("Tendido"),
    "confirm": lazy("It stands"),
    "cards": lazy("Card count"),
}


# --- captures, as the capture helper shows them ------------------------------------------------


def next_rank(rank: str, wrap: bool) -> str | None:
    """Return the rank after this one in a run: K wraps to A when `wrap` is on."""
    place = ORDER[rank]
    if place < len(RANKS):
        return RANKS[place]
    return RANKS[0] if wrap else None


def follows(played: str, last: str, wrap: bool) -> bool:
    """Say whether a run going up from the played rank can end on `last`: without wrapping
    it stops at the king, so it never ends below where it started."""
    return wrap or ORDER[last] >= ORDER[played]


def capture(table: Sequence[str], played: str, wrap: bool) -> tuple[list[str], int | None]:
    """Return what a played card captures (its match and the run up from it) and the limpia's
    value if that clears the table, or None."""
    if played not in table:
        return [], None
    captured = [played]
    rank = next_rank(played, wrap)
    while rank is not None and rank in table and rank not in captured:
        captured.append(rank)
        rank = next_rank(rank, wrap)
    if sorted(captured) != sorted(table):
        return captured, None
    return captured, simple(captured[-1])


# --- rondas: the best declared hand of a deal -------------------------------------------------


def read_declared(table: Table, given: Any) -> dict[str, list[str]]:
    """Check the rondas declared: a pair or three of a kind per declaring player."""
    if not isinstance(given, dict) or not given:
        raise Refusal.at(
            "declared", _("Give the declared rondas: player name → ranks, like [7, 7].")
        )
    problems = Problems()

    def read_one(player: str, ranks: Any, path: str) -> list[str]:
        cards = read_ranks(ranks, path)
        if len(cards) not in (2, 3) or len(set(cards)) != 1:
            raise Refusal.at(
                path,
                _("{player} declares a pair or three of a kind, like [7, 7].").format(
                    player=player
                ),
            )
        return cards

    declared = table.each(given, "declared", read_one, problems)
    problems.raise_any()
    one_pack(declared)
    return declared


def one_pack(declared: Mapping[str, list[str]]) -> None:
    """Refuse rondas holding more of a rank between them than the pack's four."""
    held = Counter(card for cards in declared.values() for card in cards)
    for rank, count in sorted(held.items(), key=lambda item: ORDER[item[0]]):
        if count > 4:
            holders = [name for name, cards in declared.items() if cards[0] == rank]
            raise Refusal.at(
                "declared",
                _(
                    "{players} declare {count} {rank}s between them, and a pack has four: "
                    "correct what each of them holds."
                ).format(players=explain.names(holders), count=count, rank=rank),
            )


def best_ronda(table: Table, declared: Mapping[str, list[str]], dealer: str) -> str:
    """Return who holds the best ronda: a rondín beats a ronda, then rank, then the seat
    nearest the dealer's left."""
    seats = table.players
    after_dealer = {
        name: (seats.index(name) - seats.index(dealer) - 1) % len(seats) for name in seats
    }
    return max(
        declared,
        key=lambda name: (len(declared[name]), ORDER[declared[name][0]], -after_dealer[name]),
    )


def ronda_value(cards: Sequence[str]) -> int:
    """Return what a declared pair or three of a kind is worth."""
    return triple(cards[0]) if len(cards) == 3 else simple(cards[0])


# --- who plays next ----------------------------------------------------------------------------


def next_player(players: Sequence[str], player: str) -> str:
    """Return who plays after this player: the next seat, on the left (play goes clockwise)."""
    return players[(players.index(player) + 1) % len(players)]


def next_in_play(table: Table, maker: str) -> str:
    """Return who answers a porrazo: the next player, or with a side named only the other side.

    A peg may name a team instead of its player; its next player is then unknown, but in
    partnerships it is always an opponent.
    """
    if table.teams and maker in table.teams:
        return next(team for team in table.teams if team != maker)
    return next_player(table.players, maker)


# --- the tendido -------------------------------------------------------------------------------


def read_tendido(data: Mapping[str, Any]) -> tuple[list[list[str]], list[str]]:
    """Check the tendido: four cards in two pairs, and the cards already on the table."""
    pairs = data.get("pairs")
    if not isinstance(pairs, list) or len(pairs) != 2:
        raise Refusal.at("pairs", _("A tendido is four cards in two pairs, like [[2, 4], [7, 3]]."))
    problems = Problems()
    read: list[list[str]] = []
    for i, pair in enumerate(pairs):
        with problems.collect():
            cards = read_ranks(pair, f"pairs.{i}")
            if len(cards) != 2:
                raise Refusal.at(f"pairs.{i}", _("Each pair of the tendido has two cards."))
            read.append(cards)
    with problems.collect():
        on_table = read_ranks(data.get("table", []), "table")
    problems.raise_any()
    every = Counter([*read[0], *read[1], *on_table])
    for rank, count in every.items():
        if count > 4:
            raise Refusal.at(
                "table", _("A pack has four {rank}s, not {count}.").format(rank=rank, count=count)
            )
    return read, on_table


def rows(pairs: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Return every row the two pairs can be laid in: pairs kept together, either end first."""
    laid = set()
    for first, second in permutations(pairs):
        for a, b in product(permutations(first), permutations(second)):
            laid.add((*a, *b))
    return sorted(laid)


def in_place(row: Sequence[str]) -> int:
    """Return what the cards in their own position score: an A first, a 2 second, …"""
    return sum(
        ORDER[card]
        for place, card in enumerate(row, start=1)
        if card in IN_PLACE and ORDER[card] == place
    )


def tendido_sets(
    pairs: Sequence[Sequence[str]], on_table: Sequence[str]
) -> list[tuple[str, int, int]]:
    """Return each set of equal ranks that includes a tendido card: (rank, size, value)."""
    laid = [card for pair in pairs for card in pair]
    every = Counter([*laid, *on_table])
    values = {2: simple, 3: triple, 4: four_of_a_kind}
    return [
        (rank, count, values[count](rank))
        for rank, count in sorted(every.items(), key=lambda item: ORDER[item[0]])
        if count >= 2 and rank in laid
    ]


SETS_ON_TABLE = {
    2: lazy("a pair of {rank} on the table: {points}."),
    3: lazy("three of {rank} on the table: {points}."),
    4: lazy("four of {rank} on the table: {points}."),
}
"""What a set the tendido makes with the table scores, by its size."""


def best_tendido(
    pairs: Sequence[Sequence[str]], on_table: Sequence[str]
) -> tuple[int, tuple[str, ...], list[str]]:
    """Return the tendido's best count, the row that makes it, and a sentence for each part."""
    row = max(rows(pairs), key=lambda laid: (in_place(laid), laid))
    placed = in_place(row)
    sets = tendido_sets(pairs, on_table)
    sentences = [
        _("Best row {row}: cards in place {points}.").format(row="-".join(row), points=placed)
    ]
    for rank, size, value in sets:
        sentences.append(SETS_ON_TABLE[size].format(rank=rank, points=value))
    return placed + sum(value for _, _, value in sets), row, sentences


# --- the end of a hand ---------------------------------------------------------------------------


def read_counts(table: Table, given: Any, sides: Sequence[str]) -> dict[str, int]:
    """Check the cards each side won in the hand: every side once, adding up to the pack."""
    if not isinstance(given, dict):
        raise Refusal.at("counts", _("Give the cards each side won: side → number."))
    problems = Problems()
    counts: dict[str, int] = {}
    for name, count in given.items():
        path = f"counts.{name}"
        with problems.collect():
            side = side_named(table, name, path, sides)
            if side in counts:
                raise Refusal.at(path, _("{side} is counted twice.").format(side=side))
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= PACK:
                raise Refusal.at(path, _("A side wins 0 to {pack} cards.").format(pack=PACK))
            counts[side] = count
    for side in sides:
        if side not in counts and not problems.fields:
            problems.add(f"counts.{side}", _("Give the cards {side} won.").format(side=side))
    problems.raise_any()
    if sum(counts.values()) != PACK:
        shown = " + ".join(str(counts[side]) for side in sides)
        raise Refusal.at(
            "counts",
            _("The cards must add up to {pack}: {counts} = {total}.").format(
                pack=PACK, counts=shown, total=sum(counts.values())
            ),
        )
    return {side: counts[side] for side in sides}


def side_named(table: Table, name: Any, path: str, sides: Sequence[str]) -> str:
    """Return the side a name stands for: a team, or a player (whose team it is, if teams)."""
    if (
        table.teams
        and isinstance(name, str)
        and name.strip().casefold() in (t.casefold() for t in sides)
    ):
        return table.team(name, path)
    player = table.player(name, path)
    return table.team_of(player) if table.teams else player


def card_count(counts: Mapping[str, int], option: str) -> tuple[str | None, int, str]:
    """Score the end of a hand: the most cards beat the next by the difference, or over 26."""
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    (top, most), next_most = ranked[0], ranked[1][1]
    if most == next_most:
        return (
            None,
            0,
            _("Card count: {sides} tie with {cards}: nobody scores.").format(
                sides=explain.names([s for s, c in ranked if c == most]), cards=most
            ),
        )
    if option == "over_half":
        return (
            top,
            most - PACK // 2,
            _("Card count: {side} has {cards}, {points} over {half}.").format(
                side=top, cards=most, points=most - PACK // 2, half=PACK // 2
            ),
        )
    return (
        top,
        most - next_most,
        _("Card count: {side} has {cards}, {points} more than the next ({next_cards}).").format(
            side=top, cards=most, points=most - next_most, next_cards=next_most
        ),
    )


def read_rank_for(event: str, given: Any) -> str:
    """Check the rank an event needs (card in place takes A to 4 only)."""
    if given is None:
        raise Refusal.at(
            "rank", _("{event} needs the rank of its cards.").format(event=EVENT_NAMES[event])
        )
    rank = read_rank(given, "rank")
    if event == "in_place" and rank not in IN_PLACE:
        raise Refusal.at("rank", _("A card in place is an A, 2, 3 or 4."))
    return rank
