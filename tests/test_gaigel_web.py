"""Gaigel through the Flask test client: the JSON API and the phone pages (RULES.md §4).

Teams: Oben (Ana, Cy) and Unten (Bo, Di), so Ana, Bo, Cy and Di sit in that order; 10 strokes
unless a test says otherwise. Three players: Ana, Bo and Cy in the tournament scoring.
EXAMPLE is RULES.md's worked example, deal by deal.
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
    play,
    refused,
    rounds_url,
    send,
    start_match,
    unchanged,
)
from tests.api_helpers import post_round_form as post_form
from tests.html_reader import Node, alerts, field_errors, listed_rules, parse, values

TEAMS = {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}
SIX = {"Oben": ["Ana", "Cy", "Ed"], "Unten": ["Bo", "Di", "Fi"]}
THREE = ["Ana", "Bo", "Cy"]
OUTCOMES = ["aus", "gaigel", "untergaigeln", "uebergaigeln"]
OUTCOME_NAMES = ["Aus", "Gaigel", "Untergaigeln", "Übergaigeln"]
NOTHING_SAVED = "Nothing was saved: fix the fields marked below."


# --- deals as the API takes them --------------------------------------------------------------


def deal(winner: str, outcome: str | None = None, **evidence: Any) -> dict[str, Any]:
    """A team deal: who won and how, with the Aus checker's evidence if any is given."""
    entered: dict[str, Any] = {"winner": winner}
    if outcome is not None:
        entered["outcome"] = outcome
    if evidence:
        entered["evidence"] = evidence
    return entered


def strokes(oben: int, unten: int) -> dict[str, int]:
    """The strokes each team holds."""
    return {"Oben": oben, "Unten": unten}


def mark(kind: str, crossed: int = 0) -> dict[str, Any]:
    """One mark on the slate: I (a single) or V (a double), with how much of it is crossed."""
    return {"kind": kind, "units": 2 if kind == "V" else 1, "crossed": crossed}


def slate(
    given: int, oben: Sequence[dict], unten: Sequence[dict], dealer: str, total: int = 10
) -> dict[str, Any]:
    """The state of a team match: phase, strokes given, left to give, the board, who deals."""
    return {
        "phase": "giving" if given < total else "erasing",
        "given": given,
        "pool": total - given,
        "board": {"Oben": list(oben), "Unten": list(unten)},
        "dealer": dealer,
    }


def three_deal(
    points: Sequence[int], took: Sequence[bool] | None = None, cut: Sequence[str] | None = None
) -> dict[str, Any]:
    """A three-player deal: card points in seating order, who took a trick, the cut order."""
    entered: dict[str, Any] = {"card_points": dict(zip(THREE, points, strict=True))}
    if took is not None:
        entered["took_trick"] = dict(zip(THREE, took, strict=True))
    if cut is not None:
        entered["cut_order"] = list(cut)
    return entered


def each(*numbers: int) -> dict[str, int]:
    """A number per player of the three, in seating order."""
    return dict(zip(THREE, numbers, strict=True))


# RULES.md §4: Oben single → Unten 1; Unten Gaigel → Oben 2; Oben single → Unten 2 (4 given);
# Oben calls Aus with 96 (untergaigeln) → Oben 4 (6 given).
EXAMPLE = [
    deal("Oben", "aus"),
    deal("Unten", "gaigel"),
    deal("Oben", "aus"),
    deal("Unten", "untergaigeln"),
]
EXAMPLE_TOTALS = [strokes(0, 1), strokes(2, 1), strokes(2, 2), strokes(4, 2)]
EXAMPLE_STATES = [
    # The deal passes to the left round Ana, Bo, Cy and Di.
    slate(1, [], [mark("I")], "Bo"),
    slate(3, [mark("V")], [mark("I")], "Cy"),
    slate(4, [mark("V")], [mark("I"), mark("I")], "Di"),
    slate(6, [mark("V"), mark("V")], [mark("I"), mark("I")], "Ana"),
]
EXAMPLE_WHY = [
    ["Oben wins Aus: a single.", "Unten takes 1 stroke: 1 of 10 given."],
    ["Unten wins Gaigel: a double.", "Oben takes 2 strokes: 3 of 10 given."],
    ["Oben wins Aus: a single.", "Unten takes 1 stroke: 4 of 10 given."],
    ["Unten wins Untergaigeln: a double.", "Oben takes 2 strokes: 6 of 10 given."],
]

# The example played on to the end: deal 7 gives the last stroke (a double counts 1), then
# Unten erases its four strokes and wins the match with deal 10 (the second stroke is lost).
FULL = [
    *EXAMPLE,
    deal("Oben", "gaigel"),
    deal("Unten", "aus"),
    deal("Unten", "gaigel"),
    deal("Unten", "gaigel"),
    deal("Unten", "aus"),
    deal("Unten", "uebergaigeln"),
]
FULL_TOTALS = [
    *EXAMPLE_TOTALS,
    strokes(4, 4),
    strokes(5, 4),
    strokes(6, 4),
    strokes(6, 2),
    strokes(6, 1),
    strokes(6, 0),
]
OBEN_MARKS = [mark("V"), mark("V"), mark("I"), mark("I")]
FULL_WHY_LAST_FOUR = [
    [
        "Unten wins Gaigel: a double.",
        "Oben takes 1 stroke (only 1 was left to give): 10 of 10 given.",
        "Every stroke is given: from now on the winners erase their own.",
    ],
    ["Unten wins Gaigel: a double.", "Unten erases 2 (now 2)."],
    ["Unten wins Aus: a single.", "Unten erases 1 (now 1)."],
    [
        "Unten wins Übergaigeln: a double.",
        "Unten erases 1 (now 0); the other 1 is lost.",
        "Unten has erased every stroke: it wins the match.",
    ],
]


# --- talking to the API -----------------------------------------------------------------------


def start(client: FlaskClient, teams: dict | None = None, **options: Any) -> dict[str, Any]:
    """Start a team match through the API and return it."""
    return start_match(client, {"game": "gaigel", "teams": teams or TEAMS, "options": options})


def start_three(client: FlaskClient, **options: Any) -> dict[str, Any]:
    """Start a three-player match through the API and return it."""
    body = {"game": "gaigel", "players": THREE, "options": {"mode": "three", **options}}
    return start_match(client, body)


def post_deal(client: FlaskClient, match_id: int, entered: Any) -> Any:
    """Post the next deal through the API."""
    return send(client, "POST", rounds_url(match_id), entered)


def match_count(client: FlaskClient) -> int:
    """How many matches are stored."""
    return client.get("/api/matches").json["total"]


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def teams_match(client: FlaskClient) -> dict[str, Any]:
    """A fresh team match: Oben (Ana, Cy) against Unten (Bo, Di), 10 strokes."""
    return start(client)


@pytest.fixture
def after_example(client: FlaskClient, teams_match: dict) -> dict[str, Any]:
    """The team match after RULES.md's four example deals."""
    return play(client, teams_match["id"], *EXAMPLE)


@pytest.fixture
def three_match(client: FlaskClient) -> dict[str, Any]:
    """A fresh three-player match: Ana, Bo and Cy."""
    return start_three(client)


# --- starting a match through the API ---------------------------------------------------------


@pytest.mark.parametrize(
    ("teams", "players"),
    [
        pytest.param(TEAMS, ["Ana", "Bo", "Cy", "Di"], id="four"),
        pytest.param(SIX, ["Ana", "Bo", "Cy", "Di", "Ed", "Fi"], id="six"),
    ],
)
def test_team_match_seats_partners_opposite(
    client: FlaskClient, teams: dict, players: list[str]
) -> None:
    match = start(client, teams)
    assert match["game"] == "gaigel"
    assert match["players"] == players
    assert match["teams"] == teams
    assert match["options"] == {
        "mode": "teams",
        "strokes": 10,
        "five_sevens": False,
        "auf_farbe": False,
        "first_dealer": "Ana",
    }
    assert match["totals"] == strokes(0, 0)
    assert (match["status"], match["winner"], match["rounds"]) == ("playing", None, [])
    assert match["state"] == slate(0, [], [], "Ana")


def test_three_player_match_starts_with_the_first_session(client: FlaskClient) -> None:
    match = start_three(client)
    assert match["players"] == THREE
    assert match["teams"] is None
    assert match["options"]["mode"] == "three"
    assert match["totals"] == each(0, 0, 0)
    assert match["state"] == {"session": 1, "deal_in_session": 1, "dealer": "Ana"}
    assert (match["status"], match["winner"]) == ("playing", None)


