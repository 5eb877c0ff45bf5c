"""The phone pages, through the Flask test client: what they show and what their forms do."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from phone.marks import isolated
from tests.api_helpers import api_match
from tests.html_reader import Node, alerts, field_errors, number, parse, values

# --- reading pages ----------------------------------------------------------------------------


def sheet(doc: Node) -> dict[str, Any]:
    """Read the score sheet: per round its scores, running totals, explanation, correction."""
    table = doc.find("table", "sheet")
    assert table is not None, "no score sheet on the page"
    players = [th.text() for th in table.find("thead").find_all("th")[1:]]
    rounds = []
    for body in table.find_all("tbody"):
        cells = body.find("tr").find_all("td")
        rounds.append(
            {
                "id": body.attrs["id"],
                "n": int(body.find("th").text()),
                "scores": {
                    p: number(c.find("span", "score")) for p, c in zip(players, cells, strict=True)
                },
                "totals": {
                    p: number(c.find("span", "total")) for p, c in zip(players, cells, strict=True)
                },
                "explanation": [li.text() for li in body.find("tr", "why").find_all("li")],
                "corrected": body.find("span", "badge") is not None,
            }
        )
    footer = table.find("tfoot").find_all("td")
    return {
        "players": players,
        "rounds": rounds,
        "totals": {p: number(cell) for p, cell in zip(players, footer, strict=True)},
    }


def match_cards(doc: Node) -> list[dict[str, str]]:
    """Read the matches listed on the home or history page."""
    return [
        {
            "href": card.find("a").attrs["href"],
            "game": card.find("span", "game").text(),
            "players": card.find("span", "players").text(),
            "status": card.find("span", "status").text(),
        }
        for card in doc.find_all("li", "match-card")
    ]


# --- filling in forms -------------------------------------------------------------------------

TRIO = ("Ana", "Bo", "Cy")


def hand(cards: str = "", points: str = "", melded: bool | None = None) -> dict[str, Any]:
    """One hand as a phone fills it in: tapped cards ("A JK 5"), a typed value, and the
    "had melded" chip chosen ("y" for True, "n" for False, none chosen for None)."""
    return {"cards": cards, "points": points, "melded": melded}


def round_form(
    players: tuple[str, ...] = TRIO,
    outcome: str | None = "out",
    winner: str | None = None,
    **hands: dict[str, Any],
) -> dict[str, str]:
    """The fields a browser posts for a round: every seat's boxes, filled in or empty."""
    data = {"outcome": outcome, "winner": winner}
    for seat, name in enumerate(players):
        filled = hands.get(name, hand())
        data[f"hands-{seat}-cards"] = filled["cards"]
        data[f"hands-{seat}-points"] = filled["points"]
        if filled["melded"] is not None:
            data[f"hands-{seat}-melded"] = "y" if filled["melded"] else "n"
    return {key: value for key, value in data.items() if value is not None}


EXAMPLE_R1 = round_form(
    winner="Ana", Bo=hand("A JK 5", melded=True), Cy=hand(points="18", melded=True)
)
EXAMPLE_R1_SHEET = {
    "id": "round-1",
    "n": 1,
    "scores": {"Ana": 0, "Bo": 36, "Cy": 18},
    "totals": {"Ana": 0, "Bo": 36, "Cy": 18},
    "explanation": [
        "Ana went out: 0.",
        "Bo holds A, JK, 5: 11 + 20 + 5 = 36.",
        "Cy's hand is worth 18.",
    ],
    "corrected": False,
}


def new_match_form(*names: str, **options: str) -> dict[str, str]:
    """The new-match form as typed: names in boxes 1, 2, … and option boxes."""
    data = {f"players-{i}": name for i, name in enumerate(names)}
    data.update({f"option_{name}": value for name, value in options.items()})
    return data


def stored(client: FlaskClient, match_id: int) -> tuple[Any, Any, Any]:
    """What a refused or helper-only post must leave alone: the match, its log, the history."""
    return (
        api_match(client, match_id),
        client.get(f"/api/matches/{match_id}/log").json,
        client.get("/api/matches").json,
    )


def post_round(client: FlaskClient, match_id: int, data: dict[str, str]) -> Any:
    """Post the round form of the match page."""
    return client.post(f"/matches/{match_id}/rounds", data=data)


def api_round(winner: str, **points: int) -> dict[str, Any]:
    """A round given to the API by hand values, everyone melded."""
    hands = {name: {"points": value, "melded": True} for name, value in points.items()}
    return {"outcome": "out", "winner": winner, "hands": hands}


