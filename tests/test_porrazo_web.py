"""Porrazo through the Flask test client: the JSON API and the pegging pages (RULES.md §5).

Ana, Bo and Cy sit in that order and Ana deals first, unless a test says otherwise. With
partnerships, Us are Ana and Cy, Them are Bo and Di: the seats go Ana, Bo, Cy, Di.
Each round is one event, pegged as it happens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient

from tests.api_helpers import (
    api_match,
    newest_match_id,
    opened_match,
    refused,
    rounds_url,
    send,
    start_match,
    unchanged,
)
from tests.api_helpers import play as peg
from tests.api_helpers import post_round_form as post_peg
from tests.html_reader import Node, alerts, field_errors, listed_rules, parse, values

PLAYERS = ["Ana", "Bo", "Cy"]
TEAMS = {"Us": ["Ana", "Cy"], "Them": ["Bo", "Di"]}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
EVENTS = [
    ("porrazo", "Porrazo"),
    ("counter_porrazo", "Counter-porrazo"),
    ("san_benito", "San Benito"),
    ("ronda", "Ronda"),
    ("rondin", "Rondín"),
    ("four_of_a_kind", "Four of a kind"),
    ("rondas", "Rondas"),
    ("limpia", "Limpia"),
    ("in_place", "Card in place"),
    ("tendido", "Tendido"),
    ("confirm", "It stands"),
    ("cards", "Card count"),
]
DEFAULTS = {"target": 61, "card_count": "difference", "wrap": True, "first_dealer": "Ana"}
WAIT_AT_5 = (
    "Bo's porrazo of 6 would reach 5: record the next player's counter-porrazo if they "
    "matched, or confirm that it stands."
)


# --- events as the API takes them -------------------------------------------------------------


def by(player: str, event: str, rank: str | None = None, **extra: Any) -> dict[str, Any]:
    """One player's peg: who, what, and the rank if the event has one."""
    peg: dict[str, Any] = {"player": player, "event": event}
    if rank is not None:
        peg["rank"] = rank
    return peg | extra


def totals(*numbers: int, sides: Sequence[str] = PLAYERS) -> dict[str, int]:
    """A number per side, in seating order."""
    return dict(zip(sides, numbers, strict=True))


def pending(event: str, player: str, rank: str, points: int) -> dict[str, Any]:
    """A provisional porrazo or counter-porrazo as `state.pending` shows it."""
    word = "porrazo" if event == "porrazo" else "counter-porrazo"
    return {
        "event": event,
        "player": player,
        "rank": rank,
        "points": points,
        "says": f"{player}'s {word} of {rank}",
    }


CONFIRM = {"event": "confirm"}
BO_PORRAZO = by("Bo", "porrazo", "6", limpia="7")  # RULES.md: porrazo 1 + limpia 1 = 2
CY_COUNTER = by("Cy", "counter_porrazo", "6", limpia="7")  # counter 3 + limpia 1 = 4
ANA_RONDA_K = by("Ana", "ronda", "K")  # 4
COUNTS = {"event": "cards", "counts": {"Ana": 29, "Bo": 13, "Cy": 10}}  # Ana +16
T1 = by("Ana", "tendido", pairs=[["2", "4"], ["7", "3"]], table=[])
T2 = by("Ana", "tendido", pairs=[["4", "Q"], ["4", "Q"]], table=["5", "6", "Q"])


# --- talking to the API -----------------------------------------------------------------------


def start(client: FlaskClient, players: Sequence[str] = PLAYERS, **options: Any) -> dict:
    """Start a Porrazo match, each for themselves, and return it."""
    return start_match(client, {"game": "porrazo", "players": list(players), "options": options})


def start_teams(client: FlaskClient, teams: dict[str, list[str]] = TEAMS, **options: Any) -> dict:
    """Start a Porrazo match in partnerships and return it."""
    return start_match(client, {"game": "porrazo", "teams": teams, "options": options})


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def porrazo(client: FlaskClient) -> dict[str, Any]:
    """A fresh match: Ana, Bo, Cy to 61; Ana deals."""
    return start(client)


@pytest.fixture
def at_the_edge(client: FlaskClient) -> dict[str, Any]:
    """Target 5: Bo has 4 from a ronda of kings and a porrazo of 6 (1) would take him to 5."""
    match = start(client, target=5)
    return peg(client, match["id"], by("Bo", "ronda", "K"), by("Bo", "porrazo", "6"))


@pytest.fixture
def partners(client: FlaskClient) -> dict[str, Any]:
    """A fresh partnership match: Us (Ana, Cy) against Them (Bo, Di)."""
    return start_teams(client)


# --- POST /api/matches and GET /api/games -----------------------------------------------------


