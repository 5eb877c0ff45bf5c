"""A throwaway PostgreSQL cluster for the tests: Debian's PostgreSQL, initialised in a folder of
its own and started on a free port of 127.0.0.1, stopped and deleted when the tests end.

initdb refuses to run as root: under root (CI's container) the cluster belongs to the
`postgres` user Debian's package makes. The tests' data never needs to survive a crash, so
their cluster runs without fsync; a benchmark's runs with PostgreSQL's own settings.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import psycopg

BIN = Path("/usr/lib/postgresql")
OWNER = "postgres"


def binaries() -> Path | None:
    """Return the folder of the newest PostgreSQL Debian installed, or None."""
    found = sorted(BIN.glob("*/bin/initdb"), key=lambda path: int(path.parent.parent.name))
    return found[-1].parent if found else None


class Cluster:
    """A cluster of our own: `url(name)` addresses one of its databases."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.bin = binaries()
        if self.bin is None:
            raise FileNotFoundError("PostgreSQL is missing: apt-get install postgresql")
        self.folder = Path(tempfile.mkdtemp(prefix="tablescore-postgres-"))
        self.data = self.folder / "data"
        self.as_owner = os.geteuid() == 0
        if self.as_owner:
            owner = pwd.getpwnam(OWNER)
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)

    def run(self, *command: str) -> None:
        """Run one of PostgreSQL's programs, as its owner when we are root."""
        prefix = ["runuser", "-u", OWNER, "--"] if self.as_owner else []
        subprocess.run(
            [*prefix, str(self.bin / command[0]), *command[1:]],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.folder,
        )

    def start(self, durable: bool = False, settings: Sequence[str] = ()) -> Cluster:
        """Initialise the cluster and start it, answering on 127.0.0.1 only: for the tests,
        without writing to disk what a crash would lose; `durable`, with PostgreSQL's own
        settings, as a benchmark measures a real server; `settings` ("name=value") on top."""
        self.run("initdb", "-D", str(self.data), "-U", OWNER, "--auth=trust", "--no-locale",
                 "-E", "UTF8")  # fmt: skip
        chosen = ["listen_addresses=127.0.0.1", "max_connections=300", *settings]
        if not durable:
            chosen += ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]
        options = f"-p {self.port} -k {self.folder} " + " ".join(f"-c {each}" for each in chosen)
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-w", "-l",
                 str(self.folder / "log"), "start")  # fmt: skip
        return self

    def url(self, name: str = "postgres") -> str:
        """Return the address of one of the cluster's databases."""
        return f"postgresql://{OWNER}@127.0.0.1:{self.port}/{name}"

    def create(self, name: str, template: str | None = None) -> str:
        """Create a database (a copy of `template`, if given) and return its address."""
        copy = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}{copy}")
        return self.url(name)

    def drop(self, name: str) -> None:
        """Drop a database, whoever is still connected to it."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the cluster at once and delete its folder."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


class Spares:
    """Databases of the cluster as a migrated one stands, one lent to each test and wiped back
    to that state after it: copying the migrated database costs a third of a second, a wipe a
    few milliseconds."""

    def __init__(self, cluster: Cluster, migrated: str) -> None:
        self.cluster = cluster
        self.migrated = migrated
        self.free: list[str] = []
        self.numbers = itertools.count()
        self.lendings = itertools.count()
        with psycopg.connect(cluster.url(migrated), autocommit=True) as conn:
            self.wipe = wipe_back(conn)

    def lend(self) -> str:
        """Return the address of a database as the migrated one stands, an address no test
        had before: what a process keeps in memory per database (replays, ratings) is kept
        under its address, as it would be for a database that is never wiped."""
        if self.free:
            address = self.cluster.url(self.free.pop())
        else:
            address = self.cluster.create(f"test_{next(self.numbers)}", template=self.migrated)
        return f"{address}?application_name=lent{next(self.lendings)}"

    def take_back(self, address: str) -> None:
        """Wipe a lent database back to the migrated state for the next test; one that cannot
        be wiped at once (a connection still holds a lock) is dropped instead."""
        name = address.rsplit("/", 1)[1].split("?")[0]
        try:
            with psycopg.connect(address, autocommit=True) as conn:
                conn.execute("SET lock_timeout = '2s'")
                with conn.transaction():
                    for sql, rows in self.wipe:
                        with conn.cursor() as cursor:
                            cursor.executemany(sql, rows) if rows else cursor.execute(sql)
        except psycopg.Error:
            self.cluster.drop(name)
            return
        self.free.append(name)


def wipe_back(conn: psycopg.Connection) -> list[tuple[str, list[tuple]]]:
    """Return the statements that bring a copy of this database back to its rows of now: every
    table emptied and refilled, every sequence set back, with triggers (the logs' refusals,
    foreign keys) off meanwhile."""
    tables = [
        row[0]
        for row in conn.execute(
            "select table_name from information_schema.tables "
            "where table_schema = current_schema() and table_type = 'BASE TABLE'"
        )
    ]
    wipe: list[tuple[str, list[tuple]]] = [("SET LOCAL session_replication_role = replica", [])]
    wipe += [(f"DELETE FROM {table}", []) for table in tables]
    for table in tables:
        cursor = conn.execute(f"SELECT * FROM {table}")
        rows = cursor.fetchall()
        if rows:
            marks = ", ".join(["%s"] * len(cursor.description))
            wipe.append((f"INSERT INTO {table} VALUES ({marks})", rows))
    for name, last, called in conn.execute(
        "select sequencename, coalesce(last_value, 1), last_value is not null from pg_sequences "
        "where schemaname = current_schema()"
    ):
        wipe.append((f"SELECT setval('{name}', {last}, {called})", []))
    return wipe