def play(client: FlaskClient, match_id: int, *rounds: dict[str, Any]) -> None:
    """Record rounds through the API."""
    for data in rounds:
        response = client.post(f"/api/matches/{match_id}/rounds", json=data)
        assert response.status_code == 201, response.json


@pytest.fixture
def trio(new_match) -> dict[str, Any]:
    """A fresh match of Ana, Bo and Cy (target 200)."""
    return new_match()


@pytest.fixture
def duel(client: FlaskClient, new_match) -> dict[str, Any]:
    """Ana and Bo, target 100, after two rounds: Bo 40 then 40 (Bo 80)."""
    match = new_match(players=("Ana", "Bo"), target=100)
    play(client, match["id"], api_round("Ana", Bo=40), api_round("Ana", Bo=40))
    return match


# --- home -------------------------------------------------------------------------------------


def test_home_offers_the_games_and_says_when_nothing_was_played(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    doc = parse(response)
    button = doc.find("a", href="/matches/new/rami")
    assert button is not None
    assert button.text() == "Rami 2–6 players"
    assert match_cards(doc) == []
    assert "No match yet" in doc.text()


def test_home_lists_the_five_latest_matches(client: FlaskClient, new_match) -> None:
    ids = [new_match(players=(f"P{i}", "Bo"))["id"] for i in range(6)]
    play(client, ids[-1], api_round("Bo", P5=12))
    doc = parse(client.get("/"))
    cards = match_cards(doc)
    assert [card["href"] for card in cards] == [f"/matches/{i}" for i in reversed(ids[1:])]
    assert cards[0] == {
        "href": f"/matches/{ids[-1]}",
        "game": "Rami, to 100",
        "players": "P5 12 · Bo 0",
        "status": "Playing · 1 round",
    }
    assert doc.find("a", href="/history") is not None


# --- new match --------------------------------------------------------------------------------


def test_new_match_page_shows_six_names_and_the_options(client: FlaskClient) -> None:
    response = client.get("/matches/new/rami")
    assert response.status_code == 200
    doc = parse(response)
    names = [node for node in doc.find_all("input") if node.attrs["name"].startswith("players-")]
    assert [node.attrs["name"] for node in names] == [f"players-{i}" for i in range(6)]
    assert all(node.attrs["value"] == "" for node in names)
    options = [node for node in doc.find_all("input") if node.attrs["name"].startswith("option_")]
    placeholders = {
        node.attrs["name"]: node.attrs.get("placeholder")
        for node in options
        if node.attrs.get("type", "text") == "text"
    }
    assert placeholders == {
        "option_target": "100 per opponent",
        "option_rami_sec_points": "200",
        "option_unmelded_bonus": "25",
        "option_unmelded_cap": "100",
    }
    # The first dealer is chosen by seat on radio chips, the first seat unless changed.
    chips = [node for node in options if node.attrs.get("type") == "radio"]
    assert [
        (node.attrs["name"], node.attrs["value"], "checked" in node.attrs) for node in chips
    ] == [("option_first_dealer", f"Player {seat}", seat == 1) for seat in range(1, 7)]
    assert doc.find("fieldset", "choices", id="option_first_dealer").find("legend").text() == (
        "First dealer"
    )
    assert field_errors(doc) == {}
    assert alerts(doc) == []


def test_new_match_form_starts_the_match(client: FlaskClient) -> None:
    response = client.post(
        "/matches/new/rami", data=new_match_form("Ana", "", " Bo ", "Cy", target="150")
    )
    assert response.status_code == 302
    match = client.get("/api/matches").json["matches"][0]
    assert urlsplit(response.headers["Location"]).path == f"/matches/{match['id']}"
    stored = api_match(client, match["id"])
    assert stored["players"] == ["Ana", "Bo", "Cy"]
    assert stored["options"] == {
        "target": 150,
        "rami_sec_points": 200,
        "unmelded_bonus": 25,
        "unmelded_cap": 100,
        "first_dealer": "Ana",
    }


@pytest.mark.parametrize(
    ("typed", "field", "words"),
    [
        pytest.param(new_match_form("Ana", "ana"), "players-1", "already at the table", id="dup"),
        pytest.param(
            new_match_form("Ana", "", "Bo", "", "bo"),
            "players-4",
            "already at the table",
            id="dup-after-gaps",
        ),
        pytest.param(new_match_form("Ana"), "players-0", "2 to 6 players, not 1", id="1-player"),
        pytest.param(new_match_form("Ana", "B" * 41), "players-1", "at most 40", id="41-chars"),
        pytest.param(
            new_match_form("Ana", "Bo", target="abc"),
            "option_target",
            "Not a valid integer",
            id="target-abc",
        ),
        pytest.param(
            new_match_form("Ana", "Bo", target="0"),
            "option_target",
            "between 1 and 10000",
            id="target-0",
        ),
    ],
)
def test_new_match_form_refusals_keep_what_was_typed(
    client: FlaskClient, typed: dict[str, str], field: str, words: str
) -> None:
    response = client.post("/matches/new/rami", data=typed)
    assert response.status_code == 422
    doc = parse(response)
    shown = values(doc)
    for name, value in typed.items():
        assert shown[name] == value
    errors = field_errors(doc)
    assert list(errors) == [field]
    assert words in " ".join(errors[field])
    assert doc.find("input", id=field).attrs["aria-invalid"] == "true"
    assert client.get("/api/matches").json["total"] == 0


def test_form_inputs_are_marked_invalid_only_when_refused(client: FlaskClient) -> None:
    fresh = parse(client.get("/matches/new/rami"))
    for node in fresh.find_all("input"):
        assert "aria-invalid" not in node.attrs, node.attrs
        assert node.attrs.get("aria-describedby") != "None", node.attrs
    refused = parse(client.post("/matches/new/rami", data=new_match_form("Ana", "ana")))
    marked = {
        node.attrs.get("id"): node.attrs.get("aria-invalid") for node in refused.find_all("input")
    }
    assert marked["players-1"] == "true"
    assert marked["players-0"] is None


def test_new_match_for_an_unknown_game_is_404(client: FlaskClient) -> None:
    for response in (client.get("/matches/new/chess"), client.post("/matches/new/chess")):
        assert response.status_code == 404
        assert alerts(parse(response)) == ["Tablescore does not score 'chess'."]


# --- the match page ---------------------------------------------------------------------------


def test_fresh_match_page_has_no_sheet_and_a_round_form(client: FlaskClient, trio: dict):
    response = client.get(f"/matches/{trio['id']}")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("table", "sheet") is None
    assert "Nothing scored yet" in doc.text()
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{trio['id']}/rounds"
    assert doc.find("h2", id="round-form-title").text() == "Round 1"
    assert values(form) == {
        "outcome": "out",
        "winner": None,
        **{f"hands-{seat}-{part}": "" for seat in range(3) for part in ("cards", "points")},
        # Had melded is asked of every hand, with neither chip chosen in round 1.
        **{f"hands-{seat}-melded": None for seat in range(3)},
    }
    assert [node.attrs["value"] for node in doc.find_all("input", name="winner")] == list(TRIO)
    pad = [node.attrs["value"] for node in doc.find_all("button", "card", name="tap")]
    assert pad[:3] == ["0:JK", "0:A", "0:2"]
    assert len(pad) == 3 * 14
    assert "target 200" in doc.find("p", "options-line").text().casefold()
    assert doc.find("section", "score-bar").find("p", "bar-round").text() == "Round 1 · Ana deals"


def test_posting_a_round_through_the_form_shows_it_on_the_sheet(client: FlaskClient, trio: dict):
    match_id = trio["id"]
    response = post_round(client, match_id, EXAMPLE_R1)
    assert response.status_code == 302
    stored = api_match(client, match_id)
    round_id = stored["rounds"][0]["id"]
    assert response.headers["Location"] == f"/matches/{match_id}?recorded={round_id}"
    assert stored["rounds"][0]["input"] == {
        "outcome": "out",
        "winner": "Ana",
        "hands": {
            "Bo": {"cards": ["A", "JK", "5"], "melded": True},
            "Cy": {"points": 18, "melded": True},
        },
    }
    doc = parse(client.get(response.headers["Location"]))
    assert doc.find_all("p", "flash") == []
    notice = doc.find("form", "notice")
    assert notice.find("span").text() == "Round 1 recorded."
    assert notice.find("button").text() == "Undo"
    assert sheet(doc) == {
        "players": list(TRIO),
        "rounds": [EXAMPLE_R1_SHEET],
        "totals": {"Ana": 0, "Bo": 36, "Cy": 18},
    }
    assert doc.find("h2", id="round-form-title").text() == "Round 2"


def test_a_post_that_leaves_out_a_seat_keeps_every_hand_on_its_own_seat(
    client: FlaskClient, trio: dict
):
    typed = round_form(winner="Bo", Ana=hand(points="7", melded=True), Cy=hand("K", melded=True))
    del typed["hands-1-cards"], typed["hands-1-points"]
    typed["hands-9-points"] = "99"
    assert post_round(client, trio["id"], typed).status_code == 302
    assert api_match(client, trio["id"])["rounds"][0]["input"]["hands"] == {
        "Ana": {"points": 7, "melded": True},
        "Cy": {"cards": ["K"], "melded": True},
    }


def test_sheet_shows_running_totals(client: FlaskClient, trio: dict) -> None:
    match_id = trio["id"]
    assert post_round(client, match_id, EXAMPLE_R1).status_code == 302
    second = round_form(
        winner="Bo",
        Ana=hand("7 3", melded=False),
        Cy=hand("K Q 9 8 JK A 5 4 3 2 6 7 10 J", melded=False),
    )
    assert post_round(client, match_id, second).status_code == 302
    shown = sheet(parse(client.get(f"/matches/{match_id}")))
    assert shown["rounds"][1] == {
        "id": "round-2",
        "n": 2,
        "scores": {"Ana": 35, "Bo": 0, "Cy": 100},
        "totals": {"Ana": 35, "Bo": 36, "Cy": 118},
        "explanation": [
            "Bo went out: 0.",
            "Ana holds 7, 3: 7 + 3 = 10.",
            "Ana never melded: 10 + 25 = 35.",
            "Cy holds K, Q, 9, 8, JK, A, 5, 4, 3, 2, 6, 7, 10, J: "
            "10 + 10 + 9 + 8 + 20 + 11 + 5 + 4 + 3 + 2 + 6 + 7 + 10 + 10 = 115.",
            "Cy never melded: 115 + 25 = 140, capped at 100.",
        ],
        "corrected": False,
    }
    assert shown["totals"] == {"Ana": 35, "Bo": 36, "Cy": 118}


@pytest.mark.parametrize(
    ("typed", "field", "words"),
    [
        pytest.param(
            round_form(Bo=hand("A JK 5", melded=True), Cy=hand(points="18", melded=True)),
            "winner",
            "Say who went out",
            id="no-winner",
        ),
        pytest.param(
            round_form(winner="Ana", Bo=hand("A JK 5", melded=True)),
            "hands-2-points",
            "Cy's hand is missing",
            id="hand-missing",
        ),
        pytest.param(
            round_form(
                winner="Ana", Bo=hand("A JK 5", melded=True), Cy=hand(points="abc", melded=True)
            ),
            "hands-2-points",
            "Not a valid integer",
            id="points-abc",
        ),
        pytest.param(
            round_form(
                winner="Ana",
                Bo=hand("A JK 5", points="40", melded=True),
                Cy=hand(points="3", melded=True),
            ),
            "hands-1-points",
            "add up to 36, not 40",
            id="cards-and-points-disagree",
        ),
        pytest.param(
            round_form(
                winner="Ana", Bo=hand(points="281", melded=True), Cy=hand(points="3", melded=True)
            ),
            "hands-1-points",
            "between 2 and 280",
            id="points-281",
        ),
        pytest.param(
            round_form(outcome="rami_sec", winner="Ana", Bo=hand(melded=True)),
            "hands-1-melded",
            "rami sec needs every opponent unmelded",
            id="rami-sec-melded",
        ),
        pytest.param(
            round_form(outcome="blocked", Ana=hand("3", melded=True), Bo=hand("4", melded=True)),
            "hands-2-points",
            "Cy's hand is missing",
            id="blocked-hand-missing",
        ),
        pytest.param(
            round_form(
                winner="Ana", Bo=hand("A X 5", melded=True), Cy=hand(points="3", melded=True)
            ),
            "hands-1-cards",
            "'X' is not a card rank",
            id="unknown-rank",
        ),
    ],
)
def test_bad_round_form_keeps_what_was_typed_and_stores_nothing(
    client: FlaskClient, trio: dict, typed: dict[str, str], field: str, words: str
) -> None:
    match_id = trio["id"]
    before = stored(client, match_id)
    response = post_round(client, match_id, typed)
    assert response.status_code == 422
    doc = parse(response)
    shown = values(doc)
    for name, value in typed.items():
        assert shown[name] == value, name
    errors = field_errors(doc)
    assert field in errors, errors
    assert words in " ".join(errors[field])
    assert stored(client, match_id) == before


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param(round_form(Bo=hand("A JK 5"), Cy=hand(points="18")), id="round-field"),
        pytest.param(round_form(winner="Ana", Bo=hand("A JK 5")), id="hand-field"),
    ],
)
def test_bad_round_form_says_nothing_was_saved(client: FlaskClient, trio: dict, typed: dict):
    doc = parse(post_round(client, trio["id"], typed))
    assert alerts(doc) == ["Nothing was saved: fix the fields marked below."]


