"""Players across matches: statistics per game, head-to-head records, renaming."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from wtforms import StringField
from wtforms.fields import Field

from scorebook import access, players, ratings, storage
from scorers.forms import RefusalOnFields
from scorers.words import lazy

from .chart import rating_line
from .db import get_db
from .json_body import body as json_body
from .json_body import require_json
from .openapi_parts import PASSCODE, answer, array, body, obj, ref, refusal
from .pages import submit
from .passcode import PASSCODE_HEADER, check_passcode
from .present import pick, summary_json

bp = Blueprint("players", __name__)


class RenameForm(RefusalOnFields):
    """A player's new name, typed on their page; players.rename checks it, as for the API."""

    to = StringField(
        lazy("New name"),
        description=lazy(
            "Taking the name of someone who never sat at a table with this player "
            "merges their matches: one person who was known by two names."
        ),
    )

    def field_at(self, path: str) -> Field | None:
        """Return the name box for a refusal of the new name."""
        return self.to if path == "to" else None

    def to_input(self) -> dict[str, Any]:
        """Return the rename as the API takes it."""
        return {"to": self.to.data}


def player_json(player: players.Player) -> dict[str, Any]:
    """Return a player's records per variant, head-to-head, and their newest page of matches."""
    return {
        "name": player.name,
        "games": [
            {
                "game": record.game,
                "variant": record.variant,
                "matches": record.matches,
                "finished": record.finished,
                "wins": record.wins,
                "win_rate": record.win_rate,
                "average_score": record.average_score,
            }
            for record in player.records
        ],
        "head_to_head": [
            {
                "opponent": rivalry.opponent,
                "matches": rivalry.matches,
                "wins": rivalry.wins,
                "losses": rivalry.losses,
            }
            for rivalry in player.rivalries
        ],
        "ratings": [
            pick(rating, "game", "variant", "rating", "matches", "ranked")
            for rating in ratings.list_ratings(get_db(), players.make_key(player.name))
        ],
        "matches": [summary_json(row) for row in player.recent.rows],
        "matches_total": player.recent.total,
        "matches_url": url_for("api.history", player=player.name, _external=True),
    }


@bp.get("/api/players")
def listing_json() -> ResponseReturnValue:
    """List who has played, by name, with their matches and wins."""
    return jsonify(
        players=[
            {
                "name": listed.name,
                "matches": listed.matches,
                "wins": listed.wins,
                "url": url_for(".profile_json", name=listed.name, _external=True),
            }
            for listed in players.list_players(get_db())
        ]
    )


@bp.get("/api/players/<path:name>")
def profile_json(name: str) -> ResponseReturnValue:
    """Return one player's statistics, head-to-head records and matches."""
    return jsonify(player_json(players.find(get_db(), name)))


@bp.post("/api/players/<path:name>/rename")
def rename_json(name: str) -> ResponseReturnValue:
    """Rename a player, or merge them into the player whose name they take."""
    check_passcode(request.headers.get(PASSCODE_HEADER), "rename")
    require_json()
    renamed = players.rename(get_db(), name, json_body())
    return jsonify(player_json(players.find(get_db(), renamed)))


@bp.record_once
def exempt_json(state: BlueprintSetupState) -> None:
    """Let the JSON rename past CSRF checks, as the whole API is: no form can post JSON."""
    state.app.extensions["csrf"].exempt(rename_json)


@bp.get("/players")
def listing() -> ResponseReturnValue:
    """List who has played, each linking to their page."""
    return render_template("players/list.html", everyone=players.list_players(get_db()))


RIVALS_SHOWN = 10
"""Opponents a player's page lists at first, the ones met most: a regular may have met dozens."""


def show(name: str, form: RenameForm, status: int = 200) -> ResponseReturnValue:
    """Render a player's page with the rename form as it stands."""
    player = players.find(get_db(), name)
    rivals = player.rivalries
    if request.args.get("opponents") != "all" and len(rivals) > RIVALS_SHOWN:
        most = sorted(rivals, key=lambda rivalry: -rivalry.matches)[:RIVALS_SHOWN]
        rivals = [rivalry for rivalry in rivals if rivalry in most]
    played_in = storage.events_of_player(get_db(), players.make_key(player.name))
    page = render_template(
        "players/player.html",
        player=player,
        rivals=rivals,
        form=form,
        events=played_in,
        ratings=ratings.list_ratings(get_db(), players.make_key(player.name)),
        rating_line=rating_line,
    )
    return page, status


