"""Ratings: Elo worked by hand for two sides, partners and a table of four, derived again when
a finished match is corrected, removed or imported — on the API, the player page and the board.
Kept between reads: a round of a match still played derives nothing, a finish, correction,
import or rename reads only its board from the first match it changed, in this process and in
another over the same file, and what is kept always equals rating everything from scratch."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from api_helpers import (
    draw_round,
    finish_round,
    play,
    refused,
    rounds_url,
    start_event,
    start_match,
    unchained,
)
from flask import Flask
from flask.testing import FlaskClient
from html_reader import parse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database

from app import create_app
from scorebook import matches, players, ratings, storage
from scorebook.storage.database import rows
from scorebook.storage.migrations import migrations
from scorers import GAMES, Refusal
from scorers.base import FINISHED
from scorers.elo import Finished, expected, moves, places, rate
from tests.conftest import ScoringPhone

RAMI_TO_10 = {"game": "rami", "options": {"target": 10}}
BOARD_10 = ("rami", '{"target": 10}')
"""The board Rami to 10 is rated on: its game and variant, as stored."""


def won_by(winner: str, loser: str) -> dict:
    """A Rami round that ends a match to 10: the loser holds 12."""
    return {"outcome": "out", "winner": winner, "hands": {loser: {"points": 12, "melded": True}}}


def rami_match(client: FlaskClient, winner: str, loser: str) -> dict:
    match = start_match(client, RAMI_TO_10 | {"players": [winner, loser]})
    return play(client, match["id"], won_by(winner, loser))


def rating_of(client: FlaskClient, name: str, game: str = "rami") -> int:
    found = [r for r in client.get(f"/api/players/{name}").json["ratings"] if r["game"] == game]
    return found[0]["rating"]


def test_two_sides_move_as_elo_says():
    assert expected(1500, 1500) == 0.5
    assert moves({"Ana": 1500, "Bo": 1500}, {"Ana": 1, "Bo": 2}) == {"Ana": 16.0, "Bo": -16.0}
    # Bo, now 32 below, beats Ana: expected 1 / (1 + 10^(32/400)) = 0.454, so he takes 17.47.
    second = moves({"Ana": 1516, "Bo": 1484}, {"Ana": 2, "Bo": 1})
    assert round(second["Bo"], 2) == 17.47 and round(second["Ana"], 2) == -17.47


def test_a_table_of_four_shares_each_pair_of_places():
    moved = moves(dict.fromkeys("ABCD", 1500), {"A": 1, "B": 2, "C": 3, "D": 4})
    # A beats three: 32 × (3 × ½) / 3 = 16; B beats two and loses one: 32 × ½ / 3 = 5.33.
    assert {side: round(value, 2) for side, value in moved.items()} == {
        "A": 16.0,
        "B": 5.33,
        "C": -5.33,
        "D": -16.0,
    }


def test_partners_both_move_by_their_sides_move_and_a_shared_place_is_half():
    history = [
        Finished(
            1, ("belote", "{}"), {"NS": ("ana", "cy"), "EW": ("bo", "di")}, {"NS": 1, "EW": 2}
        ),
        Finished(
            2, ("belote", "{}"), {"NS": ("ana", "bo"), "EW": ("cy", "di")}, {"NS": 1, "EW": 1}
        ),
    ]
    board = rate(history)[("belote", "{}")].ratings
    assert (board["ana"].rating, board["cy"].rating) == (1516, 1516)
    assert (board["bo"].rating, board["di"].rating) == (1484, 1484)
    # Match 2: NS (1516 + 1484) / 2 = 1500 against EW (1516 + 1484) / 2 = 1500, level: no move.
    assert board["ana"].path == [(1, 1516), (2, 1516)]
    assert board["ana"].matches == 2


def test_places_put_the_winner_first_then_the_better_totals():
    assert places({"A": 10, "B": 30, "C": 30}, "A") == {"A": 1, "B": 2, "C": 2}
    assert places({"A": 10, "B": 30}, None) == {"B": 1, "A": 2}


def test_finished_matches_rate_their_players_and_playing_ones_do_not(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    assert (rating_of(client, "Ana"), rating_of(client, "Bo")) == (1516, 1484)
    start_match(client, RAMI_TO_10 | {"players": ["Ana", "Cy"]})
    assert client.get("/api/players/Cy").json["ratings"] == []
    rami_match(client, "Bo", "Ana")
    assert (rating_of(client, "Ana"), rating_of(client, "Bo")) == (1499, 1501)


def test_correcting_or_removing_a_finished_match_rates_as_a_replay_from_scratch(
    client: FlaskClient,
):
    first = rami_match(client, "Ana", "Bo")
    rami_match(client, "Bo", "Ana")
    assert rating_of(client, "Ana") == 1499
    # The first match was in fact won by Bo: Bo has won both, as if played so from the start.
    fixed = client.put(rounds_url(first["id"], 1), json=won_by("Bo", "Ana"))
    assert fixed.status_code == 200, fixed.json
    # Bo 1500 → 1516 (first), then 1516 against 1484: expected 0.546, + 14.53 → 1530.53.
    assert (rating_of(client, "Bo"), rating_of(client, "Ana")) == (1531, 1469)
    # Removing its only round leaves the first match unfinished: it no longer counts.
    assert client.delete(rounds_url(first["id"], 1)).status_code == 200
    assert (rating_of(client, "Bo"), rating_of(client, "Ana")) == (1516, 1484)


def test_variants_are_rated_apart(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    match = start_match(
        client, {"game": "rami", "options": {"target": 20}, "players": ["Ana", "Bo"]}
    )
    play(client, match["id"], won_by("Ana", "Bo"), won_by("Ana", "Bo"))
    ratings = client.get("/api/players/Ana").json["ratings"]
    assert [(r["variant"], r["rating"], r["matches"]) for r in ratings] == [
        ("Rami, to 10", 1516, 1),
        ("Rami, to 20", 1516, 1),
    ]


def test_the_leaderboard_ranks_after_five_matches(client: FlaskClient):
    for _ in range(5):
        rami_match(client, "Ana", "Bo")
    rami_match(client, "Cy", "Ana")
    board = client.get("/api/ratings?game=rami").json
    assert board["ranked_after"] == 5
    [variant] = board["boards"]
    assert [(p["rank"], p["player"]) for p in variant["players"]] == [(1, "Ana"), (2, "Bo")]
    assert variant["unranked"] == 1
    assert variant["players"][0]["rating"] > variant["players"][1]["rating"]
    page = parse(client.get("/ratings?game=rami")).text()
    assert "Ana" in page and "1 more player has not finished 5 matches yet" in page


@pytest.mark.parametrize("asked", ["", "?game=whist"])
def test_the_leaderboard_asks_for_a_game_it_scores(client: FlaskClient, asked: str):
    refused(client.get(f"/api/ratings{asked}"), 422, "game")


def test_the_player_page_shows_each_rating_with_its_path(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    rami_match(client, "Ana", "Bo")
    page = parse(client.get("/players/Ana"))
    table = page.find("table", cls="ratings")
    assert table is not None
    cells = [td.text().strip() for td in table.find("tbody").find_all("td")]
    assert cells[0].startswith("15") and cells[1] == "2"
    spark = table.find("svg")
    assert spark.attrs["aria-label"] == "From 1516 to 1531 over 2 matches"
    assert len(spark.find("polyline").attrs["points"].split()) == 2


def test_a_renamed_player_keeps_their_rating(client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    renamed = client.post("/api/players/Ana/rename", json={"to": "Anna"})
    assert renamed.status_code == 200
    assert rating_of(client, "Anna") == 1516


def test_imported_matches_are_rated_as_if_played_here(client: FlaskClient, tmp_path):
    rami_match(client, "Ana", "Bo")
    rami_match(client, "Bo", "Ana")
    history = client.get("/api/export").get_json()
    other = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "t"}
    ).test_client()
    assert other.get("/api/players/Ana").status_code == 404
    assert other.post("/api/import", json=history).status_code == 200
    assert (rating_of(other, "Ana"), rating_of(other, "Bo")) == (1499, 1501)


Read = tuple[tuple[str, str], int] | None
"""A read of finished matches for ratings: the board and the match it reads from, or None
for every board from the first match (rating from scratch)."""


def recording(made: list[Read]) -> Callable[..., list[tuple[Any, ...]]]:
    """Wrap storage.finished_seats so that every read ratings make is noted in `made`."""
    read = storage.finished_seats

    def recorded(db, board=None, since=("", 0)):
        made.append(None if board is None else (board, since[1]))
        return read(db, board, since)

    return recorded


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Read]:
    """Record every read of finished matches ratings make, in this process."""
    made: list[Read] = []
    monkeypatch.setattr(storage, "finished_seats", recording(made))
    return made


def stamp_of(app: Flask) -> int:
    """The stamp ratings are kept under, as any process reads it from the file."""
    with closing(storage.connect(app.config["DATABASE"])) as db:
        return storage.history_stamp(db)


def test_a_round_of_a_match_still_played_rates_nothing_again(
    app: Flask, client: FlaskClient, reads: list[Read]
):
    rami_match(client, "Ana", "Bo")
    assert rating_of(client, "Ana") == 1516
    assert reads == [None]
    stamp, playing = stamp_of(app), start_match(client, RAMI_TO_10 | {"players": ["Ana", "Cy"]})
    play(
        client,
        playing["id"],
        {"outcome": "out", "winner": "Cy", "hands": {"Ana": {"points": 5, "melded": True}}},
    )
    assert stamp_of(app) == stamp
    assert rating_of(client, "Ana") == 1516
    [board] = client.get("/api/ratings?game=rami").json["boards"]
    assert board["unranked"] == 2
    assert reads == [None]


def test_a_new_finish_is_rated_on_top_of_the_kept_ratings(client: FlaskClient, reads: list[Read]):
    rami_match(client, "Ana", "Bo")
    assert rating_of(client, "Ana") == 1516
    last = rami_match(client, "Ana", "Cy")
    # Ana at 1516 beats Cy at 1500: expected 0.523, so Ana takes 15.26.
    assert [rating_of(client, name) for name in ("Ana", "Bo", "Cy")] == [1531, 1484, 1485]
    assert reads == [None, (BOARD_10, last["id"])]


def test_a_match_started_earlier_and_finished_later_is_rated_in_its_place(
    client: FlaskClient, reads: list[Read]
):
    earlier = start_match(client, RAMI_TO_10 | {"players": ["Ana", "Bo"]})
    rami_match(client, "Cy", "Ana")
    assert rating_of(client, "Ana") == 1484
    play(client, earlier["id"], won_by("Ana", "Bo"))
    # Rated in the order started: Ana beats Bo (1516), then Cy (1500) beats her: 16.74.
    assert [rating_of(client, name) for name in ("Ana", "Bo", "Cy")] == [1499, 1484, 1517]
    assert reads == [None, (BOARD_10, earlier["id"])]


def test_a_correction_removal_or_restore_rates_only_its_board_from_that_match(
    client: FlaskClient, reads: list[Read]
):
    first = rami_match(client, "Ana", "Bo")
    rami_match(client, "Bo", "Ana")
    to_20 = start_match(
        client, {"game": "rami", "options": {"target": 20}, "players": ["Ana", "Bo"]}
    )
    play(client, to_20["id"], won_by("Ana", "Bo"), won_by("Ana", "Bo"))

    def ana() -> list[tuple[str, int]]:
        return [(r["variant"], r["rating"]) for r in client.get("/api/players/Ana").json["ratings"]]

    assert ana() == [("Rami, to 10", 1499), ("Rami, to 20", 1516)]
    fixed = client.put(rounds_url(first["id"], 1), json=won_by("Bo", "Ana"))
    assert fixed.status_code == 200, fixed.json
    assert ana() == [("Rami, to 10", 1469), ("Rami, to 20", 1516)]
    removed = client.delete(rounds_url(first["id"], 1))
    assert removed.status_code == 200, removed.json
    assert ana() == [("Rami, to 10", 1484), ("Rami, to 20", 1516)]
    [back] = removed.json["match"]["removed"]
    restored = client.post(f"/api/matches/{first['id']}/removed/{back['id']}/restore")
    assert restored.status_code == 200, restored.json
    assert ana() == [("Rami, to 10", 1469), ("Rami, to 20", 1516)]
    assert reads == [None, *[(BOARD_10, first["id"])] * 3]


def test_a_rename_or_a_merge_rates_again_from_the_players_first_match(
    client: FlaskClient, reads: list[Read]
):
    first = rami_match(client, "Bo", "Cy")
    second = rami_match(client, "Ana", "Bo")
    rami_match(client, "Ana", "Di")
    assert [rating_of(client, name) for name in ("Ana", "Cy", "Di")] == [1532, 1484, 1485]
    assert client.post("/api/players/Ana/rename", json={"to": "Anna"}).status_code == 200
    assert rating_of(client, "Anna") == 1532
    assert reads == [None, (BOARD_10, second["id"])]
    # Di and Cy never met: one person under two names, now rated as Cy from Cy's first match.
    assert client.post("/api/players/Di/rename", json={"to": "Cy"}).status_code == 200
    found = client.get("/api/players/Cy").json["ratings"]
    assert [(r["rating"], r["matches"]) for r in found] == [(1470, 2)]
    assert rating_of(client, "Anna") == 1531
    assert reads[2:] == [(BOARD_10, first["id"])]


def test_an_import_of_older_matches_rates_the_board_again_from_the_oldest(
    client: FlaskClient, reads: list[Read], tmp_path
):
    rami_match(client, "Cy", "Ana")
    assert rating_of(client, "Ana") == 1484
    elsewhere = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "t"}
    )
    elsewhere.test_client_class = ScoringPhone
    other = elsewhere.test_client()
    rami_match(other, "Ana", "Bo")
    exported = other.get("/api/export").get_data(as_text=True)
    # Its times written by hand, the file carries no chain: the edit would break it.
    times = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
    older = [
        unchained(each) for each in json.loads(re.sub(times, "2020-01-01T10:00:00Z", exported))
    ]
    reads.clear()
    assert client.post("/api/import", json=older).status_code == 200
    # Played in 2020, the import's match comes first: Ana beats Bo, then loses to Cy.
    assert [rating_of(client, name) for name in ("Ana", "Bo", "Cy")] == [1499, 1484, 1517]
    [imported] = [m for m in client.get("/api/matches").json["matches"] if "Bo" in m["players"]]
    assert reads == [(BOARD_10, imported["id"])]


OTHER_PROCESS = """
import json, sys
from app import create_app
client = create_app({"TESTING": True, "DATABASE": sys.argv[1], "SECRET_KEY": "t"}).test_client()
for path in sys.stdin:
    print(json.dumps(client.get(path.strip()).get_json()), flush=True)