START_REFUSALS = [
    pytest.param(
        {"teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di", "Ed"]}},
        "teams",
        "two teams of 2 or 3",
        id="unequal-teams",
    ),
    pytest.param(
        {"teams": {"Oben": ["Ana", "Cy", "Ed"], "Unten": ["Bo", "Di", "Fi", "Gu"]}},
        "teams",
        "two teams of 2 or 3",
        id="three-against-four",
    ),
    pytest.param(
        {"teams": {"Oben": ["Ana"], "Unten": ["Bo"]}},
        "teams",
        "two teams of 2 or 3",
        id="two-players",
    ),
    pytest.param(
        {"players": ["Ana", "Bo", "Cy", "Di", "Ed"]},
        "teams",
        "two teams of 2 or 3",
        id="five-players",
    ),
    pytest.param(
        {"teams": TEAMS, "options": {"mode": "three"}},
        "players",
        "list of 3",
        id="teams-in-mode-three",
    ),
    pytest.param(
        {"players": ["Ana", "Bo", "Cy", "Di"], "options": {"mode": "three"}},
        "players",
        "not 4",
        id="four-in-mode-three",
    ),
    pytest.param(
        {"players": THREE},
        "teams",
        "two teams of 2 or 3",
        id="three-without-the-mode",
    ),
    pytest.param(
        {"teams": TEAMS, "options": {"mode": "pairs"}},
        "options.mode",
        "Mode must be one of: teams, three.",
        id="unknown-mode",
    ),
    pytest.param(
        {"teams": TEAMS, "options": {"strokes": 0}},
        "options.strokes",
        "Strokes must be between 1 and 40.",
        id="no-strokes",
    ),
]
"""How a match of gaigel is refused at its start: body, field, words (see test_every_game_web)."""


def test_games_list_gaigel(client: FlaskClient) -> None:
    games = client.get("/api/games").json["games"]
    [gaigel] = [game for game in games if game["id"] == "gaigel"]
    assert gaigel["name"] == "Gaigel"
    assert gaigel["players"] == [3, 4, 6]
    assert gaigel["teams"] is True
    options = {option["name"]: option for option in gaigel["options"]}
    assert list(options) == [
        "mode",
        "strokes",
        "five_sevens",
        "auf_farbe",
        "first_dealer",
        "match_deals",
    ]
    assert options["mode"]["choices"] == ["teams", "three"]
    assert options["mode"]["default"] == "teams"
    assert (options["strokes"]["default"], options["strokes"]["minimum"]) == (10, 1)
    assert options["strokes"]["maximum"] == 40
    assert options["five_sevens"]["default"] is False
    assert options["auf_farbe"]["default"] is False


# --- team deals through the API ---------------------------------------------------------------


@pytest.mark.parametrize(
    "fourth",
    [
        pytest.param(EXAMPLE[3], id="claimed"),
        pytest.param(deal("Oben", points=96), id="checked-from-96"),
    ],
)
def test_rules_example_deal_by_deal(client: FlaskClient, teams_match: dict, fourth: dict) -> None:
    match_id = teams_match["id"]
    for n, entered in enumerate([*EXAMPLE[:3], fourth], start=1):
        response = post_deal(client, match_id, entered)
        assert response.status_code == 201, response.json
        played, match = response.json["round"], response.json["match"]
        assert played["n"] == n
        assert played["totals"] == match["totals"] == EXAMPLE_TOTALS[n - 1]
        checked = ["Oben called Aus with 96 in cards: under 101."] if "evidence" in entered else []
        assert played["explanation"] == checked + EXAMPLE_WHY[n - 1]
        assert match["state"] == EXAMPLE_STATES[n - 1]
        assert (match["status"], match["winner"]) == ("playing", None)
    assert [r["scores"] for r in match["rounds"]] == [
        strokes(0, 1),
        strokes(2, 0),
        strokes(0, 1),
        strokes(2, 0),
    ]
    assert [(r["input"]["winner"], r["input"]["outcome"]) for r in match["rounds"]] == [
        ("Oben", "aus"),
        ("Unten", "gaigel"),
        ("Oben", "aus"),
        ("Unten", "untergaigeln"),
    ]


@pytest.mark.parametrize(
    ("entered", "stored", "scores"),
    [
        pytest.param(
            deal("Oben", points=96),
            deal("Unten", "untergaigeln", points=96, marriages=[]),
            strokes(2, 0),
            id="96-is-untergaigeln",
        ),
        pytest.param(
            deal("Oben", points=76, marriages=[20]),
            deal("Unten", "untergaigeln", points=76, marriages=[20]),
            strokes(2, 0),
            id="76-and-20",
        ),
        pytest.param(
            deal("Oben", points=81, marriages=[20]),
            deal("Oben", "aus", points=81, marriages=[20]),
            strokes(0, 1),
            id="81-and-20-is-101",
        ),
        pytest.param(
            deal("Unten", points=41, marriages=[20, 40], loser_tricks=0),
            deal("Unten", "gaigel", points=41, marriages=[40, 20], loser_tricks=0),
            strokes(2, 0),
            id="gaigel-marriages-sorted",
        ),
        pytest.param(
            deal("Unten", points=120, loser_tricks=3),
            deal("Unten", "aus", points=120, marriages=[], loser_tricks=3),
            strokes(1, 0),
            id="loser-took-tricks",
        ),
        pytest.param(
            deal("Oben", points=0, marriages=[40, 40, 20]),
            deal("Unten", "untergaigeln", points=0, marriages=[40, 40, 20]),
            strokes(2, 0),
            id="marriages-need-a-trick",
        ),
    ],
)
def test_evidence_without_outcome_derives_it(
    client: FlaskClient, teams_match: dict, entered: dict, stored: dict, scores: dict
) -> None:
    match_id = teams_match["id"]
    response = post_deal(client, match_id, entered)
    assert response.status_code == 201, response.json
    played = response.json["round"]
    assert played["input"] == stored
    assert played["scores"] == played["totals"] == scores
    assert api_match(client, match_id)["rounds"][0]["input"] == stored
    [logged] = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert logged["input"] == stored


def test_derived_outcome_is_explained(client: FlaskClient, teams_match: dict) -> None:
    # RULES.md: one sentence per rule that produced a number; the 101 decided this deal.
    response = post_deal(client, teams_match["id"], deal("Oben", points=96))
    assert response.status_code == 201
    why = " ".join(response.json["round"]["explanation"])
    assert "96" in why and "101" in why, why


@pytest.mark.parametrize(
    ("entered", "message"),
    [
        pytest.param(
            deal("Oben", "aus", points=96),
            "The evidence says Untergaigeln for Unten, not Aus for Oben: "
            "Oben called Aus with 96 in cards: under 101.",
            id="aus-under-101",
        ),
        pytest.param(
            deal("Oben", "gaigel", points=110, loser_tricks=2),
            "The evidence says Aus for Oben, not Gaigel for Oben: "
            "Oben has 110 in cards, and Unten took a trick.",
            id="gaigel-but-tricks",
        ),
        pytest.param(
            deal("Unten", "untergaigeln", points=81, marriages=[20]),
            "The evidence says Aus for Oben, not Untergaigeln for Unten: "
            "Oben has 81 + 20 = 101 with marriages, and Unten took a trick.",
            id="untergaigeln-but-101",
        ),
        pytest.param(
            deal("Unten", "uebergaigeln", points=90),
            "Oben had 90 in cards: under 101, nobody can be caught playing on.",
            id="uebergaigeln-under-101",
        ),
    ],
)
def test_claim_contradicting_the_evidence_is_refused(
    client: FlaskClient, after_example: dict, entered: dict, message: str
) -> None:
    match_id = after_example["id"]
    with unchanged(client, match_id):
        body = refused(post_deal(client, match_id, entered), 422, "outcome")
    assert body["fields"]["outcome"] == [message]
    assert body["error"] == message


