"""The server's side of the phone alone (web/alone.py): the /alone page, what a phone keeps to
score offline (ready.json), the zip of the phone's Python, which runs with nothing but the
standard library beside it; and the API a phone sends its match to once back in reach: a
match started under the phone's uid, and the phone's browser let score it on the pages."""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

import phone
from scorers import GAMES
from tests.api_helpers import TABLES, api_match, play, refused, send, start_match
from tests.html_reader import parse
from tests.test_every_game_web import FIRST_ROUNDS
from web import alone, runtime

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = f"/alone/pyodide-{runtime.VERSION}/"
PAGES = [
    "/",
    "/matches/new/rami",
    "/matches/new/belote",
    "/matches/new/belote?variant=coinche",
    "/matches/new/barbu",
    "/matches/new/gaigel",
    "/matches/new/porrazo",
]
"""The pages a phone keeps to start a match offline: the home page and each new-match form."""
SERVER_ONLY = {"flask", "flask_babel", "sqlite3", "sqlite_utils", "werkzeug", "scorebook", "web"}
"""What the phone's Python must never import: the server, its storage and its web framework."""
UID = "0123456789abcdef0123456789abcdef"
RAMI_ROUND = {
    "outcome": "out",
    "winner": "Ana",
    "hands-1-points": "12",
    "hands-1-melded": "y",
    "hands-2-points": "7",
    "hands-2-melded": "n",
}
"""A Rami round as its form posts it: Ana goes out, Bo holds 12 (melded), Cy 7 (never melded)."""


# --- a runtime installed, or not --------------------------------------------------------------


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """Return a folder holding a runtime as an install leaves it: each file, its gzip copy,
    and the marker naming the pinned package (fake files: the page never runs them here)."""
    folder = tmp_path / f"pyodide-{runtime.VERSION}"
    folder.mkdir()
    for name in runtime.FILES:
        (folder / name).write_bytes(f"{name} of the fake runtime\n".encode() * 200)
        runtime.pack(folder / name)
    (folder / runtime.MARKER).write_text(f"{runtime.SHA256}\n")
    return folder


@pytest.fixture
def ready(app: Flask, installed: Path, client: FlaskClient) -> FlaskClient:
    """Return a client of an app that serves the runtime: phones may get ready to score alone."""
    app.config["PYODIDE_DIR"] = str(installed)
    return client


@pytest.fixture
def not_ready(app: Flask, tmp_path: Path, client: FlaskClient) -> FlaskClient:
    """Return a client of an app without the runtime installed."""
    app.config["PYODIDE_DIR"] = str(tmp_path / "missing")
    return client


def zipped(client: FlaskClient, url: str) -> zipfile.ZipFile:
    """Fetch the phone's Python and open it."""
    response = client.get(url)
    assert response.status_code == 200
    return zipfile.ZipFile(io.BytesIO(response.get_data()))


def bundle_url(client: FlaskClient) -> str:
    """The address of the phone's Python that ready.json names for this phone's language."""
    return client.get("/alone/ready.json").json["files"][1]


def in_language(client: FlaskClient, language: str) -> None:
    """Pick the language of this phone's pages."""
    assert client.post("/language", data={"language": language}).status_code == 302


# --- the /alone page and ready.json -----------------------------------------------------------


def test_the_alone_page_opens_when_the_runtime_is_installed(ready: FlaskClient) -> None:
    response = ready.get("/alone")
    assert response.status_code == 200
    holder = parse(response).find("div", id="phone")
    assert holder.attrs["data-runtime"] == RUNTIME
    assert holder.attrs["data-python"] == bundle_url(ready)
    assert re.fullmatch(r"/alone/python-en-[0-9a-f]{12}\.zip", holder.attrs["data-python"])
    assert holder.attrs["data-api"] == "/api/matches"


def test_without_the_runtime_there_is_no_alone_page(not_ready: FlaskClient) -> None:
    assert not_ready.get("/alone").status_code == 404
    assert not_ready.get("/alone/ready.json").status_code == 404
    assert not_ready.get(f"{RUNTIME}pyodide.mjs").status_code == 404


