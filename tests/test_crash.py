"""Crash safety: a process recording rounds as fast as it can is killed with SIGKILL mid-stream,
and the database it leaves behind is whole.

The child builds the app over a temporary database and records rounds in a loop, through the
engine (matches.add_round) or through the JSON API (the test client), across a few matches in
turn, printing the count after each commit. After about a second the test kills it without
warning, then opens the file as the app would and shows: SQLite's integrity check passes, the
journal is still WAL, every round the child said was committed is there, and no change is half
made: each round has its `add` in the change log and each `add` its round, and each match's
cached `rounds_played` and totals agree with its live rounds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorebook import matches, storage

ROOT = Path(__file__).resolve().parent.parent
RUN_FOR = 1.0
"""Seconds the child records rounds before it is killed."""
START_TIMEOUT = 60.0
"""Seconds the child may take to import the app and commit its first round."""
MATCHES = 3

CHILD = r"""
import sys

from app import create_app
from scorebook import matches, storage

door, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
app = create_app(
    {"TESTING": True, "DATABASE": path, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False}
)
# The stock runs out with Ana and Bo, who both melded, holding a 2 each: tied for the lowest
# hand, both score 0, so totals stay at 0 and the match never ends. (A loser's hand can't be
# worth 0: every card left costs at least 2.)
HAND = {"points": 2, "melded": True}
ROUND = {"outcome": "blocked", "hands": {"Ana": HAND, "Bo": HAND}}
START = {"game": "rami", "players": ["Ana", "Bo"]}

if door == "engine":
    db = storage.connect(path)
    ids = [matches.start(db, START).id for _ in range(count)]

    def record(match_id):
        matches.add_round(db, match_id, ROUND)

else:
    client = app.test_client()
    started = [client.post("/api/matches", json=START).json for _ in range(count)]
    ids = [match["id"] for match in started]
    # Changing a match takes its scorer token, once matches have one.
    tokens = {m["id"]: {"Authorization": f"Bearer {m.get('scorer_token')}"} for m in started}

    def record(match_id):
        response = client.post(
            f"/api/matches/{match_id}/rounds", json=ROUND, headers=tokens[match_id]
        )
        assert response.status_code == 201, response.json

committed = 0
while True:
    record(ids[committed % count])
    committed += 1
    print(committed, flush=True)
"""


def read_lines(stream, lines: list[str]) -> None:
    """Collect what the child prints until its end of the pipe closes."""
    for line in stream:
        lines.append(line.strip())


def wait_for(lines: list[str], child: subprocess.Popen, timeout: float) -> None:
    """Wait until the child has committed a first round (or died, or taken too long)."""
    deadline = time.monotonic() + timeout
    while not lines and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.mark.parametrize("door", ["engine", "api"])
def test_a_killed_writer_leaves_a_whole_database(tmp_path: Path, door: str) -> None:
    path = str(tmp_path / "crash.sqlite")
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    errors = tmp_path / "child.err"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    lines: list[str] = []
    with (
        errors.open("w") as stderr,
        subprocess.Popen(
            [sys.executable, str(script), door, path, str(MATCHES)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        ) as child,
    ):
        reader = threading.Thread(target=read_lines, args=(child.stdout, lines), daemon=True)
        reader.start()
        try:
            wait_for(lines, child, START_TIMEOUT)
            assert child.poll() is None, f"the child stopped early: {errors.read_text()}"
            assert lines, f"the child committed nothing in {START_TIMEOUT}s: {errors.read_text()}"
            time.sleep(RUN_FOR)
            assert child.poll() is None, f"the child stopped early: {errors.read_text()}"
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
            reader.join(timeout=30)
    assert child.returncode == -signal.SIGKILL
    reported = int(lines[-1])
    assert reported > MATCHES, "the child should have recorded rounds in every match"

    db = storage.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)

        ids = storage.match_ids(db)
        assert len(ids) == MATCHES
        total = 0
        for match_id in ids:
            rounds = storage.round_records(db, match_id)
            changes = storage.changes(db, match_id)
            added = [change for change in changes if change["action"] == "add"]
            assert len(added) == len(changes), "the child only ever adds rounds"
            # No partial round: each round has its log entry and each log entry its round.
            assert [change["round_id"] for change in added] == [row["id"] for row in rounds]
            assert [change["input"] for change in added] == [row["input"] for row in rounds]
            assert [change["n"] for change in added] == list(range(1, len(rounds) + 1))
            live = storage.live_rounds(db, match_id)
            assert [r["id"] for r in live] == [r["id"] for r in rounds]
            assert [r["input"] for r in live] == [r["input"] for r in rounds]
            row = storage.get_match(db, match_id)
            assert row["rounds_played"] == len(live)
            assert row["totals"] == matches.load(db, match_id).replay.totals
            total += len(live)
        # Every round the child reported committed is there; at most one more got in between
        # its commit and its print.
        assert reported <= total <= reported + 1, (reported, total)
    finally:
        db.close()
