"""The JSON API of API.md, through the Flask test client: every endpoint, refusal and convention."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from tests.api_helpers import rounds_url

DEFAULTS_3 = {
    "target": 200,
    "rami_sec_points": 200,
    "unmelded_bonus": 25,
    "unmelded_cap": 100,
    "first_dealer": "Ana",
}


# --- building rounds ------------------------------------------------------------------------


def held(*cards: str, melded: bool = True) -> dict[str, Any]:
    """A hand given by its cards."""
    return {"cards": list(cards), "melded": melded}


def worth(points: int, melded: bool = True) -> dict[str, Any]:
    """A hand given by its value."""
    return {"points": points, "melded": melded}


def went_out(winner: str, **hands: dict[str, Any]) -> dict[str, Any]:
    """A round where `winner` went out and the others hold `hands`."""
    return {"outcome": "out", "winner": winner, "hands": hands}


def blocked(**hands: dict[str, Any]) -> dict[str, Any]:
    """A round that ended with the stock empty."""
    return {"outcome": "blocked", "hands": hands}


EXAMPLE_R1 = went_out("Ana", Bo=held("A", "JK", "5"), Cy=held("9", "9"))


# --- talking to the API -----------------------------------------------------------------------


def play(client: FlaskClient, match_id: int, *rounds: dict[str, Any]) -> dict[str, Any]:
    """Record rounds one after the other and return the match after the last."""
    match = client.get(f"/api/matches/{match_id}").json
    for data in rounds:
        response = client.post(rounds_url(match_id), json=data)
        assert response.status_code == 201, response.json
        match = response.json["match"]
    return match


def snapshot(client: FlaskClient, match_id: int) -> tuple[Any, Any, Any]:
    """Everything a refused change must leave alone: the match, its log and the history list."""
    return (
        client.get(f"/api/matches/{match_id}").json,
        client.get(f"/api/matches/{match_id}/log").json,
        client.get("/api/matches").json,
    )


@contextmanager
def unchanged(client: FlaskClient, match_id: int) -> Iterator[None]:
    """Assert that whatever happens inside leaves the match, its log and history as they were."""
    before = snapshot(client, match_id)
    yield
    assert snapshot(client, match_id) == before


def assert_error(response: Any, status: int, field: str | None = None, words: str = "") -> dict:
    """Assert the status and the one error shape; `field` must be named, with `words` in it."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    body = response.json
    assert set(body) == {"error", "fields"}
    assert isinstance(body["error"], str) and body["error"].strip()
    assert isinstance(body["fields"], dict)
    for path, messages in body["fields"].items():
        assert isinstance(path, str)
        assert messages and all(isinstance(message, str) for message in messages)
    if field is not None:
        assert field in body["fields"], body
        assert words in " ".join(body["fields"][field])
    return body


@pytest.fixture
def trio(new_match) -> dict[str, Any]:
    """A fresh match of Ana, Bo and Cy with the default options (target 200)."""
    return new_match()


@pytest.fixture
def played(client: FlaskClient, trio: dict[str, Any]) -> dict[str, Any]:
    """Ana, Bo and Cy after the worked example R1 (Bo 36, Cy 18)."""
    return play(client, trio["id"], EXAMPLE_R1)


@pytest.fixture
def three_rounds(client: FlaskClient, trio: dict[str, Any]) -> dict[str, Any]:
    """Ana, Bo and Cy after three rounds given by value: totals Ana 34, Bo 16, Cy 25."""
    return play(
        client,
        trio["id"],
        went_out("Ana", Bo=worth(10), Cy=worth(20)),
        went_out("Bo", Ana=worth(30), Cy=worth(5)),
        went_out("Cy", Ana=worth(4), Bo=worth(6)),
    )


@pytest.fixture
def duel(new_match) -> dict[str, Any]:
    """A fresh two-player match, Ana and Bo, target 100 (so the never-melded cap is 50)."""
    return new_match(players=("Ana", "Bo"), target=100)


# --- GET /api/games ---------------------------------------------------------------------------