@pytest.mark.parametrize(
    ("entered", "stored", "scores"),
    [
        pytest.param(
            deal("Unten", "uebergaigeln", points=95, marriages=[20]),
            deal("Unten", "uebergaigeln", points=95, marriages=[20]),
            strokes(2, 0),
            id="uebergaigeln-with-115",
        ),
        pytest.param(
            deal("Oben", "gaigel", points=110),
            deal("Oben", "gaigel", points=110, marriages=[]),
            strokes(0, 2),
            id="gaigel-tricks-not-given",
        ),
        pytest.param(
            deal("Unten", "untergaigeln", points=80, marriages=[20]),
            deal("Unten", "untergaigeln", points=80, marriages=[20]),
            strokes(2, 0),
            id="untergaigeln-at-100",
        ),
    ],
)
def test_claim_agreeing_with_the_evidence_stands(
    client: FlaskClient, teams_match: dict, entered: dict, stored: dict, scores: dict
) -> None:
    response = post_deal(client, teams_match["id"], entered)
    assert response.status_code == 201, response.json
    assert response.json["round"]["input"] == stored
    assert response.json["round"]["totals"] == scores


@pytest.mark.parametrize("variant", ["five_sevens", "auf_farbe"])
def test_variant_outcomes_are_refused_unless_enabled(
    client: FlaskClient, teams_match: dict, variant: str
) -> None:
    match_id = teams_match["id"]
    with unchanged(client, match_id):
        body = refused(post_deal(client, match_id, deal("Oben", variant)), 422, "outcome")
    assert body["fields"]["outcome"] == [
        f"'{variant}' is not played in this match; choose Aus, Gaigel, Untergaigeln or Übergaigeln."
    ]


@pytest.mark.parametrize(
    ("variant", "name"), [("five_sevens", "Five sevens"), ("auf_farbe", "Auf Farbe")]
)
def test_enabled_variant_wins_a_single(client: FlaskClient, variant: str, name: str) -> None:
    match_id = start(client, **{variant: True})["id"]
    response = post_deal(client, match_id, deal("Oben", variant))
    assert response.status_code == 201, response.json
    played = response.json["round"]
    assert played["input"] == {"winner": "Oben", "outcome": variant}
    assert played["totals"] == strokes(0, 1)
    assert played["explanation"] == [
        f"Oben wins {name}: a single.",
        "Unten takes 1 stroke: 1 of 10 given.",
    ]
    other = "auf_farbe" if variant == "five_sevens" else "five_sevens"
    refused(post_deal(client, match_id, deal("Oben", other)), 422, "outcome", "not played")


def test_variant_cannot_be_checked_as_an_aus(client: FlaskClient) -> None:
    match_id = start(client, five_sevens=True)["id"]
    with unchanged(client, match_id):
        response = post_deal(client, match_id, deal("Oben", "five_sevens", points=110))
        refused(response, 422, "evidence", "The evidence checks an Aus, not Five sevens.")


@pytest.mark.parametrize(
    ("evidence", "field", "words"),
    [
        pytest.param({"points": 250}, "evidence.points", "Points is 0 to 240.", id="250"),
        pytest.param({"points": -1}, "evidence.points", "Points is 0 to 240.", id="negative"),
        pytest.param({"points": "96"}, "evidence.points", "Points is 0 to 240.", id="text"),
        pytest.param({"marriages": [20]}, "evidence.points", "Points is 0 to 240.", id="none"),
        pytest.param(
            {"points": 60, "marriages": [40, 40, 40]},
            "evidence.marriages.40",
            "The pack holds only 2 marriages of 40; 3 were given.",
            id="three-marriages-of-40",
        ),
        pytest.param(
            {"points": 10, "marriages": [20] * 7},
            "evidence.marriages.20",
            "The pack holds only 6 marriages of 20; 7 were given.",
            id="seven-marriages-of-20",
        ),
        pytest.param(
            {"points": 90, "marriages": [30]},
            "evidence.marriages",
            "Marriages are a list of 20s and 40s",
            id="marriage-of-30",
        ),
        pytest.param(
            {"points": 110, "loser_tricks": 13},
            "evidence.loser_tricks",
            "Loser tricks is 0 to 12.",
            id="thirteen-tricks",
        ),
        pytest.param(
            {"points": 110, "caller_tricks": 0},
            "evidence.caller_tricks",
            "A team with card points has taken a trick.",
            id="points-without-a-trick",
        ),
        pytest.param(
            {"points": 110, "caller_tricks": 8, "loser_tricks": 5},
            "evidence.loser_tricks",
            "A deal has 12 tricks in all.",
            id="thirteen-tricks-in-all",
        ),
        pytest.param(
            {"points": 110, "trumps": "acorns"},
            "evidence.trumps",
            "Evidence has no 'trumps'.",
            id="unknown-key",
        ),
    ],
)
def test_impossible_evidence_is_refused(
    client: FlaskClient, after_example: dict, evidence: dict, field: str, words: str
) -> None:
    match_id = after_example["id"]
    with unchanged(client, match_id):
        refused(
            post_deal(client, match_id, {"winner": "Oben", "evidence": evidence}), 422, field, words
        )


def test_six_players_take_at_most_eight_tricks(client: FlaskClient) -> None:
    match_id = start(client, SIX)["id"]
    entered = deal("Oben", points=110, loser_tricks=9)
    with unchanged(client, match_id):
        refused(post_deal(client, match_id, entered), 422, "evidence.loser_tricks", "0 to 8.")
    response = post_deal(client, match_id, deal("Oben", points=110, loser_tricks=8))
    assert response.status_code == 201
    assert response.json["round"]["input"]["outcome"] == "aus"


@pytest.mark.parametrize(
    "winner",
    [
        pytest.param("Ana", id="a-player"),
        pytest.param("Nobody", id="unknown"),
        pytest.param("", id="empty"),
        pytest.param(None, id="null"),
        pytest.param(["Oben"], id="list"),
    ],
)
def test_winner_must_be_a_team(client: FlaskClient, after_example: dict, winner: Any) -> None:
    match_id = after_example["id"]
    with unchanged(client, match_id):
        body = refused(
            post_deal(client, match_id, {"winner": winner, "outcome": "aus"}), 422, "winner"
        )
    assert body["fields"]["winner"] == ["Name a team: Oben and Unten."]


def test_team_names_match_case_insensitively(client: FlaskClient, teams_match: dict) -> None:
    response = post_deal(client, teams_match["id"], deal(" unten ", "aus"))
    assert response.status_code == 201, response.json
    assert response.json["round"]["input"] == {"winner": "Unten", "outcome": "aus"}
    assert response.json["round"]["totals"] == strokes(1, 0)


@pytest.mark.parametrize(
    ("entered", "field", "words"),
    [
        pytest.param(
            {"winner": "Oben"},
            "outcome",
            "Say how the deal was won: Aus, Gaigel, Untergaigeln or Übergaigeln.",
            id="no-outcome",
        ),
        pytest.param(
            deal("Oben", "schneider"), "outcome", "'schneider' is not an outcome", id="unknown"
        ),
        pytest.param(
            {"winner": "Oben", "outcome": "aus", "points": 110},
            "points",
            "A deal has winner, outcome and evidence, not 'points'.",
            id="stray-key",
        ),
        pytest.param(
            {"winner": "Oben", "evidence": [96]},
            "evidence",
            "Evidence is an object",
            id="evidence-not-an-object",
        ),
    ],
)
def test_malformed_deals_are_refused(
    client: FlaskClient, after_example: dict, entered: dict, field: str, words: str
) -> None:
    match_id = after_example["id"]
    with unchanged(client, match_id):
        refused(post_deal(client, match_id, entered), 422, field, words)


def test_a_match_played_to_its_winner(client: FlaskClient, teams_match: dict) -> None:
    match_id = teams_match["id"]
    for n, entered in enumerate(FULL, start=1):
        response = post_deal(client, match_id, entered)
        assert response.status_code == 201, response.json
        match = response.json["match"]
        assert match["totals"] == FULL_TOTALS[n - 1], n
        assert match["state"]["phase"] == ("giving" if n < 7 else "erasing"), n
        assert (match["status"], match["winner"]) == (
            ("finished", "Unten") if n == 10 else ("playing", None)
        ), n
    assert [r["explanation"] for r in match["rounds"][6:]] == FULL_WHY_LAST_FOUR
    assert match["state"] == slate(10, OBEN_MARKS, [mark("I", 1), mark("I", 1), mark("V", 2)], "Cy")
    with unchanged(client, match_id):
        body = refused(post_deal(client, match_id, deal("Oben", "aus")), 409)
    assert body["error"] == (
        "The match is over: Unten wins: every stroke erased! Start a new match to play on."
    )
    assert body["fields"] == {}
    summary = client.get("/api/matches?game=gaigel").json["matches"][0]
    assert (summary["status"], summary["winner"], summary["totals"]) == (
        "finished",
        "Unten",
        strokes(6, 0),
    )


