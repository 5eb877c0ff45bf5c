"""An event's draw and standings: who sits at which table each round, and how entrants rank.

Pure functions over names and totals: the draw seats every entrant at one table or gives a
bye; the standings add up each entrant's finished matches. How a game ranks them is the
game's own (`Scorer.event_order`, `Scorer.event_rule`).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

SEATING_STEPS = 2_000_000
"""How far the search of a draw at tables of three or more may go (a step: a seat tried, or an
entrant counted by a lower bound) before it keeps the best seating found: 1 to 2.5 s on the
2-core machine. Steps, not seconds, so the same inputs always draw the same tables."""

SWAP_TRIES = 300_000
"""How many swaps of two entrants a draw at tables of three or more may weigh, to start its
search from a seating with few repeats (0.1 to 0.5 s on the 2-core machine)."""

TABU_SWAPS = 15
"""For how many swaps an entrant swapped away from a table may not be swapped back."""


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
    byes go to those who had fewest, the lowest placed first. The tables then repeat as few
    meetings as possible and, among the seatings that do, are filled from the top of the
    standings: the best placed sits with the best placed others it can.
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


def met_masks(order: Sequence[str], met: set[frozenset[str]]) -> list[int]:
    """Whom each entrant has met, as bits over `order`: a table's repeats are then counted with
    a few integer operations."""
    place = {name: i for i, name in enumerate(order)}
    masks = [0] * len(order)
    for first, second in met:
        if first in place and second in place:
            masks[place[first]] |= 1 << place[second]
            masks[place[second]] |= 1 << place[first]
    return masks


def pairing(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    """Pair entrants top down with the fewest rematches possible: from the top, each meets the
    best placed entrant left with whom the others can still be paired with no more.

    The fewest is exact, whatever the field: a pairing of the most entrants who have not met
    (a maximum matching) leaves the others to rematch, and each pair taken is checked by
    mending that matching without the two.
    """
    count = len(order)
    earlier = met_masks(order, met)
    new_faces = [
        [other for other in range(count) if other != one and not earlier[one] >> other & 1]
        for one in range(count)
    ]
    paired = [False] * count
    mate = [-1] * count
    for one in range(count):
        # Each the first new face still free, then the longer way round for those left alone.
        other = next((other for other in new_faces[one] if mate[other] == -1), None)
        if mate[one] == -1 and other is not None:
            mate[one], mate[other] = other, one
    for one in range(count):
        if mate[one] == -1:
            augment(new_faces, paired, mate, one)
    matched = sum(partner != -1 for partner in mate) // 2
    rematches = count // 2 - matched
    pairs = []
    for first in range(count):
        if paired[first]:
            continue
        for other in range(first + 1, count):
            again = earlier[first] >> other & 1
            if paired[other] or again > rematches:
                continue
            # Without these two, the matching must still leave no more than `rematches`.
            freed = [mate[one] for one in (first, other) if mate[one] not in (-1, first, other)]
            trial = mate.copy()
            kept = matched - (mate[first] != -1) - (mate[other] not in (-1, first))
            for one in (first, other, *freed):
                trial[one] = -1
            paired[first] = paired[other] = True
            wanted = matched - 1 + again
            alone = [one for one in range(count) if not paired[one] and trial[one] == -1]
            for one in freed + [one for one in alone if one not in freed]:
                if kept >= wanted:
                    break
                kept += trial[one] == -1 and augment(new_faces, paired, trial, one)
            if kept >= wanted:
                mate, matched, rematches = trial, kept, rematches - again
                pairs.append((order[first], order[other]))
                break
            paired[first] = paired[other] = False
    return pairs


def augment(new_faces: list[list[int]], paired: list[bool], mate: list[int], root: int) -> bool:
    """Give `root` a new face to play by moving others along an alternating path (Edmonds'
    blossoms): one more pair that has not met, if there is a way; return whether there was."""
    count = len(mate)
    parent = [-1] * count
    base = list(range(count))
    reached = [False] * count
    reached[root] = True
    queue = deque([root])

    def common_base(one: int, other: int) -> int:
        """Where the two paths back to the root meet: the base of the blossom they close."""
        seen = set()
        while True:
            one = base[one]
            seen.add(one)
            if mate[one] == -1:
                break
            one = parent[mate[one]]
        while base[other] not in seen:
            other = parent[mate[base[other]]]
        return base[other]

    def mark(one: int, top: int, child: int, blossom: list[bool]) -> None:
        """Mark the path from `one` to the blossom's base, each step pointing back the other way."""
        while base[one] != top:
            blossom[base[one]] = blossom[base[mate[one]]] = True
            parent[one] = child
            child = mate[one]
            one = parent[mate[one]]

    while queue:
        one = queue.popleft()
        for other in new_faces[one]:
            if paired[other] or base[one] == base[other] or mate[one] == other:
                continue
            if other == root or (mate[other] != -1 and parent[mate[other]] != -1):
                top = common_base(one, other)
                blossom = [False] * count
                mark(one, top, other, blossom)
                mark(other, top, one, blossom)
                for inside in range(count):
                    if blossom[base[inside]]:
                        base[inside] = top
                        if not reached[inside]:
                            reached[inside] = True
                            queue.append(inside)
            elif parent[other] == -1:
                parent[other] = one
                if mate[other] == -1:
                    while other != -1:
                        onward = mate[parent[other]]
                        mate[other], mate[parent[other]] = parent[other], other
                        other = onward
                    return True
                reached[mate[other]] = True
                queue.append(mate[other])
    return False


