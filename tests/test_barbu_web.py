"""Barbu through the Flask test client: the JSON API and the phone pages (RULES.md §3).

Ana, Bo, Cy and Di sit in that order. Ana declares the first seven hands unless a test says
otherwise; then Bo, Cy and Di declare seven each. Hand D1 is RULES.md's worked example.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient

from tests.api_helpers import (
    api_match,
    opened_match,
    play,
    refused,
    rounds_url,
    send,
    start_match,
    unchanged,
)
from tests.api_helpers import post_round_form as post_hand
from tests.html_reader import Node, alerts, field_errors, number, parse, values

PLAYERS = ["Ana", "Bo", "Cy", "Di"]
CONTRACTS = ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu", "trumps", "dominoes"]
CONTRACT_NAMES = [
    "No tricks",
    "No queens",
    "No hearts",
    "No last two",
    "Barbu",
    "Trumps",
    "Dominoes",
]


# --- hands as the API takes them --------------------------------------------------------------


def counts(*numbers: int) -> dict[str, int]:
    """A count per player, in seating order."""
    return dict(zip(PLAYERS, numbers, strict=True))


def hand(
    contract: str, taken: dict[str, Any], doubles: Sequence[Sequence[str]] = (), **extra: Any
) -> dict[str, Any]:
    """A hand as the API takes it: the contract, what it counts and the [doubler, doubled]."""
    return {"contract": contract, "taken": taken, "doubles": [list(p) for p in doubles], **extra}


def doubled(entered: dict[str, Any], *pairs: Sequence[str]) -> dict[str, Any]:
    """The same hand with these doubles instead of its own."""
    return entered | {"doubles": [list(p) for p in pairs]}


# D1: raw Ana −4, Bo −14 (A♥ + 4 hearts), Cy 0, Di −12. Bo doubles Ana and Cy; Cy redoubles Bo
# and doubles Ana; Di doubles Ana; Ana redoubles Bo. Net Ana +20, Bo −62, Cy +32, Di −20.
D1_DOUBLES = [
    ["Bo", "Ana"],
    ["Bo", "Cy"],
    ["Cy", "Bo"],
    ["Cy", "Ana"],
    ["Di", "Ana"],
    ["Ana", "Bo"],
]
D1 = hand("no_hearts", counts(2, 5, 0, 6), D1_DOUBLES, ace_of_hearts="Bo")
D1_RAW = counts(-4, -14, 0, -12)
D1_NET = counts(20, -62, 32, -20)

# One plain hand of each contract, without doubles.
NO_TRICKS = hand("no_tricks", counts(4, 3, 3, 3))  # −8 −6 −6 −6
NO_QUEENS = hand("no_queens", counts(1, 1, 1, 1))  # −6 each
NO_HEARTS = hand("no_hearts", counts(4, 3, 3, 3), ace_of_hearts="Di")  # −8 −6 −6 −10
NO_LAST_TWO = hand("no_last_two", {"second_last": "Bo", "last": "Cy"})  # 0 −10 −20 0
BARBU = hand("barbu", {"king_of_hearts": "Di"})  # 0 0 0 −20
TRUMPS = hand("trumps", counts(4, 3, 3, 3))  # 20 15 15 15
DOMINOES = hand("dominoes", {"order": ["Cy", "Ana", "Di", "Bo"]})  # 20 −5 45 5
PLAIN = {
    "no_tricks": NO_TRICKS,
    "no_queens": NO_QUEENS,
    "no_hearts": NO_HEARTS,
    "no_last_two": NO_LAST_TWO,
    "barbu": BARBU,
    "trumps": TRUMPS,
    "dominoes": DOMINOES,
}


def everyone_doubles(declarer: str, entered: dict[str, Any]) -> dict[str, Any]:
    """The hand with every other player doubling the declarer."""
    return doubled(entered, *([name, declarer] for name in PLAYERS if name != declarer))


# --- talking to the API -----------------------------------------------------------------------


def start(client: FlaskClient, players: Sequence[str] = PLAYERS, **options: Any) -> dict:
    """Start a Barbu match through the API and return it."""
    return start_match(client, {"game": "barbu", "players": list(players), "options": options})


def state(
    declarer: str,
    hand_in_block: int,
    left: Sequence[str],
    doubles: dict[str, int],
    compulsory: Sequence[str] = (),
) -> dict[str, Any]:
    """The Barbu state of a match before its next hand: the declarer deals it."""
    return {
        "dealer": declarer,
        "declarer": declarer,
        "hand_in_block": hand_in_block,
        "contracts_left": list(left),
        "doubles_of_declarer": doubles,
        "compulsory": list(compulsory),
    }


def left_after(*played: str) -> list[str]:
    """The contracts still to play, in the rules' order, after these."""
    return [c for c in CONTRACTS if c not in played]


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def barbu(client: FlaskClient) -> dict[str, Any]:
    """A fresh match: Ana, Bo, Cy, Di; Ana declares first."""
    return start(client)


@pytest.fixture
def after_d1(client: FlaskClient, barbu: dict) -> dict[str, Any]:
    """The match after D1 was recorded."""
    return play(client, barbu["id"], D1)


@pytest.fixture
def bo_owes(client: FlaskClient, barbu: dict) -> dict[str, Any]:
    """Five of Ana's hands played; Cy and Di doubled her twice, Bo never: hand 6 he must."""
    return play(
        client,
        barbu["id"],
        doubled(NO_TRICKS, ["Cy", "Ana"], ["Di", "Ana"]),
        doubled(NO_QUEENS, ["Cy", "Ana"], ["Di", "Ana"]),
        NO_HEARTS,
        NO_LAST_TWO,
        BARBU,
    )


@pytest.fixture
def three_hands(client: FlaskClient, barbu: dict) -> dict[str, Any]:
    """D1, then no queens and no tricks without doubles."""
    return play(client, barbu["id"], D1, NO_QUEENS, NO_TRICKS)


# --- POST /api/matches and GET /api/games -----------------------------------------------------


