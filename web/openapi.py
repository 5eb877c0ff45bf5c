"""The OpenAPI 3 description of the JSON API, served at /api/openapi.json."""

from __future__ import annotations

from copy import deepcopy
from types import ModuleType
from typing import Any

from scorebook.json_guards import MAX_DEPTH
from scorers import GAMES, part_of

from . import (
    checking,
    circle_pages,
    events_api,
    player_pages,
    rating_pages,
    sides,
    transfer_pages,
)
from .openapi_parts import answer, array, body, header, obj, ref, refusal, refusals_from
from .passcode import PASSCODE_HEADER


def refusals(*codes: int) -> dict[str, Any]:
    """Describe the error answers an operation can give, all in the one error shape."""
    meaning = {
        400: f"The body is not JSON, not an object, or nested more than {MAX_DEPTH} levels deep.",
        403: "No scorer token for this match (or the site passcode is missing).",
        404: "No such match or round.",
        409: "The match is over, the change would make a later round impossible, or the "
        "Idempotency-Key was used for another request.",
        412: "If-Match names a round or a version that is no longer there: reload first.",
        413: "The body is larger than 64 KB.",
        415: "The body is not sent as application/json.",
        422: "The input does not follow the rules, or its text holds a lone surrogate; "
        "`fields` says where.",
    }
    return refusals_from(meaning, codes)


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}}
ROUND_N = {"name": "n", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
ROUND_ID = {"name": "round_id", "in": "path", "required": True, "schema": {"type": "integer"}}
CHANGE_ERRORS = (400, 403, 404, 409, 413, 415, 422)
DOOR_ERRORS = (400, 413, 415, 422)
"""What any POST or PUT may be answered before its view runs: a body not JSON (415), too large
(413), nested too deeply (400), or holding a lone surrogate (422)."""
IDEMPOTENCY_KEY = header(
    "Idempotency-Key",
    "A retry with the same key, path and body answers as the first request did and changes "
    "nothing more; the same key with another body or path is refused (409).",
    {"type": "string", "maxLength": 100},
)
IF_MATCH = header(
    "If-Match",
    'The round the phone saw, as "<round id>:<version>" (its "id" and "version"): 412 when '
    "round n is no longer that round at that version.",
    {"type": "string", "pattern": "^[0-9]+:[0-9]+$"},
)

EVENT_SEAT = obj(
    {"id": {"type": "integer"}, "round": {"type": "integer"}, "table": {"type": "integer"}},
    type=["object", "null"],
    description="The event, round and table a match of an event is played at.",
)
SCHEMAS: dict[str, Any] = {
    "Error": obj(
        {
            "error": {"type": "string", "description": "One sentence a person can act on."},
            "fields": {
                "type": "object",
                "description": "Field path (like `hands.Bo.points`) → messages.",
                "additionalProperties": array({"type": "string"}),
            },
        },
        required=["error", "fields"],
    ),
    "Game": obj(
        {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "players": array({"type": "integer"}),
            "teams": {"type": "boolean"},
            "options": array({"type": "object"}),
        }
    ),
    "Match": obj(
        {
            "id": {"type": "integer"},
            "game": {"type": "string"},
            "options": {"type": "object"},
            "players": array({"type": "string"}),
            "teams": {"type": ["object", "null"]},
            "rounds": array(ref("Round")),
            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
            "status": {"type": "string", "enum": ["playing", "finished"]},
            "winner": {"type": ["string", "null"]},
            "state": obj(
                {"dealer": {"type": "string"}},
                description="The game's state after the last round; every game names the "
                "`dealer` of the next round (Barbu: the declarer).",
            ),
            "uid": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "url": {"type": "string"},
            "html_url": {"type": "string"},
            "version": {"type": "integer", "description": "Grows with every change."},
            "removed": array(
                obj(
                    {
                        "id": {"type": "integer"},
                        "input": {"type": "object"},
                        "removed_at": {"type": "string", "format": "date-time"},
                    }
                ),
                description="Rounds taken out and not restored, oldest removal first.",
            ),
            "rematch_of": {"type": ["integer", "null"]},
            "rematched_by": {"type": ["integer", "null"]},
            "event": EVENT_SEAT,
            "note": {"type": ["string", "null"], "maxLength": 500},
            "place": {"type": ["string", "null"], "maxLength": 100},
            "played_at": {"type": "string", "format": "date-time"},
            "abandoned_at": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": "When the table abandoned it, while it is: then it counts in "
                "no statistic or rating.",
            },
            "settled": {
                "type": "boolean",
                "description": "Every round confirmed by every side (always true for a match "
                "started without confirm).",
            },
        }
    ),
    "MatchSummary": obj(
        {
            "id": {"type": "integer"},
            "game": {"type": "string"},
            "players": array({"type": "string"}),
            "totals": {"type": "object"},
            "status": {"type": "string"},
            "winner": {"type": ["string", "null"]},
            "rounds_played": {"type": "integer"},
            "url": {"type": "string"},
            "abandoned_at": {"type": ["string", "null"], "format": "date-time"},
            "event": EVENT_SEAT,
        }
    ),
    "RoundAndMatch": obj({"round": ref("Round"), "match": ref("Match")}),
    "Outcome": obj(
        {
            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
            "status": {"type": "string", "enum": ["playing", "finished"]},
            "winner": {"type": ["string", "null"]},
            "ended_after": {"type": ["integer", "null"]},
        }
    ),
    "Change": obj(
        {
            "action": {
                "type": "string",
                "enum": [
                    "add",
                    "correct",
                    "remove",
                    "restore",
                    "note",
                    "details",
                    "abandon",
                    "resume",
                    "confirm",
                    "contest",
                    "accept",
                ],
                "description": "note: a round's note; details: the match's note, place or "
                "date; abandon and resume: the match abandoned and taken back; confirm and "
                "contest: a side's word on round n (input: side, and the contest's reason); "
                "accept: an event's organiser counted the result as it stands (n is 0 when "
                "no round is named).",
            },
            "n": {"type": "integer"},
            "input": {"type": ["object", "null"]},
            "replaced": {"type": ["object", "null"]},
            "at": {"type": "string", "format": "date-time"},
            "device": {"type": ["string", "null"]},
            "round_ref": {
                "type": ["integer", "null"],
                "description": "The round's place among every round ever entered in the "
                "match, from 0 (the export's round_records).",
            },
            "hash": {
                "type": "string",
                "description": "SHA-256, in hex, of the previous change's hash (empty for the "
                "first) followed by this change's canonical JSON: without hash, keys sorted, "
                "no spaces, UTF-8.",
            },
        }
    ),
}