def test_porrazo_match_starts_with_the_defaults(client: FlaskClient) -> None:
    body = {"game": "porrazo", "players": PLAYERS}
    response = send(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    match = response.json
    assert urlsplit(response.headers["Location"]).path == f"/api/matches/{match['id']}"
    assert (match["game"], match["players"], match["teams"]) == ("porrazo", PLAYERS, None)
    assert match["options"] == DEFAULTS
    assert match["totals"] == totals(0, 0, 0)
    assert match["state"] == {"dealer": "Ana", "pending": None}
    assert (match["status"], match["winner"], match["rounds"]) == ("playing", None, [])
    assert api_match(client, match["id"]) == {k: v for k, v in match.items() if k != "scorer_token"}


@pytest.mark.parametrize(
    "players",
    [
        pytest.param(["Ana", "Bo"], id="2"),
        pytest.param(["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"], id="8"),
    ],
)
def test_two_to_eight_players(client: FlaskClient, players: list[str]) -> None:
    match = start(client, players)
    assert match["players"] == players
    assert match["totals"] == dict.fromkeys(players, 0)
    assert match["state"] == {"dealer": "Ana", "pending": None}


@pytest.mark.parametrize(
    ("players", "words"),
    [
        pytest.param(["Ana"], "Porrazo is played by 2 to 8 players, not 1.", id="1"),
        pytest.param(
            ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida"],
            "Porrazo is played by 2 to 8 players, not 9.",
            id="9",
        ),
    ],
)
def test_one_or_nine_players_are_refused(client: FlaskClient, players: list, words: str) -> None:
    body = {"game": "porrazo", "players": players}
    refused(send(client, "POST", "/api/matches", body), 422, "players", words)
    assert client.get("/api/matches").json["total"] == 0


@pytest.mark.parametrize(
    ("teams", "seating"),
    [
        pytest.param(TEAMS, ["Ana", "Bo", "Cy", "Di"], id="2+2"),
        pytest.param(
            {"Us": ["Ana", "Cy", "Ed"], "Them": ["Bo", "Di", "Flo"]},
            ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"],
            id="3+3",
        ),
        pytest.param(
            {"Us": ["Ana", "Cy", "Ed", "Gus"], "Them": ["Bo", "Di", "Flo", "Hal"]},
            ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"],
            id="4+4",
        ),
    ],
)
def test_partnerships_sit_opposite_and_score_by_team(
    client: FlaskClient, teams: dict, seating: list[str]
) -> None:
    match = start_teams(client, teams)
    assert match["players"] == seating
    assert match["teams"] == teams
    assert match["totals"] == {"Us": 0, "Them": 0}
    assert match["state"] == {"dealer": "Ana", "pending": None}
    assert match["options"] == DEFAULTS


@pytest.mark.parametrize(
    "teams",
    [
        pytest.param({"Us": ["Ana", "Cy"], "Them": ["Bo"]}, id="2+1"),
        pytest.param({"Us": ["Ana", "Cy", "Ed"], "Them": ["Bo", "Di"]}, id="3+2"),
        pytest.param({"Us": ["Ana"], "Them": ["Bo"]}, id="1+1"),
        pytest.param({"Us": ["Ana", "Cy"]}, id="one-team"),
    ],
)
def test_unequal_or_too_small_teams_are_refused(client: FlaskClient, teams: dict) -> None:
    body = {"game": "porrazo", "teams": teams}
    refused(send(client, "POST", "/api/matches", body), 422, "teams", "two teams of 2, 3 or 4")
    assert client.get("/api/matches").json["total"] == 0


@pytest.mark.parametrize(
    ("options", "stored", "dealer"),
    [
        pytest.param({"target": 5}, {"target": 5}, "Ana", id="target"),
        pytest.param({"wrap": False}, {"wrap": False}, "Ana", id="no-wrap"),
        pytest.param({"first_dealer": "cY "}, {"first_dealer": "Cy"}, "Cy", id="first-dealer"),
        pytest.param(
            {"card_count": "difference", "target": 121},
            {"card_count": "difference", "target": 121},
            "Ana",
            id="difference-121",
        ),
    ],
)
def test_options_are_kept(client: FlaskClient, options: dict, stored: dict, dealer: str) -> None:
    match = start(client, **options)
    assert match["options"] == DEFAULTS | stored
    assert match["state"] == {"dealer": dealer, "pending": None}
    assert api_match(client, match["id"])["options"] == DEFAULTS | stored


def test_over_half_with_two_players_or_two_teams(client: FlaskClient) -> None:
    assert start(client, ["Ana", "Bo"], card_count="over_half")["options"]["card_count"] == (
        "over_half"
    )
    assert start_teams(client, card_count="over_half")["options"]["card_count"] == "over_half"


START_REFUSALS = [
    pytest.param(
        {"players": PLAYERS, "options": {"first_dealer": "Zed"}},
        "options.first_dealer",
        "'Zed' is not a player in this match: Ana, Bo and Cy.",
        id="unknown-dealer",
    ),
    pytest.param(
        {"players": PLAYERS, "options": {"card_count": "over_half"}},
        "options.card_count",
        "Counting cards over 26 needs exactly two sides.",
        id="over-half-with-3",
    ),
    pytest.param(
        {"players": PLAYERS, "options": {"card_count": "most"}},
        "options.card_count",
        "Card count must be one of: difference, over_half.",
        id="unknown-card-count",
    ),
    pytest.param(
        {"players": PLAYERS, "options": {"target": 0}},
        "options.target",
        "Target must be between 1 and 1000.",
        id="target-0",
    ),
    pytest.param(
        {"players": PLAYERS, "options": {"wrap": "yes"}},
        "options.wrap",
        "Runs wrap K-A-2 must be true or false.",
        id="wrap-not-a-bool",
    ),
    pytest.param(
        {"players": PLAYERS, "options": {"strokes": 10}},
        "options.strokes",
        "Porrazo has no option 'strokes'",
        id="unknown-option",
    ),
]
"""How a match of porrazo is refused at its start: body, field, words (see test_every_game_web)."""


def test_games_list_porrazo(client: FlaskClient) -> None:
    games = {game["id"]: game for game in client.get("/api/games").json["games"]}
    porrazo = games["porrazo"]
    assert (porrazo["name"], porrazo["players"]) == ("Porrazo", [2, 3, 4, 5, 6, 7, 8])
    options = {option["name"]: option for option in porrazo["options"]}
    assert list(options) == ["target", "card_count", "wrap", "first_dealer"]
    assert (options["target"]["default"], options["target"]["label"]) == (61, "Target")
    assert (options["target"]["minimum"], options["target"]["maximum"]) == (1, 1000)
    assert options["card_count"]["default"] == "difference"
    assert options["card_count"]["choices"] == ["difference", "over_half"]
    assert options["wrap"]["default"] is True
    assert (options["first_dealer"]["player"], options["first_dealer"]["default_seat"]) == (
        True,
        0,
    )
    assert all(option["help"] for option in options.values())


# --- provisional porrazos, counters and what stands -------------------------------------------


def test_rules_example_porrazo_and_counter(client: FlaskClient, porrazo: dict) -> None:
    match_id = porrazo["id"]
    response = send(client, "POST", rounds_url(match_id), BO_PORRAZO)
    assert response.status_code == 201, response.json
    first, match = response.json["round"], response.json["match"]
    assert first["n"] == 1
    assert first["input"] == {"event": "porrazo", "player": "Bo", "rank": "6", "limpia": "7"}
    assert first["scores"] == totals(0, 0, 0)
    assert first["totals"] == totals(0, 0, 0)
    assert first["explanation"] == [
        "Porrazo of 6 by Bo with a limpia (7, 1): 1 + 1 = 2, provisional until the next card."
    ]
    assert first["pending"] == pending("porrazo", "Bo", "6", 2)
    assert match["state"] == {"dealer": "Ana", "pending": pending("porrazo", "Bo", "6", 2)}
    assert match["totals"] == totals(0, 0, 0)

    response = send(client, "POST", rounds_url(match_id), CY_COUNTER)
    assert response.status_code == 201, response.json
    second, match = response.json["round"], response.json["match"]
    assert second["scores"] == totals(0, 0, 0)
    assert second["explanation"] == [
        "Bo's porrazo of 6 is void.",
        "Counter-porrazo of 6 by Cy with a limpia (7, 1): 3 + 1 = 4, "
        "provisional until the next card.",
    ]
    assert match["state"]["pending"] == pending("counter_porrazo", "Cy", "6", 4)
    assert match["totals"] == totals(0, 0, 0)

    response = send(client, "POST", rounds_url(match_id), CONFIRM)
    assert response.status_code == 201, response.json
    third, match = response.json["round"], response.json["match"]
    assert third["input"] == CONFIRM
    assert third["scores"] == totals(0, 0, 4)
    assert third["explanation"] == ["Cy's counter-porrazo of 6 stands: +4."]
    assert third["pending"] is None
    assert match["totals"] == totals(0, 0, 4)
    assert match["state"] == {"dealer": "Ana", "pending": None}
    assert (match["status"], match["winner"]) == ("playing", None)
    assert [r["totals"] for r in match["rounds"]] == [
        totals(0, 0, 0),
        totals(0, 0, 0),
        totals(0, 0, 4),
    ]


@pytest.mark.parametrize(
    ("following", "scores", "said"),
    [
        pytest.param(ANA_RONDA_K, totals(4, 2, 0), "Ronda of K by Ana: 4.", id="ronda"),
        pytest.param(
            COUNTS,
            totals(16, 2, 0),
            "Card count: Ana has 29, 16 more than the next (13).",
            id="end-of-hand",
        ),
        pytest.param(
            by("Cy", "limpia", "Q"), totals(0, 2, 3), "Limpia of Q by Cy: 3.", id="limpia"
        ),
    ],
)
def test_a_porrazo_stands_when_the_next_event_is_another(
    client: FlaskClient, porrazo: dict, following: dict, scores: dict, said: str
) -> None:
    match = peg(client, porrazo["id"], BO_PORRAZO)
    response = send(client, "POST", rounds_url(match["id"]), following)
    assert response.status_code == 201, response.json
    played, match = response.json["round"], response.json["match"]
    assert played["explanation"][:2] == ["Bo's porrazo of 6 stands: +2.", said]
    assert played["scores"] == scores
    assert match["totals"] == scores
    assert match["state"]["pending"] is None


@pytest.mark.parametrize(
    "event",
    [
        pytest.param(ANA_RONDA_K, id="ronda"),
        pytest.param(by("Ana", "porrazo", "9"), id="porrazo"),
        pytest.param(by("Cy", "limpia", "A"), id="limpia"),
        pytest.param(T1, id="tendido"),
        pytest.param({"event": "rondas", "declared": {"Ana": ["7", "7"]}}, id="rondas"),
        pytest.param(COUNTS, id="cards"),
    ],
)
def test_a_porrazo_reaching_the_target_must_be_settled_first(
    client: FlaskClient, at_the_edge: dict, event: dict
) -> None:
    match_id = at_the_edge["id"]
    assert at_the_edge["totals"] == totals(0, 4, 0)
    assert at_the_edge["state"]["pending"] == pending("porrazo", "Bo", "6", 1)
    with unchanged(client, match_id):
        body = refused(send(client, "POST", rounds_url(match_id), event), 409)
    assert body["error"] == WAIT_AT_5
    assert body["fields"] == {}


def test_confirming_a_porrazo_at_the_target_wins(client: FlaskClient, at_the_edge: dict) -> None:
    match_id = at_the_edge["id"]
    response = send(client, "POST", rounds_url(match_id), CONFIRM)
    assert response.status_code == 201, response.json
    played, match = response.json["round"], response.json["match"]
    assert played["scores"] == totals(0, 1, 0)
    assert played["explanation"] == [
        "Bo's porrazo of 6 stands: +1.",
        "Bo reaches 5 and wins at once.",
    ]
    assert (match["status"], match["winner"]) == ("finished", "Bo")
    assert match["totals"] == totals(0, 5, 0)
    assert match["state"] == {"dealer": "Ana", "pending": None}
    for event in (ANA_RONDA_K, CONFIRM, by("Cy", "counter_porrazo", "6")):
        with unchanged(client, match_id):
            body = refused(send(client, "POST", rounds_url(match_id), event), 409)
        assert body["error"].startswith("The match is over")
        assert "Bo" in body["error"]


def test_a_counter_porrazo_instead_of_confirming_plays_on(
    client: FlaskClient, at_the_edge: dict
) -> None:
    match_id = at_the_edge["id"]
    response = send(client, "POST", rounds_url(match_id), by("Cy", "counter_porrazo", "6"))
    assert response.status_code == 201, response.json
    played, match = response.json["round"], response.json["match"]
    assert played["explanation"] == [
        "Bo's porrazo of 6 is void.",
        "Counter-porrazo of 6 by Cy: 3, provisional until the next card.",
    ]
    assert (match["status"], match["winner"]) == ("playing", None)
    assert match["totals"] == totals(0, 4, 0)
    assert match["state"]["pending"] == pending("counter_porrazo", "Cy", "6", 3)
    # Cy's 3 would not reach 5: the next event lets it stand.
    match = peg(client, match_id, by("Ana", "ronda", "2"))
    assert match["totals"] == totals(1, 4, 3)
    assert match["rounds"][-1]["explanation"] == [
        "Cy's counter-porrazo of 6 stands: +3.",
        "Ronda of 2 by Ana: 1.",
    ]
    assert (match["status"], match["state"]["pending"]) == ("playing", None)


def test_san_benito_after_a_counter_wins_the_game(client: FlaskClient, porrazo: dict) -> None:
    match_id = porrazo["id"]
    peg(client, match_id, ANA_RONDA_K, BO_PORRAZO, CY_COUNTER)
    response = send(client, "POST", rounds_url(match_id), by("Ana", "san_benito"))
    assert response.status_code == 201, response.json
    played, match = response.json["round"], response.json["match"]
    assert played["input"] == {"event": "san_benito", "player": "Ana"}
    assert played["explanation"] == [
        "Cy's counter-porrazo of 6 is void.",
        "San Benito: Ana wins the game.",
    ]
    assert played["scores"] == totals(0, 0, 0)
    assert (match["status"], match["winner"]) == ("finished", "Ana")
    assert match["totals"] == totals(4, 0, 0)
    assert match["state"]["pending"] is None
    with unchanged(client, match_id):
        body = refused(send(client, "POST", rounds_url(match_id), CONFIRM), 409)
    assert body["error"].startswith("The match is over")
    assert "Ana" in body["error"]


def test_san_benito_in_partnerships_wins_for_the_team(client: FlaskClient, partners: dict) -> None:
    match = peg(
        client,
        partners["id"],
        by("Ana", "porrazo", "Q"),
        by("Bo", "counter_porrazo", "Q"),
        by("Cy", "san_benito"),
    )
    assert (match["status"], match["winner"]) == ("finished", "Us")
    assert match["totals"] == {"Us": 0, "Them": 0}


# --- events that score at once ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "score", "explanation"),
    [
        pytest.param(
            T1,
            5,
            ["Tendido by Ana: 5.", "Best row 4-2-3-7: cards in place 5."],
            id="T1",
        ),
        pytest.param(
            T2,
            14,
            [
                "Tendido by Ana: 14.",
                "Best row Q-4-Q-4: cards in place 4.",
                "a pair of 4 on the table: 1.",
                "three of Q on the table: 9.",
            ],
            id="T2",
        ),
    ],
)
def test_tendido_scores_its_best_count(
    client: FlaskClient, porrazo: dict, event: dict, score: int, explanation: list[str]
) -> None:
    response = send(client, "POST", rounds_url(porrazo["id"]), event)
    assert response.status_code == 201, response.json
    played, match = response.json["round"], response.json["match"]
    assert played["input"] == event
    assert played["scores"] == totals(score, 0, 0)
    assert played["explanation"] == explanation
    assert match["totals"] == totals(score, 0, 0)


