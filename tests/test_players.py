"""Players: statistics per game variant, head-to-head, renaming, and history by date range."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate
from sqlite_utils import Database

from app import create_app
from scorebook import storage
from scorebook.storage.database import rows
from scorebook.storage.migrations import migrations
from tests.conftest import ScoringPhone
from tests.html_reader import Node, alerts, field_errors, parse
from tests.test_api import assert_error
from tests.test_barbu_web import full_match_hands
from tests.test_pages import match_cards

NOUS_EUX = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}

# --- building matches through the API ---------------------------------------------------------


def start(client: FlaskClient, game: str, seated: list | dict, **options: Any) -> int:
    """Start a match, players in a list or teams in a dict, and return its id."""
    seating = {"teams" if isinstance(seated, dict) else "players": seated}
    response = client.post("/api/matches", json={"game": game, **seating, "options": options})
    assert response.status_code == 201, response.json
    return response.json["id"]


def play(client: FlaskClient, match_id: int, *rounds: dict[str, Any]) -> dict[str, Any]:
    """Record rounds one after the other and return the match after the last."""
    match = client.get(f"/api/matches/{match_id}").json
    for entered in rounds:
        response = client.post(f"/api/matches/{match_id}/rounds", json=entered)
        assert response.status_code == 201, response.json
        match = response.json["match"]
    return match


def out(winner: str, **points: int) -> dict[str, Any]:
    """A Rami round: `winner` went out, the others hold these points, all melded."""
    hands = {name: {"points": value, "melded": True} for name, value in points.items()}
    return {"outcome": "out", "winner": winner, "hands": hands}


def deal(taker: str, nous: int, eux: int, **coinche: Any) -> dict[str, Any]:
    """A Belote deal won by Nous's card points, with a coinche contract if given."""
    return {"taker": taker, "trump": "hearts", "points": {"Nous": nous, "Eux": eux}} | coinche


def three_deal(ana: int, bo: int, cy: int) -> dict[str, Any]:
    """A Gaigel deal for three: each player's card points."""
    return {"card_points": {"Ana": ana, "Bo": bo, "Cy": cy}}


def finished_duel(client: FlaskClient, winner: str, loser: str) -> int:
    """Start and finish a Rami match to 100: the winner goes out, the loser holds 100."""
    match_id = start(client, "rami", [winner, loser], target=100)
    assert play(client, match_id, out(winner, **{loser: 100}))["winner"] == winner
    return match_id


@pytest.fixture
def db(app: Flask) -> Iterator[Database]:
    """Return a connection to the app's database, for what the API cannot do or show."""
    connection = storage.connect(app.config["DATABASE"])
    yield connection
    connection.close()


@pytest.fixture
def season(client: FlaskClient) -> dict[str, int]:
    """Ana, Bo, Cy and Di over every game: the winners and totals noted by each match."""
    ids = {}
    # Rami to 100: Ana wins (0 to 100), Bo wins (Ana 120), Ana–Cy still playing.
    ids["rami 1"] = finished_duel(client, "Ana", "Bo")
    ids["rami 2"] = start(client, "rami", ["Ana", "Bo"], target=100)
    play(client, ids["rami 2"], out("Bo", Ana=120))
    ids["rami 3"] = start(client, "rami", ["Ana", "Cy"], target=100)
    play(client, ids["rami 3"], out("Ana", Cy=10))
    # Rami to 200: Ana reaches it with 200; Cy, on 0, wins.
    ids["rami 200"] = start(client, "rami", ["Ana", "Bo", "Cy"])
    play(client, ids["rami 200"], out("Cy", Ana=200, Bo=30))
    # Belote classic to 90: Nous (Ana, Cy) win 92 to 70.
    ids["classic"] = start(client, "belote", NOUS_EUX, target=90)
    play(client, ids["classic"], deal("Ana", 82, 70, last_trick="Nous"))
    # Coinche to 100: Nous win 190 to 52, first with Ana and Cy, then with Bo and Cy.
    made = {"last_trick": "Nous", "contract": 80, "coinche": "none"}
    ids["coinche 1"] = start(client, "belote", NOUS_EUX, variant="coinche", target=100)
    play(client, ids["coinche 1"], deal("Ana", 100, 52, **made))
    swapped = {"Nous": ["Bo", "Cy"], "Eux": ["Ana", "Di"]}
    ids["coinche 2"] = start(client, "belote", swapped, variant="coinche", target=100)
    play(client, ids["coinche 2"], deal("Bo", 100, 52, **made))
    # Gaigel teams with 2 strokes: Oben (Ana, Cy) win with a Gaigel, Unten hold both strokes.
    oben_unten = {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}
    ids["gaigel"] = start(client, "gaigel", oben_unten, strokes=2)
    play(client, ids["gaigel"], {"winner": "Oben", "outcome": "gaigel"})
    # Gaigel for three: 90 each after thirty deals, a shared first place.
    ids["gaigel 3"] = start(client, "gaigel", ["Ana", "Bo", "Cy"], mode="three")
    rotation = [three_deal(120, 80, 40), three_deal(40, 120, 80), three_deal(80, 40, 120)]
    assert play(client, ids["gaigel 3"], *rotation * 10)["state"]["shared_first"]
    # Barbu: 28 hands, Cy wins with 191; Ana has 83.
    ids["barbu"] = start(client, "barbu", ["Ana", "Bo", "Cy", "Di"])
    assert play(client, ids["barbu"], *full_match_hands("Ana"))["winner"] == "Cy"
    # Porrazo to 2: Ana takes two limpias.
    ids["porrazo"] = start(client, "porrazo", ["Ana", "Bo"], target=2)
    limpia = {"player": "Ana", "event": "limpia", "rank": "5"}
    assert play(client, ids["porrazo"], limpia, limpia)["winner"] == "Ana"
    return ids


