"""Storage faults say so: a full disk, a read-only database or a deleted file answer 503 with
what happened, lose nothing already stored, and recover when the storage does."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlite_utils import Database

from scorebook import storage
from tests.api_helpers import api_match, rounds_url

pytestmark = pytest.mark.sqlite_only  # an SQLite file full, read-only or deleted

ROUND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 7, "melded": True}}}


def duel(client: FlaskClient) -> int:
    """A two-player Rami this client scores, to a target far away."""
    body = {"game": "rami", "players": ["Ana", "Bo"], "options": {"target": 5000}}
    return client.post("/api/matches", json=body).json["id"]


def connecting(monkeypatch: pytest.MonkeyPatch, pragma: str) -> Callable[[], None]:
    """Make every new connection run a pragma; return what undoes it."""
    plain = storage.connect

    def connect(path: str, *circle: int | None) -> Database:
        db = plain(path, *circle)
        db.execute(pragma)
        return db

    monkeypatch.setattr(storage, "connect", connect)
    return lambda: monkeypatch.setattr(storage, "connect", plain)


def test_a_full_disk_says_not_saved_keeps_what_was_saved_and_recovers(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    match_id = duel(client)
    pages = Database(app.config["DATABASE"]).execute("pragma page_count").fetchone()[0]
    # The file may not grow by a single page: some round soon needs one.
    recover = connecting(monkeypatch, f"pragma max_page_count = {pages}")
    answers = [client.post(rounds_url(match_id), json=ROUND) for _ in range(300)]
    statuses = [answer.status_code for answer in answers]
    assert 503 in statuses
    saved = statuses.index(503)
    assert set(statuses[:saved]) <= {201}
    refused = answers[saved].json
    assert refused["error"].startswith("Not saved: the server's storage is full.")
    recover()
    assert len(api_match(client, match_id)["rounds"]) == statuses.count(201)
    assert client.post(rounds_url(match_id), json=ROUND).status_code == 201


def test_a_read_only_database_says_so_on_pages_and_in_the_api(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    match_id = duel(client)
    connecting(monkeypatch, "pragma query_only = on")
    api = client.post(rounds_url(match_id), json=ROUND)
    assert api.status_code == 503
    assert "storage is read-only" in api.json["error"]
    form = {"outcome": "out", "winner": "Ana", "hands-1-points": "7", "hands-1-melded": "y"}
    page = client.post(f"/matches/{match_id}/rounds", data=form)
    assert page.status_code == 503
    assert "storage is read-only" in page.get_data(as_text=True)
    # Reading still works.
    assert client.get(f"/matches/{match_id}").status_code == 200


def test_a_deleted_database_file_is_reported_not_made_again_empty(app: Flask, client):
    duel(client)
    path = app.config["DATABASE"]
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    for url in ("/", "/api/matches", "/history"):
        answer = client.get(url)
        assert answer.status_code == 503
        assert "database file is missing" in answer.get_data(as_text=True)
    assert not os.path.exists(path)
