"""Moving a site to the other engine and back (`flask copy-database`): SQLite into PostgreSQL,
then PostgreSQL into a new SQLite file, each side answering every API call the same, every
match replaying to the totals it had, its change log and scorers intact; and what a copy
refuses, leaving the target as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from api_helpers import draw_round, finish_round, send, start_event
from flask import Flask
from flask.testing import FlaskClient
from test_transfer import GAMES, RAMI, out, played, settings

from app import create_app
from scorebook import storage
from tests.conftest import ScoringPhone
from tests.postgres import Cluster

READS = ("/api/matches", "/api/players", "/api/events", "/api/export")
"""The doors that list a whole site."""


def phone(app: Flask) -> FlaskClient:
    """Return a client of the app that scores the matches it starts."""
    app.test_client_class = ScoringPhone
    return app.test_client()


def site(client: FlaskClient) -> dict[str, Any]:
    """Everything the API says of a site: its lists, and each match and event whole, with
    the ETag it is served under."""
    said: dict[str, Any] = {url: client.get(url).json for url in READS}
    for match in said["/api/matches"]["matches"]:
        for url in (f"/api/matches/{match['id']}", f"/api/matches/{match['id']}/export"):
            answer = client.get(url)
            said[url] = (answer.json, answer.headers.get("ETag"))
    for event in said["/api/events"]["events"]:
        said[f"/api/events/{event['id']}"] = client.get(f"/api/events/{event['id']}").json
    return said


@pytest.fixture
def postgresql(cluster: Cluster) -> Callable[[str], str]:
    """Return a function that makes an empty PostgreSQL database and returns its address;
    each is dropped after the test."""
    made: list[str] = []

    def make(name: str) -> str:
        cluster.drop(name)
        made.append(name)
        return cluster.create(name)

    yield make
    for name in made:
        storage.let_go(cluster.url(name))
        cluster.drop(name)


class Club(NamedTuple):
    """A site to move, and a match under way in it with its scoring phone's header."""

    app: Flask
    under_way: int
    bearer: dict[str, str]


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """A site on an SQLite file with a match of every game (each corrected and with a round
    removed), a Rami match under way, an abandoned one and a concours of two rounds; return
    its app, and the Rami match under way with its scorer's header."""
    app = create_app(settings(str(tmp_path / "club.sqlite")))
    client = phone(app)
    for body, rounds, correction, removal in (game.values for game in GAMES):
        played(client, body, rounds, correction, removal)
    bearers, ids = [], []
    for _ in range(2):
        started = send(client, "POST", "/api/matches", RAMI).json
        bearers.append({"Authorization": f"Bearer {started['scorer_token']}"})
        ids.append(started["id"])
        url = f"/api/matches/{started['id']}"
        entered = out("Ana", Bo=7, Cy=2)
        assert client.post(f"{url}/rounds", json=entered, headers=bearers[-1]).status_code == 201
    assert client.post(f"{url}/abandon", headers=bearers[-1]).status_code == 200
    event, organiser = start_event(client)
    for _ in range(2):
        finish_round(client, draw_round(client, event["id"], organiser, seed=3), organiser)
    return Club(app, ids[0], bearers[0])


def copied(app: Flask, target: str) -> str:
    """Copy the app's database into `target` with the command a site's owner runs; return
    what it printed."""
    result = app.test_cli_runner().invoke(args=["copy-database", target])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_site_moves_to_postgresql_and_back_answering_the_same(
    club: Club, postgresql: Callable[[str], str], tmp_path: Path
):
    app = club.app
    before = site(app.test_client())
    matches = before["/api/matches"]["total"]
    assert matches == len(GAMES) + 2 + 4  # every game, two Rami, 2 rounds × 2 tables

    url = postgresql("moved")
    said = copied(app, url)
    assert f"Copied {matches} matches" in said and f"{matches} matches replayed" in said
    on_postgresql = create_app(settings(url))
    assert site(on_postgresql.test_client()) == before

    back = str(tmp_path / "back.sqlite")
    said = copied(on_postgresql, back)
    assert said.startswith(f"{url} → {back}: Copied {matches} matches")
    assert site(create_app(settings(back)).test_client()) == before


def test_a_moved_match_is_scored_on_by_its_own_phone_and_new_ids_follow_the_copied(
    club: Club, postgresql: Callable[[str], str]
):
    app, under_way, bearer = club.app, club.under_way, club.bearer
    url = postgresql("scored_on")
    copied(app, url)
    here, there = app.test_client(), create_app(settings(url)).test_client()
    newest = max(m["id"] for m in here.get("/api/matches").json["matches"])
    started = send(there, "POST", "/api/matches", RAMI)
    assert started.status_code == 201 and started.json["id"] == newest + 1
    # The phone that scored the match before the move still does, and only it.
    rounds = f"/api/matches/{under_way}/rounds"
    entered = out("Bo", Ana=3, Cy=9)
    assert there.post(rounds, json=entered).status_code == 403
    moved = there.post(rounds, json=entered, headers=bearer)
    stayed = here.post(rounds, json=entered, headers=bearer)
    assert moved.status_code == stayed.status_code == 201
    assert (
        moved.json["match"]["totals"]
        == stayed.json["match"]["totals"]
        == {
            "Ana": 3,
            "Bo": 7,
            "Cy": 11,
        }
    )


def test_a_copy_refuses_a_target_that_holds_a_site_and_changes_nothing(
    club: Club, postgresql: Callable[[str], str]
):
    app = club.app
    url = postgresql("taken")
    other = create_app(settings(url))
    played(phone(other), *GAMES[0].values)
    before = site(other.test_client())
    result = app.test_cli_runner().invoke(args=["copy-database", url])
    assert result.exit_code == 1
    assert f"{url} holds matches already: copy into a new database." in result.output
    assert site(other.test_client()) == before


def test_a_copy_hides_the_password_it_was_given(club: Club, postgresql: Callable[[str], str]):
    app = club.app
    url = postgresql("guarded").replace("postgres@", "postgres:secret@")
    said = copied(app, url)
    assert "secret" not in said and "postgres:***@" in said


def test_a_copy_of_an_unreachable_database_says_so_and_stores_nothing(club: Club, tmp_path: Path):
    app = club.app
    nobody = "postgresql://postgres@127.0.0.1:9/nowhere?connect_timeout=1"
    result = app.test_cli_runner().invoke(args=["copy-database", nobody])
    assert result.exit_code == 1 and result.output.startswith("Error: Could not copy:")
    assert "Traceback" not in result.output
