"""The JSON API of API.md: the same scorers and storage as the pages, as JSON."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from scorebook import access, matches
from scorers import GAMES

from . import openapi
from .conditional import match_tag, tagged, unchanged
from .db import get_db
from .json_body import body, guard
from .limits import joining
from .pages import keep_token
from .passcode import bearer_token, check_passcode, phone_for
from .present import change_json, game_json, match_json, round_answer, summary_json

bp = Blueprint("api", __name__, url_prefix="/api")


BODY_OPTIONAL = {
    "api.restore_round",
    "api.rematch",
    "api.abandon",
    "api.take_back",
    "api.keep_on_phone",
}
"""Requests that need no body at all: one they do send must still be JSON."""

guard(bp, BODY_OPTIONAL)


@bp.get("/games")
def games() -> ResponseReturnValue:
    """List the games with their player counts and options."""
    return jsonify(games=[game_json(scorer) for scorer in GAMES.values()])


def scoring_phone(match_id: int) -> str:
    """Return the label of the phone whose bearer token may change this match, or refuse."""
    return phone_for(match_id, bearer_token())


MAX_KEY = 100


def idempotency_key() -> str | None:
    """Return the request's Idempotency-Key, if it sent one, refusing an over-long one."""
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > MAX_KEY:
        abort(400, f"An Idempotency-Key has at most {MAX_KEY} characters.")
    return key


def seen_round() -> matches.Seen | None:
    """Read If-Match: the round id and version the phone saw, as "<round id>:<version>"."""
    given = request.headers.get("If-Match")
    if given is None:
        return None
    said = given.strip().removeprefix("W/").strip('"')
    round_id, _colon, version = said.partition(":")
    if not (round_id.isdigit() and version.isdigit() and len(said) <= 40):
        abort(
            400,
            'If-Match names the round as "<round id>:<version>", as the round\'s "id" and '
            '"version" say, like If-Match: 12:1.',
        )
    return matches.Seen(int(round_id), int(version))


@bp.post("/matches")
def start_match() -> ResponseReturnValue:
    """Start a match; the answer carries its scorer token, this once."""
    check_passcode(request.headers.get("X-Tablescore-Passcode"))
    data = body()
    device = access.read_label(data.pop("device", None), "the phone that started it")
    match = matches.start(get_db(), data, device, idempotency_key())
    return started(match)


@bp.post("/matches/<int:match_id>/phone")
def keep_on_phone(match_id: int) -> ResponseReturnValue:
    """Let this browser's pages score a match its token opens: a phone that scored it alone
    sent it here, and goes on scoring it on the server's pages."""
    scoring_phone(match_id)
    keep_token(match_id, bearer_token())
    return "", 204


def started(match: matches.Match) -> ResponseReturnValue:
    """Answer a new match with its scorer token, this once, and where to find it."""
    location = url_for("api.match", match_id=match.id)
    answer = match_json(match) | {"scorer_token": match.scorer_token}
    return jsonify(answer), 201, {"Location": location}


@bp.get("/matches")
def history() -> ResponseReturnValue:
    """List matches newest first, filtered by game, player, status and days, a page at a time."""
    args = request.args
    page = matches.find(
        get_db(),
        game=args.get("game"),
        player=args.get("player"),
        status=args.get("status"),
        since=args.get("from"),
        until=args.get("to"),
        page=args.get("page"),
        place=args.get("place"),
    )
    return jsonify(
        matches=[summary_json(row) for row in page.rows],
        page=page.number,
        pages=page.count,
        total=page.total,
    )


@bp.get("/matches/<int:match_id>")
def match(match_id: int) -> ResponseReturnValue:
    """Return a match with every round and its replayed state, or 304 if the asker's ETag
    still names it."""
    _version, tag = match_tag(match_id)
    return unchanged(tag) or tagged(jsonify(match_json(matches.load(get_db(), match_id))), tag)


@bp.post("/matches/<int:match_id>/rounds")
def add_round(match_id: int) -> ResponseReturnValue:
    """Record the next round; a retried request with the same Idempotency-Key records it once.

    Never asked about: `unusual` lists the questions the phone's page would have asked first
    (docs/UNUSUAL_ROUNDS.md), for a client that wants to check with the table."""
    device = scoring_phone(match_id)
    match = matches.add_round(get_db(), match_id, body(), device, idempotency_key())
    unusual = matches.unusual(match, match.recorded)
    return jsonify(round_answer(match, match.recorded) | {"unusual": unusual}), 201


@bp.put("/matches/<int:match_id>/rounds/<int:n>")
def correct_round(match_id: int, n: int) -> ResponseReturnValue:
    """Correct round n (the round the phone saw, with If-Match); later rounds are scored again."""
    device = scoring_phone(match_id)
    match = matches.correct_round(
        get_db(), match_id, n, body(), device, idempotency_key(), seen_round()
    )
    return jsonify(round_answer(match, n))


