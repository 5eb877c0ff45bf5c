#!/usr/bin/env python3
"""Tablescore's performance benchmark (issue 10): one process, one run, numbers printed.

    python3 bench/bench.py                      # 100 000 matches in a temporary file
    python3 bench/bench.py --matches 10000 --repeat 30 --db /tmp/ts.sqlite --keep
    python3 bench/bench.py --engine postgresql  # the same, in a throwaway PostgreSQL cluster

It builds a database of N matches of all five games with their rounds through the app's own
storage code (storage.insert_match, insert_round, log_change, cache_result, access.issue, in large
storage.writing transactions), with totals, status and winner cached from each scorer's replay.
It adds one Porrazo match of 200 events, and fresh copies of it to post the 201st event to, and
a belote concours of 40 tables and 4 rounds (12 deals a match) whose pages it times too.
Then, with Flask's test client in this same process, it times (median of --repeat calls after
--warmup calls) posting a round, the match page, history filtered by a player (page and API),
a player page and the export of one match, and the floor: a bare Flask app whose one route does
one insert into the same kind of database and renders a one-line template. It prints each
median, its ratio to the floor, the database size, the build time, and the bytes each page sends
with the CSS, JS and images it references, and the cache headers of the static files.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask, render_template, request  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from jinja2 import DictLoader  # noqa: E402
from psycopg_pool import ConnectionPool  # noqa: E402

from app import create_app  # noqa: E402
from scorebook import access, events, matches, ratings, storage  # noqa: E402
from scorers import GAMES, Refusal, RoundImpossible, Table  # noqa: E402
from scorers.base import FINISHED  # noqa: E402
from scorers.draw import (  # noqa: E402
    Finished,
    draw,
    meetings,
    met_masks,
    ranked,
    seating,
    table_sizes,
    tally,
)
from tests.postgres import Cluster  # noqa: E402
from tests.served import free_port  # noqa: E402

SEED = 20261129
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
YEARS = 10
BATCH = 1000
"""Matches stored per transaction while building."""

# --- players ----------------------------------------------------------------------------------

FIRST = ("Ma", "Lu", "Jo", "Ka", "Ro", "Sa", "Ti", "Ne", "Pa", "Vi")
FIRST += ("Be", "Da", "El", "Fi", "Go", "Hu", "Is", "Ju", "Le", "Mi")
LAST = ("ra", "no", "la", "ck", "rt", "na", "ri", "ssa", "nd", "x")
POOL = [first + last for first in FIRST for last in LAST]
"""200 names: every match seats a few of them, so each plays in about 1.8% of all matches."""


# --- legal rounds of each game, drawn from a seeded generator --------------------------------


def split(rng: random.Random, total: int, parts: int) -> list[int]:
    """Split `total` into `parts` whole numbers >= 0."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def rami_start(rng: random.Random, players: list[str]) -> dict[str, Any]:
    return {"game": "rami", "players": players, "options": {}}


def rami_hand(rng: random.Random, melded: bool | None = None) -> dict[str, Any]:
    melded = rng.random() < 0.6 if melded is None else melded
    if rng.random() < 0.7:
        cards = [rng.choice(("JK", *RANKS)) for _ in range(rng.randint(1, 4))]
        return {"cards": cards, "melded": melded}
    return {"points": rng.randint(0, 40), "melded": melded}


def rami_round(rng: random.Random, start: dict[str, Any], _i: int) -> dict[str, Any]:
    players = start["players"]
    outcome = rng.choice(("out", "out", "out", "out", "rami_sec", "blocked"))
    if outcome == "blocked":
        return {"outcome": outcome, "hands": {name: rami_hand(rng) for name in players}}
    winner = rng.choice(players)
    others = [name for name in players if name != winner]
    if outcome == "out":
        return {"outcome": outcome, "winner": winner, "hands": {n: rami_hand(rng) for n in others}}
    return {"outcome": outcome, "winner": winner, "hands": {}}


ANNOUNCED = (0, 0, 0, 0, 0, 20, 20, 50, 100)
CONTRACTS = (*range(80, 161, 10), "capot")


