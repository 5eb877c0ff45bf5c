"""A log nobody can rewrite (API.md): each change's hash chains it to the one before, the JSON
export carries the chain and its head, /api/verify and the /check page say whether a file is what
was scored, an import refuses a broken chain, and m016 chains the logs stored before it.

Every hash here is worked out again with hashlib, as anyone checking a result file would.
The players are آنا, بهرام and علي (Persian and Arabic names), playing Rami to 200.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlite_utils import Database

from app import create_app
from scorebook import matches, storage
from scorebook.storage.migrations import migrations
from tests.api_helpers import (
    api_match,
    draw_round,
    finish_round,
    refused,
    rounds_url,
    send,
    start_event,
)
from tests.html_reader import parse

ANA, BAHRAM, ALI = "آنا", "بهرام", "علي"
RAMI = {"game": "rami", "players": [ANA, BAHRAM, ALI], "options": {"confirm": True}}
ACTIONS = [
    "add",
    "add",
    "add",
    "correct",
    "remove",
    "restore",
    "note",
    "details",
    "confirm",
    "contest",
    "abandon",
]
"""What the table did in `storied`, in order."""


def chain(changes: Iterable[dict[str, Any]]) -> list[str]:
    """Work out each change's hash: SHA-256 of the hash before it ("" for the first) followed
    by the change without its hash as canonical JSON."""
    hashes, previous = [], ""
    for change in changes:
        shown = {key: value for key, value in change.items() if key != "hash"}
        text = json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        previous = hashlib.sha256((previous + text).encode("utf-8")).hexdigest()
        hashes.append(previous)
    return hashes


def went_out(winner: str, **points: int) -> dict[str, Any]:
    """A Rami round: `winner` went out, the others hold these points and had melded."""
    hands = {name: {"points": value, "melded": True} for name, value in points.items()}
    return {"outcome": "out", "winner": winner, "hands": hands}


def ok(response: Any, status: int = 200) -> Any:
    """Assert a change went through; return its JSON."""
    assert response.status_code == status, response.get_data(as_text=True)
    return response.json


def start(client: FlaskClient, body: dict[str, Any], *rounds: dict[str, Any]) -> int:
    """Start a match (its keys in the order written), record these rounds, return its id."""
    match_id = ok(send(client, "POST", "/api/matches", body), 201)["id"]
    for entered in rounds:
        ok(send(client, "POST", rounds_url(match_id), entered), 201)
    return match_id


def side_phone(client: FlaskClient, match_id: int, side: str) -> dict[str, str]:
    """The header of a side's phone, its token made by the scoring phone."""
    answer = ok(client.post(f"/api/matches/{match_id}/sides/{side}/link"), 201)
    return {"Authorization": f"Bearer {answer['token']}"}


def log(client: FlaskClient, match_id: int) -> list[dict[str, Any]]:
    """The match's change log."""
    return ok(client.get(f"/api/matches/{match_id}/log"))["changes"]


def exported(client: FlaskClient, match_id: int) -> dict[str, Any]:
    """The match's JSON export."""
    return ok(client.get(f"/api/matches/{match_id}/export?format=json"))


VALID_HERE = {"valid": True, "first_bad_change": None, "kept_here": True, "changes_since": 0}
"""What /api/verify answers of an untampered export of a match the app keeps, unchanged since."""


def verify(client: FlaskClient, document: Any) -> dict[str, Any]:
    """What POST /api/verify answers of a document."""
    return ok(send(client, "POST", "/api/verify", document))


def total(client: FlaskClient) -> int:
    """How many matches the app holds."""
    return client.get("/api/matches").json["total"]


@pytest.fixture
def storied(client: FlaskClient) -> int:
    """A match whose log holds every kind of change a table makes (ACTIONS)."""
    match_id = start(
        client,
        RAMI,
        went_out(ANA, **{BAHRAM: 10, ALI: 20}),
        went_out(BAHRAM, **{ANA: 30, ALI: 5}),
        went_out(ALI, **{ANA: 4, BAHRAM: 6}),
    )
    ok(send(client, "PUT", rounds_url(match_id, 2), went_out(BAHRAM, **{ANA: 31, ALI: 5})))
    gone = ok(client.delete(rounds_url(match_id, 1)))["match"]["removed"][0]["id"]
    ok(client.post(f"/api/matches/{match_id}/removed/{gone}/restore"))
    ok(client.put(f"{rounds_url(match_id, 1)}/note", json={"note": "دست دوباره داده شد"}))
    ok(client.patch(f"/api/matches/{match_id}", json={"note": "نهایی", "place": "کافه"}))
    bahram, ali = side_phone(client, match_id, BAHRAM), side_phone(client, match_id, ALI)
    ok(client.post(f"{rounds_url(match_id, 1)}/confirm", headers=bahram))
    why = {"reason": "لم يكن لدي ٢٠ نقطة"}
    ok(client.post(f"{rounds_url(match_id, 2)}/contest", json=why, headers=ali))
    ok(client.post(f"/api/matches/{match_id}/abandon"))
    return match_id