def test_games_describe_rami_with_its_options_and_defaults(client: FlaskClient) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    games = {game["id"]: game for game in response.json["games"]}
    rami = games["rami"]
    assert rami["name"] == "Rami"
    assert rami["players"] == [2, 3, 4, 5, 6]
    assert rami["teams"] is False
    options = {option["name"]: option for option in rami["options"]}
    assert list(options) == [
        "target",
        "rami_sec_points",
        "unmelded_bonus",
        "unmelded_cap",
        "first_dealer",
        "match_deals",
    ]
    # A match may be a fixed number of rounds long (an event's are); by default it is not.
    assert options["match_deals"]["default"] is None
    assert options["target"]["default_by_players"] == {
        "2": 100,
        "3": 200,
        "4": 300,
        "5": 400,
        "6": 500,
    }
    assert "default" not in options["target"]
    assert (options["target"]["minimum"], options["target"]["maximum"]) == (1, 10_000)
    assert options["rami_sec_points"]["default"] == 200
    assert options["unmelded_bonus"]["default"] == 25
    assert options["unmelded_cap"]["default"] == 100
    # The first dealer is a player: by default the first seat.
    assert options["first_dealer"]["player"] is True
    assert options["first_dealer"]["default_seat"] == 0
    assert "default" not in options["first_dealer"]
    assert all(option["label"] and option["help"] for option in options.values())


# --- POST /api/matches ------------------------------------------------------------------------