def belote_start(rng: random.Random, players: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {
        "variant": rng.choice(("classic", "classic", "coinche")),
        "rules": rng.choice(("maison", "official")),
    }
    teams = {"Nous": players[:2], "Eux": players[2:4]}
    return {"game": "belote", "teams": teams, "options": options}


def belote_round(rng: random.Random, start: dict[str, Any], _i: int) -> dict[str, Any]:
    options, teams = start["options"], start["teams"]
    coinche = options["variant"] == "coinche"
    trump = rng.choice(("hearts", "diamonds", "clubs", "spades", "no_trump"))
    total = 120 if trump == "no_trump" and options["rules"] == "maison" else 152
    taker = rng.choice([name for team in teams.values() for name in team])
    names = list(teams)
    capot = rng.choice((None,) * 12 + tuple(names))
    deal: dict[str, Any] = {
        "taker": taker,
        "trump": trump,
        "belote": None if trump == "no_trump" else rng.choice((None, None, *names)),
        "capot": capot,
        "announcements": {team: rng.choice(ANNOUNCED) for team in names},
    }
    if capot is None:
        first = rng.randint(0, total)
        deal["points"] = {names[0]: first, names[1]: total - first}
        deal["last_trick"] = rng.choice(names)
    else:
        deal["points"] = {}
    if coinche:
        deal["contract"] = rng.choice(CONTRACTS)
        deal["coinche"] = rng.choice(("none", "none", "none", "coinche"))
    return deal


BARBU_CONTRACTS = ("no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu")
BARBU_CONTRACTS += ("trumps", "dominoes")


def barbu_start(rng: random.Random, players: list[str]) -> dict[str, Any]:
    return {"game": "barbu", "players": players, "options": {"first_declarer": players[0]}}


def barbu_taken(rng: random.Random, players: list[str], contract: str) -> dict[str, Any]:
    if contract in ("no_tricks", "trumps", "no_hearts", "no_queens"):
        counts = dict(
            zip(players, split(rng, 4 if contract == "no_queens" else 13, 4), strict=True)
        )
        taken: dict[str, Any] = {"taken": counts}
        if contract == "no_hearts":
            taken["ace_of_hearts"] = rng.choice([p for p in players if counts[p]])
        return taken
    if contract == "no_last_two":
        return {"taken": {"second_last": rng.choice(players), "last": rng.choice(players)}}
    if contract == "barbu":
        return {"taken": {"king_of_hearts": rng.choice(players)}}
    return {"taken": {"order": rng.sample(players, 4)}}


def barbu_rounds(rng: random.Random, start: dict[str, Any]) -> list[dict[str, Any]]:
    """28 hands: each declarer plays the seven contracts once, doubled by every other player at
    least twice (chosen up front, so the obligation always holds)."""
    players = start["players"]
    hands = []
    for block in range(4):
        declarer = players[block]
        others = [name for name in players if name != declarer]
        owed = {name: set(rng.sample(range(7), rng.randint(2, 4))) for name in others}
        for index, contract in enumerate(rng.sample(BARBU_CONTRACTS, 7)):
            doubles = []
            for name in others:
                if index in owed[name]:
                    doubles.append([name, declarer])
                    if rng.random() < 0.3:
                        doubles.append([declarer, name])
            hands.append(
                {"contract": contract, **barbu_taken(rng, players, contract), "doubles": doubles}
            )
    return hands


def gaigel_start(rng: random.Random, players: list[str]) -> dict[str, Any]:
    if rng.random() < 0.25:
        return {"game": "gaigel", "players": players[:3], "options": {"mode": "three"}}
    size = rng.choice((2, 2, 3))
    teams = {"Oben": players[:size], "Unten": players[size : 2 * size]}
    options = {"strokes": rng.choice((5, 7, 10, 10)), "five_sevens": rng.random() < 0.3}
    return {"game": "gaigel", "teams": teams, "options": options}


def gaigel_round(rng: random.Random, start: dict[str, Any], _i: int) -> dict[str, Any]:
    if start["options"].get("mode") == "three":
        players = start["players"]
        points = dict(zip(players, split(rng, 240, 3), strict=True))
        took = {name: bool(points[name]) or rng.random() < 0.5 for name in players}
        if not any(took.values()):
            took[rng.choice(players)] = True
        ranked = [name for name in players if took[name]]
        tied = [a for a in ranked if any(b != a and points[a] == points[b] for b in ranked)]
        return {"card_points": points, "took_trick": took, "cut_order": rng.sample(tied, len(tied))}
    winner = rng.choice(("Oben", "Unten"))
    if rng.random() < 0.2:
        evidence = {"points": rng.randint(60, 200), "marriages": [20] * rng.randint(0, 2)}
        return {"winner": winner, "evidence": evidence}
    outcomes = ["aus"] * 6 + ["gaigel", "untergaigeln", "uebergaigeln"]
    if start["options"]["five_sevens"]:
        outcomes.append("five_sevens")
    return {"winner": winner, "outcome": rng.choice(outcomes)}


def porrazo_start(rng: random.Random, players: list[str]) -> dict[str, Any]:
    if len(players) == 4 and rng.random() < 0.4:
        teams = {"Us": [players[0], players[2]], "Them": [players[1], players[3]]}
        return {"game": "porrazo", "teams": teams, "options": {}}
    return {"game": "porrazo", "players": players, "options": {}}


def porrazo_round(rng: random.Random, start: dict[str, Any], _i: int) -> dict[str, Any]:
    if "teams" in start:
        players = [name for team in start["teams"].values() for name in team]
        sides = list(start["teams"])
    else:
        players = sides = list(start["players"])
    who = rng.choice(players)
    kind = rng.choice(
        ("porrazo", "ronda", "limpia", "limpia", "in_place", "tendido", "rondas", "cards", "cards")
    )
    if kind in ("ronda", "limpia"):
        return {"player": who, "event": kind, "rank": rng.choice(RANKS)}
    if kind == "porrazo":
        return {"player": who, "event": kind, "rank": rng.choice(RANKS)}
    if kind == "in_place":
        return {"player": who, "event": kind, "rank": rng.choice(RANKS[:4])}
    if kind == "tendido":
        cards = rng.sample(RANKS, 6)
        return {"player": who, "event": kind, "pairs": [cards[:2], cards[2:4]], "table": cards[4:]}
    if kind == "rondas":
        declaring = rng.sample(players, rng.randint(1, min(2, len(players))))
        ranks = rng.sample(RANKS, len(declaring))
        return {
            "event": kind,
            "declared": {n: [r] * 2 for n, r in zip(declaring, ranks, strict=True)},
        }
    return {"event": "cards", "counts": dict(zip(sides, split(rng, 52, len(sides)), strict=True))}


Start = Callable[[random.Random, list[str]], dict[str, Any]]
Draw = Callable[[random.Random, dict[str, Any], int], dict[str, Any]]
GAME_MIX: list[tuple[str, int, Start, Draw | None, tuple[int, int]]] = [
    # game, weight, the match it starts, one more round, how many seats
    ("rami", 25, rami_start, rami_round, (2, 5)),
    ("belote", 25, belote_start, belote_round, (4, 4)),
    ("barbu", 10, barbu_start, None, (4, 4)),
    ("gaigel", 20, gaigel_start, gaigel_round, (6, 6)),
    ("porrazo", 20, porrazo_start, porrazo_round, (2, 4)),
]
MOST_ROUNDS = {"rami": 40, "belote": 60, "gaigel": 60, "porrazo": 80}
ROUNDS_AT_ONCE = {"rami": 8, "belote": 10, "gaigel": 12, "porrazo": 20}
PLAYING_SHARE = 0.05
"""The share of matches left unfinished, as the table left them."""


def settle(scorer: Any, table: Table, inputs: list[dict[str, Any]]) -> tuple[list, Any]:
    """Replay the rounds; drop a round that cannot stand (or confirm a porrazo that must wait)
    and cut the rounds after the match ended, until the replay takes every round as it is."""
    for _ in range(50):
        try:
            replay = scorer.replay(table, inputs)
        except RoundImpossible as impossible:
            at = impossible.n - 1
            if impossible.waiting:
                inputs = [*inputs[:at], {"event": "confirm"}, *inputs[at:]]
            else:
                inputs = inputs[:at] + inputs[at + 1 :]
            continue
        if replay.ended_after is not None and replay.ended_after < len(inputs):
            inputs = inputs[: replay.ended_after]
            continue
        return inputs, replay
    raise RuntimeError("could not settle a generated match")


def generate(
    rng: random.Random, pool: list[str] = POOL
) -> tuple[dict[str, Any], Table, list[dict[str, Any]], Any]:
    """Draw one legal match among `pool`'s players: its start, its table, its rounds as stored,
    and their replay."""
    game, _, start_of, draw, (low, high) = rng.choices(GAME_MIX, [m[1] for m in GAME_MIX])[0]
    scorer = GAMES[game]
    start = start_of(rng, rng.sample(pool, rng.randint(low, high)))
    table = scorer.read_table(start)
    if draw is None:
        inputs = [scorer.read_round(table, hand) for hand in barbu_rounds(rng, start)]
        inputs, replay = settle(scorer, table, inputs)
    else:
        # A few rounds at a time until the match ends, as a table would play them.
        inputs, drawn = [], 0
        while drawn < MOST_ROUNDS[game]:
            for _ in range(ROUNDS_AT_ONCE[game]):
                drawn += 1
                try:
                    inputs.append(scorer.read_round(table, draw(rng, start, drawn)))
                except Refusal:
                    continue
            inputs, replay = settle(scorer, table, inputs)
            if replay.status == FINISHED:
                break
    if rng.random() < PLAYING_SHARE and len(inputs) > 1:
        inputs, replay = settle(scorer, table, inputs[: rng.randint(1, len(inputs) - 1)])
    return start, table, inputs, replay


# --- building the database through the app's storage code ------------------------------------


def stamp(moment: datetime) -> str:
    return moment.strftime(storage.STAMP)


def store_match(
    db: Any,
    scorer: Any,
    table: Table,
    inputs: list[dict[str, Any]],
    replay: Any,
    created: datetime,
    device: str = "the phone that started it",
) -> tuple[int, str]:
    """Store a match as matches.start and add_round would, in the caller's transaction;
    return its id and its scorer token."""
    match_id = storage.insert_match(
        db,
        uid=uuid.uuid4().hex,
        game=scorer.id,
        options=dict(table.options),
        variant=scorer.variant_key(table.options),
        players=table.players,
        teams=None if table.teams is None else dict(table.teams),
        totals=scorer.replay(table, []).totals,
        at=stamp(created),
    )
    token = access.issue(db, match_id, device)
    at = stamp(created)
    for n, entered in enumerate(inputs, start=1):
        at = stamp(created + timedelta(minutes=3 * n))
        round_id = storage.insert_round(db, match_id, entered, at)
        storage.log_change(
            db, match_id, storage.Change("add", n, round_id, entered, None, at, device)
        )
    storage.cache_result(
        db,
        match_id,
        totals=replay.totals,
        status=replay.status,
        winner=replay.winner,
        rounds_played=len(replay.rounds),
        at=at,
    )
    return match_id, token


PEG_PLAYERS = ["Ana", "Bo", "Cy", "Di"]
"""Not in POOL: the Porrazo matches stay out of the measured player's history."""
PEG_TARGET = 1000


def peg_events(count: int) -> list[dict[str, Any]]:
    """`count` legal Porrazo events for four players, worth 1 to 2 points each."""
    events: list[dict[str, Any]] = []
    for i in range(count):
        who = PEG_PLAYERS[i % 4]
        kind = i % 4
        if kind == 0:
            events.append({"event": "rondas", "declared": {who: ["5", "5"]}})
        elif kind == 1:
            events.append({"player": who, "event": "ronda", "rank": "7"})
        elif kind == 2:
            events.append({"player": who, "event": "limpia", "rank": "J"})
        else:
            events.append(
                {"event": "cards", "counts": dict(zip(PEG_PLAYERS, [14, 13, 13, 12], strict=True))}
            )
    return events


NEXT_PEG = {"player": "Bo", "event": "limpia", "rank": "Q"}
"""The event every timed post records."""


def ten_years(path: str, count: int) -> tuple[Any, random.Random, datetime, timedelta]:
    """Open a new database for `count` matches spread over YEARS years, oldest first: the
    connection, the seeded generator, the first match's time and the step between two."""
    storage.prepare(path)
    now = datetime.now(UTC).replace(microsecond=0)
    first = now - timedelta(days=365 * YEARS)
    return storage.connect(path), random.Random(SEED), first, (now - first) / max(count, 1)


def settle_file(db: storage.Database) -> None:
    """Fold an SQLite file's WAL back into it, so that what is timed next starts from a file
    at rest; PostgreSQL has nothing to fold."""
    if storage.engine_name(storage.path_of(db)) == "sqlite":
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def build(path: str, count: int) -> dict[str, Any]:
    """Fill a new database with `count` matches of the five games, oldest first."""
    db, rng, first, step = ten_years(path, count)
    rounds = 0
    started = time.perf_counter()
    for batch in range(0, count, BATCH):
        with storage.writing(db):
            for i in range(batch, min(batch + BATCH, count)):
                start, table, inputs, replay = generate(rng)
                scorer = GAMES[start["game"]]
                created = first + step * i + timedelta(seconds=rng.randint(0, 3600))
                store_match(db, scorer, table, inputs, replay, created)
                rounds += len(inputs)
        done = min(batch + BATCH, count)
        if done % (BATCH * 10) == 0 or done == count:
            spent = time.perf_counter() - started
            print(f"  built {done:>7} matches, {rounds:>8} rounds, {spent:6.0f} s", flush=True)
    build_seconds = time.perf_counter() - started
    settle_file(db)
    db.close()
    return {"matches": count, "rounds": rounds, "build_seconds": build_seconds}


def peg_matches(path: str, copies: int, circle: int = storage.ONE_CIRCLE) -> dict[str, Any]:
    """Store the Porrazo match of 200 events (and ones of 50 and 500) in `circle`, each with
    fresh copies to post to: every timed post records the next event of a match nobody posted
    to yet."""
    storage.prepare(path)  # a database kept from an older version is migrated first
    db = storage.connect(path, circle)
    now = datetime.now(UTC).replace(microsecond=0)
    porrazo = GAMES["porrazo"]
    table = porrazo.read_table(
        {"game": "porrazo", "players": PEG_PLAYERS, "options": {"target": PEG_TARGET}}
    )
    events = [porrazo.read_round(table, event) for event in peg_events(500)]
    made: dict[str, Any] = {}
    with storage.writing(db):
        for size in (200, 50, 500):
            inputs, replay = settle(porrazo, table, events[:size])
            assert len(inputs) == size and replay.status != FINISHED
            made[f"match_{size}"] = store_match(db, porrazo, table, inputs, replay, now)
            made[f"copies_{size}"] = [
                store_match(db, porrazo, table, inputs, replay, now) for _ in range(copies)
            ]
    settle_file(db)
    db.close()
    return made


EVENT_TEAMS = 80
EVENT_ROUNDS = 4
EVENT_DEALS = 12


def concours(path: str) -> int:
    """Play a belote concours of 40 tables and 4 rounds, 12 deals a match, as its phones would:
    every round drawn, every deal posted; return the event's id."""
    db = storage.connect(path)
    rng = random.Random(SEED)
    teams = {f"Team {i:02}": [f"E{i:02}a", f"E{i:02}b"] for i in range(EVENT_TEAMS)}
    started = time.perf_counter()
    event = events.create(
        db,
        {"name": "Concours", "game": "belote", "options": {"variant": "coinche"},
         "teams": teams, "rounds": EVENT_ROUNDS, "deals": EVENT_DEALS},
    )  # fmt: skip
    for n in range(1, EVENT_ROUNDS + 1):
        drawn = events.draw_round(db, event.id, event.organiser_token, SEED if n == 1 else None)
        for row in drawn.round_tables(n):
            first, second = row["teams"]
            for _deal in range(EVENT_DEALS):
                taker = rng.choice((first, second))
                made = rng.randint(82, 130)
                deal = {
                    "taker": row["teams"][taker][0],
                    "contract": 80,
                    "trump": rng.choice(("hearts", "spades", "clubs", "diamonds")),
                    "points": {taker: made, (second if taker == first else first): 152 - made},
                    "last_trick": taker,
                }
                if matches.add_round(db, row["id"], deal).replay.status == FINISHED:
                    break  # a team reached the target before the last deal
    spent = time.perf_counter() - started
    print(
        f"  played a concours of {EVENT_TEAMS // 2} tables × {EVENT_ROUNDS} rounds in {spent:.0f} s"
    )
    db.close()
    return event.id


# --- measuring --------------------------------------------------------------------------------


def timed(
    call: Callable[[int], Any],
    floor: Callable[[int], Any],
    warmup: int,
    repeat: int,
    ready: Callable[[int], Any] = lambda _i: None,
) -> dict[str, list[float]]:
    """Call `call(i)` and the floor's `floor(i)` in turn, warmup + repeat times each; return
    the timed calls' durations in ms. Each call sits beside a floor call timed at the same
    moment, so a machine that slows down for a while slows both; `ready(i)`, untimed, comes
    just before `call(i)`."""
    gc.collect()  # garbage left by the measurement before is not this one's to pay
    for i in range(warmup):
        floor(i)
        ready(i)
        call(i)
    spent: dict[str, list[float]] = {"call": [], "floor": []}
    for i in range(warmup, warmup + repeat):
        ready(i)
        for name, timed_call in (("floor", floor), ("call", call)):
            begun = time.perf_counter()
            timed_call(i)
            spent[name].append((time.perf_counter() - begun) * 1000)
    return spent


def expect(response: Any, status: int = 200) -> Any:
    if response.status_code != status:
        raise SystemExit(f"{response.request.path}: {response.status_code} {response.data[:300]}")
    return response


def floor_app(path: str) -> Flask:
    """A bare Flask app: one route, one insert, one one-line template. Into an SQLite file, a
    connection per request, as Tablescore opens one; into PostgreSQL, a connection from a
    pool, as Tablescore takes one there."""
    app = Flask("floor")
    app.jinja_loader = DictLoader({"floor.html": "<p>Row {{ row }} stored: {{ text }}.</p>"})
    insert = floor_insert(path)

    @app.post("/floor")
    def floor() -> str:
        text = json.dumps(request.get_json())
        return render_template("floor.html", row=insert(text), text=text)

    return app


def floor_insert(path: str) -> Callable[[str], int]:
    """Return the floor's one insert into the database at `path`, its table made."""
    if storage.engine_name(path) == "postgresql":
        pool = ConnectionPool(path, min_size=1, max_size=4, kwargs={"autocommit": True})
        with pool.connection() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS floor_rows (id serial PRIMARY KEY, text text)")

        def insert_pooled(text: str) -> int:
            with pool.connection() as conn:
                sql = "INSERT INTO floor_rows (text) VALUES (%s) RETURNING id"
                return conn.execute(sql, [text]).fetchone()[0]

        return insert_pooled
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, text TEXT)")
    conn.close()

    def insert_file(text: str) -> int:
        conn = sqlite3.connect(path)
        try:
            row = conn.execute("INSERT INTO rows (text) VALUES (?)", [text]).lastrowid
            conn.commit()
        finally:
            conn.close()
        return row

    return insert_file


