"""Security: headers on every answer, cookies the browser keeps to itself, CSRF on forms."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize("path", ["/", "/history", "/matches/new/rami", "/api/games", "/nowhere"])
def test_every_answer_carries_the_security_headers(client: FlaskClient, path: str):
    headers = client.get(path).headers
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_pages_use_no_inline_script_or_style(client: FlaskClient, new_match):
    match = new_match()
    for path in ("/", f"/matches/{match['id']}", "/matches/new/belote", "/history"):
        page = client.get(path).get_data(as_text=True)
        assert "<script>" not in page and " style=" not in page and "<style" not in page


def test_the_session_cookie_is_http_only_and_same_site(client: FlaskClient):
    # Starting a match keeps its scorer token in the session.
    answer = client.post("/matches/new/rami", data={"players-0": "Ana", "players-1": "Bo"})
    assert answer.status_code == 302
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