def test_barbu_match_starts_with_ana_declaring(client: FlaskClient) -> None:
    body = {"game": "barbu", "players": PLAYERS, "options": {}}
    response = send(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    match = response.json
    assert urlsplit(response.headers["Location"]).path == f"/api/matches/{match['id']}"
    assert match["game"] == "barbu"
    assert match["players"] == PLAYERS
    assert match["teams"] is None
    assert match["options"] == {"first_declarer": "Ana"}
    assert match["totals"] == counts(0, 0, 0, 0)
    assert match["state"] == state("Ana", 1, CONTRACTS, {"Bo": 0, "Cy": 0, "Di": 0})
    assert (match["status"], match["winner"], match["rounds"]) == ("playing", None, [])
    assert api_match(client, match["id"]) == {k: v for k, v in match.items() if k != "scorer_token"}


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        pytest.param("Cy", "Cy", id="as-written"),
        pytest.param("cY", "Cy", id="any-case"),
        pytest.param("  DI ", "Di", id="spaces"),
        pytest.param(None, "Ana", id="null-is-default"),
    ],
)
def test_first_declarer_is_a_seated_player(client: FlaskClient, given: Any, stored: str):
    match = start(client, first_declarer=given)
    assert match["options"] == {"first_declarer": stored}
    others = {name: 0 for name in PLAYERS if name != stored}
    assert match["state"] == state(stored, 1, CONTRACTS, others)


START_REFUSALS = [
    pytest.param(
        {"players": PLAYERS, "options": {"first_declarer": "Zed"}},
        "options.first_declarer",
        "'Zed' is not a player in this match",
        id="unknown-declarer",
    ),
    pytest.param(
        {"players": PLAYERS, "options": {"first_declarer": 2}},
        "options.first_declarer",
        "is not a player in this match",
        id="seat-number",
    ),
    pytest.param({"players": PLAYERS[:3]}, "players", "not 3", id="3-players"),
    pytest.param({"players": [*PLAYERS, "Ed"]}, "players", "not 5", id="5-players"),
    pytest.param(
        {"players": ["Ana", "Bo", "Cy", "ana"]}, "players.3", "already at the table", id="twice"
    ),
    pytest.param(
        {"players": PLAYERS, "options": {"target": 100}},
        "options.target",
        "no option",
        id="unknown-option",
    ),
]
"""How a match of barbu is refused at its start: body, field, words (see test_every_game_web)."""


def test_games_list_barbu_with_a_player_option(client: FlaskClient) -> None:
    games = {game["id"]: game for game in client.get("/api/games").json["games"]}
    barbu = games["barbu"]
    assert (barbu["name"], barbu["players"], barbu["teams"]) == ("Barbu", [4], False)
    option, length = barbu["options"]
    assert (length["name"], length["default"], length["minimum"]) == ("match_deals", None, 1)
    assert option["name"] == "first_declarer"
    assert option["label"] == "First declarer"
    assert option["help"]
    assert (option["player"], option["default_seat"]) == (True, 0)


# --- POST rounds: D1 and the declarer's turn --------------------------------------------------


@pytest.mark.parametrize(
    ("declarer", "stored"),
    [
        pytest.param({}, {}, id="left-out"),
        pytest.param({"declarer": "Ana"}, {"declarer": "Ana"}, id="given"),
        pytest.param({"declarer": "aNA"}, {"declarer": "Ana"}, id="any-case"),
    ],
)
def test_d1_through_the_api(client: FlaskClient, barbu: dict, declarer: dict, stored: dict):
    match_id = barbu["id"]
    response = send(client, "POST", rounds_url(match_id), D1 | declarer)
    assert response.status_code == 201, response.json
    played, match = response.json["round"], response.json["match"]
    assert played["n"] == 1
    assert played["input"] == D1 | stored
    assert played["raw"] == D1_RAW
    assert played["scores"] == D1_NET
    assert sum(played["scores"].values()) == -30
    assert played["totals"] == D1_NET
    assert (played["declarer"], played["hand_in_block"]) == ("Ana", 1)
    assert played["explanation"]
    assert all(isinstance(s, str) and s.strip() for s in played["explanation"])
    assert "Raw: Ana -4, Bo -14, Cy 0, Di -12 (total -30)." in played["explanation"]
    assert (
        "Ana–Bo redoubled: the difference is 10, twice 10 = 20: Ana +20, Bo −20."
        in (played["explanation"])
    )
    assert match["totals"] == D1_NET
    assert match["state"] == state("Ana", 2, left_after("no_hearts"), {"Bo": 1, "Cy": 1, "Di": 1})
    assert match["rounds"] == [played]
    assert api_match(client, match_id) == match


def test_rotation_follows_the_first_declarer(client: FlaskClient) -> None:
    match = start(client, first_declarer="cy")
    match = play(client, match["id"], everyone_doubles("Cy", NO_TRICKS))
    assert match["rounds"][0]["declarer"] == "Cy"
    assert match["state"] == state("Cy", 2, left_after("no_tricks"), {"Ana": 1, "Bo": 1, "Di": 1})


