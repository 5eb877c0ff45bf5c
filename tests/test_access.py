"""Who may change a match: scorer tokens, handing them on, revoking, the site passcode,
and requests made twice."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.conftest import ScoringPhone
from tests.html_reader import parse

ROUND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}
FORM = {"outcome": "out", "winner": "Ana", "hands-1-points": "12", "hands-1-melded": "y"}


@pytest.fixture
def duel(client: FlaskClient) -> dict[str, Any]:
    """Start a two-player Rami match from the client, which keeps its token."""
    response = client.post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo"]})
    return response.json


def bearer(token: str) -> dict[str, str]:
    """Send a scorer token as the API expects it."""
    return {"Authorization": f"Bearer {token}"}


def test_the_token_is_shown_once_and_never_read_back(client: FlaskClient, duel: dict):
    token = duel["scorer_token"]
    client.post(f"/api/matches/{duel['id']}/rounds", json=ROUND)
    reads = [
        f"/api/matches/{duel['id']}",
        "/api/matches",
        f"/api/matches/{duel['id']}/log",
        f"/api/matches/{duel['id']}/export?format=json",
        "/api/export",
        f"/matches/{duel['id']}",
    ]
    for path in reads:
        assert token not in client.get(path).get_data(as_text=True), path


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/rounds", ROUND),
        ("put", "/rounds/1", ROUND),
        ("delete", "/rounds/1", None),
        ("post", "/handoff", {}),
    ],
)
@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_changes_without_the_token_are_refused_and_change_nothing(
    client: FlaskClient, stranger: FlaskClient, duel: dict, method, path, body, token
):
    client.post(f"/api/matches/{duel['id']}/rounds", json=ROUND)
    before = client.get(f"/api/matches/{duel['id']}/log").json
    headers = bearer(token) if token else {}
    answer = getattr(stranger, method)(
        f"/api/matches/{duel['id']}{path}", json=body, headers=headers
    )
    assert answer.status_code == 403
    assert "scorer token" in answer.json["error"]
    assert client.get(f"/api/matches/{duel['id']}/log").json == before


def test_one_matchs_token_does_not_open_another(client: FlaskClient, duel: dict):
    other = client.post("/api/matches", json={"game": "rami", "players": ["Cy", "Di"]}).json
    answer = client.post(
        f"/api/matches/{other['id']}/rounds",
        json={**ROUND, "winner": "Cy", "hands": {"Di": {"points": 3, "melded": True}}},
        headers=bearer(duel["scorer_token"]),
    )
    assert answer.status_code == 403


def test_a_watching_phone_sees_no_editing_controls_and_cannot_post(
    client: FlaskClient, stranger: FlaskClient, duel: dict
):
    client.post(f"/api/matches/{duel['id']}/rounds", json=ROUND)
    page = stranger.get(f"/matches/{duel['id']}").get_data(as_text=True)
    assert "Correct or remove" not in page and "Record round" not in page
    assert "This phone is only watching" in page
    scoring = client.get(f"/matches/{duel['id']}").get_data(as_text=True)
    assert "Correct or remove round 1" in scoring and "Record round 2" in scoring
    assert stranger.post(f"/matches/{duel['id']}/rounds", data=FORM).status_code == 403
    assert stranger.post(f"/matches/{duel['id']}/rounds/1/remove").status_code == 403
    assert len(client.get(f"/api/matches/{duel['id']}").json["rounds"]) == 1


def test_a_match_started_on_the_page_can_be_scored_from_that_browser(app: Flask):
    phone = app.test_client()
    started = phone.post("/matches/new/rami", data={"players-0": "Ana", "players-1": "Bo"})
    match_path = started.headers["Location"]
    assert phone.post(f"{match_path}/rounds", data=FORM).status_code == 302
    log = phone.get(f"/api{match_path}/log").json["changes"]
    assert [(c["action"], c["device"]) for c in log] == [("add", "the phone that started it")]


def test_handing_the_match_to_another_phone(client: FlaskClient, stranger: FlaskClient, duel: dict):
    offered = client.post(f"/api/matches/{duel['id']}/handoff", json={})
    assert offered.status_code == 201
    code = offered.json["code"]
    assert offered.json["url"].endswith(f"/join/{code}")
    joined = stranger.post("/api/join", json={"code": code.lower(), "device": "Bo's phone"})
    assert joined.status_code == 200
    assert joined.json["match_id"] == duel["id"]
    token = joined.json["scorer_token"]
    recorded = stranger.post(f"/api/matches/{duel['id']}/rounds", json=ROUND, headers=bearer(token))
    assert recorded.status_code == 201
    log = client.get(f"/api/matches/{duel['id']}/log").json["changes"]
    assert log[-1]["device"] == "Bo's phone"
    again = stranger.post("/api/join", json={"code": code, "device": "Cy's phone"})
    assert again.status_code == 422
    assert "already used" in again.json["fields"]["code"][0]


def revoke_buttons(client: FlaskClient, match_id: int) -> list[tuple[str, str]]:
    """Read the handoff page's revoke buttons: (kind, id) for each phone and waiting code."""
    page = parse(client.get(f"/matches/{match_id}/handoff"))
    return [
        (
            form.find("input", name="kind").attrs["value"],
            form.find("input", name="id").attrs["value"],
        )
        for form in page.find_all("form")
        if form.find("input", name="kind")
    ]


