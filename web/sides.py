"""Both sides confirm: the scorer's links for the other sides' phones, and the doors those
phones confirm or contest rounds through, as JSON and as pages."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue

from scorebook import access, confirming, matches
from scorebook.matches import Match
from scorers import Refusal
from scorers.words import _

from .db import get_db
from .json_body import body, require_json
from .limits import joining
from .openapi_parts import answer, obj, ref, refusals_from
from .openapi_parts import body as request_body
from .passcode import bearer_token, phone_for
from .present import round_answer

bp = Blueprint("sides", __name__)


@bp.record_once
def exempt_api_from_csrf(state: BlueprintSetupState) -> None:
    """Let a side's phone confirm through the API with its token, as scripts make every
    other API change; its pages keep their CSRF tokens."""
    for door in (link, confirm, contest):
        state.app.extensions["csrf"].exempt(door)


@bp.before_request
def refuse_other_bodies() -> None:
    """Refuse a body that is not JSON at the API's doors, as the rest of the API does; a
    link or a confirmation needs none."""
    if request.path.startswith("/api/"):
        require_json({"sides.link", "sides.confirm"})


KEPT_SIDES = 30
"""How many matches' side tokens a browser's session keeps, the newest kept (as for scorer
tokens: a cookie past 4 KB is dropped)."""


def side_phone(match_id: int, token: str | None) -> tuple[str, str]:
    """Return the side a token confirms for, and its phone's label, or refuse: 404 before
    403, so a token is only checked against a match that exists."""
    matches.read_record(get_db(), match_id)
    return confirming.side_for(get_db(), match_id, token)


def link_answer(match_id: int, side: Any) -> tuple[str, str, str]:
    """Make a side's one-time link; return the side, the link and the side's token."""
    side, code, token = confirming.link_side(get_db(), match_id, side)
    return side, url_for("sides.join", code=code, _external=True), token


@bp.post("/api/matches/<int:match_id>/sides/<path:side>/link")
def link(match_id: int, side: str) -> ResponseReturnValue:
    """Make a one-time link for one other side's phone (the scorer's token): 201 with the
    link and that side's token."""
    phone_for(match_id, bearer_token())
    side, url, token = link_answer(match_id, side)
    return {"side": side, "url": url, "token": token}, 201


@bp.post("/api/matches/<int:match_id>/rounds/<int:n>/confirm")
def confirm(match_id: int, n: int) -> ResponseReturnValue:
    """Confirm round n for the side whose token this is."""
    side, device = side_phone(match_id, bearer_token())
    return round_answer(confirming.confirm(get_db(), match_id, n, side, device), n)


@bp.post("/api/matches/<int:match_id>/rounds/<int:n>/contest")
def contest(match_id: int, n: int) -> ResponseReturnValue:
    """Contest round n for the side whose token this is, saying why."""
    side, device = side_phone(match_id, bearer_token())
    return round_answer(confirming.contest(get_db(), match_id, n, side, body(), device), n)


# --- the pages ---------------------------------------------------------------------------------


def keep_side(match_id: int, token: str) -> None:
    """Keep a side's token in this browser's session: this phone confirms for that side."""
    tokens = {key: value for key, value in session.get("side_tokens", {}).items()}
    tokens.pop(str(match_id), None)
    tokens[str(match_id)] = token
    session["side_tokens"] = dict(list(tokens.items())[-KEPT_SIDES:])


def session_side(match_id: int) -> str | None:
    """Return the side token this browser keeps for a match, if any."""
    return session.get("side_tokens", {}).get(str(match_id))


def side_of_phone(match_id: int) -> str | None:
    """Return the side this browser confirms for in a match, if it holds a side's token."""
    token = session_side(match_id)
    if token is None:
        return None
    try:
        return confirming.side_for(get_db(), match_id, token)[0]
    except access.Forbidden:
        return None


@bp.route("/side/<code>", methods=["GET", "POST"])
@joining
def join(code: str) -> ResponseReturnValue:
    """Let this phone confirm a match's rounds for one side, with the link the scorer showed."""
    if request.method == "GET":
        return render_template("side_join.html", code=code)
    device = request.form.get("device", "")
    try:
        match_id, side, token = confirming.join_side(
            get_db(), code, access.read_label(device, _("a phone"))
        )
    except Refusal as refusal:
        page = render_template("side_join.html", code=code, device=device, message=refusal.message)
        return page, 422
    keep_side(match_id, token)
    flash(_("This phone confirms the rounds for {side} now.").format(side=side))
    return redirect(url_for("pages.match", match_id=match_id))


