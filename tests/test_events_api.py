"""Events through the JSON API: create, draw, play, correct, withdraw, join late, close,
export and import — with the organiser's token, and refusals that change nothing."""

from __future__ import annotations

import copy
import csv
import io
import itertools
import json
from urllib.parse import urlsplit

import pytest
from api_helpers import (
    CONCOURS,
    api_match,
    coinche_deal,
    draw_round,
    finish_round,
    refused,
    rounds_url,
    send,
    start_event,
)
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from scorebook import events, storage


def event_count(client: FlaskClient) -> int:
    return len(client.get("/api/events").json["events"])


def test_an_event_is_created_with_its_entrants_and_the_organisers_token(client: FlaskClient):
    event, _organiser = start_event(client, place="Café du Port", played_on="2026-12-05")
    assert event["scorer_token"]
    assert (event["name"], event["game"], event["rounds"], event["deals"]) == (
        "Concours du samedi",
        "belote",
        3,
        1,
    )
    assert event["options"]["variant"] == "coinche" and event["options"]["match_deals"] == 1
    assert (event["place"], event["played_on"], event["round"]) == ("Café du Port", "2026-12-05", 0)
    assert [e["name"] for e in event["entrants"]] == list(CONCOURS["teams"])
    assert event["entrants"][0]["players"] == ["Ana", "Bo"]
    assert event["status"] == "playing" and event["winner"] is None
    assert "Points summed over the rounds first" in event["ranking"]
    read = client.get(f"/api/events/{event['id']}").json
    assert "scorer_token" not in read and read["standings"][0]["played"] == 0
    listed = client.get("/api/events").json["events"]
    assert [(e["id"], e["name"], e["round"]) for e in listed] == [(event["id"], event["name"], 0)]


@pytest.mark.parametrize(
    ("changed", "field", "words"),
    [
        ({"game": "whist"}, "game", "Choose a game"),
        ({"teams": {"Les As": ["Ana", "Bo"]}}, "teams", "at least 2 entrants"),
        ({"teams": {"Les As": ["Ana", "Bo"], "les as": ["Cy", "Di"]}}, "teams.les as", "twice"),
        ({"teams": {"A": ["Ana", "Bo"], "B": ["Cy", "ana"]}}, "teams.B.1", "twice"),
        ({"rounds": 0}, "rounds", "between 1 and 30"),
        ({"rounds": "3"}, "rounds", "between 1 and 30"),
        ({"name": "  "}, "name", "needs a name"),
        ({"deals": 0}, "deals", "between 1 and 500"),
        ({"options": {"variant": "poker"}}, "options.variant", "one of"),
        ({"options": {"first_dealer": "Ana"}}, "options.first_dealer", "each table"),
        ({"teams": {"A": ["Ana", "Bo", "Cy"], "B": ["Di", "Ed", "Flo"]}}, "teams", "two teams"),
        ({"played_on": "5/12/2026"}, "played_on", "YYYY-MM-DD"),
        ({"table_size": 4}, "table_size", "seats its tables"),
    ],
)
def test_a_bad_event_is_refused_and_nothing_is_stored(client, changed, field, words):
    refused(send(client, "POST", "/api/events", CONCOURS | changed), 422, field, words)
    assert event_count(client) == 0


def test_games_of_players_take_players_and_a_table_size(client: FlaskClient):
    refused(
        send(client, "POST", "/api/events", {"name": "Rami", "game": "rami", "rounds": 2}),
        422,
        "players",
        "enters players",
    )
    refused(
        send(
            client,
            "POST",
            "/api/events",
            {"name": "P", "game": "porrazo", "rounds": 1, "deals": 5, "players": ["A", "B"]},
        ),
        422,
        "deals",
        "own end",
    )
    event, _organiser = start_event(
        client, game="rami", teams=None, options={}, players=list("ABCDEFGHIJ"), table_size=4
    )
    assert event["table_size"] == 4 and event["options"]["match_deals"] == 1
    assert event_count(client) == 1


def test_a_passcode_guards_creating_an_event(tmp_path):
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite"), "SECRET_KEY": "t",
         "PASSCODE": "pique"}
    )  # fmt: skip
    client = app.test_client()
    refused(send(client, "POST", "/api/events", CONCOURS), 403)
    assert event_count(client) == 0
    response = client.post("/api/events", json=CONCOURS, headers={"X-Tablescore-Passcode": "pique"})
    assert response.status_code == 201


