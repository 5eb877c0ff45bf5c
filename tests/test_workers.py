"""Several server processes over one database, an SQLite file or PostgreSQL: they start
together on a fresh one (one migrates, the others wait), share the session secret, record
concurrent rounds each once whichever process a retry reaches, and none shows a sheet older
than the last change another process made. Real servers on 127.0.0.1."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import instance_secret
from tests.api_helpers import TABLES
from tests.served import BIN, ROOT, ask, free_port, listening, started

DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"}
LONG = TABLES["belote"] | {"options": {"target": 100000}}
"""A Belote that no number of these deals ends."""
POSTS = 20
"""Rounds each of two phones posts to each process, at once."""
FRESH = itertools.count()
"""Numbers the new PostgreSQL databases two servers start on."""


@pytest.fixture(params=["sqlite", "postgresql"])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[int]]:
    """Two server processes started together on a fresh database: two waitress processes, as
    bin/serve starts one, over one SQLite file; or two bin/serve, as two machines would run
    it, over one PostgreSQL database."""
    ports = [free_port(), free_port()]
    if request.param == "sqlite":
        command = [str(BIN / "waitress-serve"), "--host=127.0.0.1", "--threads=8"]
        servers = [
            started([*command, f"--port={port}", "--call", "app:create_app"], tmp_path)
            for port in ports
        ]
    else:
        cluster = request.getfixturevalue("cluster")
        name = f"two_{next(FRESH)}"
        database = cluster.create(name)
        request.addfinalizer(lambda: cluster.drop(name))
        servers = [
            started(
                [str(ROOT / "bin" / "serve")],
                tmp_path,
                TABLESCORE_DATABASE=database,
                WORKERS="1",
                HOST="127.0.0.1",
                PORT=str(port),
            )
            for port in ports
        ]
    try:
        for port, server in zip(ports, servers, strict=True):
            listening(port, server)
        yield ports
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


def test_two_processes_record_every_concurrent_round_once(two: list[int], tmp_path: Path):
    status, _, match = ask(two[0], "POST", "/api/matches", LONG)
    assert status == 201, match
    bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
    rounds = f"/api/matches/{match['id']}/rounds"
    statuses: list[int] = []

    def phone(port: int, prefix: str) -> None:
        for i in range(POSTS):
            key = {"Idempotency-Key": f"{prefix}-{i}"}
            statuses.append(ask(port, "POST", rounds, DEAL, **bearer, **key)[0])
            # A retry of the same post through the other process records nothing more.
            other = two[1] if port == two[0] else two[0]
            statuses.append(ask(other, "POST", rounds, DEAL, **bearer, **key)[0])

    phones = [threading.Thread(target=phone, args=(port, f"p{port}")) for port in two]
    for each in phones:
        each.start()
    for each in phones:
        each.join(timeout=120)
    assert statuses.count(201) == 4 * POSTS and set(statuses) == {201}
    seen = [ask(port, "GET", f"/api/matches/{match['id']}") for port in two]
    assert [len(match["rounds"]) for _, _, match in seen] == [2 * POSTS] * 2
    # Both processes serve the same state under the same version, totals and ETag.
    (_, first, one), (_, second, other) = seen
    assert (one["version"], one["totals"]) == (other["version"], other["totals"])
    assert one["totals"] == {"Nous": 2 * POSTS * 100, "Eux": 2 * POSTS * 62}
    assert first["ETag"] == second["ETag"]


def test_a_correction_made_through_one_process_is_a_stale_if_match_on_the_other(
    two: list[int],
):
    status, _, match = ask(two[0], "POST", "/api/matches", LONG)
    bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
    url = f"/api/matches/{match['id']}/rounds"
    status, _, posted = ask(two[0], "POST", url, DEAL, **bearer)
    assert status == 201
    stored = posted["round"]
    tag = {"If-Match": f"{stored['id']}:{stored['version']}"}
    better = DEAL | {"points": {"Nous": 100}}
    assert ask(two[1], "PUT", f"{url}/1", better, **bearer, **tag)[0] == 200
    status, _, said = ask(two[0], "PUT", f"{url}/1", DEAL, **bearer, **tag)
    assert status == 412, said
    for port in two:
        _, _, seen = ask(port, "GET", f"/api/matches/{match['id']}")
        assert seen["totals"] == {"Nous": 110, "Eux": 52}


def test_no_process_shows_a_sheet_older_than_another_processs_change(two: list[int]):
    status, _, match = ask(two[0], "POST", "/api/matches", LONG)
    assert status == 201
    bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
    url = f"/api/matches/{match['id']}"
    tags = []
    for n in range(1, 6):
        writer, reader = (two[0], two[1]) if n % 2 else (two[1], two[0])
        # The reader has this match's replay in memory from its last answer.
        _, headers, before = ask(reader, "GET", url)
        assert ask(writer, "POST", f"{url}/rounds", DEAL, **bearer)[0] == 201
        status, fresh_headers, fresh = ask(reader, "GET", url, **{"If-None-Match": headers["ETag"]})
        assert status == 200 and len(fresh["rounds"]) == len(before["rounds"]) + 1 == n
        tags.append(fresh_headers["ETag"])
        # Both processes name the same state the same way.
        assert ask(writer, "GET", url)[1]["ETag"] == fresh_headers["ETag"]
    assert len(set(tags)) == 5


def test_wrong_codes_are_counted_across_processes(two: list[int]):
    # One phone tries 30 wrong codes, by turns through each process: ten are answered, the
    # rest wait, as if one process had counted them all.
    statuses = [
        ask(two[n % 2], "POST", "/api/join", {"code": f"WRONG{n:03d}"})[0] for n in range(30)
    ]
    assert statuses == [422] * 10 + [429] * 20


def workers(pid: int) -> int:
    """Count a server's worker processes, once it has started them all (a few seconds)."""
    for _ in range(100):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if len(children) >= 2:
            break
        time.sleep(0.1)
    return len(children)