def grouping(order: list[str], sizes: list[int], met: set[frozenset[str]]) -> list[list[str]]:
    """Seat tables of these sizes with the fewest repeated meetings, top down (`seating`)."""
    tables, _proven = seating(sizes, met_masks(order, met))
    return [[order[i] for i in table] for table in tables]


def seating(sizes: Sequence[int], earlier: list[int]) -> tuple[list[list[int]], bool]:
    """Seat entrants 0, 1, … (best placed first) at tables of these sizes with the fewest
    repeats, top down; say whether those are proven the fewest.

    Seatings are ordered top down: the best placed entrant left opens the next table (at the
    first size left, then the next), with the best placed others. The search goes through them
    in that order, from the best seating swaps found (`swapped`), skipping every branch that a
    lower bound shows cannot do better, and keeps the first seating with the fewest repeats.
    They are proven the fewest when it ends within SEATING_STEPS, or when they are no more than
    the lower bound (no repeat at all, always).
    """
    everyone = (1 << len(earlier)) - 1
    search = SeatingSearch(earlier, fewest_possible(everyone, earlier, sizes))
    start = top_down(sizes, earlier)
    if repeats(start, earlier) > search.floor:
        start = swapped(start, earlier, search.floor)
    search.best, search.repeats = start, repeats(start, earlier)
    search.tables_for(everyone, tuple(sizes), 0, [])
    return search.best, not search.spent or search.repeats <= search.floor


class SeatingSearch:
    """The state of `seating`'s search: the best seating so far and the bounds learned."""

    def __init__(self, earlier: list[int], floor: int) -> None:
        self.earlier, self.floor = earlier, floor
        self.best: list[list[int]] = []
        self.repeats = 0
        self.searched = False  # the best so far is the search's own, not the swaps'
        self.bounds: dict[tuple[int, tuple[int, ...]], int] = {}
        self.shapes: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.steps = 0
        self.spent = False

    def room(self, so_far: int) -> int:
        """How many more repeats a seating may have and be kept: fewer than the best searched,
        or as few as the best swapped (the first searched with as many comes before it)."""
        return self.repeats - so_far - self.searched

    def tables_for(self, left: int, sizes: tuple[int, ...], so_far: int, tables: list) -> bool:
        """Seat `left` at tables of `sizes`, in order; True once nothing can do better or the
        steps are spent."""
        if not left:
            self.best, self.repeats = [list(table) for table in tables], so_far
            self.searched = True
            return so_far <= self.floor
        key = (left, sizes)
        if key not in self.bounds:
            self.steps += left.bit_count()
            self.bounds[key] = fewest_possible(left, self.earlier, sizes)
        allowed = self.room(so_far)
        if self.bounds[key] > allowed:
            return False
        found = self.repeats, self.searched
        first = left & -left
        for size in dict.fromkeys(sizes):
            cut = sizes.index(size)
            rest = sizes[:cut] + sizes[cut + 1 :]
            rest = self.shapes.setdefault(rest, rest)  # one tuple for every key of that shape
            if self.seats(
                [first.bit_length() - 1], first, left ^ first, size, rest, so_far, tables
            ):
                return True
        if (self.repeats, self.searched) == found:
            # Nothing here had `allowed` repeats or fewer: a bound for the next time.
            self.bounds[key] = allowed + 1
        return False

    def seats(
        self, table: list[int], at_table: int, left: int, size: int, rest: tuple, so_far: int,
        tables: list,
    ) -> bool:  # fmt: skip
        """Fill `table` up to `size` from `left`, best placed first, after its last seated."""
        self.steps += 1
        if self.steps > SEATING_STEPS:
            self.spent = True
            return True
        if len(table) == size:
            tables.append(table)
            done = self.tables_for(left, rest, so_far, tables)
            tables.pop()
            return done
        wanted = size - len(table)
        candidates = (left >> (table[-1] + 1)) << (table[-1] + 1)
        while candidates.bit_count() >= wanted:
            allowed = self.room(so_far)
            if allowed < 0:
                return False
            if allowed == 0:
                for one in table:
                    candidates &= ~self.earlier[one]
                if candidates.bit_count() < wanted:
                    return False
            lowest = candidates & -candidates
            candidates ^= lowest
            again = (self.earlier[lowest.bit_length() - 1] & at_table).bit_count()
            if again <= allowed and self.seats(
                [*table, lowest.bit_length() - 1], at_table | lowest, left ^ lowest, size,
                rest, so_far + again, tables,
            ):  # fmt: skip
                return True
        return False