def test_drawing_needs_the_organisers_token(client: FlaskClient, stranger: FlaskClient):
    event, organiser = start_event(client)
    refused(stranger.post(f"/api/events/{event['id']}/draw"), 403)
    wrong = {"Authorization": "Bearer not-the-token"}
    refused(client.post(f"/api/events/{event['id']}/draw", headers=wrong), 403)
    assert client.get(f"/api/events/{event['id']}").json["round"] == 0
    refused(client.post("/api/events/999/draw", headers=organiser), 404)
    refused(client.post(f"/api/events/{2**64}/draw", headers=organiser), 404)
    refused(
        client.post(f"/api/events/{event['id']}/draw", json={"seed": "x"}, headers=organiser), 422
    )


def test_a_draw_starts_a_match_at_each_table_with_a_link_for_its_phone(
    client: FlaskClient, stranger: FlaskClient
):
    event, organiser = start_event(client)
    drawn = draw_round(client, event["id"], organiser, seed=7)
    assert drawn["round"] == 1 and drawn["byes"] == []
    assert [t["table"] for t in drawn["tables"]] == [1, 2]
    seated = sorted(name for t in drawn["tables"] for name in t["seats"])
    assert seated == sorted(CONCOURS["teams"])
    table = drawn["tables"][0]
    match = api_match(client, table["match"])
    assert match["event"] == {"id": event["id"], "round": 1, "table": 1}
    assert set(match["teams"]) == set(table["seats"])
    assert match["options"]["variant"] == "coinche" and match["options"]["match_deals"] == 1
    # The link hands the table's match to the phone at that table.
    code = urlsplit(table["scorer_link"]).path.rsplit("/", 1)[1]
    joined = stranger.post("/api/join", json={"code": code, "device": "Table 1"}).json
    assert joined["match_id"] == table["match"]
    deal = coinche_deal(match)
    headers = {"Authorization": f"Bearer {joined['scorer_token']}"}
    assert stranger.post(rounds_url(table["match"]), json=deal, headers=headers).status_code == 201
    # Another table's match is not that phone's to score.
    other = drawn["tables"][1]["match"]
    deal = coinche_deal(api_match(client, other))
    refused(stranger.post(rounds_url(other), json=deal, headers=headers), 403)
    # The same seed draws the same first round.
    again, again_organiser = start_event(client)
    repeat = draw_round(client, again["id"], again_organiser, seed=7)
    assert [t["seats"] for t in repeat["tables"]] == [t["seats"] for t in drawn["tables"]]


def test_the_next_round_waits_for_every_table(client: FlaskClient):
    event, organiser = start_event(client)
    drawn = draw_round(client, event["id"], organiser)
    table = drawn["tables"][0]
    client.post(
        rounds_url(table["match"]), json=coinche_deal(api_match(client, table["match"])),
        headers=organiser,
    )  # fmt: skip
    body = refused(client.post(f"/api/events/{event['id']}/draw", headers=organiser), 409)
    assert "Round 1 is still being played at table 2" in body["error"]
    assert client.get(f"/api/events/{event['id']}").json["round"] == 1


