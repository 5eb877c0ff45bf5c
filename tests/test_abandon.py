"""Abandoning a match and deleting an empty one: kept in the history, out of every statistic
and rating, taken back as it was; deleted only while nothing was ever entered in it."""

from __future__ import annotations

from typing import Any

from api_helpers import (
    api_match,
    draw_round,
    play,
    refused,
    rounds_url,
    send,
    start_event,
    start_match,
    unchained,
    unchanged,
)
from flask.testing import FlaskClient
from html_reader import parse

RAMI_TO_10 = {"game": "rami", "options": {"target": 10}, "players": ["Ana", "Bo"]}


def won_by(winner: str, loser: str) -> dict[str, Any]:
    """A Rami round that ends a match to 10: the loser holds 12."""
    return {"outcome": "out", "winner": winner, "hands": {loser: {"points": 12, "melded": True}}}


def finished(client: FlaskClient, winner: str = "Ana", loser: str = "Bo") -> dict[str, Any]:
    """A Rami match to 10, won by `winner`."""
    match = start_match(client, RAMI_TO_10 | {"players": [winner, loser]})
    return play(client, match["id"], won_by(winner, loser))


def standing(client: FlaskClient, name: str) -> tuple[Any, ...]:
    """What a player's page counts: matches and wins per variant, and ratings."""
    player = client.get(f"/api/players/{name}").json
    games = sorted((g["variant"], g["matches"], g["wins"]) for g in player["games"])
    ratings = [(r["variant"], r["rating"], r["matches"]) for r in player["ratings"]]
    return games, ratings, player["head_to_head"]


def test_an_abandoned_match_counts_for_nobody_until_it_is_taken_back(client: FlaskClient):
    finished(client)
    before = standing(client, "Ana")
    match = finished(client)
    counted = standing(client, "Ana")
    assert counted[0] == [("Rami, to 10", 2, 2)] and counted[1][0][2] == 2
    abandoned = client.post(f"/api/matches/{match['id']}/abandon")
    assert abandoned.status_code == 200, abandoned.json
    assert abandoned.json["abandoned_at"].endswith("Z")
    assert abandoned.json["totals"] == match["totals"] and len(abandoned.json["rounds"]) == 1
    assert standing(client, "Ana") == before
    # Asked again (a second tap), nothing more changes: the log has one entry for it.
    again = client.post(f"/api/matches/{match['id']}/abandon").json
    assert again["version"] == abandoned.json["version"]
    log = client.get(f"/api/matches/{match['id']}/log").json["changes"]
    assert [c["action"] for c in log] == ["add", "abandon"] and log[1]["n"] == 0
    back = client.post(f"/api/matches/{match['id']}/resume")
    assert back.status_code == 200 and back.json["abandoned_at"] is None
    assert standing(client, "Ana") == counted
    log = client.get(f"/api/matches/{match['id']}/log").json["changes"]
    assert [c["action"] for c in log] == ["add", "abandon", "resume"]


def test_the_history_lists_abandoned_matches_apart(client: FlaskClient):
    kept = finished(client)
    gone = start_match(client, RAMI_TO_10)
    play(
        client,
        gone["id"],
        {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 3, "melded": True}}},
    )
    client.post(f"/api/matches/{gone['id']}/abandon")
    listed = {m["id"]: m["abandoned_at"] for m in client.get("/api/matches").json["matches"]}
    assert listed[kept["id"]] is None and listed[gone["id"]].endswith("Z")

    def ids(status: str) -> list[int]:
        return [m["id"] for m in client.get(f"/api/matches?status={status}").json["matches"]]

    assert ids("abandoned") == [gone["id"]]
    assert ids("playing") == [] and ids("finished") == [kept["id"]]
    refused(client.get("/api/matches?status=gone"), 422, "status", "abandoned")
    page = parse(client.get("/history"))
    cards = [card.text() for card in page.find_all("li", "match-card")]
    assert "Abandoned · 1 round" in cards[0] and "Won by Ana" in cards[1]
    filtered = parse(client.get("/history?status=abandoned"))
    assert len(filtered.find_all("li", "match-card")) == 1


def test_an_abandoned_match_takes_no_change_until_taken_back(client: FlaskClient):
    match = start_match(client, RAMI_TO_10)
    play(
        client,
        match["id"],
        {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 3, "melded": True}}},
    )
    client.post(f"/api/matches/{match['id']}/abandon")
    with unchanged(client, match["id"]):
        refused(send(client, "POST", rounds_url(match["id"]), won_by("Ana", "Bo")), 409)
        words = refused(client.delete(rounds_url(match["id"], 1)), 409)["error"]
        assert "abandoned" in words and "take it back" in words
        refused(send(client, "PATCH", f"/api/matches/{match['id']}", {"place": "Bar"}), 409)
    client.post(f"/api/matches/{match['id']}/resume")
    after = play(client, match["id"], won_by("Ana", "Bo"))
    assert after["status"] == "finished" and after["totals"] == {"Ana": 0, "Bo": 15}


def test_only_a_scoring_phone_abandons_takes_back_or_deletes(
    client: FlaskClient, stranger: FlaskClient
):
    match = start_match(client, RAMI_TO_10)
    with unchanged(client, match["id"]):
        refused(stranger.post(f"/api/matches/{match['id']}/abandon"), 403)
        refused(stranger.delete(f"/api/matches/{match['id']}"), 403)
    client.post(f"/api/matches/{match['id']}/abandon")
    with unchanged(client, match["id"]):
        refused(stranger.post(f"/api/matches/{match['id']}/resume"), 403)
    refused(client.post("/api/matches/999/abandon"), 404)
    refused(client.delete("/api/matches/999"), 404)


