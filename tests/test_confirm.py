"""Both sides confirm (API.md): the confirm choice, each side's one-time link and token, the
rounds each side confirms or contests, and events whose tables count once settled or accepted.

Belote is Nous (Ana and Cy) against Eux (Bo and Di), to 1000: a deal Nous took with 100 card
points and the last trick scores Nous 110, Eux 52. Rami is Ana, Bo and Cy; its sides are players.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.api_helpers import (
    CONCOURS,
    api_match,
    coinche_deal,
    draw_round,
    finish_round,
    refused,
    rounds_url,
    send,
    start_event,
    unchanged,
)
from tests.html_reader import parse

TEAMS = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
RAMI_PLAYERS = ["Ana", "Bo", "Cy"]


def belote(**options: Any) -> dict[str, Any]:
    """A Belote match of Nous against Eux, with these options."""
    return {"game": "belote", "teams": TEAMS, "options": options}


def deal(team: str, points: int = 100) -> dict[str, Any]:
    """A plain deal: `team`'s first player took at hearts, with `points` and the last trick."""
    taker = TEAMS[team][0]
    return {"taker": taker, "trump": "hearts", "points": {team: points}, "last_trick": team}


def went_out(winner: str, **points: int) -> dict[str, Any]:
    """A Rami round: `winner` went out, the others hold these points and had melded."""
    hands = {name: {"points": value, "melded": True} for name, value in points.items()}
    return {"outcome": "out", "winner": winner, "hands": hands}