def test_four_teams_over_three_rounds_meet_each_other_once_and_standings_add_up(
    client: FlaskClient,
):
    event, organiser = start_event(client)
    met = []
    for _ in range(3):
        drawn = draw_round(client, event["id"], organiser)
        met += [frozenset(t["seats"]) for t in drawn["tables"]]
        finish_round(client, drawn, organiser)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(CONCOURS["teams"], 2)}
    refused(client.post(f"/api/events/{event['id']}/draw", headers=organiser), 409)
    done = client.get(f"/api/events/{event['id']}").json
    assert done["status"] == "finished" and done["round"] == 3
    # Every table's first team took at 80 with 100 of 152: it scores 100 + 80, the other 52
    # (a coinche deal rounds to tens: 180 and 50); each match is one deal long.
    totals = {}
    for round_tables in done["tables"]:
        for table in round_tables["tables"]:
            assert table["status"] == "finished"
            for side, total in table["totals"].items():
                totals.setdefault(side, []).append(total)
    by_name = {s["entrant"]: s for s in done["standings"]}
    for name, record in by_name.items():
        assert record["played"] == 3
        assert record["points"] == sum(totals[name])
    assert sum(s["won"] for s in done["standings"]) == 6
    ranks = [s["rank"] for s in done["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    points = [s["points"] for s in done["standings"]]
    assert points == sorted(points, reverse=True)
    assert done["winner"] == (done["standings"][0]["entrant"] if ranks[1] == 2 else None)


def test_a_table_is_corrected_until_its_round_is_closed(client: FlaskClient):
    event, organiser = start_event(client)
    drawn = draw_round(client, event["id"], organiser)
    finish_round(client, drawn, organiser)
    table = drawn["tables"][0]
    first, second = api_match(client, table["match"])["teams"]
    before = {s["entrant"]: s for s in client.get(f"/api/events/{event['id']}").json["standings"]}
    assert before[first]["won"] == 1
    # The deal was the other way round: the second team won it.
    match = api_match(client, table["match"])
    corrected = client.put(
        rounds_url(table["match"], 1), json=coinche_deal(match, winner=1), headers=organiser
    )
    assert corrected.status_code == 200, corrected.json
    after = {s["entrant"]: s for s in client.get(f"/api/events/{event['id']}").json["standings"]}
    assert after[first]["won"] == 0 and after[second]["won"] == 1
    draw_round(client, event["id"], organiser)
    body = refused(
        client.put(rounds_url(table["match"], 1), json=coinche_deal(match), headers=organiser), 409
    )
    assert "closed" in body["error"]
    assert api_match(client, table["match"])["winner"] == second


def test_an_odd_count_gives_a_bye_in_turn_and_the_bye_counts_as_a_win(client: FlaskClient):
    teams = dict(CONCOURS["teams"]) | {"Trefle": ["Ivo", "Jo"]}
    event, organiser = start_event(client, teams=teams, rounds=3)
    byes = []
    for _ in range(3):
        drawn = draw_round(client, event["id"], organiser)
        assert len(drawn["byes"]) == 1 and len(drawn["tables"]) == 2
        byes += drawn["byes"]
        finish_round(client, drawn, organiser)
    assert len(set(byes)) == 3
    standings = {
        s["entrant"]: s for s in client.get(f"/api/events/{event['id']}").json["standings"]
    }
    for name in byes:
        assert standings[name]["byes"] == 1 and standings[name]["played"] == 2


def test_a_withdrawn_entrant_is_not_drawn_again_and_keeps_its_results(client: FlaskClient):
    teams = dict(CONCOURS["teams"]) | {"Trefle": ["Ivo", "Jo"], "Carreau": ["Kim", "Lou"]}
    event, organiser = start_event(client, teams=teams)
    drawn = draw_round(client, event["id"], organiser)
    finish_round(client, drawn, organiser)
    gone = api_match(client, drawn["tables"][0]["match"])["winner"]
    url = f"/api/events/{event['id']}/withdraw"
    refused(client.post(url, json={"name": gone}), 403)
    refused(client.post(url, json={"name": "Nobody"}, headers=organiser), 404)
    answer = client.post(url, json={"name": gone.upper()}, headers=organiser)
    assert answer.status_code == 200
    entrant = next(e for e in answer.json["entrants"] if e["name"] == gone)
    assert entrant["withdrawn_round"] == 2
    refused(client.post(url, json={"name": gone}, headers=organiser), 409)
    second = draw_round(client, event["id"], organiser)
    # Five teams left: two tables and a bye, the one gone neither seated nor given the bye.
    assert gone not in [name for t in second["tables"] for name in t["seats"]]
    assert len(second["tables"]) == 2 and len(second["byes"]) == 1 and gone not in second["byes"]
    record = next(s for s in second["event"]["standings"] if s["entrant"] == gone)
    assert (record["played"], record["won"], record["withdrawn"]) == (1, 1, True)


def test_a_late_entrant_joins_from_the_next_round(client: FlaskClient):
    event, organiser = start_event(client)
    url = f"/api/events/{event['id']}/entrants"
    late = {"name": "Trefle", "players": ["Ivo", "Jo"]}
    refused(client.post(url, json=late), 403)
    refused(
        client.post(url, json={"name": "Pique", "players": ["X", "Y"]}, headers=organiser),
        422,
        "name",
    )
    refused(
        client.post(url, json={"name": "T", "players": ["Ana", "Y"]}, headers=organiser),
        422,
        "players.0",
    )
    refused(client.post(url, json={"name": "T", "players": ["Y"]}, headers=organiser), 422)
    drawn = draw_round(client, event["id"], organiser)
    answer = client.post(url, json=late, headers=organiser)
    assert answer.status_code == 201
    assert answer.json["entrants"][-1] == {
        "name": "Trefle",
        "players": ["Ivo", "Jo"],
        "joined_round": 2,
        "withdrawn_round": None,
    }
    finish_round(client, drawn, organiser)
    second = draw_round(client, event["id"], organiser)
    seated = [name for t in second["tables"] for name in t["seats"]] + second["byes"]
    assert "Trefle" in seated and len(seated) == 5


def test_closing_waits_for_every_table_then_freezes_the_standings(client: FlaskClient):
    event, organiser = start_event(client, rounds=1)
    url = f"/api/events/{event['id']}/close"
    refused(client.post(url, headers=organiser), 409)  # nothing drawn yet
    drawn = draw_round(client, event["id"], organiser)
    refused(client.post(url, headers=organiser), 409)
    refused(client.post(url), 403)
    finish_round(client, drawn, organiser)
    closed = client.post(url, headers=organiser)
    assert closed.status_code == 200 and closed.json["closed_at"]
    assert closed.json["status"] == "finished"
    table = drawn["tables"][0]["match"]
    deal = coinche_deal(api_match(client, table), winner=1)
    refused(client.put(rounds_url(table, 1), json=deal, headers=organiser), 409)
    refused(client.post(url, headers=organiser), 409)


def test_standings_download_as_csv_with_formulas_kept_as_text(client: FlaskClient):
    teams = {"=SUM(A1)": ["Ana", "Bo"], "Les Rois": ["Cy", "Di"]}
    event, organiser = start_event(client, teams=teams, rounds=1)
    finish_round(client, draw_round(client, event["id"], organiser), organiser)
    response = client.get(f"/api/events/{event['id']}/standings.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][:7] == [
        "rank",
        "entrant",
        "players",
        "played",
        "won",
        "points",
        "points_against",
    ]
    assert rows[1][0] == "1" and rows[1][3:5] == ["1", "1"]
    assert {rows[1][1], rows[2][1]} == {"'=SUM(A1)", "Les Rois"}
    assert "Ana & Bo" in (rows[1][2], rows[2][2])


def test_an_event_exported_and_imported_elsewhere_stands_the_same(client: FlaskClient, tmp_path):
    event, organiser = start_event(client, rounds=2)
    finish_round(client, draw_round(client, event["id"], organiser), organiser)
    draw_round(client, event["id"], organiser)
    document = client.get(f"/api/events/{event['id']}/export").json
    assert document["format"] == "tablescore-event" and len(document["matches"]) == 4
    other = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "t"}
    ).test_client()
    imported = other.post("/api/events/import", json=document)
    assert imported.status_code == 201, imported.json
    assert imported.json["imported"] is True and imported.json["scorer_token"]
    here = client.get(f"/api/events/{event['id']}").json
    there = other.get(f"/api/events/{imported.json['id']}").json
    assert there["standings"] == here["standings"]
    assert [len(r["tables"]) for r in there["tables"]] == [2, 2]
    assert there["round"] == 2 and there["status"] == "playing"
    # The organiser's new token scores the imported tables; the old one opens nothing there.
    table = there["tables"][1]["tables"][0]["match"]
    deal = coinche_deal(api_match(other, table))
    token = {"Authorization": f"Bearer {imported.json['scorer_token']}"}
    refused(other.post(rounds_url(table), json=deal, headers=organiser), 403)
    assert other.post(rounds_url(table), json=deal, headers=token).status_code == 201
    again = other.post("/api/events/import", json=document)
    assert again.status_code == 200 and again.json["imported"] is False
    assert len(other.get("/api/events").json["events"]) == 1