def test_an_empty_match_is_deleted_and_leaves_no_trace(client: FlaskClient):
    kept = finished(client, "Cy", "Di")
    match = start_match(client, RAMI_TO_10 | {"players": ["Ana", "Zed"]})
    names = [p["name"] for p in client.get("/api/players").json["players"]]
    assert "Zed" in names
    response = client.delete(f"/api/matches/{match['id']}")
    assert response.status_code == 204 and response.get_data() == b""
    refused(client.get(f"/api/matches/{match['id']}"), 404)
    assert [m["id"] for m in client.get("/api/matches").json["matches"]] == [kept["id"]]
    names = [p["name"] for p in client.get("/api/players").json["players"]]
    assert sorted(names) == ["Cy", "Di"]
    refused(client.delete(f"/api/matches/{match['id']}"), 404)
    # A match started next may take the same id: it is itself, never the one deleted.
    client.get(f"/api/matches/{kept['id']}")
    later = start_match(client, RAMI_TO_10 | {"players": ["Eve", "Flo"]})
    assert api_match(client, later["id"])["players"] == ["Eve", "Flo"]
    assert "Eve" in parse(client.get(f"/matches/{later['id']}")).text()


def test_a_match_holding_anything_is_never_deleted(client: FlaskClient):
    match = finished(client)
    with unchanged(client, match["id"]):
        words = refused(client.delete(f"/api/matches/{match['id']}"), 409)["error"]
    assert "abandon it instead" in words
    noted = start_match(client, RAMI_TO_10)
    send(client, "PATCH", f"/api/matches/{noted['id']}", {"note": "a try"})
    refused(client.delete(f"/api/matches/{noted['id']}"), 409)
    # Removing every round leaves the log: the match can be abandoned, not deleted.
    emptied = start_match(client, RAMI_TO_10)
    play(
        client,
        emptied["id"],
        {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 3, "melded": True}}},
    )
    client.delete(rounds_url(emptied["id"], 1))
    refused(client.delete(f"/api/matches/{emptied['id']}"), 409)


def test_an_events_match_is_neither_abandoned_nor_deleted(client: FlaskClient):
    event, organiser = start_event(client)
    table = draw_round(client, event["id"], organiser, seed=7)["tables"][0]
    with unchanged(client, table["match"]):
        refused(client.post(f"/api/matches/{table['match']}/abandon", headers=organiser), 409)
        refused(client.delete(f"/api/matches/{table['match']}", headers=organiser), 409)
    assert api_match(client, table["match"])["abandoned_at"] is None


def test_an_abandoned_match_moves_with_its_history(client: FlaskClient, app: Any, tmp_path: Any):
    from app import create_app

    match = finished(client)
    client.post(f"/api/matches/{match['id']}/abandon")
    document = client.get(f"/api/matches/{match['id']}/export?format=json").json
    assert document["abandoned_at"] == document["log"][-1]["at"]
    there = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "there.sqlite"), "SECRET_KEY": "t"}
    ).test_client()
    assert send(there, "POST", "/api/import", [document]).status_code == 200
    [copied] = there.get("/api/matches").json["matches"]
    assert copied["abandoned_at"] == document["abandoned_at"]
    assert there.get("/api/players/Ana").json["games"] == []
    assert there.get(f"/api/matches/{copied['id']}/export?format=json").json == document
    # A log that changes a round while the match was abandoned was never Tablescore's.
    plain = unchained(document)
    forged = plain | {"log": [*plain["log"], plain["log"][0]], "abandoned_at": None}
    response = send(there, "POST", "/api/import", [forged | {"uid": "forged"}])
    assert response.status_code == 422 and "abandoned" in response.json["error"]
    said = document | {"uid": "other", "abandoned_at": None}
    response = send(there, "POST", "/api/import", [said])
    assert response.status_code == 422 and "abandoned_at" in str(response.json["fields"])


def test_the_match_page_abandons_takes_back_and_deletes(client: FlaskClient):
    match = finished(client)
    page = parse(client.get(f"/matches/{match['id']}"))
    [aside] = page.find_all("details", "set-aside")
    assert "Abandon this match" in aside.text()
    response = client.post(f"/matches/{match['id']}/abandon")
    assert response.status_code == 302
    page = parse(client.get(f"/matches/{match['id']}"))
    banner = page.find("form", "banner")
    assert "counts in no statistic or rating" in banner.text()
    assert "Take it back" in banner.text()
    bar = page.find("section", "score-bar")
    assert "Match abandoned" in bar.text() and "to go" not in bar.text()
    assert page.find_all("details", "set-aside") == [] and page.find("form", "play-again") is None
    client.post(f"/matches/{match['id']}/resume")
    assert api_match(client, match["id"])["abandoned_at"] is None
    empty = start_match(client, RAMI_TO_10)
    page = parse(client.get(f"/matches/{empty['id']}"))
    assert "Delete this match" in page.find("details", "set-aside").text()
    response = client.post(f"/matches/{empty['id']}/delete")
    assert response.status_code == 302 and response.headers["Location"].endswith("/history")
    assert client.get(f"/matches/{empty['id']}").status_code == 404
    # A watching phone is offered neither.
    assert client.post(f"/matches/{match['id']}/delete").status_code == 302
    assert api_match(client, match["id"])["rounds"]