# --- statistics -------------------------------------------------------------------------------


def record(
    game: str, variant: str, matches: int, finished: int, wins: int, rate: Any, average: Any
) -> dict[str, Any]:
    """One line of a player's games, as the API gives it."""
    return {
        "game": game,
        "variant": variant,
        "matches": matches,
        "finished": finished,
        "wins": wins,
        "win_rate": rate,
        "average_score": average,
    }


def rivalry(opponent: str, matches: int, wins: int, losses: int) -> dict[str, Any]:
    """One line of a player's head-to-head records."""
    return {"opponent": opponent, "matches": matches, "wins": wins, "losses": losses}


def test_statistics_per_game_variant(client: FlaskClient, season: dict[str, int]) -> None:
    response = client.get("/api/players/Ana")
    assert response.status_code == 200
    ana = response.json
    assert ana["name"] == "Ana"
    assert ana["games"] == [
        record("rami", "Rami, to 100", 3, 2, 1, 0.5, 60.0),
        record("rami", "Rami, to 200", 1, 1, 0, 0.0, 200.0),
        record("belote", "Belote classic, to 90", 1, 1, 1, 1.0, 92.0),
        record("belote", "Coinche, to 100", 2, 2, 1, 0.5, 121.0),
        record("barbu", "Barbu", 1, 1, 0, 0.0, 83.0),
        record("gaigel", "Gaigel for three", 1, 1, 0, 0.0, 90.0),
        record("gaigel", "Gaigel teams, 2 strokes", 1, 1, 1, 1.0, 0.0),
        record("porrazo", "Porrazo, to 2", 1, 1, 1, 1.0, 2.0),
    ]
    assert [row["id"] for row in ana["matches"]] == sorted(season.values(), reverse=True)
    assert ana["matches"][0]["url"].endswith(f"/api/matches/{season['porrazo']}")


def test_team_games_count_the_team(client: FlaskClient, season: dict[str, int]) -> None:
    cy = {line["variant"]: line for line in client.get("/api/players/cy").json["games"]}
    assert cy["Coinche, to 100"] == record("belote", "Coinche, to 100", 2, 2, 2, 1.0, 190.0)
    assert cy["Gaigel teams, 2 strokes"]["wins"] == 1
    di = {line["variant"]: line for line in client.get("/api/players/di").json["games"]}
    assert di["Coinche, to 100"] == record("belote", "Coinche, to 100", 2, 2, 0, 0.0, 52.0)
    assert di["Gaigel teams, 2 strokes"] == record(
        "gaigel", "Gaigel teams, 2 strokes", 1, 1, 0, 0.0, 2.0
    )


def test_a_match_not_finished_counts_as_played_only(client: FlaskClient) -> None:
    match_id = start(client, "rami", ["Ana", "Cy"], target=100)
    play(client, match_id, out("Ana", Cy=10))
    assert client.get("/api/players/Cy").json["games"] == [
        record("rami", "Rami, to 100", 1, 0, 0, None, None)
    ]


def test_head_to_head_counts_opponents_not_partners(
    client: FlaskClient, season: dict[str, int]
) -> None:
    assert client.get("/api/players/Ana").json["head_to_head"] == [
        # Ana beat Bo in Rami 1, Belote, Coinche 1, Gaigel teams and Porrazo; lost Rami 2 and
        # Coinche 2; Cy won Rami 200 and Barbu, and Gaigel for three was shared.
        rivalry("Bo", 10, 5, 2),
        # Partners in Belote, Coinche 1 and Gaigel teams; opponents in the five others.
        rivalry("Cy", 5, 0, 3),
        rivalry("Di", 4, 3, 0),
    ]
    assert client.get("/api/players/Di").json["head_to_head"] == [
        rivalry("Ana", 4, 0, 3),
        rivalry("Bo", 2, 0, 1),
        rivalry("Cy", 5, 0, 5),
    ]