def test_a_bad_event_document_is_refused_whole(client: FlaskClient, app: Flask):
    event, organiser = start_event(client, rounds=1)
    document = client.get(f"/api/events/{event['id']}/export").json
    refused(send(client, "POST", "/api/events/import", document | {"format": "x"}), 422, "format")
    broken = document | {"uid": "another", "tables": [{"round": 1, "table": 1, "match": "nope"}]}
    refused(send(client, "POST", "/api/events/import", broken), 422, "tables.0")
    late = [dict(document["entrants"][0], joined_round="2"), *document["entrants"][1:]]
    refused(
        send(client, "POST", "/api/events/import", document | {"uid": "x", "entrants": late}),
        422,
        "entrants.0",
    )
    assert event_count(client) == 1


def test_history_lists_an_events_matches_with_their_event(client: FlaskClient):
    event, organiser = start_event(client, rounds=1)
    draw_round(client, event["id"], organiser)
    listed = client.get("/api/matches").json["matches"]
    assert {m["event"]["id"] for m in listed} == {event["id"]}
    assert sorted(m["event"]["table"] for m in listed) == [1, 2]


# --- hardening: imports take nothing over, closed rounds stay closed, draws wait for nobody ---


def database(app: Flask) -> dict[str, list[tuple]]:
    """Every row of every table: what a refused request must leave as it was."""
    db = storage.connect(app.config["DATABASE"])
    try:
        names = storage.table_names(db)
        return {
            name: sorted(db.execute(f"select * from {name}").fetchall(), key=repr) for name in names
        }
    finally:
        db.close()


