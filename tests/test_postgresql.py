"""The PostgreSQL engine's own words: statements written once for both engines said with
psycopg's marks, the tables whose ids the database gives, the same numbered migrations making
the same tables as on SQLite, addresses printed without their password, faults named as
storage's own, and one writer at a time across connections."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path

import psycopg
import pytest
import sqlite_utils

from app import create_app
from scorebook import storage
from scorebook.storage import migrations, postgresql
from scorebook.storage.postgresql_steps import STEPS
from tests.postgres import Cluster


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("select * from matches where id = ?", "select * from matches where id = %s"),
        ("update t set a = :a where id = :id", "update t set a = %(a)s where id = %(id)s"),
        ("select (x)::jsonb ->> ? from t", "select (x)::jsonb ->> %s from t"),
        (
            "select name like 'A%' from t where id = ?",
            "select name like 'A%%' from t where id = %s",
        ),
        ("select '12:30' from t where id = ?", "select '12:30' from t where id = %s"),
    ],
)
def test_a_statement_is_said_with_psycopgs_marks(written: str, said: str):
    assert postgresql.spoken(written, [1]) == (said, [1])


def test_a_statement_without_parameters_is_said_as_written():
    assert postgresql.spoken("select 1 where 'a%' = 'a%'", ()) == (
        "select 1 where 'a%' = 'a%'",
        None,
    )


def test_every_table_whose_id_the_database_gives_is_known(cluster: Cluster):
    with psycopg.connect(cluster.url("migrated")) as conn:
        given = {
            row[0]
            for row in conn.execute(
                "select table_name from information_schema.columns where column_name = 'id' "
                "and is_identity = 'YES' and table_schema = current_schema()"
            )
        }
    assert given == postgresql.KEYED_BY_ID


def test_an_address_is_printed_without_its_password():
    url = "postgresql://club:s3cret@db.example.org:5432/tablescore"
    assert storage.shown(url) == "postgresql://club:***@db.example.org:5432/tablescore"
    assert storage.shown("/srv/tablescore/instance/tablescore.sqlite").endswith(".sqlite")
    assert storage.engine_name(url) == "postgresql"
    assert storage.engine_name("postgres://club@db/tablescore") == "postgresql"
    assert storage.engine_name("instance/tablescore.sqlite") == "sqlite"


def test_a_database_nobody_answers_for_is_unavailable():
    nobody = "postgresql://postgres@127.0.0.1:9/nowhere?connect_timeout=1"
    with pytest.raises(storage.Unavailable):
        storage.prepare(nobody)


def test_a_second_row_with_the_same_key_is_a_duplicate(database: str, engine: str):
    with storage.opened(database) as db, storage.writing(db):
        db.execute("insert into tries (key, count, expires) values (?, 1, 1.0)", ["k"])
        with pytest.raises(storage.Duplicate):
            db.execute("insert into tries (key, count, expires) values (?, 1, 1.0)", ["k"])


def test_changes_wait_for_each_other_across_connections(database: str, engine: str):
    """Two changes from two connections (two servers, on PostgreSQL) never interleave: the
    second starts once the first committed, and reads what it wrote."""
    seen: list[int] = []
    first_in = threading.Event()

    def change(pause: float) -> None:
        with storage.opened(database) as db, storage.writing(db):
            first_in.set()
            count = db.execute("select count(*) from tries").fetchone()[0]
            time.sleep(pause)
            db.execute("insert into tries (key, count, expires) values (?, 1, 1.0)", [f"k{count}"])
            seen.append(count)

    slow = threading.Thread(target=change, args=(0.5,))
    slow.start()
    first_in.wait(5)
    change(0)
    slow.join(10)
    assert seen == [0, 1]


def test_both_engines_apply_the_same_numbered_migrations_to_the_same_schema(
    cluster: Cluster, migrated: Path
):
    sqlite_db = sqlite_utils.Database(migrated)
    done_on_sqlite = [each.name for each in migrations.migrations.applied(sqlite_db)]
    assert done_on_sqlite == list(STEPS)
    sqlite_schema = {
        table.name: sorted(table.columns_dict)
        for table in sqlite_db.tables
        if not table.name.startswith("_sqlite_migrations")
    }
    with psycopg.connect(cluster.url("migrated")) as conn:
        done = [
            row[0] for row in conn.execute("select name from tablescore_migrations order by name")
        ]
        columns: dict[str, list[str]] = {}
        for table, column in conn.execute(
            "select table_name, column_name from information_schema.columns "
            "where table_schema = current_schema() and table_name <> 'tablescore_migrations' "
            "order by table_name, column_name"
        ):
            columns.setdefault(table, []).append(column)
    assert done == list(STEPS)
    assert columns == sqlite_schema


def chained(changes: list[dict]) -> list[str]:
    """Chain changes as API.md says, independently of the product's code."""
    hashes, previous = [], ""
    for change in changes:
        shown = {key: value for key, value in change.items() if key != "hash"}
        text = json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        previous = hashlib.sha256((previous + text).encode()).hexdigest()
        hashes.append(previous)
    return hashes


def test_m016_chains_the_logs_a_database_kept_before_it(cluster: Cluster):
    url = cluster.create("before_m016")
    app = create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "t"})
    client = app.test_client()
    teams = {"ما": ["آنا", "کوروش"], "آنها": ["بهرام", "داریوش"]}
    match = client.post("/api/matches", json={"game": "belote", "teams": teams}).json
    scorer = {"Authorization": f"Bearer {match['scorer_token']}"}
    path = f"/api/matches/{match['id']}"
    deal = {"taker": "آنا", "trump": "hearts", "points": {"ما": 100}, "last_trick": "ما"}
    for points in (100, 90):
        response = client.post(
            f"{path}/rounds", json=deal | {"points": {"ما": points}}, headers=scorer
        )
        assert response.status_code == 201
    assert client.put(f"{path}/rounds/1", json=deal, headers=scorer).status_code == 200
    assert client.delete(f"{path}/rounds/2", headers=scorer).status_code == 200
    assert client.patch(path, json={"place": "کافه"}, headers=scorer).status_code == 200
    kept = client.get(f"{path}/log").json["changes"]
    storage.let_go(url)
    # The database as m015 left it: no chain, no sides; then migrated again.
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "ALTER TABLE changes DROP COLUMN hash; DROP TABLE side_phones; "
            "ALTER TABLE matches DROP COLUMN scorer_side; ALTER TABLE events DROP COLUMN confirm; "
            "DELETE FROM tablescore_migrations WHERE name = 'm016_sides_confirm'"
        )
    storage.prepare(url)
    again = create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "t"}).test_client()
    log = again.get(f"{path}/log").json["changes"]
    assert log == kept
    assert [change["hash"] for change in log] == chained(kept)
    assert [change["action"] for change in log] == ["add", "add", "correct", "remove", "details"]
    # The log refuses to be rewritten again.
    with psycopg.connect(url) as conn, pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        conn.execute("UPDATE changes SET hash = 'x'")
    storage.let_go(url)
