"""Export, import and backup: every game survives the trip, and a bad document imports nothing."""

from __future__ import annotations

import copy
import io
import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from app import create_app
from scorebook import matches, storage, transfer
from tests.api_helpers import send, unchained
from tests.html_reader import alerts, parse
from web import transfer_pages as web_transfer

# --- small legal matches of every game --------------------------------------------------------


def out(winner: str, **points: int) -> dict[str, Any]:
    """A Rami round: `winner` went out, the others hold these points and had melded."""
    return {
        "outcome": "out",
        "winner": winner,
        "hands": {name: {"points": value, "melded": True} for name, value in points.items()},
    }


def deal(taker: str, team: str, points: int, **extra: Any) -> dict[str, Any]:
    """A Belote deal: `team` took `points` and the last trick; the other side is the rest."""
    return {"taker": taker, "trump": "hearts", "points": {team: points}, "last_trick": team} | extra


def hand(contract: str, taken: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A Barbu hand without doubles."""
    return {"contract": contract, "taken": taken, "doubles": [], **extra}


def each(names: str, *numbers: int) -> dict[str, int]:
    """A number per player, the players given as one space-separated string."""
    return dict(zip(names.split(), numbers, strict=True))


NOUS_EUX = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
OBEN_UNTEN = {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}

# Each game: how the match starts, its rounds, one correction (n, input) and one removal (n).
GAMES = [
    pytest.param(
        {"game": "rami", "players": ["Ana", "Bo", "Cy"]},
        [out("Ana", Bo=10, Cy=20), out("Bo", Ana=30, Cy=5), out("Cy", Ana=4, Bo=6)],
        (2, out("Bo", Ana=31, Cy=5)),
        1,
        id="rami",
    ),
    pytest.param(
        {"game": "belote", "teams": NOUS_EUX, "options": {"variant": "classic"}},
        [deal("Ana", "Nous", 82, belote="Nous"), deal("Bo", "Eux", 100), deal("Cy", "Nous", 90)],
        (1, deal("Ana", "Nous", 92, belote="Nous")),
        2,
        id="belote-classic",
    ),
    pytest.param(
        {"game": "belote", "teams": NOUS_EUX, "options": {"variant": "coinche"}},
        [
            deal("Ana", "Nous", 98, contract=100, coinche="coinche"),
            deal("Bo", "Eux", 90, contract=80),
            deal("Cy", "Nous", 120, contract=110),
        ],
        (2, deal("Bo", "Eux", 95, contract=90)),
        1,
        id="belote-coinche",
    ),
    pytest.param(
        {"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]},
        [
            hand("no_hearts", each("Ana Bo Cy Di", 2, 5, 0, 6), ace_of_hearts="Bo"),
            hand("no_queens", each("Ana Bo Cy Di", 1, 1, 1, 1)),
            hand("no_tricks", each("Ana Bo Cy Di", 4, 3, 3, 3)),
        ],
        (2, hand("no_queens", each("Ana Bo Cy Di", 2, 1, 1, 0))),
        3,
        id="barbu",
    ),
    pytest.param(
        {"game": "gaigel", "teams": OBEN_UNTEN},
        [
            {"winner": "Oben", "outcome": "aus"},
            {"winner": "Unten", "outcome": "gaigel"},
            {"winner": "Oben", "evidence": {"points": 101, "marriages": [20], "loser_tricks": 2}},
        ],
        (1, {"winner": "Oben", "outcome": "gaigel"}),
        3,
        id="gaigel-teams",
    ),
    pytest.param(
        {"game": "gaigel", "players": ["Ana", "Bo", "Cy"], "options": {"mode": "three"}},
        [
            {"card_points": each("Ana Bo Cy", 100, 80, 60)},
            {"card_points": each("Ana Bo Cy", 50, 120, 70)},
            {"card_points": each("Ana Bo Cy", 90, 90, 60), "cut_order": ["Bo", "Ana"]},
        ],
        (2, {"card_points": each("Ana Bo Cy", 60, 110, 70)}),
        1,
        id="gaigel-three",
    ),
    pytest.param(
        {"game": "porrazo", "players": ["Ana", "Bo", "Cy"]},
        [
            {"player": "Bo", "event": "ronda", "rank": "K"},
            {"player": "Bo", "event": "porrazo", "rank": "6", "limpia": "7"},
            {"event": "confirm"},
            {"event": "cards", "counts": each("Ana Bo Cy", 29, 13, 10)},
        ],
        (1, {"player": "Bo", "event": "ronda", "rank": "Q"}),
        4,
        id="porrazo",
    ),
    pytest.param(
        {"game": "porrazo", "teams": {"Us": ["Ana", "Cy"], "Them": ["Bo", "Di"]}},
        [
            {"player": "Ana", "event": "ronda", "rank": "K"},
            {"player": "Them", "event": "limpia", "rank": "Q"},
            {"player": "Di", "event": "rondin", "rank": "5"},
        ],
        (3, {"player": "Cy", "event": "rondin", "rank": "5"}),
        1,
        id="porrazo-teams",
    ),
]

RAMI = {"game": "rami", "players": ["Ana", "Bo", "Cy"]}


# --- talking to an app ------------------------------------------------------------------------


def start(client: FlaskClient, body: dict[str, Any], *rounds: dict[str, Any]) -> int:
    """Start a match, record these rounds and return its id."""
    response = send(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    match_id = response.json["id"]
    for entered in rounds:
        response = send(client, "POST", f"/api/matches/{match_id}/rounds", entered)
        assert response.status_code == 201, response.json
    return match_id


def played(client: FlaskClient, body: dict, rounds: list, correction: tuple, removal: int) -> int:
    """Play a match, then correct one round and remove another: its log holds all three."""
    match_id = start(client, body, *rounds)
    n, corrected = correction
    response = send(client, "PUT", f"/api/matches/{match_id}/rounds/{n}", corrected)
    assert response.status_code == 200, response.json
    response = client.delete(f"/api/matches/{match_id}/rounds/{removal}")
    assert response.status_code == 200, response.json
    return match_id


def exported(client: FlaskClient, match_id: int) -> dict[str, Any]:
    """Return a match's export document."""
    response = client.get(f"/api/matches/{match_id}/export?format=json")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.json


def history(client: FlaskClient) -> list[dict[str, Any]]:
    """Return every match's export document, through GET /api/export."""
    response = client.get("/api/export")
    assert response.status_code == 200
    return response.json


def import_(client: FlaskClient, documents: Any) -> Any:
    """Post documents to POST /api/import."""
    return send(client, "POST", "/api/import", documents)


def outcome(response: Any) -> dict[str, Any]:
    """Read an import's answer without the scorer tokens it hands out (new every time)."""
    return {key: value for key, value in response.json.items() if key != "scorer_tokens"}


def assert_refused(response: Any, field: str, *words: str) -> str:
    """Assert a 422 in the API's error shape naming `field`, with `words` in the message."""
    assert response.status_code == 422, response.get_data(as_text=True)
    body = response.json
    assert set(body) == {"error", "fields"}
    assert field in body["fields"] if field else body["fields"] == {}, body
    for word in words:
        assert word.casefold() in body["error"].casefold(), body["error"]
    return body["error"]


def nothing_stored(client: FlaskClient) -> bool:
    """Say whether the app has no match at all."""
    return client.get("/api/matches").json["total"] == 0


def without_local_ids(match: dict[str, Any]) -> dict[str, Any]:
    """A match as the API gives it, without what only this installation calls it."""
    return {key: value for key, value in match.items() if key not in ("id", "url", "html_url")}


def settings(path: Path, **extra: Any) -> dict[str, Any]:
    """The test settings of an app over the database at `path`."""
    return {
        "TESTING": True,
        "DATABASE": str(path),
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        **extra,
    }


@pytest.fixture
def elsewhere(tmp_path: Path) -> Flask:
    """Another Tablescore, over its own database file."""
    return create_app(settings(tmp_path / "elsewhere.sqlite"))


@pytest.fixture
def there(elsewhere: Flask) -> FlaskClient:
    """A client of the other Tablescore."""
    return elsewhere.test_client()


@pytest.fixture
def rami(client: FlaskClient) -> int:
    """A Rami match of three rounds (round 1 corrected, round 2 removed), then one more."""
    match_id = played(
        client,
        RAMI,
        [out("Ana", Bo=10, Cy=20), out("Bo", Ana=30, Cy=5)],
        (1, out("Ana", Bo=12, Cy=20)),
        2,
    )
    return start_more(client, match_id, out("Cy", Ana=4, Bo=6))


def start_more(client: FlaskClient, match_id: int, *rounds: dict[str, Any]) -> int:
    """Record more rounds in a match and return its id."""
    for entered in rounds:
        response = send(client, "POST", f"/api/matches/{match_id}/rounds", entered)
        assert response.status_code == 201, response.json
    return match_id


# --- the round trip ---------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "rounds", "correction", "removal"), GAMES)
def test_every_game_survives_export_and_import(
    client: FlaskClient,
    there: FlaskClient,
    body: dict,
    rounds: list,
    correction: tuple,
    removal: int,
) -> None:
    match_id = played(client, body, rounds, correction, removal)
    document = exported(client, match_id)
    assert [change["action"] for change in document["log"]] == [
        *["add"] * len(rounds),
        "correct",
        "remove",
    ]

    response = import_(there, [document])
    assert response.status_code == 200, response.json
    assert outcome(response) == {"imported": [document["uid"]], "skipped": [], "conflicts": []}

    [summary] = there.get("/api/matches").json["matches"]
    original = client.get(f"/api/matches/{match_id}").json
    copied = there.get(f"/api/matches/{summary['id']}").json
    assert without_local_ids(copied) == without_local_ids(original)
    assert copied["uid"] == document["uid"] and copied["created_at"] == document["created_at"]
    assert there.get(f"/api/matches/{summary['id']}/log").json == (
        client.get(f"/api/matches/{match_id}/log").json
    )
    assert exported(there, summary["id"]) == document
    # The history list reads the cache: it must hold the replay, as if played here.
    [cached] = client.get("/api/matches").json["matches"]
    assert without_local_ids(summary) == without_local_ids(cached)


def test_a_restored_round_survives_export_and_import(client: FlaskClient, there: FlaskClient):
    match_id = start(client, RAMI, out("Ana", Bo=10, Cy=20), out("Bo", Ana=30, Cy=5))
    removed = client.delete(f"/api/matches/{match_id}/rounds/1").json["match"]["removed"]
    client.post(f"/api/matches/{match_id}/removed/{removed[0]['id']}/restore")
    send(client, "PUT", f"/api/matches/{match_id}/rounds/1", out("Ana", Bo=12, Cy=20))
    document = exported(client, match_id)
    assert [change["action"] for change in document["log"]] == [
        "add",
        "add",
        "remove",
        "restore",
        "correct",
    ]
    assert import_(there, [document]).status_code == 200
    [summary] = there.get("/api/matches").json["matches"]
    copied = there.get(f"/api/matches/{summary['id']}").json
    assert copied["totals"] == {"Ana": 30, "Bo": 12, "Cy": 25}
    assert [(r["n"], r["version"]) for r in copied["rounds"]] == [(1, 2), (2, 1)]
    assert copied["removed"] == []
    assert exported(there, summary["id"]) == document


@pytest.mark.parametrize(("body", "rounds", "correction", "removal"), GAMES)
def test_importing_again_skips_the_match(
    client: FlaskClient,
    there: FlaskClient,
    body: dict,
    rounds: list,
    correction: tuple,
    removal: int,
) -> None:
    document = exported(client, played(client, body, rounds, correction, removal))
    assert import_(there, [document]).json["imported"] == [document["uid"]]
    assert outcome(import_(there, [document])) == {
        "imported": [],
        "skipped": [document["uid"]],
        "conflicts": [],
    }
    assert there.get("/api/matches").json["total"] == 1


def test_the_whole_history_moves_in_one_go(
    client: FlaskClient, there: FlaskClient, rami: int
) -> None:
    start(client, {"game": "belote", "teams": NOUS_EUX}, deal("Ana", "Nous", 82))
    start(client, {"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]})
    response = client.get("/api/export")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    documents = response.json
    assert [document["game"] for document in documents] == ["rami", "belote", "barbu"]

    answer = outcome(import_(there, documents))
    assert answer == {
        "imported": [document["uid"] for document in documents],
        "skipped": [],
        "conflicts": [],
    }
    assert history(there) == documents


def test_a_uid_twice_in_one_import_is_stored_once(
    client: FlaskClient, there: FlaskClient, rami: int
) -> None:
    document = exported(client, rami)
    answer = outcome(import_(there, [document, document]))
    assert answer == {
        "imported": [document["uid"]],
        "skipped": [document["uid"]],
        "conflicts": [],
    }


# --- a large import keeps out of the phones' way ---------------------------------------------


@pytest.fixture
def three(client: FlaskClient, rami: int) -> list[dict[str, Any]]:
    """The export documents of three matches: Rami, Belote and Gaigel."""
    start(client, {"game": "belote", "teams": NOUS_EUX}, deal("Ana", "Nous", 82))
    start(client, {"game": "gaigel", "teams": OBEN_UNTEN})
    return history(client)


def seen_from(app: Flask) -> dict[str, Any]:
    """What another phone sees of an app: its history, its players and its export."""
    phone = app.test_client()
    return {
        "matches": phone.get("/api/matches").json["total"],
        "players": phone.get("/api/players").json["players"],
        "export": phone.get("/api/export").json,
    }


def rows(app: Flask) -> dict[str, int]:
    """Count the rows of every table that holds a match's history."""
    db = storage.connect(app.config["DATABASE"])
    tables = ("matches", *storage.IMPORTED_ROWS, "imports", "records", "rivalries")
    counted = {table: db.execute(f"select count(*) from {table}").fetchone()[0] for table in tables}
    db.close()
    return counted


def test_an_import_is_out_of_sight_until_its_last_batch_is_in(
    there: FlaskClient, elsewhere: Flask, three: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Watched from inside: the import runs in this process, where the patches are.
    elsewhere.config["IMPORT_APART"] = False
    monkeypatch.setattr(transfer, "BATCH_SECONDS", 0)
    finish, midway = storage.finish_import, []

    def looked_first(db: Any, import_id: int) -> None:
        midway.append((seen_from(elsewhere), rows(elsewhere)))
        finish(db, import_id)

    monkeypatch.setattr(storage, "finish_import", looked_first)
    answer = import_(there, three)
    assert answer.status_code == 200, answer.json
    ((seen, stored),) = midway
    # Every match was stored, each in its own transaction, yet nobody saw any of them.
    assert stored["matches"] == 3 and stored["imports"] == 1
    assert seen == {"matches": 0, "players": [], "export": []}
    ids = answer.json["scorer_tokens"]
    assert all(there.get(f"/api/matches/{i}").status_code == 200 for i in ids)
    assert seen_from(elsewhere)["matches"] == 3
    assert rows(elsewhere)["imports"] == 0
    ana = there.get("/api/players/Ana").json
    assert ana["matches_total"] == 3


def test_an_import_failing_on_the_way_leaves_nothing(
    client: FlaskClient,
    there: FlaskClient,
    elsewhere: Flask,
    three: list,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The disk fills inside this process, where the patch is.
    elsewhere.config["IMPORT_APART"] = False
    import_(there, three[:1])
    before = rows(elsewhere)
    monkeypatch.setattr(transfer, "BATCH_SECONDS", 0)
    issue, issued = transfer.access.issue, []

    def fills_the_disk(db: Any, match_id: int, device: str) -> str:
        issued.append(match_id)
        if len(issued) == 2:
            raise storage.Unavailable("database or disk is full")
        return issue(db, match_id, device)

    monkeypatch.setattr(transfer.access, "issue", fills_the_disk)
    documents = [*three[1:], {**three[1], "uid": "one-more"}]
    answer = import_(there, documents)
    assert answer.status_code == 503 and "full" in answer.json["error"]
    # The first batch was stored before the disk filled: it went with the rest.
    assert rows(elsewhere) == before
    assert seen_from(elsewhere)["export"] == three[:1]
    monkeypatch.setattr(transfer.access, "issue", issue)
    assert outcome(import_(there, documents))["imported"] == [d["uid"] for d in documents]


DYING_IMPORT = """
import json, os, signal, sys
from scorebook import storage, transfer

db = storage.connect(sys.argv[1])
incoming = transfer.read_history(json.loads(sys.argv[2]))
with storage.writing(db):
    import_id = storage.begin_import(db, storage.now_utc())
    transfer.store_match(db, incoming[0], import_id)
print("stored", flush=True)
if sys.argv[3] == "die":
    os.kill(os.getpid(), signal.SIGKILL)
sys.stdin.read()
"""


def importing_apart(database: str, documents: list, then: str) -> subprocess.Popen:
    """Start an import in a process of its own that stores one match out of sight, then dies
    (kill -9) or waits for its standard input to close."""
    process = subprocess.Popen(
        [sys.executable, "-c", DYING_IMPORT, database, json.dumps(documents), then],
        cwd=Path(__file__).resolve().parent.parent,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline() == "stored\n"
    return process


def test_an_import_under_way_in_another_process_holds_its_matches(
    there: FlaskClient, elsewhere: Flask, three: list
) -> None:
    with importing_apart(elsewhere.config["DATABASE"], three[:1], "wait") as process:
        # Whether that match will be stored is not known yet.
        answer = import_(there, three)
        assert answer.status_code == 409, answer.json
        assert "another import" in answer.json["error"].casefold()
        assert rows(elsewhere)["matches"] == 1
        page = there.post(
            "/import", data={"document": (io.BytesIO(json.dumps(three).encode()), "x.json")}
        )
        assert page.status_code == 409 and "Another import" in page.get_data(as_text=True)
        process.stdin.close()
        assert process.wait(timeout=30) == 0


def test_a_retry_after_the_importing_process_was_killed_succeeds_at_once(
    there: FlaskClient, elsewhere: Flask, three: list
) -> None:
    with importing_apart(elsewhere.config["DATABASE"], three[:1], "die") as process:
        assert process.wait(timeout=30) == -signal.SIGKILL
    assert rows(elsewhere)["imports"] == 1 and rows(elsewhere)["matches"] == 1
    # No timer to wait for: its lock went with it, and so do its hidden rows.
    assert outcome(import_(there, three))["imported"] == [d["uid"] for d in three]
    assert rows(elsewhere)["imports"] == 0 and rows(elsewhere)["matches"] == 3
    assert not list(Path(elsewhere.config["DATABASE"]).parent.glob("*.import-*.lock"))


def test_what_a_killed_import_left_is_dropped_when_the_server_starts(
    elsewhere: Flask, three: list
) -> None:
    database = elsewhere.config["DATABASE"]
    with importing_apart(database, three[:1], "die") as process:
        assert process.wait(timeout=30) == -signal.SIGKILL
    create_app(settings(database))
    assert rows(elsewhere)["imports"] == 0 and rows(elsewhere)["matches"] == 0


def test_the_log_of_a_stored_match_stays_append_only_after_an_import(
    there: FlaskClient, elsewhere: Flask, three: list
) -> None:
    import_(there, three)
    db = storage.connect(elsewhere.config["DATABASE"])
    with pytest.raises(storage.Duplicate, match="append-only"):
        db.execute("delete from changes")
    db.close()


def test_the_players_seat_the_teams_whatever_the_order_of_the_keys(
    client: FlaskClient, there: FlaskClient
) -> None:
    document = exported(client, start(client, {"game": "belote", "teams": NOUS_EUX}))
    document["teams"] = {"Eux": NOUS_EUX["Eux"], "Nous": NOUS_EUX["Nous"]}
    assert import_(there, [document]).status_code == 200
    [match] = there.get("/api/matches").json["matches"]
    assert there.get(f"/api/matches/{match['id']}").json["players"] == ["Ana", "Bo", "Cy", "Di"]


# --- what is refused --------------------------------------------------------------------------


def tamper(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """Return a copy of the document with the value at a dotted path replaced."""
    changed = copy.deepcopy(document)
    *parents, last = path.split(".")
    target: Any = changed
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    target[int(last) if isinstance(target, list) else last] = value
    return changed


@pytest.mark.parametrize(
    ("path", "value", "field", "words"),
    [
        pytest.param("rounds.1.scores.Bo", 7, "1.rounds.1.scores", "tampered", id="a-score"),
        pytest.param("rounds.0.totals.Cy", 0, "1.rounds.0.totals", "tampered", id="a-total"),
        pytest.param("totals.Ana", 0, "1.totals", "tampered", id="the-totals"),
        pytest.param("winner", "Ana", "1.winner", "tampered", id="the-winner"),
        pytest.param("rounds", [], "1.rounds", "tampered", id="rounds-left-out"),
        pytest.param(
            "round_records.0.input.hands.Bo.points", 2, "1.round_records.0.input", "", id="record"
        ),
        pytest.param(
            "round_records.1.removed_at", None, "1.round_records.1.removed_at", "", id="rm"
        ),
        pytest.param("log.3.replaced.winner", "Cy", "1.log.3.replaced", "change 4", id="replaced"),
        pytest.param("log.1.n", 1, "1.log.1.n", "change 2", id="log-n"),
        pytest.param("log.2.round_ref", 1, "1.log.2.round_ref", "change 3", id="log-ref"),
        pytest.param("log.0.at", "yesterday", "1.log.0.at", "UTC time", id="log-time"),
        pytest.param(
            "log.4.action",
            "undo",
            "1.log.4.action",
            "add, correct, remove, restore, note or details",
            id="act",
        ),
    ],
)
def test_a_changed_document_is_refused_and_nothing_is_imported(
    client: FlaskClient,
    there: FlaskClient,
    rami: int,
    path: str,
    value: Any,
    field: str,
    words: str,
) -> None:
    fine = exported(client, start(client, {"game": "rami", "players": ["Di", "Ed"]}))
    # An edited log breaks its chain first (tests/test_chain.py): made before the chain, a
    # document is checked by what its log says.
    document = (
        unchained(exported(client, rami)) if path.startswith("log.") else exported(client, rami)
    )
    changed = tamper(document, path, value)
    message = assert_refused(import_(there, [fine, changed]), field, changed["uid"], words)
    assert "nothing was imported" in message.casefold()
    assert nothing_stored(there)


def test_a_tampered_score_names_the_match_and_the_round(
    client: FlaskClient, there: FlaskClient, rami: int
) -> None:
    changed = tamper(exported(client, rami), "rounds.1.scores.Bo", 7)
    assert import_(there, [changed]).json["error"] == (
        f"Match {changed['uid']}: This document was tampered with: round 2 replays to scores "
        '{"Ana": 4, "Bo": 6, "Cy": 0}, but the document says {"Ana": 4, "Bo": 7, "Cy": 0}. '
        "Export it again from the Tablescore it came from. Nothing was imported."
    )


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        pytest.param(lambda d: d[0], "", "JSON array", id="not-an-array"),
        pytest.param(lambda d: ["rami"], "0.format", "not a Tablescore match", id="a-string"),
        pytest.param(lambda d: [d[0] | {"format": "csv"}], "0.format", "format", id="format"),
        pytest.param(lambda d: [d[0] | {"version": 2}], "0.version", "version 2", id="version"),
        pytest.param(lambda d: [d[0] | {"uid": ""}], "0.uid", "uid", id="uid"),
        pytest.param(lambda d: [d[0] | {"game": "poker"}], "0.game", "Choose a game", id="game"),
        pytest.param(
            lambda d: [d[0] | {"options": {"target": "high"}}],
            "0.options.target",
            "whole number",
            id="options",
        ),
        pytest.param(lambda d: [d[0] | {"players": ["Ana"]}], "0.players", "2 to 6", id="seats"),
        pytest.param(
            lambda d: [d[0] | {"created_at": "2024-13-01"}], "0.created_at", "UTC time", id="time"
        ),
        pytest.param(lambda d: [d[0] | {"log": {}}], "0.log", "list of changes", id="log"),
        pytest.param(
            lambda d: [tamper(unchained(d[0]), "log.0.input.outcome", "won")],
            "0.log.0.input.outcome",
            "change 1 of the log",
            id="round-input",
        ),
        pytest.param(
            lambda d: [tamper(unchained(d[0]), "log.0.input.winner", "Zed")],
            "0.log.0.input.winner",
            "not a player",
            id="round-player",
        ),
        pytest.param(
            lambda d: [d[0] | {"round_records": []}], "0.round_records", "round_records", id="rec"
        ),
    ],
)
def test_malformed_documents_are_refused(
    client: FlaskClient, there: FlaskClient, rami: int, change: Any, field: str, words: str
) -> None:
    body = change([exported(client, rami)])
    message = assert_refused(import_(there, body), field, words)
    assert message.endswith("Nothing was imported.")
    assert nothing_stored(there)


def test_players_out_of_their_seats_are_refused(client: FlaskClient, there: FlaskClient) -> None:
    document = exported(client, start(client, {"game": "belote", "teams": NOUS_EUX}))
    document["players"] = ["Ana", "Cy", "Bo", "Di"]
    assert_refused(import_(there, [document]), "0.players", "as they sit: Ana, Bo, Cy, Di")
    assert nothing_stored(there)


def test_an_impossible_replay_is_refused(client: FlaskClient, there: FlaskClient) -> None:
    finished = start(client, {"game": "rami", "players": ["Ana", "Bo"], "options": {"target": 50}})
    start_more(client, finished, out("Ana", Bo=60))
    # A document made before the chain: a round slipped into a chained one breaks its chain.
    document = unchained(exported(client, finished))
    # One more round, logged and recorded as if it had been played after the end.
    late = {**document["log"][0], "n": 2, "round_ref": 1}
    document["log"].append(late)
    document["round_records"].append({**document["round_records"][0], "ref": 1})
    assert_refused(import_(there, [document]), "0.log", "ends after round 1")
    assert nothing_stored(there)


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        pytest.param({"data": "[]", "content_type": "text/plain"}, 415, id="text"),
        pytest.param({"data": "[{", "content_type": "application/json"}, 400, id="bad-json"),
    ],
)
def test_import_bodies_that_are_not_json(there: FlaskClient, kwargs: dict, status: int) -> None:
    response = there.post("/api/import", **kwargs)
    assert response.status_code == status
    assert set(response.json) == {"error", "fields"}


def test_a_history_may_be_far_larger_than_a_round(
    client: FlaskClient, there: FlaskClient, rami: int
) -> None:
    document = exported(client, rami)
    many = [document | {"uid": f"copy-{i}"} for i in range(40)]
    content = json.dumps(many).encode()
    assert len(content) > 64 * 1024
    assert upload(there, content).status_code == 302
    assert there.get("/api/matches").json["total"] == 40
    assert import_(there, many).json["skipped"] == [f"copy-{i}" for i in range(40)]


def test_an_empty_import_imports_nothing(there: FlaskClient) -> None:
    response = import_(there, [])
    assert (response.status_code, outcome(response)) == (
        200,
        {"imported": [], "skipped": [], "conflicts": []},
    )


# --- one match: JSON and CSV ------------------------------------------------------------------


def test_the_json_export_of_a_match(client: FlaskClient, rami: int) -> None:
    response = client.get(f"/api/matches/{rami}/export?format=json")
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="tablescore-match-{rami}.json"'
    )
    document = response.json
    match = client.get(f"/api/matches/{rami}").json
    assert list(json.loads(response.get_data(as_text=True))) == [
        "format",
        "version",
        "uid",
        "game",
        "options",
        "players",
        "teams",
        "created_at",
        "note",
        "place",
        "played_at",
        "abandoned_at",
        "rounds",
        "totals",
        "status",
        "winner",
        "log",
        "log_head",
        "round_records",
    ]
    assert document["abandoned_at"] is None
    assert (document["format"], document["version"]) == ("tablescore-match", 1)
    for key in ("uid", "game", "options", "players", "teams", "created_at", "totals"):
        assert document[key] == match[key], key
    # Round ids are this installation's own; everything else about a round travels.
    assert document["rounds"] == [
        {key: value for key, value in played.items() if key != "id"} for played in match["rounds"]
    ]
    assert (document["status"], document["winner"]) == (match["status"], match["winner"])
    log = client.get(f"/api/matches/{rami}/log").json["changes"]
    # The export's log is the log itself, its chain included.
    assert document["log"] == log
    assert [change["round_ref"] for change in document["log"]] == [0, 1, 0, 1, 2]
    assert document["log_head"] == log[-1]["hash"]
    records = document["round_records"]
    assert [record["ref"] for record in records] == [0, 1, 2]
    assert set(records[0]) == {"ref", "input", "entered_at", "corrected_at", "removed_at"}
    assert records[0]["input"] == out("Ana", Bo=12, Cy=20)
    assert records[0]["corrected_at"] and records[0]["removed_at"] is None
    assert records[1]["input"] == out("Bo", Ana=30, Cy=5)
    assert records[1]["removed_at"] == document["log"][3]["at"]
    assert [r["input"] for r in document["rounds"]] == [records[0]["input"], records[2]["input"]]


def test_the_csv_score_sheet_of_a_rami_match(client: FlaskClient) -> None:
    match_id = start(client, RAMI, out("Ana", Bo=10, Cy=20), out("Bo", Ana=30, Cy=5))
    response = client.get(f"/api/matches/{match_id}/export?format=csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="tablescore-match-{match_id}.csv"'
    )
    assert response.get_data(as_text=True) == (
        "n,Ana score,Ana total,Bo score,Bo total,Cy score,Cy total,note\r\n"
        "1,0,0,10,10,20,20,\r\n"
        "2,30,30,0,10,5,25,\r\n"
    )


def test_the_csv_score_sheet_of_a_team_game_has_a_column_pair_per_team(
    client: FlaskClient,
) -> None:
    match_id = start(
        client, {"game": "gaigel", "teams": OBEN_UNTEN}, {"winner": "Oben", "outcome": "aus"}
    )
    text = client.get(f"/api/matches/{match_id}/export?format=csv").get_data(as_text=True)
    assert text == "n,Oben score,Oben total,Unten score,Unten total,note\r\n1,0,0,1,1,\r\n"


def test_a_match_without_rounds_exports_a_header_only(client: FlaskClient) -> None:
    match_id = start(client, {"game": "rami", "players": ["Ana", "Bo"]})
    text = client.get(f"/api/matches/{match_id}/export?format=csv").get_data(as_text=True)
    assert text == "n,Ana score,Ana total,Bo score,Bo total,note\r\n"
    assert exported(client, match_id)["rounds"] == []


@pytest.mark.parametrize("kind", ["json", "csv"])
def test_exporting_no_match_is_404(client: FlaskClient, kind: str) -> None:
    response = client.get(f"/api/matches/999/export?format={kind}")
    assert response.status_code == 404
    assert response.json["error"] == "There is no match 999."


def test_an_unknown_export_format_is_422(client: FlaskClient, rami: int) -> None:
    assert_refused(client.get(f"/api/matches/{rami}/export?format=xml"), "format", "format=csv")


def test_the_export_is_json_when_no_format_is_given(client: FlaskClient, rami: int) -> None:
    assert client.get(f"/api/matches/{rami}/export").json == exported(client, rami)


def test_openapi_describes_export_and_import(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").json
    validate(document)
    paths = document["paths"]
    assert set(paths["/api/matches/{match_id}/export"]) == {"get"}
    assert set(paths["/api/export"]) == {"get"}
    assert set(paths["/api/import"]) == {"post"}


# --- the pages --------------------------------------------------------------------------------


def upload(client: FlaskClient, content: bytes, filename: str = "export.json") -> Any:
    """Send a file through the import page's form."""
    return client.post("/import", data={"document": (io.BytesIO(content), filename)})


def test_the_home_page_offers_the_export_and_the_import(client: FlaskClient) -> None:
    page = parse(client.get("/"))
    links = [a.attrs["href"] for a in page.find_all("a")]
    assert "/api/export" in links
    assert "/import" in links


def test_the_match_page_links_its_exports(client: FlaskClient, rami: int) -> None:
    page = parse(client.get(f"/matches/{rami}"))
    line = page.find("p", "exports")
    assert line.text() == "Export: CSV · JSON"
    assert [a.attrs["href"] for a in line.find_all("a")] == [
        f"/api/matches/{rami}/export?format=csv",
        f"/api/matches/{rami}/export?format=json",
    ]


def test_the_import_page_shows_a_form_for_one_file(there: FlaskClient) -> None:
    page = parse(there.get("/import"))
    form = page.find("form", method="post")
    assert form.attrs["enctype"] == "multipart/form-data"
    assert form.find("input", type="file", name="document")
    assert form.find("input", type="hidden", name="csrf_token")


def test_the_import_page_imports_a_file_then_skips_it(
    client: FlaskClient, there: FlaskClient, rami: int
) -> None:
    content = client.get("/api/export").get_data()
    response = upload(there, content)
    assert response.status_code == 302
    assert response.headers["Location"] == "/history"
    page = parse(there.get("/history"))
    assert page.find("p", "flash").text() == "Imported 1 match; skipped 0 matches already here."
    assert len(page.find_all("li", "match-card")) == 1

    upload(there, content)
    page = parse(there.get("/history"))
    assert page.find("p", "flash").text() == "Imported 0 matches; skipped 1 match already here."


@pytest.mark.parametrize(
    ("content", "filename", "words"),
    [
        pytest.param(b"", "", "Choose the export file", id="no-file"),
        pytest.param(b"n,Ana score\r\n", "sheet.csv", "not JSON", id="csv"),
        pytest.param(b"\xff\xfe\xfa", "export.json", "not text", id="binary"),
        pytest.param(b'{"format": "tablescore-match"}', "one.json", "JSON array", id="object"),
    ],
)
def test_the_import_page_refuses_a_file_it_cannot_read(
    there: FlaskClient, content: bytes, filename: str, words: str
) -> None:
    response = upload(there, content, filename)
    assert response.status_code == 422
    [message] = alerts(parse(response))
    assert words in message
    assert nothing_stored(there)


def test_the_import_page_refuses_a_tampered_file_and_imports_nothing(
    client: FlaskClient, there: FlaskClient, rami: int
) -> None:
    start(client, {"game": "rami", "players": ["Di", "Ed"]})
    documents = history(client)
    documents[0] = tamper(documents[0], "rounds.0.scores.Bo", 0)
    response = upload(there, json.dumps(documents).encode())
    assert response.status_code == 422
    [message] = alerts(parse(response))
    assert "tampered" in message and documents[0]["uid"] in message
    assert "Nothing was imported." in message
    assert nothing_stored(there)


def test_the_import_form_needs_its_csrf_token_and_the_api_does_not(
    tmp_path: Path, client: FlaskClient, rami: int
) -> None:
    guarded = create_app(settings(tmp_path / "guarded.sqlite", WTF_CSRF_ENABLED=True))
    browser = guarded.test_client()
    content = client.get("/api/export").get_data()
    assert upload(browser, content).status_code == 400
    token = parse(browser.get("/import")).find("input", name="csrf_token").attrs["value"]
    data = {"document": (io.BytesIO(content), "export.json"), "csrf_token": token}
    assert browser.post("/import", data=data).status_code == 302
    other = create_app(settings(tmp_path / "other.sqlite", WTF_CSRF_ENABLED=True))
    assert import_(other.test_client(), json.loads(content)).status_code == 200


# --- the command line -------------------------------------------------------------------------


def test_flask_export_then_import_elsewhere(
    app: Flask, client: FlaskClient, elsewhere: Flask, rami: int, tmp_path: Path
) -> None:
    start(client, {"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]})
    path = tmp_path / "history.json"
    result = app.test_cli_runner().invoke(args=["export", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output == f"Exported 2 matches to {path}.\n"
    assert json.loads(path.read_text()) == history(client)

    runner = elsewhere.test_cli_runner()
    result = runner.invoke(args=["import", str(path)])
    summary, *tokens = result.output.splitlines()
    assert (result.exit_code, summary) == (0, "Imported 2 matches; skipped 0 matches already here.")
    assert [line.split(": scorer token ")[0] for line in tokens] == ["Match 1", "Match 2"]
    assert history(elsewhere.test_client()) == history(client)
    result = runner.invoke(args=["import", str(path)])
    assert result.output == "Imported 0 matches; skipped 2 matches already here.\n"


def test_flask_import_refuses_a_tampered_file(
    client: FlaskClient, elsewhere: Flask, rami: int, tmp_path: Path
) -> None:
    path = tmp_path / "tampered.json"
    changed = tamper(exported(client, rami), "totals.Bo", 1)
    path.write_text(json.dumps([changed]))
    result = elsewhere.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code != 0
    assert "tampered" in result.output and changed["uid"] in result.output
    assert nothing_stored(elsewhere.test_client())


def test_flask_import_refuses_a_file_that_is_not_json(elsewhere: Flask, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Ana won")
    result = elsewhere.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert "This file is not JSON" in result.output


def test_flask_backup_copies_the_database(
    app: Flask, client: FlaskClient, rami: int, tmp_path: Path
) -> None:
    start(client, {"game": "gaigel", "teams": OBEN_UNTEN}, {"winner": "Oben", "outcome": "aus"})
    path = tmp_path / "backup.sqlite"
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output == f"Backed up {app.config['DATABASE']} to {path}.\n"
    copied = storage.connect(str(path))
    original = storage.connect(app.config["DATABASE"])
    try:
        assert copied.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert transfer.export_history(copied) == transfer.export_history(original)
        assert len(transfer.export_history(copied)) == 2
    finally:
        copied.close()
        original.close()


def test_flask_backup_refuses_a_file_that_is_not_a_database(app: Flask, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database, but long enough to have a header " * 10)
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 1
    assert f"Could not back up into {path}" in result.output


def test_whoever_imports_a_match_may_score_it(
    client: FlaskClient, there: FlaskClient, rami: int
) -> None:
    document = exported(client, rami)
    tokens = import_(there, [document]).json["scorer_tokens"]
    [(match_id, token)] = tokens.items()
    assert document["uid"] not in token
    first = document["rounds"][0]["input"]
    url = f"/api/matches/{match_id}/rounds/1"
    assert send(there, "PUT", url, first).status_code == 403
    signed = there.put(url, json=first, headers={"Authorization": f"Bearer {token}"})
    assert signed.status_code == 200
    assert signed.json["match"]["totals"] == document["totals"]


def test_an_export_is_one_moment_of_a_match_being_played(
    app: Flask, client: FlaskClient, rami: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = storage.connect(app.config["DATABASE"])
    other = storage.connect(app.config["DATABASE"])
    read, recorded = storage.round_records, []

    def then_a_round_arrives(db: Any, match_id: int) -> Any:
        rows = read(db, match_id)
        if not recorded:
            # Another phone records a round between the export's reads.
            recorded.append(matches.add_round(other, match_id, out("Ana", Bo=5, Cy=7)))
        return rows

    monkeypatch.setattr(storage, "round_records", then_a_round_arrives)
    document = transfer.export_match(db, rami)
    assert recorded
    assert len(document["log"]) == len(document["round_records"]) + 2  # a correction, a removal
    assert len(document["rounds"]) == 2
    monkeypatch.setattr(storage, "round_records", read)
    assert len(transfer.export_match(db, rami)["rounds"]) == 3
    db.close()
    other.close()


# --- an import grants nothing over a match already here ---------------------------------------


def scorers_of(app: Flask, match_id: int) -> list[tuple[Any, ...]]:
    """Every scorer token a match was ever given (their digests and phones)."""
    db = storage.connect(app.config["DATABASE"])
    try:
        return db.execute("select * from scorers where match_id = ?", [match_id]).fetchall()
    finally:
        db.close()


@pytest.fixture
def here_twice(client: FlaskClient, rami: int) -> list[dict[str, Any]]:
    """Two documents under the uid of the match here: its own history, and another one."""
    mine = exported(client, rami)
    other = start(client, {"game": "rami", "players": ["Di", "Ed"]}, out("Di", Ed=9))
    return [mine, exported(client, other) | {"uid": mine["uid"]}]


def test_the_import_api_gives_no_token_for_a_match_here(
    app: Flask, client: FlaskClient, rami: int, here_twice: list
) -> None:
    tokens = scorers_of(app, rami)
    importer = app.test_client()
    answer = import_(importer, here_twice).json
    assert (answer["skipped"], answer["conflicts"]) == (
        [here_twice[0]["uid"]],
        [here_twice[0]["uid"]],
    )
    assert answer["imported"] == [] and answer["scorer_tokens"] == {}
    assert scorers_of(app, rami) == tokens
    assert (
        send(importer, "POST", f"/api/matches/{rami}/rounds", out("Bo", Ana=3)).status_code == 403
    )


def test_the_import_page_keeps_no_token_for_a_match_here(
    app: Flask, client: FlaskClient, rami: int, here_twice: list
) -> None:
    tokens = scorers_of(app, rami)
    importer = app.test_client()
    response = upload(importer, json.dumps(here_twice).encode())
    assert response.status_code == 302
    with importer.session_transaction() as session:
        assert session.get("scorer_tokens", {}) == {}
    assert scorers_of(app, rami) == tokens
    scoring = {"action": f"/matches/{rami}/rounds"}
    assert parse(client.get(f"/matches/{rami}")).find("form", **scoring) is not None
    assert parse(importer.get(f"/matches/{rami}")).find("form", **scoring) is None


def test_flask_import_prints_no_token_for_a_match_here(
    app: Flask, rami: int, here_twice: list, tmp_path: Path
) -> None:
    tokens = scorers_of(app, rami)
    path = tmp_path / "here.json"
    path.write_text(json.dumps(here_twice))
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert "scorer token" not in result.output and "already here" in result.output
    assert scorers_of(app, rami) == tokens


# --- what one phone may ask of a server ----------------------------------------------------------


def test_without_a_passcode_each_phone_imports_so_many_megabytes_an_hour(
    tmp_path: Path, client: FlaskClient, rami: int
) -> None:
    documents = history(client)
    guarded = create_app(settings(tmp_path / "open.sqlite", IMPORT_ALLOWANCE="2 per hour"))
    phone = guarded.test_client()
    assert import_(phone, documents).status_code == 200
    assert import_(phone, documents).status_code == 200
    before = rows(guarded)
    refused = import_(phone, documents)
    assert refused.status_code == 429
    assert refused.json["error"] == (
        "Too many imports from this phone: without a passcode this Tablescore takes 2 MB of "
        "imports from each every 60 minutes. Wait a while, or ask whoever runs it to set a "
        "passcode."
    )
    page = phone.post("/import", data={"document": (io.BytesIO(b"[]"), "x.json")})
    assert page.status_code == 429 and "Too many imports" in page.get_data(as_text=True)
    assert rows(guarded) == before
    # Another phone has its own allowance.
    other = guarded.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert import_(other, documents).status_code == 200


def test_an_import_counts_a_megabyte_for_each_it_sends(
    tmp_path: Path, client: FlaskClient, rami: int
) -> None:
    guarded = create_app(settings(tmp_path / "open.sqlite", IMPORT_ALLOWANCE="3 per hour"))
    phone = guarded.test_client()
    # Two megabytes and a bit of spaces around an empty list: three megabytes started.
    large = b"[" + b" " * (2 * 2**20 + 1) + b"]"
    answer = phone.post("/api/import", data=large, content_type="application/json")
    assert answer.status_code == 200 and answer.json["imported"] == []
    assert import_(phone, []).status_code == 429


def test_with_a_passcode_its_holder_imports_without_a_count(
    tmp_path: Path, client: FlaskClient, rami: int
) -> None:
    documents = history(client)
    locked = create_app(
        settings(tmp_path / "locked.sqlite", IMPORT_ALLOWANCE="1 per hour", PASSCODE="club")
    )
    phone = locked.test_client()
    passcode = {"X-Tablescore-Passcode": "club"}
    answers = [
        phone.post("/api/import", json=documents, headers=passcode).status_code for _ in range(3)
    ]
    assert answers == [200, 200, 200]


def test_a_third_export_written_at_once_is_told_when_to_come_back(client: FlaskClient) -> None:
    for _ in range(web_transfer.EXPORTS_AT_ONCE):
        assert web_transfer.exporting.acquire(blocking=False)
    try:
        busy = client.get("/api/export")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "10"
        assert busy.json["error"].startswith("Other exports are being written right now.")
    finally:
        for _ in range(web_transfer.EXPORTS_AT_ONCE):
            web_transfer.exporting.release()
    assert client.get("/api/export").status_code == 200
