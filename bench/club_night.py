"""A club night on one server: T tables, each with a scoring phone posting a round every few
seconds and W phones watching its live view, against the server bin/serve starts (one
process per core; `--workers N` for N, as `WORKERS=N bin/serve`, 1 for waitress alone).

Prints, in one run: a round post alone and under load (p50/p99 and their ratio), how long a
watcher waits to see a new round (p50/p90), errors, requests served per second, and the
server's CPU and memory. Run by hand: `.venv/bin/python bench/club_night.py` (about 90 seconds).

What else a club night meets, each in the same run: `--slow 40` adds 40 phones that send
their request headers a byte every 2 s and 40 that ask for the whole history (`--history N`
matches) and never read it; `--imports 2000` has a phone import 2 000 new matches again and
again all night. The slowest post is printed too.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.postgres import Cluster  # noqa: E402
from tests.served import free_port  # noqa: E402

TEAMS = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 90}, "last_trick": "Nous"}
LIVE_EVERY = 5.0
"""How often the live view asks (static/app.js, LIVE_EVERY_MS)."""
VERSION = re.compile(rb'data-version="(\d+)"')


@contextlib.contextmanager
def database(engine: str, folder: str, settings: list[str]) -> Iterator[tuple[str, list[int]]]:
    """Give the address of a new database on the engine, and the processes of its server
    (none for a file): a file in the folder, or a database of a throwaway PostgreSQL cluster,
    stopped once the night is over."""
    if engine == "sqlite":
        yield os.path.join(folder, "club.sqlite"), []
        return
    cluster = Cluster(free_port()).start(durable=True, settings=settings)
    try:
        postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
        yield cluster.create("club"), [postmaster]
    finally:
        cluster.stop()


def serve(database: str, port: int, workers: int | None) -> subprocess.Popen:
    """Start the server with bin/serve itself, on 127.0.0.1, and wait until it answers."""
    env = {
        **os.environ,
        "TABLESCORE_DATABASE": database,
        "TABLESCORE_SECRET_KEY": "bench",
        # The bench's one address imports far more than a phone may without a passcode.
        "TABLESCORE_IMPORT_ALLOWANCE": "100000 per hour",
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    if workers is not None:
        env["WORKERS"] = str(workers)
    server = subprocess.Popen(
        [str(ROOT / "bin" / "serve")], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            time.sleep(1)  # every worker up, not only the first
            return server
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


class Phone:
    """One phone's keep-alive connection to the server."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def ask(self, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body)
        try:
            self.connection.request(method, path, data, headers)
            answer = self.connection.getresponse()
            return answer.status, answer.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            return 0, b""


def start(phone: Phone) -> dict[str, Any]:
    body = {"game": "belote", "teams": TEAMS, "options": {"target": 100000}}
    status, answer = phone.ask("POST", "/api/matches", body)
    assert status == 201, answer
    return json.loads(answer)


def timed_post(phone: Phone, match: dict[str, Any]) -> tuple[float, int]:
    began = time.perf_counter()
    status, _ = phone.ask("POST", f"/api/matches/{match['id']}/rounds", DEAL, match["scorer_token"])
    return time.perf_counter() - began, status


ALONE_PAUSE = 0.3
"""Seconds between the posts timed alone. A phone at the table posts now and then, never back
to back: a server answering round after round keeps its thread and caches warm, and would make
the alone figure one no table ever sees."""


def alone(port: int, posts: int) -> list[float]:
    """A scoring phone posting now and then with nobody else on the server."""
    phone = Phone(port)
    match = start(phone)
    times = []
    for _ in range(posts):
        time.sleep(ALONE_PAUSE)
        spent, status = timed_post(phone, match)
        assert status == 201
        times.append(spent)
    return times