@bp.delete("/matches/<int:match_id>/rounds/<int:n>")
def remove_round(match_id: int, n: int) -> ResponseReturnValue:
    """Remove round n (the round the phone saw, with If-Match); later rounds are scored again."""
    device = scoring_phone(match_id)
    match = matches.remove_round(get_db(), match_id, n, device, idempotency_key(), seen_round())
    return jsonify(match=match_json(match))


@bp.post("/matches/<int:match_id>/removed/<int:round_id>/restore")
def restore_round(match_id: int, round_id: int) -> ResponseReturnValue:
    """Put a removed round back where it stood; later rounds are scored again."""
    device = scoring_phone(match_id)
    match = matches.restore_round(get_db(), match_id, round_id, device)
    return jsonify(round_answer(match, match.recorded))


@bp.patch("/matches/<int:match_id>")
def edit_match(match_id: int) -> ResponseReturnValue:
    """Change a match's note, place or the moment it was played (a scoring phone's token)."""
    device = scoring_phone(match_id)
    return jsonify(match_json(matches.edit_details(get_db(), match_id, body(), device)))


@bp.post("/matches/<int:match_id>/abandon")
def abandon(match_id: int) -> ResponseReturnValue:
    """Abandon the match: kept in the history, out of every statistic and rating."""
    device = scoring_phone(match_id)
    return jsonify(match_json(matches.abandon(get_db(), match_id, device)))


@bp.post("/matches/<int:match_id>/resume")
def take_back(match_id: int) -> ResponseReturnValue:
    """Take an abandoned match back: it counts again and can be played on."""
    device = scoring_phone(match_id)
    return jsonify(match_json(matches.take_back(get_db(), match_id, device)))


@bp.delete("/matches/<int:match_id>")
def delete_match(match_id: int) -> ResponseReturnValue:
    """Delete a match nothing was ever entered in; 409 for one that holds anything."""
    scoring_phone(match_id)
    matches.delete(get_db(), match_id)
    return "", 204


@bp.put("/matches/<int:match_id>/rounds/<int:n>/note")
def note_round(match_id: int, n: int) -> ResponseReturnValue:
    """Write or take away round n's note; the answer is the round and the match."""
    device = scoring_phone(match_id)
    match = matches.note_round(get_db(), match_id, n, body(), device)
    return jsonify(round_answer(match, n))


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int) -> ResponseReturnValue:
    """Start the same game again with the same table; the answer carries its scorer token."""
    device = scoring_phone(match_id)
    data = request.get_json(silent=True) if request.content_length else {}
    if not isinstance(data, dict):
        abort(400, 'The body is a JSON object, like {"seating": "rotate"}, or nothing.')
    return started(matches.rematch(get_db(), match_id, data.get("seating", "same"), device))


@bp.post("/matches/<int:match_id>/handoff")
def handoff(match_id: int) -> ResponseReturnValue:
    """Make a one-time code that lets another phone score this match."""
    scoring_phone(match_id)
    code = access.offer(get_db(), match_id)
    link = url_for("pages.join_with", code=code, _external=True)
    return jsonify(code=code, url=link), 201


@bp.post("/join")
@joining
def join() -> ResponseReturnValue:
    """Trade a handoff code for this device's own scorer token.

    Wrong codes are counted per address (JOIN_LIMIT): past it, 429 until the minute is over.
    """
    data = body()
    device = access.read_label(data.get("device"))
    match_id, token = access.accept(get_db(), str(data.get("code", "")), device)
    return jsonify(match_id=match_id, scorer_token=token, device=device)


@bp.get("/matches/<int:match_id>/log")
def log(match_id: int) -> ResponseReturnValue:
    """List every change made to a match, oldest first."""
    changes = matches.read_changes(get_db(), match_id)
    return jsonify(changes=[change_json(change) for change in changes])


@bp.get("/matches/<int:match_id>/whatif")
def what_if(match_id: int) -> ResponseReturnValue:
    """Replay the match under other options and answer both results; nothing is stored."""
    match = matches.load(get_db(), match_id)
    other = matches.what_if(match, dict(request.args))
    return jsonify(
        options=other.options,
        actual=result_json(match.replay),
        whatif=result_json(other.replay),
    )


def result_json(replay: Any) -> dict[str, Any]:
    """Return a replay's outcome: totals, status, winner and when it ended."""
    return {
        "totals": replay.totals,
        "status": replay.status,
        "winner": replay.winner,
        "ended_after": replay.ended_after,
    }


@bp.get("/openapi.json")
def openapi_document() -> ResponseReturnValue:
    """Describe this API as an OpenAPI 3 document."""
    return jsonify(openapi.document())