def test_ready_lists_what_a_phone_keeps_and_what_it_weighs(
    ready: FlaskClient, installed: Path
) -> None:
    listed = ready.get("/alone/ready.json").json
    digest, body = alone.bundle("en")
    assert listed["version"] == runtime.VERSION
    assert listed["files"] == [
        "/alone",
        f"/alone/python-en-{digest}.zip",
        *(RUNTIME + name for name in runtime.FILES),
    ]
    assert listed["pages"] == PAGES
    fetched = sum((installed / f"{name}.gz").stat().st_size for name in runtime.FILES)
    assert listed["bytes"] == len(body) + fetched
    assert len(ready.get(listed["files"][1]).get_data()) == len(body)
    for url in listed["files"] + listed["pages"]:
        with ready.get(url, headers={"Accept-Encoding": "gzip"}) as response:
            assert response.status_code == 200, url


def test_a_scoring_page_names_the_match_it_shows_as_the_apis_etag_does(ready: FlaskClient):
    """A ready phone counts its waiting rounds only on the copy of the match its page shows."""
    match_id = start_match(ready, TABLES["rami"])["id"]
    for rounds in ([], [FIRST_ROUNDS["rami"]]):
        play(ready, match_id, *rounds)
        outbox = parse(ready.get(f"/matches/{match_id}")).find("section", id="outbox")
        tag = ready.get(f"/api/matches/{match_id}").headers["ETag"]
        shown = outbox.attrs["data-shown"]
        assert re.fullmatch(r"[0-9a-f]{32}-\d+", shown)
        assert tag.startswith(f'W/"{shown}-')
    assert shown.endswith("-1")


def test_the_service_worker_keeps_the_versioned_files_alone_as_assets(ready: FlaskClient) -> None:
    """The list of what to keep changes with each release and language: it is always asked."""
    worker = ready.get("/sw.js").get_data(as_text=True)
    pattern = re.compile(
        json.loads(re.search(r"const ALONE_FILES = new RegExp\((.*)\);", worker)[1])
    )
    listed = ready.get("/alone/ready.json").json
    assert [bool(pattern.search(url)) for url in listed["files"]] == [False] + [True] * 6
    assert not pattern.search("/alone/ready.json")


def test_ready_names_the_python_of_the_phones_language(ready: FlaskClient, installed: Path) -> None:
    in_language(ready, "fr")
    listed = ready.get("/alone/ready.json").json
    digest, body = alone.bundle("fr")
    assert listed["files"][1] == f"/alone/python-fr-{digest}.zip"
    assert digest != alone.bundle("en")[0]
    holder = parse(ready.get("/alone")).find("div", id="phone")
    assert holder.attrs["data-python"] == listed["files"][1]
    fetched = sum((installed / f"{name}.gz").stat().st_size for name in runtime.FILES)
    assert listed["bytes"] == len(body) + fetched
    assert listed["pages"] == PAGES


# --- the zip of the phone's Python ------------------------------------------------------------


def test_the_zip_holds_the_phones_python_templates_and_words(ready: FlaskClient) -> None:
    names = zipped(ready, bundle_url(ready)).namelist()
    for name in (
        "phone/__init__.py",
        "phone/match.py",
        "phone/pages.py",
        "phone/marks.py",
        "scorers/base.py",
        "scorers/rami/scorer.py",
        "scorers/belote/oddities.py",
        "jinja2/__init__.py",
        "wtforms/__init__.py",
        "markupsafe/__init__.py",
        "templates/phone/match.html",
        "templates/phone/rules.html",
        "templates/_score_bar.html",
        *(f"templates/{game}/round_form.html" for game in GAMES),
    ):
        assert name in names, name
    # English is the text itself: no catalog; and nothing of the server, nor compiled files.
    assert not any(name.endswith(".mo") for name in names)
    tops = {name.split("/")[0] for name in names}
    assert tops == {"phone", "scorers", "jinja2", "wtforms", "markupsafe", "templates"}
    assert not any(name.endswith(".pyc") or "__pycache__" in name for name in names)
    assert len(names) == len(set(names))