def test_a_team_without_strokes_wins_as_the_giving_ends(client: FlaskClient) -> None:
    match_id = start(client)["id"]
    match = play(client, match_id, *[deal("Oben", "gaigel")] * 4)
    assert (match["status"], match["state"]["phase"]) == ("playing", "giving")
    match = play(client, match_id, deal("Oben", "gaigel"))
    assert (match["status"], match["winner"]) == ("finished", "Oben")
    assert match["totals"] == strokes(0, 10)
    assert match["state"] == slate(10, [], [mark("V")] * 5, "Bo")
    assert match["rounds"][-1]["explanation"] == [
        "Oben wins Gaigel: a double.",
        "Unten takes 2 strokes: 10 of 10 given.",
        "Every stroke is given: from now on the winners erase their own.",
        "Oben took no stroke at all: it wins as the giving ends.",
    ]
    refused(post_deal(client, match_id, deal("Unten", "aus")), 409)


def test_correcting_a_phase_one_deal_rescores_the_rest(client: FlaskClient, after_example: dict):
    match_id = after_example["id"]
    response = send(client, "PUT", rounds_url(match_id, 1), deal("Unten", "aus"))
    assert response.status_code == 200, response.json
    assert response.json["round"]["input"] == {"winner": "Unten", "outcome": "aus"}
    assert response.json["round"]["corrected_at"] is not None
    match = response.json["match"]
    assert [r["totals"] for r in match["rounds"]] == [
        strokes(1, 0),
        strokes(3, 0),
        strokes(3, 1),
        strokes(5, 1),
    ]
    assert match["totals"] == strokes(5, 1)
    assert match["state"] == slate(6, [mark("I"), mark("V"), mark("V")], [mark("I")], "Ana")
    assert match["rounds"][2]["explanation"] == EXAMPLE_WHY[2]
    log = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert (log[-1]["action"], log[-1]["n"]) == ("correct", 1)
    assert log[-1]["replaced"] == EXAMPLE[0]
    assert api_match(client, match_id) == match


def test_correction_ending_the_match_before_later_deals_is_a_conflict(client: FlaskClient):
    match_id = start(client, strokes=4)["id"]
    match = play(
        client,
        match_id,
        deal("Oben", "gaigel"),
        deal("Unten", "aus"),
        deal("Oben", "aus"),
        deal("Unten", "aus"),
    )
    assert match["totals"] == strokes(1, 2)
    assert (match["status"], match["state"]["phase"]) == ("playing", "erasing")
    with unchanged(client, match_id):
        body = refused(send(client, "PUT", rounds_url(match_id, 2), deal("Oben", "gaigel")), 409)
    assert body["error"].startswith(
        "With this change the match would end after deal 2, "
        "but 2 more were played after it. Remove the later deals first."
    )


# --- three-player deals through the API -------------------------------------------------------


@pytest.mark.parametrize(
    ("entered", "scores", "why"),
    [
        pytest.param(
            three_deal((120, 80, 40)),
            each(5, 3, 1),
            ["By card points: Ana 120 → 5, Bo 80 → 3, Cy 40 → 1."],
            id="5-3-1",
        ),
        pytest.param(
            three_deal((40, 80, 120)),
            each(1, 3, 5),
            ["By card points: Cy 120 → 5, Bo 80 → 3, Ana 40 → 1."],
            id="reversed",
        ),
        pytest.param(
            three_deal((150, 90, 0)),
            each(6, 3, 0),
            ["By card points: Ana 150 → 6, Bo 90 → 3.", "Cy took no trick: 0."],
            id="no-trick-6-3",
        ),
        pytest.param(
            three_deal((150, 90, 0), took=(True, True, True)),
            each(5, 3, 1),
            ["By card points: Ana 150 → 5, Bo 90 → 3, Cy 0 → 1."],
            id="a-trick-of-sevens",
        ),
        pytest.param(
            three_deal((0, 240, 0)),
            each(0, 9, 0),
            ["By card points: Bo 240 → 9.", "Ana and Cy took no trick: 0."],
            id="all-nine",
        ),
        pytest.param(
            three_deal((100, 100, 40), cut=["Bo", "Ana"]),
            each(3, 5, 1),
            [
                "By card points: Bo 100 → 5, Ana 100 → 3, Cy 40 → 1.",
                "Bo and Ana tied and cut in that order.",
            ],
            id="two-cut",
        ),
        pytest.param(
            three_deal((80, 80, 80), cut=["Cy", "Ana", "Bo"]),
            each(3, 1, 5),
            [
                "By card points: Cy 80 → 5, Ana 80 → 3, Bo 80 → 1.",
                "Cy, Ana and Bo tied and cut in that order.",
            ],
            id="three-cut",
        ),
        pytest.param(
            three_deal((120, 120, 0), cut=["Bo", "Ana"]),
            each(3, 6, 0),
            [
                "By card points: Bo 120 → 6, Ana 120 → 3.",
                "Cy took no trick: 0.",
                "Bo and Ana tied and cut in that order.",
            ],
            id="cut-beside-no-trick",
        ),
    ],
)
def test_three_player_deal_shares_nine_points(
    client: FlaskClient, three_match: dict, entered: dict, scores: dict, why: list[str]
) -> None:
    response = post_deal(client, three_match["id"], entered)
    assert response.status_code == 201, response.json
    played = response.json["round"]
    assert played["scores"] == played["totals"] == scores
    assert sum(played["scores"].values()) == 9
    assert played["explanation"] == why
    assert played["input"]["card_points"] == entered["card_points"]
    assert played["input"]["cut_order"] == entered.get("cut_order", [])
    took = entered.get("took_trick") or {n: p > 0 for n, p in entered["card_points"].items()}
    assert played["input"]["took_trick"] == took
    assert response.json["match"]["state"] == {"session": 1, "deal_in_session": 2, "dealer": "Bo"}


@pytest.mark.parametrize(
    ("entered", "field", "words"),
    [
        pytest.param(
            three_deal((100, 100, 40)),
            "cut_order",
            "Ana and Bo tie on card points: give the order they cut, best first.",
            id="tie-without-cut",
        ),
        pytest.param(
            three_deal((100, 100, 40), cut=["Ana", "Cy"]),
            "cut_order",
            "Ana and Bo tie on card points",
            id="cut-the-wrong-players",
        ),
        pytest.param(
            three_deal((100, 100, 40), cut=["Ana"]),
            "cut_order",
            "Ana and Bo tie on card points",
            id="cut-of-one",
        ),
        pytest.param(
            three_deal((100, 100, 40), cut=["Ana", "Ana"]),
            "cut_order",
            "Ana and Bo tie on card points",
            id="cut-twice",
        ),
        pytest.param(
            three_deal((80, 80, 80), cut=["Cy", "Ana"]),
            "cut_order",
            "Ana, Bo and Cy tie on card points",
            id="three-tie-two-cut",
        ),
        pytest.param(
            three_deal((120, 80, 40), cut=["Ana", "Bo"]),
            "cut_order",
            "Nobody ties on card points, so there is nothing to cut.",
            id="cut-without-tie",
        ),
        pytest.param(
            three_deal((100, 100, 40), cut=["Bo", "Zed"]),
            "cut_order.1",
            "'Zed' is not a player in this match",
            id="cut-a-stranger",
        ),
        pytest.param(
            three_deal((100, 100, 40)) | {"cut_order": "Bo"},
            "cut_order",
            "The cut order is a list of names",
            id="cut-not-a-list",
        ),
    ],
)
def test_three_player_cut_refusals(
    client: FlaskClient, three_match: dict, entered: dict, field: str, words: str
) -> None:
    match_id = three_match["id"]
    with unchanged(client, match_id):
        refused(post_deal(client, match_id, entered), 422, field, words)