@pytest.mark.parametrize(
    ("event", "score"),
    [
        pytest.param(by("Bo", "ronda", "J"), 2, id="ronda-J"),
        pytest.param(by("Bo", "rondin", "Q"), 9, id="rondin-Q"),
        pytest.param(by("Bo", "four_of_a_kind", "K"), 24, id="four-K"),
        pytest.param(by("Bo", "four_of_a_kind", "5"), 6, id="four-5"),
        pytest.param(by("Bo", "limpia", "10"), 1, id="limpia-10"),
        pytest.param(by("Bo", "in_place", "3"), 3, id="in-place-3"),
        pytest.param(by("bO", "in_place", "a"), 1, id="any-case"),
    ],
)
def test_ranked_events_score_by_rank(
    client: FlaskClient, porrazo: dict, event: dict, score: int
) -> None:
    match = peg(client, porrazo["id"], event)
    assert match["rounds"][0]["scores"] == totals(0, score, 0)
    assert match["totals"] == totals(0, score, 0)
    assert match["rounds"][0]["input"]["player"] == "Bo"


def test_rondas_in_partnerships(client: FlaskClient, partners: dict) -> None:
    # Bo's rondín of 5 beats every pair; Di, his partner, scores her own kings too.
    declared = {"Ana": ["7", "7"], "Bo": ["5", "5", "5"], "Cy": ["Q", "Q"], "Di": ["K", "K"]}
    response = send(
        client, "POST", rounds_url(partners["id"]), {"event": "rondas", "declared": declared}
    )
    assert response.status_code == 201, response.json
    played, match = response.json["round"], response.json["match"]
    assert played["input"] == {"event": "rondas", "declared": declared}
    assert played["explanation"] == [
        "Best declared: Bo's rondín of 5: 3.",
        "Di, Bo's partner, scores their own: 4.",
    ]
    assert played["scores"] == {"Us": 0, "Them": 7}
    assert match["totals"] == {"Us": 0, "Them": 7}


@pytest.mark.parametrize(
    ("first_dealer", "best", "rival"),
    [
        pytest.param("Ana", "Bo", "Cy", id="Ana-deals"),  # Bo sits on Ana's left
        pytest.param("Bo", "Cy", "Bo", id="Bo-deals"),  # the dealer himself comes last
        pytest.param("Di", "Ana", "Bo", id="Di-deals"),
    ],
)
def test_equal_rondas_go_to_the_nearest_the_dealers_left(
    client: FlaskClient, first_dealer: str, best: str, rival: str
) -> None:
    # A pack has four 7s: two pairs of 7 tie; the best holder's partner has a pair of 5s.
    match = start_teams(client, first_dealer=first_dealer)
    partner = {"Ana": "Cy", "Bo": "Di", "Cy": "Ana", "Di": "Bo"}[best]
    declared = {rival: ["7", "7"], best: ["7", "7"], partner: ["5", "5"]}
    match = peg(client, match["id"], {"event": "rondas", "declared": declared})
    assert match["rounds"][0]["explanation"] == [
        f"Best declared: {best}'s ronda of 7: 1.",
        f"{partner}, {best}'s partner, scores their own: 1.",
    ]
    team = "Us" if best in TEAMS["Us"] else "Them"
    assert match["totals"] == {"Us": 0, "Them": 0} | {team: 2}


def test_partnership_pegs_name_a_player_or_a_team(client: FlaskClient, partners: dict):
    match = peg(
        client,
        partners["id"],
        by("us", "limpia", "Q"),
        by("Di", "in_place", "4"),
        by("Them", "ronda", "K"),
    )
    assert [r["scores"] for r in match["rounds"]] == [
        {"Us": 3, "Them": 0},
        {"Us": 0, "Them": 4},
        {"Us": 0, "Them": 4},
    ]
    assert [r["input"]["player"] for r in match["rounds"]] == ["Us", "Di", "Them"]
    assert match["rounds"][0]["explanation"] == ["Limpia of Q by Us: 3."]
    assert match["totals"] == {"Us": 3, "Them": 8}


def test_card_count_moves_the_deal_round_the_table(client: FlaskClient, porrazo: dict) -> None:
    match_id = porrazo["id"]
    match = peg(client, match_id, COUNTS)
    played = match["rounds"][0]
    assert played["scores"] == totals(16, 0, 0)
    assert played["explanation"] == [
        "Card count: Ana has 29, 16 more than the next (13).",
        "The hand is over: Bo deals next.",
    ]
    assert match["state"] == {"dealer": "Bo", "pending": None}
    tie = {"event": "cards", "counts": {"Ana": 20, "Bo": 20, "Cy": 12}}
    match = peg(client, match_id, tie)
    assert match["rounds"][1]["scores"] == totals(0, 0, 0)
    assert match["rounds"][1]["explanation"] == [
        "Card count: Ana and Bo tie with 20: nobody scores.",
        "The hand is over: Cy deals next.",
    ]
    assert match["state"]["dealer"] == "Cy"
    match = peg(client, match_id, {"event": "cards", "counts": {"Ana": 10, "Bo": 12, "Cy": 30}})
    assert match["state"]["dealer"] == "Ana"
    assert match["totals"] == totals(16, 0, 18)


@pytest.mark.parametrize(
    ("card_count", "score"),
    [pytest.param("difference", 6, id="difference"), pytest.param("over_half", 3, id="over-half")],
)
def test_card_count_options(client: FlaskClient, card_count: str, score: int) -> None:
    # RULES.md: 29 vs 23 scores 6 by difference, 3 over 26.
    match = start(client, ["Ana", "Bo"], card_count=card_count, first_dealer="Bo")
    match = peg(client, match["id"], {"event": "cards", "counts": {"Ana": 29, "bo": 23}})
    assert match["rounds"][0]["input"]["counts"] == {"Ana": 29, "Bo": 23}
    assert match["totals"] == {"Ana": score, "Bo": 0}
    assert match["state"]["dealer"] == "Ana"


def test_card_count_by_team_or_by_a_player_of_it(client: FlaskClient, partners: dict) -> None:
    match = peg(
        client,
        partners["id"],
        {"event": "cards", "counts": {"Us": 30, "Them": 22}},
        {"event": "cards", "counts": {"Cy": 20, "Bo": 32}},
    )
    assert [r["scores"] for r in match["rounds"]] == [
        {"Us": 8, "Them": 0},
        {"Us": 0, "Them": 12},
    ]
    assert match["state"]["dealer"] == "Cy"


# --- refused events ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "field", "words"),
    [
        pytest.param(
            by("Ana", "san_benito", "6"), "rank", "San Benito takes no rank.", id="rank-not-wanted"
        ),
        pytest.param({"event": "confirm", "rank": "6"}, "rank", "takes no rank", id="confirm-rank"),
        pytest.param(
            by("Ana", "ronda"), "rank", "Ronda needs the rank of its cards.", id="missing-rank"
        ),
        pytest.param(
            by("Ana", "in_place", "5"),
            "rank",
            "A card in place is an A, 2, 3 or 4.",
            id="in-place-5",
        ),
        pytest.param(by("Ana", "ronda", "Z"), "rank", "'Z' is not a card rank", id="bad-rank"),
        pytest.param(
            by("Ana", "porrazo", "6", limpia="Z"),
            "limpia",
            "'Z' is not a card rank",
            id="bad-limpia-rank",
        ),
        pytest.param(
            by("Ana", "tendido", pairs=[["2", "4"]], table=[]),
            "pairs",
            "A tendido is four cards in two pairs",
            id="tendido-one-pair",
        ),
        pytest.param(
            by("Ana", "tendido", pairs=[["2", "4"], ["7"]], table=[]),
            "pairs.1",
            "Each pair of the tendido has two cards.",
            id="tendido-short-pair",
        ),
        pytest.param(
            by("Ana", "tendido", pairs=[["Q", "Q"], ["Q", "4"]], table=["Q", "Q"]),
            "table",
            "A pack has four Qs, not 5.",
            id="tendido-five-queens",
        ),
        pytest.param(
            {"event": "cards", "counts": {"Ana": 20, "Bo": 20, "Cy": 10}},
            "counts",
            "The cards must add up to 52: 20 + 20 + 10 = 50.",
            id="counts-50",
        ),
        pytest.param(
            {"event": "cards", "counts": {"Ana": 30, "Bo": 22}},
            "counts.Cy",
            "Give the cards Cy won.",
            id="counts-without-Cy",
        ),
        pytest.param(
            {"event": "cards", "counts": {"Ana": 60, "Bo": -8, "Cy": 0}},
            "counts.Ana",
            "A side wins 0 to 52 cards.",
            id="counts-60",
        ),
        pytest.param(
            by("Zed", "ronda", "K"),
            "player",
            "'Zed' is not a player in this match: Ana, Bo and Cy.",
            id="unknown-player",
        ),
        pytest.param({"event": "ronda", "rank": "K"}, "player", "Say who pegs.", id="no-player"),
        pytest.param(
            {"event": "confirm", "player": "Ana"},
            "player",
            "It stands is nobody's own peg: leave out player.",
            id="confirm-by-a-player",
        ),
        pytest.param(by("Ana", "dance"), "event", "The event is one of", id="unknown-event"),
        pytest.param(
            by("Ana", "ronda", "K", limpia="2"),
            "limpia",
            "Ronda has no field 'limpia'.",
            id="limpia-on-a-ronda",
        ),
        pytest.param(
            {"event": "rondas", "declared": {"Ana": ["7", "8"]}},
            "declared.Ana",
            "Ana declares a pair or three of a kind",
            id="rondas-not-a-pair",
        ),
        pytest.param(
            {"event": "rondas", "declared": {"Zed": ["7", "7"]}},
            "declared.Zed",
            "not a player",
            id="rondas-unknown-player",
        ),
        pytest.param(
            by("Ana", "counter_porrazo", "K"),
            "event",
            "Counter-porrazo answers a pending porrazo, and none is waiting.",
            id="counter-without-porrazo",
        ),
        pytest.param(
            CONFIRM,
            "event",
            "Nothing is waiting: there is no porrazo to confirm.",
            id="confirm-nothing",
        ),
    ],
)
def test_refused_events_change_nothing(
    client: FlaskClient, porrazo: dict, event: dict, field: str, words: str
) -> None:
    match_id = peg(client, porrazo["id"], ANA_RONDA_K)["id"]
    with unchanged(client, match_id):
        refused(send(client, "POST", rounds_url(match_id), event), 422, field, words)


