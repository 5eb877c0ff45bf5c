"""Events through the JSON API: create, draw, play, correct, withdraw, join late, close,
export and import — with the organiser's token, and refusals that change nothing."""

from __future__ import annotations

import csv
import io
import itertools
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
