"""Storage: the schema, WAL and foreign keys, one transaction per change, the append-only log."""

from __future__ import annotations

import threading

import pytest
from sqlite_utils import Database

from app import create_app
from scorebook import matches, storage
from scorebook.storage.database import rows
from scorebook.storage.migrations import migrations
from scorers import words
from web.db import get_db

ROUND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}


@pytest.fixture
def db(database):
    """Return a connection to a freshly prepared database, on the run's engine."""
    connection = storage.connect(database)
    yield connection
    connection.close()


@pytest.fixture
def match(db) -> matches.Match:
    """Start a two-player Rami match."""
    return matches.start(db, {"game": "rami", "players": ["Ana", "Bo"]})


@pytest.mark.sqlite_only
def test_prepare_creates_the_schema_in_wal_mode(db):
    files = Database(db.conn)
    assert {"matches", "seats", "rounds", "changes"} <= set(files.table_names())
    assert files.journal_mode == "wal"
    assert migrations.pending(files) == []
    assert migrations.applied(files)[0].name == "m001_matches"
    assert db.execute("PRAGMA foreign_keys").fetchone() == (1,)


@pytest.mark.sqlite_only
def test_prepare_twice_changes_nothing(tmp_path):
    path = str(tmp_path / "again.sqlite")
    storage.prepare(path)
    applied = migrations.applied(Database(path))
    storage.prepare(path)
    assert migrations.applied(Database(path)) == applied


def test_foreign_keys_refuse_a_round_of_no_match(db):
    with pytest.raises(storage.Duplicate):
        storage.insert_round(db, 999, ROUND, storage.now_utc())


def test_the_change_log_refuses_update_and_delete(db, match):
    matches.add_round(db, match.id, ROUND)
    for statement in ("update changes set action = 'add'", "delete from changes"):
        with pytest.raises(storage.Duplicate, match="append-only"):
            db.execute(statement)
    assert len(storage.changes(db, match.id)) == 1


