"""Safe on a shared network (issue 16, Access): the passcode guards every door that writes
outside a match's own token, a joined phone cannot take the match from the phone that started
it, join codes cannot be guessed, and the session cookie never outgrows the browser."""

from __future__ import annotations

import io
import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from scorebook import access, storage
from scorebook.storage.database import rows
from tests.conftest import ScoringPhone
from tests.html_reader import alerts, parse
from web.passcode import check_passcode

PASSCODE = "belote"
HEADER = "X-Tablescore-Passcode"
DUEL = {"game": "rami", "players": ["Ana", "Bo"]}
ROUND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}


def locked_app(tmp_path, passcode: Any = PASSCODE, name: str = "locked") -> Flask:
    """Build an app over its own database whose passcode is `passcode` (None: none)."""
    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / f"{name}.sqlite"),
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
    }
    if passcode is not None:
        config["PASSCODE"] = passcode
    app = create_app(config)
    app.test_client_class = ScoringPhone
    return app


def read(app: Flask, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
    """Read rows of the app's database, to look at what a request changed."""
    with storage.opened(app.config["DATABASE"]) as db:
        return rows(db, sql, params or [])


def everything(app: Flask) -> dict[str, list[dict[str, Any]]]:
    """Read every row of the tables a refused request might touch."""
    tables = ["matches", "rounds", "scorers", "handoffs", "players", "seats"]
    return {name: read(app, f"select * from {name} order by 1, 2") for name in tables}


# --- 1. The passcode guards every door that writes outside a match's own token ---------------


@pytest.fixture
def locked(tmp_path) -> Flask:
    """Return an app with a passcode and one Rami match between Ana and Bo."""
    app = locked_app(tmp_path)
    started = app.test_client().post("/api/matches", json=DUEL, headers={HEADER: PASSCODE})
    assert started.status_code == 201
    return app


def exported_match(tmp_path) -> list[dict[str, Any]]:
    """Export a Rami match from another, open Tablescore, as /api/import takes it."""
    there = locked_app(tmp_path, passcode=None, name="elsewhere").test_client()
    match = there.post("/api/matches", json={"game": "rami", "players": ["Cy", "Di"]}).json
    played = {"outcome": "out", "winner": "Cy", "hands": {"Di": {"points": 4, "melded": True}}}
    assert there.post(f"/api/matches/{match['id']}/rounds", json=played).status_code == 201
    return there.get("/api/export").json


@pytest.mark.parametrize("given", [None, "rami", "Belote", "belote "])
def test_api_import_without_the_passcode_is_403_and_imports_nothing(
    locked: Flask, tmp_path, given: str | None
):
    documents = exported_match(tmp_path)
    client = locked.test_client()
    before = everything(locked)
    headers = {HEADER: given} if given is not None else {}
    refused = client.post("/api/import", json=documents, headers=headers)
    assert refused.status_code == 403
    assert "passcode" in refused.json["error"] and HEADER in refused.json["error"]
    assert refused.json["fields"] == {}
    assert everything(locked) == before
    right = client.post("/api/import", json=documents, headers={HEADER: PASSCODE})
    assert right.status_code == 200
    assert len(right.json["imported"]) == 1
    assert client.get("/api/matches").json["total"] == 2


def test_the_import_page_asks_for_the_passcode_and_imports_nothing_without_it(
    locked: Flask, tmp_path
):
    document = json.dumps(exported_match(tmp_path)).encode()
    client = locked.test_client()
    form = parse(client.get("/import"))
    assert form.find("input", name="passcode").attrs["type"] == "password"
    before = everything(locked)
    for given in ({}, {"passcode": "rami"}):
        upload = {"document": (io.BytesIO(document), "history.json"), **given}
        refused = client.post("/import", data=upload, content_type="multipart/form-data")
        assert refused.status_code == 403
        page = parse(refused)
        assert any("passcode box" in alert for alert in alerts(page))
        assert page.find("input", name="passcode") is not None
        assert everything(locked) == before
    upload = {"document": (io.BytesIO(document), "history.json"), "passcode": PASSCODE}
    right = client.post("/import", data=upload, content_type="multipart/form-data")
    assert right.status_code == 302
    assert client.get("/api/matches").json["total"] == 2


@pytest.mark.parametrize("given", [None, "rami", "BELOTE"])
def test_api_rename_without_the_passcode_is_403_and_renames_nothing(
    locked: Flask, given: str | None
):
    client = locked.test_client()
    before = everything(locked)
    headers = {HEADER: given} if given is not None else {}
    for to in ("Anna", "Bo"):  # a rename, and one into a name already taken
        refused = client.post("/api/players/Ana/rename", json={"to": to}, headers=headers)
        assert refused.status_code == 403
        assert "rename or merge players" in refused.json["error"]
        assert HEADER in refused.json["error"]
    assert everything(locked) == before
    assert client.get("/api/players/Anna").status_code == 404
    right = client.post("/api/players/Ana/rename", json={"to": "Anna"}, headers={HEADER: PASSCODE})
    assert right.status_code == 200
    assert right.json["name"] == "Anna"


def test_the_rename_form_asks_for_the_passcode_and_keeps_what_was_typed(locked: Flask):
    client = locked.test_client()
    page = parse(client.get("/players/Ana"))
    assert page.find("input", name="passcode").attrs["type"] == "password"
    before = everything(locked)
    refused = client.post("/players/Ana/rename", data={"to": "Anna", "passcode": "rami"})
    assert refused.status_code == 403
    shown = parse(refused)
    assert any("rename or merge players" in alert for alert in alerts(shown))
    assert shown.find("input", name="to").attrs["value"] == "Anna"
    assert everything(locked) == before
    right = client.post("/players/Ana/rename", data={"to": "Anna", "passcode": PASSCODE})
    assert right.status_code == 302
    assert client.get("/api/players/Anna").status_code == 200


def test_without_a_passcode_every_door_stays_open(tmp_path):
    app = locked_app(tmp_path, passcode=None)
    client = app.test_client()
    assert client.post("/api/matches", json=DUEL).status_code == 201
    assert "passcode" not in client.get("/players/Ana").get_data(as_text=True)
    assert "passcode" not in client.get("/import").get_data(as_text=True)
    assert client.post("/api/players/Ana/rename", json={"to": "Anna"}).status_code == 200
    assert client.post("/players/Anna/rename", data={"to": "Ann"}).status_code == 302
    assert client.post("/api/import", json=[]).status_code == 200


def test_openapi_documents_the_passcode_on_import_and_rename(client: FlaskClient):
    paths = client.get("/api/openapi.json").json["paths"]
    for path in ("/api/import", "/api/players/{name}/rename"):
        operation = paths[path]["post"]
        headers = [p["name"] for p in operation["parameters"] if p["in"] == "header"]
        assert HEADER in headers, path
        assert "403" in operation["responses"], path


# --- 2. Passcode handling: text as typed, compared as UTF-8 bytes -----------------------------


@pytest.mark.parametrize("passcode", ["café", "0", "false", "null", "1e3"])
def test_a_passcode_from_the_environment_is_text_as_typed(tmp_path, monkeypatch, passcode: str):
    monkeypatch.setenv("TABLESCORE_PASSCODE", passcode)
    app = locked_app(tmp_path, passcode=None)
    assert app.config["PASSCODE"] == passcode
    client = app.test_client()
    for wrong in (None, "", "1000.0", "1000", "False", "None", "cafe", "café\u0301", "🂡"):
        headers = {HEADER: wrong} if wrong is not None else {}
        assert client.post("/api/matches", json=DUEL, headers=headers).status_code == 403, wrong
    assert client.get("/api/matches").json["total"] == 0
    assert client.post("/api/matches", json=DUEL, headers={HEADER: passcode}).status_code == 201
    page = client.post(
        "/matches/new/rami", data={"players-0": "Cy", "players-1": "Di", "passcode": passcode}
    )
    assert page.status_code == 302


def test_a_non_ascii_passcode_works_as_a_header_sent_over_the_wire(tmp_path):
    client = locked_app(tmp_path, passcode="café").test_client()
    # A real server hands the header's UTF-8 bytes to the app read as Latin-1.
    wire = "café".encode().decode("latin-1")
    assert client.post("/api/matches", json=DUEL, headers={HEADER: wire}).status_code == 201


@pytest.mark.parametrize("guess", ["café", "ж", "🂡", "x" * 10_000])
def test_a_non_ascii_guess_is_refused_never_a_500(locked: Flask, guess: str):
    client = locked.test_client()
    before = everything(locked)
    form = {"players-0": "Cy", "players-1": "Di", "passcode": guess}
    assert client.post("/matches/new/rami", data=form).status_code == 403
    rename = {"to": "Anna", "passcode": guess}
    assert client.post("/players/Ana/rename", data=rename).status_code == 403
    assert everything(locked) == before


def test_a_lone_surrogate_is_refused_not_a_500(locked: Flask):
    # No client can send one in a form (it is not UTF-8), but nothing may make the check fail.
    with locked.test_request_context("/players/Ana/rename", method="POST"):
        with pytest.raises(access.Forbidden):
            check_passcode("\udc80", "rename")


@pytest.mark.parametrize("guess", ["café", "ж", "🂡"])
def test_a_non_ascii_header_guess_is_refused_never_a_500(locked: Flask, guess: str):
    client = locked.test_client()
    before = everything(locked)
    for path, body in (("/api/matches", DUEL), ("/api/players/Ana/rename", {"to": "Anna"})):
        assert client.post(path, json=body, headers={HEADER: guess}).status_code == 403, path
    assert client.post("/api/import", json=[], headers={HEADER: guess}).status_code == 403
    assert everything(locked) == before


# --- 3. The phone that started a match keeps it -----------------------------------------------


def scorer_rows(app: Flask, match_id: int) -> list[dict[str, Any]]:
    """Read a match's scorer rows, oldest first."""
    return read(app, "select * from scorers where match_id = ? order by id", [match_id])


@pytest.fixture
def two_phones(app: Flask, client: FlaskClient) -> tuple[int, FlaskClient, FlaskClient]:
    """Start a match on one phone and let a second phone join it through the join page."""
    match_id = client.post("/api/matches", json=DUEL).json["id"]
    code = client.post(f"/api/matches/{match_id}/handoff", json={}).json["code"]
    joined = app.test_client()
    assert joined.post("/join", data={"code": code, "device": "Bo's phone"}).status_code == 302
    return match_id, client, joined


def test_a_joined_phone_cannot_revoke_the_phone_that_started_the_match(
    app: Flask, two_phones: tuple[int, FlaskClient, FlaskClient]
):
    match_id, starter, joined = two_phones
    first, second = scorer_rows(app, match_id)
    page = parse(joined.get(f"/matches/{match_id}/handoff"))
    buttons = [form for form in page.find_all("form") if form.find("input", name="kind")]
    offered = [form.find("input", name="id").attrs["value"] for form in buttons]
    assert str(first["id"]) not in offered and str(second["id"]) in offered
    assert "Only the phone that started this match" in page.text()
    before = everything(app)
    refused = joined.post(f"/matches/{match_id}/revoke", data={"kind": "phone", "id": first["id"]})
    assert refused.status_code == 403
    assert "Only the phone that started this match" in refused.get_data(as_text=True)
    assert everything(app) == before
    assert starter.post(f"/api/matches/{match_id}/rounds", json=ROUND).status_code == 201


def test_a_joined_phone_may_revoke_itself_and_waiting_codes(
    app: Flask, two_phones: tuple[int, FlaskClient, FlaskClient]
):
    match_id, starter, joined = two_phones
    starter.post(f"/api/matches/{match_id}/handoff", json={})
    waiting = read(app, "select * from handoffs where used_utc is null order by id")
    code_id = next(iter(waiting))["id"]
    gone = joined.post(f"/matches/{match_id}/revoke", data={"kind": "code", "id": code_id})
    assert gone.status_code == 302
    assert read(app, "select revoked_utc from handoffs where id = ?", [code_id])[0]["revoked_utc"]
    mine = scorer_rows(app, match_id)[1]["id"]
    left = joined.post(f"/matches/{match_id}/revoke", data={"kind": "phone", "id": mine})
    assert left.status_code == 302
    assert left.headers["Location"] == f"/matches/{match_id}"
    form = {"outcome": "out", "winner": "Ana", "hands-1-points": "12", "hands-1-melded": "y"}
    assert joined.post(f"/matches/{match_id}/rounds", data=form).status_code == 403
    assert starter.post(f"/api/matches/{match_id}/rounds", json=ROUND).status_code == 201


def test_the_phone_that_started_the_match_may_revoke_a_joined_phone(
    app: Flask, two_phones: tuple[int, FlaskClient, FlaskClient]
):
    match_id, starter, joined = two_phones
    second = scorer_rows(app, match_id)[1]["id"]
    page = parse(starter.get(f"/matches/{match_id}/handoff"))
    assert "Only the phone that started this match" not in page.text()
    taken = starter.post(f"/matches/{match_id}/revoke", data={"kind": "phone", "id": second})
    assert taken.status_code == 302
    form = {"outcome": "out", "winner": "Ana", "hands-1-points": "12", "hands-1-melded": "y"}
    assert joined.post(f"/matches/{match_id}/rounds", data=form).status_code == 403


# --- 4. Join codes cannot be guessed -------------------------------------------------------------


def test_the_eleventh_wrong_code_is_429_and_even_a_right_code_waits(app: Flask, client):
    match_id = client.post("/api/matches", json=DUEL).json["id"]
    code = client.post(f"/api/matches/{match_id}/handoff", json={}).json["code"]
    guesser = app.test_client()
    for n in range(10):
        wrong = guesser.post("/api/join", json={"code": f"WRONG{n:03d}"})
        assert wrong.status_code == 422, n
    before = everything(app)
    limited = guesser.post("/api/join", json={"code": "WRONG010"})
    assert limited.status_code == 429
    assert "Too many wrong codes" in limited.json["error"] and limited.json["fields"] == {}
    held = guesser.post("/api/join", json={"code": code})
    assert held.status_code == 429
    assert everything(app) == before
    # The join page shares the count: a guesser cannot double it by using both doors.
    page = guesser.post("/join", data={"code": code, "device": "x"})
    assert page.status_code == 429
    assert "Too many wrong codes" in page.get_data(as_text=True)
    assert page.mimetype == "text/html"
    assert everything(app) == before


def test_wrong_codes_on_the_join_page_are_limited_too(app: Flask):
    guesser = app.test_client()
    for n in range(10):
        assert guesser.post("/join", data={"code": f"WRONG{n:03d}"}).status_code == 422
    limited = guesser.post("/join", data={"code": "WRONG010"})
    assert limited.status_code == 429
    assert "wait a minute" in limited.get_data(as_text=True)
    assert guesser.get("/join").status_code == 200


def test_phones_joining_rightly_are_never_held_back(app: Flask, client: FlaskClient):
    match_id = client.post("/api/matches", json=DUEL).json["id"]
    for n in range(15):
        code = client.post(f"/api/matches/{match_id}/handoff", json={}).json["code"]
        joined = app.test_client().post("/api/join", json={"code": code, "device": f"phone {n}"})
        assert joined.status_code == 200, n


def test_the_join_limit_is_a_setting(tmp_path):
    app = locked_app(tmp_path, passcode=None)
    app.config["JOIN_LIMIT"] = "2 per minute"
    guesser = app.test_client()
    assert [guesser.post("/api/join", json={"code": "NOPE"}).status_code for _ in range(3)] == [
        422,
        422,
        429,
    ]


def age_codes(app: Flask, hours: float) -> None:
    """Make every handoff code look made `hours` ago."""
    made = (datetime.now(UTC) - timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")
    with storage.opened(app.config["DATABASE"]) as db:
        db.execute("update handoffs set created_utc = ?", [made])


@pytest.mark.parametrize("door", ["api", "page"])
def test_a_code_older_than_a_day_is_refused(app: Flask, client: FlaskClient, door: str):
    match_id = client.post("/api/matches", json=DUEL).json["id"]
    code = client.post(f"/api/matches/{match_id}/handoff", json={}).json["code"]
    age_codes(app, 24.1)
    before = everything(app)
    other = app.test_client()
    if door == "api":
        refused = other.post("/api/join", json={"code": code})
        message = refused.json["fields"]["code"][0]
    else:
        refused = other.post("/join", data={"code": code, "device": "Bo's phone"})
        message = " ".join(alerts(parse(refused)))
    assert refused.status_code == 422
    assert "more than 24 hours old" in message and "ask the scoring phone for a new one" in message
    assert everything(app) == before
    assert access.CODE_LIFE == timedelta(hours=24)
    page = parse(client.get(f"/matches/{match_id}/handoff"))
    assert not [f for f in page.find_all("input", name="kind") if f.attrs["value"] == "code"]


def test_a_code_made_yesterday_evening_still_works(app: Flask, client: FlaskClient):
    match_id = client.post("/api/matches", json=DUEL).json["id"]
    code = client.post(f"/api/matches/{match_id}/handoff", json={}).json["code"]
    age_codes(app, 23.9)
    assert app.test_client().post("/api/join", json={"code": code}).status_code == 200


def test_openapi_documents_429_on_join(client: FlaskClient):
    responses = client.get("/api/openapi.json").json["paths"]["/api/join"]["post"]["responses"]
    assert "429" in responses


# --- 5. The session cookie never outgrows the browser --------------------------------------------


def test_a_phone_that_started_a_thousand_matches_still_scores_its_newest(app: Flask):
    phone = app.test_client()
    started_at = time.monotonic()
    largest = 0
    for n in range(1000):
        form = {"players-0": f"Ana {n}", "players-1": "Bo"}
        started = phone.post("/matches/new/rami", data=form)
        assert started.status_code == 302, n
        largest = max(largest, len(started.headers.get("Set-Cookie", "")))
    assert largest < 4096
    newest = started.headers["Location"]
    page = phone.get(newest).get_data(as_text=True)
    assert "Record round 1" in page
    form = {"outcome": "out", "winner": f"Ana {n}", "hands-1-points": "12", "hands-1-melded": "y"}
    assert phone.post(f"{newest}/rounds", data=form).status_code == 302
    # The thirty newest stay in this phone's hands; the first one is only watched now.
    assert "Record round 1" in phone.get(f"/matches/{1000 - 29}").get_data(as_text=True)
    assert "This phone is only watching" in phone.get("/matches/1").get_data(as_text=True)
    assert time.monotonic() - started_at < 60


def test_a_match_kept_again_counts_as_newest(app: Flask):
    phone = app.test_client()
    first = phone.post("/matches/new/rami", data={"players-0": "Ana", "players-1": "Bo"})
    first_path = first.headers["Location"]
    match_id = int(first_path.rsplit("/", 1)[1])
    with storage.opened(app.config["DATABASE"]) as db:
        code = access.offer(db, match_id)
    for n in range(29):
        phone.post("/matches/new/rami", data={"players-0": f"Cy {n}", "players-1": "Di"})
    # Handed the first match again, this phone keeps it past thirty newer ones.
    assert phone.post("/join", data={"code": code, "device": "again"}).status_code == 302
    for n in range(29):
        phone.post("/matches/new/rami", data={"players-0": f"Ed {n}", "players-1": "Fa"})
    assert "Record round 1" in phone.get(first_path).get_data(as_text=True)
    assert "This phone is only watching" in phone.get("/matches/2").get_data(as_text=True)
