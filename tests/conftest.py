"""Fixtures: an app over a temporary database, its test client, and helpers to start matches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app


@pytest.fixture
def app(tmp_path) -> Flask:
    """Return an app whose whole state lives in a fresh SQLite file."""
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "tablescore.sqlite"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
        }
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a test client for the app."""
    return app.test_client()


@pytest.fixture
def new_match(client: FlaskClient) -> Callable[..., dict[str, Any]]:
    """Return a function that starts a match through the API and returns it."""

    def start(game: str = "rami", players: tuple[str, ...] = ("Ana", "Bo", "Cy"), **options):
        response = client.post(
            "/api/matches", json={"game": game, "players": list(players), "options": options}
        )
        assert response.status_code == 201, response.json
        return response.json

    return start
