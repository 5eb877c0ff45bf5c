"""Ratings per player, game and variant, derived from every finished match and kept in memory
under the history they were derived from: a correction, a removal, an import or a rename
derives them again."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import orjson
from sqlite_utils import Database

import store
from scorers import GAMES
from scorers.ratings import RANKED_AFTER, Finished, Rating, places, rate

Boards = dict[tuple[str, str], dict[str, Rating]]

_kept: dict[str, tuple[tuple[Any, ...], Boards]] = {}
_keeping = threading.Lock()


def boards(db: Database) -> Boards:
    """Every board's ratings as the history now stands: derived again only if it moved."""
    path, stamp = store.path_of(db), store.history_stamp(db)
    with _keeping:
        kept = _kept.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    with store.reading(db):
        stamp = store.history_stamp(db)
        rows = store.finished_seats(db)
    derived = rate(finished(rows))
    with _keeping:
        _kept[path] = (stamp, derived)
    return derived


def finished(rows: list[tuple[Any, ...]]) -> list[Finished]:
    """Read the finished matches from their seats: sides, places and the board rated on."""
    matches = []
    for match_id, seats in itertools.groupby(rows, key=lambda row: row[0]):
        seats = list(seats)
        _id, game, variant, options, totals, winner, _key, _side = seats[0]
        scorer = GAMES[game]
        options, totals = orjson.loads(options), orjson.loads(totals)
        sides: dict[str, tuple[str, ...]] = {}
        for seat in seats:
            sides[seat[7]] = (*sides.get(seat[7], ()), seat[6])
        order = {side: scorer.standing_value(options, totals[side]) for side in sides}
        matches.append(Finished(match_id, (game, variant), sides, places(order, winner)))
    return matches


def variant_name(game: str, variant: str) -> str:
    """Name a board for people: the game's variant, in the reader's language."""
    return GAMES[game].variant(orjson.loads(variant))


def of_player(db: Database, player_key: str) -> list[dict[str, Any]]:
    """A player's ratings, game by game, each with its path, in the games' order."""
    found = [
        {
            "game": game,
            "variant": variant_name(game, variant),
            "variant_key": orjson.loads(variant),
            "rating": round(ratings[player_key].rating),
            "matches": ratings[player_key].matches,
            "ranked": ratings[player_key].matches >= RANKED_AFTER,
            "path": [(match_id, round(value)) for match_id, value in ratings[player_key].path],
        }
        for (game, variant), ratings in boards(db).items()
        if player_key in ratings
    ]
    games = list(GAMES)
    return sorted(found, key=lambda r: (games.index(r["game"]), r["variant"]))


def leaderboard(db: Database, game: str) -> list[dict[str, Any]]:
    """A game's boards, each with its ranked players best first (RANKED_AFTER matches at least)."""
    listed = []
    for (board_game, variant), ratings in sorted(boards(db).items()):
        if board_game != game:
            continue
        ranked = sorted(
            ((key, r) for key, r in ratings.items() if r.matches >= RANKED_AFTER),
            key=lambda item: -item[1].rating,
        )
        names = store.player_names(db, [key for key, _r in ranked])
        listed.append(
            {
                "variant": variant_name(game, variant),
                "variant_key": orjson.loads(variant),
                "players": [
                    {
                        "rank": rank,
                        "player": names.get(key, key),
                        "rating": round(r.rating),
                        "matches": r.matches,
                    }
                    for rank, (key, r) in enumerate(ranked, 1)
                ],
                "unranked": sum(r.matches < RANKED_AFTER for r in ratings.values()),
            }
        )
    return listed
