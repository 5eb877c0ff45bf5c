"""What the web tests of every game share: sending JSON, starting and playing a match, posting
the round form, reading a match back, and checking that a refused request answered in the API's
error shape and changed nothing."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from flask.testing import FlaskClient

TABLES = {
    "rami": {"game": "rami", "players": ["Ana", "Bo", "Cy"]},
    "belote": {"game": "belote", "teams": {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}},
    "barbu": {"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]},
    "gaigel": {"game": "gaigel", "teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}},
    "porrazo": {"game": "porrazo", "players": ["Ana", "Bo", "Cy"]},
}
"""A table that starts a match of each game."""


def send(client: FlaskClient, method: str, url: str, body: Any) -> Any:
    """Send a JSON body with its keys in the order written (the seating depends on it)."""
    return client.open(url, method=method, data=json.dumps(body), content_type="application/json")


def rounds_url(match_id: int, n: int | None = None) -> str:
    """The rounds of a match, or one of them."""
    base = f"/api/matches/{match_id}/rounds"
    return base if n is None else f"{base}/{n}"


def api_match(client: FlaskClient, match_id: int) -> dict[str, Any]:
    """The match as the API sees it."""
    return client.get(f"/api/matches/{match_id}").json


def snapshot(client: FlaskClient, match_id: int) -> tuple[Any, Any]:
    """What a refused change must leave alone: the match and its change log."""
    return (
        client.get(f"/api/matches/{match_id}").json,
        client.get(f"/api/matches/{match_id}/log").json,
    )


@contextmanager
def unchanged(client: FlaskClient, match_id: int) -> Iterator[None]:
    """Assert that whatever happens inside leaves the match and its log as they were."""
    before = snapshot(client, match_id)
    yield
    assert snapshot(client, match_id) == before


def refused(response: Any, status: int, field: str | None = None, words: str = "") -> dict:
    """Assert the error shape and status; `field` must be named, with `words` in its messages."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.json
    assert set(body) == {"error", "fields"}
    assert body["error"].strip()
    if field is not None:
        assert field in body["fields"], body
        assert words in " ".join(body["fields"][field]), body["fields"][field]
    return body


def start_match(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    """Start a match through the API with this body and return it."""
    response = send(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    return response.json


def play(client: FlaskClient, match_id: int, *rounds: dict[str, Any]) -> dict[str, Any]:
    """Record rounds one after the other through the API and return the match after the last."""
    match = api_match(client, match_id)
    for entered in rounds:
        response = send(client, "POST", rounds_url(match_id), entered)
        assert response.status_code == 201, response.json
        match = response.json["match"]
    return match


def newest_match_id(client: FlaskClient) -> int:
    """The id of the match started last."""
    return client.get("/api/matches").json["matches"][0]["id"]


def opened_match(client: FlaskClient, response: Any) -> dict[str, Any]:
    """Assert the new-match form sent the phone to the match it started; return that match."""
    match_id = newest_match_id(client)
    assert urlsplit(response.headers["Location"]).path == f"/matches/{match_id}"
    return api_match(client, match_id)


def post_round_form(client: FlaskClient, match_id: int, data: dict[str, Any]) -> Any:
    """Post the round form of the match page, as a phone does."""
    return client.post(f"/matches/{match_id}/rounds", data=data)


CONCOURS = {
    "name": "Concours du samedi",
    "game": "belote",
    "options": {"variant": "coinche"},
    "teams": {
        "Les As": ["Ana", "Bo"],
        "Les Rois": ["Cy", "Di"],
        "Pique": ["Ed", "Flo"],
        "Coeur": ["Gus", "Hana"],
    },
    "rounds": 3,
    "deals": 1,
}
"""A coinche event of four teams and three rounds, one deal a match: a round robin."""


def start_event(client: FlaskClient, **changed: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """Create an event (CONCOURS, with changes) and return it with the organiser's header."""
    response = send(client, "POST", "/api/events", CONCOURS | changed)
    assert response.status_code == 201, response.json
    return response.json, {"Authorization": f"Bearer {response.json['scorer_token']}"}


def draw_round(client: FlaskClient, event_id: int, organiser: dict[str, str], **body: Any) -> Any:
    """Draw the next round as the organiser; return the answer."""
    response = client.post(f"/api/events/{event_id}/draw", json=body, headers=organiser)
    assert response.status_code == 201, response.json
    return response.json


def coinche_deal(match: dict[str, Any], winner: int = 0, points: int = 100) -> dict[str, Any]:
    """A coinche deal at a table: its team `winner` takes at 80 and makes `points` of 152."""
    teams = list(match["teams"])
    taker = teams[winner]
    return {
        "taker": match["teams"][taker][0],
        "contract": 80,
        "trump": "hearts",
        "points": {taker: points, teams[1 - winner]: 152 - points},
        "last_trick": taker,
    }


def finish_round(client: FlaskClient, drawn: dict[str, Any], organiser: dict[str, str]) -> None:
    """Play one deal at every table of a round drawn, the first team seated winning."""
    for table in drawn["tables"]:
        match = api_match(client, table["match"])
        response = client.post(
            rounds_url(table["match"]), json=coinche_deal(match), headers=organiser
        )
        assert response.status_code == 201, response.json


def unchained(document: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a match's export as written before the chain (or by hand): no hash,
    no head. An edited chained log breaks its chain first (tests/test_chain.py); without
    one, a document is checked by what its log says."""
    changed = copy.deepcopy(document)
    changed.pop("log_head", None)
    for change in changed["log"]:
        change.pop("hash", None)
    return changed