@pytest.mark.parametrize(
    ("entered", "field", "words"),
    [
        pytest.param(
            {"card_points": {"Ana": 120, "Bo": 80}},
            "card_points.Cy",
            "Give Cy's card points.",
            id="missing-points",
        ),
        pytest.param(
            three_deal((150, 90, 10)),
            "card_points",
            "The card points add up to at most 240.",
            id="over-240",
        ),
        pytest.param(
            three_deal((120, 80, 40), took=(True, False, True)),
            "took_trick.Bo",
            "Bo has card points, so took a trick.",
            id="points-without-trick",
        ),
        pytest.param(
            three_deal((0, 0, 0)), "took_trick", "Somebody took the tricks.", id="no-tricks"
        ),
        pytest.param(
            {"card_points": {"Ana": 120, "Bo": 80, "Cy": 40, "Di": 0}},
            "card_points.Di",
            "'Di' is not a player in this match",
            id="stranger",
        ),
        pytest.param(
            {"winner": "Ana", "outcome": "aus"},
            "card_points",
            "card_points is an object",
            id="a-team-deal",
        ),
    ],
)
def test_three_player_deal_refusals(
    client: FlaskClient, three_match: dict, entered: dict, field: str, words: str
) -> None:
    match_id = three_match["id"]
    with unchanged(client, match_id):
        refused(post_deal(client, match_id, entered), 422, field, words)


def test_thirty_deals_finish_a_three_player_match(client: FlaskClient, three_match: dict):
    match_id = three_match["id"]
    match = play(client, match_id, *[three_deal((120, 80, 40))] * 10)
    assert match["state"] == {"session": 2, "deal_in_session": 1, "dealer": "Bo"}
    match = play(client, match_id, *[three_deal((40, 120, 80))] * 19)
    assert match["state"] == {"session": 3, "deal_in_session": 10, "dealer": "Cy"}
    assert match["totals"] == each(69, 125, 67)
    assert match["status"] == "playing"
    match = play(client, match_id, three_deal((40, 120, 80)))
    assert match["totals"] == each(70, 130, 70)
    assert (match["status"], match["winner"]) == ("finished", "Bo")
    assert match["state"] == {"session": 3, "deal_in_session": 10, "dealer": "Ana"}
    assert match["rounds"][-1]["explanation"][-1] == "Three sessions played: Bo wins with 130."
    with unchanged(client, match_id):
        body = refused(post_deal(client, match_id, three_deal((120, 80, 40))), 409)
    assert body["error"] == "The match is over: Bo wins with 130! Start a new match to play on."


def test_a_shared_first_place_after_thirty_deals(client: FlaskClient, three_match: dict):
    match_id = three_match["id"]
    rotation = [three_deal((120, 80, 40)), three_deal((40, 120, 80)), three_deal((80, 40, 120))]
    match = play(client, match_id, *rotation * 10)
    assert match["totals"] == each(90, 90, 90)
    assert (match["status"], match["winner"]) == ("finished", None)
    assert match["state"]["shared_first"] == THREE
    assert match["rounds"][-1]["explanation"][-1] == (
        "Three sessions played: Ana, Bo and Cy share first place with 90."
    )
    with unchanged(client, match_id):
        body = refused(post_deal(client, match_id, three_deal((120, 80, 40))), 409)
    assert body["error"].startswith("The match is over")
    assert "None" not in body["error"], body["error"]


# --- the new-match page -----------------------------------------------------------------------

TEAMS_LINK = "Two teams (4 or 6)"
THREE_LINK = "Three players"


def layout_links(doc: Node) -> list[tuple[str, str, bool]]:
    """The seating choices above the form: text, address, and whether it is the one shown."""
    nav = doc.find("nav", "layouts")
    return [
        (a.text(), a.attrs["href"], "primary" in a.attrs["class"].split())
        for a in nav.find_all("a")
    ]


def layout_url(client: FlaskClient, link: str | None) -> str:
    """The new-match page a seating link leads to (None: the page with no choice made)."""
    if link is None:
        return "/matches/new/gaigel"
    found = layout_links(parse(client.get("/matches/new/gaigel")))
    return next(href for text, href, _ in found if text == link)


def test_new_gaigel_page_shows_two_teams(client: FlaskClient) -> None:
    response = client.get("/matches/new/gaigel")
    assert response.status_code == 200
    doc = parse(response)
    assert layout_links(doc) == [
        (TEAMS_LINK, "/matches/new/gaigel?layout=teams", True),
        (THREE_LINK, "/matches/new/gaigel?layout=three", False),
    ]
    fieldsets = doc.find_all("fieldset", "names")
    assert [f.find("legend").text() for f in fieldsets] == ["Team 1", "Team 2"]
    for i, (fieldset, team) in enumerate(zip(fieldsets, ["Oben", "Unten"], strict=True)):
        boxes = fieldset.find_all("input")
        assert [box.attrs["name"] for box in boxes] == [
            f"team_{i}",
            *(f"team_{i}_players-{seat}" for seat in range(3)),
        ]
        assert [box.attrs.get("value") for box in boxes] == [team, "", "", ""]
        labels = [label.text() for label in fieldset.find_all("label")]
        assert labels == ["Team name", "Player 1", "Player 2", "Player 3"]
    assert doc.find("input", name="players-0") is None
    assert field_errors(doc) == {}
    assert alerts(doc) == []


def test_teams_link_shows_the_same_two_teams(client: FlaskClient) -> None:
    doc = parse(client.get(layout_url(client, TEAMS_LINK)))
    assert [f.find("legend").text() for f in doc.find_all("fieldset", "names")] == [
        "Team 1",
        "Team 2",
    ]
    assert (values(doc)["team_0"], values(doc)["team_1"]) == ("Oben", "Unten")
    assert [primary for _, _, primary in layout_links(doc)] == [True, False]


@pytest.mark.parametrize("link", [None, TEAMS_LINK, THREE_LINK])
def test_new_gaigel_page_leaves_the_mode_to_the_layout_links(
    client: FlaskClient, link: str | None
) -> None:
    doc = parse(client.get(layout_url(client, link)))
    assert doc.find_all("input", name="option_mode") == []
    assert doc.find("fieldset", id="option_mode") is None
    options = doc.find("fieldset", "options").text()
    assert "Mode" not in options
    assert "First dealer" in options
    # Strokes and the five-card wins mean nothing to three players: only who deals first.
    assert ("Strokes" in options) == (link != THREE_LINK)


def test_new_gaigel_page_for_three_players(client: FlaskClient) -> None:
    response = client.get(layout_url(client, THREE_LINK))
    assert response.status_code == 200
    doc = parse(response)
    assert [(text, primary) for text, _, primary in layout_links(doc)] == [
        (TEAMS_LINK, False),
        (THREE_LINK, True),
    ]
    [fieldset] = doc.find_all("fieldset", "names")
    assert fieldset.find("legend").text() == "Players, in seating order (3)"
    boxes = fieldset.find_all("input")
    assert [box.attrs["name"] for box in boxes] == ["players-0", "players-1", "players-2"]
    assert [label.text() for label in fieldset.find_all("label")] == [
        "Player 1",
        "Player 2",
        "Player 3",
    ]
    assert doc.find("input", name="team_0") is None
    assert field_errors(doc) == {}


def test_new_three_player_match_through_the_page(client: FlaskClient) -> None:
    typed = {f"players-{seat}": name for seat, name in enumerate(["Ana", " Bo ", "Cy"])}
    response = client.post(layout_url(client, THREE_LINK), data=typed)
    assert response.status_code == 302, field_errors(parse(response))
    match = opened_match(client, response)
    assert match["players"] == THREE
    assert match["teams"] is None
    assert match["options"] == {
        "mode": "three",
        "strokes": 10,
        "five_sevens": False,
        "auf_farbe": False,
        "first_dealer": "Ana",
    }


def test_new_three_player_match_page_refuses_two_names(client: FlaskClient) -> None:
    typed = {"players-0": "Ana", "players-1": "Bo", "players-2": ""}
    response = client.post(layout_url(client, THREE_LINK), data=typed)
    assert response.status_code == 422
    doc = parse(response)
    shown = values(doc)
    assert {name: shown[name] for name in typed} == typed
    assert "not 2" in " ".join(alerts(doc) + sum(field_errors(doc).values(), []))
    assert match_count(client) == 0


def team_form(first: Sequence[str], second: Sequence[str], **extra: str) -> dict[str, str]:
    """The new-match form for teams: team names default to Oben and Unten."""
    typed = {"team_0": "Oben", "team_1": "Unten"}
    for i, members in enumerate([first, second]):
        typed |= {f"team_{i}_players-{seat}": name for seat, name in enumerate(members)}
    return typed | extra


