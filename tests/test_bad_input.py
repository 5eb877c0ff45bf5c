"""Bad input gets a clear 4xx, never a 500, and changes nothing: deep JSON, broken text, names
that are not names, formulas in CSV cells, 405s that say what is allowed, import conflicts."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook import transfer
from scorebook.json_guards import MAX_DEPTH, nesting_depth
from scorers import Refusal
from scorers.seating import DEVICE, MAX_NAME_LENGTH, PLAYER, TEAM, checked_name
from tests.api_helpers import refused, unchained
from tests.html_reader import parse

NOUS_EUX = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
RAMI_ROUND = {
    "outcome": "out",
    "winner": "Ana",
    "hands": {"Bo": {"points": 10, "melded": True}, "Cy": {"points": 20, "melded": True}},
}


def raw(client: FlaskClient, method: str, url: str, text: str | bytes, **kwargs: Any) -> Any:
    """Send a body exactly as written, escapes and all, as JSON."""
    return client.open(url, method=method, data=text, content_type="application/json", **kwargs)


def everything(client: FlaskClient) -> Any:
    """What a refused request must leave alone: the whole history, every log, every player."""
    return client.get("/api/export").json, client.get("/api/players").json


@contextmanager
def nothing_changes(client: FlaskClient) -> Iterator[None]:
    """Assert that whatever happens inside leaves every match, log and player as it was."""
    before = everything(client)
    yield
    assert everything(client) == before


@pytest.fixture
def rami(client: FlaskClient) -> int:
    """A Rami match with one round, scored by `client`."""
    started = client.post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo", "Cy"]})
    assert started.status_code == 201, started.json
    match_id = started.json["id"]
    assert client.post(f"/api/matches/{match_id}/rounds", json=RAMI_ROUND).status_code == 201
    return match_id


def coinche(client: FlaskClient) -> int:
    """Start a coinche match of two teams and return its id."""
    body = {"game": "belote", "teams": NOUS_EUX, "options": {"variant": "coinche"}}
    started = client.post("/api/matches", json=body)
    assert started.status_code == 201, started.json
    return started.json["id"]


def json_doors(match_id: int) -> list[tuple[str, str]]:
    """Every API request that takes a JSON body."""
    return [
        ("POST", "/api/matches"),
        ("POST", f"/api/matches/{match_id}/rounds"),
        ("PUT", f"/api/matches/{match_id}/rounds/1"),
        ("POST", f"/api/matches/{match_id}/removed/1/restore"),
        ("POST", f"/api/matches/{match_id}/rematch"),
        ("POST", f"/api/matches/{match_id}/handoff"),
        ("POST", "/api/join"),
        ("POST", "/api/import"),
        ("POST", "/api/players/Ana/rename"),
    ]


# --- 9. no input gives a 500 ------------------------------------------------------------------


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deeply_nested_json_is_refused_at_every_door(
    client: FlaskClient, rami: int, opener: str
) -> None:
    deep = opener * 10_000 + "1"
    with nothing_changes(client):
        for method, url in json_doors(rami):
            response = raw(client, method, url, deep)
            refused(response, 400)
            assert "nested too deeply" in response.json["error"], (url, response.json)


def test_a_hundred_thousand_levels_are_refused_by_the_import(
    client: FlaskClient, rami: int
) -> None:
    with nothing_changes(client):
        response = raw(client, "POST", "/api/import", "[" * 100_000 + "]" * 100_000)
        assert "nested too deeply" in refused(response, 400)["error"]
        # Past the 64 KB of a round, the size is refused before the depth is looked at.
        refused(raw(client, "POST", "/api/matches", "[" * 100_000), 413)


def test_the_import_page_refuses_a_deeply_nested_file(client: FlaskClient, rami: int) -> None:
    with nothing_changes(client):
        response = client.post(
            "/import", data={"document": (io.BytesIO(b"[" * 100_000), "deep.json")}
        )
        assert response.status_code == 422
        assert "nested too deeply" in response.get_data(as_text=True)


def test_nesting_is_counted_outside_strings_only() -> None:
    assert nesting_depth(b'{"a": [1, {"b": "[[[[{{{{"}], "c": "\\"[["}') == 3
    assert nesting_depth(b'"[[[" 1') == 0
    assert nesting_depth("[" * (MAX_DEPTH + 1)) == MAX_DEPTH + 1


def test_a_body_as_deep_as_allowed_reaches_the_rules(client: FlaskClient) -> None:
    options = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)
    body = f'{{"game": "rami", "players": ["Ana", "Bo"], "options": {{"target": {options}}}}}'
    refused(raw(client, "POST", "/api/matches", body), 422)


LONE = '"\\ud800"'


def with_lone(body: Any) -> str:
    """Write a body as JSON, each "LONE" string becoming a lone surrogate escape."""
    return json.dumps(body).replace('"LONE"', LONE)


def surrogate_requests(match_id: int, code: str) -> list[tuple[str, str, str]]:
    """Requests with a lone surrogate in every place that takes text."""
    teams = {"LONE": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
    rami = {"game": "rami", "players": ["Ana", "Bo"]}
    return [
        ("POST", "/api/matches", with_lone({"game": "rami", "players": ["LONE", "Bo", "Cy"]})),
        ("POST", "/api/matches", with_lone(rami).replace('"Ana"', '"Ana\\udfff"')),
        ("POST", "/api/matches", with_lone({"game": "belote", "teams": teams})),
        ("POST", "/api/matches", with_lone(rami | {"device": "LONE"})),
        ("POST", "/api/join", with_lone({"code": "LONE"})),
        ("POST", "/api/join", with_lone({"code": code, "device": "LONE"})),
        ("POST", "/api/players/Ana/rename", with_lone({"to": "LONE"})),
        (
            "POST",
            f"/api/matches/{match_id}/rounds",
            with_lone({"outcome": "out", "winner": "LONE"}),
        ),
        ("POST", "/api/import", with_lone([{"uid": "LONE"}])),
    ]


def test_a_lone_surrogate_is_refused_wherever_it_is_sent(client: FlaskClient, rami: int) -> None:
    code = client.post(f"/api/matches/{rami}/handoff", json={}).json["code"]
    with nothing_changes(client):
        for method, url, body in surrogate_requests(rami, code):
            response = raw(client, method, url, body)
            assert "lone surrogate" in refused(response, 422)["error"], (url, body)
    # The code was not used up by the refused joins.
    joined = client.post("/api/join", json={"code": code, "device": "Bo's phone"})
    assert joined.status_code == 200, joined.json


def test_the_refusal_names_where_the_surrogate_is(client: FlaskClient) -> None:
    body = with_lone({"game": "rami", "players": ["Ana", "Bo", "LONE"]})
    refused(raw(client, "POST", "/api/matches", body), 422, "players.2", "lone surrogate")


def test_a_surrogate_pair_is_a_character_like_any_other(client: FlaskClient) -> None:
    body = '{"game": "rami", "players": ["\\ud83c\\udca1 Ana", "Bo"]}'
    response = raw(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    assert response.json["players"][0] == "🂡 Ana"


def test_an_import_file_with_a_lone_surrogate_is_refused(client: FlaskClient, rami: int) -> None:
    document = client.get(f"/api/matches/{rami}/export").json
    text = json.dumps([document | {"uid": "other"}]).replace('"Ana"', LONE, 1)
    with nothing_changes(client):
        response = client.post(
            "/import", data={"document": (io.BytesIO(text.encode()), "export.json")}
        )
        assert response.status_code == 422
        assert "lone surrogate" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "query",
    ["to=9999-12-31", "from=9999-12-31", "from=0001-01-01&to=9999-12-31", "to=0001-01-01"],
)
def test_history_reaches_the_ends_of_the_calendar(
    client: FlaskClient, rami: int, query: str
) -> None:
    response = client.get(f"/api/matches?{query}")
    assert response.status_code == 200, response.json
    expected = [rami] if query.endswith("9999-12-31") and "from=9999" not in query else []
    assert [match["id"] for match in response.json["matches"]] == expected
    assert client.get(f"/history?{query}").status_code == 200


def test_a_day_past_the_calendar_is_refused(client: FlaskClient) -> None:
    refused(client.get("/api/matches?to=10000-01-01"), 422, "to")


@pytest.mark.parametrize("contract", ["100", "80", "160"])
def test_a_belote_contract_sent_as_text_is_refused(client: FlaskClient, contract: str) -> None:
    match_id = coinche(client)
    deal = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 100}, "last_trick": "Nous"}
    with nothing_changes(client):
        response = client.post(
            f"/api/matches/{match_id}/rounds", json=deal | {"contract": contract}
        )
        refused(response, 422, "contract", "is a number")
    response = client.post(f"/api/matches/{match_id}/rounds", json=deal | {"contract": 100})
    assert response.status_code == 201, response.json


# --- 10. names are names ----------------------------------------------------------------------

NOT_NAMES = [
    pytest.param("Ana\x00", id="NUL"),
    pytest.param("A\x07na", id="bell"),
    pytest.param("An\x1ba", id="escape"),
    pytest.param("A\x85na", id="C1 control"),
    pytest.param("\u202eanA", id="right-to-left override"),
    pytest.param("Ana\u202a", id="left-to-right embedding"),
    pytest.param("\u2066Ana\u2069", id="isolate"),
    pytest.param("A\u200bna", id="zero-width space"),
    pytest.param("\u200d", id="lone joiner"),
    pytest.param("\ufeffAna", id="byte order mark"),
    pytest.param("A\u2028na", id="line separator"),
    pytest.param("\u3164", id="Hangul filler"),
    pytest.param("\u2800\u2800", id="blank Braille"),
    pytest.param("\u0301", id="a lone accent"),
    pytest.param(" \u00a0 ", id="only spaces"),
    pytest.param("x" * (MAX_NAME_LENGTH + 1), id="too long"),
]
NAMES = [
    pytest.param("  Ana  ", "Ana", id="trimmed"),
    pytest.param("x" * MAX_NAME_LENGTH, "x" * MAX_NAME_LENGTH, id="as long as allowed"),
    pytest.param("علی\u200cرضا", "علی\u200cرضا", id="Persian non-joiner"),
    pytest.param("Ana 👩\u200d💻", "Ana 👩\u200d💻", id="emoji joiner"),
    pytest.param("José", "José", id="accent"),
    pytest.param("ಅನಿಲ್", "ಅನಿಲ್", id="Kannada"),
]


@pytest.mark.parametrize("name", NOT_NAMES)
@pytest.mark.parametrize("what", [PLAYER, TEAM, DEVICE])
def test_what_is_not_a_name_is_refused(name: str, what: str) -> None:
    with pytest.raises(Refusal) as refusal:
        checked_name(name, "where", what)
    assert list(refusal.value.fields) == ["where"]


@pytest.mark.parametrize(("name", "kept"), NAMES)
def test_a_name_is_kept_trimmed(name: str, kept: str) -> None:
    assert checked_name(name, "where") == kept


def test_the_refusal_says_which_character(client: FlaskClient) -> None:
    body = {"game": "rami", "players": ["\u202eanA", "Bo"]}
    refused(client.post("/api/matches", json=body), 422, "players.0", "U+202E")


@pytest.mark.parametrize("name", NOT_NAMES)
def test_the_api_refuses_a_player_or_team_that_is_not_a_name(
    client: FlaskClient, name: str
) -> None:
    with nothing_changes(client):
        response = client.post("/api/matches", json={"game": "rami", "players": [name, "Bo"]})
        refused(response, 422, "players.0")
        teams = {name: ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
        refused(client.post("/api/matches", json={"game": "belote", "teams": teams}), 422)


@pytest.mark.parametrize("name", NOT_NAMES)
def test_the_new_match_form_refuses_a_name_that_is_not_one(client: FlaskClient, name: str) -> None:
    with nothing_changes(client):
        form = {"players-0": name, "players-1": "Bo", "option_target": "150"}
        assert client.post("/matches/new/rami", data=form).status_code == 422


def test_the_new_match_form_trims_names(client: FlaskClient) -> None:
    form = {"players-0": "  Ana ", "players-1": "Bo", "option_target": "150"}
    assert client.post("/matches/new/rami", data=form).status_code == 302
    assert client.get("/api/matches").json["matches"][0]["players"] == ["Ana", "Bo"]


@pytest.mark.parametrize("name", NOT_NAMES)
def test_a_rename_to_what_is_not_a_name_is_refused(
    client: FlaskClient, rami: int, name: str
) -> None:
    with nothing_changes(client):
        response = client.post("/api/players/Ana/rename", json={"to": name})
        refused(response, 422, "to")


@pytest.mark.parametrize("label", ["Ana\x00", "\u202ephone", "\u200b"])
def test_a_phone_label_follows_the_rules_of_names(
    client: FlaskClient, rami: int, label: str
) -> None:
    code = client.post(f"/api/matches/{rami}/handoff", json={}).json["code"]
    with nothing_changes(client):
        response = client.post("/api/join", json={"code": code, "device": label})
        refused(response, 422, "device")


VISIBLE_RULES = {"Hangul filler", "blank Braille", "a lone accent", "only spaces", "too long"}
"""What NOT_NAMES refuses that only a name must have: something that shows, a short length."""
HIDDEN = [p for p in NOT_NAMES if p.id not in VISIBLE_RULES]
"""The control and formatting characters names refuse: a note or a place refuses them too."""


@pytest.mark.parametrize("hidden", HIDDEN)
def test_a_note_a_place_and_an_event_refuse_what_a_name_refuses(
    client: FlaskClient, rami: int, hidden: str
) -> None:
    typed = f"Cup {hidden} final"
    with nothing_changes(client):
        for field in ("note", "place"):
            refused(client.patch(f"/api/matches/{rami}", json={field: typed}), 422, field)
        note = client.put(f"/api/matches/{rami}/rounds/1/note", json={"note": typed})
        refused(note, 422, "note", "control or invisible formatting")
    event = {"name": "Club", "game": "rami", "players": ["Ana", "Bo"], "rounds": 1}
    for field in ("name", "place"):
        refused(client.post("/api/events", json=event | {field: typed}), 422, field)
    assert client.get("/api/events").json["events"] == []


def import_document(client: FlaskClient, match_id: int, **changes: Any) -> dict[str, Any]:
    """The match's export document under a new uid, with its log entries' fields changed: as
    written by hand, without the chain an edited log would break."""
    document = unchained(client.get(f"/api/matches/{match_id}/export").json)
    document["uid"] = "elsewhere"
    for entry in document["log"]:
        entry.update(changes)
    return document


@pytest.mark.parametrize(
    "device",
    ["x" * (MAX_NAME_LENGTH + 1), "Ana\x00", "\u202ephone", "\u200b", "", "  "],
)
def test_an_import_refuses_a_phone_name_that_is_not_a_name(
    client: FlaskClient, rami: int, device: str
) -> None:
    document = import_document(client, rami, device=device)
    with nothing_changes(client):
        response = client.post("/api/import", json=[document])
        refused(response, 422, "0.log.0.device")


def test_an_import_keeps_a_phone_name_that_is_one(client: FlaskClient, rami: int) -> None:
    document = import_document(client, rami, device="Ana's phone")
    response = client.post("/api/import", json=[document])
    assert response.json["imported"] == ["elsewhere"], response.json


@pytest.mark.parametrize("name", ["Ana\x00", "\u202eanA", "x" * (MAX_NAME_LENGTH + 1)])
def test_an_import_refuses_a_player_that_is_not_a_name(
    client: FlaskClient, rami: int, name: str
) -> None:
    text = json.dumps([import_document(client, rami)]).replace('"Ana"', json.dumps(name))
    with nothing_changes(client):
        refused(raw(client, "POST", "/api/import", text), 422)


# --- 11. CSV formula injection ----------------------------------------------------------------


def sheet(client: FlaskClient, match_id: int) -> list[list[str]]:
    """Download a match's score sheet and read its cells."""
    response = client.get(f"/api/matches/{match_id}/export?format=csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def test_names_in_a_score_sheet_cannot_run_as_formulas(client: FlaskClient) -> None:
    players = ["=1+1", "+SUM(A1)", "-2+3", "@cmd"]
    started = client.post("/api/matches", json={"game": "barbu", "players": players})
    match_id = started.json["id"]
    queens = {"contract": "no_queens", "taken": dict.fromkeys(players, 1), "doubles": []}
    assert client.post(f"/api/matches/{match_id}/rounds", json=queens).status_code == 201
    header, *rows = sheet(client, match_id)
    assert header[1:3] == ["'=1+1 score", "'=1+1 total"]
    assert [cell[0] for cell in header[1:-1]] == ["'"] * 8
    # Scores stay numbers: a queen costs each player who took one, written as a plain -6.
    assert rows == [["1", *["-6"] * 8, ""]]


def test_team_names_in_a_score_sheet_cannot_run_as_formulas(client: FlaskClient) -> None:
    teams = {"=Nous": ["Ana", "Cy"], "@Eux": ["Bo", "Di"]}
    started = client.post("/api/matches", json={"game": "belote", "teams": teams})
    header = sheet(client, started.json["id"])[0]
    assert header == ["n", "'=Nous score", "'=Nous total", "'@Eux score", "'@Eux total", "note"]


@pytest.mark.parametrize("cell", ["=A1", "+A1", "-A1", "@A1", "\tA1", "\rA1"])
def test_every_formula_start_is_neutralised(cell: str) -> None:
    assert transfer.cells([cell, -8, 0, "Ana"]) == [f"'{cell}", -8, 0, "Ana"]


def test_every_csv_writer_neutralises_its_cells() -> None:
    from pathlib import Path

    root = Path(__file__).parent.parent
    writers = [
        path
        for path in root.glob("**/*.py")
        if ".venv" not in path.parts
        and "tests" not in path.parts
        and re.search(r"csv\.(writer|DictWriter)", path.read_text(encoding="utf-8"))
    ]
    assert writers == [root / "scorebook" / "transfer.py"]
    text = writers[0].read_text(encoding="utf-8")
    assert text.count("writer.writerow(cells(") == text.count("writer.writerow(")


# --- 12. HTTP details -------------------------------------------------------------------------

VALUES = {
    "match_id": "1",
    "n": "1",
    "round_id": "1",
    "name": "Ana",
    "code": "ABCD2345",
    "event_id": "1",
    "circle_id": "1",
    "key": "k" * 32,
    "table": "1",
    "side": "Ana",
}


def api_paths(app: Flask) -> dict[str, set[str]]:
    """Every API path, its variables filled in, and the methods its rules allow."""
    paths: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", lambda m: VALUES[m.group(1)], rule.rule)
            paths.setdefault(path, set()).update(rule.methods or ())
    return paths


def test_every_api_path_says_which_methods_it_allows(
    app: Flask, client: FlaskClient, rami: int
) -> None:
    paths = api_paths(app)
    assert len(paths) > 10
    urls = app.url_map.bind("localhost")
    for path in paths:
        # A player's name may hold a slash, so one path can match more rules than its own.
        methods = set(urls.allowed_methods(path))
        assert paths[path] <= methods
        method = next(m for m in ("PATCH", "DELETE", "PUT", "POST", "GET") if m not in methods)
        response = client.open(path, method=method)
        assert response.status_code == 405, (path, method)
        assert set(response.headers["Allow"].split(", ")) == methods, path
        refused(response, 405)


def test_a_page_says_which_methods_it_allows(client: FlaskClient) -> None:
    response = client.delete("/")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every operation of the OpenAPI document: its path, method and description."""
    for path, described in document["paths"].items():
        for method, operation in described.items():
            yield path, method, operation


def test_every_body_taking_operation_documents_the_door(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").json
    for path, method, operation in operations(document):
        if method in ("post", "put"):
            assert {"400", "413", "415", "422"} <= set(operation["responses"]), path


def test_what_the_door_answers_is_documented(client: FlaskClient, rami: int) -> None:
    document = client.get("/api/openapi.json").json
    fill = {
        "{match_id}": str(rami),
        "{n}": "1",
        "{round_id}": "1",
        "{name}": "Ana",
        "{event_id}": "1",
        "{circle_id}": "1",
        "{table}": "1",
        "{side}": "Bo",
    }
    bodies = [
        ("text/plain", b"hello", 415),
        ("application/json", b"[" * 1000, 400),
        ("application/json", b'{"x": "\\ud800"}', 422),
        ("application/json", b"[" + b"1," * 40_000 + b"1]", 413),
    ]
    with nothing_changes(client):
        for path, method, operation in operations(document):
            if method not in ("post", "put", "patch"):
                continue
            url = path
            for name, value in fill.items():
                url = url.replace(name, value)
            for content_type, data, status in bodies:
                if status == 413 and path in ("/api/import", "/api/verify"):
                    continue  # an import, or a file to check, takes a whole history: 16 MB
                response = client.open(
                    url, method=method.upper(), data=data, content_type=content_type
                )
                assert response.status_code == status, (url, content_type, response.json)
                assert str(status) in operation["responses"], (path, status)


def test_a_handoff_without_json_is_a_documented_415(client: FlaskClient, rami: int) -> None:
    response = client.post(f"/api/matches/{rami}/handoff", data="x", content_type="text/plain")
    refused(response, 415)
    document = client.get("/api/openapi.json").json
    assert "415" in document["paths"]["/api/matches/{match_id}/handoff"]["post"]["responses"]


# --- 13. imports report conflicts -------------------------------------------------------------


def test_a_uid_here_with_another_history_is_a_conflict(client: FlaskClient, rami: int) -> None:
    mine = client.get(f"/api/matches/{rami}/export").json
    other = client.post("/api/matches", json={"game": "rami", "players": ["Di", "Ed"]}).json
    theirs = client.get(f"/api/matches/{other['id']}/export").json | {"uid": mine["uid"]}
    new = theirs | {"uid": "brand-new"}
    with nothing_changes(client):
        # The same history under its uid changes nothing: it is only skipped.
        same = client.post("/api/import", json=[mine]).json
        assert (same["imported"], same["skipped"], same["conflicts"]) == ([], [mine["uid"]], [])
    before = everything(client)
    answer = client.post("/api/import", json=[theirs, mine, new]).json
    assert answer["conflicts"] == [mine["uid"]]
    assert answer["skipped"] == [mine["uid"]]
    assert answer["imported"] == ["brand-new"]
    # The match stored under the uid is left as it was.
    assert client.get(f"/api/matches/{rami}/export").json == mine
    assert len(client.get("/api/export").json) == len(before[0]) + 1


def test_the_import_page_says_which_uids_conflict(client: FlaskClient, rami: int) -> None:
    mine = client.get(f"/api/matches/{rami}/export").json
    other = client.post("/api/matches", json={"game": "rami", "players": ["Di", "Ed"]}).json
    theirs = client.get(f"/api/matches/{other['id']}/export").json | {"uid": mine["uid"]}
    content = json.dumps([theirs]).encode()
    with nothing_changes(client):
        response = client.post("/import", data={"document": (io.BytesIO(content), "export.json")})
        assert response.status_code == 302
        flash = parse(client.get("/history")).find("p", "flash").text()
    assert "another history" in flash and mine["uid"] in flash


def test_a_match_changed_since_its_export_conflicts(client: FlaskClient, rami: int) -> None:
    exported = client.get(f"/api/matches/{rami}/export").json
    assert client.post(f"/api/matches/{rami}/rounds", json=RAMI_ROUND).status_code == 201
    answer = client.post("/api/import", json=[exported]).json
    assert answer["conflicts"] == [exported["uid"]]


def test_an_event_beyond_what_sqlite_counts_is_not_found(client: FlaskClient) -> None:
    huge = 2**64
    assert client.get(f"/events/{huge}/standings/sheet?since=0").status_code == 404
    assert client.get(f"/events/{huge}/standings").status_code == 404
    refused(client.post(f"/api/events/{huge}/draw", json={}), 404)