def test_a_failed_change_leaves_nothing_behind(db, match, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(storage, "log_change", broken)
    with pytest.raises(RuntimeError):
        matches.add_round(db, match.id, ROUND)
    assert db.execute("select count(*) from rounds").fetchone()[0] == 0
    assert storage.get_match(db, match.id)["rounds_played"] == 0


def test_rounds_are_stored_as_entered_and_the_cache_follows_the_replay(db, match):
    matches.add_round(db, match.id, {**ROUND, "winner": "ana"})
    stored = storage.live_rounds(db, match.id)
    assert [row["input"] for row in stored] == [ROUND]
    row = storage.get_match(db, match.id)
    assert (row["totals"], row["status"], row["rounds_played"]) == (
        {"Ana": 0, "Bo": 12},
        "playing",
        1,
    )


def test_a_correction_keeps_the_version_it_replaced(db, match):
    matches.add_round(db, match.id, ROUND)
    corrected = {**ROUND, "hands": {"Bo": {"points": 20, "melded": True}}}
    matches.correct_round(db, match.id, 1, corrected)
    log = storage.changes(db, match.id)
    assert [(c["action"], c["input"], c["replaced"]) for c in log] == [
        ("add", ROUND, None),
        ("correct", corrected, ROUND),
    ]
    assert storage.get_match(db, match.id)["totals"] == {"Ana": 0, "Bo": 20}


def test_a_removed_round_stays_in_the_database(db, match):
    matches.add_round(db, match.id, ROUND)
    matches.remove_round(db, match.id, 1)
    assert storage.live_rounds(db, match.id) == []
    assert db.execute("select count(*) from rounds").fetchone()[0] == 1
    assert [c["action"] for c in storage.changes(db, match.id)] == ["add", "remove"]
    assert storage.get_match(db, match.id)["totals"] == {"Ana": 0, "Bo": 0}


@pytest.mark.sqlite_only  # the plan SQLite makes
def test_history_finds_a_player_through_the_seats_index(db, match):
    matches.start(db, {"game": "rami", "players": ["Cy", "Di"]})
    rows, total = storage.find_matches(db, player="  BO ")
    assert ([row["id"] for row in rows], total) == ([match.id], 1)
    plan = db.execute(
        "explain query plan select match_id from seats where circle_id = 1 and player_key = ?",
        ["bo"],
    ).fetchall()
    assert "USING COVERING INDEX seats_by_player" in " ".join(str(step) for step in plan)


def test_the_database_defaults_to_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.setattr("flask.Flask.auto_find_instance_path", lambda self: str(tmp_path / "inst"))
    app = create_app({"TESTING": True})
    assert app.config["DATABASE"] == str(tmp_path / "inst" / "tablescore.sqlite")
    assert (tmp_path / "inst" / "tablescore.sqlite").exists()
    secret = tmp_path / "inst" / "secret_key"
    assert secret.stat().st_mode & 0o777 == 0o600
    assert app.config["SECRET_KEY"] == secret.read_text()
    assert create_app({"TESTING": True}).config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_the_database_path_can_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLESCORE_DATABASE", str(tmp_path / "env.sqlite"))
    app = create_app({"TESTING": True, "SECRET_KEY": "test"})
    assert app.config["DATABASE"] == str(tmp_path / "env.sqlite")
    assert (tmp_path / "env.sqlite").exists()


def test_two_phones_recording_at_once_both_count_in_order(tmp_path):
    path = str(tmp_path / "race.sqlite")
    storage.prepare(path)
    first = storage.connect(path)
    match_id = matches.start(first, {"game": "rami", "players": ["Ana", "Bo"]}).id
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def record(points: int) -> None:
        phone = storage.connect(path)
        start.wait()
        try:
            matches.add_round(
                phone, match_id, {**ROUND, "hands": {"Bo": {"points": points, "melded": True}}}
            )
        except BaseException as error:
            failures.append(error)
        finally:
            phone.close()

    phones = [threading.Thread(target=record, args=(points,)) for points in (2, 3, 4, 5)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert failures == []
    stored = [row["input"]["hands"]["Bo"]["points"] for row in storage.live_rounds(first, match_id)]
    assert sorted(stored) == [2, 3, 4, 5]
    assert [c["n"] for c in storage.changes(first, match_id)] == [1, 2, 3, 4]
    assert storage.get_match(first, match_id)["totals"] == {"Ana": 0, "Bo": 14}
    first.close()


def test_a_kept_replay_is_only_reused_for_the_same_state_and_language(app, client, new_match):
    """Replays kept in memory follow every change and each reader's language."""
    match = new_match("rami", ("Ana", "Bo"))
    rounds = f"/api/matches/{match['id']}/rounds"
    hand = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}
    with app.app_context():
        assert matches.load(get_db(), match["id"]).replay.totals == {"Ana": 0, "Bo": 0}
        assert matches.load(get_db(), match["id"]) is not matches.load(get_db(), match["id"])
    client.post(rounds, json=hand)
    with app.app_context():
        assert matches.load(get_db(), match["id"]).replay.totals == {"Ana": 0, "Bo": 12}
        # The post kept its replay in place of the one before it, which nobody asks for again.
        here = storage.path_of(get_db())
        kept = {key[1:3] for key in matches.REPLAYED.kept if key[0] == here}
        assert (match["id"], 1) in kept and (match["id"], 0) not in kept
    client.put(f"{rounds}/1", json=hand | {"hands": {"Bo": {"points": 30, "melded": True}}})
    with app.app_context():
        english = matches.load(get_db(), match["id"])
        assert english.replay.totals == {"Ana": 0, "Bo": 30}
        words.speak("fr")
        try:
            french = matches.load(get_db(), match["id"]).replay.rounds[0].explanation
        finally:
            words.speak(None)
        assert english.replay.rounds[0].explanation[0] == "Ana went out: 0."
        assert french[0] != "Ana went out: 0."
    client.delete(f"{rounds}/1")
    with app.app_context():
        assert matches.load(get_db(), match["id"]).rounds == []


def test_a_held_file_keeps_its_wal_between_requests_and_lets_go_unharmed(tmp_path):
    path = str(tmp_path / "held.sqlite")
    app = create_app({"DATABASE": path, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    assert client.get("/api/matches").status_code == 200
    started = client.post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo"]})
    assert started.status_code == 201
    # The request's connection closed, but the held one kept the file from being checkpointed
    # and its WAL deleted (which the next request would build again).
    assert (tmp_path / "held.sqlite-wal").exists()
    # The file is replaced while held; letting go of it (others held after it) writes nothing
    # into the new file and deletes none of its WAL.
    for name in ("held.sqlite", "held.sqlite-wal", "held.sqlite-shm"):
        (tmp_path / name).rename(tmp_path / f"old-{name}")
    storage.prepare(path)
    db = storage.connect(path)
    matches.start(db, {"game": "rami", "players": ["Cy", "Di"]})
    for i in range(storage.HELD_FILES):
        other = str(tmp_path / f"other-{i}.sqlite")
        storage.prepare(other)
        storage.hold_open(other)
    assert path not in storage.HELD
    assert [r["players"] for r in rows(db, "select players_json as players from matches")] == [
        '["Cy", "Di"]'
    ]
    db.close()
