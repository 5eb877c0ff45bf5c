"""Fuzzing the JSON API from its own OpenAPI document with Schemathesis (v4).

Every documented operation is called with generated requests, valid and invalid, against an app
over a temporary database seeded with a match of each game (and each way of seating one), so
`{match_id}` and `{n}` mostly reach real matches and rounds. Every answer is checked: no 5xx
(API.md: "A 500 is a bug"), every status it gives is one the document lists, with the content
type, headers and body the document promises.

The budget is fixed and derandomized (the same requests every run): the file runs in well under
a minute. Alongside the fuzzing: the document's references all resolve, ids and pages too large
for SQLite are answered without a 5xx, and real rounds of every game, recorded, corrected and
removed, answer with the documented bodies.
"""

from __future__ import annotations

import atexit
import copy
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app import create_app

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
EXAMPLES = 25
OPENAPI = "/api/openapi.json"


def make_app(database: Path) -> Flask:
    """Build the app over one SQLite file, as the fuzzing brief and conftest.py do."""
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(database),
            "SECRET_KEY": "x",
            "WTF_CSRF_ENABLED": False,
        }
    )


# --- one match of each game, each with rounds for PUT and DELETE to hit ---------------------

SEEDS: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [
    (
        {"game": "rami", "players": ["Ana", "Bo", "Cy"]},
        [
            {
                "outcome": "out",
                "winner": "Ana",
                "hands": {
                    "Bo": {"cards": ["A", "JK", "5"], "melded": True},
                    "Cy": {"points": 18, "melded": False},
                },
            },
            {
                "outcome": "blocked",
                "hands": {
                    "Ana": {"points": 4, "melded": True},
                    "Bo": {"points": 9, "melded": True},
                    "Cy": {"cards": ["2"], "melded": True},
                },
            },
        ],
    ),
    (
        {"game": "belote", "teams": {"NS": ["North", "South"], "EW": ["East", "West"]}},
        [
            {"taker": "South", "trump": "hearts", "points": {"NS": 82}, "last_trick": "NS"},
            {"taker": "East", "trump": "no_trump", "points": {"EW": 71}, "last_trick": "NS"},
        ],
    ),
    (
        {
            "game": "belote",
            "teams": {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]},
            "options": {"variant": "coinche", "rules": "official"},
        },
        [
            {
                "taker": "Ana",
                "trump": "spades",
                "points": {"Nous": 98},
                "last_trick": "Nous",
                "contract": 100,
                "coinche": "coinche",
            },
            {
                "taker": "Bo",
                "trump": "all_trump",
                "points": {"Nous": 80},
                "last_trick": "Eux",
                "contract": 80,
            },
        ],
    ),
    (
        {"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]},
        [
            {
                "contract": "no_queens",
                "taken": {"Ana": 1, "Bo": 2, "Cy": 0, "Di": 1},
                "doubles": [["Bo", "Ana"], ["Ana", "Bo"], ["Cy", "Di"]],
            },
            {"contract": "barbu", "taken": {"king_of_hearts": "Cy"}, "doubles": [["Di", "Ana"]]},
        ],
    ),
    (
        {"game": "gaigel", "teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}},
        [
            {"winner": "Oben", "outcome": "aus"},
            {"winner": "Unten", "evidence": {"points": 96, "marriages": [20], "loser_tricks": 2}},
        ],
    ),
    (
        {"game": "gaigel", "players": ["Ana", "Bo", "Cy"], "options": {"mode": "three"}},
        [
            {"card_points": {"Ana": 120, "Bo": 80, "Cy": 40}},
            {"card_points": {"Ana": 100, "Bo": 100, "Cy": 40}, "cut_order": ["Bo", "Ana"]},
        ],
    ),
    (
        {"game": "porrazo", "players": ["Ana", "Bo", "Cy"]},
        [
            {"player": "Bo", "event": "porrazo", "rank": "6", "limpia": "7"},
            {"event": "confirm"},
            {"event": "cards", "counts": {"Ana": 20, "Bo": 20, "Cy": 12}},
        ],
    ),
    (
        {"game": "porrazo", "teams": {"Us": ["Ana", "Cy"], "Them": ["Bo", "Di"]}},
        [
            {"player": "Them", "event": "tendido", "pairs": [["2", "4"], ["7", "3"]]},
            {"event": "rondas", "declared": {"Ana": ["7", "7"], "Bo": ["5", "5", "5"]}},
        ],
    ),
]


def authorised(token: str | None) -> dict[str, str]:
    """The header that lets a phone change a match: its scorer token, once matches have one."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def seed(app: Flask) -> dict[int, str | None]:
    """Start the seed matches and record their rounds; return each one's id and scorer token."""
    client = app.test_client()
    tokens = {}
    for match, rounds in SEEDS:
        response = client.post("/api/matches", json=match)
        assert response.status_code == 201, response.json
        match_id, token = response.json["id"], response.json.get("scorer_token")
        for data in rounds:
            posted = client.post(
                f"/api/matches/{match_id}/rounds", json=data, headers=authorised(token)
            )
            assert posted.status_code == 201, (match, data, posted.json)
        tokens[match_id] = token
    return tokens


def references(node: Any) -> Iterator[str]:
    """Yield every `$ref` in a JSON document."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def missing_components(document: dict[str, Any]) -> list[str]:
    """Name the `#/components/schemas/…` a document points at but does not define."""
    defined = document.get("components", {}).get("schemas", {})
    prefix = "#/components/schemas/"
    return sorted(
        {ref[len(prefix) :] for ref in references(document) if ref.startswith(prefix)}
        - set(defined)
    )


# --- the app under fuzzing ----------------------------------------------------------------------

_folder = Path(tempfile.mkdtemp(prefix="tablescore-fuzz-"))
atexit.register(shutil.rmtree, _folder, ignore_errors=True)
APP = make_app(_folder / "fuzz.sqlite")
TOKENS = seed(APP) | seed(APP)
SEEDED = list(TOKENS)[: len(SEEDS)]
REMOVABLE = list(TOKENS)[len(SEEDS) :]
"""DELETE gets matches of its own, so the rounds it removes stay there for PUT to correct."""
NAMES = ["Ana", "bo", "North", "Oben", "Nobody"]
SERVED = APP.test_client().get(OPENAPI).json


def fuzzable(document: dict[str, Any]) -> dict[str, Any]:
    """The served document with any schema it points at but lacks stood in by a bare object,
    so the operations that use it are still fuzzed (the gap itself fails its own test below)."""
    patched = copy.deepcopy(document)
    for name in missing_components(patched):
        patched["components"]["schemas"][name] = {"type": "object"}
    return patched


schema = schemathesis.openapi.from_dict(fuzzable(SERVED))
schema.app = APP  # as schemathesis.openapi.from_wsgi does: requests go to the app in process
schema.location = OPENAPI


def whole(value: Any) -> int | None:
    """Read a path parameter as drawn: an int, or (in the coverage phase) its digits."""
    if type(value) is int:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


def aim(case: schemathesis.Case) -> None:
    """Aim most generated ids at the seeded matches and their first rounds, mostly with the
    match's scorer token; keep some as drawn (unknown, negative or huge ids must be answered
    too, and changes without a token). The body's length picks the match too: the coverage
    phase draws one id for all its bodies, which then reach every game."""
    path = case.path_parameters
    if not path:
        return
    match_id = whole(path.get("match_id"))
    if match_id is not None and match_id % 8 != 7:
        pool = REMOVABLE if case.method.upper() == "DELETE" else SEEDED
        path["match_id"] = pool[(match_id + len(str(case.body))) % len(pool)]
        if match_id % 4 != 3:
            if case.headers is None:
                case.headers = {}
            case.headers.update(authorised(TOKENS[path["match_id"]]))
    n = whole(path.get("n"))
    if n is not None and n % 5 != 4:
        path["n"] = (n - 1) % 3 + 1
    name = path.get("name")
    if isinstance(name, str) and len(name) % 3 != 2:
        path["name"] = NAMES[len(name) % len(NAMES)]


FUZZING = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": list(HealthCheck),
}
IMPORT = "/api/import"
"""Whole export documents are slow to generate: the import gets a smaller budget."""


def call_and_check(case: schemathesis.Case) -> None:
    """Send one generated request and check its answer: no 5xx, documented bodies as documented."""
    aim(case)
    # Schemathesis asks for gzip but reads the body as sent: ask for it plain. Compressed
    # answers are checked against plain ones in tests/test_assets.py.
    case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})


@schema.exclude(path=IMPORT).parametrize()
@settings(max_examples=EXAMPLES, **FUZZING)
def test_api_answers_without_5xx_and_as_documented(case: schemathesis.Case) -> None:
    call_and_check(case)


@schema.include(path=IMPORT).parametrize()
@settings(max_examples=8, **FUZZING)
def test_import_answers_without_5xx_and_as_documented(case: schemathesis.Case) -> None:
    call_and_check(case)


# --- the document itself --------------------------------------------------------------------


def test_every_schema_the_document_points_at_is_defined() -> None:
    assert missing_components(SERVED) == []


def test_the_seeded_matches_have_rounds() -> None:
    client = APP.test_client()
    for match_id in SEEDED:
        response = client.get(f"/api/matches/{match_id}")
        assert response.status_code == 200
        assert response.json["rounds"]


# --- numbers too large for SQLite -----------------------------------------------------------

HUGE = 2**63
"""One past SQLite's largest INTEGER: Flask's int converter and int() both take it."""


@pytest.fixture
def seeded(tmp_path: Path) -> tuple[Any, dict[int, str | None]]:
    """A test client over a fresh database with the seed matches, and their scorer tokens."""
    app = make_app(tmp_path / "fuzz.sqlite")
    return app.test_client(), seed(app)


@pytest.mark.parametrize(
    "method, url",
    [
        ("get", f"/api/matches/{HUGE}"),
        ("get", f"/api/matches/{HUGE}/log"),
        ("get", f"/api/matches/{HUGE}/whatif"),
        ("get", f"/api/matches/{HUGE}/export"),
        ("post", f"/api/matches/{HUGE}/rounds"),
        ("put", f"/api/matches/{HUGE}/rounds/1"),
        ("delete", f"/api/matches/{HUGE}/rounds/1"),
        ("put", f"/api/matches/1/rounds/{HUGE}"),
        ("delete", f"/api/matches/1/rounds/{HUGE}"),
        ("get", f"/api/matches?page={HUGE}"),
        ("get", f"/api/matches?page={HUGE // 20}"),
    ],
)
def test_numbers_past_sqlite_integers_are_not_server_errors(seeded, method: str, url: str):
    client, tokens = seeded
    body = SEEDS[0][1][0] if method in ("post", "put") else None
    # Match 1 is the seeded Rami match: with its token, only the round number can be wrong.
    response = getattr(client, method)(url, json=body, headers=authorised(tokens[1]))
    assert response.status_code < 500, (url, response.status_code)
    if response.status_code >= 400:
        assert set(response.json) == {"error", "fields"}


# --- values of the wrong type where a choice is expected -------------------------------------

UNHASHABLE = [
    (2, {**SEEDS[2][1][0], "coinche": ["coinche"]}),
    (3, {"contract": ["barbu"], "taken": {"king_of_hearts": "Cy"}}),
    (4, {"winner": "Oben", "evidence": {"points": 120, "marriages": [[20]]}}),
    (6, {"event": ["confirm"]}),
]
"""Found by the fuzzer: a list where a word is expected, then looked up in a dict (a TypeError,
so a 500). Each goes to the seed match of its game, by its place in SEEDS."""


@pytest.mark.parametrize(
    "seed_index, body",
    UNHASHABLE,
    ids=["belote-coinche", "barbu-contract", "gaigel-marriages", "porrazo-event"],
)
def test_a_list_where_a_choice_is_expected_is_refused(tmp_path: Path, seed_index: int, body):
    app = make_app(tmp_path / "fuzz.sqlite")
    tokens = seed(app)
    match_id = list(tokens)[seed_index]
    client = app.test_client()
    response = client.post(
        f"/api/matches/{match_id}/rounds", json=body, headers=authorised(tokens[match_id])
    )
    assert response.status_code == 422, (body, response.status_code)
    assert set(response.json) == {"error", "fields"}


# --- real rounds of every game answer with the documented bodies -------------------------------


def test_real_rounds_answer_as_documented(tmp_path: Path) -> None:
    """Fuzzed bodies seldom make a legal round; these do: every 2xx of a match's life, for
    each game, checked against the document's schema for it."""
    app = make_app(tmp_path / "documented.sqlite")
    client = app.test_client()

    def documented(path: str, method: str, response: Any, status: int) -> None:
        assert response.status_code == status, (method, path, response.json)
        schema[path][method].validate_response(response)

    for match, rounds in SEEDS:
        created = client.post("/api/matches", json=match)
        documented("/api/matches", "POST", created, 201)
        url = f"/api/matches/{created.json['id']}"
        token = authorised(created.json.get("scorer_token"))
        for data in rounds:
            posted = client.post(f"{url}/rounds", json=data, headers=token)
            documented("/api/matches/{match_id}/rounds", "POST", posted, 201)
        corrected = client.put(f"{url}/rounds/1", json=rounds[0], headers=token)
        documented("/api/matches/{match_id}/rounds/{n}", "PUT", corrected, 200)
        for path, suffix in (
            ("/api/matches/{match_id}", ""),
            ("/api/matches/{match_id}/log", "/log"),
            ("/api/matches/{match_id}/whatif", "/whatif"),
            ("/api/matches/{match_id}/export", "/export"),
        ):
            documented(path, "GET", client.get(f"{url}{suffix}"), 200)
        removed = client.delete(f"{url}/rounds/{len(rounds)}", headers=token)
        documented("/api/matches/{match_id}/rounds/{n}", "DELETE", removed, 200)
    documented("/api/matches", "GET", client.get("/api/matches"), 200)
    documented("/api/export", "GET", client.get("/api/export"), 200)
    documented("/api/players", "GET", client.get("/api/players"), 200)
    documented("/api/players/{name}", "GET", client.get("/api/players/Ana"), 200)