@pytest.mark.parametrize(
    ("cards", "button", "after", "total"),
    [
        ("A 5", {"tap": "1:K"}, "A 5 K", "26 points"),
        ("", {"tap": "1:JK"}, "JK", "20 points"),
        ("A JK 5", {"untap": "1:1"}, "A 5", "16 points"),
        ("A", {"untap": "1:0"}, "", ""),
        ("2 " * 14, {"tap": "1:3"}, " ".join(["2"] * 14), "28 points"),
        ("A 5", {"tap": "1:Z"}, "A 5", "16 points"),
        ("A 5", {"untap": "1:7"}, "A 5", "16 points"),
    ],
)
def test_card_taps_without_javascript_update_the_form_only(
    client: FlaskClient, trio: dict, cards: str, button: dict, after: str, total: str
) -> None:
    match_id = trio["id"]
    before = stored(client, match_id)
    typed = round_form(
        winner="Ana", Bo=hand(cards.strip(), melded=False), Cy=hand(points="18", melded=True)
    )
    response = post_round(client, match_id, {**typed, **button})
    assert response.status_code == 200
    doc = parse(response)
    shown = values(doc)
    assert shown["hands-1-cards"] == after
    assert (shown["winner"], shown["hands-1-melded"]) == ("Ana", "n")
    assert (shown["hands-2-points"], shown["hands-2-melded"]) == ("18", "y")
    assert doc.find("output", id="hands-1-cards-total").text() == total
    chips = doc.find("fieldset", "hand", **{"data-seat": "1"}).find_all("button", "chip")
    assert [chip.attrs["value"] for chip in chips] == [f"1:{i}" for i in range(len(after.split()))]
    assert field_errors(doc) == {}
    assert stored(client, match_id) == before