@pytest.mark.parametrize(
    ("entered", "field", "words"),
    [
        pytest.param(D1 | {"declarer": "Bo"}, "declarer", "Hand 2 is Ana's", id="wrong-declarer"),
        pytest.param(D1 | {"declarer": "Zed"}, "declarer", "not a player", id="unknown-declarer"),
        pytest.param(
            NO_HEARTS,
            "contract",
            "Ana has played No hearts already; left: No tricks, No queens, No last two, Barbu, "
            "Trumps, Dominoes.",
            id="repeated-contract",
        ),
        pytest.param(
            doubled(NO_TRICKS, ["Ana", "Bo"]),
            "doubles.0",
            "Ana declares, so may only redouble a player who doubled them.",
            id="declarer-doubles-first",
        ),
        pytest.param(
            doubled(NO_TRICKS, ["Bo", "Cy"], ["Ana", "Cy"]),
            "doubles.1",
            "may only redouble",
            id="declarer-redoubles-someone-else",
        ),
        pytest.param(
            doubled(TRUMPS, ["Bo", "Ana"], ["Cy", "Bo"]),
            "doubles.1",
            "In Trumps only the declarer, Ana, may be doubled.",
            id="trumps-pair-without-declarer",
        ),
        pytest.param(
            doubled(DOMINOES, ["Di", "Cy"]),
            "doubles.0",
            "In Dominoes only the declarer, Ana, may be doubled.",
            id="dominoes-pair-without-declarer",
        ),
        pytest.param(
            doubled(NO_TRICKS, ["Bo", "bo"]),
            "doubles.0",
            "Bo cannot double themselves.",
            id="doubles-oneself",
        ),
        pytest.param(
            doubled(NO_TRICKS, ["Bo", "Ana"], ["bo", "ANA"]),
            "doubles.1",
            "Bo doubles Ana only once.",
            id="same-double-twice",
        ),
        pytest.param(
            doubled(NO_TRICKS, ["Bo", "Zed"]), "doubles.0", "not a player", id="unknown-doubled"
        ),
        pytest.param(
            NO_TRICKS | {"doubles": {"Bo": "Ana"}},
            "doubles",
            "[doubler, doubled] pairs",
            id="doubles-not-a-list",
        ),
        pytest.param(
            hand("no_tricks", counts(4, 3, 3, 2)),
            "taken",
            "The tricks must add up to 13: 4 + 3 + 3 + 2 = 12.",
            id="tricks-not-13",
        ),
        pytest.param(
            hand("no_hearts", counts(4, 3, 6, 0), ace_of_hearts="Di"),
            "ace_of_hearts",
            "Di took the A♥, so took at least one heart.",
            id="ace-without-hearts",
        ),
        pytest.param(
            hand("dominoes", {"order": ["Cy", "Ana", "cy", "Bo"]}),
            "taken.order.2",
            "Cy is named twice",
            id="dominoes-order-twice",
        ),
        pytest.param(
            hand("barbu", {"king_of_hearts": "Di"}, ace_of_hearts="Di"),
            "ace_of_hearts",
            "no field",
            id="field-of-another-contract",
        ),
        pytest.param(
            hand("whist", counts(4, 3, 3, 3)), "contract", "The contract is one of", id="contract"
        ),
    ],
)
def test_refused_hands_change_nothing(
    client: FlaskClient, after_d1: dict, entered: dict, field: str, words: str
) -> None:
    match_id = after_d1["id"]
    with unchanged(client, match_id):
        refused(send(client, "POST", rounds_url(match_id), entered), 422, field, words)


def test_state_counts_doubles_of_the_declarer_only(client: FlaskClient, barbu: dict) -> None:
    # Bo–Cy and Ana's redouble are not doubles of the declarer; Bo doubling Ana is.
    match = play(
        client, barbu["id"], doubled(NO_TRICKS, ["Bo", "Ana"], ["Ana", "Bo"], ["Cy", "Di"])
    )
    assert match["state"] == state("Ana", 2, left_after("no_tricks"), {"Bo": 1, "Cy": 0, "Di": 0})


# --- the obligation: two doubles of the declarer each -----------------------------------------


def test_bo_must_double_ana_in_hand_6(client: FlaskClient, bo_owes: dict) -> None:
    match_id = bo_owes["id"]
    played = ["no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu"]
    assert bo_owes["state"] == state(
        "Ana", 6, left_after(*played), {"Bo": 0, "Cy": 2, "Di": 2}, ["Bo"]
    )
    with unchanged(client, match_id):
        body = refused(
            send(client, "POST", rounds_url(match_id), TRUMPS),
            422,
            "doubles",
            "Bo must double Ana in this hand",
        )
    assert "Bo" in body["error"]
    match = play(client, match_id, doubled(TRUMPS, ["Bo", "Ana"]))
    assert match["state"] == state("Ana", 7, ["dominoes"], {"Bo": 1, "Cy": 2, "Di": 2}, ["Bo"])
    with unchanged(client, match_id):
        refused(
            send(client, "POST", rounds_url(match_id), doubled(DOMINOES, ["Cy", "Ana"])),
            422,
            "doubles",
            "Bo must double Ana",
        )
    match = play(client, match_id, doubled(DOMINOES, ["Bo", "Ana"]))
    assert match["state"] == state("Bo", 1, CONTRACTS, {"Ana": 0, "Cy": 0, "Di": 0})


def test_nobody_is_compulsory_while_hands_are_left(client: FlaskClient, barbu: dict) -> None:
    # Five hands without doubles: with two hands left everyone can still double twice.
    match = play(client, barbu["id"], NO_TRICKS, NO_QUEENS, NO_HEARTS, NO_LAST_TWO)
    assert match["state"]["compulsory"] == []
    match = play(client, barbu["id"], BARBU)
    assert match["state"]["compulsory"] == ["Bo", "Cy", "Di"]


# --- corrections and removals re-check later hands --------------------------------------------


def test_correction_into_a_later_hands_contract_is_a_conflict(
    client: FlaskClient, three_hands: dict
) -> None:
    match_id = three_hands["id"]
    with unchanged(client, match_id):
        body = refused(send(client, "PUT", rounds_url(match_id, 1), NO_QUEENS), 409)
    assert body["error"].startswith("With this change, hand 2 could no longer be scored:")
    assert "Ana has played No queens already" in body["error"]


def test_legal_correction_rescores_later_hands(client: FlaskClient, three_hands: dict) -> None:
    match_id = three_hands["id"]
    assert three_hands["totals"] == counts(6, -74, 20, -32)
    response = send(client, "PUT", rounds_url(match_id, 1), BARBU)
    assert response.status_code == 200, response.json
    corrected, match = response.json["round"], response.json["match"]
    assert corrected["input"] == BARBU
    assert (corrected["raw"], corrected["scores"]) == (counts(0, 0, 0, -20), counts(0, 0, 0, -20))
    assert corrected["corrected_at"] is not None
    assert [r["scores"] for r in match["rounds"]] == [
        counts(0, 0, 0, -20),
        counts(-6, -6, -6, -6),
        counts(-8, -6, -6, -6),
    ]
    assert [r["totals"] for r in match["rounds"]] == [
        counts(0, 0, 0, -20),
        counts(-6, -6, -6, -26),
        counts(-14, -12, -12, -32),
    ]
    assert match["totals"] == counts(-14, -12, -12, -32)
    left = left_after("barbu", "no_queens", "no_tricks")
    assert match["state"] == state("Ana", 4, left, {"Bo": 0, "Cy": 0, "Di": 0})
    log = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert [(c["action"], c["n"]) for c in log] == [
        ("add", 1),
        ("add", 2),
        ("add", 3),
        ("correct", 1),
    ]
    assert (log[-1]["input"], log[-1]["replaced"]) == (BARBU, D1)