# --- the chain --------------------------------------------------------------------------------


def test_every_change_is_chained_to_the_one_before(client: FlaskClient, storied: int):
    changes = log(client, storied)
    assert [change["action"] for change in changes] == ACTIONS
    assert [change["hash"] for change in changes] == chain(changes)
    assert len({change["hash"] for change in changes}) == len(ACTIONS)
    said = changes[8:10]
    assert [(c["n"], c["input"], c["round_ref"]) for c in said] == [
        (1, {"side": BAHRAM}, 0),
        (2, {"side": ALI, "reason": "لم يكن لدي ٢٠ نقطة"}, 1),
    ]
    assert (changes[7]["n"], changes[7]["round_ref"]) == (0, None)


def test_the_first_change_is_chained_to_the_empty_string(client: FlaskClient):
    match_id = start(client, RAMI, went_out(ANA, **{BAHRAM: 10, ALI: 20}))
    [first] = log(client, match_id)
    shown = {key: value for key, value in first.items() if key != "hash"}
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert first["hash"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
    # The names are hashed as UTF-8 themselves, not as \\u escapes.
    escaped = json.dumps(shown, sort_keys=True, separators=(",", ":"))
    assert first["hash"] != hashlib.sha256(escaped.encode("ascii")).hexdigest()


def test_the_export_carries_the_same_chain_and_its_head(client: FlaskClient, storied: int):
    document = exported(client, storied)
    assert document["log"] == log(client, storied)
    assert [change["hash"] for change in document["log"]] == chain(document["log"])
    assert document["log_head"] == document["log"][-1]["hash"]


def test_a_match_with_no_change_has_an_empty_head(client: FlaskClient):
    match_id = start(client, RAMI)
    document = exported(client, match_id)
    assert (document["log"], document["log_head"]) == ([], "")
    assert verify(client, document) == VALID_HERE


def test_an_event_tables_acceptance_is_chained_too(client: FlaskClient):
    started, organiser = start_event(client, options={"variant": "coinche", "confirm": True})
    drawn = draw_round(client, started["id"], organiser)
    finish_round(client, drawn, organiser)
    url = f"/api/events/{started['id']}/tables/1/1/accept"
    ok(client.post(url, headers=organiser))
    match_id = drawn["tables"][0]["match"]
    changes = log(client, match_id)
    assert [c["action"] for c in changes] == ["add", "accept"]
    assert [c["hash"] for c in changes] == chain(changes)
    document = client.get(f"/api/matches/{match_id}/export?format=json", headers=organiser).json
    assert verify(client, document) == VALID_HERE


# --- verifying a file -------------------------------------------------------------------------


def test_an_untampered_export_is_valid(client: FlaskClient, storied: int):
    assert verify(client, exported(client, storied)) == VALID_HERE


@pytest.mark.parametrize(
    ("index", "key", "value"),
    [
        pytest.param(0, "at", "2020-01-01T00:00:00Z", id="first-at"),
        pytest.param(3, "input", went_out(BAHRAM, **{ANA: 13, ALI: 5}), id="correction-input"),
        pytest.param(5, "device", "another phone", id="restore-device"),
        pytest.param(9, "input", {"side": ALI, "reason": "همه چیز درست است"}, id="contest-input"),
        pytest.param(10, "at", "2020-01-01T00:00:00Z", id="last-at"),
    ],
)
def test_one_edited_change_is_named(
    client: FlaskClient, storied: int, index: int, key: str, value: Any
):
    document = exported(client, storied)
    document["log"][index][key] = value
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, index)
    assert f"Change {index + 1}" in answer["reason"]


def test_an_edited_change_whose_hash_is_made_again_names_the_next(
    client: FlaskClient, storied: int
):
    document = exported(client, storied)
    edited = document["log"][4]
    edited["at"] = "2020-01-01T00:00:00Z"
    edited["hash"] = chain(document["log"][:5])[4]
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, 5)