def test_revoking_a_code_and_a_phone(app: Flask, client: FlaskClient, duel: dict):
    phone = app.test_client()
    code = client.post(f"/api/matches/{duel['id']}/handoff", json={}).json["code"]
    [(_, starter), (kind, waiting)] = revoke_buttons(client, duel["id"])
    assert kind == "code"
    client.post(f"/matches/{duel['id']}/revoke", data={"kind": "code", "id": waiting})
    assert phone.post("/api/join", json={"code": code}).status_code == 422
    second = client.post(f"/api/matches/{duel['id']}/handoff", json={}).json["code"]
    token = phone.post("/api/join", json={"code": second, "device": "Bo"}).json["scorer_token"]
    url = f"/api/matches/{duel['id']}/rounds"
    assert phone.post(url, json=ROUND, headers=bearer(token)).status_code == 201
    joined = [row for kind, row in revoke_buttons(client, duel["id"]) if kind == "phone"][-1]
    assert joined != starter
    client.post(f"/matches/{duel['id']}/revoke", data={"kind": "phone", "id": joined})
    refused = phone.put(f"{url}/1", json=ROUND, headers=bearer(token))
    assert refused.status_code == 403
    assert client.put(f"{url}/1", json=ROUND).status_code == 200


def test_the_handoff_page_shows_a_qr_code_and_the_join_page_takes_the_code(
    app: Flask, client: FlaskClient, duel: dict
):
    page = client.post(f"/matches/{duel['id']}/handoff").get_data(as_text=True)
    assert "<svg" in page and 'class="segno"' in page
    code = page.split('<strong class="code" translate="no">')[1].split("<")[0]
    other = app.test_client()
    assert code in other.get(f"/join/{code}").get_data(as_text=True)
    joined = other.post("/join", data={"code": code, "device": "Bo's phone"})
    assert joined.status_code == 302
    assert other.post(f"/matches/{duel['id']}/rounds", data=FORM).status_code == 302
    wrong = other.post("/join", data={"code": "NOPE1234", "device": "x"})
    assert wrong.status_code == 422
    assert "already used, revoked, or never given" in wrong.get_data(as_text=True)


def test_the_site_passcode_guards_new_matches(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "locked.sqlite"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "PASSCODE": "belote",
        }
    )
    app.test_client_class = ScoringPhone
    client = app.test_client()
    match = {"game": "rami", "players": ["Ana", "Bo"]}
    refused = client.post("/api/matches", json=match)
    assert refused.status_code == 403
    assert "passcode" in refused.json["error"]
    wrong = client.post("/api/matches", json=match, headers={"X-Tablescore-Passcode": "rami"})
    assert wrong.status_code == 403
    right = client.post("/api/matches", json=match, headers={"X-Tablescore-Passcode": "belote"})
    assert right.status_code == 201
    form = {"players-0": "Ana", "players-1": "Bo"}
    page = client.post("/matches/new/rami", data=form)
    assert page.status_code == 403
    assert 'name="passcode"' in page.get_data(as_text=True)
    assert client.post("/matches/new/rami", data=form | {"passcode": "belote"}).status_code == 302
    assert client.get("/api/matches").json["total"] == 2


def test_a_retried_request_records_one_round(client: FlaskClient, duel: dict):
    url = f"/api/matches/{duel['id']}/rounds"
    first = client.post(url, json=ROUND, headers={"Idempotency-Key": "tap-1"})
    again = client.post(url, json=ROUND, headers={"Idempotency-Key": "tap-1"})
    assert first.status_code == again.status_code == 201
    assert again.json["round"] == first.json["round"]
    assert len(again.json["match"]["rounds"]) == 1
    other = client.post(url, json=ROUND, headers={"Idempotency-Key": "tap-2"})
    assert other.json["round"]["n"] == 2


def test_a_double_tapped_form_records_one_round(client: FlaskClient, duel: dict):
    page = parse(client.get(f"/matches/{duel['id']}"))
    key = page.find("input", name="idempotency_key").attrs["value"]
    for _ in range(2):
        answer = client.post(f"/matches/{duel['id']}/rounds", data=FORM | {"idempotency_key": key})
        assert answer.status_code == 302
        round_id = client.get(f"/api/matches/{duel['id']}").json["rounds"][0]["id"]
        assert answer.headers["Location"] == f"/matches/{duel['id']}?recorded={round_id}"
    assert len(client.get(f"/api/matches/{duel['id']}").json["rounds"]) == 1
    fresh = parse(client.get(f"/matches/{duel['id']}"))
    assert fresh.find("input", name="idempotency_key").attrs["value"] != key


def test_the_log_names_the_phone_that_started_the_match(client: FlaskClient, duel: dict):
    client.post(f"/api/matches/{duel['id']}/rounds", json=ROUND)
    entry = client.get(f"/api/matches/{duel['id']}/log").json["changes"][0]
    assert entry["device"] == "the phone that started it"