@pytest.mark.parametrize("language", ["fr", "fa"])
def test_a_languages_zip_holds_its_words_alone(ready: FlaskClient, language: str) -> None:
    in_language(ready, language)
    archive = zipped(ready, bundle_url(ready))
    catalogs = [name for name in archive.namelist() if name.endswith(".mo")]
    assert catalogs == [f"translations/{language}/LC_MESSAGES/messages.mo"]
    assert archive.read(catalogs[0]) == (ROOT / catalogs[0]).read_bytes()


def test_the_zip_holds_the_files_as_they_are(ready: FlaskClient) -> None:
    archive = zipped(ready, bundle_url(ready))
    for name in ("phone/match.py", "scorers/base.py", "templates/rami/round_form.html"):
        assert archive.read(name) == (ROOT / name).read_bytes()
    assert archive.testzip() is None
    assert {info.date_time for info in archive.infolist()} == {(2026, 1, 1, 0, 0, 0)}


def test_the_zip_is_kept_a_year_under_its_digest(ready: FlaskClient) -> None:
    url = bundle_url(ready)
    response = ready.get(url)
    assert response.mimetype == "application/zip"
    cache = response.cache_control
    assert (cache.public, cache.max_age, cache.immutable) == (True, 365 * 24 * 3600, True)
    digest = url.removeprefix("/alone/python-en-").removesuffix(".zip")
    assert hashlib.sha256(response.get_data()).hexdigest()[:12] == digest


@pytest.mark.parametrize(
    "url",
    [
        pytest.param("/alone/python-en-000000000000.zip", id="wrong-digest"),
        pytest.param("/alone/python-xx-{en}.zip", id="unknown-language"),
        pytest.param("/alone/python-fr-{en}.zip", id="another-languages-digest"),
        pytest.param("/alone/python-en-{en}0.zip", id="longer-digest"),
    ],
)
def test_a_zip_of_another_digest_or_language_is_not_here(ready: FlaskClient, url: str) -> None:
    response = ready.get(url.format(en=alone.bundle("en")[0]))
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_two_builds_make_the_same_bytes() -> None:
    first = alone.bundle("fr")
    alone.bundle.cache_clear()
    again = alone.bundle("fr")
    assert again is not first
    assert again == first


# --- the zip runs alone: standard library and nothing else -----------------------------------


SCORE_ALONE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import phone

answers = [phone.answer(question) for question in json.loads(sys.argv[2])]
files = {name: getattr(module, "__file__", None) for name, module in sys.modules.items()}
print(json.dumps({"answers": answers, "files": files}))
"""
"""Answer the questions given, with the folder given first on the path: what is answered, and
the file each module imported came from."""


def run(folder: Path, questions: list[str], *flags: str) -> dict[str, Any]:
    """Run SCORE_ALONE in a new Python, with these flags: its answers and modules."""
    done = subprocess.run(
        [sys.executable, *flags, "-c", SCORE_ALONE, str(folder), json.dumps(questions)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def rami_questions(language: str) -> list[str]:
    """Start a Rami match from its form, record RAMI_ROUND, draw it, explain it and score it."""
    asked = {"language": language}
    started = json.loads(
        phone.answer(
            json.dumps(
                asked
                | {"do": "start", "game": "rami", "body": "players-0=Ana&players-1=Bo&players-2=Cy"}
            )
        )
    )
    match = {"uid": UID, "data": started["data"], "rounds": [], "removed": []}
    record = asked | {"do": "record", "match": match, "body": urlencode(RAMI_ROUND)}
    entered = json.loads(phone.answer(json.dumps(record)))["entered"]
    played = match | {"rounds": [{"key": "1", "input": entered}]}
    return [
        json.dumps(question)
        for question in (
            asked | {"do": "start", "game": "rami", "body": "players-0=Ana&players-1=Bo"},
            record,
            asked | {"do": "score", "match": played},
            asked | {"do": "show", "match": played, "view": "rules"},
            asked | {"do": "show", "match": played, "view": "edit", "n": 1},
        )
    ]


def every_game_questions() -> list[str]:
    """Draw and score a match of each game with its first round, in Persian."""
    questions = []
    for game, table in TABLES.items():
        scorer = GAMES[game]
        data = table | {"options": {}}
        entered = scorer.read_round(scorer.read_table(data), FIRST_ROUNDS[game])
        gone = {"n": 2, "input": entered, "removed_at": "2026-12-04T10:00:00Z"}
        match = {
            "uid": UID,
            "data": data,
            "rounds": [{"key": "1", "input": entered}],
            "removed": [gone],
        }
        # Every page the phone draws, each from templates the zip must hold.
        for view, n in (("match", None), ("rules", None), ("why", 1), ("edit", 1)):
            question = {"do": "show", "match": match, "view": view, "n": n, "language": "fa"}
            questions.append(question)
        questions.append({"do": "score", "match": match, "language": "fa"})
    return [json.dumps(question) for question in questions]


def without_keys(answer: str) -> str:
    """An answer with each form's new idempotency key left out (a new one at every draw)."""
    return re.sub(r'name=\\"idempotency_key\\" value=\\"[0-9a-f]{32}\\"', "", answer)