def start(client: FlaskClient, body: dict[str, Any], *rounds: dict[str, Any]) -> int:
    """Start a match (its keys in the order written), record these rounds, return its id."""
    response = send(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    match_id = response.json["id"]
    for entered in rounds:
        answer = send(client, "POST", rounds_url(match_id), entered)
        assert answer.status_code == 201, answer.json
    return match_id


def bearer(token: str) -> dict[str, str]:
    """The header that sends a token."""
    return {"Authorization": f"Bearer {token}"}


def link(client: FlaskClient, match_id: int, side: str, **headers: str) -> dict[str, Any]:
    """Make a side's one-time link with the scorer's token; return the answer."""
    response = client.post(f"/api/matches/{match_id}/sides/{side}/link", headers=headers)
    assert response.status_code == 201, response.json
    return response.json


def side_phone(client: FlaskClient, match_id: int, side: str) -> dict[str, str]:
    """The header of a side's phone, its token made by the scoring phone."""
    return bearer(link(client, match_id, side)["token"])


def confirm(client: FlaskClient, match_id: int, n: int, phone: dict[str, str]) -> Any:
    """Confirm round n with a side's header."""
    return client.post(f"{rounds_url(match_id, n)}/confirm", headers=phone)


def contest(client: FlaskClient, match_id: int, n: int, phone: dict[str, str], why: Any) -> Any:
    """Contest round n with a side's header, saying why."""
    return client.post(f"{rounds_url(match_id, n)}/contest", json={"reason": why}, headers=phone)


def verdicts(match: dict[str, Any]) -> list[tuple[list[str], Any]]:
    """Each round's confirmed_by and contest, in order."""
    return [(r["confirmed_by"], r["contest"]) for r in match["rounds"]]


def log(client: FlaskClient, match_id: int) -> list[dict[str, Any]]:
    """The match's change log."""
    return client.get(f"/api/matches/{match_id}/log").json["changes"]


# --- the choice -------------------------------------------------------------------------------


def test_a_confirming_match_shows_its_choice_and_each_rounds_verdict(client: FlaskClient):
    match_id = start(client, belote(confirm=True))
    fresh = api_match(client, match_id)
    assert (fresh["options"]["confirm"], fresh["options"]["scorer_side"]) == (True, "Nous")
    assert (fresh["rounds"], fresh["settled"]) == ([], True)
    answer = send(client, "POST", rounds_url(match_id), deal("Nous"))
    assert answer.json["round"]["confirmed_by"] == ["Nous"]
    assert answer.json["round"]["contest"] is None
    assert answer.json["match"]["totals"] == {"Nous": 110, "Eux": 52}
    assert answer.json["match"]["settled"] is False


def test_the_scorer_may_play_for_the_second_team(client: FlaskClient):
    match_id = start(client, belote(confirm=True, scorer_side="Eux"), deal("Nous"))
    assert api_match(client, match_id)["options"]["scorer_side"] == "Eux"
    assert verdicts(api_match(client, match_id)) == [(["Eux"], None)]
    confirmed = confirm(client, match_id, 1, side_phone(client, match_id, "Nous"))
    # The sides are listed as the table seats them: Nous first.
    assert confirmed.json["round"]["confirmed_by"] == ["Nous", "Eux"]
    assert confirmed.json["match"]["settled"] is True


def test_in_a_game_of_players_every_other_player_confirms(client: FlaskClient):
    body = {"game": "rami", "players": RAMI_PLAYERS, "options": {"confirm": True}}
    match_id = start(client, body, went_out("Ana", Bo=10, Cy=20))
    assert api_match(client, match_id)["options"]["scorer_side"] == "Ana"
    by_cy = confirm(client, match_id, 1, side_phone(client, match_id, "Cy"))
    assert (by_cy.json["round"]["confirmed_by"], by_cy.json["match"]["settled"]) == (
        ["Ana", "Cy"],
        False,
    )
    by_bo = confirm(client, match_id, 1, side_phone(client, match_id, "Bo"))
    assert (by_bo.json["round"]["confirmed_by"], by_bo.json["match"]["settled"]) == (
        ["Ana", "Bo", "Cy"],
        True,
    )


def test_a_match_without_confirm_is_as_it_was(client: FlaskClient):
    match_id = start(client, belote(), deal("Nous"))
    match = api_match(client, match_id)
    assert "confirm" not in match["options"] and "scorer_side" not in match["options"]
    assert match["settled"] is True
    assert "confirmed_by" not in match["rounds"][0] and "contest" not in match["rounds"][0]
    refused(client.post(f"/api/matches/{match_id}/sides/Eux/link"), 409)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        pytest.param({"confirm": "yes"}, "options.confirm", id="confirm-text"),
        pytest.param({"confirm": 1}, "options.confirm", id="confirm-number"),
        pytest.param({"confirm": True, "scorer_side": "Zed"}, "options.scorer_side", id="side"),
        pytest.param({"confirm": True, "scorer_side": "Ana"}, "options.scorer_side", id="player"),
        pytest.param({"scorer_side": "Nous"}, "options.scorer_side", id="side-alone"),
        pytest.param({"confirm": False, "scorer_side": "Nous"}, "options.scorer_side", id="off"),
    ],
)
def test_a_bad_confirm_choice_is_refused_and_nothing_is_stored(
    client: FlaskClient, options: dict[str, Any], field: str
):
    refused(send(client, "POST", "/api/matches", belote(**options)), 422, field)
    assert client.get("/api/matches").json["total"] == 0


# --- the sides' links -------------------------------------------------------------------------


def test_a_link_gives_the_side_a_url_and_a_token(client: FlaskClient):
    match_id = start(client, belote(confirm=True))
    answer = link(client, match_id, "Eux")
    assert set(answer) == {"side", "url", "token"} and answer["side"] == "Eux"
    assert urlsplit(answer["url"]).path.startswith("/side/")
    assert answer["token"] and answer["token"] != client.tokens[str(match_id)]


def test_a_link_needs_the_scorers_token_and_a_side_of_the_match(
    client: FlaskClient, stranger: FlaskClient
):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    url = f"/api/matches/{match_id}/sides/Eux/link"
    with unchanged(client, match_id):
        refused(stranger.post(url), 403)
        refused(client.post(url, headers=bearer("not-the-token")), 403)
        refused(client.post(url, headers=side_phone(client, match_id, "Eux")), 403)
        refused(client.post(f"/api/matches/{match_id}/sides/Zed/link"), 422, "side", "Nous, Eux")
        refused(client.post(f"/api/matches/{match_id}/sides/Nous/link"), 422, "side")
        refused(client.post("/api/matches/999/sides/Eux/link"), 404)


# --- confirming and contesting ----------------------------------------------------------------