class Assets(HTMLParser):
    """Collect what a page makes the browser fetch: stylesheets, scripts, images, icons."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and found.get("href") and "stylesheet" in (found.get("rel") or ""):
            self.urls.append(found["href"])
        elif tag == "link" and found.get("href") and "icon" in (found.get("rel") or ""):
            self.urls.append(found["href"])
        elif tag in ("script", "img", "source") and found.get("src"):
            self.urls.append(found["src"])


CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")
FINGERPRINT = re.compile(r"[.-][0-9a-f]{8,}\.|[?&]v=")
LONG_LIVED = 30 * 24 * 3600


BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}
"""What Chromium says it can decompress: the app compresses what it sends to such a phone."""


def sent(client: FlaskClient, url: str) -> int:
    """Return the bytes the app sends for a URL to a browser that accepts compression."""
    response = expect(client.get(url, headers=BROWSER))
    size = len(response.data)
    response.close()
    return size


def page_weight(client: FlaskClient, path: str) -> dict[str, Any]:
    """Bytes a page sends with everything it references, plain and as transferred to a
    browser; its assets' cache headers."""
    html = expect(client.get(path)).data
    parser = Assets()
    parser.feed(html.decode())
    urls = list(dict.fromkeys(parser.urls))
    external = [url for url in urls if re.match(r"(https?:)?//", url)]
    assets = []
    for url in [url for url in urls if url not in external and not url.startswith("data:")]:
        response = expect(client.get(url))
        body = response.data
        if url.endswith(".css"):
            for inner in CSS_URL.findall(body.decode()):
                if re.match(r"(https?:)?//", inner):
                    external.append(inner)
                elif not inner.startswith("data:"):
                    urls.append(inner)
        cache = response.headers.get("Cache-Control", "")
        age = re.search(r"max-age=(\d+)", cache)
        assets.append(
            {
                "url": url,
                "bytes": len(body),
                "sent": sent(client, url),
                "cache_control": cache or "(none)",
                "long_lived": bool(age and int(age.group(1)) >= LONG_LIVED),
                "fingerprinted": bool(FINGERPRINT.search(url)),
            }
        )
        response.close()
    html_sent = sent(client, path)
    return {
        "html": len(html),
        "html_sent": html_sent,
        "assets": assets,
        "total": len(html) + sum(asset["bytes"] for asset in assets),
        "sent": html_sent + sum(asset["sent"] for asset in assets),
        "external": external,
    }


