"""Changing a round safely (API.md, December 2026): ids and versions, If-Match, idempotency
keys that refuse another request, restoring removed rounds, and playing a match again."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import api_match, refused, rounds_url, send, unchanged
from flask.testing import FlaskClient

BO_OUT = {"outcome": "out", "winner": "Bo", "hands": {"Ana": {"points": 10, "melded": True}}}
ANA_OUT = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 30, "melded": True}}}
BO_HOLDS = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 40, "melded": True}}}


def rami(client: FlaskClient, *rounds: dict[str, Any], target: int = 500) -> dict[str, Any]:
    """Start a two-player Rami and record these rounds; return the match."""
    body = {"game": "rami", "players": ["Ana", "Bo"], "options": {"target": target}}
    match = send(client, "POST", "/api/matches", body).json
    for entered in rounds:
        assert send(client, "POST", rounds_url(match["id"]), entered).status_code == 201
    return api_match(client, match["id"])


def test_rounds_carry_a_stable_id_and_a_version_that_grows_with_corrections(client):
    match = rami(client, BO_OUT, ANA_OUT)
    first, second = match["rounds"]
    assert (first["version"], second["version"]) == (1, 1)
    assert first["id"] != second["id"]
    assert match["version"] == 2
    corrected = send(client, "PUT", rounds_url(match["id"], 2), BO_HOLDS).json
    assert corrected["round"]["id"] == second["id"]
    assert corrected["round"]["version"] == 2
    assert corrected["match"]["version"] == 3
    # Removing round 1 moves round 2 to place 1; its id stays.
    after = client.delete(rounds_url(match["id"], 1)).json["match"]
    assert [(r["n"], r["id"]) for r in after["rounds"]] == [(1, second["id"])]
    assert after["version"] == 4


def test_if_match_changes_the_round_the_phone_saw(client):
    match = rami(client, BO_OUT, ANA_OUT)
    second = match["rounds"][1]
    seen = {"If-Match": f"{second['id']}:1"}
    answer = client.put(rounds_url(match["id"], 2), json=BO_HOLDS, headers=seen)
    assert answer.status_code == 200
    assert answer.json["round"]["totals"] == {"Ana": 10, "Bo": 40}


def test_a_correction_of_a_version_already_corrected_is_refused_412(client):
    match = rami(client, BO_OUT, ANA_OUT)
    second = match["rounds"][1]
    assert client.put(rounds_url(match["id"], 2), json=BO_HOLDS).status_code == 200
    with unchanged(client, match["id"]):
        stale = client.put(
            rounds_url(match["id"], 2), json=BO_OUT, headers={"If-Match": f"{second['id']}:1"}
        )
        body = refused(stale, 412)
    assert "changed since this phone read it" in body["error"]
    assert "Reload" in body["error"]


def test_a_removal_of_a_round_that_moved_is_refused_412(client):
    match = rami(client, BO_OUT, ANA_OUT, BO_OUT)
    first, second, _third = match["rounds"]
    assert client.delete(rounds_url(match["id"], 1)).status_code == 200
    # The phone still sees the old round 2, which now stands at place 1.
    with unchanged(client, match["id"]):
        refused(
            client.delete(rounds_url(match["id"], 2), headers={"If-Match": f"{second['id']}:1"}),
            412,
        )
    gone = client.delete(rounds_url(match["id"], 1), headers={"If-Match": f"{second['id']}:1"})
    assert gone.status_code == 200
    assert [r["totals"] for r in gone.json["match"]["rounds"]] == [{"Ana": 10, "Bo": 0}]
    assert first["id"] in [r["id"] for r in gone.json["match"]["removed"]]


def test_a_malformed_if_match_is_refused_400_and_changes_nothing(client):
    match = rami(client, BO_OUT)
    with unchanged(client, match["id"]):
        body = refused(client.delete(rounds_url(match["id"], 1), headers={"If-Match": "one"}), 400)
    assert "<round id>:<version>" in body["error"]


def test_a_key_sent_again_with_another_round_is_refused_409(client):
    match = rami(client)
    url = rounds_url(match["id"])
    first = client.post(url, json=BO_OUT, headers={"Idempotency-Key": "tap-1"})
    assert first.status_code == 201
    with unchanged(client, match["id"]):
        body = refused(client.post(url, json=ANA_OUT, headers={"Idempotency-Key": "tap-1"}), 409)
    assert "new key" in body["error"]
    again = client.post(url, json=BO_OUT, headers={"Idempotency-Key": "tap-1"})
    assert again.status_code == 201
    assert again.json["round"]["id"] == first.json["round"]["id"]
    assert len(api_match(client, match["id"])["rounds"]) == 1


def test_a_key_is_refused_on_another_path(client):
    match = rami(client, BO_OUT)
    key = {"Idempotency-Key": "k"}
    assert client.put(rounds_url(match["id"], 1), json=ANA_OUT, headers=key).status_code == 200
    with unchanged(client, match["id"]):
        refused(client.delete(rounds_url(match["id"], 1), headers=key), 409)


def test_a_retried_delete_removes_one_round_not_two(client):
    match = rami(client, BO_OUT, ANA_OUT, BO_HOLDS)
    key = {"Idempotency-Key": "remove-once"}
    first = client.delete(rounds_url(match["id"], 1), headers=key)
    again = client.delete(rounds_url(match["id"], 1), headers=key)
    assert first.status_code == again.status_code == 200
    left = api_match(client, match["id"])
    assert [r["input"]["winner"] for r in left["rounds"]] == ["Ana", "Ana"]
    assert len(left["removed"]) == 1


def test_a_retried_correction_changes_the_round_once(client):
    match = rami(client, BO_OUT)
    key = {"Idempotency-Key": "fix"}
    client.put(rounds_url(match["id"], 1), json=ANA_OUT, headers=key)
    again = client.put(rounds_url(match["id"], 1), json=ANA_OUT, headers=key)
    assert again.status_code == 200
    assert again.json["round"]["version"] == 2
    assert len(client.get(f"/api/matches/{match['id']}/log").json["changes"]) == 2


def test_a_key_retried_after_its_round_was_removed_says_so(client):
    match = rami(client)
    url = rounds_url(match["id"])
    client.post(url, json=BO_OUT, headers={"Idempotency-Key": "gone"})
    client.delete(rounds_url(match["id"], 1))
    with unchanged(client, match["id"]):
        body = refused(client.post(url, json=BO_OUT, headers={"Idempotency-Key": "gone"}), 409)
    assert "removed since" in body["error"]


def test_an_over_long_key_is_refused(client):
    match = rami(client)
    with unchanged(client, match["id"]):
        refused(
            client.post(
                rounds_url(match["id"]), json=BO_OUT, headers={"Idempotency-Key": "k" * 101}
            ),
            400,
        )


def test_a_removed_round_is_listed_and_restored_where_it_stood(client):
    match = rami(client, BO_OUT, ANA_OUT, BO_HOLDS)
    second = match["rounds"][1]
    removed = client.delete(rounds_url(match["id"], 2)).json["match"]
    assert removed["totals"] == {"Ana": 10, "Bo": 40}
    assert [(r["id"], r["input"]) for r in removed["removed"]] == [(second["id"], ANA_OUT)]
    assert removed["removed"][0]["removed_at"].endswith("Z")
    restored = client.post(f"/api/matches/{match['id']}/removed/{second['id']}/restore")
    assert restored.status_code == 200
    assert restored.json["round"]["n"] == 2
    assert restored.json["round"]["id"] == second["id"]
    # Ana 10 (round 1), then Bo 30 and 40: as before the removal.
    assert restored.json["match"]["totals"] == {"Ana": 10, "Bo": 70}
    assert restored.json["match"]["removed"] == []
    actions = [c["action"] for c in client.get(f"/api/matches/{match['id']}/log").json["changes"]]
    assert actions == ["add", "add", "add", "remove", "restore"]


def test_restoring_a_round_that_is_not_removed_is_404_and_changes_nothing(client):
    match = rami(client, BO_OUT)
    live = match["rounds"][0]["id"]
    with unchanged(client, match["id"]):
        refused(client.post(f"/api/matches/{match['id']}/removed/{live}/restore"), 404)
        refused(client.post(f"/api/matches/{match['id']}/removed/99999/restore"), 404)


def bo_holds(points: int) -> dict[str, Any]:
    """A Rami round Ana won, Bo holding cards worth `points`."""
    return {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": points, "melded": True}}}


def test_restoring_a_round_that_no_longer_fits_is_409(client):
    # Bo reaches 100 in round 3 without round 1; with it back he would reach it in round 2.
    match = rami(client, bo_holds(60), bo_holds(50), target=100)
    first = match["rounds"][0]["id"]
    client.delete(rounds_url(match["id"], 1))
    send(client, "POST", rounds_url(match["id"]), bo_holds(50))
    assert api_match(client, match["id"])["status"] == "finished"
    with unchanged(client, match["id"]):
        body = refused(client.post(f"/api/matches/{match['id']}/removed/{first}/restore"), 409)
    assert "would end after round 2" in body["error"]


def test_restoring_needs_the_scorer_token(client, stranger):
    match = rami(client, BO_OUT)
    round_id = match["rounds"][0]["id"]
    client.delete(rounds_url(match["id"], 1))
    with unchanged(client, match["id"]):
        refused(stranger.post(f"/api/matches/{match['id']}/removed/{round_id}/restore"), 403)


def test_a_double_tap_on_start_starts_one_match(client):
    body = {"game": "rami", "players": ["Ana", "Bo"]}
    key = {"Idempotency-Key": "start-1"}
    first = client.post("/api/matches", json=body, headers=key)
    again = client.post("/api/matches", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert first.json["id"] == again.json["id"]
    assert client.get("/api/matches").json["total"] == 1
    # The retry hands this phone a token of its own: it can score the match it started.
    ok = client.post(
        rounds_url(first.json["id"]),
        json=BO_OUT,
        headers={"Authorization": f"Bearer {again.json['scorer_token']}"},
    )
    assert ok.status_code == 201


def test_a_start_key_sent_with_another_match_is_refused(client):
    key = {"Idempotency-Key": "start-2"}
    client.post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo"]}, headers=key)
    other = client.post("/api/matches", json={"game": "rami", "players": ["Cy", "Di"]}, headers=key)
    refused(other, 409)
    assert client.get("/api/matches").json["total"] == 1


def finished_rami(client: FlaskClient) -> dict[str, Any]:
    """A two-player Rami to 100 that Bo has won."""
    return rami(
        client,
        {"outcome": "out", "winner": "Bo", "hands": {"Ana": {"points": 100, "melded": True}}},
        target=100,
    )


def test_rematch_starts_the_same_game_with_the_same_table_and_options(client):
    old = finished_rami(client)
    answer = client.post(f"/api/matches/{old['id']}/rematch")
    assert answer.status_code == 201
    new = answer.json
    assert new["rematch_of"] == old["id"]
    assert new["players"] == ["Ana", "Bo"]
    assert new["options"]["target"] == 100
    assert new["rounds"] == [] and new["status"] == "playing"
    assert new["scorer_token"]
    assert api_match(client, old["id"])["rematched_by"] == new["id"]
    # This phone may score the rematch.
    assert client.post(rounds_url(new["id"]), json=BO_OUT).status_code == 201


def test_rematch_rotated_moves_everyone_one_seat(client):
    old = send(
        client,
        "POST",
        "/api/matches",
        {"game": "rami", "players": ["Ana", "Bo", "Cy"], "options": {"target": 100}},
    ).json
    send(
        client,
        "POST",
        rounds_url(old["id"]),
        {
            "outcome": "out",
            "winner": "Bo",
            "hands": {"Ana": {"points": 100, "melded": True}, "Cy": {"points": 5, "melded": True}},
        },
    )
    new = send(client, "POST", f"/api/matches/{old['id']}/rematch", {"seating": "rotate"}).json
    assert new["players"] == ["Bo", "Cy", "Ana"]


def test_rematch_of_a_team_game_keeps_partners_together(client):
    teams = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
    old = send(
        client,
        "POST",
        "/api/matches",
        {"game": "belote", "teams": teams, "options": {"target": 100}},
    ).json
    deal = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 100}, "last_trick": "Nous"}
    assert send(client, "POST", rounds_url(old["id"]), deal).status_code == 201
    assert api_match(client, old["id"])["status"] == "finished"
    new = send(client, "POST", f"/api/matches/{old['id']}/rematch", {"seating": "rotate"}).json
    assert new["players"] == ["Bo", "Cy", "Di", "Ana"]
    assert new["teams"] == {"Eux": ["Bo", "Di"], "Nous": ["Cy", "Ana"]}


def test_rematch_asked_twice_answers_the_same_rematch(client):
    old = finished_rami(client)
    first = client.post(f"/api/matches/{old['id']}/rematch").json
    again = client.post(f"/api/matches/{old['id']}/rematch")
    assert again.status_code == 201
    assert again.json["id"] == first["id"]
    assert client.get("/api/matches").json["total"] == 2


def test_rematch_refusals_change_nothing(client, stranger):
    playing = rami(client, BO_OUT)
    with unchanged(client, playing["id"]):
        refused(client.post(f"/api/matches/{playing['id']}/rematch"), 409)
    old = finished_rami(client)
    refused(stranger.post(f"/api/matches/{old['id']}/rematch"), 403)
    refused(send(client, "POST", f"/api/matches/{old['id']}/rematch", {"seating": "left"}), 422)
    assert client.get("/api/matches").json["total"] == 2


DEALS = [
    pytest.param(
        {"game": "rami", "players": ["Ana", "Bo", "Cy"], "options": {"first_dealer": "Bo"}},
        {
            "outcome": "out",
            "winner": "Ana",
            "hands": {"Bo": {"points": 5, "melded": True}, "Cy": {"points": 7, "melded": True}},
        },
        ("Bo", "Cy"),
        id="rami: to the left",
    ),
    pytest.param(
        {"game": "belote", "teams": {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}},
        {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"},
        ("Ana", "Di"),
        id="belote: to the right",
    ),
    pytest.param(
        {"game": "gaigel", "teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}},
        {"winner": "Oben", "outcome": "aus"},
        ("Ana", "Bo"),
        id="gaigel: to the left",
    ),
    pytest.param(
        {
            "game": "barbu",
            "players": ["Ana", "Bo", "Cy", "Di"],
            "options": {"first_declarer": "Cy"},
        },
        {"contract": "no_tricks", "taken": {"Ana": 4, "Bo": 3, "Cy": 3, "Di": 3}},
        ("Cy", "Cy"),
        id="barbu: the declarer, seven hands",
    ),
    pytest.param(
        {"game": "porrazo", "players": ["Ana", "Bo", "Cy"]},
        {"event": "cards", "counts": {"Ana": 20, "Bo": 20, "Cy": 12}},
        ("Ana", "Bo"),
        id="porrazo: the card count passes the deal",
    ),
]


@pytest.mark.parametrize(("body", "entered", "dealers"), DEALS)
def test_every_game_says_who_deals_next_and_who_dealt_each_round(client, body, entered, dealers):
    first, then = dealers
    match = send(client, "POST", "/api/matches", body).json
    assert match["state"]["dealer"] == first
    answer = send(client, "POST", rounds_url(match["id"]), entered).json
    assert answer["round"]["dealer"] == first
    assert answer["match"]["state"]["dealer"] == then


def test_an_unknown_first_dealer_is_refused(client):
    body = {"game": "rami", "players": ["Ana", "Bo"], "options": {"first_dealer": "Zed"}}
    refused(send(client, "POST", "/api/matches", body), 422, "options.first_dealer", "Zed")
    assert client.get("/api/matches").json["total"] == 0