def test_bin_serve_with_workers_serves_from_several_processes(tmp_path: Path):
    port = free_port()
    serve = ROOT / "bin" / "serve"
    server = started([str(serve)], tmp_path, PORT=str(port), HOST="127.0.0.1", WORKERS="2")
    try:
        listening(port, server)
        assert workers(server.pid) == 2
        status, _, match = ask(port, "POST", "/api/matches", LONG)
        assert status == 201
        bearer = {"Authorization": f"Bearer {match['scorer_token']}"}
        rounds = f"/api/matches/{match['id']}/rounds"
        statuses: list[int] = []

        def phone() -> None:
            statuses.extend(ask(port, "POST", rounds, DEAL, **bearer)[0] for _ in range(10))

        threads = [threading.Thread(target=phone) for _ in range(3)]
        for each in threads:
            each.start()
        for each in threads:
            each.join(timeout=60)
        assert statuses == [201] * 30
        assert len(ask(port, "GET", f"/api/matches/{match['id']}")[2]["rounds"]) == 30
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_bin_serve_uses_every_core_by_default(tmp_path: Path):
    assert "WORKERS" not in os.environ, "this test starts bin/serve as a user does"
    port = free_port()
    server = started([str(ROOT / "bin" / "serve")], tmp_path, PORT=str(port), HOST="127.0.0.1")
    try:
        listening(port, server)
        cores = len(os.sched_getaffinity(0))
        # One process per core: gunicorn's workers; on one core, waitress alone.
        assert workers(server.pid) == (cores if cores > 1 else 0)
        assert ask(port, "GET", "/api/games")[0] == 200
    finally:
        server.terminate()
        server.wait(timeout=10)


def secret_of(folder: str) -> str:
    """Read (or make) the session secret of an instance folder, as a starting process does."""
    return instance_secret(Path(folder))


def test_processes_starting_at_once_make_one_session_secret(tmp_path: Path):
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        secrets = pool.map(secret_of, [str(tmp_path / "instance")] * 8)
    assert len(set(secrets)) == 1 and len(secrets[0]) == 64
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o777 == 0o600