def test_players_list_by_name(client: FlaskClient, season: dict[str, int]) -> None:
    finished_duel(client, "bea", "Ana")
    listed = client.get("/api/players").json["players"]
    assert [(p["name"], p["matches"], p["wins"]) for p in listed] == [
        ("Ana", 12, 5),
        ("bea", 1, 1),
        ("Bo", 10, 2),
        ("Cy", 8, 6),
        ("Di", 5, 0),
    ]
    assert urlsplit(listed[1]["url"]).path == "/api/players/bea"
    assert client.get(listed[1]["url"]).json["name"] == "bea"


def test_players_are_found_whatever_the_case(client: FlaskClient) -> None:
    finished_duel(client, "Ana", "Bo")
    for spelled in ("ana", "ANA", "aNa"):
        assert client.get(f"/api/players/{spelled}").json["name"] == "Ana"
    assert_error(client.get("/api/players/An"), 404)


def test_no_players_yet(client: FlaskClient) -> None:
    assert client.get("/api/players").json == {"players": []}


def test_unknown_player_is_404(client: FlaskClient) -> None:
    body = assert_error(client.get("/api/players/Zed"), 404)
    assert "Zed" in body["error"]


def test_a_name_with_a_slash_has_its_page(client: FlaskClient) -> None:
    finished_duel(client, "Ana/Bo", "Cy")
    listed = client.get("/api/players").json["players"]
    assert client.get(listed[0]["url"]).json["name"] == "Ana/Bo"
    assert client.get("/players/Ana/Bo").status_code == 200


# --- renaming ---------------------------------------------------------------------------------


def rename(client: FlaskClient, name: str, to: Any) -> Any:
    """Ask the API to rename a player."""
    return client.post(f"/api/players/{name}/rename", json={"to": to})


def renames(db: Database) -> list[tuple[str, str]]:
    """Return the renames log: the key renamed, and the name it was given."""
    return [(row["from_key"], row["to_name"]) for row in rows(db, "select * from renames")]


def test_rename_moves_the_history_not_the_matches(client: FlaskClient, db: Database) -> None:
    first = finished_duel(client, "Ana", "Bo")
    second = finished_duel(client, "Bo", "ana")
    response = rename(client, "ANA", "  Anabel ")
    assert response.status_code == 200
    anabel = response.json
    assert anabel["name"] == "Anabel"
    assert [row["id"] for row in anabel["matches"]] == [second, first]
    assert anabel["head_to_head"] == [rivalry("Bo", 2, 1, 1)]
    found = client.get("/api/matches?player=anabel").json
    assert [row["id"] for row in found["matches"]] == [second, first]
    assert client.get("/api/matches?player=ana").json["total"] == 0
    stored = client.get(f"/api/matches/{first}").json
    assert stored["players"] == ["Ana", "Bo"]
    assert stored["totals"] == {"Ana": 0, "Bo": 100}
    assert stored["winner"] == "Ana"
    assert stored["rounds"][0]["input"]["winner"] == "Ana"
    assert client.get(f"/api/matches/{second}").json["players"] == ["Bo", "ana"]
    assert [p["name"] for p in client.get("/api/players").json["players"]] == ["Anabel", "Bo"]
    assert_error(client.get("/api/players/Ana"), 404)
    assert renames(db) == [("ana", "Anabel")]


def test_a_new_match_after_a_rename_seats_a_new_player(client: FlaskClient) -> None:
    finished_duel(client, "Ana", "Bo")
    rename(client, "Ana", "Anabel")
    finished_duel(client, "Ana", "Cy")
    listed = client.get("/api/players").json["players"]
    assert [(p["name"], p["matches"]) for p in listed] == [
        ("Ana", 1),
        ("Anabel", 1),
        ("Bo", 1),
        ("Cy", 1),
    ]


def test_rename_into_a_player_met_at_a_table_is_409(client: FlaskClient, db: Database) -> None:
    finished_duel(client, "Ana", "Bo")
    finished_duel(client, "Ana", "Cy")
    before = client.get("/api/players").json
    body = assert_error(rename(client, "ana", "BO"), 409)
    assert "same table in 1 match" in body["error"]
    assert client.get("/api/players").json == before
    assert renames(db) == []


def test_rename_into_a_player_never_met_merges(client: FlaskClient, db: Database) -> None:
    first = finished_duel(client, "Ana", "Bo")
    second = finished_duel(client, "Cy", "Anna")
    response = rename(client, "anna", "ANA")
    assert response.status_code == 200
    merged = response.json
    assert merged["name"] == "ANA"
    assert [row["id"] for row in merged["matches"]] == [second, first]
    assert merged["games"] == [record("rami", "Rami, to 100", 2, 2, 1, 0.5, 50.0)]
    assert merged["head_to_head"] == [rivalry("Bo", 1, 1, 0), rivalry("Cy", 1, 0, 1)]
    assert client.get("/api/matches?player=ana").json["total"] == 2
    assert [p["name"] for p in client.get("/api/players").json["players"]] == ["ANA", "Bo", "Cy"]
    assert renames(db) == [("anna", "ANA")]


