"""An import runs in a process of its own: against bin/serve on 127.0.0.1, the server killed
with SIGKILL mid-import leaves nothing that blocks the retry, and the importing process ends
with it; the importing process killed says so (503) and keeps nothing. Bounded: an import of
IMPORTED matches, a kill, a restart and a retry."""

from __future__ import annotations

import copy
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app import create_app
from tests.served import ask, serve, stop

IMPORTED = 1200
"""Matches the import brings: seconds of work, so it is killed half done."""
TEAMS = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"}


def documents(port: int, count: int) -> list[dict[str, Any]]:
    """Export one played match and copy it under `count` new uids, as another Tablescore's."""
    _, _, match = ask(port, "POST", "/api/matches", {"game": "belote", "teams": TEAMS})
    bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
    for _ in range(8):
        assert ask(port, "POST", f"/api/matches/{match['id']}/rounds", DEAL, **bearer)[0] == 201
    _, _, document = ask(port, "GET", f"/api/matches/{match['id']}/export")
    return [copy.deepcopy(document) | {"uid": f"far-{i}"} for i in range(count)]


def counted(database: Path) -> tuple[int, int, int]:
    """Count the matches in sight, those an import hides, and the imports under way."""
    with sqlite3.connect(database) as db:
        return db.execute(
            "select (select count(*) from matches where import_id is null), "
            "(select count(*) from matches where import_id is not null), "
            "(select count(*) from imports)"
        ).fetchone()


def children(pid: int) -> list[int]:
    """The children of a process, whichever of its threads started them."""
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return [int(child) for task in tasks for child in (task / "children").read_text().split()]


def importer_of(server_pid: int) -> list[int]:
    """The processes importing for a server: the children of its fork server."""
    return [pid for fork_server in children(server_pid) for pid in children(fork_server)]


def gone(pid: int) -> bool:
    """Say whether a process has ended (a zombie waiting for its parent counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except FileNotFoundError:
        return True


def test_a_server_killed_mid_import_leaves_nothing_that_blocks_the_retry(tmp_path: Path):
    database = tmp_path / "club.sqlite"
    server, port = serve(tmp_path, WORKERS="1")
    try:
        incoming = documents(port, IMPORTED)
        answers: list[Any] = []

        def post() -> None:
            try:
                answers.append(ask(port, "POST", "/api/import", incoming)[0])
            except OSError as cut:
                answers.append(cut)

        posting = threading.Thread(target=post)
        posting.start()
        for _ in range(600):
            if counted(database)[1]:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the import stored nothing")
        importers = importer_of(server.pid)
        assert importers, "the import runs in a process of its own"
        # Below the tables' requests: the importing process is niced.
        assert all(os.getpriority(os.PRIO_PROCESS, pid) == 10 for pid in importers)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        posting.join(timeout=30)
        assert answers and isinstance(answers[0], OSError)
        # The importing process ends with the server it worked for.
        for _ in range(50):
            if all(gone(pid) for pid in importers):
                break
            time.sleep(0.1)
        assert all(gone(pid) for pid in importers)
        assert counted(database)[1] > 0, "what the import stored is still hidden there"
    finally:
        if server.poll() is None:
            stop(server)
    server, port = serve(tmp_path, WORKERS="1")
    try:
        # The restart dropped it: nothing waits for a timer.
        assert counted(database) == (1, 0, 0)
        status, _, outcome = ask(port, "POST", "/api/import", incoming)
        assert status == 200 and len(outcome["imported"]) == IMPORTED
        assert counted(database) == (1 + IMPORTED, 0, 0)
    finally:
        stop(server)


def test_an_import_whose_process_is_killed_answers_503_and_keeps_nothing(tmp_path: Path):
    database = tmp_path / "club.sqlite"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "test", "TESTING": True})
    phone = app.test_client()
    match = phone.post("/api/matches", json={"game": "belote", "teams": TEAMS}).json
    bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
    for _ in range(8):
        phone.post(f"/api/matches/{match['id']}/rounds", json=DEAL, headers=bearer)
    document = phone.get(f"/api/matches/{match['id']}/export").json
    incoming = [copy.deepcopy(document) | {"uid": f"far-{i}"} for i in range(IMPORTED)]
    answers = []
    posting = threading.Thread(
        target=lambda: answers.append(phone.post("/api/import", json=incoming))
    )
    posting.start()
    for _ in range(600):
        if counted(database)[1]:
            break
        time.sleep(0.05)
    for pid in importer_of(os.getpid()):
        os.kill(pid, signal.SIGKILL)
    posting.join(timeout=60)
    [answer] = answers
    assert answer.status_code == 503
    assert answer.json["error"].startswith("The import stopped before it finished")
    # What it stored stays hidden until the next import or start drops it.
    assert counted(database)[0] == 1
    again = phone.post("/api/import", json=incoming[:3])
    assert again.status_code == 200 and len(again.json["imported"]) == 3
    assert counted(database) == (4, 0, 0)