def test_card_tap_on_the_edit_page_keeps_the_stored_round(client: FlaskClient, trio: dict):
    match_id = trio["id"]
    post_round(client, match_id, EXAMPLE_R1)
    before = stored(client, match_id)
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data={**EXAMPLE_R1, "tap": "2:Q"})
    assert response.status_code == 200
    assert values(parse(response))["hands-2-cards"] == "Q"
    assert stored(client, match_id) == before


# --- correcting and removing ------------------------------------------------------------------


def test_edit_page_is_prefilled_from_the_stored_round(client: FlaskClient, trio: dict) -> None:
    match_id = trio["id"]
    post_round(client, match_id, EXAMPLE_R1)
    response = client.get(f"/matches/{match_id}/rounds/1/edit")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("h1").text().startswith("Correct round 1")
    assert doc.find("form", "round-form").attrs["action"] == f"/matches/{match_id}/rounds/1/edit"
    assert values(doc) == {
        "outcome": "out",
        "winner": "Ana",
        "hands-0-cards": "",
        "hands-0-points": "",
        "hands-0-melded": None,
        "hands-1-cards": "A JK 5",
        "hands-1-points": "",
        "hands-1-melded": "y",
        "hands-2-cards": "",
        "hands-2-points": "18",
        "hands-2-melded": "y",
    }
    remove = doc.find("form", "remove")
    assert remove.attrs["action"] == f"/matches/{match_id}/rounds/1/remove"
    stored_round = api_match(client, match_id)["rounds"][0]
    assert remove.find("input", name="round_id").attrs["value"] == str(stored_round["id"])
    assert remove.find("input", name="version").attrs["value"] == str(stored_round["version"])