def test_rename_changing_only_the_case(client: FlaskClient, db: Database) -> None:
    finished_duel(client, "ana", "Bo")
    assert rename(client, "ana", "Ana").json["name"] == "Ana"
    assert client.get("/api/players/ANA").json["name"] == "Ana"
    assert renames(db) == [("ana", "Ana")]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"to": ""}, "needs a name"),
        ({"to": "   "}, "needs a name"),
        ({"to": 7}, "needs a name"),
        ({}, "needs a name"),
        ({"to": "x" * 41}, "at most 40"),
    ],
)
def test_rename_refuses_a_bad_name(client: FlaskClient, db: Database, body: dict, words: str):
    finished_duel(client, "Ana", "Bo")
    response = client.post("/api/players/Ana/rename", json=body)
    assert_error(response, 422, "to", words)
    assert renames(db) == []


def test_rename_accepts_40_characters(client: FlaskClient) -> None:
    finished_duel(client, "Ana", "Bo")
    assert rename(client, "Ana", "x" * 40).json["name"] == "x" * 40


def test_rename_of_an_unknown_player_is_404(client: FlaskClient, db: Database) -> None:
    assert_error(rename(client, "Zed", "Zoe"), 404)
    assert renames(db) == []


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"data": {"to": "Zoe"}}, 415),
        ({"data": "Zoe", "content_type": "text/plain"}, 415),
        ({"data": "{", "content_type": "application/json"}, 400),
        ({"json": ["Zoe"]}, 400),
    ],
)
def test_rename_needs_a_json_object(client: FlaskClient, kwargs: dict, status: int) -> None:
    finished_duel(client, "Ana", "Bo")
    assert_error(client.post("/api/players/Ana/rename", **kwargs), status)


def test_the_renames_log_refuses_update_and_delete(client: FlaskClient, db: Database) -> None:
    finished_duel(client, "Ana", "Bo")
    rename(client, "Ana", "Anabel")
    for statement in ("update renames set to_name = 'Ana'", "delete from renames"):
        with pytest.raises(storage.Duplicate, match="append-only"):
            db.execute(statement)
    assert renames(db) == [("ana", "Anabel")]


def test_migration_gives_existing_seats_their_player(tmp_path) -> None:
    path = str(tmp_path / "old.sqlite")
    old = Database(path)
    migrations.apply(old, stop_before="m002_player_keys")
    at = "2024-03-01T10:00:00Z"
    old.table("matches").insert(
        {
            "id": 1,
            "uid": "u1",
            "game": "rami",
            "options_json": '{"target": 100}',
            "players_json": '["Ana", "Bo"]',
            "created_utc": at,
            "updated_utc": at,
            "status": "playing",
            "totals_json": '{"Ana": 0, "Bo": 0}',
            "rounds_played": 0,
        }
    )
    old.table("seats").insert_all(
        [
            {"match_id": 1, "seat": 0, "name": "Ana", "name_key": "ana"},
            {"match_id": 1, "seat": 1, "name": "Bo", "name_key": "bo"},
        ]
    )
    old.close()
    storage.prepare(path)
    db = Database(path)
    assert [row["player_key"] for row in rows(db, "select * from seats order by seat")] == [
        "ana",
        "bo",
    ]
    assert ["circle_id", "player_key", "match_id"] in [
        index.columns for index in db.table("seats").indexes
    ]
    assert "m002_player_keys" in [m.name for m in migrations.applied(db)]
    assert [m.name for m in migrations.applied(db)][1] == "m002_player_keys"
    db.close()


# --- history by date --------------------------------------------------------------------------


def created(db: Database, match_id: int, at: str) -> None:
    """Pretend a match was started at another time."""
    db.execute("update matches set created_utc = ? where id = ?", [at, match_id])
    db.conn.commit()


@pytest.fixture
def dated(client: FlaskClient, db: Database) -> dict[str, int]:
    """Four matches started on 29 Feb, 1 March (late at night), 15 March and 1 April 2024."""
    ids = {}
    for day, at, players in [
        ("feb 29", "2024-02-29T23:59:59Z", ["Ana", "Bo"]),
        ("mar 1", "2024-03-01T23:59:59Z", ["Ana", "Cy"]),
        ("mar 15", "2024-03-15T00:00:00Z", ["Bo", "Cy"]),
        ("apr 1", "2024-04-01T12:00:00Z", ["Ana", "Di"]),
    ]:
        ids[day] = start(client, "rami", players)
        created(db, ids[day], at)
    return ids


