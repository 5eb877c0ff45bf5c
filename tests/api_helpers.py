"""What the web tests of every game share: sending JSON, reading a match back, and checking
that a refused request answered in the API's error shape and changed nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask.testing import FlaskClient


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