def test_the_other_side_confirms_a_round_and_the_match_is_settled(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"), deal("Eux", 90))
    eux = side_phone(client, match_id, "Eux")
    answer = confirm(client, match_id, 2, eux)
    assert answer.status_code == 200
    assert set(answer.json) == {"round", "match"} and answer.json["round"]["n"] == 2
    assert verdicts(answer.json["match"]) == [(["Nous"], None), (["Nous", "Eux"], None)]
    assert answer.json["match"]["settled"] is False
    settled = confirm(client, match_id, 1, eux).json["match"]
    assert verdicts(settled) == [(["Nous", "Eux"], None), (["Nous", "Eux"], None)]
    assert settled["settled"] is True
    assert api_match(client, match_id)["settled"] is True


def test_confirming_again_what_stands_logs_nothing_more(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    confirm(client, match_id, 1, eux)
    assert [c["action"] for c in log(client, match_id)] == ["add", "confirm"]
    with unchanged(client, match_id):
        again = confirm(client, match_id, 1, eux)
    assert again.status_code == 200 and again.json["round"]["confirmed_by"] == ["Nous", "Eux"]
    assert len(log(client, match_id)) == 2


def test_a_contest_shows_its_side_reason_and_time_until_the_side_confirms(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    contested = contest(client, match_id, 1, eux, "  Eux had the belote  ")
    assert contested.status_code == 200
    at = log(client, match_id)[-1]["at"]
    said = {"side": "Eux", "reason": "Eux had the belote", "at": at}
    assert contested.json["round"]["contest"] == said
    assert contested.json["round"]["confirmed_by"] == ["Nous"]
    assert contested.json["match"]["settled"] is False
    # The same contest again logs nothing; the side confirming replaces it.
    contest(client, match_id, 1, eux, "Eux had the belote")
    assert len(log(client, match_id)) == 2
    confirmed = confirm(client, match_id, 1, eux).json
    assert verdicts(confirmed["match"]) == [(["Nous", "Eux"], None)]
    assert confirmed["match"]["settled"] is True
    assert [c["action"] for c in log(client, match_id)] == ["add", "contest", "confirm"]


def test_a_confirmed_round_contested_after_is_no_longer_confirmed(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    confirm(client, match_id, 1, eux)
    match = contest(client, match_id, 1, eux, "wrong trump").json["match"]
    assert match["rounds"][0]["confirmed_by"] == ["Nous"]
    assert match["rounds"][0]["contest"]["reason"] == "wrong trump"
    assert match["settled"] is False


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        pytest.param("", "what is wrong", id="empty"),
        pytest.param("   ", "what is wrong", id="blank"),
        pytest.param(None, "what is wrong", id="null"),
        pytest.param(7, "what is wrong", id="number"),
        pytest.param("x" * 201, "at most 200 characters; it has 201", id="long"),
        pytest.param("a\u0000b", "control", id="control"),
    ],
)
def test_a_contest_needs_a_short_plain_reason(client: FlaskClient, reason: Any, words: str):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    with unchanged(client, match_id):
        refused(contest(client, match_id, 1, eux, reason), 422, "reason", words)


def test_a_contest_is_sent_as_json(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    url = f"{rounds_url(match_id, 1)}/contest"
    with unchanged(client, match_id):
        refused(client.post(url, data="wrong trump", content_type="text/plain", headers=eux), 415)
        refused(client.post(url, json=["wrong trump"], headers=eux), 400)
    assert contest(client, match_id, 1, eux, "x" * 200).status_code == 200


def test_each_sides_latest_word_stands(client: FlaskClient):
    body = {"game": "rami", "players": RAMI_PLAYERS, "options": {"confirm": True}}
    match_id = start(client, body, went_out("Ana", Bo=10, Cy=20))
    bo, cy = side_phone(client, match_id, "Bo"), side_phone(client, match_id, "Cy")
    contest(client, match_id, 1, bo, "I held 8")
    contest(client, match_id, 1, cy, "I held 2")
    assert api_match(client, match_id)["rounds"][0]["contest"]["side"] == "Cy"
    # Cy takes it back: Bo's contest, still standing, shows again.
    [(confirmed_by, said)] = verdicts(confirm(client, match_id, 1, cy).json["match"])
    assert (confirmed_by, said["side"], said["reason"]) == (["Ana", "Cy"], "Bo", "I held 8")
    settled = confirm(client, match_id, 1, bo).json["match"]
    assert verdicts(settled) == [(["Ana", "Bo", "Cy"], None)] and settled["settled"] is True


def test_a_round_that_is_not_there_is_404(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    with unchanged(client, match_id):
        refused(confirm(client, match_id, 2, eux), 404)
        refused(contest(client, match_id, 2, eux, "no such deal"), 404)
        refused(confirm(client, match_id, 0, eux), 404)
    refused(confirm(client, 999, 1, eux), 404)


def test_a_sides_token_cannot_change_the_rounds(client: FlaskClient, stranger: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    with unchanged(client, match_id):
        refused(stranger.post(rounds_url(match_id), json=deal("Eux"), headers=eux), 403)
        refused(stranger.put(rounds_url(match_id, 1), json=deal("Eux"), headers=eux), 403)
        refused(stranger.delete(rounds_url(match_id, 1), headers=eux), 403)
        refused(stranger.post(f"/api/matches/{match_id}/abandon", headers=eux), 403)
        refused(stranger.patch(f"/api/matches/{match_id}", json={"note": "x"}, headers=eux), 403)


def test_the_scorers_token_and_no_token_cannot_confirm(client: FlaskClient, stranger: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    other = start(client, belote(confirm=True), deal("Nous"))
    with unchanged(client, match_id):
        refused(client.post(f"{rounds_url(match_id, 1)}/confirm"), 403)
        refused(client.post(f"{rounds_url(match_id, 1)}/contest", json={"reason": "x"}), 403)
        refused(stranger.post(f"{rounds_url(match_id, 1)}/confirm"), 403)
        # A side's token of another match confirms nothing here.
        refused(confirm(stranger, match_id, 1, side_phone(client, other, "Eux")), 403)


def test_a_correction_clears_that_rounds_confirmations_and_contest(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"), deal("Eux", 90))
    eux = side_phone(client, match_id, "Eux")
    confirm(client, match_id, 1, eux)
    contest(client, match_id, 2, eux, "we had 100")
    corrected = send(client, "PUT", rounds_url(match_id, 2), deal("Eux", 100)).json["match"]
    assert verdicts(corrected) == [(["Nous", "Eux"], None), (["Nous"], None)]
    assert corrected["settled"] is False
    # Corrected as asked, the side confirms it: settled.
    assert confirm(client, match_id, 2, eux).json["match"]["settled"] is True
    again = send(client, "PUT", rounds_url(match_id, 1), deal("Nous", 90)).json["match"]
    assert verdicts(again) == [(["Nous"], None), (["Nous", "Eux"], None)]


def test_a_removal_clears_the_round_it_removes_only(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"), deal("Eux", 90))
    eux = side_phone(client, match_id, "Eux")
    confirm(client, match_id, 1, eux)
    confirm(client, match_id, 2, eux)
    left = client.delete(rounds_url(match_id, 1)).json["match"]
    assert verdicts(left) == [(["Nous", "Eux"], None)] and left["settled"] is True
    gone = left["removed"][0]["id"]
    restored = client.post(f"/api/matches/{match_id}/removed/{gone}/restore").json["match"]
    assert verdicts(restored) == [(["Nous"], None), (["Nous", "Eux"], None)]
    assert restored["settled"] is False


def test_each_confirm_and_contest_is_logged_with_its_side_and_phone(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"), deal("Eux", 90))
    eux = side_phone(client, match_id, "Eux")
    contest(client, match_id, 2, eux, "the belote was ours")
    confirm(client, match_id, 1, eux)
    said = [
        (c["action"], c["n"], c["input"], c["replaced"], c["device"], c["round_ref"])
        for c in log(client, match_id)[2:]
    ]
    assert said == [
        ("contest", 2, {"side": "Eux", "reason": "the belote was ours"}, None, "Eux's phone", 1),
        ("confirm", 1, {"side": "Eux"}, None, "Eux's phone", 0),
    ]


def test_an_abandoned_match_takes_no_confirmation(client: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    eux = side_phone(client, match_id, "Eux")
    assert client.post(f"/api/matches/{match_id}/abandon").status_code == 200
    with unchanged(client, match_id):
        refused(confirm(client, match_id, 1, eux), 409)
        refused(contest(client, match_id, 1, eux, "too late"), 409)


def test_a_circle_whose_match_has_a_sides_link_can_be_deleted(database: str):
    settings = {"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "CIRCLES": "many"}
    phone = create_app(settings).test_client()
    circle = phone.post("/api/circles", json={"name": "Jeudi coinche"}).json
    keyed = {"X-Tablescore-Circle": circle["key"]}
    body = json.dumps(belote(confirm=True))
    started = phone.post("/api/matches", data=body, content_type="application/json", headers=keyed)
    started = started.json
    scorer = keyed | bearer(started["scorer_token"])
    phone.post(rounds_url(started["id"]), json=deal("Nous"), headers=scorer)
    link(phone, started["id"], "Eux", **scorer)
    url = f"/api/circles/{circle['id']}"
    deleted = phone.delete(url, json={"name": "Jeudi coinche"}, headers=keyed)
    assert deleted.status_code == 200, deleted.get_data(as_text=True)
    assert deleted.json == {"deleted": {"matches": 1, "players": 4, "events": 0}}


# --- the one-time link, on a phone ------------------------------------------------------------


def test_the_link_opens_once_and_the_phone_confirms_for_its_side(
    app: Flask, client: FlaskClient, stranger: FlaskClient
):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    path = urlsplit(link(client, match_id, "Eux")["url"]).path
    page = parse(stranger.get(path))
    form = page.find("form", method="post")
    assert form is not None and form.attrs["action"] == path
    assert page.find("input", name="device") is not None

    opened = stranger.post(path, data={"device": "Bo's phone"})
    assert opened.status_code == 302
    assert urlsplit(opened.headers["Location"]).path == f"/matches/{match_id}"
    verdict = stranger.post(f"/matches/{match_id}/rounds/1/verdict", data={"verdict": "confirm"})
    assert verdict.status_code == 302
    assert verdicts(api_match(client, match_id)) == [(["Nous", "Eux"], None)]
    assert log(client, match_id)[-1]["device"] == "Bo's phone"

    again = app.test_client().post(path, data={"device": "Di's phone"})
    assert again.status_code == 422
    assert "already opened" in again.get_data(as_text=True)


def test_sides_named_in_persian_link_and_confirm(client: FlaskClient, stranger: FlaskClient):
    teams = {"ما": ["آنا", "کوروش"], "آنها": ["بهرام", "داریوش"]}
    match_id = start(client, {"game": "belote", "teams": teams, "options": {"confirm": True}})
    entered = {"taker": "آنا", "trump": "hearts", "points": {"ما": 100}, "last_trick": "ما"}
    send(client, "POST", rounds_url(match_id), entered)
    made = link(client, match_id, "آنها")
    assert made["side"] == "آنها"
    path = urlsplit(made["url"]).path
    assert stranger.post(path, data={"device": ""}).status_code == 302
    stranger.post(f"/matches/{match_id}/rounds/1/verdict", data={"verdict": "confirm"})
    match = api_match(client, match_id)
    assert (match["options"]["scorer_side"], verdicts(match)) == ("ما", [(["ما", "آنها"], None)])
    # A phone given no name is called a phone.
    assert log(client, match_id)[-1]["device"] == "a phone"


def test_a_code_never_given_opens_nothing(client: FlaskClient, stranger: FlaskClient):
    response = stranger.post("/side/not-a-code", data={"device": "a phone"})
    assert response.status_code == 422
    with stranger.session_transaction() as session:
        assert "side_tokens" not in session


def test_a_contest_from_the_phone_page(client: FlaskClient, stranger: FlaskClient):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    path = urlsplit(link(client, match_id, "Eux")["url"]).path
    stranger.post(path, data={"device": "Di's phone"})
    form = {"verdict": "contest", "reason": "Di had the belote"}
    assert stranger.post(f"/matches/{match_id}/rounds/1/verdict", data=form).status_code == 302
    [(confirmed_by, said)] = verdicts(api_match(client, match_id))
    assert (confirmed_by, said["side"], said["reason"]) == (["Nous"], "Eux", "Di had the belote")


# --- events -----------------------------------------------------------------------------------


def confirming_event(client: FlaskClient) -> tuple[dict[str, Any], dict[str, str]]:
    """A coinche event of four teams whose sides confirm every table's rounds."""
    return start_event(client, options={"variant": "coinche", "confirm": True})


def event(client: FlaskClient, event_id: int) -> dict[str, Any]:
    """The event as the API sees it."""
    return client.get(f"/api/events/{event_id}").json


def first_round(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The tables of the event's first round."""
    return answer["tables"][0]["tables"]


def played_counts(answer: dict[str, Any]) -> dict[str, int]:
    """How many tables each entrant played, as the standings count them."""
    return {s["entrant"]: s["played"] for s in answer["standings"]}


def other_side(match: dict[str, Any]) -> str:
    """The side of a table the scorer does not play for."""
    [other] = [side for side in match["teams"] if side != match["options"]["scorer_side"]]
    return other


def accept_url(event_id: int, n: int, table: int) -> str:
    """Where the organiser accepts a table's result."""
    return f"/api/events/{event_id}/tables/{n}/{table}/accept"


def test_every_table_of_a_confirming_event_confirms(client: FlaskClient):
    started, organiser = confirming_event(client)
    assert started["options"]["confirm"] is True
    drawn = draw_round(client, started["id"], organiser)
    for table in drawn["tables"]:
        match = api_match(client, table["match"])
        assert match["options"]["confirm"] is True
        assert match["options"]["scorer_side"] == table["seats"][0]
    tables = first_round(event(client, started["id"]))
    assert [(t["settled"], t["accepted"], t["counts"]) for t in tables] == [
        (True, False, False),
        (True, False, False),
    ]


def test_an_unsettled_table_does_not_count_and_the_next_round_waits(client: FlaskClient):
    started, organiser = confirming_event(client)
    finish_round(client, draw_round(client, started["id"], organiser), organiser)
    now = event(client, started["id"])
    assert [t["status"] for t in first_round(now)] == ["finished", "finished"]
    assert [(t["settled"], t["accepted"], t["counts"]) for t in first_round(now)] == [
        (False, False, False),
        (False, False, False),
    ]
    assert played_counts(now) == dict.fromkeys(CONCOURS["teams"], 0)
    body = refused(client.post(f"/api/events/{started['id']}/draw", headers=organiser), 409)
    assert "Round 1 waits for its sides to confirm at table 1, 2" in body["error"]
    refused(client.post(f"/api/events/{started['id']}/close", headers=organiser), 409)
    assert event(client, started["id"])["round"] == 1


def test_a_table_counts_once_its_other_side_confirms(client: FlaskClient):
    started, organiser = confirming_event(client)
    drawn = draw_round(client, started["id"], organiser)
    finish_round(client, drawn, organiser)
    table = drawn["tables"][0]
    match = api_match(client, table["match"])
    phone = bearer(link(client, table["match"], other_side(match), **organiser)["token"])
    assert confirm(client, table["match"], 1, phone).json["match"]["settled"] is True
    now = event(client, started["id"])
    assert [(t["settled"], t["counts"]) for t in first_round(now)] == [(True, True), (False, False)]
    seated = set(table["seats"])
    assert played_counts(now) == {name: int(name in seated) for name in CONCOURS["teams"]}
    # The team first by name took at 80 with 100 of 152 and the last trick: 110 + 80 = 190,
    # against 52.
    points = {s["entrant"]: s["points"] for s in now["standings"] if s["entrant"] in seated}
    assert points == {min(seated): 190, max(seated): 52} == match["totals"]


def test_the_organiser_accepts_a_table_as_it_stands(client: FlaskClient, stranger: FlaskClient):
    started, organiser = confirming_event(client)
    drawn = draw_round(client, started["id"], organiser)
    event_id = started["id"]
    refused(client.post(accept_url(event_id, 1, 1), headers=organiser), 409)
    finish_round(client, drawn, organiser)
    refused(stranger.post(accept_url(event_id, 1, 1)), 403)
    refused(client.post(accept_url(event_id, 1, 1), headers=bearer("not-the-token")), 403)
    refused(client.post(accept_url(event_id, 1, 3), headers=organiser), 404)
    refused(client.post(accept_url(event_id, 2, 1), headers=organiser), 404)
    refused(client.post(accept_url(999, 1, 1), headers=organiser), 404)
    assert played_counts(event(client, event_id)) == dict.fromkeys(CONCOURS["teams"], 0)

    for number in (1, 2):
        answer = client.post(accept_url(event_id, 1, number), headers=organiser)
        assert answer.status_code == 200, answer.json
    now = event(client, event_id)
    assert [(t["settled"], t["accepted"], t["counts"]) for t in first_round(now)] == [
        (False, True, True),
        (False, True, True),
    ]
    assert played_counts(now) == dict.fromkeys(CONCOURS["teams"], 1)
    match_id = drawn["tables"][0]["match"]
    assert [(c["action"], c["device"]) for c in log(client, match_id)] == [
        ("add", "the organiser"),
        ("accept", "the organiser"),
    ]
    assert draw_round(client, event_id, organiser)["round"] == 2


def test_a_correction_after_accepting_needs_accepting_again(client: FlaskClient):
    started, organiser = confirming_event(client)
    drawn = draw_round(client, started["id"], organiser)
    finish_round(client, drawn, organiser)
    table = drawn["tables"][0]
    client.post(accept_url(started["id"], 1, 1), headers=organiser)
    match = api_match(client, table["match"])
    corrected = coinche_deal(match, winner=1)
    response = client.put(rounds_url(table["match"], 1), json=corrected, headers=organiser)
    assert response.status_code == 200, response.json
    assert first_round(event(client, started["id"]))[0]["counts"] is False


def test_the_disputes_of_an_event(client: FlaskClient):
    started, organiser = confirming_event(client)
    drawn = draw_round(client, started["id"], organiser)
    finish_round(client, drawn, organiser)
    assert client.get(f"/api/events/{started['id']}/disputes").json == {"disputes": []}
    table = drawn["tables"][1]
    side = other_side(api_match(client, table["match"]))
    phone = bearer(link(client, table["match"], side, **organiser)["token"])
    contest(client, table["match"], 1, phone, "we held 110, not 52")
    at = log(client, table["match"])[-1]["at"]
    assert client.get(f"/api/events/{started['id']}/disputes").json["disputes"] == [
        {
            "round": 1,
            "table": 2,
            "match": table["match"],
            "n": 1,
            "side": side,
            "reason": "we held 110, not 52",
            "at": at,
            "why_url": f"http://localhost/matches/{table['match']}/rounds/1/why",
        }
    ]
    refused(client.get("/api/events/999/disputes"), 404)


def test_an_event_without_confirm_counts_its_tables_at_once(client: FlaskClient):
    started, organiser = start_event(client)
    drawn = draw_round(client, started["id"], organiser)
    finish_round(client, drawn, organiser)
    now = event(client, started["id"])
    assert "confirm" not in now["options"]
    assert all("counts" not in t and "settled" not in t for t in first_round(now))
    assert played_counts(now) == dict.fromkeys(CONCOURS["teams"], 1)
    assert "scorer_side" not in api_match(client, drawn["tables"][0]["match"])["options"]


@pytest.mark.parametrize("confirm", ["yes", 1])
def test_an_event_with_a_bad_confirm_is_refused(client: FlaskClient, confirm: Any):
    body = CONCOURS | {"options": {"variant": "coinche", "confirm": confirm}}
    refused(send(client, "POST", "/api/events", body), 422, "options.confirm")
    assert client.get("/api/events").json["events"] == []


# --- export and import ------------------------------------------------------------------------


def test_what_the_sides_said_survives_export_and_import(client: FlaskClient, there: FlaskClient):
    match_id = start(client, belote(confirm=True, scorer_side="Eux"), deal("Nous"), deal("Eux"))
    nous = side_phone(client, match_id, "Nous")
    confirm(client, match_id, 1, nous)
    contest(client, match_id, 2, nous, "نه، برگ آخر مال ما بود")
    document = client.get(f"/api/matches/{match_id}/export?format=json").json
    assert document["options"]["confirm"] is True and document["options"]["scorer_side"] == "Eux"
    answer = send(there, "POST", "/api/import", [document])
    assert answer.status_code == 200, answer.json
    assert answer.json["imported"] == [document["uid"]]
    [summary] = there.get("/api/matches").json["matches"]
    copied = api_match(there, summary["id"])
    original = api_match(client, match_id)
    assert verdicts(copied) == verdicts(original)
    assert verdicts(copied)[1][1]["reason"] == "نه، برگ آخر مال ما بود"
    assert (copied["settled"], copied["options"]) == (False, original["options"])


def test_a_confirming_event_survives_export_and_import(client: FlaskClient, there: FlaskClient):
    started, organiser = confirming_event(client)
    drawn = draw_round(client, started["id"], organiser)
    finish_round(client, drawn, organiser)
    client.post(accept_url(started["id"], 1, 1), headers=organiser)
    table = drawn["tables"][1]
    side = other_side(api_match(client, table["match"]))
    phone = bearer(link(client, table["match"], side, **organiser)["token"])
    contest(client, table["match"], 1, phone, "on a compté 52")
    document = client.get(f"/api/events/{started['id']}/export").json
    assert document["options"]["confirm"] is True
    answer = send(there, "POST", "/api/events/import", document)
    assert answer.status_code == 201, answer.json
    copied, original = event(there, answer.json["id"]), event(client, started["id"])
    assert copied["options"] == original["options"]
    shown = [(t["settled"], t["accepted"], t["counts"]) for t in first_round(copied)]
    assert shown == [(False, True, True), (False, False, False)]
    assert played_counts(copied) == played_counts(original)
    [dispute] = there.get(f"/api/events/{answer.json['id']}/disputes").json["disputes"]
    assert (dispute["table"], dispute["side"], dispute["reason"]) == (2, side, "on a compté 52")


def test_the_scorer_sees_and_revokes_the_other_sides_links_and_phones(
    client: FlaskClient, stranger: FlaskClient
):
    match_id = start(client, belote(confirm=True), deal("Nous"))
    opened = link(client, match_id, "Eux")
    waiting = link(client, match_id, "Eux")
    assert (
        stranger.post(urlsplit(opened["url"]).path, data={"device": "Bo's phone"}).status_code
        == 302
    )
    page = parse(client.get(f"/matches/{match_id}/sides"))
    listed = [item.text() for item in page.find("ul", "phones").find_all("li")]
    assert len(listed) == 2
    # First to last: the second link, made before the first was opened, then that phone.
    assert "A link for Eux made" in listed[0] and "not opened yet" in listed[0]
    assert "Bo's phone, confirming for Eux since" in listed[1]
    link_id, phone_id = [
        form.find("input", name="id").attrs["value"]
        for form in page.find("ul", "phones").find_all("form")
    ]
    # The phone that opened the link is taken back: it confirms nothing more.
    assert (
        client.post(f"/matches/{match_id}/sides/revoke", data={"id": phone_id}).status_code == 302
    )
    answer = stranger.post(f"/matches/{match_id}/rounds/1/verdict", data={"verdict": "confirm"})
    assert answer.status_code == 403
    # The link not opened yet is taken back too: it opens nothing.
    assert client.post(f"/matches/{match_id}/sides/revoke", data={"id": link_id}).status_code == 302
    assert stranger.post(urlsplit(waiting["url"]).path, data={"device": "x"}).status_code == 422
    assert parse(client.get(f"/matches/{match_id}/sides")).find("ul", "phones") is None
    assert verdicts(api_match(client, match_id)) == [(["Nous"], None)]
    # Only the scoring phone revokes, and only what its match has.
    assert (
        stranger.post(f"/matches/{match_id}/sides/revoke", data={"id": phone_id}).status_code == 403
    )
    assert client.post(f"/matches/{match_id}/sides/revoke", data={"id": "999"}).status_code == 422


def test_a_rematch_keeps_every_side_confirming(client: FlaskClient):
    body = {"game": "rami", "players": ["Ana", "Bo"], "options": {"confirm": True, "target": 50}}
    body["options"]["scorer_side"] = "Bo"
    match_id = start(client, body, went_out("Ana", Bo=60))
    assert api_match(client, match_id)["status"] == "finished"
    again = send(client, "POST", f"/api/matches/{match_id}/rematch", {"seating": "rotate"})
    assert again.status_code == 201, again.json
    options = again.json["options"]
    assert (options["confirm"], options["scorer_side"], again.json["settled"]) == (True, "Bo", True)