DATE_QUERIES = [
    ("from=2024-03-01&to=2024-03-15", ["mar 15", "mar 1"]),
    ("from=2024-03-01", ["apr 1", "mar 15", "mar 1"]),
    ("to=2024-03-01", ["mar 1", "feb 29"]),
    ("from=2024-03-01&to=2024-03-01", ["mar 1"]),
    ("from=2024-03-02&to=2024-03-14", []),
    ("from=2024-03-01&player=ana", ["apr 1", "mar 1"]),
    ("from=&to=", ["apr 1", "mar 15", "mar 1", "feb 29"]),
]


@pytest.mark.parametrize(("query", "expected"), DATE_QUERIES)
def test_history_by_date_range(
    client: FlaskClient, dated: dict[str, int], query: str, expected: list[str]
) -> None:
    listed = client.get(f"/api/matches?{query}").json
    assert [row["id"] for row in listed["matches"]] == [dated[day] for day in expected]
    assert listed["total"] == len(expected)


BAD_DATES = [
    ("from=2024-13-01", "from", "From is a day written YYYY-MM-DD"),
    ("from=2024-02-30", "from", "From is a day"),
    ("from=20240301", "from", "From is a day"),
    ("to=2024-W09-5", "to", "To is a day"),
    ("to=1%20March", "to", "To is a day"),
    ("from=2024-03-02&to=2024-03-01", "to", "To (2024-03-01) is before from (2024-03-02)"),
]


@pytest.mark.parametrize(("query", "field", "words"), BAD_DATES)
def test_history_refuses_bad_dates(client: FlaskClient, query: str, field: str, words: str):
    assert_error(client.get(f"/api/matches?{query}"), 422, field, words)


def test_history_pages_within_a_date_range(client: FlaskClient, db: Database) -> None:
    ids = [start(client, "rami", [f"A{i}", "Bo"]) for i in range(22)]
    for match_id in ids:
        created(db, match_id, "2024-03-10T08:00:00Z")
    created(db, ids[-1], "2024-05-01T08:00:00Z")
    first = client.get("/api/matches?from=2024-03-01&to=2024-03-31").json
    assert (first["page"], first["pages"], first["total"]) == (1, 2, 21)
    second = client.get("/api/matches?from=2024-03-01&to=2024-03-31&page=2").json
    assert [row["id"] for row in second["matches"]] == [ids[0]]


@pytest.mark.parametrize(("query", "expected"), DATE_QUERIES)
def test_history_page_by_date_range(
    client: FlaskClient, dated: dict[str, int], query: str, expected: list[str]
) -> None:
    response = client.get(f"/history?{query}")
    assert response.status_code == 200
    assert [card["href"] for card in match_cards(parse(response))] == [
        f"/matches/{dated[day]}" for day in expected
    ]


def test_history_page_keeps_the_dates(client: FlaskClient, db: Database) -> None:
    for i in range(21):
        created(db, start(client, "rami", [f"A{i}", "Bo"]), "2024-03-10T08:00:00Z")
    doc = parse(client.get("/history?from=2024-03-01&to=2024-03-31"))
    date_inputs = {node.attrs["name"]: node for node in doc.find_all("input", type="date")}
    assert {name: node.attrs["value"] for name, node in date_inputs.items()} == {
        "from": "2024-03-01",
        "to": "2024-03-31",
    }
    [older] = doc.find("nav", "pages").find_all("a")
    query = parse_qs(urlsplit(older.attrs["href"]).query)
    assert (query["from"], query["to"], query["page"]) == (["2024-03-01"], ["2024-03-31"], ["2"])


@pytest.mark.parametrize(("query", "field", "words"), BAD_DATES)
def test_history_page_refuses_bad_dates(client: FlaskClient, query: str, field: str, words: str):
    response = client.get(f"/history?{query}")
    assert response.status_code == 422
    assert any(words in alert for alert in alerts(parse(response)))


# --- pages ------------------------------------------------------------------------------------


def table_rows(doc: Node, cls: str) -> list[list[str]]:
    """Read a table's body: one list of cell texts per row."""
    table = doc.find("table", cls)
    assert table is not None, f"no {cls} table on the page"
    return [
        [cell.text() for cell in row.walk() if cell.tag in ("th", "td")]
        for row in table.find("tbody").find_all("tr")
    ]


def test_nav_links_to_history_events_and_players(client: FlaskClient) -> None:
    nav = parse(client.get("/")).find("nav")
    assert [a.attrs["href"] for a in nav.find_all("a")] == ["/history", "/events", "/players"]


def test_players_page_lists_and_links(client: FlaskClient, season: dict[str, int]) -> None:
    doc = parse(client.get("/players"))
    assert table_rows(doc, "players") == [
        ["Ana", "11", "5"],
        ["Bo", "10", "2"],
        ["Cy", "8", "6"],
        ["Di", "5", "0"],
    ]
    links = [a.attrs["href"] for a in doc.find("table", "players").find_all("a")]
    assert links == ["/players/Ana", "/players/Bo", "/players/Cy", "/players/Di"]