def measure(path: str, made: dict[str, Any], warmup: int, repeat: int) -> dict[str, Any]:
    app = create_app({"DATABASE": path, "SECRET_KEY": "bench"})
    client = app.test_client()
    match_id, token = made["match_200"]
    player = made["player"]
    with client.session_transaction() as session:
        session["scorer_tokens"] = {str(match_id): token}

    def poster(copies: list[list[Any]]) -> Callable[[int], Any]:
        def post(i: int) -> Any:
            copy_id, copy_token = copies[i]
            return expect(
                client.post(
                    f"/api/matches/{copy_id}/rounds",
                    json=NEXT_PEG,
                    headers={"Authorization": f"Bearer {copy_token}"},
                ),
                201,
            )

        return post

    def getter(url: str) -> Callable[[int], Any]:
        return lambda _i: expect(client.get(url))

    floor_path = path if storage.engine_name(path) == "postgresql" else path + ".floor.sqlite"
    floor_client = floor_app(floor_path).test_client()
    floors = iter(range(10**9))

    def floor(_i: int) -> Any:
        return expect(floor_client.post("/floor", json=NEXT_PEG | {"i": next(floors)}))

    calls = {
        "post_201st_event": poster(made["copies_200"]),
        "match_page_200": getter(f"/matches/{match_id}"),
        "history_page": getter(f"/history?player={player}"),
        "history_api": getter(f"/api/matches?player={player}"),
        "player_page": getter(f"/players/{player}"),
        "players_list": getter("/players"),
        "whole_sheet_200": getter(f"/matches/{match_id}/sheet"),
        "export_json": getter(f"/api/matches/{match_id}/export?format=json"),
        # How the cost grows: the 51st and 501st event against the 201st, 50 events against 200.
        "post_51st_event": poster(made["copies_50"]),
        "post_501st_event": poster(made["copies_500"]),
        "match_page_50": getter(f"/matches/{made['match_50'][0]}"),
        "event_standings": getter(f"/events/{made['event']}/standings"),
        "event_page": getter(f"/events/{made['event']}"),
        "event_api": getter(f"/api/events/{made['event']}"),
    }
    posted_to = {
        "post_201st_event": "copies_200",
        "post_51st_event": "copies_50",
        "post_501st_event": "copies_500",
    }

    def reader(copies: list[list[Any]]) -> Callable[[int], Any]:
        return lambda i: expect(client.get(f"/api/matches/{copies[i][0]}"))

    results = {}
    for key, call in calls.items():
        # A post is timed as the scoring phone makes it: just after reading the match, whose
        # replay the next round is then scored on (read earlier, it may have left the cache).
        copies = made.get(posted_to.get(key))
        ready = reader(copies) if copies else lambda _i: None
        results[key] = timed(call, floor, warmup, repeat, ready)
    for copy_id, _ in (made["copies_200"][0], made["copies_200"][-1]):
        posted = expect(client.get(f"/api/matches/{copy_id}")).json
        assert len(posted["rounds"]) == 201 and posted["rounds"][-1]["input"] == NEXT_PEG
    page = expect(client.get(f"/matches/{match_id}")).get_data(as_text=True)
    assert "Record peg 201" in page, "the match page must be measured as the scoring phone"
    sizes = {
        "history_api": len(client.get(f"/api/matches?player={player}").data),
        "export_json": len(client.get(f"/api/matches/{match_id}/export?format=json").data),
        "post_201st_event": None,
    }
    weights = {
        "match_page_200": page_weight(client, f"/matches/{match_id}"),
        "history_page": page_weight(client, f"/history?player={player}"),
        "player_page": page_weight(client, f"/players/{player}"),
        "players_list": page_weight(client, "/players"),
        "whole_sheet_200": page_weight(client, f"/matches/{match_id}/sheet"),
        "home": page_weight(client, "/"),
        "event_standings": page_weight(client, f"/events/{made['event']}/standings"),
        "event_page": page_weight(client, f"/events/{made['event']}"),
    }
    hits = client.get(f"/api/matches?player={player}").json["total"]
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(floor_path + suffix):
            os.remove(floor_path + suffix)
    return {"times": results, "sizes": sizes, "weights": weights, "hits": hits}