@bp.get("/players/<path:name>")
def profile(name: str) -> ResponseReturnValue:
    """Show a player's records per game variant, head-to-head (`?opponents=all`: every
    opponent) and matches."""
    return show(name, RenameForm())


@bp.post("/players/<path:name>/rename")
def rename(name: str) -> ResponseReturnValue:
    """Rename a player from their page, then show them under the new name."""
    form = RenameForm(request.form)
    try:
        check_passcode(request.form.get("passcode"), "rename")
    except access.Forbidden as refused:
        form.form_errors = [str(refused)]
        return show(name, form, 403)
    renamed, status = submit(form, lambda data: players.rename(get_db(), name, data))
    if renamed:
        flash(_("Renamed %(name)s to %(renamed)s.", name=name, renamed=renamed))
        return redirect(url_for(".profile", name=renamed))
    return show(name, form, status)


NAME = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
UNKNOWN = refusal("Nobody of that name (in any case) has played a match.")
RATE = {"type": ["number", "null"], "description": "Null until a match is finished."}
PLAYER = obj(
    {
        "name": {"type": "string", "description": "The name the player was given last."},
        "games": array(
            obj(
                {
                    "game": {"type": "string"},
                    "variant": {"type": "string", "examples": ["Coinche, to 2000"]},
                    "matches": {"type": "integer"},
                    "finished": {"type": "integer"},
                    "wins": {
                        "type": "integer",
                        "description": "The player or their team won; a shared first is none.",
                    },
                    "win_rate": RATE | {"description": "Wins over finished matches, 0 to 1."},
                    "average_score": RATE
                    | {"description": "The final total, the team's in team games, on average."},
                }
            ),
            description="One entry per game variant (a Rami target, a Belote variant and "
            "target, Gaigel teams by strokes or for three, a Porrazo target).",
        ),
        "head_to_head": array(
            obj(
                {
                    "opponent": {"type": "string"},
                    "matches": {"type": "integer"},
                    "wins": {"type": "integer"},
                    "losses": {"type": "integer"},
                }
            ),
            description="Per opponent, the matches played on opposite sides.",
        ),
        "matches": array(
            ref("MatchSummary"),
            description="The newest page of the player's matches; matches_url lists them all.",
        ),
        "matches_total": {"type": "integer", "description": "How many matches the player sat in."},
        "matches_url": {
            "type": "string",
            "description": "The history filtered by this player, a page at a time.",
        },
    },
    required=["name", "games", "head_to_head", "matches", "matches_total", "matches_url"],
)

OPENAPI_PATHS: dict[str, Any] = {
    "/api/players": {
        "get": {
            "summary": "Everyone who has played, by name",
            "responses": {
                "200": answer(
                    "The players",
                    obj(
                        {
                            "players": array(
                                obj(
                                    {
                                        "name": {"type": "string"},
                                        "matches": {"type": "integer"},
                                        "wins": {"type": "integer"},
                                        "url": {"type": "string", "format": "uri"},
                                    }
                                )
                            )
                        }
                    ),
                )
            },
        }
    },
    "/api/players/{name}": {
        "get": {
            "summary": "One player: statistics per game variant, head-to-head, matches",
            "description": "The name is matched exactly, whatever its case.",
            "parameters": [NAME],
            "responses": {"200": answer("The player", PLAYER), "404": UNKNOWN},
        }
    },
    "/api/players/{name}/rename": {
        "post": {
            "summary": "Rename a player; taking the name of a player never met at a table merges",
            "description": "Only who the seats belong to changes: matches keep the names as "
            "typed. Every rename is kept in an append-only log.",
            "parameters": [NAME, PASSCODE],
            "requestBody": body(obj({"to": {"type": "string", "maxLength": 40}}, required=["to"])),
            "responses": {
                "200": answer("The player under the new name", PLAYER),
                "400": refusal("The body is not JSON, or not an object."),
                "403": refusal("The server has a passcode and the request did not send it."),
                "404": UNKNOWN,
                "409": refusal("The new name belongs to a player who sat at the same table."),
                "415": refusal("The body is not sent as application/json."),
                "422": refusal("The new name is empty or longer than 40."),
            },
        }
    },
}
"""This blueprint's part of /api/openapi.json."""