def test_correction_that_breaks_the_obligation_later_is_a_conflict(
    client: FlaskClient, barbu: dict
) -> None:
    # Bo doubles Ana in hands 1 and 6: enough. Without hand 1's double, he owes one in hand 7.
    match_id = barbu["id"]
    play(
        client,
        match_id,
        everyone_doubles("Ana", NO_TRICKS),
        doubled(NO_QUEENS, ["Cy", "Ana"], ["Di", "Ana"]),
        NO_HEARTS,
        NO_LAST_TWO,
        BARBU,
        doubled(TRUMPS, ["Bo", "Ana"]),
        DOMINOES,
    )
    with unchanged(client, match_id):
        body = refused(
            send(client, "PUT", rounds_url(match_id, 1), doubled(NO_TRICKS, ["Cy", "Ana"])), 409
        )
    assert body["error"].startswith("With this change, hand 7 could no longer be scored:")
    assert "Bo must double Ana" in body["error"]


@pytest.mark.parametrize(
    ("declarer", "words"),
    [
        pytest.param({}, "Bo must double Ana in this hand", id="obligation"),
        pytest.param({"declarer": "Bo"}, "Hand 7 is Ana's to declare", id="declarer"),
    ],
)
def test_removing_a_hand_later_hands_depend_on_is_a_conflict(
    client: FlaskClient, barbu: dict, declarer: dict, words: str
) -> None:
    # Bo doubles Ana in hands 1 and 2 only. Removing hand 1 pulls Bo's first hand (hand 8) into
    # Ana's block as its seventh hand, where Bo, with one double of Ana, would owe the second.
    match_id = barbu["id"]
    play(
        client,
        match_id,
        everyone_doubles("Ana", NO_TRICKS),
        everyone_doubles("Ana", NO_QUEENS),
        NO_HEARTS,
        NO_LAST_TWO,
        BARBU,
        TRUMPS,
        DOMINOES,
        doubled(NO_TRICKS, ["Cy", "Bo"], ["Di", "Bo"]) | declarer,
    )
    with unchanged(client, match_id):
        response = client.delete(rounds_url(match_id, 1))
        body = refused(response, 409)
    assert body["error"].startswith("With this change, hand 7 could no longer be scored:")
    assert words in body["error"]


def test_removing_the_last_hand_gives_the_turn_back(client: FlaskClient, three_hands: dict):
    match_id = three_hands["id"]
    response = client.delete(rounds_url(match_id, 3))
    assert response.status_code == 200, response.json
    match = response.json["match"]
    assert [r["input"] for r in match["rounds"]] == [D1, NO_QUEENS]
    assert match["totals"] == counts(14, -68, 26, -26)
    left = left_after("no_hearts", "no_queens")
    assert match["state"] == state("Ana", 3, left, {"Bo": 1, "Cy": 1, "Di": 1})


# --- a whole match ----------------------------------------------------------------------------

ORDER = [0, 2, 1, 3]  # Dominoes: the order out, as offsets from the hand's number.