@pytest.mark.parametrize(
    ("event", "field", "words"),
    [
        pytest.param(
            by("Cy", "counter_porrazo", "7"),
            "rank",
            "A counter-porrazo matches the porrazo's 6.",
            id="counter-of-another-rank",
        ),
        pytest.param(
            by("Cy", "san_benito"),
            "event",
            "San Benito answers a pending counter-porrazo, and none is waiting.",
            id="san-benito-on-a-porrazo",
        ),
    ],
)
def test_refused_answers_to_a_pending_porrazo(
    client: FlaskClient, porrazo: dict, event: dict, field: str, words: str
) -> None:
    match_id = peg(client, porrazo["id"], BO_PORRAZO)["id"]
    with unchanged(client, match_id):
        refused(send(client, "POST", rounds_url(match_id), event), 422, field, words)


def test_a_team_name_is_not_a_player_each_for_themselves(client: FlaskClient, porrazo: dict):
    with unchanged(client, porrazo["id"]):
        refused(
            send(client, "POST", rounds_url(porrazo["id"]), by("Us", "ronda", "K")),
            422,
            "player",
            "'Us' is not a player",
        )


# --- who may peg what, and when (RULES.md §5, December 2026) ---------------------------------
# Each refusal names who may do it, is 422 when the peg is added, and changes nothing; a change to
# an earlier peg that makes a later one impossible is a conflict (409).

FIVE_SEVENS = {"event": "rondas", "declared": {"Ana": ["7", "7"], "Cy": ["7", "7", "7"]}}


@pytest.mark.parametrize(
    ("before", "event", "field", "message"),
    [
        pytest.param(
            [BO_PORRAZO],
            by("Bo", "counter_porrazo", "6", limpia="6"),
            "player",
            "The counter-porrazo to Bo's porrazo of 6 is made by Cy, the next player, not Bo.",
            id="counter-by-the-porrazos-maker",
        ),
        pytest.param(
            [BO_PORRAZO],
            by("Ana", "counter_porrazo", "6"),
            "player",
            "The counter-porrazo to Bo's porrazo of 6 is made by Cy, the next player, not Ana.",
            id="counter-by-the-player-after-next",
        ),
        pytest.param(
            [BO_PORRAZO, CY_COUNTER],
            by("Cy", "san_benito"),
            "player",
            "The San Benito to Cy's counter-porrazo of 6 is made by Ana, the next player, not Cy.",
            id="san-benito-by-the-counters-maker",
        ),
        pytest.param(
            [BO_PORRAZO, CY_COUNTER],
            by("Bo", "san_benito"),
            "player",
            "The San Benito to Cy's counter-porrazo of 6 is made by Ana, the next player, not Bo.",
            id="san-benito-by-the-porrazos-maker",
        ),
        pytest.param(
            [],
            T1 | {"player": "Bo"},
            "player",
            "The tendido is laid by the dealer, Ana, not Bo.",
            id="tendido-by-a-player-not-dealing",
        ),
        pytest.param(
            [T1],
            T2,
            "event",
            "Ana has laid this turn's tendido already: the next is Bo's, once the card count "
            "passes the deal on.",
            id="second-tendido",
        ),
        pytest.param(
            [T1, ANA_RONDA_K, BO_PORRAZO, CONFIRM],
            T2,
            "event",
            "Ana has laid this turn's tendido already: the next is Bo's, once the card count "
            "passes the deal on.",
            id="second-tendido-later-in-the-turn",
        ),
        pytest.param(
            [T1, COUNTS],
            T1,
            "player",
            "The tendido is laid by the dealer, Bo, not Ana.",
            id="tendido-after-the-deal-passed-on",
        ),
        pytest.param(
            [],
            FIVE_SEVENS,
            "declared",
            "Ana and Cy declare 5 7s between them, and a pack has four: correct what each of "
            "them holds.",
            id="five-sevens-declared",
        ),
    ],
)
def test_plays_the_table_cannot_make_are_refused(
    client: FlaskClient, porrazo: dict, before: list, event: dict, field: str, message: str
) -> None:
    match_id = peg(client, porrazo["id"], *before)["id"]
    with unchanged(client, match_id):
        body = refused(send(client, "POST", rounds_url(match_id), event), 422, field, message)
    assert body["error"] == message
    assert body["fields"] == {field: [message]}


def test_the_next_player_answers_and_the_dealer_lays_one_tendido(
    client: FlaskClient, porrazo: dict
) -> None:
    # Ana deals and lays T1 (5); Bo's porrazo of 6, countered by Cy, the next player (3 + 1),
    # stands; the card count (Ana 29 − 13 = 16) passes the deal to Bo, who lays T2 (14).
    match = peg(client, porrazo["id"], T1, BO_PORRAZO, CY_COUNTER, CONFIRM, COUNTS)
    assert match["totals"] == totals(5 + 16, 0, 4)
    assert match["state"] == {"dealer": "Bo", "pending": None}
    match = peg(client, porrazo["id"], T2 | {"player": "Bo"})
    assert match["totals"] == totals(21, 14, 4)


@pytest.mark.parametrize(
    ("before", "event", "message"),
    [
        pytest.param(
            [by("Ana", "porrazo", "Q")],
            by("Cy", "counter_porrazo", "Q"),
            "A counter-porrazo can't go to Us, the side of Ana's porrazo of Q: it is made by Bo, "
            "the next player.",
            id="counter-by-the-partner",
        ),
        pytest.param(
            [by("Ana", "porrazo", "Q")],
            by("Us", "counter_porrazo", "Q"),
            "A counter-porrazo can't go to Us, the side of Ana's porrazo of Q: it is made by Bo, "
            "the next player.",
            id="counter-for-the-makers-team",
        ),
        pytest.param(
            [by("Us", "porrazo", "Q")],
            by("Ana", "counter_porrazo", "Q"),
            "A counter-porrazo can't go to Us, the side of Us's porrazo of Q: it is made by the "
            "next player, for Them.",
            id="counter-to-a-teams-porrazo",
        ),
        pytest.param(
            [by("Ana", "porrazo", "Q"), by("Bo", "counter_porrazo", "Q")],
            by("Di", "san_benito"),
            "A San Benito can't go to Them, the side of Bo's counter-porrazo of Q: it is made by "
            "Cy, the next player.",
            id="san-benito-by-the-partner",
        ),
        pytest.param(
            [by("Ana", "porrazo", "Q"), by("Bo", "counter_porrazo", "Q")],
            by("Them", "san_benito"),
            "A San Benito can't go to Them, the side of Bo's counter-porrazo of Q: it is made by "
            "Cy, the next player.",
            id="san-benito-for-the-makers-team",
        ),
    ],
)
def test_in_partnerships_an_answer_for_the_makers_own_side_is_refused(
    client: FlaskClient, partners: dict, before: list, event: dict, message: str
) -> None:
    match_id = peg(client, partners["id"], *before)["id"]
    with unchanged(client, match_id):
        body = refused(send(client, "POST", rounds_url(match_id), event), 422, "player", message)
    assert body["error"] == message
    assert api_match(client, match_id)["status"] == "playing"


def test_in_partnerships_the_dealers_side_lays_the_tendido(
    client: FlaskClient, partners: dict
) -> None:
    match_id = partners["id"]
    with unchanged(client, match_id):
        refused(
            send(client, "POST", rounds_url(match_id), T1 | {"player": "Them"}),
            422,
            "player",
            "The tendido is laid by the dealer, Ana, not Them.",
        )
    assert peg(client, match_id, T1 | {"player": "Us"})["totals"] == {"Us": 5, "Them": 0}


@pytest.mark.parametrize(
    ("before", "event", "message"),
    [
        pytest.param(
            [],
            by("Bo", "porrazo", "Q", limpia="2"),
            "Runs stop at the king in this match: a limpia made by Bo's Q ends on a card from Q "
            "to K, not on 2.",
            id="porrazo",
        ),
        pytest.param(
            [by("Ana", "porrazo", "9")],
            by("Bo", "counter_porrazo", "9", limpia="8"),
            "Runs stop at the king in this match: a limpia made by Bo's 9 ends on a card from 9 "
            "to K, not on 8.",
            id="counter-porrazo",
        ),
    ],
)
def test_without_wrap_a_limpia_below_the_card_played_is_refused(
    client: FlaskClient, before: list, event: dict, message: str
) -> None:
    # RULES.md: table A-2-Q-K, play Q captures Q-K-A-2 (1) only when runs wrap.
    match_id = start(client, wrap=False)["id"]
    peg(client, match_id, *before)
    with unchanged(client, match_id):
        body = refused(send(client, "POST", rounds_url(match_id), event), 422, "limpia", message)
    assert body["error"] == message
    wrapping = start(client)["id"]
    match = peg(client, wrapping, by("Bo", "porrazo", "Q", limpia="2"))
    assert match["state"]["pending"] == pending("porrazo", "Bo", "Q", 3 + 1)


