"""Slow and stalled phones never stall the tables: against bin/serve as a user starts it (one
process per core) on 127.0.0.1, 40 sockets that send their request headers a byte every 2 s
and 40 that ask for the whole history and never read it, while a scoring phone records a round
every half second. Every post must be answered, each well within the phone's patience.
Bounded: about 15 seconds of traffic, every socket closed at the end."""

from __future__ import annotations

import copy
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import create_app
from scorebook import transfer
from tests.served import ask, serve, stop
from web.db import get_db

SLOW = 40
"""Sockets sending their headers a byte at a time, and as many asking and never reading."""
HISTORY = 400
"""Matches in the history: its export is megabytes, far more than a socket's buffers."""
POSTS = 24
PATIENCE = 5.0
"""Seconds a scoring phone waits for an answer: a post kept waiting longer was stalled."""
TEAMS = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"}


def history(database: Path) -> None:
    """Fill the database with HISTORY played matches, as an import from elsewhere would."""
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "test", "TESTING": True})
    phone = app.test_client()
    match = phone.post("/api/matches", json={"game": "belote", "teams": TEAMS}).json
    bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
    for _ in range(8):
        posted = phone.post(f"/api/matches/{match['id']}/rounds", json=DEAL, headers=bearer)
        assert posted.status_code == 201
    document = phone.get(f"/api/matches/{match['id']}/export").json
    copies = [copy.deepcopy(document) | {"uid": f"old-{i}"} for i in range(HISTORY)]
    with app.app_context():
        assert len(transfer.import_history(get_db(), copies).imported) == HISTORY


@pytest.fixture(params=["every core", "one process"])
def club(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[int]:
    """bin/serve over a history of HISTORY matches: as a user starts it, and with WORKERS=1."""
    history(tmp_path / "club.sqlite")
    server, port = serve(tmp_path, **({"WORKERS": "1"} if request.param == "one process" else {}))
    try:
        yield port
    finally:
        stop(server)


def trickling(port: int, sockets: list[socket.socket], until: threading.Event) -> None:
    """Send the request headers of SLOW open sockets a byte every 2 s until told to stop."""
    while not until.wait(2):
        for slow in sockets:
            try:
                slow.sendall(b"X")
            except OSError:
                pass


def stalling(port: int, sockets: list[socket.socket]) -> None:
    """Ask for the whole history on SLOW sockets that take in 4 KB and never read a byte."""
    for _ in range(SLOW):
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(("127.0.0.1", port))
        stalled.sendall(b"GET /api/export HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sockets.append(stalled)


def test_a_scoring_phone_is_answered_while_slow_and_stalled_phones_hang_on(club: int):
    endless = {"game": "belote", "teams": TEAMS, "options": {"target": 100000}}
    _, _, match = ask(club, "POST", "/api/matches", endless)
    bearer = {
        "Authorization": f"Bearer {match['scorer_token']}",
        "Content-Type": "application/json",
    }
    done = threading.Event()
    slow: list[socket.socket] = []
    stalled: list[socket.socket] = []
    for _ in range(SLOW):
        slow.append(socket.create_connection(("127.0.0.1", club)))
        slow[-1].sendall(b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    trickle = threading.Thread(target=trickling, args=(club, slow, done))
    trickle.start()
    stalling(club, stalled)
    time.sleep(1)
    answers = []
    try:
        for _ in range(POSTS):
            time.sleep(0.5)
            # A connection of its own each time, as a phone whose last one was closed: any of
            # the server's processes may take it.
            phone = http.client.HTTPConnection("127.0.0.1", club, timeout=PATIENCE)
            began = time.monotonic()
            phone.request("POST", f"/api/matches/{match['id']}/rounds", json.dumps(DEAL), bearer)
            answer = phone.getresponse()
            answer.read()
            phone.close()
            answers.append((answer.status, time.monotonic() - began))
        # The slow ones are still there, holding their sockets, when the last post is answered.
        assert len(slow) == SLOW and len(stalled) == SLOW
    finally:
        done.set()
        trickle.join(timeout=10)
        for hanging in slow + stalled:
            hanging.close()
    assert [status for status, _ in answers] == [201] * POSTS, answers
    print("post answered in", ", ".join(f"{spent * 1000:.0f} ms" for _, spent in answers))
    _, _, after = ask(club, "GET", f"/api/matches/{match['id']}")
    assert len(after["rounds"]) == POSTS


def test_the_whole_history_is_still_sent_to_a_phone_that_reads_it(club: int):
    status, headers, documents = ask(club, "GET", "/api/export")
    assert status == 200 and headers["Content-Disposition"].startswith("attachment")
    # The match played to build the history, then its copies.
    assert len(documents) == HISTORY + 1 and documents[1]["uid"] == "old-0"
