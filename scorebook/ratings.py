"""Ratings per player, game and variant, derived from the finished matches and kept in memory
under the stamp of the finished results they were derived from. A round of a match still played
leaves them; a finish, a correction, a removal, an import or a rename rates again only the
boards it touched, each from the first match it changed on."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Any

import orjson

from scorebook import storage
from scorebook.storage import Database
from scorers import GAMES
from scorers.elo import RANKED_AFTER, Board, Finished, places, played, rate, rewound

Boards = dict[tuple[str, str], Board]


@dataclass(frozen=True)
class Kept:
    """One circle's boards and the stamp of the results they were derived from."""

    stamp: int
    boards: Boards


_kept: dict[tuple[str, int | None], Kept] = {}
"""Each circle's boards, by file and circle, the last rated last."""
KEPT_CIRCLES = 256
"""How many circles' ratings one process keeps: a server of thousands holds its busiest."""
_deriving = threading.Lock()
"""One derivation at a time: phones reloading together after a change wait for the first."""


def read_boards(db: Database) -> Boards:
    """Every board's ratings as the finished results now stand: one read of their stamp, and
    a derivation only when it moved (several processes share the file, each keeps its own)."""
    circle = (storage.path_of(db), storage.circle_of(db))
    kept = _kept.get(circle)
    if kept is not None and kept.stamp == storage.history_stamp(db):
        return kept.boards
    with _deriving, storage.reading(db):
        kept, stamp = _kept.get(circle), storage.history_stamp(db)
        if kept is not None and kept.stamp == stamp:
            return kept.boards
        if kept is None or kept.stamp > stamp:
            derived = rate(read_finished(storage.finished_seats(db)))
        else:
            derived = rate_again(db, kept.boards, storage.results_since(db, kept.stamp))
        _kept.pop(circle, None)
        _kept[circle] = Kept(stamp, derived)
        if len(_kept) > KEPT_CIRCLES:
            # The circle rated longest ago goes first: it is rated again when next asked.
            del _kept[next(iter(_kept))]
    return derived


def rate_again(
    db: Database, kept: Boards, changed: dict[tuple[str, str], tuple[str, int]]
) -> Boards:
    """Rate each changed board again from the first match it changed on, on top of its
    ratings from before that match; the boards no change touched stay as they were."""
    derived = dict(kept)
    for board, since in changed.items():
        again = played(
            rewound(kept.get(board, Board()), since),
            read_finished(storage.finished_seats(db, board, since)),
        )
        if again.ratings:
            derived[board] = again
        else:
            derived.pop(board, None)
    return derived


def read_finished(rows: list[tuple[Any, ...]]) -> list[Finished]:
    """Read the finished matches from their seats: sides, places and the board rated on."""
    matches = []
    for match_id, seats in itertools.groupby(rows, key=lambda row: row[0]):
        seats = list(seats)
        _id, at, game, variant, options, totals, winner, _key, _side = seats[0]
        scorer = GAMES[game]
        options, totals = orjson.loads(options), orjson.loads(totals)
        sides: dict[str, tuple[str, ...]] = {}
        for *_match, key, side in seats:
            sides[side] = (*sides.get(side, ()), key)
        order = {side: scorer.standing_value(options, totals[side]) for side in sides}
        matches.append(Finished(match_id, (game, variant), sides, places(order, winner), at))
    return matches


def name_variant(game: str, variant: str) -> str:
    """Name a board for people: the game's variant, in the reader's language."""
    return GAMES[game].variant(orjson.loads(variant))


def list_ratings(db: Database, player_key: str) -> list[dict[str, Any]]:
    """A player's ratings, game by game, each with its path, in the games' order."""
    found = [
        {
            "game": game,
            "variant": name_variant(game, variant),
            "variant_key": orjson.loads(variant),
            "rating": round(rating.rating),
            "matches": rating.matches,
            "ranked": rating.matches >= RANKED_AFTER,
            "path": [(match_id, round(value)) for match_id, value in rating.path],
        }
        for (game, variant), board in read_boards(db).items()
        if (rating := board.ratings.get(player_key)) is not None
    ]
    games = list(GAMES)
    return sorted(found, key=lambda r: (games.index(r["game"]), r["variant"]))


def rank_boards(db: Database, game: str) -> list[dict[str, Any]]:
    """A game's boards, each with its ranked players best first (RANKED_AFTER matches at least)
    and, apart, the provisional ones: rated already, with too few matches to be ranked."""
    shown = [
        (variant, board)
        for (board_game, variant), board in sorted(read_boards(db).items())
        if board_game == game
    ]

    def best_first(board: Board, ranked: bool) -> list[tuple[str, Any]]:
        chosen = [
            (key, r) for key, r in board.ratings.items() if (r.matches >= RANKED_AFTER) == ranked
        ]
        return sorted(chosen, key=lambda item: -item[1].rating)

    ranked = {variant: best_first(board, True) for variant, board in shown}
    provisional = {variant: best_first(board, False) for variant, board in shown}
    # One read names the players of every board, instead of one read a board.
    keys = {key for players in (*ranked.values(), *provisional.values()) for key, _r in players}
    names = storage.player_names(db, keys)

    def listed(players: list[tuple[str, Any]], ranks: bool) -> list[dict[str, Any]]:
        rows = [
            {"player": names.get(key, key), "rating": round(r.rating), "matches": r.matches}
            for key, r in players
        ]
        return [{"rank": n} | row for n, row in enumerate(rows, 1)] if ranks else rows

    return [
        {
            "variant": name_variant(game, variant),
            "variant_key": orjson.loads(variant),
            "players": listed(ranked[variant], True),
            "unranked": len(provisional[variant]),
            "provisional": listed(provisional[variant], False),
        }
        for variant, board in shown
    ]