def full_match_hands(first: str, shift: int = 1) -> list[dict[str, Any]]:
    """28 legal hands: each declarer plays the seven contracts in the rules' order.

    The players after the declarer double them in hands 1–2, 3–4 and 5–6 of the block; the
    declarer redoubles the first of them in hand 1, and in hand 2 the second doubles the third.
    Who takes what turns one seat round the table each hand, and `shift` more seats each block
    (with no shift the scores repeat every four hands and two players tie for first).
    """
    start_seat = PLAYERS.index(first)
    hands = []
    for k in range(28):
        declarer = PLAYERS[(start_seat + k // 7) % 4]
        others = [PLAYERS[(PLAYERS.index(declarer) + i) % 4] for i in (1, 2, 3)]
        contract = CONTRACTS[k % 7]
        r = (k + shift * (k // 7)) % 4
        turn = PLAYERS[r:] + PLAYERS[:r]
        if contract in ("no_tricks", "no_hearts", "trumps"):
            taken: dict[str, Any] = dict(zip(turn, [1, 2, 4, 6], strict=True))
        elif contract == "no_queens":
            taken = dict(zip(turn, [0, 1, 1, 2], strict=True))
        elif contract == "no_last_two":
            taken = {"second_last": turn[1], "last": turn[2]}
        elif contract == "barbu":
            taken = {"king_of_hearts": turn[3]}
        else:
            taken = {"order": [turn[i] for i in ORDER]}
        pairs = [[others[k % 7 // 2], declarer]] if k % 7 < 6 else []
        if k % 7 == 0:
            pairs.append([declarer, others[0]])
        if k % 7 == 1:
            pairs.append([others[1], others[2]])
        extra = {"ace_of_hearts": turn[3]} if contract == "no_hearts" else {}
        hands.append(hand(contract, taken, pairs, **extra))
    return hands


def expected_net(entered: dict[str, Any]) -> dict[str, int]:
    """Score a hand by RULES.md §3's tables, then settle its doubles pair by pair."""
    contract, taken = entered["contract"], entered["taken"]
    raw = dict.fromkeys(PLAYERS, 0)
    each = {"no_tricks": -2, "no_queens": -6, "no_hearts": -2, "trumps": 5}
    if contract in each:
        raw = {name: taken[name] * each[contract] for name in PLAYERS}
        if contract == "no_hearts":
            raw[entered["ace_of_hearts"]] -= 4
    elif contract == "no_last_two":
        raw[taken["second_last"]] -= 10
        raw[taken["last"]] -= 20
    elif contract == "barbu":
        raw[taken["king_of_hearts"]] -= 20
    else:
        raw = dict(zip(taken["order"], [45, 20, 5, -5], strict=True))
    net = dict(raw)
    for a, b in combinations(PLAYERS, 2):
        times = ([a, b] in entered["doubles"]) + ([b, a] in entered["doubles"])
        net[a] += times * (raw[a] - raw[b])
        net[b] += times * (raw[b] - raw[a])
    return net


def oracle_totals(hands: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Add up the oracle's net scores of these hands."""
    totals = dict.fromkeys(PLAYERS, 0)
    for entered in hands:
        for name, score in expected_net(entered).items():
            totals[name] += score
    return totals


@pytest.mark.parametrize(
    ("first", "totals", "winner"),
    [
        pytest.param("Ana", counts(83, -214, 191, -60), "Cy", id="Ana-first"),
        pytest.param("Di", counts(83, -214, 191, -60), "Cy", id="Di-first"),
    ],
)
def test_a_full_match_of_28_hands(
    client: FlaskClient, first: str, totals: dict[str, int], winner: str
) -> None:
    match_id = start(client, first_declarer=first)["id"]
    hands = full_match_hands(first, shift=1)
    assert oracle_totals(hands) == totals
    match = play(client, match_id, *hands[:27])
    assert match["status"] == "playing"
    last = PLAYERS[(PLAYERS.index(first) + 3) % 4]
    assert match["state"] == state(
        last, 7, ["dominoes"], {name: 2 for name in PLAYERS if name != last}
    )
    match = play(client, match_id, hands[27])
    assert (match["status"], match["winner"]) == ("finished", winner)
    assert match["totals"] == totals
    assert sum(match["totals"].values()) == 0
    assert match["state"] == {"dealer": first}
    seat = PLAYERS.index(first)
    assert [r["declarer"] for r in match["rounds"][::7]] == [
        PLAYERS[(seat + i) % 4] for i in range(4)
    ]
    assert [r["hand_in_block"] for r in match["rounds"]] == list(range(1, 8)) * 4
    assert [r["scores"] for r in match["rounds"]] == [expected_net(h) for h in hands]
    assert match["rounds"][-1]["totals"] == totals
    assert match["rounds"][-1]["explanation"][-1] == (
        f"28 hands played: {winner} wins with {totals[winner]}."
    )
    with unchanged(client, match_id):
        body = refused(send(client, "POST", rounds_url(match_id), NO_TRICKS), 409)
    assert "The match is over" in body["error"]
    with unchanged(client, match_id):
        response = post_hand(client, match_id, hand_form("no_tricks", (4, 3, 3, 3)))
        assert response.status_code == 409
    assert "The match is over" in " ".join(alerts(parse(response)))
    doc = parse(client.get(f"/matches/{match_id}"))
    assert doc.find("form", "round-form") is None
    assert doc.find("p", "winner").text() == f"{winner} wins with {totals[winner]}!"
    assert barbu_sheet(doc)["totals"] == totals


def test_a_tie_for_first_after_28_hands_is_shared(client: FlaskClient, barbu: dict) -> None:
    match_id = barbu["id"]
    hands = full_match_hands("Ana", shift=0)
    assert oracle_totals(hands) == counts(21, -21, 21, -21)
    match = play(client, match_id, *hands)
    assert (match["status"], match["winner"]) == ("finished", None)
    assert match["totals"] == counts(21, -21, 21, -21)
    # After the 28th hand the deal would go back to the first declarer.
    assert match["state"] == {"shared_first": ["Ana", "Cy"], "dealer": "Ana"}
    assert match["rounds"][-1]["explanation"][-1] == (
        "28 hands played: Ana and Cy share first place, 21."
    )
    with unchanged(client, match_id):
        refused(send(client, "POST", rounds_url(match_id), NO_TRICKS), 409)
    doc = parse(client.get(f"/matches/{match_id}"))
    assert doc.find("p", "winner").text() == "Ana and Cy share first place!"
    assert doc.find("form", "round-form") is None


# --- reading and filling the pages ------------------------------------------------------------


def barbu_sheet(doc: Node) -> dict[str, Any]:
    """Read the Barbu sheet: per hand its block row, contract, and each player's numbers."""
    table = doc.find("table", "barbu-sheet")
    assert table is not None, "no Barbu sheet on the page"
    columns = [th.text() for th in table.find("thead").find_all("th")]
    names = columns[2:]
    hands = []
    for body in table.find_all("tbody"):
        block = body.find("tr", "block")
        row = next(tr for tr in body.find_all("tr") if not tr.attrs.get("class"))
        cells = dict(zip(names, row.find_all("td")[1:], strict=True))
        hands.append(
            {
                "n": int(row.find("th").text()),
                "block": block.text() if block else None,
                "contract": row.find("td", "deal").text(),
                "scores": {n: number(c.find("span", "score")) for n, c in cells.items()},
                "raw": {n: c.find("span", "raw").text() for n, c in cells.items()},
                "totals": {n: number(c.find("span", "total")) for n, c in cells.items()},
                "circled": [n for n, c in cells.items() if c.find("span", "circled")],
                "declarer": [n for n, c in cells.items() if "declarer" in c.attrs["class"]],
                "why": [li.text() for li in body.find("tr", "why").find_all("li")],
            }
        )
    footer = table.find("tfoot").find_all("td")
    return {
        "columns": columns,
        "hands": hands,
        "totals": {name: number(cell) for name, cell in zip(names, footer, strict=True)},
    }


def grid(doc: Node) -> list[list[dict[str, Any] | None]]:
    """Read the doubles grid: per row (doubler) and column (doubled), its toggle or None."""
    table = doc.find("fieldset", id="doubles").find("table", "grid")
    rows = []
    for tr in table.find("tbody").find_all("tr"):
        row = []
        for td in tr.find_all("td"):
            box = td.find("input", type="checkbox")
            row.append(
                None
                if box is None
                else {
                    "value": box.attrs["value"],
                    "checked": "checked" in box.attrs,
                    "disabled": "disabled" in box.attrs,
                }
            )
        rows.append(row)
    return rows


def checked_doubles(doc: Node) -> list[str]:
    """Return the doubles ticked on the form, in grid order."""
    return [c["value"] for row in grid(doc) for c in row if c and c["checked"]]


def contract_radios(doc: Node) -> list[tuple[str, str, bool, bool]]:
    """Return each contract radio: value, label text, disabled, checked."""
    return [
        (
            node.attrs["value"],
            node.parent.text(),
            "disabled" in node.attrs,
            "checked" in node.attrs,
        )
        for node in doc.find("fieldset", id="contract").find_all("input", type="radio")
    ]


def counts_shown(doc: Node) -> list[str]:
    """Return what the four count boxes hold."""
    shown = values(doc)
    return [shown[f"counts-{seat}"] for seat in range(4)]


def hand_form(
    contract: str = "no_hearts",
    numbers: Sequence[int | str] = (0, 0, 0, 0),
    doubles: Sequence[str] = (),
    **extra: str,
) -> dict[str, Any]:
    """The hand form as a phone posts it: counts-<seat>, doubles as "<doubler>><doubled>"."""
    data: dict[str, Any] = {"contract": contract}
    data |= {f"counts-{seat}": str(number) for seat, number in enumerate(numbers)}
    data["doubles"] = list(doubles)
    return data | extra


D1_FORM = hand_form(
    "no_hearts", (2, 5, 0, 6), ["1>0", "1>2", "2>1", "2>0", "3>0", "0>1"], ace_of_hearts="Bo"
)


# --- the new-match page -----------------------------------------------------------------------


def test_new_barbu_match_page_shows_four_names_and_the_first_declarer(client: FlaskClient):
    response = client.get("/matches/new/barbu")
    assert response.status_code == 200
    doc = parse(response)
    names = doc.find("fieldset", "names")
    assert [node.attrs["name"] for node in names.find_all("input")] == [
        "players-0",
        "players-1",
        "players-2",
        "players-3",
    ]
    assert [label.text() for label in names.find_all("label")] == [
        "Player 1",
        "Player 2",
        "Player 3",
        "Player 4",
    ]
    radios = doc.find_all("input", type="radio", name="option_first_declarer")
    assert [node.attrs["value"] for node in radios] == [
        "Player 1",
        "Player 2",
        "Player 3",
        "Player 4",
    ]
    group = doc.find("fieldset", id="option_first_declarer")
    assert group.find("legend").text() == "First declarer"
    labels = [label.text() for label in group.find_all("label")]
    assert labels == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert values(doc)["option_first_declarer"] == "Player 1"
    assert "First declarer" in doc.find("fieldset", "options").text()
    assert field_errors(doc) == {}
    assert alerts(doc) == []


def test_new_barbu_match_form_names_the_first_declarer_by_seat(client: FlaskClient) -> None:
    typed = {f"players-{seat}": name for seat, name in enumerate(["Zoé", " Bo ", "Cy", "Di"])}
    response = client.post("/matches/new/barbu", data=typed | {"option_first_declarer": "Player 2"})
    assert response.status_code == 302
    match = opened_match(client, response)
    assert match["players"] == ["Zoé", "Bo", "Cy", "Di"]
    assert match["options"] == {"first_declarer": "Bo"}
    assert match["state"]["declarer"] == "Bo"
    doc = parse(client.get(f"/matches/{match['id']}"))
    assert doc.find("p", "declares").text() == "Bo declares · hand 1 of 7"


def test_new_barbu_match_form_refuses_three_names(client: FlaskClient) -> None:
    typed = {"players-0": "Ana", "players-1": "Bo", "players-2": "Cy", "players-3": ""}
    response = client.post("/matches/new/barbu", data=typed | {"option_first_declarer": "Player 3"})
    assert response.status_code == 422
    doc = parse(response)
    shown = values(doc)
    assert {name: shown[name] for name in typed} == typed
    assert shown["option_first_declarer"] == "Player 3"
    assert "not 3" in " ".join(alerts(doc) + sum(field_errors(doc).values(), []))
    assert client.get("/api/matches").json["total"] == 0


# --- the hand form ----------------------------------------------------------------------------


def test_fresh_hand_form(client: FlaskClient, barbu: dict) -> None:
    doc = parse(client.get(f"/matches/{barbu['id']}"))
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{barbu['id']}/rounds"
    assert form.find("p", "declares").text() == "Ana declares · hand 1 of 7"
    assert contract_radios(form) == [
        (value, name, False, False) for value, name in zip(CONTRACTS, CONTRACT_NAMES, strict=True)
    ]
    assert counts_shown(form) == ["0", "0", "0", "0"]
    cells = grid(form)
    assert len(cells) == 4 and all(len(row) == 4 for row in cells)
    for row, doubler in enumerate(PLAYERS):
        for column in range(4):
            cell = cells[row][column]
            if row == column:
                assert cell is None, (doubler, column)
                continue
            assert cell["value"] == f"{row}>{column}"
            assert not cell["checked"]
            assert cell["disabled"] == (doubler == "Ana"), cell
    ana_row = doc.find("fieldset", id="doubles").find("tbody").find("tr")
    assert "only a redouble" in ana_row.find("label", "toggle").attrs["title"]
    assert (
        form.find("p", "owed").text() == "Doubles of Ana so far (2 owed each): Bo 0 · Cy 0 · Di 0"
    )
    assert doc.find("table", "barbu-sheet") is None


def test_played_contract_is_disabled_and_marked(client: FlaskClient, after_d1: dict) -> None:
    doc = parse(client.get(f"/matches/{after_d1['id']}"))
    form = doc.find("form", "round-form")
    assert form.find("p", "declares").text() == "Ana declares · hand 2 of 7"
    radios = contract_radios(form)
    assert radios[2] == ("no_hearts", "No hearts (played)", True, False)
    assert [r for r in radios if r[2]] == [radios[2]]
    assert all("(played)" not in label for _, label, _, _ in radios[:2] + radios[3:])
    assert (
        form.find("p", "owed").text() == "Doubles of Ana so far (2 owed each): Bo 1 · Cy 1 · Di 1"
    )


def test_hand_form_records_d1_and_the_sheet_shows_it(client: FlaskClient, barbu: dict) -> None:
    match_id = barbu["id"]
    response = post_hand(client, match_id, D1_FORM)
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    recorded = api_match(client, match_id)["rounds"][0]["id"]
    assert (location.path, location.query) == (f"/matches/{match_id}", f"recorded={recorded}")
    match = api_match(client, match_id)
    [played] = match["rounds"]
    assert played["input"] == D1
    assert (played["raw"], played["scores"]) == (D1_RAW, D1_NET)
    doc = parse(client.get(response.headers["Location"]))
    assert doc.find("form", "notice").find("span").text() == "Hand 1 recorded."
    sheet = barbu_sheet(doc)
    assert sheet["columns"] == ["#", "Contract", *PLAYERS]
    [shown] = sheet["hands"]
    assert shown["n"] == 1
    assert shown["block"] == "Ana declares"
    assert shown["contract"] == "No hearts"
    assert shown["scores"] == D1_NET
    assert shown["raw"] == {"Ana": "raw −4", "Bo": "raw −14", "Cy": "raw 0", "Di": "raw −12"}
    assert shown["totals"] == D1_NET
    assert shown["circled"] == ["Bo", "Cy", "Di"]
    assert shown["declarer"] == ["Ana"]
    # The page writes each minus as one: "−2", where the API's sentence has "-2".
    assert shown["why"] == [re.sub(r"(?<![\w)])-(?=\d)", "−", s) for s in played["explanation"]]
    assert sheet["totals"] == D1_NET
    circled = doc.find("table", "barbu-sheet").find_all("span", "circled")
    assert [span.attrs["title"] for span in circled] == [
        "Bo doubled Ana",
        "Cy doubled Ana",
        "Di doubled Ana",
    ]


def test_sheet_groups_hands_by_declarer(client: FlaskClient, barbu: dict) -> None:
    match_id = barbu["id"]
    hands = full_match_hands("Ana")[:8]
    play(client, match_id, *hands)
    sheet = barbu_sheet(parse(client.get(f"/matches/{match_id}")))
    assert [h["block"] for h in sheet["hands"]] == ["Ana declares", *[None] * 6, "Bo declares"]
    assert [h["contract"] for h in sheet["hands"]] == [*CONTRACT_NAMES, "No tricks"]
    assert [h["declarer"] for h in sheet["hands"]] == [["Ana"]] * 7 + [["Bo"]]
    # Hand 8: Cy doubles Bo; Bo's redouble of Cy is not circled.
    assert sheet["hands"][7]["circled"] == ["Cy"]
    assert sheet["totals"] == api_match(client, match_id)["totals"]


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        pytest.param(
            hand_form("no_last_two", second_last="Bo", last="cy"),
            hand("no_last_two", {"second_last": "Bo", "last": "Cy"}),
            id="no-last-two",
        ),
        pytest.param(
            hand_form("barbu", (3, 0, 0, 0), ["3>0", "0>3", "1>2"], king_of_hearts="Di"),
            hand("barbu", {"king_of_hearts": "Di"}, [["Di", "Ana"], ["Ana", "Di"], ["Bo", "Cy"]]),
            id="barbu",
        ),
        pytest.param(
            hand_form(
                "dominoes",
                doubles=["2>0"],
                **{f"order-{i}": name for i, name in enumerate(["Cy", "Ana", "Di", "Bo"])},
            ),
            hand("dominoes", {"order": ["Cy", "Ana", "Di", "Bo"]}, [["Cy", "Ana"]]),
            id="dominoes",
        ),
        pytest.param(
            hand_form("trumps", (4, 3, 3, 3), ["1>0"], ace_of_hearts="Bo"),
            hand("trumps", counts(4, 3, 3, 3), [["Bo", "Ana"]]),
            id="trumps-ignores-the-ace",
        ),
    ],
)
def test_hand_form_sends_only_what_the_contract_counts(
    client: FlaskClient, barbu: dict, typed: dict, stored: dict
) -> None:
    match_id = barbu["id"]
    response = post_hand(client, match_id, typed)
    assert response.status_code == 302, field_errors(parse(response))
    [played] = api_match(client, match_id)["rounds"]
    assert played["input"] == stored
    assert played["scores"] == expected_net(stored)


@pytest.mark.parametrize(
    ("typed", "field", "words"),
    [
        pytest.param(
            hand_form("no_hearts", (2, 5, 0, 6)), "ace_of_hearts", "Say who took the A♥", id="ace"
        ),
        pytest.param(
            hand_form("no_last_two", second_last="Bo"), "last", "Say who took the last", id="last"
        ),
        pytest.param(
            hand_form("barbu"), "king_of_hearts", "Say who took the K♥", id="king-of-hearts"
        ),
        pytest.param(
            hand_form(
                "dominoes", **{f"order-{i}": name for i, name in enumerate(["Cy", "Ana", "Cy"])}
            ),
            "order-2",
            "Cy is named twice in the order.",
            id="order",
        ),
        pytest.param(
            hand_form("", (4, 3, 3, 3)), "contract", "The contract is one of", id="no-contract"
        ),
    ],
)
def test_hand_form_shows_a_refusal_by_its_field(
    client: FlaskClient, barbu: dict, typed: dict, field: str, words: str
) -> None:
    match_id = barbu["id"]
    with unchanged(client, match_id):
        response = post_hand(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    errors = field_errors(doc)
    assert field in errors, (errors, alerts(doc))
    assert words in " ".join(errors[field])
    assert alerts(doc) == ["Nothing was saved: fix the fields marked below."]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        pytest.param(
            hand_form("no_hearts", (2, 5, 0, 5), ["1>0"], ace_of_hearts="Bo"),
            "The hearts must add up to 13: 2 + 5 + 0 + 5 = 12.",
            id="hearts-12",
        ),
        pytest.param(
            hand_form("trumps", (5, 3, 3, 1)),
            "The tricks must add up to 13: 5 + 3 + 3 + 1 = 12.",
            id="tricks-12",
        ),
    ],
)
def test_bad_hand_form_keeps_the_counts_and_stores_nothing(
    client: FlaskClient, barbu: dict, typed: dict, message: str
) -> None:
    match_id = barbu["id"]
    with unchanged(client, match_id):
        response = post_hand(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    assert counts_shown(doc) == [typed[f"counts-{seat}"] for seat in range(4)]
    assert values(doc)["contract"] == typed["contract"]
    assert checked_doubles(doc) == typed["doubles"]
    assert message in alerts(doc)


def test_hand_form_shows_a_doubles_refusal_by_the_grid(client: FlaskClient, after_d1: dict):
    match_id = after_d1["id"]
    typed = hand_form("no_tricks", (4, 3, 3, 3), ["0>2"])
    with unchanged(client, match_id):
        response = post_hand(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    assert field_errors(doc) == {
        "doubles": ["Ana declares, so may only redouble a player who doubled them."]
    }
    assert alerts(doc) == ["Nothing was saved: fix the fields marked below."]


@pytest.mark.parametrize(
    ("step", "before", "after"),
    [
        pytest.param("1:+1", (2, 4, 0, 6), ["2", "5", "0", "6"], id="bo-plus"),
        pytest.param("0:-1", (2, 4, 0, 6), ["1", "4", "0", "6"], id="ana-minus"),
        pytest.param("2:-1", (2, 4, 0, 6), ["2", "4", "0", "6"], id="not-below-0"),
        pytest.param("3:+1", (0, 0, 0, 13), ["0", "0", "0", "13"], id="not-above-13"),
    ],
)
def test_stepper_buttons_change_a_count_without_storing(
    client: FlaskClient, barbu: dict, step: str, before: tuple, after: list[str]
) -> None:
    match_id = barbu["id"]
    typed = hand_form("no_hearts", before, ["1>0", "0>1"], ace_of_hearts="Di", step=step)
    with unchanged(client, match_id):
        response = post_hand(client, match_id, typed)
        assert response.status_code == 200
    doc = parse(response)
    assert counts_shown(doc) == after
    shown = values(doc)
    assert (shown["contract"], shown["ace_of_hearts"]) == ("no_hearts", "Di")
    assert checked_doubles(doc) == ["0>1", "1>0"]
    assert alerts(doc) == []
    assert field_errors(doc) == {}


def test_compulsory_double_is_ticked_on_the_fresh_form(client: FlaskClient, bo_owes: dict):
    doc = parse(client.get(f"/matches/{bo_owes['id']}"))
    form = doc.find("form", "round-form")
    assert form.find("p", "declares").text() == "Ana declares · hand 6 of 7"
    assert checked_doubles(form) == ["1>0"]
    cells = grid(form)
    assert cells[0][1] == {"value": "0>1", "checked": False, "disabled": False}  # redouble Bo
    assert cells[0][2]["disabled"] and cells[0][3]["disabled"]
    assert form.find("p", "owed").text() == (
        "Doubles of Ana so far (2 owed each): Bo 0 (must double now) · Cy 2 · Di 2"
    )
    radios = contract_radios(form)
    assert [value for value, _, disabled, _ in radios if not disabled] == ["trumps", "dominoes"]


def test_hand_form_without_the_compulsory_double_is_refused(client: FlaskClient, bo_owes: dict):
    match_id = bo_owes["id"]
    typed = hand_form("trumps", (4, 3, 3, 3), ["2>0"])
    with unchanged(client, match_id):
        response = post_hand(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    errors = field_errors(doc)
    assert list(errors) == ["doubles"]
    assert "Bo must double Ana in this hand" in errors["doubles"][0]
    assert checked_doubles(doc) == ["2>0"]
    response = post_hand(client, match_id, typed | {"doubles": ["1>0", "2>0"]})
    assert response.status_code == 302
    assert api_match(client, match_id)["rounds"][-1]["input"]["doubles"] == [
        ["Bo", "Ana"],
        ["Cy", "Ana"],
    ]


# --- correcting a hand through its page -------------------------------------------------------


def test_edit_page_is_prefilled_from_the_stored_hand(client: FlaskClient, after_d1: dict):
    match_id = after_d1["id"]
    response = client.get(f"/matches/{match_id}/rounds/1/edit")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("h1").text().startswith("Correct hand 1")
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{match_id}/rounds/1/edit"
    assert form.find("p", "declares").text() == "Ana declares · hand 1 of 7"
    radios = contract_radios(form)
    assert [value for value, _, _, checked in radios if checked] == ["no_hearts"]
    assert not any(disabled for _, _, disabled, _ in radios)
    assert counts_shown(form) == ["2", "5", "0", "6"]
    assert values(form)["ace_of_hearts"] == "Bo"
    assert checked_doubles(form) == ["0>1", "1>0", "1>2", "2>0", "2>1", "3>0"]
    assert not grid(form)[0][1]["disabled"]  # Ana's redouble of Bo is on, so it can be undone


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        pytest.param(
            hand("no_last_two", {"second_last": "Bo", "last": "Cy"}, [["Di", "Ana"]]),
            {"second_last": "Bo", "last": "Cy"},
            id="no-last-two",
        ),
        pytest.param(BARBU, {"king_of_hearts": "Di"}, id="barbu"),
        pytest.param(
            DOMINOES,
            {f"order-{i}": name for i, name in enumerate(["Cy", "Ana", "Di", "Bo"])},
            id="dominoes",
        ),
    ],
)
def test_edit_page_prefills_who_took_what(
    client: FlaskClient, barbu: dict, stored: dict, expected: dict
) -> None:
    match_id = barbu["id"]
    play(client, match_id, stored)
    form = parse(client.get(f"/matches/{match_id}/rounds/1/edit")).find("form", "round-form")
    shown = values(form)
    assert {key: shown[key] for key in expected} == expected
    assert shown["contract"] == stored["contract"]
    assert checked_doubles(form) == [
        f"{PLAYERS.index(a)}>{PLAYERS.index(b)}" for a, b in stored["doubles"]
    ]


def test_edit_page_refuses_a_correction_later_hands_cannot_survive(
    client: FlaskClient, three_hands: dict
) -> None:
    match_id = three_hands["id"]
    typed = hand_form("no_queens", (1, 1, 1, 1))
    with unchanged(client, match_id):
        response = client.post(f"/matches/{match_id}/rounds/1/edit", data=typed)
        assert response.status_code == 409
    doc = parse(response)
    [alert] = alerts(doc)
    assert alert.startswith("With this change, hand 2 could no longer be scored:")
    assert values(doc)["contract"] == "no_queens"


def test_edit_page_correction_rescores_later_hands(client: FlaskClient, three_hands: dict):
    match_id = three_hands["id"]
    typed = hand_form("barbu", (0, 0, 0, 0), king_of_hearts="Di")
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data=typed)
    assert response.status_code == 302
    assert urlsplit(response.headers["Location"]).fragment == "round-1"
    doc = parse(client.get(f"/matches/{match_id}"))
    assert "Hand 1 corrected; everything after it was scored again." in doc.text()
    sheet = barbu_sheet(doc)
    assert [h["contract"] for h in sheet["hands"]] == ["Barbu", "No queens", "No tricks"]
    assert sheet["totals"] == counts(-14, -12, -12, -32)
    assert api_match(client, match_id)["rounds"][0]["input"] == BARBU


def test_sheet_counts_each_players_doubles_of_the_declarer(client: FlaskClient, after_d1: dict):
    doc = parse(client.get(f"/matches/{after_d1['id']}"))
    [row] = doc.find_all("tr", "block-end")
    assert row.text() == "Doubles of Ana so far: Bo 1 · Cy 1 · Di 1"