def other_phone(app: Flask) -> storage.Database:
    """A connection of another process to the app's database; it waits a moment at most for
    the write lock, so a change made while a draw holds it fails at once."""
    db = storage.connect(app.config["DATABASE"])
    if storage.engine_name(app.config["DATABASE"]) == "sqlite":
        db.execute("PRAGMA busy_timeout = 200")
    else:
        db.execute("SET lock_timeout = '200ms'")
    return db


def elsewhere(tmp_path, name: str = "other") -> FlaskClient:
    """A client of another Tablescore, over its own file."""
    settings = {"TESTING": True, "DATABASE": str(tmp_path / f"{name}.sqlite"), "SECRET_KEY": "t"}
    return create_app(settings).test_client()


def played_event(client: FlaskClient, **changed) -> tuple[dict, dict[str, str], dict]:
    """An event with its first round played and its second drawn; return it, the organiser's
    header and its export."""
    event, organiser = start_event(client, rounds=2, **changed)
    finish_round(client, draw_round(client, event["id"], organiser, seed=7), organiser)
    draw_round(client, event["id"], organiser)
    return event, organiser, client.get(f"/api/events/{event['id']}/export").json


def test_an_event_import_takes_over_no_match_stored_here(client: FlaskClient, app: Flask):
    event, organiser, document = played_event(client)
    taken = document["tables"][0]["match"]
    forged = document | {"uid": "forged", "name": "Mine now"}
    before = database(app)
    body = refused(send(client, "POST", "/api/events/import", forged), 409)
    assert taken in body["error"] and "nothing was imported" in body["error"]
    assert "scorer_token" not in body
    assert database(app) == before
    # The owner's table plays on in its own event, and the owner's next round is drawn.
    match = api_match(
        client, client.get(f"/api/events/{event['id']}").json["tables"][1]["tables"][0]["match"]
    )
    assert match["event"]["id"] == event["id"]
    assert event_count(client) == 1


def test_an_event_import_never_moves_a_match_imported_before(client: FlaskClient, tmp_path):
    _event, _organiser, document = played_event(client)
    there = elsewhere(tmp_path)
    first = document["matches"][0]
    imported = there.post("/api/import", json=[first]).json
    [(match_id, _token)] = imported["scorer_tokens"].items()
    seen = there.get(f"/api/matches/{match_id}")
    assert seen.json["event"] is None
    body = refused(send(there, "POST", "/api/events/import", document), 409)
    assert first["uid"] in body["error"]
    assert len(there.get("/api/events").json["events"]) == 0
    # The match is as it was: its ETag still names it, and it is still in no event.
    tag = {"If-None-Match": seen.headers["ETag"]}
    assert there.get(f"/api/matches/{match_id}", headers=tag).status_code == 304
    assert there.get(f"/api/matches/{match_id}").json == seen.json