def test_players_page_before_anyone_played(client: FlaskClient) -> None:
    doc = parse(client.get("/players"))
    assert doc.find("table", "players") is None
    assert "Nobody has played yet" in doc.find("main").text()


def test_player_page(client: FlaskClient, season: dict[str, int]) -> None:
    response = client.get("/players/ana")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("h1").text() == "Ana"
    records = table_rows(doc, "records")
    assert records[0] == ["Rami, to 100", "3", "2", "1", "50%", "60.0"]
    assert records[3] == ["Coinche, to 100", "2", "2", "1", "50%", "121.0"]
    assert len(records) == 8
    assert table_rows(doc, "head-to-head") == [
        ["Bo", "10", "5", "2"],
        ["Cy", "5", "0", "3"],
        ["Di", "4", "3", "0"],
    ]
    hrefs = [a.attrs["href"] for a in doc.find("table", "head-to-head").find_all("a")]
    assert hrefs == ["/players/Bo", "/players/Cy", "/players/Di"]
    cards = match_cards(doc)
    assert cards[0]["href"] == f"/matches/{season['porrazo']}"
    assert len(cards) == 11
    form = doc.find("form", "rename-form")
    assert (form.attrs["method"], form.attrs["action"]) == ("post", "/players/Ana/rename")


def test_unfinished_variant_shows_dashes(client: FlaskClient) -> None:
    start(client, "rami", ["Ana", "Bo"])
    doc = parse(client.get("/players/Ana"))
    assert table_rows(doc, "records") == [["Rami, to 100", "1", "0", "0", "–", "–"]]


def test_unknown_player_page_is_404(client: FlaskClient) -> None:
    response = client.get("/players/Zed")
    assert response.status_code == 404
    assert any("Zed" in alert for alert in alerts(parse(response)))


def test_history_filtered_by_player_links_to_their_page(client: FlaskClient) -> None:
    finished_duel(client, "Ana", "Bo")
    doc = parse(client.get("/history?player=ana"))
    assert doc.find("a", href="/players/ana") is not None
    assert parse(client.get("/history?player=zed")).find("a", href="/players/zed") is None