# --- report -----------------------------------------------------------------------------------

BUDGETS = {
    "post_201st_event": 3,
    "match_page_200": 5,
    "history_page": 5,
    "history_api": 5,
    "player_page": 5,
    "event_standings": 5,
    "event_page": 5,
}
LABELS = {
    "post_201st_event": "POST /api/matches/<id>/rounds (201st event)",
    "match_page_200": "GET /matches/<id> (200 events, scorer)",
    "history_page": "GET /history?player=…",
    "history_api": "GET /api/matches?player=…",
    "player_page": "GET /players/<name>",
    "players_list": "GET /players (everyone)",
    "whole_sheet_200": "GET /matches/<id>/sheet (all 200 events)",
    "export_json": "GET /api/matches/<id>/export?format=json",
    "post_51st_event": "POST …/rounds (51st event, for scale)",
    "post_501st_event": "POST …/rounds (501st event, for scale)",
    "match_page_50": "GET /matches/<id> (50 events, for scale)",
    "event_standings": "GET /events/<id>/standings (40 tables × 4)",
    "event_page": "GET /events/<id> (40 tables × 4 rounds)",
    "event_api": "GET /api/events/<id> (40 tables × 4)",
}


def database_bytes(path: str) -> int:
    """The database's size on disk: an SQLite file and its WAL, or a PostgreSQL database."""
    if storage.engine_name(path) == "postgresql":
        with storage.opened(path, None) as db:
            return db.execute("select pg_database_size(current_database())").fetchone()[0]
    return sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))


