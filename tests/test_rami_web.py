"""Rami through the Flask test client: whether each loser had melded, and who deals.

Ana, Bo and Cy sit in that order; the deal passes to the left (Ana, Bo, Cy, Ana, …).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api_helpers import api_match, refused, rounds_url, send, unchanged
from tests.html_reader import Node, field_errors, listed_rules, parse, values

TRIO = ["Ana", "Bo", "Cy"]


def start(client: FlaskClient, **options: Any) -> dict[str, Any]:
    """Start a Rami match for Ana, Bo and Cy through the API."""
    body = {"game": "rami", "players": TRIO, "options": options}
    response = send(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    return response.json


def typed(winner: str = "Ana", outcome: str = "out", **hands: tuple[str, str]) -> dict[str, str]:
    """The round form as posted: each other player's value and melded chip ("y", "n" or "")."""
    data = {"outcome": outcome, "winner": winner}
    for seat, name in enumerate(TRIO):
        points, melded = hands.get(name, ("", ""))
        data |= {f"hands-{seat}-cards": "", f"hands-{seat}-points": points}
        if melded:
            data[f"hands-{seat}-melded"] = melded
    return data


def post_round(client: FlaskClient, match_id: int, data: dict[str, str]) -> Any:
    """Post the round form."""
    return client.post(f"/matches/{match_id}/rounds", data=data)


def melded_chips(doc: Node, seat: int) -> list[tuple[str, str, bool]]:
    """Read one hand's melded chips: value, label and whether it is chosen."""
    group = doc.find("div", "melded", id=f"hands-{seat}-melded")
    return [
        (node.attrs["value"], node.parent.text(), "checked" in node.attrs)
        for node in group.find_all("input", type="radio")
    ]


# --- had melded: a choice to make, never a silent default --------------------------------------


def test_the_first_round_asks_each_hand_whether_it_melded_with_nothing_chosen(
    client: FlaskClient,
) -> None:
    doc = parse(client.get(f"/matches/{start(client)['id']}"))
    for seat, name in enumerate(TRIO):
        assert melded_chips(doc, seat) == [("y", "Yes", False), ("n", "No", False)]
        group = doc.find("div", "melded", id=f"hands-{seat}-melded")
        assert (group.attrs["role"], group.attrs["aria-label"]) == (
            "radiogroup",
            f"Had {name} melded?",
        )
    assert doc.find("input", type="checkbox", name="hands-1-melded") is None


def test_a_loser_left_without_an_answer_is_refused_by_the_field(client: FlaskClient) -> None:
    match_id = start(client)["id"]
    posted = typed(Bo=("12", ""), Cy=("7", "y"))
    with unchanged(client, match_id):
        response = post_round(client, match_id, posted)
    assert response.status_code == 422
    doc = parse(response)
    assert field_errors(doc) == {"hands-1-melded": ["Say whether Bo had melded."]}
    shown = values(doc)
    assert (shown["winner"], shown["hands-1-points"], shown["hands-2-points"]) == ("Ana", "12", "7")
    assert (shown["hands-1-melded"], shown["hands-2-melded"]) == (None, "y")
    group = doc.find("div", "melded", id="hands-1-melded")
    assert group.attrs["aria-describedby"] == "hands-1-melded-errors"


def test_a_refused_round_is_redirected_so_a_reload_asks_nothing(client: FlaskClient) -> None:
    """A phone's own Record (a navigation) is answered with a redirect to the match page,
    which shows the round as typed and what was refused: a reload sends nothing again."""
    match_id = start(client)["id"]
    posted = typed(Bo=("12", ""), Cy=("7", "y")) | {"record": "1"}
    with unchanged(client, match_id):
        response = client.post(
            f"/matches/{match_id}/rounds", data=posted, headers={"Sec-Fetch-Mode": "navigate"}
        )
        assert response.status_code == 303
        assert response.headers["Location"] == f"/matches/{match_id}"
        shown = client.get(response.headers["Location"])
    assert shown.status_code == 200
    doc = parse(shown)
    assert field_errors(doc) == {"hands-1-melded": ["Say whether Bo had melded."]}
    kept = values(doc)
    assert (kept["winner"], kept["hands-1-points"], kept["hands-2-points"]) == ("Ana", "12", "7")
    assert doc.find("section", "next-round").attrs["data-draft"] == "typed"
    # Shown once: the page read again is the plain form (the phone's draft keeps what it typed).
    again = parse(client.get(f"/matches/{match_id}"))
    assert field_errors(again) == {} and values(again)["hands-1-points"] in ("", None)
    # A round sent from the outbox (fetched, not navigated) is still answered with its refusal.
    fetched = client.post(
        f"/matches/{match_id}/rounds", data=posted, headers={"Sec-Fetch-Mode": "cors"}
    )
    assert fetched.status_code == 422