def test_an_imported_events_matches_name_their_event_and_version(client: FlaskClient, tmp_path):
    _event, _organiser, document = played_event(client)
    there = elsewhere(tmp_path)
    imported = there.post("/api/events/import", json=document)
    assert imported.status_code == 201, imported.json
    placed = {
        table["match"]: (n["round"], table["table"])
        for n in imported.json["tables"]
        for table in n["tables"]
    }
    assert len(placed) == len(document["tables"]) == 4
    for match_id, (n, number) in placed.items():
        answer = there.get(f"/api/matches/{match_id}")
        log = there.get(f"/api/matches/{match_id}/log").json["changes"]
        assert answer.json["event"] == {"id": imported.json["id"], "round": n, "table": number}
        assert answer.json["version"] == len(log)
        assert answer.headers["ETag"] == f'W/"{answer.json["uid"]}-{len(log)}-en"'


def test_a_table_of_a_closed_round_changes_no_more(client: FlaskClient, app: Flask):
    event, organiser, _document = played_event(client)
    tables = client.get(f"/api/events/{event['id']}").json["tables"]
    closed, open_ = tables[0]["tables"][0]["match"], tables[1]["tables"][0]["match"]
    client.keep(str(closed), organiser["Authorization"].removeprefix("Bearer "))
    before = database(app)
    for change in (
        client.patch(f"/api/matches/{closed}", json={"note": "late"}, headers=organiser),
        client.patch(f"/api/matches/{closed}", json={"played_at": "2026-12-05"}, headers=organiser),
        client.put(f"{rounds_url(closed, 1)}/note", json={"note": "x"}, headers=organiser),
    ):
        assert "Round 1 of this match's event is closed" in refused(change, 409)["error"]
    for page in (
        client.post(
            f"/matches/{closed}/details", data={"note": "late", "place": "", "played_at": ""}
        ),
        client.post(f"/matches/{closed}/rounds/1/note", data={"note": "x"}),
    ):
        assert page.status_code == 409 and "is closed" in page.get_data(as_text=True)
    assert database(app) == before
    # Handing the table to another phone, or playing it again, is no change of it.
    assert (
        client.post(f"/api/matches/{closed}/handoff", json={}, headers=organiser).status_code == 201
    )
    assert client.post(f"/api/matches/{closed}/rematch", headers=organiser).status_code == 201
    # The round being played still takes its notes, until the event closes.
    assert (
        client.patch(f"/api/matches/{open_}", json={"note": "ok"}, headers=organiser).status_code
        == 200
    )
    finish_round(client, {"tables": tables[1]["tables"]}, organiser)
    assert client.post(f"/api/events/{event['id']}/close", headers=organiser).status_code == 200
    refused(client.patch(f"/api/matches/{open_}", json={"place": "Bar"}, headers=organiser), 409)
    refused(client.put(f"{rounds_url(open_, 1)}/note", json={"note": "y"}, headers=organiser), 409)
    assert api_match(client, open_)["note"] == "ok"


def test_a_round_is_drawn_outside_the_write_lock_and_again_if_the_event_changed(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
):
    event, organiser = start_event(client, rounds=2)
    finish_round(client, draw_round(client, event["id"], organiser, seed=7), organiser)
    other, token = other_phone(app), event["scorer_token"]
    standings, drawing = [], events.draw

    def meanwhile(standing, *rest):
        standings.append(list(standing))
        if len(standings) == 1:
            # Another phone withdraws a team while the round is being drawn: the write lock
            # is free, and the draw is made again without it.
            events.withdraw(other, event["id"], "Les As", token)
        return drawing(standing, *rest)

    monkeypatch.setattr(events, "draw", meanwhile)
    drawn = draw_round(client, event["id"], organiser)
    other.close()
    assert "Les As" in standings[0] and len(standings) == 2 and "Les As" not in standings[1]
    seated = [name for table in drawn["tables"] for name in table["seats"]]
    assert sorted(seated + drawn["byes"]) == sorted(set(CONCOURS["teams"]) - {"Les As"})
    assert len(drawn["tables"]) == 1 and len(drawn["byes"]) == 1
    stored = client.get(f"/api/events/{event['id']}").json
    assert stored["round"] == 2 and stored["tables"][1]["byes"] == drawn["byes"]
    assert [t["seats"] for t in stored["tables"][1]["tables"]] == [
        t["seats"] for t in drawn["tables"]
    ]
    match = api_match(client, drawn["tables"][0]["match"])
    assert match["event"] == {"id": event["id"], "round": 2, "table": 1}
    assert (
        client.post(
            rounds_url(match["id"]), json=coinche_deal(match), headers=organiser
        ).status_code
        == 201
    )
    assert len(client.get("/api/matches").json["matches"]) == 3