@pytest.mark.parametrize("link", [None, TEAMS_LINK])
@pytest.mark.parametrize(
    ("typed", "players", "teams", "strokes_option"),
    [
        pytest.param(
            team_form(["Ana", "Cy", ""], ["Bo", "Di", ""]),
            ["Ana", "Bo", "Cy", "Di"],
            TEAMS,
            10,
            id="four",
        ),
        pytest.param(
            team_form(["Ana", "Cy", "Ed"], ["Bo", "Di", "Fi"], option_strokes="12"),
            ["Ana", "Bo", "Cy", "Di", "Ed", "Fi"],
            SIX,
            12,
            id="six",
        ),
        pytest.param(
            team_form(["Ana", "", "Cy"], ["", "Bo", "Di"], team_0="Wir", team_1="Ihr"),
            ["Ana", "Bo", "Cy", "Di"],
            {"Wir": ["Ana", "Cy"], "Ihr": ["Bo", "Di"]},
            10,
            id="gaps-and-own-names",
        ),
    ],
)
def test_new_team_match_through_the_page(
    client: FlaskClient,
    link: str | None,
    typed: dict,
    players: list[str],
    teams: dict,
    strokes_option: int,
) -> None:
    response = client.post(layout_url(client, link), data=typed)
    assert response.status_code == 302, field_errors(parse(response))
    match = opened_match(client, response)
    assert match["players"] == players
    assert match["teams"] == teams
    assert match["options"] == {
        "mode": "teams",
        "strokes": strokes_option,
        "five_sevens": False,
        "auf_farbe": False,
        "first_dealer": "Ana",
    }


def test_new_team_match_page_refuses_unequal_teams(client: FlaskClient) -> None:
    typed = team_form(["Ana", "Cy", ""], ["Bo", "Di", "Ed"])
    response = client.post(layout_url(client, TEAMS_LINK), data=typed)
    assert response.status_code == 422
    doc = parse(response)
    shown = values(doc)
    assert {name: shown[name] for name in typed} == typed
    messages = " ".join(alerts(doc) + sum(field_errors(doc).values(), []))
    assert "two teams of 2 or 3" in messages
    assert match_count(client) == 0


# --- the team match page ----------------------------------------------------------------------


def board_caption(doc: Node) -> str:
    """The board's text equivalent."""
    return doc.find("figure", "board").find("figcaption").text()


def deal_rows(doc: Node) -> list[tuple[str, str, list[str]]]:
    """The deals table: number, who won how, and the strokes each team holds after it."""
    rows = []
    for body in doc.find("table", "sheet").find_all("tbody", "round"):
        row = body.find("tr")
        totals = [span.text() for span in row.find_all("span", "total")]
        cell = row.find("td", "deal")
        dealt = cell.find("small", "dealer")
        said = cell.text().removesuffix(" " + dealt.text()) if dealt else cell.text()
        rows.append((row.find("th").text(), said, totals))
    return rows


def radios(doc: Node, name: str) -> list[tuple[str, str]]:
    """A radio group's values and labels."""
    return [
        (node.attrs["value"], node.parent.text())
        for node in doc.find_all("input", type="radio", name=name)
    ]


@pytest.mark.parametrize(
    ("played", "caption", "pool_text"),
    [
        pytest.param(
            0,
            "Oben holds 0 strokes. Unten holds 0 strokes. Phase 1, giving: 10 of 10 left to give.",
            "Phase 1: giving · 10 left to give",
            id="fresh",
        ),
        pytest.param(
            1,
            "Oben holds 0 strokes. Unten holds 1 stroke (I). "
            "Phase 1, giving: 9 of 10 left to give.",
            "Phase 1: giving · 9 left to give",
            id="one-deal",
        ),
        pytest.param(
            4,
            "Oben holds 4 strokes (V, V). Unten holds 2 strokes (I, I). "
            "Phase 1, giving: 4 of 10 left to give.",
            "Phase 1: giving · 4 left to give",
            id="example",
        ),
        pytest.param(
            9,
            "Oben holds 6 strokes (V, V, I, I). Unten holds 1 stroke "
            "(I crossed, I crossed, V half crossed). Phase 2, erasing: 0 of 10 left to give.",
            "Phase 2: erasing · 0 left to give",
            id="half-crossed",
        ),
        pytest.param(
            10,
            "Oben holds 6 strokes (V, V, I, I). Unten holds 0 strokes "
            "(I crossed, I crossed, V crossed). Phase 2, erasing: 0 of 10 left to give.",
            "Phase 2: erasing · 0 left to give",
            id="won",
        ),
    ],
)
def test_board_figure_draws_the_slate(
    client: FlaskClient, teams_match: dict, played: int, caption: str, pool_text: str
) -> None:
    match_id = teams_match["id"]
    play(client, match_id, *FULL[:played])
    doc = parse(client.get(f"/matches/{match_id}"))
    figure = doc.find("figure", "board")
    svg = figure.find("svg")
    assert svg.attrs["role"] == "img"
    caption_node = figure.find("figcaption")
    assert svg.attrs["aria-labelledby"] == caption_node.attrs["id"]
    assert caption_node.text() == caption
    assert [node.text() for node in svg.find_all("text", "board-team")] == ["Oben", "Unten"]
    assert svg.find("text", "board-pool").text() == pool_text
    board = api_match(client, match_id)["state"]["board"]
    marks = [m for team in ("Oben", "Unten") for m in board[team]]
    assert len(svg.find_all("polyline", "stroke")) == sum(m["kind"] == "V" for m in marks)
    assert len(svg.find_all("line", "stroke")) == sum(m["kind"] == "I" for m in marks)
    assert len(svg.find_all("line", "erased")) == sum(m["crossed"] for m in marks)


def test_fresh_team_match_page(client: FlaskClient, teams_match: dict) -> None:
    doc = parse(client.get(f"/matches/{teams_match['id']}"))
    assert doc.find("p", "empty").text().startswith("Nothing scored yet.")
    assert deal_rows(doc) == []
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{teams_match['id']}/rounds"
    assert doc.find("h2", id="round-form-title").text() == "Deal 1"
    assert radios(form, "winner") == [("Oben", "Oben"), ("Unten", "Unten")]
    assert [f.find("legend").text() for f in form.find_all("fieldset", "choices")] == [
        "Which team won?",
        "How?",
    ]
    assert all(
        fieldset.parent.attrs.get("class") == "big-choices"
        for fieldset in form.find_all("fieldset", "choices")
    )
    evidence = form.find("details", "evidence")
    assert "open" not in evidence.attrs
    assert [box.attrs["name"] for box in evidence.find_all("input")] == [
        "points",
        "marriages_20",
        "marriages_40",
        "loser_tricks",
    ]
    assert values(form) == {
        "winner": None,
        "outcome": None,
        "points": "",
        "marriages_20": "",
        "marriages_40": "",
        "loser_tricks": "",
    }


@pytest.mark.parametrize(
    ("options", "extra"),
    [
        pytest.param({}, [], id="plain"),
        pytest.param({"five_sevens": True}, [("five_sevens", "Five sevens")], id="five-sevens"),
        pytest.param({"auf_farbe": True}, [("auf_farbe", "Auf Farbe")], id="auf-farbe"),
        pytest.param(
            {"five_sevens": True, "auf_farbe": True},
            [("five_sevens", "Five sevens"), ("auf_farbe", "Auf Farbe")],
            id="both",
        ),
    ],
)
def test_outcome_radios_offer_only_enabled_outcomes(
    client: FlaskClient, options: dict, extra: list
) -> None:
    match_id = start(client, **options)["id"]
    doc = parse(client.get(f"/matches/{match_id}"))
    expected = [*zip(OUTCOMES, OUTCOME_NAMES, strict=True), *extra]
    assert radios(doc.find("form", "round-form"), "outcome") == expected