def test_a_refused_correction_is_redirected_so_a_reload_asks_nothing(client: FlaskClient):
    """A correction refused from the phone's own form comes back on the correction page as
    typed, with what was refused; the round stays as it was."""
    match_id = start(client)["id"]
    assert post_round(client, match_id, typed(Bo=("12", "n"), Cy=("7", "y"))).status_code == 302
    posted = typed(Bo=("30", ""), Cy=("7", "y")) | {"record": "1"}
    edit = f"/matches/{match_id}/rounds/1/edit"
    with unchanged(client, match_id):
        response = client.post(edit, data=posted, headers={"Sec-Fetch-Mode": "navigate"})
        assert response.status_code == 303
        assert response.headers["Location"] == edit
        doc = parse(client.get(edit))
    assert field_errors(doc) == {"hands-1-melded": ["Say whether Bo had melded."]}
    assert values(doc)["hands-1-points"] == "30"
    # Shown once: read again, the page offers the round as stored.
    assert values(parse(client.get(edit)))["hands-1-points"] == "12"
    # Nor does a correction's refusal show on the match page's form for the next round.
    client.post(edit, data=posted, headers={"Sec-Fetch-Mode": "navigate"})
    page = parse(client.get(f"/matches/{match_id}"))
    assert field_errors(page) == {} and values(page)["hands-1-points"] in ("", None)


def test_had_not_melded_is_said_and_costs_the_bonus(client: FlaskClient) -> None:
    match_id = start(client)["id"]
    response = post_round(client, match_id, typed(Bo=("12", "n"), Cy=("7", "y")))
    assert response.status_code == 302
    [played] = api_match(client, match_id)["rounds"]
    assert played["input"]["hands"] == {
        "Bo": {"points": 12, "melded": False},
        "Cy": {"points": 7, "melded": True},
    }
    assert played["scores"] == {"Ana": 0, "Bo": 37, "Cy": 7}


def test_the_next_round_asks_again_nothing_carried_from_the_round_before(client: FlaskClient):
    """Each round is a new deal: an answer of the round before, shown chosen, would score a
    never-melded bonus nobody gave this round (issue 27: David's 20 became 45)."""
    match_id = start(client)["id"]
    post_round(client, match_id, typed(Bo=("12", "n"), Cy=("7", "y")))
    assert api_match(client, match_id)["state"]["melded"] == {"Bo": False, "Cy": True}
    doc = parse(client.get(f"/matches/{match_id}"))
    for seat in range(3):
        assert [chosen for *_, chosen in melded_chips(doc, seat)] == [False, False]
    with unchanged(client, match_id):
        response = post_round(client, match_id, typed("Cy", Ana=("5", "y"), Bo=("4", "")))
    assert response.status_code == 422
    assert field_errors(parse(response)) == {"hands-1-melded": ["Say whether Bo had melded."]}


def test_a_rami_sec_needs_no_answer_every_opponent_is_unmelded(client: FlaskClient) -> None:
    match_id = start(client)["id"]
    response = post_round(client, match_id, typed("Bo", outcome="rami_sec"))
    assert response.status_code == 302
    assert api_match(client, match_id)["totals"] == {"Ana": 200, "Bo": 0, "Cy": 200}


def test_the_edit_page_shows_each_stored_answer_chosen(client: FlaskClient) -> None:
    match_id = start(client)["id"]
    post_round(client, match_id, typed(Bo=("12", "n"), Cy=("7", "y")))
    doc = parse(client.get(f"/matches/{match_id}/rounds/1/edit"))
    shown = values(doc)
    assert [shown[f"hands-{seat}-melded"] for seat in range(3)] == [None, "n", "y"]


def test_the_api_keeps_its_melded_contract(client: FlaskClient) -> None:
    match_id = start(client)["id"]
    with unchanged(client, match_id):
        body = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 5}, "Cy": {}}}
        refused(send(client, "POST", rounds_url(match_id), body), 422, "hands.Bo.melded")
    rami_sec = {"outcome": "rami_sec", "winner": "Ana"}
    assert send(client, "POST", rounds_url(match_id), rami_sec).status_code == 201


# --- who deals ----------------------------------------------------------------------------------


def test_the_deal_passes_to_the_left(client: FlaskClient) -> None:
    match = start(client, first_dealer="bo")
    assert (match["options"]["first_dealer"], match["state"]["dealer"]) == ("Bo", "Bo")
    for dealer in ("Cy", "Ana", "Bo"):
        post_round(client, match["id"], typed(Bo=("12", "y"), Cy=("7", "y")))
        assert api_match(client, match["id"])["state"]["dealer"] == dealer


def test_new_rami_match_form_takes_the_first_dealer_by_seat(client: FlaskClient) -> None:
    doc = parse(client.get("/matches/new/rami"))
    choices = [
        (node.attrs["value"], node.parent.text())
        for node in doc.find_all("input", type="radio", name="option_first_dealer")
    ]
    assert choices == [(f"Player {seat}", f"Player {seat}") for seat in range(1, 7)]
    assert values(doc)["option_first_dealer"] == "Player 1"
    names = {f"players-{i}": name for i, name in enumerate(TRIO)}
    response = client.post("/matches/new/rami", data=names | {"option_first_dealer": "Player 3"})
    assert response.status_code == 302
    match = api_match(client, client.get("/api/matches").json["matches"][0]["id"])
    assert (match["options"]["first_dealer"], match["state"]["dealer"]) == ("Cy", "Cy")