def test_correction_that_leaves_a_counter_by_the_porrazos_maker_is_a_conflict(
    client: FlaskClient, porrazo: dict
) -> None:
    # Bo's porrazo, Cy's counter: making the porrazo Cy's leaves Cy answering himself.
    match_id = peg(client, porrazo["id"], BO_PORRAZO, CY_COUNTER)["id"]
    with unchanged(client, match_id):
        body = refused(
            send(client, "PUT", rounds_url(match_id, 1), BO_PORRAZO | {"player": "Cy"}), 409
        )
    assert body["error"] == (
        "With this change, peg 2 could no longer be scored: "
        "The counter-porrazo to Cy's porrazo of 6 is made by Ana, the next player, not Cy."
    )
    assert body["fields"] == {}


def test_removing_the_card_count_between_two_tendidos_is_a_conflict(
    client: FlaskClient, porrazo: dict
) -> None:
    match_id = peg(client, porrazo["id"], T1, COUNTS, T2 | {"player": "Bo"})["id"]
    with unchanged(client, match_id):
        body = refused(client.delete(rounds_url(match_id, 2)), 409)
    assert body["error"] == (
        "With this change, peg 2 could no longer be scored: "
        "The tendido is laid by the dealer, Ana, not Bo."
    )
    # Correcting the tendido itself into one Bo's turn can't have is refused at its field.
    with unchanged(client, match_id):
        refused(
            send(client, "PUT", rounds_url(match_id, 3), T2),
            422,
            "player",
            "The tendido is laid by the dealer, Bo, not Ana.",
        )


# --- undo and corrections ---------------------------------------------------------------------


def test_undoing_the_last_event_restores_totals_and_pending(client: FlaskClient, porrazo: dict):
    match_id = porrazo["id"]
    peg(client, match_id, ANA_RONDA_K, BO_PORRAZO, CY_COUNTER, CONFIRM)
    response = client.delete(rounds_url(match_id, 4))
    assert response.status_code == 200, response.json
    match = response.json["match"]
    assert len(match["rounds"]) == 3
    assert match["totals"] == totals(4, 0, 0)
    assert match["state"]["pending"] == pending("counter_porrazo", "Cy", "6", 4)
    response = client.delete(rounds_url(match_id, 3))
    assert response.status_code == 200, response.json
    match = response.json["match"]
    assert match["totals"] == totals(4, 0, 0)
    assert match["state"]["pending"] == pending("porrazo", "Bo", "6", 2)
    assert api_match(client, match_id) == match
    log = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert [(c["action"], c["n"]) for c in log][-2:] == [("remove", 4), ("remove", 3)]
    assert (log[-1]["replaced"], log[-2]["replaced"]) == (CY_COUNTER, CONFIRM)


def test_undoing_the_winning_confirm_reopens_the_match(client: FlaskClient, at_the_edge: dict):
    match_id = at_the_edge["id"]
    peg(client, match_id, CONFIRM)
    response = client.delete(rounds_url(match_id, 3))
    assert response.status_code == 200, response.json
    match = response.json["match"]
    assert (match["status"], match["winner"]) == ("playing", None)
    assert match["totals"] == totals(0, 4, 0)
    assert match["state"]["pending"] == pending("porrazo", "Bo", "6", 1)
    match = peg(client, match_id, by("Cy", "counter_porrazo", "6"))
    assert match["state"]["pending"] == pending("counter_porrazo", "Cy", "6", 3)


def test_dealing_on_is_undone_with_the_card_count(client: FlaskClient, porrazo: dict) -> None:
    match_id = peg(client, porrazo["id"], COUNTS)["id"]
    match = client.delete(rounds_url(match_id, 1)).json["match"]
    assert match["state"] == {"dealer": "Ana", "pending": None}
    assert match["totals"] == totals(0, 0, 0)


def test_correcting_an_early_event_rescores_later_ones(client: FlaskClient, porrazo: dict):
    match_id = porrazo["id"]
    peg(client, match_id, ANA_RONDA_K, BO_PORRAZO, by("Cy", "ronda", "Q"))
    response = send(client, "PUT", rounds_url(match_id, 2), by("Bo", "porrazo", "J", limpia="K"))
    assert response.status_code == 200, response.json
    corrected, match = response.json["round"], response.json["match"]
    assert corrected["input"] == {"player": "Bo", "event": "porrazo", "rank": "J", "limpia": "K"}
    assert corrected["pending"] == pending("porrazo", "Bo", "J", 6)
    assert corrected["corrected_at"] is not None
    assert match["rounds"][2]["explanation"] == [
        "Bo's porrazo of J stands: +6.",
        "Ronda of Q by Cy: 3.",
    ]
    assert [r["totals"] for r in match["rounds"]] == [
        totals(4, 0, 0),
        totals(4, 0, 0),
        totals(4, 6, 3),
    ]
    assert match["totals"] == totals(4, 6, 3)
    log = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert (log[-1]["action"], log[-1]["n"], log[-1]["replaced"]) == ("correct", 2, BO_PORRAZO)


def test_correction_that_breaks_the_following_counter_is_a_conflict(
    client: FlaskClient, porrazo: dict
) -> None:
    match_id = peg(client, porrazo["id"], BO_PORRAZO, CY_COUNTER)["id"]
    with unchanged(client, match_id):
        body = refused(
            send(client, "PUT", rounds_url(match_id, 1), by("Bo", "porrazo", "7", limpia="7")), 409
        )
    assert body["error"] == (
        "With this change, peg 2 could no longer be scored: "
        "A counter-porrazo matches the porrazo's 7."
    )


def test_correction_that_leaves_a_later_porrazo_waiting_is_a_conflict(client: FlaskClient):
    # Target 5: Bo 1, then a porrazo (1) that stands as Ana pegs. With a ronda of kings first,
    # the porrazo would reach 5 and Ana's ronda could no longer be pegged before it is settled.
    match_id = start(client, target=5)["id"]
    peg(client, match_id, by("Bo", "ronda", "2"), by("Bo", "porrazo", "6"), by("Ana", "ronda", "2"))
    with unchanged(client, match_id):
        body = refused(send(client, "PUT", rounds_url(match_id, 1), by("Bo", "ronda", "K")), 409)
    assert body["error"] == f"With this change, peg 3 could no longer be scored: {WAIT_AT_5}"


def test_removing_the_porrazo_a_counter_answers_is_a_conflict(client: FlaskClient, porrazo: dict):
    match_id = peg(client, porrazo["id"], BO_PORRAZO, CY_COUNTER)["id"]
    with unchanged(client, match_id):
        body = refused(client.delete(rounds_url(match_id, 1)), 409)
    assert body["error"].startswith("With this change, peg 1 could no longer be scored:")
    assert "Counter-porrazo answers a pending porrazo, and none is waiting." in body["error"]


def test_correcting_a_peg_into_a_bad_one_is_refused(client: FlaskClient, porrazo: dict):
    match_id = peg(client, porrazo["id"], ANA_RONDA_K)["id"]
    with unchanged(client, match_id):
        refused(
            send(client, "PUT", rounds_url(match_id, 1), by("Ana", "in_place", "9")),
            422,
            "rank",
            "A card in place is an A, 2, 3 or 4.",
        )


# --- reading and filling the pages ------------------------------------------------------------


def radios(doc: Node, name: str) -> list[tuple[str, str]]:
    """Return each radio of a group: its value and the text of its label."""
    return [(node.attrs["value"], node.parent.text()) for node in doc.find_all("input", name=name)]


def selected(doc: Node, name: str) -> str | None:
    """Return the value chosen in a select box."""
    box = doc.find("select", name=name)
    chosen = [node.attrs["value"] for node in box.find_all("option") if "selected" in node.attrs]
    return chosen[0] if chosen else None


def track(doc: Node) -> str:
    """Return the text of the track's caption."""
    figure = doc.find("figure", "board")
    assert figure is not None, "no track on the page"
    return figure.find("figcaption").text()


def sheet_rows(doc: Node) -> list[dict[str, Any]]:
    """Read the peg sheet: per peg its number, what it was, who dealt, the totals after and the
    reasons."""
    table = doc.find("table", "sheet")
    names = [th.text() for th in table.find("thead").find_all("th")][2:]
    rows = []
    for body in table.find_all("tbody"):
        row = body.find("tr")
        cells = row.find_all("td")
        dealt = cells[0].find("small", "dealer")
        dealer = dealt.text() if dealt else ""
        rows.append(
            {
                "n": int(row.find("th").text()),
                "peg": cells[0].text().removesuffix(" " + dealer),
                "dealt_by": dealer,
                "totals": {n: int(c.text()) for n, c in zip(names, cells[1:], strict=True)},
                "why": [li.text() for li in body.find("tr", "why").find_all("li")],
            }
        )
    return rows


def waiting(doc: Node) -> list[str]:
    """Return what the form says is waiting to be settled."""
    form = doc.find("form", "round-form")
    return [node.text() for node in form.find_all("p", "alert", role="status")]


PORRAZO_FORM = {"player": "Bo", "event": "porrazo", "rank": "6", "limpia": "7"}


# --- the new-match page -----------------------------------------------------------------------


def test_new_match_page_offers_both_layouts(client: FlaskClient) -> None:
    response = client.get("/matches/new/porrazo")
    assert response.status_code == 200
    doc = parse(response)
    links = doc.find("nav", "layouts").find_all("a")
    assert [(a.text(), a.attrs["href"]) for a in links] == [
        ("Each for themselves", "/matches/new/porrazo?layout=alone"),
        ("Partnerships", "/matches/new/porrazo?layout=partners"),
    ]
    assert links[0].attrs.get("aria-current") == "page"
    [names] = doc.find_all("fieldset", "names")
    assert names.find("legend").text() == "Players, in seating order (2–8)"
    assert [node.attrs["name"] for node in names.find_all("input")] == [
        f"players-{seat}" for seat in range(8)
    ]
    shown = values(doc)
    assert (shown["option_card_count"], shown["option_wrap"]) == ("difference", True)
    assert (shown["option_target"], shown["option_first_dealer"]) == ("", "Player 1")