ROUND: dict[str, Any] = obj(
    {
        "id": {
            "type": "integer",
            "description": "Stable for the life of the round; always in a match, never in an "
            "export (the round records stand for it there).",
        },
        "dealer": {"type": "string", "description": "Who dealt it (Barbu: the declarer)."},
        "note": {"type": ["string", "null"], "maxLength": 200},
        "version": {"type": "integer", "description": "1 when entered, +1 per correction."},
        "n": {"type": "integer", "description": "Its place among the rounds that count."},
        "input": {"type": "object", "description": "The round as entered."},
        "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
        "explanation": array({"type": "string"}),
        "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
        "entered_at": {"type": "string", "format": "date-time"},
        "corrected_at": {"type": ["string", "null"], "format": "date-time"},
        "confirmed_by": array(
            {"type": "string"},
            description="Only where every side confirms: the sides that confirmed it, the "
            "scorer's side always.",
        ),
        "contest": {
            "type": ["object", "null"],
            "description": "Only where every side confirms: the contest standing, with its "
            "side, reason and time.",
        },
    },
    required=["version", "n", "input", "scores", "explanation", "totals"],
)
"""A round as answers give it; each game's schema module adds the fields its results carry."""


def game_schemas() -> list[ModuleType]:
    """Import each game's schema module, in the registry's order."""
    return [part_of(scorer, "schema") for scorer in GAMES.values()]


def new_match() -> dict[str, Any]:
    """Describe a new match's body: one of the games the registry holds now, its players."""
    return obj(
        {
            "game": {"type": "string", "enum": list(GAMES)},
            "players": array({"type": "string", "maxLength": 40}),
            "options": {
                "type": "object",
                "description": "Option name → value; omitted ones default.",
            },
            "uid": {
                "type": "string",
                "pattern": "^[0-9a-f]{32}$",
                "description": "The uid a phone gave the match it started alone (offline); "
                "refused with 409 when a match with it is already stored.",
            },
        },
        required=["game", "players"],
    )