def test_correcting_through_the_edit_page(client: FlaskClient, trio: dict) -> None:
    match_id = trio["id"]
    post_round(client, match_id, EXAMPLE_R1)
    second = round_form(
        winner="Bo", Ana=hand(points="10", melded=True), Cy=hand(points="27", melded=True)
    )
    assert post_round(client, match_id, second).status_code == 302
    fixed = round_form(winner="Ana", Bo=hand("5", melded=True), Cy=hand(points="18", melded=True))
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data=fixed)
    assert response.status_code == 302
    assert urlsplit(response.headers["Location"]).fragment == "round-1"
    doc = parse(client.get(f"/matches/{match_id}"))
    assert "Round 1 corrected; everything after it was scored again." in doc.text()
    shown = sheet(doc)
    assert [r["corrected"] for r in shown["rounds"]] == [True, False]
    assert "Corrected" in doc.find("tbody", id="round-1").find("span", "badge").text()
    assert [r["scores"] for r in shown["rounds"]] == [
        {"Ana": 0, "Bo": 5, "Cy": 18},
        {"Ana": 10, "Bo": 0, "Cy": 27},
    ]
    assert [r["totals"] for r in shown["rounds"]] == [
        {"Ana": 0, "Bo": 5, "Cy": 18},
        {"Ana": 10, "Bo": 5, "Cy": 45},
    ]
    assert shown["rounds"][0]["explanation"] == [
        "Ana went out: 0.",
        "Bo holds 5: 5.",
        "Cy's hand is worth 18.",
    ]
    assert shown["totals"] == {"Ana": 10, "Bo": 5, "Cy": 45}


