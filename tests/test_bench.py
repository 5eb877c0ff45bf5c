"""The benchmarks still run: each built small and measured once, as its README command would.

Not a timing: a benchmark that no longer runs measures nothing, and the circles benchmark's
check of every query's plan is a check of the app.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_indexes import READS_IN, READS_PAST, circle_schema

ROOT = Path(__file__).resolve().parent.parent


def ran(*command: str) -> str:
    """Run a benchmark as its docs say, small; return what it printed."""
    done = subprocess.run(
        [sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_circles_benchmark_builds_measures_and_reads_every_query_by_the_circle(tmp_path):
    big = tmp_path / "big.sqlite"
    out = ran("bench/circles.py", "--circles", "30", "--per-circle", "4", "--club", "30",
              "--repeat", "2", "--warmup", "1", "--db", str(big))  # fmt: skip
    assert "big file:" in out and "circles 30, matches " in out
    assert "the measured circle, in both: matches " in out
    for door in ("POST /api/matches/<id>/rounds", "GET /history?player=", "GET /api/circle"):
        assert door in out
    assert "ok: every step reads a circle's rows through an index" in out, out[-3000:]
    assert not big.exists(), "without --keep the files are removed"


def test_the_circles_benchmark_catches_a_read_past_the_circle(tmp_path, monkeypatch):
    """The plan check itself, on the index checks' own schema and reads (tests/test_indexes.py):
    a read past the circle is reported, one that stays in it is not."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("circles_bench", ROOT / "bench" / "circles.py")
    circles_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(circles_bench)
    database = str(tmp_path / "plans.sqlite")
    circle_schema(database)
    _used, astray = circles_bench.read_steps(database, READS_PAST)
    assert len(astray) == 2, astray
    used, astray = circles_bench.read_steps(database, READS_IN)
    assert astray == [] and used["by_circle"] == 1


def test_the_benchmark_measures_postgresql_against_its_own_floor(postgresql_installed):
    out = ran("bench/bench.py", "--engine", "postgresql", "--matches", "300", "--repeat", "2",
              "--warmup", "1")  # fmt: skip
    assert "PostgreSQL 1" in out and "database: 300 matches" in out
    for door in ("POST /api/matches/<id>/rounds (201st event)", "GET /history?player=…"):
        assert door in out
    assert "floor, over every measurement: median" in out


def test_the_club_night_runs_on_two_servers_over_postgresql(postgresql_installed):
    out = ran("bench/club_night.py", "--engine", "postgresql", "--servers", "2", "--workers", "1",
              "--tables", "4", "--watchers", "1", "--seconds", "4", "--alone", "5")  # fmt: skip
    assert "Club night (2 × bin/serve, 2 server processes, PostgreSQL): 4 tables" in out
    assert "errors: 0 of " in out and "PostgreSQL: " in out


@pytest.mark.browser
def test_the_phone_alone_benchmark_measures_every_budget():
    """bench/alone.py drives Chromium, the server stopped, over the installed phone Python."""
    out = ran("bench/alone.py", "--rounds", "3")
    for line in ("fetched to get ready (once): 6.", "cold start of the phone's scorers: "):
        assert line in out
    assert re.search(r"first \d+ ms, then median \d+ ms, slowest \d+ ms", out), out