"""
"""Another server process over the same file, with its own ratings kept: it reads each path
it is given and answers the JSON on one line."""


@pytest.fixture
def other_process(app: Flask) -> Iterator[Any]:
    """Start another process reading the app's file; return a function that asks it a path."""
    with subprocess.Popen(
        [sys.executable, "-c", OTHER_PROCESS, app.config["DATABASE"]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    ) as other:

        def ask(path: str) -> Any:
            other.stdin.write(f"{path}\n")
            other.stdin.flush()
            return json.loads(other.stdout.readline())

        yield ask
        other.stdin.close()


def test_a_change_made_in_one_process_is_rated_by_the_others_next_read(
    client: FlaskClient, other_process: Any
):
    def theirs(name: str) -> list[tuple[str, int]]:
        found = other_process(f"/api/players/{name}")["ratings"]
        return [(r["variant"], r["rating"]) for r in found]

    first = rami_match(client, "Ana", "Bo")
    assert theirs("Ana") == [("Rami, to 10", 1516)]
    rami_match(client, "Bo", "Ana")
    assert theirs("Ana") == [("Rami, to 10", 1499)]
    assert client.put(rounds_url(first["id"], 1), json=won_by("Bo", "Ana")).status_code == 200
    assert theirs("Bo") == [("Rami, to 10", 1531)]
    assert client.post("/api/players/Ana/rename", json={"to": "Anna"}).status_code == 200
    assert theirs("Anna") == [("Rami, to 10", 1469)]
    assert rating_of(client, "Anna") == 1469


def test_the_results_log_is_only_ever_added_to(app: Flask, client: FlaskClient):
    rami_match(client, "Ana", "Bo")
    with closing(storage.connect(app.config["DATABASE"])) as db:
        for statement in ("update results set match_id = 2", "delete from results"):
            with pytest.raises(storage.Duplicate, match="append-only"):
                db.execute(statement)
        assert storage.history_stamp(db) == 1


# --- kept and moved on, or rated from scratch: the same ratings -------------------------------

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
STEP = st.tuples(
    st.sampled_from(
        ("start",) * 2 + ("play",) * 5 + ("correct",) * 2 + ("remove", "restore", "rename")
    ),
    st.integers(0, 99),
    st.integers(0, 99),
)
"""What happens next at the club, and two numbers that pick who, which match and which round."""


def step(db: Any, action: str, a: int, b: int) -> None:
    """Start a match of Rami to 10 or 20, play, correct, remove or restore a round, or rename a
    player (to a new name, or merging into another); a refused step changes nothing."""
    found = rows(db, "select id, status from matches order by id")
    playing = [row["id"] for row in found if row["status"] != FINISHED]
    chosen = playing if action == "play" else [row["id"] for row in found]
    if action == "start" or not chosen:
        seated = [NAMES[(a + i) % len(NAMES)] for i in range(2 + b % 2)]
        matches.start(
            db, {"game": "rami", "options": {"target": 10 + 10 * (b % 2)}, "players": seated}
        )
        return
    match = matches.load(db, chosen[-1 - a % len(chosen)])
    table = match.table.players
    rounds = match.replay.rounds
    entered = {
        "outcome": "out",
        "winner": table[b % len(table)],
        "hands": {
            p: {"points": (4, 12, 24)[(a + b) % 3], "melded": True}
            for p in table
            if p != table[b % len(table)]
        },
    }
    try:
        if action == "play":
            matches.add_round(db, match.id, entered)
        elif action == "correct" and rounds:
            matches.correct_round(db, match.id, 1 + b % len(rounds), entered)
        elif action == "remove" and rounds:
            matches.remove_round(db, match.id, 1 + b % len(rounds))
        elif action == "restore" and match.removed:
            matches.restore_round(db, match.id, match.removed[b % len(match.removed)].id)
        elif action == "rename":
            names = [player["name"] for player in storage.list_players(db)]
            players.rename(db, names[a % len(names)], {"to": NAMES[b % len(NAMES)] + "x" * (b % 2)})
    except (Refusal, matches.Conflict, matches.NotFound):
        pass


def as_values(boards: dict[tuple[str, str], Any]) -> dict[tuple[str, str], Any]:
    """Every rating of every board, exactly, with the matches each board rated."""
    return {
        board: (
            {p: (r.rating, r.matches, r.path) for p, r in kept.ratings.items()},
            list(kept.rated),
        )
        for board, kept in boards.items()
    }


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(STEP, min_size=8, max_size=24))
def test_ratings_kept_and_moved_on_are_the_ratings_rated_from_scratch(steps):
    read, made = storage.finished_seats, []
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.object(storage, "finished_seats", recording(made)),
    ):
        path = str(Path(folder) / "club.sqlite")
        storage.prepare(path)
        with closing(storage.connect(path)) as db:
            for action, a, b in steps:
                step(db, action, a, b)
                scratch = rate(ratings.read_finished(read(db)))
                assert as_values(ratings.read_boards(db)) == as_values(scratch)
    assert made[:1] == [None] and None not in made[1:]