def test_deal_form_records_a_deal_and_the_table_shows_it(
    client: FlaskClient, teams_match: dict
) -> None:
    match_id = teams_match["id"]
    response = post_form(client, match_id, {"winner": "Oben", "outcome": "aus"})
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    recorded = api_match(client, match_id)["rounds"][0]["id"]
    assert (location.path, location.query) == (f"/matches/{match_id}", f"recorded={recorded}")
    [played] = api_match(client, match_id)["rounds"]
    assert played["input"] == {"winner": "Oben", "outcome": "aus"}
    response = post_form(client, match_id, {"winner": "Unten", "outcome": "gaigel"})
    assert response.status_code == 302
    doc = parse(client.get(response.headers["Location"]))
    assert doc.find("form", "notice").find("span").text() == "Deal 2 recorded."
    headers = [th.text() for th in doc.find("table", "sheet").find("thead").find_all("th")]
    assert headers == ["#", "Deal", "Oben", "Unten"]
    assert deal_rows(doc) == [
        ("1", "Oben · Aus", ["0", "1"]),
        ("2", "Unten · Gaigel", ["2", "1"]),
    ]
    why = [li.text() for li in doc.find("tbody", id="round-2").find("tr", "why").find_all("li")]
    assert why == EXAMPLE_WHY[1]
    assert doc.find("h2", id="round-form-title").text() == "Deal 3"


@pytest.mark.parametrize(
    ("typed", "stored", "row", "totals"),
    [
        pytest.param(
            {"winner": "Oben", "points": "76", "marriages_20": "1"},
            deal("Unten", "untergaigeln", points=76, marriages=[20]),
            "Unten · Untergaigeln",
            ["2", "0"],
            id="76-and-20",
        ),
        pytest.param(
            {"winner": "Unten", "points": "61", "marriages_40": "1", "loser_tricks": "0"},
            deal("Unten", "gaigel", points=61, marriages=[40], loser_tricks=0),
            "Unten · Gaigel",
            ["2", "0"],
            id="gaigel",
        ),
        pytest.param(
            {"winner": "Oben", "outcome": "aus", "points": "81", "marriages_20": "1"},
            deal("Oben", "aus", points=81, marriages=[20]),
            "Oben · Aus",
            ["0", "1"],
            id="checked-claim",
        ),
    ],
)
def test_deal_form_checks_the_aus(
    client: FlaskClient, teams_match: dict, typed: dict, stored: dict, row: str, totals: list
) -> None:
    match_id = teams_match["id"]
    response = post_form(client, match_id, typed)
    assert response.status_code == 302, field_errors(parse(response))
    [played] = api_match(client, match_id)["rounds"]
    assert played["input"] == stored
    assert deal_rows(parse(client.get(f"/matches/{match_id}"))) == [("1", row, totals)]