def test_start_match_fills_options_with_defaults(client: FlaskClient) -> None:
    response = client.post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo", "Cy"]})
    assert response.status_code == 201
    match = response.json
    token = match.pop("scorer_token")
    assert len(token) >= 32
    assert urlsplit(response.headers["Location"]).path == f"/api/matches/{match['id']}"
    assert client.get(response.headers["Location"]).json == match
    assert match["game"] == "rami"
    assert match["options"] == DEFAULTS_3
    assert match["players"] == ["Ana", "Bo", "Cy"]
    assert match["teams"] is None
    assert match["rounds"] == []
    assert match["totals"] == {"Ana": 0, "Bo": 0, "Cy": 0}
    assert match["status"] == "playing"
    assert match["winner"] is None
    assert match["state"] == {"extra_round": False, "dealer": "Ana", "melded": {}}
    assert re.fullmatch(r"[0-9a-f]{32}", match["uid"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", match["created_at"])
    assert urlsplit(match["url"]).path == f"/api/matches/{match['id']}"


@pytest.mark.parametrize(("count", "target"), [(2, 100), (4, 300), (6, 500)])
def test_default_target_is_100_per_opponent(new_match, count: int, target: int) -> None:
    match = new_match(players=tuple(f"P{i}" for i in range(count)))
    assert match["options"]["target"] == target


def test_start_match_keeps_options_and_names_as_given(client: FlaskClient) -> None:
    options = {"target": 150, "rami_sec_points": 120, "unmelded_bonus": 0, "unmelded_cap": 40}
    response = client.post(
        "/api/matches", json={"game": "rami", "players": ["  Ana ", "B" * 40], "options": options}
    )
    assert response.status_code == 201, response.json
    # The first dealer, not given, is the first player as stored (the name trimmed).
    assert response.json["options"] == options | {"first_dealer": "Ana"}
    assert response.json["players"] == ["Ana", "B" * 40]
    assert response.json["totals"] == {"Ana": 0, "B" * 40: 0}


def new_match_body(players: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A match body for Rami, with the given players and extra keys."""
    return {"game": "rami", "players": players or ["Ana", "Bo"], **extra}


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        pytest.param(new_match_body(game="chess"), "game", "Choose a game", id="unknown-game"),
        pytest.param({"players": ["Ana", "Bo"]}, "game", "Choose a game", id="no-game"),
        pytest.param(new_match_body(["Ana"]), "players", "2 to 6 players, not 1", id="1-player"),
        pytest.param(
            new_match_body([f"P{i}" for i in range(7)]), "players", "not 7", id="7-players"
        ),
        pytest.param(new_match_body("Ana, Bo"), "players", "list of 2 to 6", id="not-a-list"),
        pytest.param(new_match_body(["Ana", ""]), "players.1", "needs a name", id="empty-name"),
        pytest.param(new_match_body(["Ana", "   "]), "players.1", "needs a name", id="blank"),
        pytest.param(new_match_body(["Ana", 7]), "players.1", "needs a name", id="not-a-string"),
        pytest.param(new_match_body(["Ana", "B" * 41]), "players.1", "at most 40", id="41-chars"),
        pytest.param(
            new_match_body(["Ana", "Bo", "ANA"]), "players.2", "already at the table", id="dup"
        ),
        pytest.param(
            new_match_body(options={"colour": "red"}), "options.colour", "no option", id="unknown"
        ),
        pytest.param(
            new_match_body(options={"target": 0}), "options.target", "between 1 and 10000", id="0"
        ),
        pytest.param(
            new_match_body(options={"target": 10_001}),
            "options.target",
            "between 1 and 10000",
            id="target-too-big",
        ),
        pytest.param(
            new_match_body(options={"rami_sec_points": -1}),
            "options.rami_sec_points",
            "between 0 and 1000",
            id="negative",
        ),
        pytest.param(
            new_match_body(options={"target": "100"}),
            "options.target",
            "whole number",
            id="string",
        ),
        pytest.param(
            new_match_body(options={"target": 150.5}),
            "options.target",
            "whole number",
            id="float",
        ),
        pytest.param(
            new_match_body(options={"unmelded_bonus": True}),
            "options.unmelded_bonus",
            "whole number",
            id="bool",
        ),
        pytest.param(new_match_body(options=[1]), "options", "must be an object", id="options"),
    ],
)
def test_start_match_refusals(client: FlaskClient, data: dict, field: str, words: str) -> None:
    assert_error(client.post("/api/matches", json=data), 422, field, words)
    assert client.get("/api/matches").json["total"] == 0


# --- GET /api/matches -------------------------------------------------------------------------


def finish_duel(client: FlaskClient, new_match, players: tuple[str, str]) -> dict[str, Any]:
    """Start a two-player match (target 100) and finish it at once: the first player wins."""
    match = new_match(players=players, target=100)
    return play(client, match["id"], went_out(players[0], **{players[1]: worth(100)}))


def test_history_lists_newest_first_with_cached_results(client: FlaskClient, new_match) -> None:
    first = new_match()
    second = finish_duel(client, new_match, ("Di", "Ed"))
    third = new_match(players=("Fa", "Gi"))
    response = client.get("/api/matches")
    assert response.status_code == 200
    listed = response.json
    assert [row["id"] for row in listed["matches"]] == [third["id"], second["id"], first["id"]]
    assert (listed["page"], listed["pages"], listed["total"]) == (1, 1, 3)
    finished = listed["matches"][1]
    assert finished["game"] == "rami"
    assert finished["players"] == ["Di", "Ed"]
    assert finished["totals"] == {"Di": 0, "Ed": 100}
    assert finished["status"] == "finished"
    assert finished["winner"] == "Di"
    assert finished["rounds_played"] == 1
    assert finished["uid"] == second["uid"]
    assert urlsplit(finished["url"]).path == f"/api/matches/{second['id']}"
    assert listed["matches"][0]["status"] == "playing"
    assert listed["matches"][0]["rounds_played"] == 0


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("game=rami", ["Ana-Bo", "Cy-Ana", "Di-Ed"]),
        ("player=ana", ["Ana-Bo", "Cy-Ana"]),
        ("player=%20ANA%20", ["Ana-Bo", "Cy-Ana"]),
        ("player=An", []),
        ("status=finished", ["Cy-Ana"]),
        ("status=playing", ["Ana-Bo", "Di-Ed"]),
        ("player=ANA&status=playing", ["Ana-Bo"]),
        ("game=rami&player=ed&status=finished", []),
    ],
)
def test_history_filters(client: FlaskClient, new_match, query: str, expected: list[str]) -> None:
    new_match(players=("Di", "Ed"))
    finish_duel(client, new_match, ("Cy", "Ana"))
    new_match(players=("Ana", "Bo"))
    listed = client.get(f"/api/matches?{query}").json
    assert ["-".join(row["players"]) for row in listed["matches"]] == expected
    assert listed["total"] == len(expected)


def test_history_pages_hold_20_matches(client: FlaskClient, new_match) -> None:
    ids = [new_match(players=(f"A{i}", "Bo"))["id"] for i in range(21)]
    first = client.get("/api/matches").json
    assert (first["page"], first["pages"], first["total"]) == (1, 2, 21)
    assert [row["id"] for row in first["matches"]] == ids[:0:-1]
    second = client.get("/api/matches?page=2").json
    assert (second["page"], second["pages"], second["total"]) == (2, 2, 21)
    assert [row["id"] for row in second["matches"]] == [ids[0]]
    filtered = client.get("/api/matches?player=a0").json
    assert (filtered["page"], filtered["pages"], filtered["total"]) == (1, 1, 1)
    assert [row["id"] for row in filtered["matches"]] == [ids[0]]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page=0", "page"),
        ("page=-1", "page"),
        ("page=abc", "page"),
        ("page=1.5", "page"),
        ("status=done", "status"),
        ("game=chess", "game"),
    ],
)
def test_history_refuses_bad_filters(client: FlaskClient, query: str, field: str) -> None:
    assert_error(client.get(f"/api/matches?{query}"), 422, field)


# --- GET /api/matches/<id> --------------------------------------------------------------------


def test_unknown_match_is_404(client: FlaskClient) -> None:
    body = assert_error(client.get("/api/matches/999"), 404)
    assert "999" in body["error"]


# --- POST rounds: scoring ---------------------------------------------------------------------


def test_post_round_answers_round_and_match(client: FlaskClient, trio: dict[str, Any]) -> None:
    response = client.post(rounds_url(trio["id"]), json=EXAMPLE_R1)
    assert response.status_code == 201
    played_round, match = response.json["round"], response.json["match"]
    assert played_round["n"] == 1
    assert played_round["input"] == EXAMPLE_R1
    assert played_round["scores"] == {"Ana": 0, "Bo": 36, "Cy": 18}
    assert played_round["totals"] == {"Ana": 0, "Bo": 36, "Cy": 18}
    assert played_round["explanation"] == [
        "Ana went out: 0.",
        "Bo holds A, JK, 5: 11 + 20 + 5 = 36.",
        "Cy holds 9, 9: 9 + 9 = 18.",
    ]
    assert played_round["corrected_at"] is None
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", played_round["entered_at"])
    assert match["rounds"] == [played_round]
    assert match["totals"] == {"Ana": 0, "Bo": 36, "Cy": 18}
    assert match["status"] == "playing"
    assert client.get(f"/api/matches/{trio['id']}").json == match


def test_post_round_stores_the_input_normalised(client: FlaskClient, trio: dict) -> None:
    given = {
        "outcome": "out",
        "winner": " ana",
        "hands": {"bo": {"cards": ["a", "Jk", " 5 "], "melded": True}, "CY": worth(18)},
    }
    response = client.post(rounds_url(trio["id"]), json=given)
    assert response.status_code == 201, response.json
    assert response.json["round"]["input"] == went_out("Ana", Bo=held("A", "JK", "5"), Cy=worth(18))
    assert response.json["round"]["scores"] == {"Ana": 0, "Bo": 36, "Cy": 18}


@pytest.mark.parametrize(
    ("players", "options", "data", "scores", "explanation"),
    [
        pytest.param(
            ("Ana", "Bo"),
            {"target": 100},
            went_out("Ana", Bo=held("K", "Q", "9", "8", melded=False)),
            {"Ana": 0, "Bo": 50},
            [
                "Ana went out: 0.",
                "Bo holds K, Q, 9, 8: 10 + 10 + 9 + 8 = 37.",
                "Bo never melded: 37 + 25 = 62, capped at 50.",
            ],
            id="R2-capped",
        ),
        pytest.param(
            ("Ana", "Bo"),
            {"target": 100},
            went_out("Ana", Bo=held("7", "3", melded=False)),
            {"Ana": 0, "Bo": 35},
            ["Ana went out: 0.", "Bo holds 7, 3: 7 + 3 = 10.", "Bo never melded: 10 + 25 = 35."],
            id="R2-uncapped",
        ),
        pytest.param(
            ("Ana", "Bo", "Cy", "Di"),
            {},
            went_out(
                "Ana",
                Bo=worth(14),
                Cy=worth(31),
                Di=held("J", "Q", "K", "JK", "A", "9", "8", melded=False),
            ),
            {"Ana": 0, "Bo": 14, "Cy": 31, "Di": 100},
            [
                "Ana went out: 0.",
                "Bo's hand is worth 14.",
                "Cy's hand is worth 31.",
                "Di holds J, Q, K, JK, A, 9, 8: 10 + 10 + 10 + 20 + 11 + 9 + 8 = 78.",
                "Di never melded: 78 + 25 = 103, capped at 100.",
            ],
            id="R3",
        ),
        pytest.param(
            ("Ana", "Bo", "Cy"),
            {"target": 500},
            {"outcome": "rami_sec", "winner": "Bo", "hands": {"Cy": held("3", melded=False)}},
            {"Ana": 200, "Bo": 0, "Cy": 200},
            [
                "Rami sec by Bo: nobody else had melded, so Ana and Cy score 200 each, "
                "whatever their hands."
            ],
            id="rami-sec",
        ),
        pytest.param(
            ("Ana", "Bo", "Cy"),
            {},
            blocked(Ana=held("5"), Bo=worth(5), Cy=held("K", "2", melded=False)),
            {"Ana": 0, "Bo": 0, "Cy": 37},
            [
                "Blocked: Ana and Bo tie for the lowest hand (5) and score 0.",
                "Cy holds K, 2: 10 + 2 = 12.",
                "Cy never melded: 12 + 25 = 37.",
            ],
            id="blocked-tie",
        ),
    ],
)
def test_round_scores_follow_the_rules(
    client: FlaskClient, new_match, players, options, data, scores, explanation
) -> None:
    match = new_match(players=players, **options)
    response = client.post(rounds_url(match["id"]), json=data)
    assert response.status_code == 201, response.json
    assert response.json["round"]["scores"] == scores
    assert response.json["round"]["explanation"] == explanation
    assert response.json["match"]["totals"] == scores


def test_rami_sec_ends_the_match_r4(client: FlaskClient, trio: dict[str, Any]) -> None:
    rami_sec = {"outcome": "rami_sec", "winner": "Bo", "hands": {"Cy": held("3", melded=False)}}
    match = play(client, trio["id"], rami_sec)
    assert match["totals"] == {"Ana": 200, "Bo": 0, "Cy": 200}
    assert match["status"] == "finished"
    assert match["winner"] == "Bo"
    assert match["rounds"][0]["explanation"][-1] == (
        "Ana and Cy reached the target of 200: the match is over and Bo wins with 0."
    )


# --- POST and PUT rounds: refusals ------------------------------------------------------------

BO_CY = {"Bo": held("A", "JK", "5"), "Cy": held("9", "9")}


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        pytest.param(
            {"winner": "Ana", "hands": BO_CY}, "outcome", "how the round", id="no-outcome"
        ),
        pytest.param(
            {"outcome": "won", "winner": "Ana", "hands": BO_CY},
            "outcome",
            "Say how the round ended: someone went out, rami sec, or blocked.",
            id="bad-outcome",
        ),
        pytest.param({"outcome": "out", "hands": BO_CY}, "winner", "who went out", id="no-winner"),
        pytest.param(went_out("Zed", **BO_CY), "winner", "not a player", id="winner-stranger"),
        pytest.param(
            {**blocked(Ana=worth(3), **BO_CY), "winner": "Ana"},
            "winner",
            "no winner",
            id="blocked-with-winner",
        ),
        pytest.param(went_out("Ana", Bo=worth(3)), "hands.Cy", "missing", id="hand-missing"),
        pytest.param(
            went_out("Ana", Ana=worth(3), **BO_CY), "hands.Ana", "went out", id="winner-hand"
        ),
        pytest.param(
            went_out("Ana", Bo=worth(3), bo=worth(3), Cy=worth(4)),
            "hands.bo",
            "given twice",
            id="hand-twice",
        ),
        pytest.param(
            went_out("Ana", Zed=worth(3), **BO_CY), "hands.Zed", "not a player", id="stranger"
        ),
        pytest.param(
            went_out("Ana", Bo={"melded": True}, Cy=worth(4)),
            "hands.Bo",
            "missing",
            id="no-cards-no-points",
        ),
        pytest.param(
            went_out("Ana", Bo={"cards": "A JK 5", "melded": True}, Cy=worth(4)),
            "hands.Bo.cards",
            "list of ranks",
            id="cards-not-list",
        ),
        pytest.param(
            went_out("Ana", Bo=held("A", "X"), Cy=worth(4)),
            "hands.Bo.cards.1",
            "not a card rank",
            id="unknown-rank",
        ),
        pytest.param(
            went_out("Ana", Bo=held(*["2"] * 15), Cy=worth(4)),
            "hands.Bo.cards",
            "between 1 and 14 cards; 15",
            id="15-cards",
        ),
        pytest.param(
            went_out("Ana", Bo=worth(-1), Cy=worth(4)),
            "hands.Bo.points",
            "between 2 and 280",
            id="negative-points",
        ),
        pytest.param(
            went_out("Ana", Bo=worth(281), Cy=worth(4)),
            "hands.Bo.points",
            "between 2 and 280",
            id="281-points",
        ),
        pytest.param(
            went_out("Ana", Bo={"points": "12", "melded": True}, Cy=worth(4)),
            "hands.Bo.points",
            "whole number",
            id="points-string",
        ),
        pytest.param(
            went_out("Ana", Bo={**held("A", "JK", "5"), "points": 35}, Cy=worth(4)),
            "hands.Bo.points",
            "add up to 36, not 35",
            id="cards-points-disagree",
        ),
        pytest.param(
            went_out("Ana", Bo={"cards": ["A"]}, Cy=worth(4)),
            "hands.Bo.melded",
            "had melded",
            id="melded-missing",
        ),
        pytest.param(
            went_out("Ana", Bo={"cards": ["A"], "melded": "yes"}, Cy=worth(4)),
            "hands.Bo.melded",
            "had melded",
            id="melded-not-bool",
        ),
        pytest.param(
            {"outcome": "rami_sec", "winner": "Ana", "hands": {"Bo": {"melded": True}}},
            "hands.Bo.melded",
            "rami sec needs every opponent unmelded",
            id="rami-sec-melded",
        ),
    ],
)
@pytest.mark.parametrize("door", ["post", "put"])
def test_bad_round_is_refused_and_changes_nothing(
    client: FlaskClient, played: dict[str, Any], door: str, data: dict, field: str, words: str
) -> None:
    match_id = played["id"]
    with unchanged(client, match_id):
        if door == "post":
            response = client.post(rounds_url(match_id), json=data)
        else:
            response = client.put(rounds_url(match_id, 1), json=data)
        assert_error(response, 422, field, words)


def test_round_after_the_match_finished_is_409(client: FlaskClient, duel: dict) -> None:
    finished = play(client, duel["id"], went_out("Ana", Bo=worth(100)))
    assert (finished["status"], finished["winner"]) == ("finished", "Ana")
    with unchanged(client, duel["id"]):
        body = assert_error(
            client.post(rounds_url(duel["id"]), json=went_out("Bo", Ana=worth(3))), 409
        )
    assert body["error"] == "The match is over: Ana wins with 0! Start a new match to play on."


def test_round_for_an_unknown_match_is_404(client: FlaskClient) -> None:
    assert_error(client.post(rounds_url(999), json=EXAMPLE_R1), 404)


# --- PUT rounds/<n> ---------------------------------------------------------------------------


def test_correcting_round_1_scores_the_later_rounds_again(
    client: FlaskClient, three_rounds: dict[str, Any]
) -> None:
    match_id = three_rounds["id"]
    assert three_rounds["totals"] == {"Ana": 34, "Bo": 16, "Cy": 25}
    correction = went_out("Ana", Bo=worth(50), Cy=worth(2))
    response = client.put(rounds_url(match_id, 1), json=correction)
    assert response.status_code == 200, response.json
    corrected, match = response.json["round"], response.json["match"]
    assert corrected["n"] == 1
    assert corrected["input"] == correction
    assert corrected["scores"] == {"Ana": 0, "Bo": 50, "Cy": 2}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", corrected["corrected_at"])
    assert [r["totals"] for r in match["rounds"]] == [
        {"Ana": 0, "Bo": 50, "Cy": 2},
        {"Ana": 30, "Bo": 50, "Cy": 7},
        {"Ana": 34, "Bo": 56, "Cy": 7},
    ]
    assert [r["scores"] for r in match["rounds"][1:]] == [
        {"Ana": 30, "Bo": 0, "Cy": 5},
        {"Ana": 4, "Bo": 6, "Cy": 0},
    ]
    assert [r["corrected_at"] is None for r in match["rounds"]] == [False, True, True]
    assert match["totals"] == {"Ana": 34, "Bo": 56, "Cy": 7}
    assert client.get(f"/api/matches/{match_id}").json == match
    assert client.get("/api/matches").json["matches"][0]["totals"] == match["totals"]


@pytest.mark.parametrize("method", ["put", "delete"])
@pytest.mark.parametrize("n", [0, 4, 99])
def test_no_such_round_is_404(client: FlaskClient, three_rounds: dict, method: str, n: int):
    match_id = three_rounds["id"]
    with unchanged(client, match_id):
        response = getattr(client, method)(rounds_url(match_id, n), json=EXAMPLE_R1)
        body = assert_error(response, 404)
    assert f"no round {n}" in body["error"]


@pytest.mark.parametrize("method", ["put", "delete"])
def test_round_of_an_unknown_match_is_404(client: FlaskClient, method: str) -> None:
    assert_error(getattr(client, method)(rounds_url(999, 1), json=EXAMPLE_R1), 404)


def test_correction_that_would_end_the_match_early_is_409(client: FlaskClient, duel: dict):
    match_id = duel["id"]
    play(client, match_id, went_out("Ana", Bo=worth(40)), went_out("Ana", Bo=worth(40)))
    with unchanged(client, match_id):
        body = assert_error(
            client.put(rounds_url(match_id, 1), json=went_out("Ana", Bo=worth(100))), 409
        )
    assert "end after round 1" in body["error"]


# --- DELETE rounds/<n> ------------------------------------------------------------------------


def test_removing_round_1_renumbers_and_rescores_the_rest(
    client: FlaskClient, three_rounds: dict[str, Any]
) -> None:
    match_id = three_rounds["id"]
    kept = [r["input"] for r in three_rounds["rounds"][1:]]
    response = client.delete(rounds_url(match_id, 1))
    assert response.status_code == 200, response.json
    assert set(response.json) == {"match"}
    match = response.json["match"]
    assert [r["n"] for r in match["rounds"]] == [1, 2]
    assert [r["input"] for r in match["rounds"]] == kept
    assert [r["totals"] for r in match["rounds"]] == [
        {"Ana": 30, "Bo": 0, "Cy": 5},
        {"Ana": 34, "Bo": 6, "Cy": 5},
    ]
    assert match["totals"] == {"Ana": 34, "Bo": 6, "Cy": 5}
    assert client.get(f"/api/matches/{match_id}").json == match
    summary = client.get("/api/matches").json["matches"][0]
    assert (summary["rounds_played"], summary["totals"]) == (2, match["totals"])


def test_removing_the_round_that_ended_the_match_reopens_it(client: FlaskClient, duel: dict):
    match_id = duel["id"]
    finished = play(client, match_id, went_out("Ana", Bo=worth(60)), went_out("Ana", Bo=worth(50)))
    assert (finished["status"], finished["winner"]) == ("finished", "Ana")
    match = client.delete(rounds_url(match_id, 2)).json["match"]
    assert (match["status"], match["winner"]) == ("playing", None)
    assert match["totals"] == {"Ana": 0, "Bo": 60}
    assert client.get("/api/matches?status=playing").json["total"] == 1
    reopened = play(client, match_id, went_out("Bo", Ana=worth(10)))
    assert reopened["totals"] == {"Ana": 10, "Bo": 60}


def test_removal_that_would_end_the_match_early_is_409(client: FlaskClient, trio: dict):
    match_id = trio["id"]
    play(
        client,
        match_id,
        went_out("Bo", Ana=worth(10), Cy=worth(10)),
        went_out("Ana", Bo=worth(10), Cy=worth(200)),
        went_out("Ana", Bo=worth(5), Cy=worth(5)),
    )
    # Without round 1, round 2 leaves Ana alone lowest (0) as Cy reaches 200: round 3 is too many.
    with unchanged(client, match_id):
        body = assert_error(client.delete(rounds_url(match_id, 1)), 409)
    assert "end after round 1" in body["error"]


# --- ties for the lowest total ----------------------------------------------------------------


def test_a_tie_for_lowest_at_the_target_needs_an_extra_round(client: FlaskClient, trio: dict):
    match_id = trio["id"]
    tied = play(
        client,
        match_id,
        went_out("Ana", Bo=worth(30), Cy=worth(150)),
        went_out("Bo", Ana=worth(30), Cy=worth(60)),
    )
    assert tied["totals"] == {"Ana": 30, "Bo": 30, "Cy": 210}
    assert (tied["status"], tied["winner"]) == ("playing", None)
    # Two deals done from Ana on: Cy deals the extra round; Bo went out, so Ana and Cy melded.
    assert tied["state"] == {
        "extra_round": True,
        "dealer": "Cy",
        "melded": {"Ana": True, "Cy": True},
    }
    assert tied["rounds"][1]["explanation"][-1] == (
        "Cy reached the target of 200, but Ana and Bo tie for the lowest total (30): "
        "another round is played."
    )
    broken = play(client, match_id, went_out("Ana", Bo=worth(10), Cy=worth(5)))
    assert broken["totals"] == {"Ana": 30, "Bo": 40, "Cy": 215}
    assert (broken["status"], broken["winner"]) == ("finished", "Ana")
    assert broken["state"] == {
        "extra_round": False,
        "dealer": "Ana",
        "melded": {"Bo": True, "Cy": True},
    }
    assert broken["rounds"][2]["explanation"][-1] == (
        "Cy reached the target of 200: the match is over and Ana wins with 30."
    )


# --- GET log ----------------------------------------------------------------------------------


def test_log_keeps_every_change_oldest_first(client: FlaskClient, trio: dict[str, Any]) -> None:
    match_id = trio["id"]
    first = went_out("Ana", Bo=worth(10), Cy=worth(20))
    second = went_out("Bo", Ana=worth(7), Cy=worth(8))
    fixed = went_out("Ana", Bo=worth(11), Cy=worth(20))
    play(client, match_id, first, second)
    assert client.put(rounds_url(match_id, 1), json=fixed).status_code == 200
    assert client.delete(rounds_url(match_id, 2)).status_code == 200
    response = client.get(f"/api/matches/{match_id}/log")
    assert response.status_code == 200
    changes = response.json["changes"]
    assert [(c["action"], c["n"], c["input"], c["replaced"]) for c in changes] == [
        ("add", 1, first, None),
        ("add", 2, second, None),
        ("correct", 1, fixed, first),
        ("remove", 2, None, second),
    ]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", c["at"]) for c in changes)
    assert [c["at"] for c in changes] == sorted(c["at"] for c in changes)


def test_log_of_a_fresh_match_is_empty(client: FlaskClient, trio: dict[str, Any]) -> None:
    assert client.get(f"/api/matches/{trio['id']}/log").json == {"changes": []}


def test_log_of_an_unknown_match_is_404(client: FlaskClient) -> None:
    assert_error(client.get("/api/matches/999/log"), 404)


# --- GET /api/openapi.json --------------------------------------------------------------------


def test_openapi_document_is_valid_and_lists_every_route(app: Flask, client: FlaskClient):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    document = response.json
    validate(document)
    routes = [rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("api.")]
    assert {rule.endpoint for rule in routes} >= {
        "api.games",
        "api.start_match",
        "api.history",
        "api.match",
        "api.add_round",
        "api.correct_round",
        "api.remove_round",
        "api.log",
        "api.openapi_document",
    }
    for rule in routes:
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        assert path in document["paths"], path
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in document["paths"][path], (method, path)


# --- conventions ------------------------------------------------------------------------------

CHANGES = [("post", "/api/matches"), ("post", "/rounds"), ("put", "/rounds/1")]


def change_url(match_id: int, where: str) -> str:
    """Turn a table entry of CHANGES into a URL for this match."""
    return where if where.startswith("/api/") else f"/api/matches/{match_id}{where}"


@pytest.mark.parametrize(("method", "where"), CHANGES)
@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        pytest.param({"data": "{}", "content_type": "text/plain"}, 415, id="text"),
        pytest.param({"data": {"game": "rami"}}, 415, id="form"),
        pytest.param({}, 415, id="no-body"),
        pytest.param({"data": '{"game": ', "content_type": "application/json"}, 400, id="bad"),
        pytest.param({"data": "", "content_type": "application/json"}, 400, id="empty"),
        pytest.param({"json": ["rami", "Ana"]}, 400, id="array"),
        pytest.param({"json": "rami"}, 400, id="string"),
        pytest.param(
            {"data": '{"pad": "' + "x" * 70_000 + '"}', "content_type": "application/json"},
            413,
            id="over-64KB",
        ),
    ],
)
def test_bodies_that_are_not_a_json_object_are_refused(
    client: FlaskClient, played: dict, method: str, where: str, kwargs: dict, status: int
) -> None:
    match_id = played["id"]
    with unchanged(client, match_id):
        response = getattr(client, method)(change_url(match_id, where), **kwargs)
        assert_error(response, status)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/api/nope", 404),
        ("get", "/api/matches/1/nope", 404),
        ("get", "/api/matches/abc", 404),
        ("post", "/api/games", 405),
        ("patch", "/api/matches", 405),
    ],
)
def test_unknown_api_paths_answer_json(
    client: FlaskClient, trio: dict, method: str, path: str, status: int
) -> None:
    response = getattr(client, method)(path, json={})
    assert_error(response, status)