def test_players_with_few_matches_show_as_provisional_instead_of_an_empty_page(
    client: FlaskClient,
):
    """Before anyone has five finished matches the page lists everyone rated, marked
    provisional, best first; the JSON gives the same list, without ranks."""
    rami_match(client, "Ana", "Bo")
    [board] = client.get("/api/ratings?game=rami").json["boards"]
    assert board["players"] == []
    assert board["provisional"] == [
        {"player": "Ana", "rating": 1516, "matches": 1},
        {"player": "Bo", "rating": 1484, "matches": 1},
    ]
    page = parse(client.get("/ratings?game=rami"))
    rows = page.find("table", "provisional").find("tbody").find_all("tr")
    assert [row.find("th").text() for row in rows] == ["Ana", "Bo"]
    assert "(provisional)" in rows[0].text()


def test_a_match_of_fixed_length_is_kept_apart_from_a_race_to_its_target():
    key = GAMES["belote"].variant_key({"variant": "coinche", "target": 2000, "match_deals": 12})
    assert key == {"variant": "coinche", "deals": 12}
    assert GAMES["belote"].variant(key) == "Coinche, 12 deals"
    race = GAMES["belote"].variant_key({"variant": "coinche", "target": 2000})
    assert race == {"variant": "coinche", "target": 2000}
    assert GAMES["rami"].variant({"deals": 1}) == "Rami, 1 round"