@pytest.fixture
def unzipped(ready: FlaskClient, tmp_path: Path) -> Path:
    """Unzip the phone's Python in French and Persian (both catalogs) into a folder of its own."""
    folder = tmp_path / "phone-python"
    for language in ("fr", "fa"):
        in_language(ready, language)
        zipped(ready, bundle_url(ready)).extractall(folder)
    return folder


def test_the_zip_scores_with_the_standard_library_alone(unzipped: Path) -> None:
    questions = [*rami_questions("fr"), *every_game_questions()]
    # -I: no current folder, no user site, no PYTHON* variables; -S: no site-packages.
    done = run(unzipped, questions, "-I", "-S")
    here = [without_keys(phone.answer(question)) for question in questions]
    assert [without_keys(answer) for answer in done["answers"]] == here
    scored = json.loads(done["answers"][2])
    assert scored["totals"] == {"Ana": 0, "Bo": 12, "Cy": 32}
    assert scored["rounds"][0]["explanation"][0] == "Ana est sorti\u00a0: 0."
    standard = Path(sysconfig.get_paths()["stdlib"]).resolve()
    files = {name: Path(file).resolve() for name, file in done["files"].items() if file}
    assert files["jinja2"].parent == unzipped / "jinja2"
    assert files["wtforms"].parent == unzipped / "wtforms"
    assert files["markupsafe"].parent == unzipped / "markupsafe"
    elsewhere = {
        name: file
        for name, file in files.items()
        if not file.is_relative_to(unzipped.resolve()) and not file.is_relative_to(standard)
    }
    assert elsewhere == {}
    assert not SERVER_ONLY & {name.split(".")[0] for name in done["files"]}


def test_the_phone_imports_nothing_of_the_server() -> None:
    """With the whole virtual environment in reach, answering still imports no server part."""
    done = run(ROOT, [*rami_questions("fa"), *every_game_questions()], "-I")
    assert json.loads(done["answers"][2])["totals"] == {"Ana": 0, "Bo": 12, "Cy": 32}
    imported = {name.split(".")[0] for name in done["files"]}
    assert {"phone", "scorers", "jinja2", "wtforms"} <= imported
    assert not SERVER_ONLY & imported


# --- a match started under the phone's uid ----------------------------------------------------


def start(client: FlaskClient, key: str | None = None, **changed: Any) -> Any:
    """Send a Rami match the phone started alone, under its uid."""
    body = {"game": "rami", "players": ["Ana", "Bo", "Cy"], "options": {}, "uid": UID} | changed
    headers = {"Idempotency-Key": key} if key else {}
    return client.post("/api/matches", json=body, headers=headers)


def stored(client: FlaskClient) -> list[dict[str, Any]]:
    """The matches stored here."""
    return client.get("/api/matches").json["matches"]


def test_a_match_is_started_under_the_phones_uid(client: FlaskClient) -> None:
    response = start(client, "first")
    assert response.status_code == 201
    assert response.json["uid"] == UID
    assert api_match(client, response.json["id"])["uid"] == UID
    assert [match["uid"] for match in stored(client)] == [UID]


def test_a_second_match_under_the_same_uid_is_refused(client: FlaskClient) -> None:
    first = start(client, "first").json["id"]
    body = refused(start(client, "second"), 409)
    assert f"#{first}" in body["error"]
    assert body["error"] == (
        f"A match with this uid is already here (#{first}); nothing was started. Send this "
        "one without its uid, or open that one."
    )
    assert refused(start(client), 409)["error"] == body["error"]
    # Another body under the same uid is no more another match.
    assert start(client, "third", players=["Di", "Ed"]).status_code == 409
    assert [match["id"] for match in stored(client)] == [first]