def test_a_draw_the_event_keeps_changing_under_stores_nothing(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
):
    event, organiser = start_event(client)
    other, token, drawing = other_phone(app), event["scorer_token"], events.draw
    late = iter(range(1, 10))

    def meanwhile(*args):
        n = next(late)
        events.enter_late(
            other, event["id"], {"name": f"T{n}", "players": [f"A{n}", f"B{n}"]}, token
        )
        return drawing(*args)

    monkeypatch.setattr(events, "draw", meanwhile)
    body = refused(client.post(f"/api/events/{event['id']}/draw", headers=organiser), 409)
    other.close()
    assert "kept changing" in body["error"] and next(late) == events.DRAW_ATTEMPTS + 1
    stored = client.get(f"/api/events/{event['id']}").json
    assert stored["round"] == 0 and client.get("/api/matches").json["total"] == 0
    assert [e["name"] for e in stored["entrants"]][4:] == ["T1", "T2", "T3"]


@pytest.mark.parametrize("seed", [2**63, 2**64, -(2**63) - 1, 10**30, 1.5, True])
def test_a_seed_beyond_what_is_kept_is_refused(client: FlaskClient, app: Flask, seed):
    event, organiser = start_event(client)
    _played, _organiser, document = played_event(client)
    before = database(app)
    # Written by the json module: the client's own JSON writes no integer beyond 64 bits.
    drawing = client.post(
        f"/api/events/{event['id']}/draw",
        data=json.dumps({"seed": seed}),
        content_type="application/json",
        headers=organiser,
    )
    refused(drawing, 422, "seed", "from -9223372036854775808 to 9223372036854775807")
    document["draws"][0]["seed"] = seed
    refused(
        send(client, "POST", "/api/events/import", document | {"uid": "seeded"}), 422,
        "draws.0.seed", "9223372036854775807",
    )  # fmt: skip
    assert database(app) == before


@pytest.mark.parametrize("seed", [2**63 - 1, -(2**63)])
def test_the_largest_seeds_draw_and_travel(client: FlaskClient, tmp_path, seed: int):
    event, organiser = start_event(client, rounds=1)
    drawn = draw_round(client, event["id"], organiser, seed=seed)
    again, again_organiser = start_event(client, rounds=1)
    repeat = draw_round(client, again["id"], again_organiser, seed=seed)
    assert [t["seats"] for t in repeat["tables"]] == [t["seats"] for t in drawn["tables"]]
    document = client.get(f"/api/events/{event['id']}/export").json
    assert document["draws"][0]["seed"] == seed
    there = elsewhere(tmp_path)
    imported = there.post("/api/events/import", json=document)
    assert imported.status_code == 201, imported.json
    assert there.get(f"/api/events/{imported.json['id']}/export").json == document


def forged(document: dict, path: str, value) -> dict:
    """The document under a new uid, with one value changed at a dotted path."""
    changed = copy.deepcopy(document) | {"uid": "forged"}
    *parents, last = path.split(".")
    at = changed
    for key in parents:
        at = at[int(key)] if isinstance(at, list) else at[key]
    at[int(last) if isinstance(at, list) else last] = value
    return changed


@pytest.mark.parametrize(
    ("path", "value", "field", "words"),
    [
        ("entrants.3", {"name": "Les As", "players": ["Gus", "Hana"]}, "entrants.3.name", "twice"),
        ("entrants.3.name", "les as", "entrants.3.name", "twice"),
        ("entrants.0.name", ["Les As"], "entrants.0.name", "needs a name"),
        ("options", "coinche", "options", "must be an object"),
        ("options", [["variant", "coinche"]], "options", "must be an object"),
        ("tables.0.round", 2**70, "tables.0", "Each table"),
        ("tables.0.table", 0, "tables.0", "Each table"),
        ("tables.0.match", ["x"], "tables.0", "Each table"),
        ("tables.1.table", 1, "tables.1", "Each table"),
        ("draws.0.byes", ["Nobody"], "draws.0", "byes"),
        ("draws.0.drawn_at", "yesterday", "draws.0.drawn_at", "UTC time"),
        ("name", "Con\x1bcours", "name", "control"),
        ("place", "Caf\u202eé", "place", "control"),
    ],
)
def test_an_event_document_that_would_break_is_refused_and_nothing_stored(
    client: FlaskClient, app: Flask, tmp_path, path, value, field, words
):
    _event, _organiser, document = played_event(client)
    there = elsewhere(tmp_path)
    refused(
        send(there, "POST", "/api/events/import", forged(document, path, value)), 422, field, words
    )
    assert there.get("/api/events").json["events"] == []
    assert there.get("/api/matches").json["total"] == 0