def schemas() -> dict[str, Any]:
    """Return the document's schemas: the shared ones, each game's round, and the Round
    answers give with the fields each game's results carry."""
    games = game_schemas()
    answered = deepcopy(ROUND)
    for game in games:
        answered["properties"] |= getattr(game, "RESULT", {})
    rounds = {game.NAME: game.SCHEMA for game in games}
    return SCHEMAS | {"NewMatch": new_match()} | rounds | {"Round": answered}


def match_filters() -> list[dict[str, Any]]:
    """Describe the query parameters the list of matches is filtered by."""
    return [
        {"name": name, "in": "query", "required": False, "schema": schema}
        for name, schema in (
            ("game", {"type": "string", "enum": list(GAMES)}),
            ("player", {"type": "string"}),
            ("status", {"type": "string", "enum": ["playing", "finished", "abandoned"]}),
            ("page", {"type": "integer", "minimum": 1}),
            ("from", {"type": "string", "format": "date"}),
            ("to", {"type": "string", "format": "date"}),
        )
    ]


def games_paths() -> dict[str, Any]:
    """Describe the list of the games Tablescore scores."""
    return {
        "/api/games": {
            "get": {
                "summary": "The games, their player counts and options",
                "responses": {"200": answer("The games", obj({"games": array(ref("Game"))}))},
            }
        },
    }


def match_paths() -> dict[str, Any]:
    """Describe starting and listing matches, and reading and changing one."""
    return {
        "/api/matches": {
            "post": {
                "summary": "Start a match; the answer carries its scorer_token, once",
                "parameters": [
                    header(PASSCODE_HEADER, "The site passcode, when the server sets one."),
                    IDEMPOTENCY_KEY,
                ],
                "requestBody": body(ref("NewMatch")),
                "responses": {"201": answer("The new match", ref("Match"))}
                | refusals(400, 403, 409, 413, 415, 422),
            },
            "get": {
                "summary": "Matches, newest first",
                "parameters": match_filters(),
                "responses": {
                    "200": answer(
                        "One page of matches",
                        obj(
                            {
                                "matches": array(ref("MatchSummary")),
                                "page": {"type": "integer"},
                                "pages": {"type": "integer"},
                                "total": {"type": "integer"},
                            }
                        ),
                    )
                }
                | refusals(422),
            },
        },
        "/api/matches/{match_id}": {
            "get": {
                "summary": "One match with every round and its state",
                "description": "Answered with a weak ETag that changes with every change "
                "to the match (and with the language); sent back in If-None-Match, it is "
                "answered 304 while the match is unchanged, without replaying it.",
                "parameters": [
                    MATCH_ID,
                    header("If-None-Match", "The ETag of the last answer this client holds."),
                ],
                "responses": {
                    "200": answer("The match", ref("Match")),
                    "304": {"description": "Unchanged since the ETag sent"},
                }
                | refusals(404),
            },
            "patch": {
                "summary": "Change the match's note, place or when it was played",
                "description": "Any of note (≤ 500 characters), place (≤ 100) and played_at "
                "(a day or an ISO 8601 moment); null or empty takes a note or place away. "
                "The change is logged.",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID],
                "requestBody": body(
                    obj(
                        {
                            "note": {"type": ["string", "null"]},
                            "place": {"type": ["string", "null"]},
                            "played_at": {"type": "string"},
                        }
                    )
                ),
                "responses": {"200": answer("The match", ref("Match"))}
                | refusals(400, 403, 404, 413, 415, 422),
            },
            "delete": {
                "summary": "Delete a match nothing was ever entered in",
                "description": "Only a match with no change at all (no round, no note) is "
                "deleted; one that holds anything is refused with 409: abandon it instead.",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID],
                "responses": {"204": {"description": "Deleted"}} | refusals(403, 404, 409),
            },
        },
        "/api/matches/{match_id}/abandon": {
            "post": {
                "summary": "Abandon the match: kept in the history, out of statistics and ratings",
                "description": "Logged as a change; while abandoned, its rounds can't be changed. "
                "Sent again, it changes nothing more. An event's match is refused (409).",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID],
                "responses": {"200": answer("The match", ref("Match"))}
                | refusals(400, 403, 404, 409, 415),
            }
        },
        "/api/matches/{match_id}/resume": {
            "post": {
                "summary": "Take an abandoned match back: it counts again and is played on",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID],
                "responses": {"200": answer("The match", ref("Match"))}
                | refusals(400, 403, 404, 409, 415),
            }
        },
    }