def test_bad_correction_keeps_what_was_typed(client: FlaskClient, trio: dict) -> None:
    match_id = trio["id"]
    post_round(client, match_id, EXAMPLE_R1)
    before = stored(client, match_id)
    typed = round_form(
        winner="Ana", Bo=hand(points="-3", melded=True), Cy=hand(points="18", melded=True)
    )
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data=typed)
    assert response.status_code == 422
    doc = parse(response)
    assert values(doc)["hands-1-points"] == "-3"
    assert "between 2 and 280" in " ".join(field_errors(doc)["hands-1-points"])
    assert stored(client, match_id) == before


def test_removing_a_round_through_the_page(client: FlaskClient, trio: dict) -> None:
    match_id = trio["id"]
    post_round(client, match_id, EXAMPLE_R1)
    edit = parse(client.get(f"/matches/{match_id}/rounds/1/edit"))
    remove = edit.find("form", "remove")
    seen = {
        name: remove.find("input", name=name).attrs["value"] for name in ("round_id", "version")
    }
    # Remove asks first: a page to confirm, and nothing removed yet.
    asked = client.post(remove.attrs["action"], data=seen)
    assert asked.status_code == 200
    question = parse(asked)
    assert question.find("h1").text().startswith("Remove round 1?")
    assert len(api_match(client, match_id)["rounds"]) == 1
    confirm = question.find("form", "remove")
    confirmed = {
        node.attrs["name"]: node.attrs["value"]
        for node in confirm.find_all("input", type="hidden")
        if node.attrs["name"] != "csrf_token"
    }
    assert confirmed == seen | {"confirmed": "1"}
    response = client.post(confirm.attrs["action"], data=confirmed)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/matches/{match_id}"
    doc = parse(client.get(f"/matches/{match_id}"))
    assert [node.text() for node in doc.find_all("p", "flash")] == [
        "Round 1 removed; everything after it was scored again."
    ]
    assert doc.find("tbody", id="round-1") is None
    assert "Nothing scored yet" in doc.text()
    assert api_match(client, match_id)["rounds"] == []
    log = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert [change["action"] for change in log] == ["add", "remove"]


def test_correction_that_would_end_the_match_early_is_409(client: FlaskClient, duel: dict):
    match_id = duel["id"]
    before = stored(client, match_id)
    typed = round_form(("Ana", "Bo"), winner="Ana", Bo=hand(points="100", melded=True))
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data=typed)
    assert response.status_code == 409
    doc = parse(response)
    assert any("would end after round 1" in alert for alert in alerts(doc))
    assert values(doc)["hands-1-points"] == "100"
    assert doc.find("form", "round-form") is not None
    assert stored(client, match_id) == before


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/matches/999", "There is no match 999."),
        ("/matches/999/rounds/1/edit", "There is no match 999."),
        ("/matches/1/rounds/5/edit", "This match has no round 5; it has 0."),
    ],
)
def test_unknown_match_or_round_is_a_404_page(
    client: FlaskClient, trio: dict, path: str, message: str
) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert alerts(parse(response)) == [message]


def test_removing_an_unknown_round_is_a_404_page(client: FlaskClient, trio: dict) -> None:
    response = client.post(f"/matches/{trio['id']}/rounds/1/remove")
    assert response.status_code == 404
    assert alerts(parse(response)) == ["This match has no round 1; it has 0."]


