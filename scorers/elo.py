"""Ratings: who is really the best pair of the club, derived from finished matches, oldest first.

Elo for two sides; for three or more, the usual multi-player extension: every pair of sides at
the table is a game of Elo, and each side moves by the mean of its pairs. Partners in a team
game share their side's move. Pure: matches in, ratings out. A board already rated can be taken
back to before a match and played on from there: the same ratings as rating it all again.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

START = 1500
"""Everyone's rating before their first match of a game and variant."""
K = 32
"""How far one match moves a rating at most (between two sides)."""
SCALE = 400
"""A side rated SCALE above another is expected to win ten times out of eleven."""
RANKED_AFTER = 5
"""How many finished matches a player needs before a leaderboard ranks them."""


@dataclass(frozen=True)
class Finished:
    """A finished match as ratings read it: each side's players and its place (1 is best)."""

    match_id: int
    board: tuple[str, str]
    """The game and the variant it is rated in."""
    sides: Mapping[str, tuple[str, ...]]
    places: Mapping[str, int]
    at: str = ""
    """When it was started: a board rates its matches in order of (at, match id)."""


@dataclass
class Rating:
    """A player's rating in one game and variant, its matches, and its path so far."""

    rating: float = START
    matches: int = 0
    path: list[tuple[int, float]] = field(default_factory=list)
    """(match id, rating after it), oldest first."""


def expected(mine: float, theirs: float) -> float:
    """The share of a game of Elo a side rated `mine` is expected to take from `theirs`."""
    return 1 / (1 + 10 ** ((theirs - mine) / SCALE))


def moves(ratings: Mapping[str, float], places: Mapping[str, int]) -> dict[str, float]:
    """How far each side moves: against every other side, 1 for a better place, ½ for the
    same, 0 for a worse, less what was expected; summed and shared over the other sides."""
    others = len(ratings) - 1
    moved = {}
    for side, mine in ratings.items():
        total = 0.0
        for other, theirs in ratings.items():
            if other != side:
                won = (
                    1.0
                    if places[side] < places[other]
                    else 0.5
                    if places[side] == places[other]
                    else 0.0
                )
                total += won - expected(mine, theirs)
        moved[side] = K * total / others
    return moved


def share(mine: int, theirs: int) -> float:
    """What a place takes from another in a game of Elo: 1 ahead, ½ level, 0 behind."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


@dataclass(frozen=True)
class Board:
    """One game and variant's ratings by player and the matches rated into them. Never changed
    once made, only replaced: a page may still be reading the one before."""

    ratings: Mapping[str, Rating] = field(default_factory=dict)
    rated: Sequence[tuple[str, int]] = ()
    """(at, match id) of every match rated, in the order rated."""


def rate(history: Iterable[Finished]) -> dict[tuple[str, str], Board]:
    """Play the finished matches in order; return each board's ratings."""
    boards: dict[tuple[str, str], list[Finished]] = {}
    for match in history:
        boards.setdefault(match.board, []).append(match)
    return {board: played(Board(), matches) for board, matches in boards.items()}


def played(board: Board, history: Iterable[Finished]) -> Board:
    """Play matches of the board, each rated after every match it already rated, on top of it;
    the board itself is left as it was."""
    ratings, rated = dict(board.ratings), list(board.rated)
    fresh: set[str] = set()
    for match in history:
        for player in (p for side in match.sides.values() for p in side if p not in fresh):
            kept = ratings.get(player, Rating())
            ratings[player] = Rating(kept.rating, kept.matches, list(kept.path))
            fresh.add(player)
        side_ratings = {
            side: sum(ratings[p].rating for p in members) / len(members)
            for side, members in match.sides.items()
        }
        for side, moved in moves(side_ratings, match.places).items():
            for player in match.sides[side]:
                rating = ratings[player]
                rating.rating += moved
                rating.matches += 1
                rating.path.append((match.match_id, rating.rating))
        rated.append((match.at, match.match_id))
    return Board(ratings, rated)


def rewound(board: Board, before: tuple[str, int]) -> Board:
    """Take the board back to before the match `before` names (its at and id) was rated: that
    match and every later one are taken out, each player's rating is the one they had then."""
    kept = bisect.bisect_left(board.rated, before)
    if kept == len(board.rated):
        return board
    gone = {match_id for _at, match_id in board.rated[kept:]}
    ratings = {}
    for player, rating in board.ratings.items():
        cut = len(rating.path)
        while cut and rating.path[cut - 1][0] in gone:
            cut -= 1
        if cut == len(rating.path):
            ratings[player] = rating
        elif cut:
            ratings[player] = Rating(rating.path[cut - 1][1], cut, rating.path[:cut])
    return Board(ratings, board.rated[:kept])


def places(order: Mapping[str, float], winner: str | None) -> dict[str, int]:
    """Place the sides: the winner first, then by `order` (higher is better); equal share."""
    key = {side: (side == winner, value) for side, value in order.items()}
    ranked = sorted(key.values(), reverse=True)
    return {side: ranked.index(value) + 1 for side, value in key.items()}