def round_paths() -> dict[str, Any]:
    """Describe recording, correcting, removing and restoring a match's rounds, and their notes."""
    round_body = body({"anyOf": [ref(game.NAME) for game in game_schemas()]})
    return {
        "/api/matches/{match_id}/rounds/{n}/note": {
            "put": {
                "summary": "Write round n's note (≤ 200 characters), or null to take it away",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID, ROUND_N],
                "requestBody": body(obj({"note": {"type": ["string", "null"]}})),
                "responses": {"200": answer("The round and the match", ref("RoundAndMatch"))}
                | refusals(400, 403, 404, 413, 415, 422),
            }
        },
        "/api/matches/{match_id}/rounds": {
            "post": {
                "summary": "Record the next round",
                "description": "Recorded as sent, however rare: `unusual` lists the questions "
                "a phone would have asked once before recording it (docs/UNUSUAL_ROUNDS.md).",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID, IDEMPOTENCY_KEY],
                "requestBody": round_body,
                "responses": {
                    "201": answer(
                        "The round, the match, and what is unusual about the round",
                        {
                            "allOf": [
                                ref("RoundAndMatch"),
                                obj({"unusual": array({"type": "string"})}),
                            ]
                        },
                    )
                }
                | refusals(*CHANGE_ERRORS),
            }
        },
        "/api/matches/{match_id}/rounds/{n}": {
            "put": {
                "summary": "Correct round n; later rounds are scored again",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID, ROUND_N, IF_MATCH, IDEMPOTENCY_KEY],
                "requestBody": round_body,
                "responses": {"200": answer("The round and the match", ref("RoundAndMatch"))}
                | refusals(*CHANGE_ERRORS, 412),
            },
            "delete": {
                "summary": "Remove round n; later rounds are scored again",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID, ROUND_N, IF_MATCH, IDEMPOTENCY_KEY],
                "responses": {"200": answer("The match", obj({"match": ref("Match")}))}
                | refusals(400, 403, 404, 409, 412),
            },
        },
        "/api/matches/{match_id}/removed/{round_id}/restore": {
            "post": {
                "summary": "Put a removed round back where it stood; later rounds are scored again",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID, ROUND_ID],
                "responses": {"200": answer("The round and the match", ref("RoundAndMatch"))}
                | refusals(403, 404, 409, 415),
            }
        },
    }


def history_paths() -> dict[str, Any]:
    """Describe what follows from a match's rounds: its rematch, its change log, a what-if."""
    return {
        "/api/matches/{match_id}/rematch": {
            "post": {
                "summary": "Play the finished match again: same game, options and table",
                "description": "Asked again, it answers the rematch already started, with "
                "a scorer token for this phone. The first dealer is whoever would have "
                "dealt next.",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID],
                "requestBody": body(
                    obj({"seating": {"type": "string", "enum": ["same", "rotate"]}}),
                    required=False,
                ),
                "responses": {"201": answer("The new match", ref("Match"))}
                | refusals(400, 403, 404, 409, 413, 415, 422),
            }
        },
        "/api/matches/{match_id}/phone": {
            "post": {
                "summary": "Let this browser's pages score the match its token opens",
                "description": "A phone that scored a match alone sends it, then goes on "
                "scoring it on the pages: its session keeps the token.",
                "security": [{"scorer": []}],
                "parameters": [MATCH_ID],
                "responses": {"204": {"description": "Kept in this browser's session"}}
                | refusals(403, 404),
            }
        },
        "/api/matches/{match_id}/log": {
            "get": {
                "summary": "Every change made to the match, oldest first",
                "parameters": [MATCH_ID],
                "responses": {
                    "200": answer("The change log", obj({"changes": array(ref("Change"))}))
                }
                | refusals(404),
            }
        },
        "/api/matches/{match_id}/whatif": {
            "get": {
                "summary": "The same rounds replayed under other options; nothing is stored",
                "description": "Give the options to change as query parameters, "
                "e.g. ?rules=official&target=2000.",
                "parameters": [MATCH_ID],
                "responses": {
                    "200": answer(
                        "The options used, the real result and the what-if result",
                        obj(
                            {
                                "options": {"type": "object"},
                                "actual": ref("Outcome"),
                                "whatif": ref("Outcome"),
                            }
                        ),
                    )
                }
                | refusals(404, 422),
            }
        },
    }


