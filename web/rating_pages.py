"""Ratings for people and programs: a leaderboard per game, how ratings move, and the API."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from scorebook import matches, ratings
from scorers import GAMES
from scorers.elo import RANKED_AFTER, SCALE, START, K

from .db import get_db
from .openapi_parts import answer, array, obj, refusal
from .present import pick

bp = Blueprint("ratings", __name__)


@bp.get("/ratings")
def leaderboard() -> ResponseReturnValue:
    """Show a game's leaderboards, one per variant (by default the first game played in teams
    the registry lists: Belote)."""
    game = request.args.get("game") or next(scorer.id for scorer in GAMES.values() if scorer.teams)
    scorer = matches.find_scorer(game)
    boards = ratings.rank_boards(get_db(), scorer.id)
    return render_template(
        "ratings/leaderboard.html", scorer=scorer, boards=boards, ranked_after=RANKED_AFTER
    )


@bp.get("/ratings/how")
def method() -> ResponseReturnValue:
    """Say how ratings are worked out, with their numbers."""
    return render_template(
        "ratings/how.html", start=START, k=K, scale=SCALE, ranked_after=RANKED_AFTER
    )


@bp.get("/api/ratings")
def leaderboard_json() -> ResponseReturnValue:
    """List a game's players by rating, best first, one list per variant."""
    scorer = matches.find_scorer(request.args.get("game"))
    return jsonify(
        game=scorer.id,
        ranked_after=RANKED_AFTER,
        boards=[
            pick(board, "variant", "variant_key", "players", "unranked", "provisional")
            for board in ratings.rank_boards(get_db(), scorer.id)
        ],
    )


PLAYER_RATING = obj(
    {
        "rank": {"type": "integer"},
        "player": {"type": "string"},
        "rating": {"type": "integer"},
        "matches": {"type": "integer"},
    }
)
BOARDS = obj(
    {
        "game": {"type": "string"},
        "ranked_after": {"type": "integer"},
        "boards": array(
            obj(
                {
                    "variant": {"type": "string"},
                    "variant_key": {"type": "object"},
                    "players": array(PLAYER_RATING),
                    "unranked": {"type": "integer"},
                    "provisional": array(
                        PLAYER_RATING,
                        description="The players rated with fewer than ranked_after finished "
                        "matches, best first, without a rank.",
                    ),
                }
            )
        ),
    }
)
OPENAPI_PATHS: dict[str, Any] = {
    "/api/ratings": {
        "get": {
            "summary": "A game's players by rating, best first, one board per variant",
            "description": f"Elo from {START}, K = {K}, scale {SCALE}; three sides or more: every "
            "pair of sides is a game of Elo and each side moves by the mean of its pairs; "
            f"partners share their side's move. Ranked after {RANKED_AFTER} finished matches.",
            "parameters": [
                {
                    "name": "game",
                    "in": "query",
                    "required": True,
                    "schema": {"type": "string", "enum": list(GAMES)},
                }
            ],
            "responses": {
                "200": answer("The boards", BOARDS),
                "422": refusal("No game, or a game Tablescore does not score."),
            },
        }
    }
}