def test_partnerships_page_shows_two_teams(client: FlaskClient) -> None:
    response = client.get("/matches/new/porrazo?layout=partners")
    assert response.status_code == 200
    doc = parse(response)
    links = doc.find("nav", "layouts").find_all("a")
    assert [a.attrs.get("aria-current") for a in links] == [None, "page"]
    teams = doc.find_all("fieldset", "names")
    assert [team.find("legend").text() for team in teams] == ["Team 1", "Team 2"]
    for i, team in enumerate(teams):
        assert [node.attrs["name"] for node in team.find_all("input")] == [
            f"team_{i}",
            *(f"team_{i}_players-{seat}" for seat in range(4)),
        ]


def test_partnerships_page_starts_a_partnership_match(client: FlaskClient) -> None:
    typed = {
        "team_0": "Us",
        "team_0_players-0": "Ana",
        "team_0_players-1": "Cy",
        "team_1": "Them",
        "team_1_players-0": "Bo",
        "team_1_players-1": "Di",
        "option_card_count": "over_half",
        "option_wrap": "y",
        "option_first_dealer": "Player 2",
    }
    response = client.post("/matches/new/porrazo?layout=partners", data=typed)
    assert response.status_code == 302, (field_errors(parse(response)), alerts(parse(response)))
    match = opened_match(client, response)
    assert match["players"] == ["Ana", "Bo", "Cy", "Di"]
    assert match["teams"] == TEAMS
    assert match["options"] == DEFAULTS | {"card_count": "over_half", "first_dealer": "Bo"}
    assert match["totals"] == {"Us": 0, "Them": 0}
    doc = parse(client.get(f"/matches/{match['id']}"))
    assert track(doc) == "Us 0, Them 0 of 61. Bo deals."


def test_new_match_page_starts_a_match_each_for_themselves(client: FlaskClient) -> None:
    typed = {"players-0": "Ana", "players-1": " Bo ", "players-2": "Cy"}
    typed |= {"option_target": "31", "option_card_count": "difference"}
    typed |= {"option_first_dealer": "Player 3"}  # no option_wrap: the box is unticked
    response = client.post("/matches/new/porrazo", data=typed)
    assert response.status_code == 302
    match = api_match(client, newest_match_id(client))
    assert (match["players"], match["teams"]) == (PLAYERS, None)
    assert match["options"] == {
        "target": 31,
        "card_count": "difference",
        "wrap": False,
        "first_dealer": "Cy",
    }
    doc = parse(client.get(f"/matches/{match['id']}"))
    assert track(doc) == "Ana 0, Bo 0, Cy 0 of 31. Cy deals."


def test_new_match_page_refuses_over_half_for_three(client: FlaskClient) -> None:
    typed = {"players-0": "Ana", "players-1": "Bo", "players-2": "Cy"}
    typed |= {"option_card_count": "over_half", "option_first_dealer": "Player 1"}
    response = client.post("/matches/new/porrazo", data=typed)
    assert response.status_code == 422
    errors = field_errors(parse(response))
    assert errors == {"option_card_count": ["Counting cards over 26 needs exactly two sides."]}
    assert client.get("/api/matches").json["total"] == 0


# --- the match page and the peg form ----------------------------------------------------------


def test_fresh_match_page_shows_the_track_and_the_peg_form(client: FlaskClient, porrazo: dict):
    doc = parse(client.get(f"/matches/{porrazo['id']}"))
    figure = doc.find("figure", "board")
    svg = figure.find("svg")
    assert (svg.attrs["role"], svg.attrs["aria-labelledby"]) == ("img", "track-text")
    assert figure.find("figcaption").attrs["id"] == "track-text"
    assert track(doc) == "Ana 0, Bo 0, Cy 0 of 61. Ana deals."
    assert [t.text() for t in svg.find_all("text", "board-team")] == PLAYERS
    assert [t.text() for t in svg.find_all("text", "peg-label")] == ["0", "0", "0"]
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{porrazo['id']}/rounds"
    assert radios(form, "player") == [(name, name) for name in PLAYERS]
    assert radios(form, "event") == EVENTS
    assert radios(form, "rank") == [(rank, rank) for rank in RANKS]
    assert radios(form, "limpia") == [("", "None"), *((rank, rank) for rank in RANKS)]
    assert values(form)["limpia"] == ""
    assert [node.text() for node in form.find("fieldset", id="rank").find_all("legend")] == ["Rank"]
    assert [node.attrs["name"] for node in form.find_all("select")] == [
        *(f"pair_cards-{i}" for i in range(4)),
        "capture_played",
    ]
    assert [form.find("label", for_=f"counts-{i}").text() for i in range(3)] == PLAYERS
    assert [form.find("label", for_=f"declared-{i}").text() for i in range(3)] == PLAYERS
    assert waiting(doc) == []
    assert doc.find("form", "undo") is None


def test_partnership_match_page_pegs_by_team(client: FlaskClient, partners: dict) -> None:
    match_id = partners["id"]
    peg(client, match_id, by("Cy", "ronda", "K"))
    doc = parse(client.get(f"/matches/{match_id}"))
    assert track(doc) == "Us 4, Them 0 of 61. Ana deals."
    form = doc.find("form", "round-form")
    assert radios(form, "player") == [
        (name, name) for name in ("Ana", "Bo", "Cy", "Di", "Us", "Them")
    ]
    assert [form.find("label", for_=f"counts-{i}").text() for i in range(2)] == ["Us", "Them"]
    assert [form.find("label", for_=f"declared-{i}").text() for i in range(4)] == [
        "Ana",
        "Bo",
        "Cy",
        "Di",
    ]


def test_pegging_through_the_form_shows_a_provisional_row(client: FlaskClient, porrazo: dict):
    match_id = porrazo["id"]
    response = post_peg(client, match_id, PORRAZO_FORM)
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    recorded = api_match(client, match_id)["rounds"][0]["id"]
    assert (location.path, location.query) == (f"/matches/{match_id}", f"recorded={recorded}")
    [played] = api_match(client, match_id)["rounds"]
    assert played["input"] == BO_PORRAZO
    doc = parse(client.get(response.headers["Location"]))
    assert doc.find("form", "notice").find("span").text() == "Peg 1 recorded."
    [row] = sheet_rows(doc)
    assert row["n"] == 1
    assert row["peg"] == "Bo · Porrazo 6 provisional"
    assert row["dealt_by"] == "dealt by Ana"
    assert row["totals"] == totals(0, 0, 0)
    assert row["why"] == played["explanation"]
    assert doc.find("td", "deal").find("span", "result").text() == "provisional"
    assert waiting(doc) == [
        "Waiting: Bo's porrazo of 6 (2) stands unless the next player matches — peg the "
        'counter-porrazo, or "It stands".'
    ]
    assert doc.find("h2", id="round-form-title").text() == "Peg 2"


def test_sheet_and_track_after_the_porrazo_stands(client: FlaskClient, porrazo: dict) -> None:
    match_id = porrazo["id"]
    post_peg(client, match_id, PORRAZO_FORM)
    response = post_peg(client, match_id, {"event": "confirm", "player": "Ana", "rank": "K"})
    assert response.status_code == 302
    assert api_match(client, match_id)["rounds"][1]["input"] == CONFIRM
    doc = parse(client.get(f"/matches/{match_id}"))
    rows = sheet_rows(doc)
    assert [row["peg"] for row in rows] == ["Bo · Porrazo 6 provisional", "It stands"]
    assert rows[1]["totals"] == totals(0, 2, 0)
    assert rows[1]["why"] == ["Bo's porrazo of 6 stands: +2."]
    assert track(doc) == "Ana 0, Bo 2, Cy 0 of 61. Ana deals."
    assert waiting(doc) == []


def test_undo_last_peg_button_removes_the_last_event(client: FlaskClient, porrazo: dict):
    match_id = porrazo["id"]
    peg(client, match_id, ANA_RONDA_K, BO_PORRAZO, CONFIRM)
    doc = parse(client.get(f"/matches/{match_id}"))
    assert track(doc) == "Ana 4, Bo 2, Cy 0 of 61. Ana deals."
    undo = doc.find("form", "undo")
    assert undo.attrs["action"] == f"/matches/{match_id}/rounds/3/remove"
    assert undo.find("button").text() == "Undo last peg (3)"
    last = api_match(client, match_id)["rounds"][2]
    sent = {node.attrs["name"]: node.attrs["value"] for node in undo.find_all("input")}
    assert sent.pop("csrf_token")
    assert sent == {"round_id": str(last["id"]), "version": "1", "undo": "1"}
    response = client.post(undo.attrs["action"], data=sent)
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert (location.path, location.query) == (f"/matches/{match_id}", f"undone={last['id']}")
    match = api_match(client, match_id)
    assert len(match["rounds"]) == 2
    assert match["totals"] == totals(4, 0, 0)
    assert match["state"]["pending"] == pending("porrazo", "Bo", "6", 2)
    doc = parse(client.get(response.headers["Location"]))
    assert doc.find("form", "notice").find("span").text() == (
        "Peg 3 taken back: it is in the form below to fix and record again."
    )
    assert track(doc) == "Ana 4, Bo 0, Cy 0 of 61. Ana deals."
    assert doc.find("form", "undo").find("button").text() == "Undo last peg (2)"
    assert len(waiting(doc)) == 1