@pytest.mark.parametrize("index", [0, 4, 9])
def test_a_change_taken_out_names_the_change_after_it(
    client: FlaskClient, storied: int, index: int
):
    document = exported(client, storied)
    del document["log"][index]
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, index)


def test_a_change_slipped_in_is_named(client: FlaskClient, storied: int):
    document = exported(client, storied)
    document["log"].insert(9, copy.deepcopy(document["log"][8]))
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, 9)


def test_a_log_cut_short_under_its_head_is_not_valid(client: FlaskClient, storied: int):
    document = exported(client, storied)
    document["log"].pop()
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, None)
    assert answer["reason"]


def test_a_log_cut_with_its_head_moved_no_longer_replays_to_its_numbers(client: FlaskClient):
    match_id = start(
        client,
        RAMI,
        went_out(ANA, **{BAHRAM: 10, ALI: 20}),
        went_out(BAHRAM, **{ANA: 30, ALI: 5}),
    )
    document = exported(client, match_id)
    document["log"].pop()
    document["log_head"] = document["log"][-1]["hash"]
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, None)


def test_a_log_rewritten_and_chained_again_still_differs_from_its_scores(client: FlaskClient):
    match_id = start(client, RAMI, went_out(ANA, **{BAHRAM: 10, ALI: 20}))
    document = exported(client, match_id)
    document["log"][0]["input"]["hands"][BAHRAM]["points"] = 1
    document["log"][0]["hash"] = chain(document["log"])[0]
    document["log_head"] = document["log"][0]["hash"]
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, None)


# --- a file checked where its match is kept --------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        pytest.param("options.target", 500, id="target"),
        pytest.param("options.scorer_side", BAHRAM, id="scorer-side"),
        pytest.param("players", [ANA, ALI, BAHRAM], id="seats"),
        pytest.param("uid", "0" * 32, id="uid"),
    ],
)
def test_a_file_whose_table_was_edited_differs_from_the_match_kept_here(
    client: FlaskClient, key: str, value: Any
):
    match_id = start(client, RAMI, went_out(ANA, **{BAHRAM: 10, ALI: 20}))
    document = exported(client, match_id)
    *parents, last = key.split(".")
    target = document
    for name in parents:
        target = target[name]
    target[last] = value
    answer = verify(client, document)
    # Another uid is another match, not kept here: it is checked by its chain and numbers.
    assert (answer["valid"], answer["kept_here"]) == (key == "uid", key != "uid"), answer
    assert answer["first_bad_change"] is None


def test_an_older_export_is_valid_and_says_how_many_changes_came_since(client: FlaskClient):
    match_id = start(client, RAMI, went_out(ANA, **{BAHRAM: 10, ALI: 20}))
    document = exported(client, match_id)
    ok(send(client, "POST", rounds_url(match_id), went_out(BAHRAM, **{ANA: 5, ALI: 6})), 201)
    eux = side_phone(client, match_id, ALI)
    ok(client.post(f"/api/matches/{match_id}/rounds/1/confirm", headers=eux))
    answer = verify(client, document)
    assert answer == VALID_HERE | {"changes_since": 2}


def test_a_log_chained_again_by_hand_differs_from_the_log_kept_here(client: FlaskClient):
    match_id = start(
        client, RAMI, went_out(ANA, **{BAHRAM: 10, ALI: 20}), went_out(ALI, **{ANA: 4, BAHRAM: 9})
    )
    document = exported(client, match_id)
    # A round's time moved, and the whole chain made again from it: only the match kept
    # here can tell.
    document["log"][1]["at"] = "2020-01-01T10:00:00Z"
    document["round_records"][1]["entered_at"] = "2020-01-01T10:00:00Z"
    document["rounds"][1]["entered_at"] = "2020-01-01T10:00:00Z"
    for change, link in zip(document["log"], chain(document["log"]), strict=True):
        change["hash"] = link
    document["log_head"] = document["log"][-1]["hash"]
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"], answer["kept_here"]) == (False, 1, True)


def test_a_file_from_elsewhere_is_checked_by_its_chain_and_numbers_alone(
    client: FlaskClient, there: FlaskClient, storied: int
):
    assert verify(there, exported(client, storied)) == {
        "valid": True,
        "first_bad_change": None,
        "kept_here": False,
        "changes_since": None,
    }


def test_the_check_page_refuses_a_file_with_no_match(client: FlaskClient):
    response = check(client, b"[]")
    assert response.status_code == 422
    assert "no match" in parse(response).find("div", "alert").text()