def test_a_match_at_a_table_seats_entrants_of_the_event(client: FlaskClient, tmp_path):
    _event, _organiser, document = played_event(client)
    outsider = copy.deepcopy(document)
    outsider["entrants"][0]["name"] = "Les Valets"
    there = elsewhere(tmp_path)
    body = refused(send(there, "POST", "/api/events/import", outsider), 422)
    assert "Les As" in body["error"] and "not entrants" in body["error"]
    assert there.get("/api/matches").json["total"] == 0


def test_a_player_entered_twice_in_an_imported_event_is_refused(client: FlaskClient, tmp_path):
    event, organiser = start_event(
        client, game="rami", teams=None, options={}, players=["Ana", "Bo", "Cy", "Di"], rounds=1
    )
    document = client.get(f"/api/events/{event['id']}/export").json
    twice = forged(document, "entrants.3.name", " ana ")
    there = elsewhere(tmp_path)
    refused(send(there, "POST", "/api/events/import", twice), 422, "entrants.3.name", "twice")
    assert there.get("/api/events").json["events"] == []


def test_the_length_of_the_matches_is_the_events_deals_however_it_is_said(
    client: FlaskClient, app: Flask
):
    said = {"options": {"variant": "coinche", "match_deals": 2}}
    event, organiser = start_event(client, deals=None, rounds=1, **said)
    assert (event["deals"], event["options"]["match_deals"]) == (2, 2)
    table = draw_round(client, event["id"], organiser)["tables"][0]["match"]
    for n in (1, 2):
        answer = client.post(
            rounds_url(table), json=coinche_deal(api_match(client, table)), headers=organiser
        )
        assert answer.status_code == 201
        assert answer.json["match"]["status"] == ("finished" if n == 2 else "playing")
    assert start_event(client, deals=2, **said)[0]["deals"] == 2
    before = database(app)
    refused(send(client, "POST", "/api/events", CONCOURS | said), 422, "options.match_deals", "(1)")
    refused(
        send(client, "POST", "/api/events", CONCOURS | {"options": {"match_deals": 0}}),
        422, "options.match_deals", "between 1 and 500",
    )  # fmt: skip
    assert database(app) == before


def test_an_event_exported_and_imported_is_the_same_event(client: FlaskClient, tmp_path):
    teams = dict(CONCOURS["teams"]) | {"Trefle": ["Ivo", "Jo"]}
    said = {"options": {"variant": "coinche", "match_deals": 1}}
    event, organiser = start_event(client, teams=teams, deals=None, rounds=2, place="Café", **said)
    finish_round(client, draw_round(client, event["id"], organiser, seed=3), organiser)
    client.post(f"/api/events/{event['id']}/withdraw", json={"name": "Pique"}, headers=organiser)
    late = {"name": "Carreau", "players": ["Kim", "Lou"]}
    client.post(f"/api/events/{event['id']}/entrants", json=late, headers=organiser)
    finish_round(client, draw_round(client, event["id"], organiser), organiser)
    assert client.post(f"/api/events/{event['id']}/close", headers=organiser).status_code == 200
    document = client.get(f"/api/events/{event['id']}/export").json
    # Drawn earlier than this second: an import keeps when each round was drawn.
    for n, drawn in enumerate(document["draws"]):
        drawn["drawn_at"] = f"2026-12-05T20:0{n}:00Z"
    there = elsewhere(tmp_path)
    imported = there.post("/api/events/import", json=document)
    assert imported.status_code == 201, imported.json
    assert there.get(f"/api/events/{imported.json['id']}/export").json == document
    here = client.get(f"/api/events/{event['id']}").json
    local = ("id", "url", "html_url", "standings_url", "tables", "scorer_token", "imported")
    assert {k: v for k, v in imported.json.items() if k not in local} == {
        k: v for k, v in here.items() if k not in local
    }
    assert imported.json["deals"] == 1 and imported.json["closed_at"] == here["closed_at"]
