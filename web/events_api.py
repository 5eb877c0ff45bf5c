"""The JSON API of events (API.md, "Events"): create, draw, follow, withdraw, close, export."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from scorebook import access, event_transfer, events, storage, transfer
from scorers import GAMES

from .db import get_db
from .event_json import disputes_json, event_json, event_summary, table_seats
from .json_body import body as json_body
from .json_body import guard
from .openapi_parts import PASSCODE, answer, array, body, obj, refusal, refusals_from
from .passcode import PASSCODE_HEADER, bearer_token, check_passcode

bp = Blueprint("events_api", __name__, url_prefix="/api")

BODY_OPTIONAL = {"events_api.draw", "events_api.close", "events_api.accept"}
"""Requests that need no body: one they do send must still be JSON."""

guard(bp, BODY_OPTIONAL)


@bp.post("/events")
def create() -> ResponseReturnValue:
    """Create an event; the answer carries the organiser's token, given this once."""
    check_passcode(request.headers.get(PASSCODE_HEADER), "event")
    event = events.create(get_db(), json_body())
    return jsonify(event_json(event) | {"scorer_token": event.organiser_token}), 201


@bp.get("/events")
def listed() -> ResponseReturnValue:
    """List the events, newest first."""
    return jsonify(events=[event_summary(row) for row in storage.list_events(get_db())])


@bp.get("/events/<int:event_id>")
def event(event_id: int) -> ResponseReturnValue:
    """Return an event with every round's tables and its standings."""
    return jsonify(event_json(events.load(get_db(), event_id)))


def optional_body() -> dict[str, Any]:
    """Return the JSON object sent, or an empty one when nothing was sent."""
    data = request.get_json(silent=True) if request.content_length else {}
    if not isinstance(data, dict):
        abort(400, 'The body is a JSON object, like {"seed": 7}, or nothing.')
    return data


@bp.post("/events/<int:event_id>/draw")
def draw(event_id: int) -> ResponseReturnValue:
    """Draw the next round: a match at every table, each with a link for its phone."""
    drawn = events.draw_round(get_db(), event_id, bearer_token(), optional_body().get("seed"))
    n = drawn.drawn
    tables = []
    for row in drawn.round_tables(n):
        code = access.offer(get_db(), row["id"])
        link = url_for("pages.join_with", code=code, _external=True)
        tables.append(table_seats(row) | {"scorer_link": link})
    byes = drawn.draws[-1]["byes"]
    return jsonify(round=n, tables=tables, byes=byes, event=event_json(drawn)), 201


@bp.post("/events/<int:event_id>/entrants")
def enter(event_id: int) -> ResponseReturnValue:
    """Enter a late team or player: drawn from the next round on."""
    return jsonify(
        event_json(events.enter_late(get_db(), event_id, json_body(), bearer_token()))
    ), 201


@bp.post("/events/<int:event_id>/withdraw")
def withdraw(event_id: int) -> ResponseReturnValue:
    """Withdraw an entrant from the next round on; what they played stays."""
    data = json_body()
    return jsonify(
        event_json(events.withdraw(get_db(), event_id, data.get("name"), bearer_token()))
    )


@bp.post("/events/<int:event_id>/close")
def close(event_id: int) -> ResponseReturnValue:
    """End the event once every table has finished: its standings are final."""
    return jsonify(event_json(events.close(get_db(), event_id, bearer_token())))


@bp.post("/events/<int:event_id>/tables/<int:n>/<int:table>/accept")
def accept(event_id: int, n: int, table: int) -> ResponseReturnValue:
    """Count a finished table's result as it stands, confirmed or not (the organiser's token)."""
    return jsonify(event_json(events.accept(get_db(), event_id, n, table, bearer_token())))


@bp.get("/events/<int:event_id>/disputes")
def disputes(event_id: int) -> ResponseReturnValue:
    """List the event's contested rounds: where, which round, who contests it and why."""
    return jsonify(disputes=disputes_json(events.load(get_db(), event_id)))