def test_rename_form_renames_and_shows_the_new_page(client: FlaskClient) -> None:
    match_id = finished_duel(client, "Ana", "Bo")
    response = client.post("/players/ana/rename", data={"to": "Anabel"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/players/Anabel"
    doc = parse(client.get("/players/Anabel"))
    assert doc.find("h1").text() == "Anabel"
    assert "Renamed ana to Anabel." in doc.find("p", "flash").text()
    assert [card["href"] for card in match_cards(doc)] == [f"/matches/{match_id}"]
    assert client.get(f"/api/matches/{match_id}").json["players"] == ["Ana", "Bo"]


def test_rename_form_refusals_keep_the_page(client: FlaskClient, db: Database) -> None:
    finished_duel(client, "Ana", "Bo")
    empty = client.post("/players/Ana/rename", data={"to": "  "})
    assert empty.status_code == 422
    assert field_errors(parse(empty)) == {"to": ["Every player needs a name."]}
    taken = client.post("/players/Ana/rename", data={"to": "bo"})
    assert taken.status_code == 409
    doc = parse(taken)
    assert any("same table" in alert for alert in alerts(doc))
    assert doc.find("input", name="to").attrs["value"] == "bo"
    assert client.post("/players/Zed/rename", data={"to": "Zoe"}).status_code == 404
    assert renames(db) == []


def test_rename_form_needs_the_csrf_token_and_the_api_does_not(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "csrf.sqlite"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": True,
        }
    )
    app.test_client_class = ScoringPhone
    client = app.test_client()
    finished_duel(client, "Ana", "Bo")
    assert client.post("/players/Ana/rename", data={"to": "Anabel"}).status_code == 400
    token = parse(client.get("/players/Ana")).find("input", name="csrf_token").attrs["value"]
    accepted = client.post("/players/Ana/rename", data={"to": "Anabel", "csrf_token": token})
    assert accepted.status_code == 302
    assert rename(client, "Anabel", "Ana").status_code == 200


# --- the OpenAPI document ---------------------------------------------------------------------


def test_openapi_describes_the_players_paths(app: Flask, client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").json
    validate(document)
    paths = document["paths"]
    assert set(paths["/api/players"]) == {"get"}
    assert set(paths["/api/players/{name}"]) == {"get"}
    assert set(paths["/api/players/{name}/rename"]) == {"post"}
    described = {
        rule.rule.replace("<path:name>", "{name}")
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("players.") and rule.rule.startswith("/api/")
    }
    assert described == {"/api/players", "/api/players/{name}", "/api/players/{name}/rename"}


# --- the players table kept true (issue 10) ---------------------------------------------------


def recount(db: Database) -> dict[str, Any]:
    """Count every player again from the seats and matches, the long way: their name shown
    (the last given, typed at a table or by a rename), their records per game and options, and
    their rivalries."""
    named: dict[str, str] = {}
    typed = rows(
        db,
        # Within one second, the order they were stored in: a second holds several matches.
        "select s.name, m.created_utc as at, 0 as renamed, m.id as seq from seats s join "
        "matches m on m.id = s.match_id where s.name_key = s.player_key "
        "union all select to_name, at_utc, 1, id from renames order by at, renamed, seq",
    )
    for row in typed:
        named[row["name"].casefold()] = row["name"]
    seated = list(
        rows(
            db,
            "select s.*, m.game, m.variant_json, m.teams_json, m.status, m.winner, "
            "m.totals_json from seats s join matches m on m.id = s.match_id",
        )
    )
    records: dict[tuple, list[int]] = {}
    rivalries: dict[tuple, list[int]] = {}
    for row in seated:
        teams = json.loads(row["teams_json"]) if row["teams_json"] else {}
        side = next((team for team, seats in teams.items() if row["name"] in seats), row["name"])
        assert row["side"] == side
        over = row["status"] == "finished"
        counts = records.setdefault((row["player_key"], row["game"], row["variant_json"]), [0] * 4)
        counts[0] += 1
        counts[1] += over
        counts[2] += over and row["winner"] == side
        counts[3] += json.loads(row["totals_json"])[side] if over else 0
        for other in seated:
            if other["match_id"] == row["match_id"] and other["side"] != side:
                rivalry = rivalries.setdefault((row["player_key"], other["player_key"]), [0] * 3)
                rivalry[0] += 1
                rivalry[1] += row["winner"] == side
                rivalry[2] += row["winner"] == other["side"]
    return {
        "names": {key: named[key] for key, *_ in records},
        "records": {key: tuple(counts) for key, counts in records.items()},
        "rivalries": {key: tuple(counts) for key, counts in rivalries.items()},
    }


def kept(db: Database) -> dict[str, Any]:
    """Return what the app keeps per player: names, records and rivalries, as recount does."""
    records = rows(db, "select * from records where matches > 0")
    rivalries = rows(db, "select * from rivalries where matches > 0")
    return {
        "names": {row["key"]: row["name"] for row in rows(db, "select * from players")},
        "records": {
            (row["player_key"], row["game"], row["variant_json"]): (
                row["matches"],
                row["finished"],
                row["wins"],
                row["scored"],
            )
            for row in records
        },
        "rivalries": {
            (row["player_key"], row["opponent_key"]): (row["matches"], row["wins"], row["losses"])
            for row in rivalries
        },
    }


def listed(client: FlaskClient) -> dict[str, tuple[int, int]]:
    """Return the players list as the API gives it: name → (matches, wins)."""
    players = client.get("/api/players").json["players"]
    return {player["name"]: (player["matches"], player["wins"]) for player in players}


def test_players_table_stays_true_through_every_change(
    client: FlaskClient, db: Database, season: dict[str, int]
) -> None:
    assert kept(db) == recount(db)
    # A correction that hands the win to the other player, then a removal that takes it away.
    duel = finished_duel(client, "Ed", "Flo")
    assert (listed(client)["Ed"], listed(client)["Flo"]) == ((1, 1), (1, 0))
    corrected = client.put(f"/api/matches/{duel}/rounds/1", json=out("Flo", Ed=100))
    assert corrected.status_code == 200, corrected.json
    assert (listed(client)["Ed"], listed(client)["Flo"]) == ((1, 0), (1, 1))
    assert kept(db) == recount(db)
    assert client.delete(f"/api/matches/{duel}/rounds/1").status_code == 200
    assert (listed(client)["Ed"], listed(client)["Flo"]) == ((1, 0), (1, 0))
    assert kept(db) == recount(db)
    # A new spelling typed at a table is the name shown from then on.
    finished_duel(client, "ED", "Flo")
    assert listed(client)["ED"] == (2, 1)
    # A rename, a merge into a player never met, a change of case only, and a rename back.
    assert rename(client, "Flo", "Florence").status_code == 200
    assert kept(db) == recount(db)
    assert rename(client, "Di", "Gil").status_code == 200
    assert rename(client, "Ana", "ANA").status_code == 200
    assert kept(db) == recount(db)
    assert rename(client, "Florence", "flo").status_code == 200
    assert "Florence" not in listed(client)
    assert listed(client)["flo"] == (2, 0)
    assert kept(db) == recount(db)


def test_players_table_counts_imported_matches(
    client: FlaskClient, db: Database, another_database: Callable[[], str]
):
    finished_duel(client, "Ana", "Bo")
    exported = client.get("/api/export").json
    there = create_app({"TESTING": True, "DATABASE": another_database()})
    phone = there.test_client()
    assert phone.post("/api/import", json=exported).status_code in (200, 201)
    with there.app_context():
        imported = storage.connect(there.config["DATABASE"])
        assert kept(imported) == recount(imported)
        assert kept(imported)["names"] == {"ana": "Ana", "bo": "Bo"}
        imported.close()


def test_migration_gives_seats_their_side_and_counts_players(tmp_path) -> None:
    path = str(tmp_path / "old.sqlite")
    old = Database(path)
    migrations.apply(old, stop_before="m005_players")
    at = "2024-03-01T10:00:00Z"
    base = {"created_utc": at, "updated_utc": at, "status": "finished", "rounds_played": 1}
    old.table("matches").insert_all(
        [
            base
            | {
                "id": 1,
                "uid": "u1",
                "game": "rami",
                "options_json": '{"target": 100}',
                "players_json": '["Ana", "Bo"]',
                "totals_json": '{"Ana": 0, "Bo": 100}',
                "winner": "Ana",
            },
            base
            | {
                "id": 2,
                "uid": "u2",
                "game": "belote",
                "options_json": '{"variant": "coinche", "target": 1000}',
                "players_json": '["ana", "Bo", "Cy", "Di"]',
                "teams_json": json.dumps({"Nous": ["ana", "Cy"], "Eux": ["Bo", "Di"]}),
                "totals_json": '{"Nous": 1010, "Eux": 400}',
                "winner": "Nous",
                "created_utc": "2024-03-02T10:00:00Z",
            },
        ]
    )
    seats = [(1, 0, "Ana"), (1, 1, "Bo"), (2, 0, "ana"), (2, 1, "Bo"), (2, 2, "Cy"), (2, 3, "Di")]
    old.table("seats").insert_all(
        {"match_id": m, "seat": s, "name": n, "name_key": n.casefold(), "player_key": n.casefold()}
        for m, s, n in seats
    )
    # Di was renamed Dora before the migration: Di's seat now belongs to Dora.
    old.execute("update seats set player_key = 'dora' where player_key = 'di'")
    old.table("renames").insert(
        {"from_key": "di", "to_name": "Dora", "at_utc": "2024-04-01T00:00:00Z"}
    )
    old.conn.commit()
    old.close()
    storage.prepare(path)
    db = Database(path)
    sides = [row["side"] for row in rows(db, "select side from seats order by match_id, seat")]
    assert sides == ["Ana", "Bo", "Nous", "Eux", "Nous", "Eux"]
    assert kept(db) == recount(db)
    assert kept(db)["names"] == {"ana": "ana", "bo": "Bo", "cy": "Cy", "dora": "Dora"}
    assert kept(db)["rivalries"][("ana", "bo")] == (2, 2, 0)
    coinche = '{"target": 1000, "variant": "coinche"}'
    assert kept(db)["records"][("dora", "belote", coinche)] == (1, 1, 0, 400)
    db.close()


def test_player_shows_the_newest_page_of_matches_and_links_them_all(client: FlaskClient) -> None:
    ids = [start(client, "rami", ["Ana", f"P{n}"]) for n in range(21)]
    player = client.get("/api/players/Ana").json
    assert [match["id"] for match in player["matches"]] == ids[::-1][:20]
    assert player["matches_total"] == 21
    assert player["matches_url"] == "http://localhost/api/matches?player=Ana"
    assert client.get(player["matches_url"]).json["total"] == 21
    doc = parse(client.get("/players/Ana"))
    assert len(match_cards(doc)) == 20
    link = doc.find("a", href="/history?player=Ana")
    assert link.text() == "All 21 matches of Ana"


def test_player_page_lists_the_opponents_met_most_then_all(client: FlaskClient) -> None:
    for n in range(12):
        finished_duel(client, "Ana", f"P{n:02}")
    finished_duel(client, "Ana", "P05")
    finished_duel(client, "P07", "Ana")
    doc = parse(client.get("/players/Ana"))
    shown = [row[0] for row in table_rows(doc, "head-to-head")]
    assert len(shown) == 10
    assert {"P05", "P07"} <= set(shown)
    assert shown == sorted(shown)
    more = [p.text() for p in doc.find_all("p", "more") if "opponents" in p.text()]
    assert more == ["All 12 opponents (these are the 10 met most)"]
    link = doc.find("a", href="/players/Ana?opponents=all#head-to-head")
    assert link is not None
    everyone = parse(client.get("/players/Ana?opponents=all"))
    assert [row[0] for row in table_rows(everyone, "head-to-head")] == [
        f"P{n:02}" for n in range(12)
    ]
    assert client.get("/api/players/Ana").json["head_to_head"][5] == {
        "opponent": "P05",
        "matches": 2,
        "wins": 2,
        "losses": 0,
    }