def test_an_events_matches_have_boards_and_averages_of_their_own(client: FlaskClient):
    event, organiser = start_event(client)
    drawn = draw_round(client, event["id"], organiser, seed=7)
    finish_round(client, drawn, organiser)
    race = start_match(
        client,
        {
            "game": "belote",
            "options": {"variant": "coinche", "target": 1000},
            "players": ["Ana", "Bo", "Cy", "Di"],
            "teams": {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]},
        },
    )
    assert race["options"]["target"] == 1000
    games = client.get("/api/players/Ana").json["games"]
    assert sorted((g["variant"], g["matches"]) for g in games) == [
        ("Coinche, 1 deal", 1),
        ("Coinche, to 1000", 1),
    ]
    ratings = client.get("/api/players/Ana").json["ratings"]
    assert [r["variant"] for r in ratings] == ["Coinche, 1 deal"]


def test_the_migration_moves_fixed_length_matches_to_boards_of_their_own(tmp_path: Path):
    path = str(tmp_path / "old.sqlite")
    old = Database(path)
    migrations.apply(old, stop_before="m014_fixed_length_apart")
    at = "2026-03-01T10:00:00Z"
    row = {"created_utc": at, "updated_utc": at, "status": "finished", "rounds_played": 1}
    options = [
        {"variant": "coinche", "target": 2000, "match_deals": 12},
        {"variant": "coinche", "target": 2000},
    ]
    for match_id, chosen in enumerate(options, 1):
        old.table("matches").insert(
            row
            | {
                "id": match_id,
                "uid": f"u{match_id}",
                "game": "belote",
                "options_json": json.dumps(chosen),
                "variant_json": '{"target": 2000, "variant": "coinche"}',
                "players_json": '["Ana", "Bo", "Cy", "Di"]',
                "teams_json": json.dumps({"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}),
                "totals_json": '{"Nous": 900, "Eux": 400}',
                "winner": "Nous",
            }
        )
        old.table("seats").insert_all(
            {"match_id": match_id, "seat": seat, "name": name, "name_key": name.casefold(),
             "player_key": name.casefold(), "side": "Nous" if seat % 2 == 0 else "Eux"}
            for seat, name in enumerate(["Ana", "Bo", "Cy", "Di"])
        )  # fmt: skip
    old.execute(
        "insert into records (circle_id, player_key, game, variant_json, matches, finished, wins,"
        ' scored) select 1, player_key, \'belote\', \'{"target": 2000, "variant": "coinche"}\','
        " 2, 2, iif(side = 'Nous', 2, 0), iif(side = 'Nous', 1800, 800) from seats"
        " where match_id = 1"
    )
    old.conn.commit()
    old.close()
    storage.prepare(path)
    db = Database(path)
    variants = [r["variant_json"] for r in rows(db, "select variant_json from matches order by id")]
    assert variants == [
        '{"deals": 12, "variant": "coinche"}',
        '{"target": 2000, "variant": "coinche"}',
    ]
    ana = {
        r["variant_json"]: (r["matches"], r["finished"], r["wins"], r["scored"])
        for r in rows(db, "select * from records where player_key = 'ana'")
    }
    assert ana == {
        '{"deals": 12, "variant": "coinche"}': (1, 1, 1, 900),
        '{"target": 2000, "variant": "coinche"}': (1, 1, 1, 900),
    }
    assert [r["match_id"] for r in rows(db, "select match_id from results")] == [1]
    db.close()
