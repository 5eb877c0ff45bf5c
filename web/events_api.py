"""The JSON API of events (API.md, "Events"): create, draw, follow, withdraw, close, export."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from flask.typing import ResponseReturnValue

import access
import event_transfer
import events
import store_events

from . import PASSCODE_HEADER, bearer_token, check_passcode, get_db
from .event_json import event_json, event_summary
from .json_body import body, require_json

bp = Blueprint("events_api", __name__, url_prefix="/api")

BODY_OPTIONAL = {"events_api.draw", "events_api.close"}
"""Requests that need no body: one they do send must still be JSON."""


@bp.before_request
def refuse_other_bodies() -> None:
    """Refuse a body that is not JSON before anything reads it."""
    require_json(BODY_OPTIONAL)


@bp.post("/events")
def create() -> ResponseReturnValue:
    """Create an event; the answer carries the organiser's token, given this once."""
    check_passcode(request.headers.get(PASSCODE_HEADER), "event")
    event = events.create(get_db(), body())
    return jsonify(event_json(event) | {"scorer_token": event.organiser_token}), 201


@bp.get("/events")
def listed() -> ResponseReturnValue:
    """List the events, newest first."""
    return jsonify(events=[event_summary(row) for row in store_events.list_events(get_db())])


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
        seats = list(row["teams"]) if row["teams"] is not None else list(row["players"])
        tables.append(
            {
                "table": row["event_table"],
                "match": row["id"],
                "html_url": url_for("pages.match", match_id=row["id"], _external=True),
                "seats": seats,
                "scorer_link": url_for("pages.join_with", code=code, _external=True),
            }
        )
    byes = drawn.draws[-1]["byes"]
    return jsonify(round=n, tables=tables, byes=byes, event=event_json(drawn)), 201


@bp.post("/events/<int:event_id>/entrants")
def enter(event_id: int) -> ResponseReturnValue:
    """Enter a late team or player: drawn from the next round on."""
    return jsonify(event_json(events.enter_late(get_db(), event_id, body(), bearer_token()))), 201


@bp.post("/events/<int:event_id>/withdraw")
def withdraw(event_id: int) -> ResponseReturnValue:
    """Withdraw an entrant from the next round on; what they played stays."""
    data = body()
    return jsonify(
        event_json(events.withdraw(get_db(), event_id, data.get("name"), bearer_token()))
    )


@bp.post("/events/<int:event_id>/close")
def close(event_id: int) -> ResponseReturnValue:
    """End the event once every table has finished: its standings are final."""
    return jsonify(event_json(events.close(get_db(), event_id, bearer_token())))


@bp.get("/events/<int:event_id>/standings.csv")
def standings_csv(event_id: int) -> ResponseReturnValue:
    """Download the standings as a spreadsheet."""
    event = events.load(get_db(), event_id)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["rank", "entrant", "players", "played", "won", "points", "points_against", "byes",
         "withdrawn"]
    )  # fmt: skip
    members = {e["name"]: e["members"] for e in event.entrants}
    for rank, record in event.standings:
        writer.writerow(
            [rank, record.entrant, " & ".join(members[record.entrant] or ()), record.played,
             record.won, record.points, record.against, record.byes,
             "yes" if record.withdrawn else ""]
        )  # fmt: skip
    name = f"tablescore-event-{event_id}-standings.csv"
    return Response(
        out.getvalue(),
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
    event, created = event_transfer.import_event(get_db(), body())
    answer = event_json(event) | {"imported": created}
    if created:
        answer["scorer_token"] = event.organiser_token
    return jsonify(answer), 201 if created else 200