class Night:
    """What every phone of the night saw, gathered under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.posts: list[float] = []
        self.seen: list[tuple[int, int, float]] = []
        self.seen_after: list[float] = []
        self.errors = 0
        self.requests = 0
        self.posted_at: dict[int, dict[int, float]] = {}
        self.imports = 0

    def note(self, status: int, ok: tuple[int, ...]) -> None:
        with self.lock:
            self.requests += 1
            if status not in ok:
                self.errors += 1


def scorer(port: int, match: dict[str, Any], night: Night, every: float, until: float) -> None:
    """Post a round every few seconds (jittered), noting when each version was made."""
    phone = Phone(port)
    version = 0
    time.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        spent, status = timed_post(phone, match)
        night.note(status, (201,))
        if status == 201:
            version += 1
            with night.lock:
                night.posts.append(spent)
                night.posted_at[match["id"]][version] = time.monotonic()
        time.sleep(max(0.0, every * random.uniform(0.8, 1.2) - spent))


def watcher(port: int, match: dict[str, Any], night: Night, until: float) -> None:
    """Ask as the live view does: the version it shows, every LIVE_EVERY seconds; note when
    each new version was first seen."""
    phone = Phone(port)
    shown = "0"
    path = f"/matches/{match['id']}/live/sheet"
    time.sleep(random.uniform(0, LIVE_EVERY))
    while time.monotonic() < until:
        status, body = phone.ask("GET", f"{path}?since={shown}")
        night.note(status, (200, 204))
        if status == 200:
            shown = VERSION.search(body).group(1).decode()
            with night.lock:
                night.seen.append((match["id"], int(shown), time.monotonic()))
        time.sleep(LIVE_EVERY)


def watching(ports: list[int], tables: list, per_table: int, until: float, out: Any) -> None:
    """Run every watching phone in a process of its own, so that their threads do not delay
    the scoring phones' timings; send back what they saw. With several servers, a table's
    watchers ask the servers after the one its scoring phone posts to, in turn."""
    night = Night()
    phones = [
        threading.Thread(target=watcher, args=(ports[(i + 1 + w) % len(ports)], m, night, until))
        for i, m in enumerate(tables)
        for w in range(per_table)
    ]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    out.send((night.seen, night.errors, night.requests))


def trickle(port: int, count: int, until: float) -> None:
    """Hold `count` sockets sending their request headers a byte every 2 s, and `count` that
    ask for the whole history and never read a byte of it."""
    hanging = []
    for _ in range(count):
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        hanging.append(slow)
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(("127.0.0.1", port))
        stalled.sendall(b"GET /api/export HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        hanging.append(stalled)
    while time.monotonic() < until:
        time.sleep(2)
        for slow in hanging[::2]:
            with contextlib.suppress(OSError):
                slow.sendall(b"X")
    for each in hanging:
        each.close()


def copies(port: int, count: int, prefix: str) -> list[dict[str, Any]]:
    """A match of four deals played here, exported, and copied under `count` new uids."""
    phone = Phone(port)
    match = start(phone)
    for _ in range(4):
        timed_post(phone, match)
    status, body = phone.ask("GET", f"/api/matches/{match['id']}/export")
    assert status == 200, body
    document = json.loads(body)
    return [document | {"uid": f"{prefix}-{i}"} for i in range(count)]


def importing(port: int, count: int, until: float, out: Any) -> None:
    """Import `count` new matches again and again until the night ends, in a process of its
    own (building and sending megabytes of JSON would hold up the scoring phones' threads);
    send back how many imports succeeded and how many requests were refused."""
    # The importing phone is another machine at a real club: here it shares the server's two
    # cores, so it gives way to the server as another machine would not take its cores at all.
    os.nice(10)
    done = failed = 0
    while time.monotonic() < until:
        phone = Phone(port)
        phone.connection.timeout = 300
        status, _ = phone.ask("POST", "/api/import", copies(port, count, f"night{done + failed}"))
        done += status == 200
        failed += status != 200
    out.send((done, failed))


def server_use(pids: list[int]) -> tuple[float, int, int]:
    """The servers' CPU seconds so far, their resident memory in bytes, their worker processes
    included, and how many processes serve (Linux /proc)."""
    cpu, rss, processes = 0.0, 0, 0
    for pid in pids:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for each in [pid, *map(int, children)]:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            status = Path(f"/proc/{each}/status").read_text().splitlines()
            rss += next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))
        processes += len(children) or 1
    return cpu, rss, processes


def opened_connections(address: str) -> int:
    """Count the connections open to a PostgreSQL database, or 0 for a file."""
    if "://" not in address:
        return 0
    with psycopg.connect(address) as conn:
        query = "select count(*) from pg_stat_activity where datname = current_database()"
        return conn.execute(query).fetchone()[0] - 1


def percentile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values (0 when there are none)."""
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=3, help="watching phones per table")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between a table's posts")
    parser.add_argument("--seconds", type=float, default=40.0, help="how long the night runs")
    parser.add_argument("--alone", type=int, default=100, help="posts timed with nobody else")
    parser.add_argument(
        "--workers", type=int, help="server processes (WORKERS; bin/serve's own default)"
    )
    parser.add_argument("--slow", type=int, default=0, help="slow phones, and as many stalled")
    parser.add_argument("--history", type=int, default=0, help="matches in the history")
    parser.add_argument("--imports", type=int, default=0, help="matches in each night's import")
    parser.add_argument(
        "--engine",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="postgresql: serve from a throwaway PostgreSQL cluster on 127.0.0.1 (Debian's "
        "postgresql package), stopped and deleted afterwards",
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the PostgreSQL server, as in postgresql.conf (again for more)",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="bin/serve processes over the one database, each on its port, as several "
        "machines would run it; tables are spread over them",
    )
    args = parser.parse_args()
    random.seed(20261201)
    with (
        tempfile.TemporaryDirectory() as folder,
        database(args.engine, folder, args.setting) as (address, engine_pids),
    ):
        ports = [free_port() for _ in range(args.servers)]
        servers: list[subprocess.Popen] = []
        port = ports[0]
        try:
            # One by one, each stopped below whichever fails to start.
            for each in ports:
                servers.append(serve(address, each, args.workers))
            if args.history:
                status, body = Phone(port).ask(
                    "POST", "/api/import", copies(port, args.history, "old")
                )
                assert status == 200, body
            quiet = alone(port, args.alone)
            night = Night()
            setup = Phone(port)
            tables = [start(setup) for _ in range(args.tables)]
            for match in tables:
                night.posted_at[match["id"]] = {}
            pids = [server.pid for server in servers]
            cpu_before, _, _ = server_use(pids)
            engine_before, _, _ = server_use(engine_pids)
            began = time.monotonic()
            until = began + args.seconds
            received, sent = multiprocessing.Pipe(duplex=False)
            watchers = multiprocessing.Process(
                target=watching, args=(ports, tables, args.watchers, until, sent)
            )
            watchers.start()
            scorers = [
                threading.Thread(
                    target=scorer, args=(ports[i % len(ports)], m, night, args.every, until)
                )
                for i, m in enumerate(tables)
            ]
            if args.slow:
                scorers.append(threading.Thread(target=trickle, args=(port, args.slow, until)))
            imported, importer_said = multiprocessing.Pipe(duplex=False)
            importer = multiprocessing.Process(
                target=importing, args=(port, args.imports, until, importer_said)
            )
            if args.imports:
                importer.start()
            for phone in scorers:
                phone.start()
            for phone in scorers:
                phone.join(timeout=args.seconds + 300)
            seen, errors, requests = received.recv()
            watchers.join(timeout=60)
            if args.imports:
                night.imports, failed = imported.recv()
                importer.join(timeout=300)
                night.errors += failed
                night.requests += night.imports + failed
            night.errors += errors
            night.requests += requests
            # Counted from when the round's post was answered, not from its version's first
            # appearance: a watcher may skip a version that came and went between two looks.
            for match_id, version, at in seen:
                made = night.posted_at[match_id].get(version)
                if made is not None:
                    night.seen_after.append(at - made)
            elapsed = time.monotonic() - began
            cpu_after, rss, processes = server_use(pids)
            engine_after, engine_rss, _ = server_use(engine_pids)
            connections = opened_connections(address)
        finally:
            for server in servers:
                server.terminate()
                server.wait(timeout=10)
    report(args, quiet, night, elapsed, cpu_after - cpu_before, rss, processes)
    if engine_pids:
        use = (engine_after - engine_before) / elapsed * 100
        print(f"PostgreSQL: {use:.0f}% of one core, {engine_rss / 2**20:.0f} MiB resident,")
        print(f"  {connections} connections open at the end of the night (every server's pools)")