@bp.get("/events/<int:event_id>/standings.csv")
def standings_csv(event_id: int) -> ResponseReturnValue:
    """Download the standings as a spreadsheet."""
    event = events.load(get_db(), event_id)
    members = {e["name"]: e["members"] for e in event.entrants}
    header = ["rank", "entrant", "players", "played", "won", "points", "points_against"]
    rows = [[*header, "byes", "withdrawn"]]
    for rank, record in event.standings:
        rows.append(
            [rank, record.entrant, " & ".join(members[record.entrant] or ()), record.played,
             record.won, record.points, record.against, record.byes,
             "yes" if record.withdrawn else ""]
        )  # fmt: skip
    name = f"tablescore-event-{event_id}-standings.csv"
    return Response(
        transfer.as_csv(rows),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.get("/events/<int:event_id>/export")
def export(event_id: int) -> ResponseReturnValue:
    """Download the whole event, with its matches, to import elsewhere."""
    document = event_transfer.export_event(get_db(), event_id)
    response = jsonify(document)
    name = f"tablescore-event-{event_id}.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.post("/events/import")
def import_event() -> ResponseReturnValue:
    """Bring in an event exported elsewhere, with its matches (new ones only)."""
    check_passcode(request.headers.get(PASSCODE_HEADER), "import")
    event, created = event_transfer.import_event(get_db(), json_body())
    answer = event_json(event) | {"imported": created}
    if created:
        answer["scorer_token"] = event.organiser_token
    return jsonify(answer), 201 if created else 200


def ranking_rules() -> str:
    """Say how each game ranks an event's standings, for the document."""
    return (
        " ".join(f"{scorer.name}: {scorer.event_rule}" for scorer in GAMES.values())
        + " A bye counts as a match won, with no points."
    )


ORGANISER = [{"organiser": []}]
SEED = {
    "type": "integer",
    "minimum": events.SEEDS[0],
    "maximum": events.SEEDS[1],
    "description": "Makes round 1 repeatable: the same seed draws the same tables.",
}
EVENT_ID = {"name": "event_id", "in": "path", "required": True, "schema": {"type": "integer"}}
SEATS = array({"type": "string"}, description="Teams, or players.")
TABLE = obj(
    {
        "table": {"type": "integer"},
        "match": {"type": "integer"},
        "html_url": {"type": "string"},
        "seats": SEATS,
        "status": {"type": "string", "enum": ["playing", "finished"]},
        "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
        "winner": {"type": ["string", "null"]},
        "rounds_played": {"type": "integer"},
    }
)
STANDING = obj(
    {
        "rank": {"type": "integer", "description": "Equal records share a rank."},
        "entrant": {"type": "string"},
        "played": {"type": "integer"},
        "won": {"type": "integer"},
        "points": {"type": "integer"},
        "points_against": {
            "type": "integer",
            "description": "What the others at the table scored.",
        },
        "byes": {"type": "integer"},
        "withdrawn": {"type": "boolean"},
    }
)
EVENT = obj(
    {
        "id": {"type": "integer"},
        "uid": {"type": "string"},
        "name": {"type": "string"},
        "game": {"type": "string"},
        "options": {
            "type": "object",
            "description": "Every match of the event is played with them.",
        },
        "rounds": {"type": "integer"},
        "deals": {"type": ["integer", "null"]},
        "table_size": {"type": ["integer", "null"]},
        "place": {"type": ["string", "null"]},
        "played_on": {"type": "string", "format": "date"},
        "created_at": {"type": "string", "format": "date-time"},
        "closed_at": {"type": ["string", "null"], "format": "date-time"},
        "round": {"type": "integer", "description": "Rounds drawn so far."},
        "status": {"type": "string", "enum": ["playing", "finished"]},
        "entrants": array({"type": "object"}),
        "tables": array(
            obj(
                {
                    "round": {"type": "integer"},
                    "tables": array(TABLE),
                    "byes": array({"type": "string"}),
                }
            )
        ),
        "standings": array(STANDING),
        "ranking": {"type": "string", "description": "How this event ranks, in words."},
        "winner": {"type": ["string", "null"]},
        "url": {"type": "string"},
        "html_url": {"type": "string"},
        "standings_url": {"type": "string"},
    }
)
NEW_EVENT = obj(
    {
        "name": {"type": "string", "maxLength": events.MAX_EVENT_NAME},
        "game": {"type": "string", "enum": list(GAMES)},
        "options": {"type": "object"},
        "teams": {
            "type": "object",
            "description": "Belote and Gaigel: team name → its players.",
            "additionalProperties": array({"type": "string"}),
        },
        "players": array({"type": "string"}, description="Other games."),
        "rounds": {"type": "integer", "minimum": 1, "maximum": events.MAX_ROUNDS},
        "deals": {"type": "integer", "minimum": 1, "description": "Each match ends after them."},
        "table_size": {"type": "integer", "description": "Rami and Porrazo: players a table."},
        "place": {"type": "string", "maxLength": events.MAX_PLACE},
        "played_on": {"type": "string", "format": "date"},
    },
    required=["name", "game", "rounds"],
)


def event_answer(description: str, status: str = "200") -> dict[str, Any]:
    """Answer with the event as it stands."""
    return {status: answer(description, EVENT)}


def refused(*codes: int) -> dict[str, Any]:
    """The refusals of the event's doors."""
    meaning = {
        403: "Not the organiser's token (or the site passcode is missing).",
        404: "No such event or entrant.",
        409: "A table of this round is still playing, every round is drawn, or the event "
        "is closed.",
        422: "The input does not follow the rules; `fields` says where.",
    }
    return refusals_from(meaning, codes)


OPENAPI_PATHS: dict[str, Any] = {
    "/api/events": {
        "post": {
            "summary": "Create an event; the answer carries the organiser's scorer_token, once",
            "description": ranking_rules(),
            "parameters": [PASSCODE],
            "requestBody": body(NEW_EVENT),
            "responses": event_answer("The new event", "201") | refused(403, 422),
        },
        "get": {
            "summary": "The events, newest first",
            "responses": {"200": answer("The events", obj({"events": array()}))},
        },
    },
    "/api/events/{event_id}": {
        "get": {
            "summary": "An event: every round's tables, and the standings",
            "description": ranking_rules(),
            "parameters": [EVENT_ID],
            "responses": event_answer("The event") | refused(404),
        }
    },
    "/api/events/{event_id}/draw": {
        "post": {
            "summary": "Draw the next round: a match at every table, with a link for its phone",
            "description": "Round 1 is drawn at random (a seed makes it repeatable); later "
            "rounds repeat as few meetings as possible (tables of two: exactly the fewest; "
            "tables of three or more: the fewest found in about 3 s of work at most, proven "
            "for 12 entrants or fewer and whenever none repeats) and, among such seatings, "
            "seat by the standings, top down. Every entrant sits at one table or has a bye. "
            "A round whose event changed while it was drawn is drawn again; 409 if it kept "
            "changing.",
            "security": ORGANISER,
            "parameters": [EVENT_ID],
            "requestBody": body(obj({"seed": SEED}), required=False),
            "responses": {
                "201": answer(
                    "The round drawn",
                    obj(
                        {
                            "round": {"type": "integer"},
                            "tables": array({"type": "object"}),
                            "byes": array({"type": "string"}),
                            "event": EVENT,
                        }
                    ),
                )
            }
            | refused(403, 404, 409, 422),
        }
    },
    "/api/events/{event_id}/entrants": {
        "post": {
            "summary": "Enter a late team or player, drawn from the next round",
            "security": ORGANISER,
            "parameters": [EVENT_ID],
            "requestBody": body(
                obj({"name": {"type": "string"}, "players": array({"type": "string"})})
            ),
            "responses": event_answer("The event", "201") | refused(403, 404, 409, 422),
        }
    },
    "/api/events/{event_id}/withdraw": {
        "post": {
            "summary": "Withdraw an entrant from the next round on; what was played stays",
            "security": ORGANISER,
            "parameters": [EVENT_ID],
            "requestBody": body(obj({"name": {"type": "string"}})),
            "responses": event_answer("The event") | refused(403, 404, 409),
        }
    },
    "/api/events/{event_id}/close": {
        "post": {
            "summary": "Close the event once every table has finished: the standings are final",
            "security": ORGANISER,
            "parameters": [EVENT_ID],
            "responses": event_answer("The event") | refused(403, 404, 409),
        }
    },
    "/api/events/{event_id}/tables/{n}/{table}/accept": {
        "post": {
            "summary": "Count a finished table's result as it stands, confirmed or not",
            "description": "At an event whose sides confirm, a table's result counts once "
            "its match is settled, or once the organiser accepts it. Logged in the match.",
            "security": ORGANISER,
            "parameters": [
                EVENT_ID,
                {"name": "n", "in": "path", "required": True, "schema": {"type": "integer"}},
                {"name": "table", "in": "path", "required": True, "schema": {"type": "integer"}},
            ],
            "responses": event_answer("The event") | refused(403, 404, 409),
        }
    },
    "/api/events/{event_id}/disputes": {
        "get": {
            "summary": "The event's contested rounds: where, which, who contests and why",
            "parameters": [EVENT_ID],
            "responses": {
                "200": answer(
                    "The contested rounds, table by table",
                    obj(
                        {
                            "disputes": array(
                                obj(
                                    {
                                        "round": {"type": "integer"},
                                        "table": {"type": "integer"},
                                        "match": {"type": "integer"},
                                        "n": {"type": "integer"},
                                        "side": {"type": "string"},
                                        "reason": {"type": "string"},
                                        "at": {"type": "string", "format": "date-time"},
                                        "why_url": {"type": "string"},
                                    }
                                )
                            )
                        }
                    ),
                )
            }
            | refused(404),
        }
    },
    "/api/events/{event_id}/standings.csv": {
        "get": {
            "summary": "The standings as CSV",
            "parameters": [EVENT_ID],
            "responses": {
                "200": {
                    "description": "One line per entrant, best first",
                    "content": {"text/csv": {"schema": {"type": "string"}}},
                }
            }
            | refused(404),
        }
    },
    "/api/events/{event_id}/export": {
        "get": {
            "summary": "The whole event with its matches, to import elsewhere",
            "parameters": [EVENT_ID],
            "responses": {"200": answer("The event's document", {"type": "object"})} | refused(404),
        }
    },
    "/api/events/import": {
        "post": {
            "summary": "Bring in an exported event with its matches; one already here is kept",
            "description": "Every match of a new event must be new here: a match already "
            "stored is never moved into the event, nor scored with its organiser's token.",
            "parameters": [PASSCODE],
            "requestBody": body({"type": "object"}),
            "responses": event_answer("The event, new here", "201")
            | event_answer("The event was here already")
            | refused(403, 422)
            | {
                "409": refusal(
                    "A match of the event is here already (named), or another import is "
                    "storing it: nothing was imported."
                )
            },
        }
    },
}
