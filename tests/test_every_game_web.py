"""Every game through the same doors: the registry's games, and a toy game that lives in the
tests alone, each started, scored, shown, corrected and explained by the same pages and API.

The toy game (`tests/toy_game`) is registered by this file only: that the pages, the API, the
OpenAPI document and the rules page all offer it proves a game is one folder and one line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import scorers
from tests import test_barbu_web, test_belote_web, test_gaigel_web, test_porrazo_web
from tests.api_helpers import (
    TABLES,
    api_match,
    opened_match,
    play,
    post_round_form,
    refused,
    rounds_url,
    send,
    start_match,
)
from tests.html_reader import parse

TOY = "tests.toy_game"

STARTS: dict[str, dict[str, Any]] = {
    **TABLES,
    "tally": {"game": "tally", "players": ["Ana", "Bo", "Cy"]},
}
"""A table that starts a match of each game."""

FIRST_ROUNDS: dict[str, dict[str, Any]] = {
    "rami": {
        "outcome": "out",
        "winner": "Ana",
        "hands": {"Bo": {"points": 16, "melded": True}, "Cy": {"points": 18, "melded": True}},
    },
    "belote": {"taker": "Ana", "trump": "hearts", "points": {"Nous": 82}, "last_trick": "Nous"},
    "barbu": {
        "contract": "no_tricks",
        "taken": {"Ana": 4, "Bo": 3, "Cy": 3, "Di": 3},
        "doubles": [],
    },
    "gaigel": {"winner": "Oben", "outcome": "gaigel"},
    "porrazo": {"event": "cards", "counts": {"Ana": 29, "Bo": 13, "Cy": 10}},
    "tally": {"points": {"Ana": 12, "Bo": 7, "Cy": 0}},
}
"""A first round each game accepts from a new match of `STARTS`."""

GAME_IDS = [*scorers.GAMES, "tally"]


@pytest.fixture(scope="module", autouse=True)
def toy_game() -> Iterator[scorers.Scorer]:
    """Register the toy game for this file's tests only, as any game package is registered."""
    yield scorers.register(TOY)
    scorers.unregister("tally")


@pytest.fixture(params=GAME_IDS)
def game(request: pytest.FixtureRequest) -> str:
    """Each registered game in turn, the toy game last."""
    return request.param


@pytest.fixture
def scored(client: FlaskClient, game: str) -> dict[str, Any]:
    """A match of the game with its first round recorded."""
    match = start_match(client, STARTS[game])
    return play(client, match["id"], FIRST_ROUNDS[game])


def test_the_registry_is_built_from_the_game_packages() -> None:
    packages = [scorers.PACKAGES[game] for game in scorers.GAMES]
    assert packages == [*scorers.GAME_PACKAGES, TOY]


def test_the_games_list_offers_every_game(client: FlaskClient) -> None:
    listed = [entry["id"] for entry in client.get("/api/games").json["games"]]
    assert listed == GAME_IDS


def test_the_home_page_starts_every_game(client: FlaskClient, game: str) -> None:
    links = [a.attrs.get("href") for a in parse(client.get("/")).find_all("a")]
    assert any(href and href.startswith(f"/matches/new/{game}") for href in links)


def test_the_new_match_page_of_every_game_opens(client: FlaskClient, game: str) -> None:
    page = client.get(f"/matches/new/{game}")
    assert page.status_code == 200
    assert parse(page).find("form") is not None


def test_a_first_round_is_scored_and_kept_as_entered(
    client: FlaskClient, game: str, scored: dict[str, Any]
) -> None:
    assert len(scored["rounds"]) == 1
    assert any(scored["totals"].values()), "a first round that scores nothing proves nothing"
    entered = scored["rounds"][0]["input"]
    # Stored as the table entered it, completed by the rules (the other team's points).
    assert {key: entered[key] for key in FIRST_ROUNDS[game] if key != "points"} == {
        key: value for key, value in FIRST_ROUNDS[game].items() if key != "points"
    }
    assert scored["version"] == 1
    assert api_match(client, scored["id"]) == scored


def test_the_toy_game_scores_by_its_own_rules(client: FlaskClient) -> None:
    match = start_match(client, STARTS["tally"] | {"options": {"target": 20}})
    after = play(client, match["id"], FIRST_ROUNDS["tally"], FIRST_ROUNDS["tally"])
    assert after["totals"] == {"Ana": 24, "Bo": 14, "Cy": 0}
    assert after["status"] == "finished"
    assert after["winner"] == "Ana"
    assert after["rounds"][0]["explanation"] == [
        "Each scores what was counted: Ana 12, Bo 7, Cy 0."
    ]


START_REFUSALS = [
    pytest.param(game, *case.values, id=f"{game}-{case.id}")
    for game, module in (
        ("barbu", test_barbu_web),
        ("belote", test_belote_web),
        ("gaigel", test_gaigel_web),
        ("porrazo", test_porrazo_web),
    )
    for case in module.START_REFUSALS
]
"""Each game's own ways a match is refused at its start, kept beside that game's tests."""


@pytest.mark.parametrize(("game", "data", "field", "words"), START_REFUSALS)
def test_a_refused_match_is_never_started(
    client: FlaskClient, game: str, data: dict, field: str, words: str
) -> None:
    refused(send(client, "POST", "/api/matches", {"game": game, **data}), 422, field, words)
    assert client.get("/api/matches").json["total"] == 0


def test_a_refused_round_changes_nothing(client: FlaskClient, game: str) -> None:
    match = start_match(client, STARTS[game])
    response = send(client, "POST", rounds_url(match["id"]), {"nothing": "at all"})
    assert response.status_code == 422
    assert response.json["error"]
    assert api_match(client, match["id"])["version"] == 0


@pytest.mark.parametrize(
    "page", ["", "/sheet", "/rounds/1/why", "/rules", "/whatif", "/rounds/1/edit"]
)
def test_every_page_of_a_match_opens(client: FlaskClient, scored: dict[str, Any], page: str):
    response = client.get(f"/matches/{scored['id']}{page}")
    assert response.status_code == 200
    assert parse(response).find("main") is not None


def test_the_match_page_shows_the_round_form(client: FlaskClient, scored: dict[str, Any]) -> None:
    doc = parse(client.get(f"/matches/{scored['id']}"))
    forms = [form.attrs.get("action") for form in doc.find_all("form")]
    assert f"/matches/{scored['id']}/rounds" in forms


def test_the_toy_games_form_records_a_round(client: FlaskClient) -> None:
    match = start_match(client, STARTS["tally"])
    typed = {"points_0": "3", "points_1": "۵", "points_2": "0", "record": "1"}
    response = post_round_form(client, match["id"], typed)
    assert response.status_code == 302
    assert opened_match(client, response)["totals"] == {"Ana": 3, "Bo": 5, "Cy": 0}


def test_the_openapi_document_describes_every_games_round(app: Flask, game: str) -> None:
    document = app.test_client().get("/api/openapi.json").json
    name = scorers.part_of(scorers.GAMES[game], "schema").NAME
    assert name in document["components"]["schemas"]
    assert {"$ref": f"#/components/schemas/{name}"} in any_of(document)


def any_of(document: dict[str, Any]) -> list[Any]:
    """Every `anyOf` entry anywhere in the document: a round body is any one game's round."""
    found: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            found.extend(value.get("anyOf", []))
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(document)
    return found