@bp.post("/matches/<int:match_id>/rounds/<int:n>/verdict")
def verdict(match_id: int, n: int) -> ResponseReturnValue:
    """Confirm or contest round n from a side's phone, back to the match page."""
    side, device = side_phone(match_id, session_side(match_id))
    if request.form.get("verdict") == "contest":
        data = {"reason": request.form.get("reason", "")}
        try:
            confirming.contest(get_db(), match_id, n, side, data, device)
        except Refusal as refusal:
            flash(refusal.message, "error")
            return redirect(url_for("pages.match", match_id=match_id, contest=n))
    else:
        confirming.confirm(get_db(), match_id, n, side, device)
    return redirect(url_for("pages.match", match_id=match_id))


@bp.post("/matches/<int:match_id>/confirm-all")
def confirm_all(match_id: int) -> ResponseReturnValue:
    """Confirm, from a side's phone, every round it has neither confirmed nor contested."""
    side, device = side_phone(match_id, session_side(match_id))
    match = matches.load(get_db(), match_id)
    for waiting in rounds_to_answer(match, side):
        if not waiting["contested_here"]:
            confirming.confirm(get_db(), match_id, waiting["round"].n, side, device)
    return redirect(url_for("pages.match", match_id=match_id))


def rounds_to_answer(match: Match, side: str) -> list[dict[str, Any]]:
    """The rounds a side's phone has not confirmed yet, oldest first, with what was said of
    each and whether this side contests it."""
    said = match.confirmations
    if said is None:
        return []
    waiting = []
    for stored in match.rounds:
        verdict_now = said.by_round[stored.id]
        if side not in verdict_now.confirmed_by:
            contest = verdict_now.contest
            waiting.append(
                {
                    "round": stored,
                    "verdict": verdict_now,
                    "contested_here": contest is not None and contest["side"] == side,
                }
            )
    return waiting


MEANING = {
    400: "The body is not a JSON object.",
    403: "No token, or not the right kind: a link needs the scorer's token, a side's word "
    "a side's token.",
    404: "No such match, or no such round.",
    409: "The match was started without confirm, or it can no longer change (abandoned, or "
    "its event round closed).",
    415: "The body is not JSON.",
    422: "No such side, the scorer's own side, or a contest without its reason.",
}
MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}}
ROUND_N = {"name": "n", "in": "path", "required": True, "schema": {"type": "integer"}}
SAID = "Logged like any change: a correction or removal of the round clears it."

OPENAPI_PATHS: dict[str, Any] = {
    "/api/matches/{match_id}/sides/{side}/link": {
        "post": {
            "summary": "Make a one-time link for one other side's phone, and that side's token",
            "description": "The link opens once, on that side's phone; the token confirms or "
            "contests rounds through this API.",
            "security": [{"scorer": []}],
            "parameters": [
                MATCH_ID,
                {"name": "side", "in": "path", "required": True, "schema": {"type": "string"}},
            ],
            "responses": {
                "201": answer(
                    "The side, its link and its token",
                    obj(
                        {
                            "side": {"type": "string"},
                            "url": {"type": "string"},
                            "token": {"type": "string"},
                        }
                    ),
                )
            }
            | refusals_from(MEANING, (403, 404, 409, 422)),
        }
    },
    "/api/matches/{match_id}/rounds/{n}/confirm": {
        "post": {
            "summary": "Confirm round n for the side whose token this is",
            "description": SAID,
            "security": [{"side": []}],
            "parameters": [MATCH_ID, ROUND_N],
            "responses": {"200": answer("The round and the match", ref("RoundAndMatch"))}
            | refusals_from(MEANING, (403, 404, 409)),
        }
    },
    "/api/matches/{match_id}/rounds/{n}/contest": {
        "post": {
            "summary": "Contest round n for the side whose token this is, saying why",
            "description": SAID,
            "security": [{"side": []}],
            "parameters": [MATCH_ID, ROUND_N],
            "requestBody": request_body(
                obj({"reason": {"type": "string", "maxLength": 200}}, required=["reason"])
            ),
            "responses": {"200": answer("The round and the match", ref("RoundAndMatch"))}
            | refusals_from(MEANING, (400, 403, 404, 409, 415, 422)),
        }
    },
}
"""The paths of this module, for the OpenAPI document."""