def test_tendido_helper_shows_the_best_count_and_stores_nothing(
    client: FlaskClient, porrazo: dict
) -> None:
    match_id = porrazo["id"]
    typed = {"player": "Ana", "event": "tendido", "preview": "tendido"}
    typed |= {f"pair_cards-{i}": card for i, card in enumerate(["2", "4", "7", "3"])}
    with unchanged(client, match_id):
        response = post_peg(client, match_id, typed)
        assert response.status_code == 200
    doc = parse(response)
    preview = [p.text() for p in doc.find("div", "preview").find_all("p")]
    assert preview == ["Best count 5, laid 4-2-3-7.", "Best row 4-2-3-7: cards in place 5."]
    # The answer sits under the button that asked, and the page opens there.
    tendido = doc.find("fieldset", "tendido")
    assert tendido.find("div", "preview").attrs["id"] == "tendido-answer"
    asked = tendido.find("button", name="preview")
    assert asked.attrs["formaction"] == f"/matches/{match_id}/rounds#tendido-answer"
    assert doc.find("details", "capture").find("div", "preview") is None
    assert [selected(doc, f"pair_cards-{i}") for i in range(4)] == ["2", "4", "7", "3"]
    shown = values(doc)
    assert (shown["player"], shown["event"]) == ("Ana", "tendido")
    assert alerts(doc) == []
    assert field_errors(doc) == {}


def test_tendido_helper_with_cards_on_the_table(client: FlaskClient, porrazo: dict) -> None:
    typed = {"event": "tendido", "preview": "tendido", "table_cards": "5 6 q"}
    typed |= {f"pair_cards-{i}": card for i, card in enumerate(["4", "Q", "4", "Q"])}
    doc = parse(post_peg(client, porrazo["id"], typed))
    preview = [p.text() for p in doc.find("div", "preview").find_all("p")]
    assert preview[0] == "Best count 14, laid Q-4-Q-4."
    assert preview[1:] == [
        "Best row Q-4-Q-4: cards in place 4.",
        "a pair of 4 on the table: 1.",
        "three of Q on the table: 9.",
    ]
    assert values(doc)["table_cards"] == "5 6 q"


def test_tendido_helper_with_a_pair_missing_says_so(client: FlaskClient, porrazo: dict) -> None:
    typed = {"event": "tendido", "preview": "tendido", "pair_cards-0": "2", "pair_cards-1": "4"}
    with unchanged(client, porrazo["id"]):
        response = post_peg(client, porrazo["id"], typed)
        assert response.status_code == 200
    preview = [p.text() for p in parse(response).find("div", "preview").find_all("p")]
    assert len(preview) == 1
    assert "Best count" not in preview[0]


@pytest.mark.parametrize(
    ("wrap", "table", "played", "said"),
    [
        pytest.param(True, "A 2 Q K", "Q", "Captures Q-K-A-2: a limpia worth 1.", id="wrap"),
        pytest.param(False, "A 2 Q K", "Q", "Captures Q-K; no limpia.", id="no-wrap"),
        pytest.param(True, "8 9 10 J", "8", "Captures 8-9-10-J: a limpia worth 2.", id="8-to-J"),
        pytest.param(True, "q", "Q", "Captures Q: a limpia worth 3.", id="lone-queen"),
        pytest.param(True, "4 5 9", "4", "Captures 4-5; no limpia.", id="run-left-a-9"),
        pytest.param(True, "4 5", "7", "A 7 captures nothing here.", id="nothing"),
    ],
)
def test_capture_helper_says_what_a_card_captures(
    client: FlaskClient, wrap: bool, table: str, played: str, said: str
) -> None:
    match_id = start(client, wrap=wrap)["id"]
    typed = {"capture_table": table, "capture_played": played, "preview": "capture"}
    with unchanged(client, match_id):
        response = post_peg(client, match_id, typed)
        assert response.status_code == 200
    doc = parse(response)
    assert [p.text() for p in doc.find("div", "preview").find_all("p")] == [said]
    assert values(doc)["capture_table"] == table
    assert selected(doc, "capture_played") == played
    assert "open" in doc.find("details", "capture").attrs


def test_bad_peg_keeps_the_values_and_shows_the_message_by_the_rank(
    client: FlaskClient, porrazo: dict
) -> None:
    match_id = porrazo["id"]
    with unchanged(client, match_id):
        response = post_peg(client, match_id, {"player": "Cy", "event": "ronda"})
        assert response.status_code == 422
    doc = parse(response)
    assert field_errors(doc) == {"rank": ["Ronda needs the rank of its cards."]}
    assert "invalid" in doc.find("fieldset", id="rank").attrs["class"].split()
    assert alerts(doc) == ["Nothing was saved: fix the fields marked below."]
    shown = values(doc)
    assert (shown["player"], shown["event"], shown["rank"]) == ("Cy", "ronda", None)


@pytest.mark.parametrize(
    ("typed", "field", "words"),
    [
        pytest.param(
            {"event": "cards", "counts-0": "20", "counts-1": "20", "counts-2": "10"},
            "counts-0",  # the sum is shown by the first box
            "The cards must add up to 52: 20 + 20 + 10 = 50.",
            id="counts-50",
        ),
        pytest.param(
            {"event": "cards", "counts-0": "30", "counts-1": "22"},
            "counts-2",
            "Give the cards Cy won.",
            id="counts-without-Cy",
        ),
        pytest.param(
            {"player": "Ana", "event": "in_place", "rank": "5"},
            "rank",
            "A card in place is an A, 2, 3 or 4.",
            id="in-place-5",
        ),
        pytest.param({"event": "ronda", "rank": "K"}, "player", "Say who pegs.", id="nobody-pegs"),
        pytest.param(
            {"event": "rondas", "declared-1": "7 8"},
            "declared-1",
            "Bo declares a pair or three of a kind",
            id="rondas-not-a-pair",
        ),
        pytest.param(
            {"player": "Cy", "event": "san_benito", "rank": "4"},
            "event",
            "San Benito answers a pending counter-porrazo, and none is waiting.",
            id="san-benito-without-a-counter",
        ),
    ],
)
def test_bad_peg_form_shows_the_refusal_by_its_field(
    client: FlaskClient, porrazo: dict, typed: dict, field: str, words: str
) -> None:
    match_id = porrazo["id"]
    with unchanged(client, match_id):
        response = post_peg(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    errors = field_errors(doc)
    assert field in errors, (errors, alerts(doc))
    assert words in " ".join(errors[field])


def test_peg_form_refuses_other_events_while_a_porrazo_would_win(
    client: FlaskClient, at_the_edge: dict
) -> None:
    match_id = at_the_edge["id"]
    with unchanged(client, match_id):
        response = post_peg(client, match_id, {"player": "Ana", "event": "ronda", "rank": "K"})
        assert response.status_code == 409
    doc = parse(response)
    assert alerts(doc) == [WAIT_AT_5]
    assert (values(doc)["event"], values(doc)["rank"]) == ("ronda", "K")
    assert waiting(doc) == [
        "Waiting: Bo's porrazo of 6 (1) stands unless the next player matches — peg the "
        'counter-porrazo, or "It stands".'
    ]
    response = post_peg(client, match_id, {"event": "confirm"})
    assert response.status_code == 302
    doc = parse(client.get(f"/matches/{match_id}"))
    assert doc.find("p", "winner").text() == "Bo wins with 5!"
    assert doc.find("form", "round-form") is None
    assert track(doc) == "Ana 0, Bo 5, Cy 0 of 5. Ana deals."


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        pytest.param(
            {"player": "Ana", "event": "ronda", "rank": "K", "limpia": "7"},
            ANA_RONDA_K,
            id="ronda-leaves-the-limpia",
        ),
        pytest.param(
            {"player": "Bo", "event": "porrazo", "rank": "6", "limpia": ""},
            by("Bo", "porrazo", "6"),
            id="porrazo-without-limpia",
        ),
        pytest.param(
            {
                "player": "Ana",
                "event": "tendido",
                "table_cards": "5 6 Q",
                **{f"pair_cards-{i}": card for i, card in enumerate(["4", "Q", "4", "Q"])},
            },
            T2,
            id="tendido",
        ),
        pytest.param(
            {
                "player": "Ana",
                "event": "cards",
                "counts-0": "29",
                "counts-1": "13",
                "counts-2": "10",
            },
            COUNTS,
            id="cards",
        ),
        pytest.param(
            {"player": "Ana", "event": "rondas", "declared-0": "7 7", "declared-2": "5 5 5"},
            {"event": "rondas", "declared": {"Ana": ["7", "7"], "Cy": ["5", "5", "5"]}},
            id="rondas",
        ),
    ],
)
def test_peg_form_sends_only_what_the_event_needs(
    client: FlaskClient, porrazo: dict, typed: dict, stored: dict
) -> None:
    match_id = porrazo["id"]
    response = post_peg(client, match_id, typed)
    assert response.status_code == 302, field_errors(parse(response))
    [played] = api_match(client, match_id)["rounds"]
    assert played["input"] == stored


def offered(doc: Node) -> dict[str, str | None]:
    """Return who the peg form offers the pending answer and the tendido to, as it says it."""
    form = doc.find("form", "round-form")
    answer = form.find("fieldset", id="player").find("p", "help")
    tendido = form.find("p", id="tendido-by")
    return {
        "answer": answer.text() if answer else None,
        "tendido": tendido.text() if tendido else None,
    }


def test_the_peg_form_offers_the_counter_porrazo_to_the_next_player(
    client: FlaskClient, porrazo: dict
) -> None:
    match_id = peg(client, porrazo["id"], BO_PORRAZO)["id"]
    doc = parse(client.get(f"/matches/{match_id}"))
    assert offered(doc) == {
        "answer": "Counter-porrazo: Cy (the next player).",
        "tendido": "Laid by the dealer, Ana, once a turn.",
    }
    shown = values(doc.find("form", "round-form"))
    assert (shown["player"], shown["event"], shown["rank"], shown["limpia"]) == (
        "Cy",
        "counter_porrazo",
        "6",
        "",
    )
    # Sent as shown, the preselected counter-porrazo is Cy's.
    sent = {key: value for key, value in shown.items() if value is not None}
    response = post_peg(client, match_id, sent)
    assert response.status_code == 302, field_errors(parse(response))
    assert api_match(client, match_id)["rounds"][-1]["input"] == by("Cy", "counter_porrazo", "6")