def fewest_possible(left: int, earlier: list[int], sizes: Sequence[int]) -> int:
    """A lower bound on the repeats of seating `left` at tables of these sizes: one who has k
    new faces there (itself counted) repeats at least size - k meetings at a table of that size,
    the smaller tables going to those with the fewest; each repeat counts for its two."""
    biggest = max(sizes)
    short = []
    rest = left
    while rest:
        lowest = rest & -rest
        rest ^= lowest
        new = (left & ~earlier[lowest.bit_length() - 1]).bit_count()
        if new < biggest:
            short.append(new)
    short.sort()
    missing = 0
    seat_sizes = (size for size in sorted(sizes) for _seat in range(size))
    for new, size in zip(short, seat_sizes, strict=False):
        missing += max(0, size - new)
    return (missing + 1) // 2


def repeats(tables: Iterable[Sequence[int]], earlier: list[int]) -> int:
    """How many pairs seated at these tables have met before."""
    return sum(
        earlier[one] >> other & 1
        for table in tables
        for i, one in enumerate(table)
        for other in table[i + 1 :]
    )


def top_down(sizes: Sequence[int], earlier: list[int]) -> list[list[int]]:
    """Fill each table in turn: the best placed left, then each seat to the best placed left
    who has met the fewest of those already at the table."""
    left = list(range(len(earlier)))
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        at_table = 1 << table[0]
        while len(table) < size:
            met_here = [(earlier[one] & at_table).bit_count() for one in left]
            one = left.pop(met_here.index(min(met_here)))
            table.append(one)
            at_table |= 1 << one
        tables.append(sorted(table))
    return tables


def swapped(tables: list[list[int]], earlier: list[int], floor: int) -> list[list[int]]:
    """Swap two entrants of different tables, each time the swap that leaves fewest repeats (a
    tabu search: for TABU_SWAPS swaps neither goes back), until `floor` is reached or
    SWAP_TRIES swaps are weighed; return the seating with the fewest seen."""
    count = len(earlier)
    at = [0] * count
    for number, table in enumerate(tables):
        for one in table:
            at[one] = number
    met = [[other for other in range(count) if earlier[one] >> other & 1] for one in range(count)]
    met_at = [[0] * len(tables) for _ in range(count)]
    for one in range(count):
        for other in met[one]:
            met_at[one][at[other]] += 1
    now = sum(met_at[one][at[one]] for one in range(count)) // 2
    fewest, fewest_at = now, at.copy()
    back_after: dict[tuple[int, int], int] = {}
    swaps = weighed = 0
    while fewest > floor and weighed < SWAP_TRIES:
        swaps += 1
        chosen = None
        for one in range(count):
            here = at[one]
            if not met_at[one][here]:
                continue
            for other in range(count):
                there = at[other]
                if there == here:
                    continue
                weighed += 1
                both = earlier[one] >> other & 1
                change = (
                    met_at[one][there] - met_at[one][here] + met_at[other][here]
                    - met_at[other][there] - 2 * both
                )  # fmt: skip
                barred = (
                    back_after.get((one, there), 0) > swaps
                    or back_after.get((other, here), 0) > swaps
                )
                if barred and now + change >= fewest:
                    continue
                if chosen is None or change < chosen[0]:
                    chosen = (change, one, other)
        if chosen is None:
            break
        change, one, other = chosen
        here, there = at[one], at[other]
        for seen in met[one]:
            met_at[seen][here] -= 1
            met_at[seen][there] += 1
        for seen in met[other]:
            met_at[seen][there] -= 1
            met_at[seen][here] += 1
        at[one], at[other] = there, here
        back_after[one, here] = back_after[other, there] = swaps + TABU_SWAPS
        now += change
        if now < fewest:
            fewest, fewest_at = now, at.copy()
    seated: list[list[int]] = [[] for _ in tables]
    for one in range(count):
        seated[fewest_at[one]].append(one)
    return sorted(seated)


def meetings(tables: Iterable[Sequence[str]]) -> set[frozenset[str]]:
    """Every pair of entrants who sat at one table."""
    return {frozenset((a, b)) for table in tables for a in table for b in table if a != b}