def row_counts(path: str) -> str:
    with storage.opened(path, None) as db:
        counted = {
            table: db.execute(f"select count(*) from {table}").fetchone()[0]
            for table in ("matches", "seats", "rounds", "changes", "scorers")
        }
    return ", ".join(f"{table} {count}" for table, count in counted.items())


def engine_version(path: str) -> str:
    """Name the engine keeping the database, and its version."""
    if storage.engine_name(path) == "postgresql":
        with storage.opened(path, None) as db:
            return "PostgreSQL " + db.execute("show server_version").fetchone()[0].split()[0]
    return f"SQLite {sqlite3.sqlite_version}"


def report(args: Any, path: str, made: dict[str, Any], measured: dict[str, Any]) -> None:
    times = measured["times"]
    every_floor = [spent for timed_pair in times.values() for spent in timed_pair["floor"]]
    print()
    print(f"Tablescore benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores,")
    print(f"Python {sys.version.split()[0]}, {engine_version(path)}")
    print(
        f"database: {made['matches']} matches with {made['rounds']} rounds, "
        f"+ {2 * (args.warmup + args.repeat) + 2} Porrazo matches to post to, "
        f"{database_bytes(path) / 2**20:.1f} MiB, built in {made['build_seconds']:.0f} s"
    )
    print(f"rows: {row_counts(path)}")
    print(f"player {made['player']!r} sits in {measured['hits']} matches")
    print(f"medians of {args.repeat} calls after {args.warmup} warm-up calls, each call")
    print("beside a floor call (bare Flask, 1 insert + 1-line template) timed in turn with it:")
    print()
    print(f"floor, over every measurement: median {statistics.median(every_floor):.2f} ms")
    print(f"{'':44} {'median':>9} {'p90':>9} {'its floor':>9} {'× floor':>8} {'budget':>7}")
    for key, timed_pair in times.items():
        spent = timed_pair["call"]
        median = statistics.median(spent)
        floor = statistics.median(timed_pair["floor"])
        p90 = sorted(spent)[int(0.9 * (len(spent) - 1))]
        budget = BUDGETS.get(key)
        verdict = ""
        if budget:
            verdict = f"≤{budget}× {'ok' if median / floor <= budget else 'FAIL'}"
        print(
            f"{LABELS[key]:44} {median:7.2f}ms {p90:7.2f}ms {floor:7.2f}ms "
            f"{median / floor:7.1f}× {verdict:>7}"
        )
    print()
    print("API answers: " + ", ".join(f"{k} {v} B" for k, v in measured["sizes"].items() if v))
    print()
    print("page weight (bytes): plain, and as transferred to a browser that accepts compression,")
    print("first visit (the page and its assets) and later ones (assets kept in the cache)")
    print(f"{'':22} {'HTML':>7} {'+CSS/JS':>8} {'plain':>7} {'first visit':>12}", end="")
    print(f" {'later':>7} {'≤40 KB':>7} {'other hosts':>11}")
    for key, weight in measured["weights"].items():
        assets = sum(asset["bytes"] for asset in weight["assets"])
        fits = "ok" if weight["sent"] <= 40 * 1024 else "FAIL"
        print(
            f"{key:22} {weight['html']:7} {assets:8} {weight['total']:7} {weight['sent']:12} "
            f"{weight['html_sent']:7} {fits:>7} {len(weight['external']):11}"
        )
    print()
    print("static assets (as the pages reference them):")
    seen = set()
    for weight in measured["weights"].values():
        for asset in weight["assets"]:
            if asset["url"] in seen:
                continue
            seen.add(asset["url"])
            print(
                f"  {asset['url']:28} {asset['bytes']:7} B ({asset['sent']} B sent)"
                f"  Cache-Control: {asset['cache_control']}"
                f"  long-lived: {'yes' if asset['long_lived'] else 'NO'}"
                f"  fingerprinted name: {'yes' if asset['fingerprinted'] else 'NO'}"
            )


# --- ratings: kept until a finished result changes (--ratings) --------------------------------

RATINGS_AT = (5_000, 50_000)
"""How many finished matches `--ratings` times its reads over, when given no numbers."""
RATED = "rami"
"""The game whose ratings are read: a quarter of all matches, most of them on one board."""