# --- banners ----------------------------------------------------------------------------------


def test_winner_banner_when_the_match_ends(client: FlaskClient, duel: dict) -> None:
    match_id = duel["id"]
    # Bo never melded: K Q 9 8 = 37, + 25 = 62, capped at 50 (half the target of 100).
    typed = round_form(("Ana", "Bo"), winner="Ana", Bo=hand("K Q 9 8", melded=False))
    assert post_round(client, match_id, typed).status_code == 302
    doc = parse(client.get(f"/matches/{match_id}"))
    banner = doc.find("p", "banner")
    assert "winner" in banner.attrs["class"].split()
    assert banner.text() == "Ana wins with 0!"
    assert doc.find("form", "round-form") is None
    assert sheet(doc)["totals"] == {"Ana": 0, "Bo": 130}
    assert doc.find("tfoot").find("td", "winner").text() == "0"


def test_extra_round_banner_on_a_tie(client: FlaskClient, trio: dict) -> None:
    match_id = trio["id"]
    play(client, match_id, api_round("Ana", Bo=30, Cy=150), api_round("Bo", Ana=30, Cy=60))
    doc = parse(client.get(f"/matches/{match_id}"))
    banner = doc.find("p", "banner")
    assert "extra" in banner.attrs["class"].split()
    assert banner.text() == "Tie for the lowest total: extra round."
    assert doc.find("h2", id="round-form-title").text() == "Round 3"
    assert sheet(doc)["totals"] == {"Ana": 30, "Bo": 30, "Cy": 210}


# --- history ----------------------------------------------------------------------------------


@pytest.fixture
def history(client: FlaskClient, new_match) -> dict[str, int]:
    """Three matches: Di–Ed playing, Cy–Ana finished (Cy won), Ana–Bo playing (newest)."""
    ids = {"Di-Ed": new_match(players=("Di", "Ed"))["id"]}
    ids["Cy-Ana"] = new_match(players=("Cy", "Ana"), target=100)["id"]
    play(client, ids["Cy-Ana"], api_round("Cy", Ana=100))
    ids["Ana-Bo"] = new_match(players=("Ana", "Bo"))["id"]
    return ids


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ["Ana-Bo", "Cy-Ana", "Di-Ed"]),
        ("?game=rami", ["Ana-Bo", "Cy-Ana", "Di-Ed"]),
        ("?player=ANA", ["Ana-Bo", "Cy-Ana"]),
        ("?status=finished", ["Cy-Ana"]),
        ("?player=ana&status=playing", ["Ana-Bo"]),
        ("?game=&player=&status=", ["Ana-Bo", "Cy-Ana", "Di-Ed"]),
        ("?player=Zed", []),
    ],
)
def test_history_filters(client: FlaskClient, history: dict, query: str, expected: list[str]):
    response = client.get(f"/history{query}")
    assert response.status_code == 200
    doc = parse(response)
    assert [card["href"] for card in match_cards(doc)] == [
        f"/matches/{history[key]}" for key in expected
    ]
    count = len(expected)
    assert doc.find("p", "count").text() == f"{count} match{'es' if count != 1 else ''}"


def test_history_cards_show_totals_and_status(client: FlaskClient, history: dict) -> None:
    cards = {card["href"]: card for card in match_cards(parse(client.get("/history")))}
    assert cards[f"/matches/{history['Cy-Ana']}"] == {
        "href": f"/matches/{history['Cy-Ana']}",
        "game": "Rami, to 100",
        "players": "Cy 0 · Ana 100",
        "status": "Won by Cy",
    }
    assert cards[f"/matches/{history['Di-Ed']}"]["status"] == "Playing · 0 rounds"


def test_history_keeps_the_filters_selected(client: FlaskClient, history: dict) -> None:
    doc = parse(client.get("/history?game=rami&player=ana&status=finished"))
    assert doc.find("input", name="player").attrs["value"] == "ana"
    status = doc.find("select", name="status")
    assert [
        node.attrs["value"] for node in status.find_all("option") if "selected" in node.attrs
    ] == ["finished"]


