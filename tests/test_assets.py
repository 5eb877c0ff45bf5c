"""Static files are fingerprinted and cached for a year; pages and answers travel compressed."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from web.assets import fingerprint

STATIC = Path(__file__).parent.parent / "static"


def referenced(client: FlaskClient) -> list[str]:
    """Return the stylesheet and script URLs the home page references."""
    html = client.get("/").get_data(as_text=True)
    return re.findall(r'(?:href|src)="(/assets/app\.[^"]+)"', html)


def test_pages_reference_static_files_by_their_fingerprint(client: FlaskClient) -> None:
    css, js = sorted(referenced(client), key=lambda url: Path(url).suffix)
    assert re.fullmatch(r"/assets/app\.[0-9a-f]{10}\.css", css)
    assert re.fullmatch(r"/assets/app\.[0-9a-f]{10}\.js", js)
    assert "/static/" not in client.get("/").get_data(as_text=True)


def test_fingerprinted_files_are_cached_for_a_year(client: FlaskClient) -> None:
    for url in referenced(client):
        response = client.get(url)
        assert response.status_code == 200
        name = "app" + Path(url).suffix
        assert response.data == (STATIC / name).read_bytes()
        cache = response.cache_control
        assert (cache.max_age, cache.public, cache.immutable) == (31536000, True, True)
        response.close()


def test_an_unknown_fingerprint_is_404(client: FlaskClient) -> None:
    assert client.get("/assets/app.0000000000.css").status_code == 404
    assert client.get("/assets/app.css").status_code == 404


def test_the_fingerprint_follows_the_content(tmp_path: Path) -> None:
    (tmp_path / "app.css").write_text("body { color: red; }")
    first = fingerprint(tmp_path)["app.css"].name
    (tmp_path / "app.css").write_text("body { color: blue; }")
    second = fingerprint(tmp_path)["app.css"].name
    assert first != second
    assert re.fullmatch(r"app\.[0-9a-f]{10}\.css", first)


def test_pages_and_answers_are_compressed_for_a_browser_that_asks(
    app: Flask, client: FlaskClient, new_match
) -> None:
    match = new_match("rami", ("Ana", "Bo", "Cy"))
    rounds = f"/api/matches/{match['id']}/rounds"
    client.post(
        rounds,
        json={
            "outcome": "out",
            "winner": "Ana",
            "hands": {"Bo": {"points": 5, "melded": True}, "Cy": {"points": 7, "melded": True}},
        },
    )
    for url in ("/history", f"/api/matches/{match['id']}", "/api/games"):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert gzip.decompress(packed.data) == plain.data
        assert len(packed.data) < len(plain.data)


def test_small_answers_travel_as_they_are(client: FlaskClient) -> None:
    small = client.get("/api/matches?player=nobody", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers
    assert small.json["total"] == 0