def test_deal_form_keeps_a_contradicted_claim(client: FlaskClient, after_example: dict) -> None:
    match_id = after_example["id"]
    typed = {"winner": "Oben", "outcome": "aus", "points": "90", "marriages_20": ""}
    with unchanged(client, match_id):
        response = post_form(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    shown = values(doc.find("form", "round-form"))
    assert (shown["winner"], shown["outcome"], shown["points"]) == ("Oben", "aus", "90")
    assert field_errors(doc) == {
        "outcome": [
            "The evidence says Untergaigeln for Unten, not Aus for Oben: "
            "Oben called Aus with 90 in cards: under 101."
        ]
    }
    outcome = doc.find("fieldset", id="outcome")
    assert outcome.find("legend").text() == "How?"
    assert outcome.find("ul", "field-errors") is not None
    assert outcome.attrs["aria-describedby"] == "outcome-errors"
    assert alerts(doc) == [NOTHING_SAVED]
    assert "open" in doc.find("details", "evidence").attrs


@pytest.mark.parametrize(
    ("typed", "field", "message"),
    [
        pytest.param(
            {"winner": "Oben", "points": "250"}, "points", "Points is 0 to 240.", id="points"
        ),
        pytest.param(
            {"winner": "Oben", "points": "60", "marriages_40": "3"},
            "marriages_40",
            "The pack holds only 2 marriages of 40; 3 were given.",
            id="marriages-of-40",
        ),
        pytest.param(
            {"winner": "Oben", "points": "10", "marriages_20": "7"},
            "marriages_20",
            "The pack holds only 6 marriages of 20; 7 were given.",
            id="marriages-of-20",
        ),
        pytest.param(
            {"winner": "Oben", "points": "110", "loser_tricks": "13"},
            "loser_tricks",
            "Loser tricks is 0 to 12.",
            id="tricks",
        ),
        pytest.param({"outcome": "aus"}, "winner", "Name a team: Oben and Unten.", id="no-winner"),
        pytest.param(
            {"winner": "Oben"},
            "outcome",
            "Say how the deal was won: Aus, Gaigel, Untergaigeln or Übergaigeln.",
            id="no-outcome",
        ),
    ],
)
def test_deal_form_shows_a_refusal_by_its_box(
    client: FlaskClient, after_example: dict, typed: dict, field: str, message: str
) -> None:
    match_id = after_example["id"]
    with unchanged(client, match_id):
        response = post_form(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    assert field_errors(doc) == {field: [message]}
    assert alerts(doc) == [NOTHING_SAVED]
    shown = values(doc.find("form", "round-form"))
    assert {key: shown[key] for key in typed} == typed


def test_finished_team_match_page_has_no_deal_form(client: FlaskClient, teams_match: dict):
    match_id = teams_match["id"]
    play(client, match_id, *FULL)
    doc = parse(client.get(f"/matches/{match_id}"))
    assert doc.find("form", "round-form") is None
    assert doc.find("p", "banner").text().startswith("Unten wins")
    assert len(deal_rows(doc)) == 10
    assert deal_rows(doc)[-1] == ("10", "Unten · Übergaigeln", ["6", "0"])
    with unchanged(client, match_id):
        response = post_form(client, match_id, {"winner": "Oben", "outcome": "aus"})
        assert response.status_code == 409
    assert alerts(parse(response)) == [
        "The match is over: Unten wins: every stroke erased! Start a new match to play on."
    ]


# --- correcting a team deal through its page --------------------------------------------------


@pytest.mark.parametrize(
    ("entered", "expected"),
    [
        pytest.param(
            deal("Oben", points=76, marriages=[20]),
            {
                "winner": "Unten",
                "outcome": "untergaigeln",
                "points": "76",
                "marriages_20": "1",
                "marriages_40": "0",
                "loser_tricks": "",
            },
            id="evidence",
        ),
        pytest.param(
            deal("Unten", points=61, marriages=[40, 20], loser_tricks=0),
            {
                "winner": "Unten",
                "outcome": "gaigel",
                "points": "61",
                "marriages_20": "1",
                "marriages_40": "1",
                "loser_tricks": "0",
            },
            id="gaigel-evidence",
        ),
        pytest.param(
            deal("Oben", "uebergaigeln"),
            {
                "winner": "Oben",
                "outcome": "uebergaigeln",
                "points": "",
                "marriages_20": "",
                "marriages_40": "",
                "loser_tricks": "",
            },
            id="plain",
        ),
    ],
)
def test_edit_page_is_prefilled_from_the_stored_deal(
    client: FlaskClient, teams_match: dict, entered: dict, expected: dict
) -> None:
    match_id = teams_match["id"]
    play(client, match_id, entered)
    stored = api_match(client, match_id)["rounds"][0]["input"]
    response = client.get(f"/matches/{match_id}/rounds/1/edit")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("h1").text().startswith("Correct deal 1")
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{match_id}/rounds/1/edit"
    assert values(form) == expected
    # Saving the prefilled form as it stands keeps the deal as it was.
    typed = {key: value for key, value in expected.items() if value}
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data=typed)
    assert response.status_code == 302, field_errors(parse(response))
    assert api_match(client, match_id)["rounds"][0]["input"] == stored


def test_edit_page_correction_rescores_later_deals(client: FlaskClient, after_example: dict):
    match_id = after_example["id"]
    response = client.post(
        f"/matches/{match_id}/rounds/1/edit", data={"winner": "Unten", "outcome": "aus"}
    )
    assert response.status_code == 302
    assert urlsplit(response.headers["Location"]).fragment == "round-1"
    doc = parse(client.get(f"/matches/{match_id}"))
    assert "Deal 1 corrected; everything after it was scored again." in doc.text()
    assert deal_rows(doc) == [
        ("1", "Unten · Aus", ["1", "0"]),
        ("2", "Unten · Gaigel", ["3", "0"]),
        ("3", "Oben · Aus", ["3", "1"]),
        ("4", "Unten · Untergaigeln", ["5", "1"]),
    ]
    assert board_caption(doc) == (
        "Oben holds 5 strokes (I, V, V). Unten holds 1 stroke (I). "
        "Phase 1, giving: 4 of 10 left to give."
    )


def test_edit_page_refuses_a_correction_ending_the_match_early(client: FlaskClient) -> None:
    match_id = start(client, strokes=4)["id"]
    play(
        client,
        match_id,
        deal("Oben", "gaigel"),
        deal("Unten", "aus"),
        deal("Oben", "aus"),
        deal("Unten", "aus"),
    )
    typed = {"winner": "Oben", "outcome": "gaigel"}
    with unchanged(client, match_id):
        response = client.post(f"/matches/{match_id}/rounds/2/edit", data=typed)
        assert response.status_code == 409
    doc = parse(response)
    [alert] = alerts(doc)
    assert alert.startswith("With this change the match would end after deal 2")
    shown = values(doc.find("form", "round-form"))
    assert (shown["winner"], shown["outcome"]) == ("Oben", "gaigel")


# --- the three-player match page --------------------------------------------------------------


def player_form(
    points: Sequence[int | str],
    took: Sequence[bool] = (True, True, True),
    cut: Sequence[int | str] = ("", "", ""),
) -> dict[str, str]:
    """The three-player deal form: an unticked box is left out, as a browser does."""
    typed: dict[str, str] = {}
    for seat in range(3):
        typed[f"players-{seat}-card_points"] = str(points[seat])
        typed[f"players-{seat}-cut"] = str(cut[seat])
        if took[seat]:
            typed[f"players-{seat}-took_trick"] = "y"
    return typed


def sheet(doc: Node) -> dict[str, Any]:
    """The three-player sheet: each deal's scores and totals per player, and the final row."""
    table = doc.find("table", "sheet")
    names = [th.text() for th in table.find("thead").find_all("th")][1:]
    deals = []
    for body in table.find_all("tbody", "round"):
        cells = body.find("tr").find_all("td")
        deals.append(
            {
                "scores": [cell.find("span", "score").text() for cell in cells],
                "totals": [cell.find("span", "total").text() for cell in cells],
            }
        )
    footer = [td.text() for td in table.find("tfoot").find_all("td")]
    return {"names": names, "deals": deals, "totals": footer}


def test_three_player_page_shows_a_line_per_player(client: FlaskClient, three_match: dict):
    match_id = three_match["id"]
    doc = parse(client.get(f"/matches/{match_id}"))
    assert doc.find("figure", "board") is None
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{match_id}/rounds"
    lines = form.find_all("fieldset", "player-line")
    assert [line.find("legend").text() for line in lines] == THREE
    for seat, line in enumerate(lines):
        assert [box.attrs["name"] for box in line.find_all("input")] == [
            f"players-{seat}-card_points",
            f"players-{seat}-cut",
            f"players-{seat}-took_trick",
        ]
        assert [label.text() for label in line.find_all("label")] == [
            "Card points",
            "Cut place",
            "Took a trick",
        ]
    fresh: dict[str, Any] = {}
    for seat in range(3):
        fresh |= {
            f"players-{seat}-card_points": "",
            f"players-{seat}-cut": "",
            f"players-{seat}-took_trick": True,
        }
    assert values(form) == fresh
    assert form.find("input", name="winner") is None


def test_three_player_form_records_game_points(client: FlaskClient, three_match: dict) -> None:
    match_id = three_match["id"]
    response = post_form(client, match_id, player_form((120, 80, 40)))
    assert response.status_code == 302, field_errors(parse(response))
    location = urlsplit(response.headers["Location"])
    recorded = api_match(client, match_id)["rounds"][0]["id"]
    assert (location.path, location.query) == (f"/matches/{match_id}", f"recorded={recorded}")
    response = post_form(
        client, match_id, player_form((100, 100, 0), (True, True, False), (2, 1, ""))
    )
    assert response.status_code == 302, field_errors(parse(response))
    rounds = api_match(client, match_id)["rounds"]
    assert rounds[0]["input"] == {
        "card_points": each(120, 80, 40),
        "took_trick": {name: True for name in THREE},
        "cut_order": [],
    }
    assert rounds[1]["input"] == {
        "card_points": each(100, 100, 0),
        "took_trick": {"Ana": True, "Bo": True, "Cy": False},
        "cut_order": ["Bo", "Ana"],
    }
    doc = parse(client.get(f"/matches/{match_id}"))
    assert sheet(doc) == {
        "names": THREE,
        "deals": [
            {"scores": ["+5", "+3", "+1"], "totals": ["5", "3", "1"]},
            {"scores": ["+3", "+6", "0"], "totals": ["8", "9", "1"]},
        ],
        "totals": ["8", "9", "1"],
    }
    why = [li.text() for li in doc.find("tbody", id="round-2").find("tr", "why").find_all("li")]
    assert why == rounds[1]["explanation"]


@pytest.mark.parametrize(
    ("typed", "field", "message"),
    [
        pytest.param(
            player_form((100, 100, 40)),
            "players-0-cut",
            "Ana and Bo tie on card points: give the order they cut, best first.",
            id="tie-without-cut",
        ),
        pytest.param(
            player_form((120, 80, 40), (True, False, True)),
            "players-1-took_trick",
            "Bo has card points, so took a trick.",
            id="points-without-trick",
        ),
        pytest.param(
            player_form((120, 80, "")),
            "players-2-card_points",
            "Give Cy's card points.",
            id="missing-points",
        ),
    ],
)
def test_three_player_form_shows_a_refusal_by_its_box(
    client: FlaskClient, three_match: dict, typed: dict, field: str, message: str
) -> None:
    match_id = three_match["id"]
    with unchanged(client, match_id):
        response = post_form(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    assert field_errors(doc) == {field: [message]}
    assert alerts(doc) == [NOTHING_SAVED]
    shown = values(doc.find("form", "round-form"))
    for key, value in typed.items():
        assert shown[key] == (True if key.endswith("took_trick") else value), key


def test_three_player_edit_page_is_prefilled(client: FlaskClient, three_match: dict) -> None:
    match_id = three_match["id"]
    play(client, match_id, three_deal((120, 120, 0), cut=["Bo", "Ana"]))
    doc = parse(client.get(f"/matches/{match_id}/rounds/1/edit"))
    shown = values(doc.find("form", "round-form"))
    assert shown == {
        "players-0-card_points": "120",
        "players-0-cut": "2",
        "players-0-took_trick": True,
        "players-1-card_points": "120",
        "players-1-cut": "1",
        "players-1-took_trick": True,
        "players-2-card_points": "0",
        "players-2-cut": "",
        "players-2-took_trick": False,
    }


# --- who deals ----------------------------------------------------------------------------------


def test_the_sheet_says_who_dealt_each_deal(client: FlaskClient) -> None:
    match_id = start(client, first_dealer="Di")["id"]
    play(client, match_id, *EXAMPLE[:2])
    table = parse(client.get(f"/matches/{match_id}/sheet")).find("table", "sheet")
    dealt = [node.text() for node in table.find_all("small", "dealer")]
    assert dealt == ["dealt by Di", "dealt by Ana"]  # the deal passes to the left
    assert api_match(client, match_id)["state"]["dealer"] == "Bo"


@pytest.mark.parametrize("link", [TEAMS_LINK, THREE_LINK])
def test_new_gaigel_match_form_takes_the_first_dealer_by_seat(client: FlaskClient, link: str):
    url = layout_url(client, link)
    doc = parse(client.get(url))
    seats = len(doc.find_all("input", type="radio", name="option_first_dealer"))
    assert seats == (6 if link == TEAMS_LINK else 3)
    assert values(doc)["option_first_dealer"] == "Player 1"
    if link == TEAMS_LINK:
        names = team_form(["Ana", "Cy", ""], ["Bo", "Di", ""])
    else:
        names = {f"players-{seat}": name for seat, name in enumerate(THREE)}
    response = client.post(url, data=names | {"option_first_dealer": "Player 2"})
    assert response.status_code == 302, field_errors(parse(response))
    match = api_match(client, newest_match_id(client))
    assert (match["options"]["first_dealer"], match["state"]["dealer"]) == ("Bo", "Bo")


@pytest.mark.parametrize("started", [start, start_three], ids=["teams", "three"])
def test_the_rules_page_says_who_deals(client: FlaskClient, started: Any) -> None:
    match_id = started(client, first_dealer="Cy")["id"]
    doc = parse(client.get(f"/matches/{match_id}/rules"))
    rules = {item.find("h2").text(): item.find("p").text() for item in listed_rules(doc)}
    assert rules["Who deals"] == (
        "First dealer: Cy. After each deal, the player to the left deals (clockwise)."
    )