def handoff_paths() -> dict[str, Any]:
    """Describe handing the scoring of a match to another phone."""
    return {
        "/api/matches/{match_id}/handoff": {
            "post": {
                "summary": "Make a one-time code that lets another phone score the match",
                "parameters": [MATCH_ID],
                "security": [{"scorer": []}],
                "responses": {
                    "201": answer(
                        "The code and the link that carries it",
                        obj({"code": {"type": "string"}, "url": {"type": "string"}}),
                    )
                }
                | refusals(403, 404, 415),
            }
        },
        "/api/join": {
            "post": {
                "summary": "Trade a handoff code for this device's own scorer token",
                "requestBody": body(
                    obj(
                        {"code": {"type": "string"}, "device": {"type": "string", "maxLength": 40}},
                        required=["code"],
                    )
                ),
                "responses": {
                    "200": answer(
                        "The match and this device's token",
                        obj(
                            {
                                "match_id": {"type": "integer"},
                                "scorer_token": {"type": "string"},
                                "device": {"type": "string"},
                            }
                        ),
                    )
                }
                | refusals(400, 415, 422)
                | {
                    "429": refusal(
                        "Too many wrong codes from this address (ten a minute by default, "
                        "JOIN_LIMIT): wait, then try again."
                    )
                },
            }
        },
    }


def components() -> dict[str, Any]:
    """Describe the schemas the paths point at and the two kinds of bearer token."""
    return {
        "schemas": schemas(),
        "securitySchemes": {
            "scorer": {
                "type": "http",
                "scheme": "bearer",
                "description": "The scorer token POST /api/matches answered with, once.",
            },
            "side": {
                "type": "http",
                "scheme": "bearer",
                "description": "A side's token, from POST /api/matches/{match_id}/sides/{side}"
                "/link: it confirms or contests rounds, and changes nothing else.",
            },
            "organiser": {
                "type": "http",
                "scheme": "bearer",
                "description": "The organiser's token POST /api/events answered with, once; "
                "it also scores every match of the event.",
            },
        },
    }


def document() -> dict[str, Any]:
    """Return the whole OpenAPI document."""
    described = {
        "openapi": "3.1.0",
        "info": {
            "title": "Tablescore",
            "version": "1",
            "description": "Score card games played at a real table. Errors share one shape.",
        },
        "paths": games_paths()
        | match_paths()
        | round_paths()
        | history_paths()
        | handoff_paths()
        | {
            "/api/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {"200": answer("The OpenAPI document", {"type": "object"})},
                }
            },
        },
        "components": components(),
    }
    # The players', the export/import and the events' blueprints describe their own paths.
    described["paths"] |= deepcopy(
        player_pages.OPENAPI_PATHS
        | circle_pages.OPENAPI_PATHS
        | transfer_pages.OPENAPI_PATHS
        | events_api.OPENAPI_PATHS
        | rating_pages.OPENAPI_PATHS
        | sides.OPENAPI_PATHS
        | checking.OPENAPI_PATHS
    )
    with_door_errors(described["paths"])
    with_circle_key(described["paths"])
    return described


OUTSIDE_CIRCLES = {("/api/games", "get"), ("/api/openapi.json", "get"), ("/api/circles", "post")}
"""The operations a request in no circle may call on a server of many."""


def with_circle_key(paths: dict[str, Any]) -> None:
    """Let every operation of a circle take its key, and say what it answers without one."""
    for path, operations in paths.items():
        for method, operation in operations.items():
            if (path, method) in OUTSIDE_CIRCLES:
                continue
            parameters = operation.setdefault("parameters", [])
            if circle_pages.CIRCLE_KEY not in parameters:
                parameters.append(circle_pages.CIRCLE_KEY)
            operation["responses"].setdefault(
                "401",
                refusal(
                    "On a server of many circles: no key, or a key that opens no circle "
                    "(a match, event or player of another circle answers 404)."
                ),
            )


def with_door_errors(paths: dict[str, Any]) -> None:
    """Add the door's refusals to every POST, PUT and PATCH that does not describe them."""
    for operations in paths.values():
        for method, operation in operations.items():
            if method in ("post", "put", "patch"):
                for code, described in refusals(*DOOR_ERRORS).items():
                    operation["responses"].setdefault(code, described)
