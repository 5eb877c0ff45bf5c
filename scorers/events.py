"""An event's draw and standings: who sits at which table each round, and how entrants rank.

Pure functions over names and totals: the draw seats every entrant at one table or gives a
bye; the standings add up each entrant's finished matches. How a game ranks them is the
game's own (`Scorer.event_order`, `Scorer.event_rule`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

SEARCH_STEPS = 20_000
"""How many seatings the pairing tries before it settles for the fewest repeated meetings."""


@dataclass
class Record:
    """One entrant's results so far: matches played and won, points for and against, byes."""

    entrant: str
    played: int = 0
    won: int = 0
    points: int = 0
    against: int = 0
    byes: int = 0
    withdrawn: bool = False


@dataclass(frozen=True)
class Finished:
    """A finished match of the event: each entrant's total, and who won (several share)."""

    totals: Mapping[str, int]
    winners: tuple[str, ...]


@dataclass
class Draw:
    """One round's tables (entrants in seating order) and its byes."""

    tables: list[list[str]]
    byes: list[str] = field(default_factory=list)


def tally(entrants: Iterable[str], finished: Iterable[Finished], byes: Iterable[str]) -> dict:
    """Add up every finished match and bye into one record per entrant.

    A match won counts once for each entrant sharing first place; points against are what
    the others at the table scored; a bye counts as a match won, with no points.
    """
    records = {name: Record(name) for name in entrants}
    for match in finished:
        everyone = sum(match.totals.values())
        for name, total in match.totals.items():
            record = records[name]
            record.played += 1
            record.won += name in match.winners
            record.points += total
            record.against += everyone - total
    for name in byes:
        records[name].byes += 1
        records[name].won += 1
    return records


def ranked(records: Iterable[Record], order) -> list[tuple[int, Record]]:
    """Rank records by a game's order (a sort key, smallest first); equal keys share a rank."""
    listed = sorted(records, key=lambda record: (order(record), record.entrant.casefold()))
    ranks: list[tuple[int, Record]] = []
    for place, record in enumerate(listed, 1):
        tied = ranks and order(ranks[-1][1]) == order(record)
        ranks.append((ranks[-1][0] if tied else place, record))
    return ranks


def table_sizes(count: int, allowed: Sequence[int], preferred: int) -> tuple[list[int], int]:
    """Split `count` entrants into tables of allowed sizes, as near `preferred` as may be;
    return the sizes and how many sit out (only when no split seats everyone)."""
    if count < min(allowed):
        return [], count
    best: tuple[tuple[int, bool], list[int]] | None = None
    for tables in range(1, count // min(allowed) + 1):
        small, extra = divmod(count, tables)
        sizes = [small + 1] * extra + [small] * (tables - extra)
        if all(size in allowed for size in sizes):
            # As near the size asked as may be, and rather smaller tables than larger.
            fit = (max(abs(size - preferred) for size in sizes), sizes[0] > preferred)
            if best is None or fit < best[0]:
                best = (fit, sizes)
    if best is not None:
        return best[1], 0
    size = max(size for size in allowed if size <= count)
    return [size] * (count // size), count % size


def draw(
    standing: Sequence[str],
    met: set[frozenset[str]],
    byes_had: Mapping[str, int],
    allowed: Sequence[int],
    preferred: int,
    seed: int | None = None,
) -> Draw:
    """Draw one round: `standing` lists the entrants still playing, best first.

    With a seed (round 1) they are shuffled first, so the draw is random and repeatable. The
    byes go to those who had fewest, the lowest placed first; tables are then filled from the
    top of the standings, each entrant meeting as few as possible of those met before (for
    tables of two, none at all whenever a pairing without a repeat exists).
    """
    order = list(standing)
    if seed is not None:
        random.Random(seed).shuffle(order)
    sizes, sitting_out = table_sizes(len(order), allowed, preferred)
    byes: list[str] = []
    if sitting_out:
        by_fewest = sorted(
            range(len(order)), key=lambda i: (byes_had.get(order[i], 0), -i)
        )  # fmt: skip
        byes = [order[i] for i in sorted(by_fewest[:sitting_out])]
        order = [name for name in order if name not in byes]
    if all(size == 2 for size in sizes):
        return Draw([list(pair) for pair in pairing(order, met)], byes)
    return Draw(grouping(order, sizes, met), byes)


def pairing(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    """Pair entrants top down, with the fewest meetings that already happened: the first
    pairing found without any is taken, after at most SEARCH_STEPS tries the best so far."""
    best: list[tuple[int, list[tuple[str, str]]]] = []
    steps = 0

    def search(left: list[str], pairs: list[tuple[str, str]], repeats: int) -> bool:
        nonlocal steps
        steps += 1
        if best and (repeats >= best[0][0] or steps > SEARCH_STEPS):
            return False
        if not left:
            best[:] = [(repeats, pairs)]
            return repeats == 0
        first, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            again = frozenset((first, other)) in met
            if search(rest[:i] + rest[i + 1 :], [*pairs, (first, other)], repeats + again):
                return True
        return False

    search(order, [], 0)
    return best[0][1]


def grouping(order: list[str], sizes: list[int], met: set[frozenset[str]]) -> list[list[str]]:
    """Fill tables of these sizes top down: each seat goes to the best placed entrant left
    who has met the fewest of those already at the table."""
    left = list(order)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            meetings = [sum(frozenset((name, seated)) in met for seated in table) for name in left]
            table.append(left.pop(meetings.index(min(meetings))))
        tables.append(table)
    return tables


def meetings(tables: Iterable[Sequence[str]]) -> set[frozenset[str]]:
    """Every pair of entrants who sat at one table."""
    return {frozenset((a, b)) for table in tables for a in table for b in table if a != b}
