"""Ratings: Elo worked by hand for two sides, partners and a table of four, derived again when
a finished match is corrected, removed or imported — on the API, the player page and the board."""

from __future__ import annotations

import pytest
from api_helpers import play, refused, rounds_url, start_match
from flask.testing import FlaskClient
from html_reader import parse

from app import create_app
from scorers.ratings import Finished, expected, moves, places, rate

RAMI_TO_10 = {"game": "rami", "options": {"target": 10}}


def won_by(winner: str, loser: str) -> dict:
    """A Rami round that ends a match to 10: the loser holds 12."""
    return {"outcome": "out", "winner": winner, "hands": {loser: {"points": 12, "melded": True}}}


def rami_match(client: FlaskClient, winner: str, loser: str) -> dict:
    match = start_match(client, RAMI_TO_10 | {"players": [winner, loser]})
    return play(client, match["id"], won_by(winner, loser))


def rating_of(client: FlaskClient, name: str, game: str = "rami") -> int:
    found = [r for r in client.get(f"/api/players/{name}").json["ratings"] if r["game"] == game]
    return found[0]["rating"]


def test_two_sides_move_as_elo_says():
    assert expected(1500, 1500) == 0.5
    assert moves({"Ana": 1500, "Bo": 1500}, {"Ana": 1, "Bo": 2}) == {"Ana": 16.0, "Bo": -16.0}
    # Bo, now 32 below, beats Ana: expected 1 / (1 + 10^(32/400)) = 0.454, so he takes 17.47.
    second = moves({"Ana": 1516, "Bo": 1484}, {"Ana": 2, "Bo": 1})
    assert round(second["Bo"], 2) == 17.47 and round(second["Ana"], 2) == -17.47


def test_a_table_of_four_shares_each_pair_of_places():
    moved = moves(dict.fromkeys("ABCD", 1500), {"A": 1, "B": 2, "C": 3, "D": 4})
    # A beats three: 32 × (3 × ½) / 3 = 16; B beats two and loses one: 32 × ½ / 3 = 5.33.
    assert {side: round(value, 2) for side, value in moved.items()} == {
        "A": 16.0,
        "B": 5.33,
        "C": -5.33,
        "D": -16.0,
    }


def test_partners_both_move_by_their_sides_move_and_a_shared_place_is_half():
    history = [
        Finished(
            1, ("belote", "{}"), {"NS": ("ana", "cy"), "EW": ("bo", "di")}, {"NS": 1, "EW": 2}
        ),
        Finished(
            2, ("belote", "{}"), {"NS": ("ana", "bo"), "EW": ("cy", "di")}, {"NS": 1, "EW": 1}
        ),
    ]
    board = rate(history)[("belote", "{}")]
    assert (board["ana"].rating, board["cy"].rating) == (1516, 1516)
    assert (board["bo"].rating, board["di"].rating) == (1484, 1484)
    # Match 2: NS (1516 + 1484) / 2 = 1500 against EW (1516 + 1484) / 2 = 1500, level: no move.
    assert board["ana"].path == [(1, 1516), (2, 1516)]
    assert board["ana"].matches == 2


def test_places_put_the_winner_first_then_the_better_totals():
    assert places({"A": 10, "B": 30, "C": 30}, "A") == {"A": 1, "B": 2, "C": 2}
    assert places({"A": 10, "B": 30}, None) == {"B": 1, "A": 2}


def test_finished_matches_rate_their_players_and_playing_ones_do_not(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    assert (rating_of(client, "Ana"), rating_of(client, "Bo")) == (1516, 1484)
    start_match(client, RAMI_TO_10 | {"players": ["Ana", "Cy"]})
    assert client.get("/api/players/Cy").json["ratings"] == []
    rami_match(client, "Bo", "Ana")
    assert (rating_of(client, "Ana"), rating_of(client, "Bo")) == (1499, 1501)


def test_correcting_or_removing_a_finished_match_rates_as_a_replay_from_scratch(
    client: FlaskClient,
):
    first = rami_match(client, "Ana", "Bo")
    rami_match(client, "Bo", "Ana")
    assert rating_of(client, "Ana") == 1499
    # The first match was in fact won by Bo: Bo has won both, as if played so from the start.
    fixed = client.put(rounds_url(first["id"], 1), json=won_by("Bo", "Ana"))
    assert fixed.status_code == 200, fixed.json
    # Bo 1500 → 1516 (first), then 1516 against 1484: expected 0.546, + 14.53 → 1530.53.
    assert (rating_of(client, "Bo"), rating_of(client, "Ana")) == (1531, 1469)
    # Removing its only round leaves the first match unfinished: it no longer counts.
    assert client.delete(rounds_url(first["id"], 1)).status_code == 200
    assert (rating_of(client, "Bo"), rating_of(client, "Ana")) == (1516, 1484)


def test_variants_are_rated_apart(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    match = start_match(
        client, {"game": "rami", "options": {"target": 20}, "players": ["Ana", "Bo"]}
    )
    play(client, match["id"], won_by("Ana", "Bo"), won_by("Ana", "Bo"))
    ratings = client.get("/api/players/Ana").json["ratings"]
    assert [(r["variant"], r["rating"], r["matches"]) for r in ratings] == [
        ("Rami, to 10", 1516, 1),
        ("Rami, to 20", 1516, 1),
    ]


def test_the_leaderboard_ranks_after_five_matches(client: FlaskClient):
    for _ in range(5):
        rami_match(client, "Ana", "Bo")
    rami_match(client, "Cy", "Ana")
    board = client.get("/api/ratings?game=rami").json
    assert board["ranked_after"] == 5
    [variant] = board["boards"]
    assert [(p["rank"], p["player"]) for p in variant["players"]] == [(1, "Ana"), (2, "Bo")]
    assert variant["unranked"] == 1
    assert variant["players"][0]["rating"] > variant["players"][1]["rating"]
    page = parse(client.get("/ratings?game=rami")).text()
    assert "Ana" in page and "1 more player has not finished 5 matches yet" in page


@pytest.mark.parametrize("asked", ["", "?game=whist"])
def test_the_leaderboard_asks_for_a_game_it_scores(client: FlaskClient, asked: str):
    refused(client.get(f"/api/ratings{asked}"), 422, "game")


def test_the_player_page_shows_each_rating_with_its_path(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    rami_match(client, "Ana", "Bo")
    page = parse(client.get("/players/Ana"))
    table = page.find("table", cls="ratings")
    assert table is not None
    cells = [td.text().strip() for td in table.find("tbody").find_all("td")]
    assert cells[0].startswith("15") and cells[1] == "2"
    spark = table.find("svg")
    assert spark.attrs["aria-label"] == "From 1516 to 1531 over 2 matches"
    assert len(spark.find("polyline").attrs["points"].split()) == 2


def test_a_renamed_player_keeps_their_rating(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    renamed = client.post("/api/players/Ana/rename", json={"to": "Anna"})
    assert renamed.status_code == 200
    assert rating_of(client, "Anna") == 1516


def test_imported_matches_are_rated_as_if_played_here(client: FlaskClient, tmp_path):
    rami_match(client, "Ana", "Bo")
    rami_match(client, "Bo", "Ana")
    history = client.get("/api/export").get_json()
    other = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "t"}
    ).test_client()
    assert other.get("/api/players/Ana").status_code == 404
    assert other.post("/api/import", json=history).status_code == 200
    assert (rating_of(other, "Ana"), rating_of(other, "Bo")) == (1499, 1501)