def test_the_same_start_sent_again_answers_the_first_match(client: FlaskClient) -> None:
    first = start(client, "double-tap")
    again = start(client, "double-tap")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json["id"] == first.json["id"]
    assert again.json["uid"] == UID
    # A new token for the phone that asked again; the match is the one stored.
    assert again.json["scorer_token"] != first.json["scorer_token"]
    assert len(stored(client)) == 1


def test_a_match_without_a_uid_gets_one_of_its_own(client: FlaskClient) -> None:
    body = {"game": "rami", "players": ["Ana", "Bo"], "options": {}}
    uids = [send(client, "POST", "/api/matches", body).json["uid"] for _ in range(2)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", uid) for uid in uids)
    assert uids[0] != uids[1]


@pytest.mark.parametrize(
    "uid",
    [
        pytest.param(UID.upper(), id="uppercase"),
        pytest.param(UID[:-1], id="31-digits"),
        pytest.param(UID + "0", id="33-digits"),
        pytest.param("0123456789abcdef0123456789abcdeg", id="not-hex"),
        pytest.param("01234567-89ab-cdef-0123-456789abcdef", id="dashed"),
        pytest.param(12345, id="number"),
        pytest.param("", id="empty"),
    ],
)
def test_a_malformed_uid_is_refused(client: FlaskClient, uid: Any) -> None:
    refused(start(client, uid=uid), 422, "uid", "32 lowercase hexadecimal digits")
    assert stored(client) == []


# --- the phone's browser let score the match it sent ------------------------------------------


@pytest.fixture
def sent(stranger: FlaskClient) -> dict[str, Any]:
    """A match a phone sent through the API from its page's script: its browser session does
    not hold the token yet."""
    response = start(stranger)
    assert response.status_code == 201
    return response.json


def may_score(client: FlaskClient, match_id: int) -> bool:
    """Say whether the match page lets this browser record a round (or only watch)."""
    doc = parse(client.get(f"/matches/{match_id}"))
    forms = [form.attrs.get("action") for form in doc.find_all("form")]
    watching = doc.find("p", "read-only")
    assert (watching is None) == (f"/matches/{match_id}/rounds" in forms)
    return watching is None


def keep(client: FlaskClient, match_id: int, token: str | None) -> Any:
    """Ask the server to let this browser's pages score a match, with this bearer token."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/matches/{match_id}/phone", headers=headers)


def test_the_phones_browser_scores_the_match_it_sent(
    stranger: FlaskClient, sent: dict[str, Any]
) -> None:
    match_id = sent["id"]
    assert not may_score(stranger, match_id)
    assert (
        "This phone is only watching."
        in parse(stranger.get(f"/matches/{match_id}")).find("p", "read-only").text()
    )
    response = keep(stranger, match_id, sent["scorer_token"])
    assert response.status_code == 204
    assert response.get_data() == b""
    assert may_score(stranger, match_id)
    recorded = stranger.post(f"/matches/{match_id}/rounds", data=RAMI_ROUND)
    assert recorded.status_code == 302
    assert api_match(stranger, match_id)["totals"] == {"Ana": 0, "Bo": 12, "Cy": 32}


def test_a_match_is_kept_only_with_its_token(
    stranger: FlaskClient, sent: dict[str, Any], app: Flask
) -> None:
    match_id = sent["id"]
    body = refused(keep(stranger, match_id, None), 403)
    assert "scorer token" in body["error"]
    refused(keep(stranger, match_id, "not-the-token"), 403)
    assert not may_score(stranger, match_id)
    # Another match's token opens no other match.
    other = start(stranger, uid="f" * 32).json
    refused(keep(stranger, match_id, other["scorer_token"]), 403)
    assert not may_score(stranger, match_id)
    # A match that is not here: 404 before any token is read.
    refused(keep(stranger, 999, sent["scorer_token"]), 404)
    refused(keep(stranger, 999, None), 404)
    # Nothing changed for a browser that holds no token at all.
    assert not may_score(app.test_client(), match_id)