def finished_results(path: str, count: int) -> None:
    """Fill a new database with `count` finished matches of the five games over ten years, each
    stored by storage.insert_match and storage.cache_result with drawn totals and the winner they
    give: ratings read results only, so no rounds are stored, and 50 000 build in about a
    minute."""
    db, rng, first, step = ten_years(path, count)
    weights = [m[1] for m in GAME_MIX]
    for batch in range(0, count, BATCH):
        with storage.writing(db):
            for i in range(batch, min(batch + BATCH, count)):
                game, _, start_of, _, (low, high) = rng.choices(GAME_MIX, weights)[0]
                scorer = GAMES[game]
                table = scorer.read_table(start_of(rng, rng.sample(POOL, rng.randint(low, high))))
                sides = scorer.replay(table, []).totals
                totals = {side: rng.randint(0, 1000) for side in sides}
                winner = max(totals, key=lambda s: scorer.standing_value(table.options, totals[s]))
                at = stamp(first + step * i + timedelta(seconds=rng.randint(0, 3600)))
                match_id = storage.insert_match(
                    db,
                    uid=uuid.uuid4().hex,
                    game=game,
                    options=dict(table.options),
                    variant=scorer.variant_key(table.options),
                    players=table.players,
                    teams=None if table.teams is None else dict(table.teams),
                    totals=sides,
                    at=at,
                )
                storage.cache_result(
                    db,
                    match_id,
                    totals=totals,
                    status=FINISHED,
                    winner=winner,
                    rounds_played=0,
                    at=at,
                )
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def went_out(winner: str, loser: str, points: int) -> dict[str, Any]:
    """A round of Rami: `winner` goes out and `loser` holds `points`."""
    return {
        "outcome": "out",
        "winner": winner,
        "hands": {loser: {"points": points, "melded": True}},
    }


def time_ratings(path: str, warmup: int, repeat: int) -> dict[str, dict[str, list[float]]]:
    """Time ratings reads beside a match read (their floor): after a round of a match still
    played, after a new finish, after a correction of a match finished today; and rating all
    from scratch, as a process's first read does (and as every read did before)."""
    client = create_app({"DATABASE": path, "SECRET_KEY": "bench"}).test_client()
    rng = random.Random(SEED)

    def started(options: dict[str, Any], seated: list[str]) -> list[Any]:
        body = {"game": RATED, "options": options, "players": seated}
        made = expect(client.post("/api/matches", json=body), 201).json
        return [made["id"], {"Authorization": f"Bearer {made['scorer_token']}"}, *seated]

    def post(match: list[Any], entered: dict[str, Any]) -> Any:
        url = f"/api/matches/{match[0]}/rounds"
        return expect(client.post(url, json=entered, headers=match[1]), 201)

    read_one = started({}, POOL[:2])
    post(read_one, went_out(*read_one[2:], 120))
    played_on = started({"target": 10_000}, POOL[2:4])
    # Each a timed call finishes, then corrects: two players on the largest Rami board (to 100),
    # one round from the end, all started after every match rated so far.
    closing = [started({}, rng.sample(POOL, 2)) for _ in range(warmup + repeat)]

    def floor(_i: int) -> Any:
        return expect(client.get(f"/api/matches/{read_one[0]}"))

    def reader(url: str) -> Callable[[int], Any]:
        return lambda _i: expect(client.get(url))

    def round_elsewhere(_i: int) -> Any:
        return post(played_on, went_out(*played_on[2:], 2))

    def finish(i: int) -> Any:
        return post(closing[i], went_out(*closing[i][2:], 120))

    def correct(i: int) -> Any:
        match_id, headers, winner, loser = closing[i]
        url = f"/api/matches/{match_id}/rounds/1"
        return expect(client.put(url, json=went_out(loser, winner, 120), headers=headers))

    board = f"/api/ratings?game={RATED}"
    times = {
        "after_round": timed(reader(board), floor, warmup, repeat, round_elsewhere),
        "after_round_page": timed(
            reader(f"/ratings?game={RATED}"), floor, warmup, repeat, round_elsewhere
        ),
        "after_round_player": timed(
            reader(f"/api/players/{POOL[0]}"), floor, warmup, repeat, round_elsewhere
        ),
        "after_finish": timed(reader(board), floor, warmup, repeat, finish),
        "after_correction": timed(reader(board), floor, warmup, repeat, correct),
    }
    db = storage.connect(path)
    times["from_scratch"] = timed(
        lambda _i: ratings.rate(ratings.read_finished(storage.finished_seats(db))), floor, 0, 3
    )
    db.close()
    return times


RATINGS_LABELS = {
    "after_round": f"GET /api/ratings?game={RATED}, after a round elsewhere",
    "after_round_page": f"GET /ratings?game={RATED} (page), after one",
    "after_round_player": "GET /api/players/<name>, after one",
    "after_finish": f"GET /api/ratings?game={RATED}, after a new finish",
    "after_correction": "… after correcting a match finished today",
    "from_scratch": "rating every match from scratch (3 runs)",
}