def test_the_rules_page_says_who_deals(client: FlaskClient) -> None:
    match_id = start(client, first_dealer="Cy")["id"]
    doc = parse(client.get(f"/matches/{match_id}/rules"))
    rules = {item.find("h2").text(): item.find("p").text() for item in listed_rules(doc)}
    assert rules["Who deals"] == (
        "First dealer: Cy. After each deal, the player to the left deals (clockwise)."
    )


def forget_first_dealer(app: Flask, match_id: int) -> None:
    """Store a match's options as they were before the first dealer was an option."""
    with sqlite3.connect(app.config["DATABASE"]) as db:
        [(stored,)] = db.execute("SELECT options_json FROM matches WHERE id = ?", [match_id])
        options = {k: v for k, v in json.loads(stored).items() if k != "first_dealer"}
        db.execute(
            "UPDATE matches SET options_json = ? WHERE id = ?", [json.dumps(options), match_id]
        )


@pytest.mark.parametrize(
    "path", ["", "/sheet", "/rules", "/whatif", "/whatif?target=300", "/rounds/1/edit"]
)
@pytest.mark.sqlite_only
def test_a_match_stored_before_the_first_dealer_option_still_shows(
    app: Flask, client: FlaskClient, path: str
) -> None:
    match_id = start(client)["id"]
    post_round(client, match_id, typed(Bo=("12", "y"), Cy=("7", "y")))
    forget_first_dealer(app, match_id)
    assert client.get(f"/matches/{match_id}{path}").status_code == 200
    match = api_match(client, match_id)
    assert (match["state"]["dealer"], match["totals"]) == ("Bo", {"Ana": 0, "Bo": 12, "Cy": 7})


@pytest.mark.sqlite_only
def test_posting_to_a_match_stored_before_the_first_dealer_option(
    app: Flask, client: FlaskClient
) -> None:
    match_id = start(client)["id"]
    forget_first_dealer(app, match_id)
    assert post_round(client, match_id, typed(Bo=("12", "y"), Cy=("7", "y"))).status_code == 302
    assert api_match(client, match_id)["state"]["dealer"] == "Bo"


def test_the_sheet_marks_who_went_out_and_a_rami_sec_on_the_row(client: FlaskClient) -> None:
    match_id = start(client)["id"]
    post_round(client, match_id, typed(Bo=("12", "n"), Cy=("7", "y")))
    send(client, "POST", rounds_url(match_id), {"outcome": "rami_sec", "winner": "Cy", "hands": {}})
    sheet = parse(client.get(f"/matches/{match_id}/sheet")).find("table", "sheet")
    marks = [
        [cell.find("span", "mark").text() if cell.find("span", "mark") else "" for cell in row]
        for row in (sheet.find("tbody", id=f"round-{n}").find("tr").find_all("td") for n in (1, 2))
    ]
    assert marks == [["out", "", ""], ["", "", "rami sec"]]


def test_the_card_pad_prints_ranks_as_the_languages_packs_do(client: FlaskClient) -> None:
    """A French pack prints R, D, V for the king, queen and jack; the tap still sends K, Q, J."""
    match_id = start(client)["id"]
    client.post("/language", data={"language": "fr", "next": "/"})
    doc = parse(client.get(f"/matches/{match_id}"))
    pad = {
        b.attrs["data-card"]: b.text()
        for b in doc.find_all("button", "card")
        if b.attrs.get("data-card")
    }
    assert (pad["K"], pad["Q"], pad["J"], pad["10"]) == ("R", "D", "V", "10")
    tapped = typed(Bo=("", "y"), Cy=("7", "y")) | {"hands-1-cards": "K Q", "tap": "1:J"}
    shown = parse(client.post(f"/matches/{match_id}/rounds", data=tapped))
    chips = [
        chip.text()
        for chip in shown.find("fieldset", "hand", **{"data-player": "Bo"}).find_all(
            "button", "chip"
        )
    ]
    assert chips == ["R ×", "D ×", "V ×"]


def test_a_refusal_kept_before_corrections_were_redirected_still_comes_back(
    client: FlaskClient,
) -> None:
    """A phone that kept a refused round before this server knew corrections' refusals (its
    session names no round) gets it back on the match page, not an error."""
    match_id = start(client)["id"]
    typed_round = list((typed(Bo=("12", ""), Cy=("7", "y")) | {"record": "1"}).items())
    with client.session_transaction() as session:
        session["refused_round"] = {
            "match": match_id,
            "form": typed_round,
            "fields": {"hands-1-melded": ["Say whether Bo had melded."]},
            "form_errors": [],
            "refused": None,
        }
    doc = parse(client.get(f"/matches/{match_id}"))
    assert field_errors(doc) == {"hands-1-melded": ["Say whether Bo had melded."]}
    assert values(doc)["hands-1-points"] == "12"