def report(
    args: Any,
    quiet: list[float],
    night: Night,
    elapsed: float,
    cpu: float,
    rss: int,
    processes: int,
):
    ms = 1000
    alone_p50, alone_p99 = percentile(quiet, 0.5), percentile(quiet, 0.99)
    load_p50, load_p99 = percentile(night.posts, 0.5), percentile(night.posts, 0.99)
    seen_p50, seen_p90 = percentile(night.seen_after, 0.5), percentile(night.seen_after, 0.9)
    engine = "PostgreSQL" if args.engine == "postgresql" else "SQLite"
    print(
        f"Club night ({args.servers} × bin/serve, {processes} server processes, {engine}): "
        f"{args.tables} tables, {args.watchers}"
    )
    print(f"watching phones each, a round per table every {args.every:g} s, {elapsed:.0f} s;")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores.")
    print()
    if args.slow:
        print(f"{args.slow} phones sending headers a byte every 2 s, {args.slow} stalled exports")
    if args.imports:
        print(f"{night.imports} imports of {args.imports} matches each during the night")
    print(f"round post alone       p50 {alone_p50 * ms:7.1f} ms   p99 {alone_p99 * ms:7.1f} ms")
    print(f"round post, club night p50 {load_p50 * ms:7.1f} ms   p99 {load_p99 * ms:7.1f} ms")
    print(f"slowest round post     {max(night.posts, default=0) * ms:7.1f} ms")
    ratio = load_p99 / alone_p50
    print(
        f"p99 under load / p50 alone: {ratio:.1f}×  (budget ≤ 3×: {'ok' if ratio <= 3 else 'OVER'})"
    )
    limit = LIVE_EVERY + 1
    verdict = "ok" if seen_p90 <= limit else "OVER"
    print(f"a watcher sees a new round after p50 {seen_p50:.2f} s, p90 {seen_p90:.2f} s")
    print(f"  (budget: within its polling interval + 1 s = {limit:g} s: {verdict})")
    verdict = "ok" if not night.errors else "OVER"
    print(f"errors: {night.errors} of {night.requests} requests ({verdict})")
    print(f"served {night.requests / elapsed:.0f} requests/s; {len(night.posts)} rounds posted")
    print(f"server: {cpu / elapsed * 100:.0f}% of one core, {rss / 2**20:.0f} MiB resident")


if __name__ == "__main__":
    main()