def ratings_report(sizes: list[int], warmup: int, repeat: int) -> None:
    """Build a database of each size in a temporary file, time its ratings reads, print them
    beside their floor (a match read, GET /api/matches/<id>), and remove it."""
    print(f"Tablescore ratings, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores,")
    print(f"Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}")
    print(f"medians of {repeat} calls after {warmup} warm-up calls, each beside a match read")
    for count in sizes:
        scratch = tempfile.mkdtemp(prefix="tablescore-ratings-")
        path = os.path.join(scratch, "tablescore.sqlite")
        begun = time.perf_counter()
        finished_results(path, count)
        built = time.perf_counter() - begun
        try:
            times = time_ratings(path, warmup, repeat)
        finally:
            for suffix in ("", "-wal", "-shm", ".lock"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
            os.rmdir(scratch)
        print()
        print(f"{count} finished matches, built in {built:.0f} s")
        print(f"{'':52} {'median':>9} {'p90':>9} {'its floor':>9} {'× floor':>8}")
        for key, spent in times.items():
            median, floor = statistics.median(spent["call"]), statistics.median(spent["floor"])
            p90 = sorted(spent["call"])[int(0.9 * (len(spent["call"]) - 1))]
            print(
                f"{RATINGS_LABELS[key]:52} {median:7.2f}ms {p90:7.2f}ms {floor:7.2f}ms "
                f"{median / floor:7.1f}×"
            )


# --- draws: the fewest repeated meetings, round by round (--draws) ----------------------------

DRAWN_EVENTS = ((200, 10, "belote"), (200, 10, "barbu"), (24, 9, "barbu"))
"""The events `--draws` draws: entrants, rounds and game (Belote pairs teams, Barbu seats four);
the last is too small a field for its rounds, so it must repeat meetings: the longest draws."""


def drawn_event(entrants: int, rounds: int, game: str) -> list[dict[str, Any]]:
    """Draw every round of an event as `events.draw_next` does (the standings, every meeting
    so far, the byes had), each table's totals drawn from a seeded generator; return each
    round's seconds, its repeated meetings and whether they are proven the fewest."""
    scorer = GAMES[game]
    allowed = events.allowed_sizes(scorer)
    rng = random.Random(SEED)
    names = [f"E{i:03d}" for i in range(entrants)]
    standing, met, finished, byes = list(names), set(), [], Counter()
    drawn_rounds = []
    for n in range(rounds):
        begun = time.perf_counter()
        drawn = draw(standing, met, byes, allowed, allowed[0], SEED if n == 0 else None)
        seconds = time.perf_counter() - begun
        repeated = len(meetings(drawn.tables) & met)
        proven = repeated == 0 or allowed == (2,)
        if not proven:
            seated = [name for name in standing if name not in drawn.byes]
            sizes, _out = table_sizes(len(seated), allowed, allowed[0])
            proven = seating(sizes, met_masks(seated, met))[1]
        drawn_rounds.append({"seconds": seconds, "repeated": repeated, "proven": proven})
        met |= meetings(drawn.tables)
        byes.update(drawn.byes)
        for table in drawn.tables:
            totals = {name: rng.randint(0, 300) for name in table}
            finished.append(Finished(totals, (max(totals, key=totals.get),)))
        records = tally(names, finished, byes.elements()).values()
        standing = [record.entrant for _rank, record in ranked(records, scorer.event_order)]
    return drawn_rounds


def draws_report() -> None:
    """Draw each of DRAWN_EVENTS round by round and print how long each round took."""
    print(f"Tablescore draws, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores,")
    print(f"Python {sys.version.split()[0]}; each round drawn from the standings of seeded results")
    for entrants, rounds, game in DRAWN_EVENTS:
        size = events.allowed_sizes(GAMES[game])[0]
        print()
        print(f"{entrants} entrants of {game} at tables of {size}, {rounds} rounds:")
        drawn_rounds = drawn_event(entrants, rounds, game)
        for n, drawn in enumerate(drawn_rounds, 1):
            fewest = "the fewest, proven" if drawn["proven"] else "the fewest found"
            print(
                f"  round {n:2}  {drawn['seconds']:6.2f} s  "
                f"{drawn['repeated']:3} meetings repeated ({fewest})"
            )
        spent = [drawn["seconds"] for drawn in drawn_rounds]
        print(f"  median {statistics.median(spent):.2f} s, longest {max(spent):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000, help="matches to build")
    parser.add_argument("--db", help="database file to build (default: a temporary file)")
    parser.add_argument(
        "--engine",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="postgresql: build in a throwaway PostgreSQL cluster on 127.0.0.1 (Debian's "
        "postgresql package), stopped and deleted afterwards",
    )
    parser.add_argument("--repeat", type=int, default=30, help="timed calls per measurement")
    parser.add_argument("--warmup", type=int, default=5, help="untimed calls before them")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--reuse", action="store_true", help="measure a --db an earlier --keep run built"
    )
    parser.add_argument(
        "--ratings",
        type=int,
        nargs="*",
        metavar="N",
        help="only time ratings reads, over N finished matches (default: 5000 and 50000)",
    )
    parser.add_argument(
        "--draws",
        action="store_true",
        help="only time draws, round by round: 200 entrants at tables of two and of four",
    )
    args = parser.parse_args()
    if args.draws:
        draws_report()
        return
    if args.ratings is not None:
        ratings_report(args.ratings or list(RATINGS_AT), args.warmup, args.repeat)
        return
    scratch = cluster = None
    if args.engine == "postgresql":
        if args.db or args.keep or args.reuse:
            raise SystemExit("--engine postgresql builds in a throwaway cluster: no --db, --keep.")
        cluster = Cluster(free_port()).start(durable=True)
        path = cluster.create("bench")
    elif args.db:
        path = os.path.abspath(args.db)
    else:
        scratch = tempfile.mkdtemp(prefix="tablescore-bench-")
        path = os.path.join(scratch, "tablescore.sqlite")
    sidecar = Path(path + ".bench.json")
    if args.reuse:
        if not sidecar.exists():
            raise SystemExit(f"{sidecar} is missing: build {path} with --keep first.")
        made = json.loads(sidecar.read_text())
        print(f"measuring {path}, built earlier with {made['matches']} matches", flush=True)
    else:
        if os.path.exists(path):
            raise SystemExit(f"{path} exists: remove it, choose another --db, or pass --reuse.")
        print(f"building {args.matches} matches in {path} …", flush=True)
        made = build(path, args.matches)
        if args.keep:
            sidecar.write_text(json.dumps(made))
    made |= peg_matches(path, args.warmup + args.repeat)
    made["event"] = concours(path)
    made["player"] = POOL[0]
    try:
        measured = measure(path, made, args.warmup, args.repeat)
        report(args, path, made, measured)
    finally:
        if cluster:
            storage.let_go(path)
            cluster.stop()
        elif not args.keep:
            for suffix in ("", "-wal", "-shm", ".lock"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
            if scratch:
                os.rmdir(scratch)


if __name__ == "__main__":
    main()