@pytest.mark.parametrize(
    "document",
    [
        pytest.param({"format": "tablescore-match"}, id="no-log"),
        pytest.param({"log": []}, id="no-head"),
        pytest.param({"log": {}, "log_head": ""}, id="log-not-a-list"),
    ],
)
def test_a_document_without_a_chained_log_is_not_valid(client: FlaskClient, document: dict):
    answer = verify(client, document)
    assert (answer["valid"], answer["first_bad_change"]) == (False, None)


def test_verify_takes_json_only(client: FlaskClient):
    response = client.post("/api/verify", data="not json", content_type="text/plain")
    refused(response, 415)
    refused(client.post("/api/verify", data="{", content_type="application/json"), 400)


# --- importing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "key", "value"),
    [
        pytest.param(8, "at", "2020-01-01T00:00:00Z", id="at"),
        pytest.param(9, "input", {"side": ALI, "reason": "همه چیز درست است"}, id="contest"),
        pytest.param(6, "device", "another phone", id="device"),
    ],
)
def test_an_import_refuses_a_broken_chain_and_stores_nothing(
    client: FlaskClient, there: FlaskClient, storied: int, index: int, key: str, value: Any
):
    document = exported(client, storied)
    document["log"][index][key] = value
    response = send(there, "POST", "/api/import", [document])
    body = refused(response, 422, f"0.log.{index}.hash")
    assert f"change {index + 1}" in body["error"]
    assert total(there) == 0


def test_an_import_names_an_edited_round_in_the_log_where_the_chain_breaks(
    client: FlaskClient, there: FlaskClient, storied: int
):
    document = exported(client, storied)
    document["log"][0]["input"]["hands"][BAHRAM]["points"] = 11
    assert verify(client, document)["first_bad_change"] == 0
    body = refused(send(there, "POST", "/api/import", [document]), 422)
    assert total(there) == 0
    assert [field for field in body["fields"] if field.startswith("0.log.0.")], body
    assert "change 1" in body["error"]


def test_an_import_refuses_a_log_cut_under_its_head(
    client: FlaskClient, there: FlaskClient, storied: int
):
    document = exported(client, storied)
    document["log"].pop()
    document["abandoned_at"] = None
    refused(send(there, "POST", "/api/import", [document]), 422, "0.log_head")
    assert total(there) == 0


def test_an_untampered_export_keeps_its_hashes_elsewhere(
    client: FlaskClient, there: FlaskClient, storied: int
):
    document = exported(client, storied)
    ok(send(there, "POST", "/api/import", [document]))
    [summary] = there.get("/api/matches").json["matches"]
    assert log(there, summary["id"]) == log(client, storied)
    assert exported(there, summary["id"]) == document
    original = api_match(client, storied)
    copied = api_match(there, summary["id"])
    assert [(r["confirmed_by"], r["contest"]) for r in copied["rounds"]] == [
        (r["confirmed_by"], r["contest"]) for r in original["rounds"]
    ]
    assert (copied["settled"], copied["abandoned_at"]) == (False, original["abandoned_at"])


def test_an_export_from_before_the_chain_still_imports(
    client: FlaskClient, there: FlaskClient, storied: int
):
    document = exported(client, storied)
    older = {key: value for key, value in document.items() if key != "log_head"}
    older["log"] = [{k: v for k, v in c.items() if k != "hash"} for c in document["log"]]
    ok(send(there, "POST", "/api/import", [older]))
    [summary] = there.get("/api/matches").json["matches"]
    # Chained as it is stored: the same hashes as where it was scored.
    assert [c["hash"] for c in log(there, summary["id"])] == chain(document["log"])
    assert exported(there, summary["id"])["log_head"] == document["log_head"]


def test_a_new_change_after_an_import_goes_on_from_its_head(
    client: FlaskClient, there: FlaskClient
):
    match_id = start(client, RAMI, went_out(ANA, **{BAHRAM: 10, ALI: 20}))
    document = exported(client, match_id)
    answer = ok(send(there, "POST", "/api/import", [document]))
    [(copied_id, token)] = answer["scorer_tokens"].items()
    headers = {"Authorization": f"Bearer {token}"}
    entered = went_out(BAHRAM, **{ANA: 30, ALI: 5})
    ok(there.post(rounds_url(int(copied_id)), json=entered, headers=headers), 201)
    changes = log(there, int(copied_id))
    assert changes[0]["hash"] == document["log_head"]
    assert [c["hash"] for c in changes] == chain(changes)


# --- the /check page --------------------------------------------------------------------------