def test_history_pages(client: FlaskClient, new_match) -> None:
    ids = [new_match(players=(f"A{i}", "Bo"))["id"] for i in range(21)]
    doc = parse(client.get("/history?player=bo"))
    assert doc.find("p", "count").text() == "21 matches"
    assert [card["href"] for card in match_cards(doc)] == [f"/matches/{i}" for i in ids[:0:-1]]
    pages = doc.find("nav", "pages")
    assert "Page 1 of 2" in pages.text()
    [older] = pages.find_all("a")
    assert older.text() == "Older"
    link = urlsplit(older.attrs["href"])
    assert link.path == "/history"
    assert parse_qs(link.query) == {"page": ["2"], "player": ["bo"]}
    second = parse(client.get(older.attrs["href"]))
    assert [card["href"] for card in match_cards(second)] == [f"/matches/{ids[0]}"]
    assert "Page 2 of 2" in second.find("nav", "pages").text()
    assert [a.text() for a in second.find("nav", "pages").find_all("a")] == ["Newer"]


def test_history_without_enough_matches_has_no_pages(client: FlaskClient, history: dict):
    assert parse(client.get("/history")).find("nav", "pages") is None


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("?status=done", "Status is playing, finished or abandoned."),
        ("?game=chess", "Choose a game"),
        ("?page=0", "Page is a whole number from 1."),
    ],
)
def test_history_refuses_bad_filters(client: FlaskClient, query: str, words: str) -> None:
    response = client.get(f"/history{query}")
    assert response.status_code == 422
    assert any(words in alert for alert in alerts(parse(response)))


# --- CSRF -------------------------------------------------------------------------------------


def test_form_posts_need_the_csrf_token(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "csrf.sqlite"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": True,
        }
    )
    client = app.test_client()
    typed = new_match_form("Ana", "Bo")
    refused = client.post("/matches/new/rami", data=typed)
    assert refused.status_code == 400
    assert any("expired" in alert for alert in alerts(parse(refused)))
    assert client.get("/api/matches").json["total"] == 0
    page = parse(client.get("/matches/new/rami"))
    token = page.find("input", name="csrf_token").attrs["value"]
    accepted = client.post("/matches/new/rami", data={**typed, "csrf_token": token})
    assert accepted.status_code == 302
    match_id = client.get("/api/matches").json["matches"][0]["id"]
    before = stored(client, match_id)
    assert post_round(client, match_id, EXAMPLE_R1).status_code == 400
    assert stored(client, match_id) == before


# --- right to left: each name and each signed number set apart ---------------------------------


def test_each_name_and_signed_number_of_a_sentence_is_set_apart(app: Flask):
    """Isolated one by one, "آنا 3 × −2; بهرام 4 × −2" keeps its items whole and in order right
    to left; a hyphen before a number is a minus, one joining two numbers stays."""
    with app.app_context():
        shown = str(isolated("آنا 3 × −2; بهرام 4 × -2, 80-160 ♥", ["آنا", "بهرام", "آ"]))
    assert shown == (
        '<bdi>آنا</bdi> <bdi dir="ltr">3</bdi> × <bdi dir="ltr">−2</bdi>; '
        '<bdi>بهرام</bdi> <bdi dir="ltr">4</bdi> × <bdi dir="ltr">−2</bdi>, '
        '<bdi dir="ltr">80</bdi>-<bdi dir="ltr">160</bdi> <span class="red-suit">♥</span>'
    )
    assert str(isolated("<b>Ana</b>", ["Ana"])) == "&lt;b&gt;<bdi>Ana</bdi>&lt;/b&gt;"


def test_a_persian_sheet_sets_each_name_and_number_of_why_apart(client: FlaskClient):
    players = ["آنا", "بهرام", "سارا"]
    started = client.post("/api/matches", json={"game": "rami", "players": players}).json
    hands = {"بهرام": {"points": 10, "melded": False}, "سارا": {"points": 7, "melded": True}}
    token = {"Authorization": f"Bearer {started['scorer_token']}"}
    posted = client.post(
        f"/api/matches/{started['id']}/rounds",
        json={"outcome": "out", "winner": "آنا", "hands": hands},
        headers=token,
    )
    assert posted.status_code == 201, posted.json
    client.post("/language", data={"language": "fa", "next": "/"})
    page = parse(client.get(f"/matches/{started['id']}/sheet"))
    sentence = next(li for li in page.find("tr", "why").find_all("li") if "۲۵" in li.text())
    isolated = [(node.text(), node.attrs.get("dir")) for node in sentence.find_all("bdi")]
    assert ("بهرام", None) in isolated
    assert ("۳۵", "ltr") in isolated and ("۲۵", "ltr") in isolated