def test_the_peg_form_offers_the_san_benito_without_choosing_it(
    client: FlaskClient, porrazo: dict
) -> None:
    # A San Benito ends the game: its player is chosen, the event is left to tap.
    match_id = peg(client, porrazo["id"], BO_PORRAZO, CY_COUNTER)["id"]
    doc = parse(client.get(f"/matches/{match_id}"))
    assert offered(doc)["answer"] == "San Benito: Ana (the next player)."
    shown = values(doc.find("form", "round-form"))
    assert (shown["player"], shown["event"]) == ("Ana", None)


def test_the_peg_form_offers_nothing_to_answer_when_nothing_waits(
    client: FlaskClient, porrazo: dict
) -> None:
    match_id = peg(client, porrazo["id"], COUNTS)["id"]
    doc = parse(client.get(f"/matches/{match_id}"))
    assert offered(doc) == {"answer": None, "tendido": "Laid by the dealer, Bo, once a turn."}
    shown = values(doc.find("form", "round-form"))
    assert (shown["player"], shown["event"], shown["rank"]) == (None, None, None)


@pytest.mark.parametrize(
    ("porrazo_by", "answer", "chosen"),
    [
        pytest.param("Ana", "Counter-porrazo: Bo (the next player).", "Bo", id="by-a-player"),
        pytest.param("Di", "Counter-porrazo: Ana (the next player).", "Ana", id="round-the-table"),
        pytest.param(
            "Us", "Counter-porrazo: Them (the next player's side).", "Them", id="by-a-team"
        ),
    ],
)
def test_in_partnerships_the_peg_form_offers_the_counter_to_the_other_side(
    client: FlaskClient, partners: dict, porrazo_by: str, answer: str, chosen: str
) -> None:
    match_id = peg(client, partners["id"], by(porrazo_by, "porrazo", "J"))["id"]
    doc = parse(client.get(f"/matches/{match_id}"))
    assert offered(doc)["answer"] == answer
    assert values(doc.find("form", "round-form"))["player"] == chosen


def test_a_tendido_with_no_player_tapped_is_the_dealers(client: FlaskClient, porrazo: dict):
    match_id = peg(client, porrazo["id"], COUNTS)["id"]  # Bo deals now
    typed = {"event": "tendido", "table_cards": ""}
    typed |= {f"pair_cards-{i}": card for i, card in enumerate(["2", "4", "7", "3"])}
    response = post_peg(client, match_id, typed)
    assert response.status_code == 302, field_errors(parse(response))
    assert api_match(client, match_id)["rounds"][-1]["input"] == T1 | {"player": "Bo"}


@pytest.mark.parametrize(
    ("before", "typed", "message"),
    [
        pytest.param(
            [BO_PORRAZO],
            {"player": "Bo", "event": "counter_porrazo", "rank": "6"},
            "The counter-porrazo to Bo's porrazo of 6 is made by Cy, the next player, not Bo.",
            id="counter-by-its-maker",
        ),
        pytest.param(
            [],
            {
                "player": "Cy",
                "event": "tendido",
                **{f"pair_cards-{i}": card for i, card in enumerate(["2", "4", "7", "3"])},
            },
            "The tendido is laid by the dealer, Ana, not Cy.",
            id="tendido-not-dealing",
        ),
    ],
)
def test_the_peg_form_shows_who_may_do_it_by_the_player_chips(
    client: FlaskClient, porrazo: dict, before: list, typed: dict, message: str
) -> None:
    match_id = peg(client, porrazo["id"], *before)["id"]
    with unchanged(client, match_id):
        response = post_peg(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    assert field_errors(doc) == {"player": [message]}
    assert values(doc)["player"] == typed["player"]


# --- correcting a peg through its page --------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "expected", "chosen"),
    [
        pytest.param(
            BO_PORRAZO,
            {"player": "Bo", "event": "porrazo", "rank": "6", "limpia": "7"},
            {},
            id="porrazo",
        ),
        pytest.param(
            by("Bo", "ronda", "Q"),
            {"player": "Bo", "event": "ronda", "rank": "Q", "limpia": ""},
            {},
            id="ronda",
        ),
        pytest.param(
            T2,
            {"player": "Ana", "event": "tendido", "rank": None, "table_cards": "5 6 Q"},
            {f"pair_cards-{i}": card for i, card in enumerate(["4", "Q", "4", "Q"])},
            id="tendido",
        ),
        pytest.param(
            COUNTS,
            {
                "player": None,
                "event": "cards",
                "counts-0": "29",
                "counts-1": "13",
                "counts-2": "10",
            },
            {},
            id="cards",
        ),
        pytest.param(
            {"event": "rondas", "declared": {"Ana": ["7", "7"], "Cy": ["5", "5", "5"]}},
            {"event": "rondas", "declared-0": "7 7", "declared-1": "", "declared-2": "5 5 5"},
            {},
            id="rondas",
        ),
    ],
)
def test_edit_page_is_prefilled(
    client: FlaskClient, porrazo: dict, stored: dict, expected: dict, chosen: dict
) -> None:
    match_id = porrazo["id"]
    peg(client, match_id, stored)
    response = client.get(f"/matches/{match_id}/rounds/1/edit")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("h1").text().startswith("Correct peg 1")
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{match_id}/rounds/1/edit"
    shown = values(form)
    assert {key: shown[key] for key in expected} == expected
    assert {key: selected(form, key) for key in chosen} == chosen
    assert doc.find("form", "undo") is None
    assert doc.find("form", "remove").attrs["action"] == f"/matches/{match_id}/rounds/1/remove"


def test_edit_page_shows_what_was_pending_before_the_peg(client: FlaskClient, porrazo: dict):
    match_id = peg(client, porrazo["id"], BO_PORRAZO, CY_COUNTER)["id"]
    doc = parse(client.get(f"/matches/{match_id}/rounds/2/edit"))
    assert waiting(doc) == [
        "Waiting: Bo's porrazo of 6 (2) stands unless the next player matches — peg the "
        'counter-porrazo, or "It stands".'
    ]
    shown = values(doc.find("form", "round-form"))
    assert (shown["player"], shown["event"], shown["rank"], shown["limpia"]) == (
        "Cy",
        "counter_porrazo",
        "6",
        "7",
    )


def test_edit_page_correction_rescores_and_a_breaking_one_is_refused(
    client: FlaskClient, porrazo: dict
) -> None:
    match_id = peg(client, porrazo["id"], BO_PORRAZO, CY_COUNTER, CONFIRM)["id"]
    breaking = PORRAZO_FORM | {"rank": "7"}
    with unchanged(client, match_id):
        response = client.post(f"/matches/{match_id}/rounds/1/edit", data=breaking)
        assert response.status_code == 409
    doc = parse(response)
    assert alerts(doc) == [
        "With this change, peg 2 could no longer be scored: "
        "A counter-porrazo matches the porrazo's 7."
    ]
    assert values(doc)["rank"] == "7"
    response = client.post(
        f"/matches/{match_id}/rounds/2/edit",
        data={"player": "Cy", "event": "counter_porrazo", "rank": "6", "limpia": "K"},
    )
    assert response.status_code == 302
    assert urlsplit(response.headers["Location"]).fragment == "round-2"
    doc = parse(client.get(f"/matches/{match_id}"))
    assert "Peg 2 corrected; everything after it was scored again." in doc.text()
    rows = sheet_rows(doc)
    assert rows[2]["why"] == ["Cy's counter-porrazo of 6 stands: +7."]
    assert track(doc) == "Ana 0, Bo 0, Cy 7 of 61. Ana deals."


# --- who deals ----------------------------------------------------------------------------------


def test_the_sheet_says_who_dealt_each_peg(client: FlaskClient) -> None:
    match_id = start(client, first_dealer="Cy")["id"]
    hand = {"event": "cards", "counts": {"Ana": 20, "Bo": 20, "Cy": 12}}
    peg(client, match_id, by("Bo", "ronda", "K"), hand, by("Ana", "ronda", "Q"))
    rows = sheet_rows(parse(client.get(f"/matches/{match_id}/sheet")))
    assert [row["dealt_by"] for row in rows] == ["dealt by Cy", "dealt by Cy", "dealt by Ana"]


def test_the_rules_page_says_who_deals(client: FlaskClient) -> None:
    match_id = start(client, first_dealer="Bo")["id"]
    doc = parse(client.get(f"/matches/{match_id}/rules"))
    rules = {item.find("h2").text(): item.find("p").text() for item in listed_rules(doc)}
    assert rules["Who deals"] == (
        "First dealer: Bo. After each deal, the player to the left deals (clockwise)."
    )


@pytest.mark.parametrize(
    ("wrap", "limpia_note"),
    [
        pytest.param(True, "", id="wrap"),
        pytest.param(
            False,
            " A limpia's run stops at the king: it never ends below the card played.",
            id="no-wrap",
        ),
    ],
)
def test_the_rules_page_says_the_order_of_play_and_who_pegs_what(
    client: FlaskClient, wrap: bool, limpia_note: str
) -> None:
    match_id = start(client, wrap=wrap)["id"]
    doc = parse(client.get(f"/matches/{match_id}/rules"))
    rules = {item.find("h2").text(): item.find("p").text() for item in listed_rules(doc)}
    assert rules["Order of play"] == (
        "Play goes clockwise, starting on the dealer's left: the next player is the one on the "
        "left. In partnerships the next player is always an opponent."
    )
    assert rules["Who pegs what"] == (
        "The next player after a porrazo's maker makes the counter-porrazo; the next after the "
        "counter-porrazo's maker, the San Benito. The dealer lays the tendido, once a turn: the "
        "card count ends the turn. Rondas of one deal hold at most four cards of a rank."
        + limpia_note
    )