def check(client: FlaskClient, content: bytes, filename: str = "export.json") -> Any:
    """Send a file through the /check page's form."""
    return client.post("/check", data={"document": (io.BytesIO(content), filename)})


def checked(response: Any) -> list[tuple[str, str]]:
    """What the /check page says of each match of the file: its class and its words."""
    assert response.status_code == 200, response.get_data(as_text=True)
    found = parse(response).find("ul", cls="checked")
    assert found is not None
    return [(item.attrs["class"], item.text()) for item in found.find_all("li")]


def test_the_check_page_shows_a_form_for_one_file(client: FlaskClient):
    page = parse(client.get("/check"))
    form = page.find("form", enctype="multipart/form-data")
    assert form is not None and form.attrs["action"] == "/check"
    assert page.find("input", type="file", name="document") is not None


def test_the_check_page_says_a_file_is_what_was_scored(client: FlaskClient, storied: int):
    document = exported(client, storied)
    [(outcome, words)] = checked(check(client, json.dumps(document).encode()))
    assert outcome == "valid"
    assert "What was scored" in words and document["uid"] in words
    assert document["log_head"][:8] in words


def test_the_check_page_names_the_first_change_that_differs(client: FlaskClient, storied: int):
    good = exported(client, storied)
    bad = copy.deepcopy(good)
    bad["log"][3]["at"] = "2020-01-01T00:00:00Z"
    [first, second] = checked(check(client, json.dumps([good, bad]).encode()))
    assert first[0] == "valid"
    assert second[0] == "invalid"
    assert "Not what was scored" in second[1] and "Change 4 " in second[1]


def test_the_check_page_needs_a_file(client: FlaskClient):
    response = client.post("/check", data={})
    assert response.status_code == 422
    assert parse(response).find("input", type="file", name="document") is not None
    assert check(client, b"not json at all").status_code == 422


def test_the_whole_history_export_checks_match_by_match(client: FlaskClient, storied: int):
    plain = start(client, {"game": "rami", "players": [ANA, BAHRAM]}, went_out(ANA, **{BAHRAM: 7}))
    history = ok(client.get("/api/export"))
    assert history == [exported(client, storied), exported(client, plain)]
    assert [verify(client, document)["valid"] for document in history] == [True, True]
    results = checked(check(client, json.dumps(history).encode()))
    assert [outcome for outcome, _words in results] == ["valid", "valid"]


# --- m016 chains the logs stored before it ----------------------------------------------------


AT = "2026-03-01T10:00:00Z"
LATER = "2026-03-01T10:05:00Z"
R1 = went_out(ANA, **{BAHRAM: 10, ALI: 20})
R2 = went_out(BAHRAM, **{ANA: 30, ALI: 5})
R2_CORRECTED = went_out(BAHRAM, **{ANA: 31, ALI: 5})

OLD_OPTIONS = {
    "target": 200,
    "rami_sec_points": 200,
    "unmelded_bonus": 25,
    "unmelded_cap": 100,
    "first_dealer": ANA,
}
"""A Rami match's options, every one stored as the match was started."""

OLD_ROUNDS = [
    # id, match, input, removed
    (1, 1, R1, None),
    (2, 2, R1, None),
    (3, 1, R2_CORRECTED, None),
    (4, 2, R2, LATER),
]
"""Two matches' rounds, stored turn about, as two tables scoring at once leave them."""

OLD_CHANGES = [
    # match, round, action, n, input, replaced, device
    (1, 1, "add", 1, R1, None, "the phone that started it"),
    (2, 2, "add", 1, R1, None, None),
    (1, 3, "add", 2, R2, None, "the phone that started it"),
    (2, 4, "add", 2, R2, None, None),
    (1, 3, "correct", 2, R2_CORRECTED, R2, "Table 1"),
    (2, None, "details", 0, {"place": "کافه"}, {"place": None}, None),
    (2, 4, "remove", 2, None, R2, None),
    (1, 1, "note", 1, {"note": "دست دوباره"}, {"note": None}, "Table 1"),
]
"""The changes of both matches, in the order they were logged (their ids 1 to 8)."""


def shown(match_id: int, refs: dict[int, int]) -> list[dict[str, Any]]:
    """The changes of a match in OLD_CHANGES as the log shows them, without their hashes."""
    return [
        {
            "action": action,
            "n": n,
            "input": entered,
            "replaced": replaced,
            "at": AT,
            "device": device,
            "round_ref": None if round_id is None else refs[round_id],
        }
        for match, round_id, action, n, entered, replaced, device in OLD_CHANGES
        if match == match_id
    ]


def store_as_m015(path: str) -> None:
    """Migrate a new file up to m015 and store two Rami matches in it, as m015 kept them."""
    old = Database(path)
    migrations.apply(old, stop_before="m016_sides_confirm")
    for match_id, (totals, place) in enumerate(
        [({ANA: 31, BAHRAM: 10, ALI: 25}, None), ({ANA: 0, BAHRAM: 10, ALI: 20}, "کافه")], 1
    ):
        old.table("matches").insert(
            {
                "id": match_id,
                "uid": f"old-{match_id}",
                "game": "rami",
                "options_json": json.dumps(OLD_OPTIONS),
                "variant_json": json.dumps({"target": 200}),
                "players_json": json.dumps([ANA, BAHRAM, ALI], ensure_ascii=False),
                "created_utc": AT,
                "updated_utc": AT,
                "status": "playing",
                "totals_json": json.dumps(totals, ensure_ascii=False),
                "rounds_played": 2 if match_id == 1 else 1,
                "place": place,
            }
        )
        old.table("seats").insert_all(
            {"match_id": match_id, "seat": seat, "name": name, "name_key": name.casefold(),
             "player_key": name.casefold(), "side": name}
            for seat, name in enumerate([ANA, BAHRAM, ALI])
        )  # fmt: skip
    for round_id, match_id, entered, removed in OLD_ROUNDS:
        old.execute(
            "INSERT INTO rounds (id, match_id, input_json, entered_utc, corrected_utc, "
            "removed_utc, version, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                round_id,
                match_id,
                json.dumps(entered),
                AT,
                AT if round_id == 3 else None,
                removed,
                1 + (round_id == 3),
                "دست دوباره" if round_id == 1 else None,
            ],
        )
    for change_id, (match_id, round_id, action, n, entered, replaced, device) in enumerate(
        OLD_CHANGES, 1
    ):
        old.execute(
            "INSERT INTO changes (id, match_id, round_id, action, n, input_json, replaced_json, "
            "at_utc, device) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                change_id,
                match_id,
                round_id,
                action,
                n,
                None if entered is None else json.dumps(entered),
                None if replaced is None else json.dumps(replaced),
                AT,
                device,
            ],
        )
    old.conn.commit()
    old.close()


@pytest.mark.sqlite_only
def test_the_migration_chains_the_logs_stored_before_it(tmp_path: Path):
    path = str(tmp_path / "old.sqlite")
    store_as_m015(path)
    storage.prepare(path)
    first, second = shown(1, {1: 0, 3: 1}), shown(2, {2: 0, 4: 1})
    db = sqlite3.connect(path)
    stored = db.execute("SELECT match_id, hash FROM changes ORDER BY id").fetchall()
    assert [m for m, _h in stored] == [change[0] for change in OLD_CHANGES]
    # Each match's chain starts afresh from "", whatever the other logged in between.
    assert [h for m, h in stored if m == 1] == chain(first)
    assert [h for m, h in stored if m == 2] == chain(second)

    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"})
    reader = app.test_client()
    for match_id, expected in ((1, first), (2, second)):
        changes = log(reader, match_id)
        assert [{k: v for k, v in c.items() if k != "hash"} for c in changes] == expected
        assert [c["hash"] for c in changes] == chain(expected)
    storage.let_go(path)

    # The log refuses every update again, as before m016.
    for statement in ("UPDATE changes SET hash = 'x'", "UPDATE changes SET device = 'x'"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
    assert db.execute("SELECT count(*) FROM changes WHERE hash = 'x'").fetchone() == (0,)
    db.close()


@pytest.mark.sqlite_only
def test_a_match_chained_by_the_migration_verifies_and_goes_on(tmp_path: Path):
    path = str(tmp_path / "old.sqlite")
    store_as_m015(path)
    storage.prepare(path)
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "test"})
    reader = app.test_client()
    document = exported(reader, 1)
    assert document["log_head"] == chain(shown(1, {1: 0, 3: 1}))[-1]
    assert verify(reader, document) == VALID_HERE
    db = storage.connect(path)
    matches.add_round(db, 1, went_out(ALI, **{ANA: 4, BAHRAM: 6}), "Table 1")
    db.close()
    changes = log(reader, 1)
    assert [c["action"] for c in changes] == ["add", "add", "correct", "note", "add"]
    assert [c["hash"] for c in changes] == chain(changes)
    assert changes[-1]["round_ref"] == 2
    storage.let_go(path)
