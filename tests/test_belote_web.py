"""Belote and Coinche through the Flask test client: the JSON API and the phone pages.

Nous (Ana and Cy) play Eux (Bo and Di); partners sit opposite, so the table is Ana, Bo, Cy, Di.
Ana takes unless a test says otherwise, so Nous are the takers of RULES.md's examples (NS there).
"""

from __future__ import annotations

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
from tests.api_helpers import post_round_form as post_deal
from tests.html_reader import Node, alerts, field_errors, listed_rules, parse, values

TEAMS = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
SEATS = ["Ana", "Bo", "Cy", "Di"]
CLASSIC = {"variant": "classic", "rules": "maison"}
CLASSIC_OFFICIAL = {"variant": "classic", "rules": "official"}
COINCHE = {"variant": "coinche", "rules": "maison"}
COINCHE_OFFICIAL = {"variant": "coinche", "rules": "official"}
CLASSIC_DEFAULTS = {
    "variant": "classic",
    "rules": "maison",
    "target": 1000,
    "litige": "reserve",
    "rounding": False,
    "first_dealer": "Ana",
}


# --- talking to the API -----------------------------------------------------------------------


def start(client: FlaskClient, teams: dict[str, list[str]] | None = None, **options: Any) -> dict:
    """Start a Belote match through the API and return it."""
    return start_match(client, {"game": "belote", "teams": teams or TEAMS, "options": options})


def deal(
    nous: int | None,
    eux: int | None,
    der: str | None,
    *,
    taker: str = "Ana",
    trump: str = "hearts",
    **extra: Any,
) -> dict[str, Any]:
    """A deal as the API takes it: card points per team (None leaves a side out)."""
    points = {team: value for team, value in (("Nous", nous), ("Eux", eux)) if value is not None}
    entered: dict[str, Any] = {"taker": taker, "trump": trump, "points": points}
    if der is not None:
        entered["last_trick"] = der
    return entered | extra


def bid(contract: int | str, nous: int | None, eux: int | None, der: str | None, **extra: Any):
    """A coinche deal with its contract."""
    return deal(nous, eux, der, contract=contract, **extra)


def nous_eux(nous: int, eux: int) -> dict[str, int]:
    """Scores or totals by team."""
    return {"Nous": nous, "Eux": eux}


# --- reading and filling the pages ------------------------------------------------------------


def belote_sheet(doc: Node) -> dict[str, Any]:
    """Read the Belote sheet: columns, and per deal its summary, result, reserve and numbers."""
    table = doc.find("table", "belote-sheet")
    assert table is not None, "no Belote sheet on the page"
    columns = [th.text() for th in table.find("thead").find_all("th")]
    teams = columns[2:]
    deals = []
    for body in table.find_all("tbody"):
        row = body.find("tr")
        cell = row.find("td", "deal")
        reserve = cell.find("span", "reserve")
        cells = dict(zip(teams, row.find_all("td")[1:], strict=True))
        deals.append(
            {
                "n": int(row.find("th").text()),
                "summary": cell.find("bdi").text(),
                "result": cell.find("span", "result").text(),
                "reserve": reserve.text() if reserve else None,
                "scores": {t: int(c.find("span", "score").text()) for t, c in cells.items()},
                "totals": {t: int(c.find("span", "total").text()) for t, c in cells.items()},
                "corrected": body.find("span", "badge") is not None,
            }
        )
    footer = table.find("tfoot").find_all("td")
    return {
        "columns": columns,
        "deals": deals,
        "totals": {team: int(cell.text()) for team, cell in zip(teams, footer, strict=True)},
    }


def radio_values(doc: Node, name: str) -> list[str]:
    """Return the values a group of radio buttons offers, in order."""
    return [node.attrs["value"] for node in doc.find_all("input", type="radio", name=name)]


def pressed(doc: Node) -> list[str]:
    """Return the counter's cards shown pressed."""
    return [
        node.attrs["value"]
        for node in doc.find_all("button", "card", name="count")
        if node.attrs.get("aria-pressed") == "true"
    ]


def deal_form(
    taker: str = "Ana",
    trump: str = "hearts",
    nous: str = "",
    eux: str = "",
    der: str = "Nous",
    belote: str = "",
    capot: str = "",
    **extra: str,
) -> dict[str, str]:
    """The deal form as a phone posts it: Nous's boxes are teams-0, Eux's teams-1."""
    data = {
        "taker": taker,
        "trump": trump,
        "teams-0-points": nous,
        "teams-1-points": eux,
        "last_trick": der,
        "belote": belote,
        "capot": capot,
        "teams-0-announcements": "",
        "teams-1-announcements": "",
    }
    return data | extra


def assert_kept(shown: dict[str, Any], typed: dict[str, str]) -> None:
    """Assert the page shows what was typed: a ticked box as True, no radio chosen as None."""
    for name, value in typed.items():
        expected = True if value == "y" else None if value == "" and shown[name] is None else value
        assert shown[name] == expected, name


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def classic(client: FlaskClient) -> dict[str, Any]:
    """A fresh classic maison match, Nous against Eux."""
    return start(client, **CLASSIC)


@pytest.fixture
def coinche(client: FlaskClient) -> dict[str, Any]:
    """A fresh coinche maison match, Nous against Eux."""
    return start(client, **COINCHE)


# --- POST /api/matches ------------------------------------------------------------------------


def test_belote_match_seats_partners_opposite(client: FlaskClient) -> None:
    body = {"game": "belote", "teams": TEAMS, "options": {}}
    response = send(client, "POST", "/api/matches", body)
    assert response.status_code == 201, response.json
    match = response.json
    assert match["game"] == "belote"
    assert match["players"] == SEATS
    assert match["teams"] == TEAMS
    assert match["options"] == CLASSIC_DEFAULTS
    assert match["totals"] == nous_eux(0, 0)
    assert match["state"] == {"reserve": 0, "extra_round": False, "dealer": "Ana"}
    assert (match["status"], match["winner"], match["rounds"]) == ("playing", None, [])
    assert client.get(f"/api/matches/{match['id']}").json == {
        k: v for k, v in match.items() if k != "scorer_token"
    }


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        pytest.param({}, CLASSIC_DEFAULTS, id="classic"),
        pytest.param(
            CLASSIC_OFFICIAL, CLASSIC_DEFAULTS | {"rules": "official"}, id="classic-official"
        ),
        pytest.param(
            {"variant": "coinche"},
            CLASSIC_DEFAULTS | {"variant": "coinche", "target": 2000},
            id="coinche",
        ),
        pytest.param(
            COINCHE_OFFICIAL,
            CLASSIC_DEFAULTS | COINCHE_OFFICIAL | {"target": 2000, "rounding": True},
            id="coinche-official-rounds",
        ),
        pytest.param(
            {"target": 500, "litige": "fall", "rounding": True},
            CLASSIC_DEFAULTS | {"target": 500, "litige": "fall", "rounding": True},
            id="chosen",
        ),
    ],
)
def test_belote_options_take_their_defaults(client: FlaskClient, options: dict, expected: dict):
    assert start(client, **options)["options"] == expected


def belote_body(teams: Any = None, **extra: Any) -> dict[str, Any]:
    """A Belote match body with these teams and extra keys."""
    return {"game": "belote", "teams": TEAMS if teams is None else teams, **extra}


START_REFUSALS = [
    pytest.param({"game": "belote", "players": SEATS}, "teams", "two teams of 2", id="players"),
    pytest.param(belote_body({"Nous": SEATS}), "teams", "two teams of 2", id="one-team"),
    pytest.param(
        belote_body({"A": ["Ana", "Bo"], "B": ["Cy", "Di"], "C": ["Ed", "Flo"]}),
        "teams",
        "two teams of 2",
        id="three-teams",
    ),
    pytest.param(
        belote_body({"Nous": ["Ana", "Cy", "Di"], "Eux": ["Bo"]}),
        "teams",
        "two teams of 2",
        id="unequal",
    ),
    pytest.param(
        belote_body({"Nous": ["Ana", "Cy"], "Eux": ["Bo"]}),
        "teams",
        "two teams of 2",
        id="3-players",
    ),
    pytest.param(
        belote_body({"": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}),
        "teams.",
        "Every team needs a name",
        id="empty-team-name",
    ),
    pytest.param(
        belote_body({"Nous": ["Ana", "Cy"], "NOUS": ["Bo", "Di"]}),
        "teams.NOUS",
        "already at the table",
        id="team-names-by-case",
    ),
    pytest.param(
        belote_body({"Nous": ["Ana", "Cy"], "Eux": ["Bo", "nous"]}),
        "teams.Eux.1",
        "already at the table",
        id="player-named-as-team",
    ),
    pytest.param(
        belote_body({"Nous": ["Ana", "Cy"], "Eux": ["Bo", "ANA"]}),
        "teams.Eux.1",
        "already at the table",
        id="player-twice",
    ),
    pytest.param(
        belote_body(options={"colour": "red"}), "options.colour", "no option", id="unknown"
    ),
    pytest.param(
        belote_body(options={**COINCHE_OFFICIAL, "rounding": False}),
        "options.rounding",
        "official rules always round",
        id="coinche-official-unrounded",
    ),
]
"""How a match of belote is refused at its start: body, field, words (see test_every_game_web)."""


# --- POST rounds: the worked examples ---------------------------------------------------------

B3 = deal(71, 81, "Nous")  # Nous 71 + 10 = 81, Eux 81: litige, 81 in reserve.


@pytest.mark.parametrize(
    ("options", "deals", "expected"),
    [
        # B1: Nous 82 + 10 + 20 = 112 > Eux 70.
        pytest.param(
            CLASSIC,
            [deal(82, 70, "Nous", belote="Nous")],
            [(nous_eux(112, 70), nous_eux(112, 70), "made", 0)],
            id="B1",
        ),
        # B3 then B4: Nous 90 + 10 = 100 > 62, plus the 81 in reserve.
        pytest.param(
            CLASSIC,
            [B3, deal(90, 62, "Nous")],
            [
                (nous_eux(0, 81), nous_eux(0, 81), "litige", 81),
                (nous_eux(181, 62), nous_eux(181, 143), "made", 0),
            ],
            id="B3-B4",
        ),
        # B9: Nous 108 reaches 100 and beats 54: 108 + 100.
        pytest.param(
            COINCHE,
            [bid(100, 98, 54, "Nous")],
            [(nous_eux(208, 54), nous_eux(208, 54), "made", 0)],
            id="B9",
        ),
        # B11: coinched, (160 + 100) × 2; the defence keeps only its belote.
        pytest.param(
            COINCHE,
            [bid(100, 98, 54, "Nous", coinche="coinche")],
            [(nous_eux(520, 0), nous_eux(520, 0), "made", 0)],
            id="B11",
        ),
    ],
)
def test_worked_examples_through_the_api(
    client: FlaskClient, options: dict, deals: list[dict], expected: list[tuple]
) -> None:
    match_id = start(client, **options)["id"]
    for n, (entered, (scores, totals, result, reserve)) in enumerate(
        zip(deals, expected, strict=True), 1
    ):
        response = send(client, "POST", rounds_url(match_id), entered)
        assert response.status_code == 201, response.json
        played, match = response.json["round"], response.json["match"]
        assert played["scores"] == scores
        assert played["totals"] == totals
        assert played["result"] == result
        assert played["reserve"] == reserve
        assert played["explanation"]
        assert all(isinstance(s, str) and s.strip() for s in played["explanation"])
        assert match["totals"] == totals
        dealer = SEATS[-n % 4]  # the deal passes to the right: Ana, Di, Cy, Bo
        assert match["state"] == {"reserve": reserve, "extra_round": False, "dealer": dealer}
    assert client.get(f"/api/matches/{match_id}").json == match


def test_the_score_bar_says_what_a_litige_holds_in_reserve(
    client: FlaskClient, classic: dict
) -> None:
    def bar() -> str:
        page = parse(client.get(f"/matches/{classic['id']}"))
        return page.find("section", "score-bar").find("p", "bar-round").text()

    play(client, classic["id"], B3)
    assert bar() == "Deal 2 · 81 in reserve · Di deals"
    play(client, classic["id"], deal(90, 62, "Nous"))
    assert bar() == "Deal 3 · Cy deals"


def test_litige_and_reserve_are_explained(client: FlaskClient, classic: dict) -> None:
    match = play(client, classic["id"], B3, deal(90, 62, "Nous"))
    litige, won = match["rounds"]
    assert litige["explanation"] == [
        "Nous: 71 in cards + 10 for the last trick = 81.",
        "Eux: 81 in cards.",
        "Litige: both teams made 81; Eux scores its 81 and Nous's 81 go to the reserve "
        "for the next deal's winner.",
    ]
    assert won["explanation"] == [
        "Nous: 90 in cards + 10 for the last trick = 100.",
        "Eux: 62 in cards.",
        "Made: Nous (takers) made 100, Eux 62, so each team scores its total.",
        "Nous wins the deal and the 81 in reserve.",
    ]


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        pytest.param({"Nous": 82}, nous_eux(82, 70), id="only-nous"),
        pytest.param({"Eux": 70}, nous_eux(82, 70), id="only-eux"),
        pytest.param({"Eux": 0}, nous_eux(152, 0), id="eux-nothing"),
    ],
)
def test_one_side_left_out_is_the_rest_of_the_deal(
    client: FlaskClient, classic: dict, points: dict, expected: dict
) -> None:
    entered = {"taker": "Ana", "trump": "hearts", "points": points, "last_trick": "Nous"}
    response = send(client, "POST", rounds_url(classic["id"]), entered)
    assert response.status_code == 201, response.json
    assert response.json["round"]["input"]["points"] == expected


def test_names_are_matched_whatever_their_case_and_stored_as_written(
    client: FlaskClient, coinche: dict
) -> None:
    given = {
        "taker": " cy",
        "trump": "spades",
        "points": {"NOUS": 98},
        "last_trick": "nous",
        "belote": "EUX",
        "announcements": {"eux ": 20},
        "contract": 100,
    }
    response = send(client, "POST", rounds_url(coinche["id"]), given)
    assert response.status_code == 201, response.json
    assert response.json["round"]["input"] == {
        "taker": "Cy",
        "trump": "spades",
        "points": nous_eux(98, 54),
        "last_trick": "Nous",
        "belote": "Eux",
        "capot": None,
        "announcements": nous_eux(0, 20),
        "contract": 100,
        "coinche": "none",
        "taker_alone": False,
    }
    # Nous 108 + 100; Eux 54 + 20 belote + 20 announced.
    assert response.json["round"]["scores"] == nous_eux(208, 94)


# --- POST and PUT rounds: refusals ------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "data", "field", "words"),
    [
        pytest.param(
            CLASSIC, deal(80, 80, "Nous"), "points", "add up to 152: 80 + 80 = 160", id="sum"
        ),
        pytest.param(
            CLASSIC,
            deal(56, 60, "Nous", trump="no_trump"),
            "points",
            "add up to 120",
            id="sum-no-trump",
        ),
        pytest.param(
            CLASSIC, deal(153, None, "Nous"), "points.Nous", "between 0 and 152", id="above-152"
        ),
        pytest.param(
            CLASSIC,
            deal(None, 121, "Nous", trump="no_trump"),
            "points.Eux",
            "between 0 and 120",
            id="above-120",
        ),
        pytest.param(
            CLASSIC,
            deal(150, 2, None, capot="Nous"),
            "points.Eux",
            "Nous made a capot, so Eux took no points",
            id="capot-loser-points",
        ),
        pytest.param(
            CLASSIC,
            deal(56, 64, "Nous", trump="no_trump", belote="Nous"),
            "belote",
            "no belote without trumps",
            id="belote-no-trump",
        ),
        pytest.param(
            CLASSIC, deal(82, 70, "Nous", taker="Zed"), "taker", "not a player", id="stranger"
        ),
        pytest.param(
            CLASSIC,
            {"trump": "hearts", "points": {"Nous": 82}, "last_trick": "Nous"},
            "taker",
            "Say who took.",
            id="no-taker",
        ),
        pytest.param(
            CLASSIC,
            deal(82, 70, "Nous", taker="Nous"),
            "taker",
            "not a player",
            id="team-as-taker",
        ),
        pytest.param(
            COINCHE, bid(170, 98, 54, "Nous"), "contract", "80 to 160 by tens", id="contract-170"
        ),
        pytest.param(
            COINCHE, bid(85, 98, 54, "Nous"), "contract", "80 to 160 by tens", id="contract-85"
        ),
        pytest.param(
            COINCHE, bid(70, 98, 54, "Nous"), "contract", "80 to 160 by tens", id="contract-70"
        ),
        pytest.param(
            COINCHE,
            bid("generale", 98, 54, "Nous", taker_alone=True),
            "taker_alone",
            "Nous made capot",
            id="generale-alone-no-capot",
        ),
        pytest.param(
            COINCHE,
            bid(100, 98, 54, "Nous", taker_alone=True),
            "taker_alone",
            "only counts for a générale",
            id="alone-without-generale",
        ),
        pytest.param(
            CLASSIC,
            deal(82, 70, "Nous", announcements={"Nous": 30}),
            "announcements.Nous",
            "30 is not a sum of announcements",
            id="announce-30",
        ),
        pytest.param(
            CLASSIC,
            deal(82, 70, "Nous", announcements={"Eux": 10}),
            "announcements.Eux",
            "10 is not a sum of announcements",
            id="announce-10",
        ),
        pytest.param(
            COINCHE,
            bid(100, 98, 54, "Nous", announcements={"Nous": 560}),
            "announcements.Nous",
            "up to 550",
            id="announce-560",
        ),
        pytest.param(
            CLASSIC,
            deal(82, 70, "Nous", contract=100),
            "contract",
            "this match plays classic belote",
            id="contract-in-classic",
        ),
        pytest.param(
            CLASSIC,
            deal(82, 70, "Nous", trump="all_trump"),
            "trump",
            "Choose the trump: ♥, ♦, ♣, ♠ or No trump.",
            id="all-trump-in-classic",
        ),
        pytest.param(
            CLASSIC, deal(82, 70, None), "last_trick", "which team took the last", id="no-der"
        ),
    ],
)
@pytest.mark.parametrize("door", ["post", "put"])
def test_bad_deal_is_refused_by_field_and_changes_nothing(
    client: FlaskClient, door: str, variant: dict, data: dict, field: str, words: str
) -> None:
    match_id = start(client, **variant)["id"]
    first = bid(100, 98, 54, "Nous") if variant == COINCHE else deal(82, 70, "Nous")
    play(client, match_id, first)
    with unchanged(client, match_id):
        if door == "post":
            response = send(client, "POST", rounds_url(match_id), data)
        else:
            response = send(client, "PUT", rounds_url(match_id, 1), data)
        refused(response, 422, field, words)


# --- correcting a deal re-scores the later ones -----------------------------------------------


def test_correcting_a_litige_takes_the_reserve_back_from_the_next_deal(
    client: FlaskClient, classic: dict
) -> None:
    match_id = classic["id"]
    second = deal(90, 62, "Nous")
    before = play(client, match_id, B3, second)
    assert [r["scores"] for r in before["rounds"]] == [nous_eux(0, 81), nous_eux(181, 62)]
    assert before["state"]["reserve"] == 0
    made = deal(82, 70, "Nous")
    response = send(client, "PUT", rounds_url(match_id, 1), made)
    assert response.status_code == 200, response.json
    corrected, match = response.json["round"], response.json["match"]
    assert (corrected["scores"], corrected["result"], corrected["reserve"]) == (
        nous_eux(92, 70),
        "made",
        0,
    )
    later = match["rounds"][1]
    assert later["scores"] == nous_eux(100, 62)
    assert later["scores"]["Nous"] == before["rounds"][1]["scores"]["Nous"] - 81
    assert not any("reserve" in sentence for sentence in later["explanation"])
    assert later["totals"] == match["totals"] == nous_eux(192, 132)
    assert match["state"] == {"reserve": 0, "extra_round": False, "dealer": "Cy"}
    changes = client.get(f"/api/matches/{match_id}/log").json["changes"]
    stored_b3 = before["rounds"][0]["input"]
    assert [(c["action"], c["n"], c["input"], c["replaced"]) for c in changes] == [
        ("add", 1, stored_b3, None),
        ("add", 2, before["rounds"][1]["input"], None),
        ("correct", 1, match["rounds"][0]["input"], stored_b3),
    ]
    assert match["rounds"][0]["input"]["points"] == nous_eux(82, 70)


# --- the end of the match ---------------------------------------------------------------------


def test_a_team_past_the_target_wins_and_the_match_is_closed(client: FlaskClient) -> None:
    match_id = start(client, **CLASSIC, target=200)["id"]
    first = play(client, match_id, deal(82, 70, "Nous", belote="Nous"))
    assert (first["status"], first["totals"]) == ("playing", nous_eux(112, 70))
    match = play(client, match_id, deal(82, 70, "Nous", belote="Nous"))
    assert match["totals"] == nous_eux(224, 140)
    assert (match["status"], match["winner"]) == ("finished", "Nous")
    assert match["state"]["extra_round"] is False
    assert match["rounds"][-1]["explanation"][-1] == (
        "Nous reached the target of 200: Nous wins, 224 to 140."
    )
    with unchanged(client, match_id):
        body = refused(send(client, "POST", rounds_url(match_id), deal(82, 70, "Nous")), 409)
    assert body["error"].startswith("The match is over: Nous wins with")


def test_a_tie_past_the_target_deals_again(client: FlaskClient) -> None:
    match_id = start(client, **CLASSIC, target=150)["id"]
    tied = play(
        client,
        match_id,
        deal(82, 70, "Nous", belote="Nous"),
        deal(70, 82, "Eux", taker="Bo", belote="Eux"),
    )
    assert tied["totals"] == nous_eux(182, 182)
    assert (tied["status"], tied["winner"]) == ("playing", None)
    assert tied["state"] == {"reserve": 0, "extra_round": True, "dealer": "Cy"}
    assert tied["rounds"][-1]["explanation"][-1] == (
        "Both teams have 182, past the target of 150: deal again."
    )
    broken = play(client, match_id, deal(82, 70, "Nous"))
    assert broken["totals"] == nous_eux(274, 252)
    assert (broken["status"], broken["winner"]) == ("finished", "Nous")
    assert broken["state"]["extra_round"] is False


# --- the new-match page -----------------------------------------------------------------------


def test_new_belote_match_page_shows_two_teams_and_the_options(client: FlaskClient) -> None:
    response = client.get("/matches/new/belote")
    assert response.status_code == 200
    doc = parse(response)
    teams = doc.find_all("fieldset", "names")
    assert [team.find("legend").text() for team in teams] == ["Team 1", "Team 2"]
    for i, (team, name) in enumerate(zip(teams, ["Nous", "Eux"], strict=True)):
        boxes = [node.attrs["name"] for node in team.find_all("input")]
        assert boxes == [f"team_{i}", f"team_{i}_players-0", f"team_{i}_players-1"]
        assert team.find("input", name=f"team_{i}").attrs["value"] == name
    shown = values(doc)
    assert {key: shown[key] for key in shown if "players" in key} == {
        "team_0_players-0": "",
        "team_0_players-1": "",
        "team_1_players-0": "",
        "team_1_players-1": "",
    }
    assert radio_values(doc, "option_variant") == ["classic", "coinche"]
    assert radio_values(doc, "option_rules") == ["maison", "official"]
    assert radio_values(doc, "option_litige") == ["reserve", "fall"]
    # The chips say the choices in players' words, never the codes stored.
    said = {
        name: [node.parent.text() for node in doc.find_all("input", type="radio", name=name)]
        for name in ("option_variant", "option_rules", "option_litige")
    }
    assert said == {
        "option_variant": ["Classic belote", "Coinche, with contracts"],
        "option_rules": ["House rules", "Official rules"],
        "option_litige": ["A tie waits in reserve", "A tie counts as a fall"],
    }
    assert (shown["option_variant"], shown["option_rules"], shown["option_litige"]) == (
        "classic",
        "maison",
        "reserve",
    )
    target = doc.find("input", name="option_target")
    assert (target.attrs["value"], target.attrs["placeholder"]) == (
        "",
        "1000 classic, 2000 coinche",
    )
    assert shown["option_rounding"] is False
    assert field_errors(doc) == {}
    assert alerts(doc) == []


def team_form(
    nous: tuple[str, str, str] = ("Nous", "Ana", "Cy"),
    eux: tuple[str, str, str] = ("Eux", "Bo", "Di"),
    **options: str,
) -> dict[str, str]:
    """The new-match form as typed: each team's name and its two players, then option fields."""
    data = {}
    for i, (name, first, second) in enumerate((nous, eux)):
        data |= {f"team_{i}": name, f"team_{i}_players-0": first, f"team_{i}_players-1": second}
    return data | {f"option_{name}": value for name, value in options.items()}


def test_new_belote_match_form_starts_a_coinche_match(client: FlaskClient) -> None:
    response = client.post(
        "/matches/new/belote", data=team_form(variant="coinche", rules="official")
    )
    assert response.status_code == 302
    match = opened_match(client, response)
    assert match["players"] == SEATS
    assert match["teams"] == TEAMS
    assert match["options"] == {
        "variant": "coinche",
        "rules": "official",
        "target": 2000,
        "litige": "reserve",
        "rounding": True,
        "first_dealer": "Ana",
    }
    doc = parse(client.get(f"/matches/{match['id']}"))
    assert [label.text() for label in doc.find("fieldset", id="taker").find_all("label")] == [
        "Ana Nous · dealer",
        "Bo Eux",
        "Cy Nous",
        "Di Eux",
    ]


@pytest.mark.parametrize(
    ("typed", "field", "words"),
    [
        pytest.param(
            team_form(eux=("nous", "Bo", "Di")),
            "team_1",
            "Each team needs its own name",
            id="same-team-names",
        ),
        pytest.param(
            team_form(nous=("Nous", "Ana", "")),
            "team_0_players-1",
            "two teams of 2",
            id="empty-player",
        ),
        pytest.param(
            team_form(eux=("Eux", "Bo", "ana")),
            "team_1_players-1",
            "already at the table",
            id="player-twice",
        ),
        pytest.param(
            team_form(eux=("", "Bo", "Di")), "team_1", "Every team needs a name", id="no-name"
        ),
    ],
)
def test_new_belote_match_form_refusals_keep_what_was_typed(
    client: FlaskClient, typed: dict[str, str], field: str, words: str
) -> None:
    response = client.post("/matches/new/belote", data=typed)
    assert response.status_code == 422
    doc = parse(response)
    shown = values(doc)
    for name, value in typed.items():
        assert shown[name] == value, name
    errors = field_errors(doc)
    assert field in errors, (errors, alerts(doc))
    assert words in " ".join(errors[field])
    assert client.get("/api/matches").json["total"] == 0


# --- the deal form ----------------------------------------------------------------------------


def test_classic_deal_form_records_the_deal_and_the_sheet_shows_it(
    client: FlaskClient, classic: dict
) -> None:
    match_id = classic["id"]
    response = post_deal(client, match_id, deal_form(nous="82", belote="Nous"))
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    recorded = api_match(client, match_id)["rounds"][0]["id"]
    assert (location.path, location.query) == (f"/matches/{match_id}", f"recorded={recorded}")
    assert api_match(client, match_id)["rounds"][0]["input"] == {
        "taker": "Ana",
        "trump": "hearts",
        "points": nous_eux(82, 70),
        "last_trick": "Nous",
        "belote": "Nous",
        "capot": None,
        "announcements": nous_eux(0, 0),
    }
    doc = parse(client.get(response.headers["Location"]))
    assert doc.find("form", "notice").find("span").text() == "Deal 1 recorded."
    assert belote_sheet(doc) == {
        "columns": ["#", "Deal", "Nous", "Eux"],
        "deals": [
            {
                "n": 1,
                "summary": "Ana · ♥",
                "result": "made",
                "reserve": None,
                "scores": nous_eux(112, 70),
                "totals": nous_eux(112, 70),
                "corrected": False,
            }
        ],
        "totals": nous_eux(112, 70),
    }
    assert doc.find("h2", id="round-form-title").text() == "Deal 2"


def test_sheet_shows_the_reserve_while_it_waits(client: FlaskClient, classic: dict) -> None:
    match_id = classic["id"]
    assert post_deal(client, match_id, deal_form(nous="71")).status_code == 302
    shown = belote_sheet(parse(client.get(f"/matches/{match_id}")))
    assert [(d["result"], d["reserve"], d["scores"]) for d in shown["deals"]] == [
        ("litige", "81 in reserve", nous_eux(0, 81))
    ]
    assert post_deal(client, match_id, deal_form(eux="62")).status_code == 302
    shown = belote_sheet(parse(client.get(f"/matches/{match_id}")))
    assert [(d["result"], d["reserve"], d["scores"]) for d in shown["deals"]] == [
        ("litige", "81 in reserve", nous_eux(0, 81)),
        ("made", None, nous_eux(181, 62)),
    ]
    assert shown["totals"] == nous_eux(181, 143)


def test_coinche_deal_form_records_contract_doubling_and_announcements(
    client: FlaskClient, coinche: dict
) -> None:
    match_id = coinche["id"]
    typed = deal_form(
        nous="",
        eux="54",
        contract="100",
        coinche="coinche",
        **{"teams-0-announcements": "20"},
    )
    assert post_deal(client, match_id, typed).status_code == 302
    stored = api_match(client, match_id)["rounds"][0]
    assert stored["input"] == {
        "taker": "Ana",
        "trump": "hearts",
        "points": nous_eux(98, 54),
        "last_trick": "Nous",
        "belote": None,
        "capot": None,
        "announcements": nous_eux(20, 0),
        "contract": 100,
        "coinche": "coinche",
        "taker_alone": False,
    }
    # Coinched maison: (160 + 100 + 20 announced) × 2.
    assert stored["scores"] == nous_eux(560, 0)
    shown = belote_sheet(parse(client.get(f"/matches/{match_id}")))
    assert [(d["summary"], d["result"], d["scores"]) for d in shown["deals"]] == [
        ("Ana · 100 ♥ · coinche", "made", nous_eux(560, 0))
    ]


@pytest.mark.parametrize(
    ("options", "typed", "field", "words"),
    [
        pytest.param(
            CLASSIC,
            deal_form(taker="", nous="82"),
            "taker",
            "Say who took.",
            id="no-taker",
        ),
        pytest.param(
            CLASSIC, deal_form(nous="80", eux="80"), "teams-0-points", "add up to 152", id="sum"
        ),
        pytest.param(
            CLASSIC, deal_form(eux="153"), "teams-1-points", "between 0 and 152", id="above-152"
        ),
        pytest.param(
            CLASSIC, deal_form(nous="abc"), "teams-0-points", "Not a valid integer", id="abc"
        ),
        pytest.param(
            CLASSIC,
            deal_form(nous="56", trump="no_trump", belote="Nous"),
            "belote",
            "no belote without trumps",
            id="belote-no-trump",
        ),
        pytest.param(
            CLASSIC,
            deal_form(nous="150", eux="2", der="", capot="Nous"),
            "teams-1-points",
            "Nous made a capot",
            id="capot-loser-points",
        ),
        pytest.param(
            CLASSIC,
            deal_form(nous="82", **{"teams-0-announcements": "30"}),
            "teams-0-announcements",
            "30 is not a sum of announcements",
            id="announce-30",
        ),
        pytest.param(
            CLASSIC, deal_form(nous="82", der=""), "last_trick", "last trick", id="no-der"
        ),
        pytest.param(
            COINCHE,
            deal_form(nous="98", contract="", coinche="none"),
            "contract",
            "80 to 160 by tens",
            id="no-contract",
        ),
        pytest.param(
            COINCHE,
            deal_form(nous="98", contract="100", coinche="none", taker_alone="y"),
            "taker_alone",
            "only counts for a générale",
            id="alone-without-generale",
        ),
    ],
)
def test_bad_deal_form_keeps_what_was_typed_and_stores_nothing(
    client: FlaskClient, options: dict, typed: dict, field: str, words: str
) -> None:
    match_id = start(client, **options)["id"]
    with unchanged(client, match_id):
        response = post_deal(client, match_id, typed)
        assert response.status_code == 422
    doc = parse(response)
    assert_kept(values(doc), typed)
    errors = field_errors(doc)
    assert list(errors) == [field], errors
    assert words in " ".join(errors[field])
    assert alerts(doc) == ["Nothing was saved: fix the fields marked below."]


# --- helper buttons without JavaScript --------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "button", "box", "after"),
    [
        pytest.param("", "0:50", "teams-0-announcements", "50", id="nous-cinquante"),
        pytest.param("20", "0:50", "teams-0-announcements", "70", id="added-to-tierce"),
        pytest.param("", "1:200", "teams-1-announcements", "200", id="eux-carre-de-valets"),
    ],
)
def test_announcement_buttons_add_to_the_box_without_storing(
    client: FlaskClient, classic: dict, typed: str, button: str, box: str, after: str
) -> None:
    match_id = classic["id"]
    form = deal_form(nous="82", **{box: typed})
    with unchanged(client, match_id):
        response = post_deal(client, match_id, {**form, "announce": button})
        assert response.status_code == 200
    doc = parse(response)
    shown = values(doc)
    assert shown[box] == after
    assert (shown["taker"], shown["trump"], shown["teams-0-points"]) == ("Ana", "hearts", "82")
    assert field_errors(doc) == {}
    assert alerts(doc) == []


def count_taps(
    client: FlaskClient, match_id: int, trump: str, cards: list[str], counting: str = "Nous"
) -> Node:
    """Tap cards in the counter one page at a time, as a phone without JavaScript does."""
    form = deal_form(trump=trump, counting=counting, counted="")
    doc = None
    for card in cards:
        response = post_deal(client, match_id, {**form, "count": card})
        assert response.status_code == 200
        doc = parse(response)
        form = {**form, **{k: v for k, v in values(doc).items() if isinstance(v, str)}}
    assert doc is not None
    return doc


def test_counting_cards_fills_the_counting_teams_points(client: FlaskClient, classic: dict):
    match_id = classic["id"]
    with unchanged(client, match_id):
        doc = count_taps(client, match_id, "hearts", ["JH", "9H"])
    shown = values(doc)
    assert shown["counted"] == "JH 9H"
    assert (shown["teams-0-points"], shown["teams-1-points"]) == ("34", "")
    assert pressed(doc) == ["9H", "JH"]
    assert doc.find("p", "counter-total").text() == "Counted: 34 points"
    assert "open" in doc.find("details", "counter").attrs
    assert field_errors(doc) == {}


def test_counting_for_eux_and_untapping_a_card(client: FlaskClient, classic: dict) -> None:
    doc = count_taps(client, classic["id"], "spades", ["JS", "AH", "JS"], counting="Eux")
    shown = values(doc)
    assert shown["counted"] == "AH"
    assert (shown["teams-0-points"], shown["teams-1-points"]) == ("", "11")
    assert pressed(doc) == ["AH"]


@pytest.mark.parametrize(
    ("options", "points"),
    [pytest.param(CLASSIC, "11", id="maison"), pytest.param(CLASSIC_OFFICIAL, "19", id="official")],
)
def test_counting_an_ace_without_trumps_follows_the_rules(
    client: FlaskClient, options: dict, points: str
) -> None:
    doc = count_taps(client, start(client, **options)["id"], "no_trump", ["AS"])
    assert values(doc)["teams-0-points"] == points
    assert pressed(doc) == ["AS"]


# --- classic and coinche forms ----------------------------------------------------------------


def test_classic_form_has_no_contract_or_doubling(client: FlaskClient, classic: dict) -> None:
    doc = parse(client.get(f"/matches/{classic['id']}"))
    form = doc.find("form", "round-form")
    assert radio_values(form, "trump") == ["hearts", "diamonds", "clubs", "spades", "no_trump"]
    assert "All trump" not in form.text()
    for name in ("contract", "coinche", "taker_alone"):
        assert form.find("input", name=name) is None, name
    assert radio_values(form, "taker") == SEATS
    assert radio_values(form, "last_trick") == ["Nous", "Eux"]
    assert radio_values(form, "belote") == ["", "Nous", "Eux"]
    assert radio_values(form, "capot") == ["", "Nous", "Eux"]


def test_coinche_form_offers_contracts_doubling_and_all_trump(
    client: FlaskClient, coinche: dict
) -> None:
    doc = parse(client.get(f"/matches/{coinche['id']}"))
    form = doc.find("form", "round-form")
    assert radio_values(form, "trump") == [
        "hearts",
        "diamonds",
        "clubs",
        "spades",
        "no_trump",
        "all_trump",
    ]
    assert form.find("input", id="trump-5").parent.text() == "All trump"
    assert radio_values(form, "contract") == [
        *map(str, range(80, 161, 10)),
        "capot",
        "generale",
    ]
    assert radio_values(form, "coinche") == ["none", "coinche", "surcoinche"]
    assert values(form)["coinche"] == "none"
    assert form.find("input", type="checkbox", name="taker_alone") is not None


# --- correcting a deal through its page -------------------------------------------------------


def test_edit_page_is_prefilled_from_the_stored_deal(client: FlaskClient, coinche: dict):
    match_id = coinche["id"]
    play(client, match_id, bid(120, 98, 54, "Nous", taker="Cy", announcements={"Eux": 20}))
    response = client.get(f"/matches/{match_id}/rounds/1/edit")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("h1").text().startswith("Correct deal 1")
    form = doc.find("form", "round-form")
    assert form.attrs["action"] == f"/matches/{match_id}/rounds/1/edit"
    shown = values(form)
    assert {key: shown[key] for key in shown if key not in ("counted", "counting")} == {
        "taker": "Cy",
        "trump": "hearts",
        "contract": "120",
        "coinche": "none",
        "taker_alone": False,
        "teams-0-points": "98",
        "teams-1-points": "54",
        "last_trick": "Nous",
        "belote": "",
        "capot": "",
        "teams-0-announcements": "0",
        "teams-1-announcements": "20",
        "stored_points": "98 54",
    }


def test_correcting_through_the_edit_page_rescores_later_deals(
    client: FlaskClient, classic: dict
) -> None:
    match_id = classic["id"]
    play(client, match_id, B3, deal(90, 62, "Nous"))
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data=deal_form(nous="82"))
    assert response.status_code == 302
    assert urlsplit(response.headers["Location"]).fragment == "round-1"
    doc = parse(client.get(f"/matches/{match_id}"))
    assert "Deal 1 corrected; everything after it was scored again." in doc.text()
    shown = belote_sheet(doc)
    assert [(d["result"], d["reserve"], d["corrected"]) for d in shown["deals"]] == [
        ("made", None, True),
        ("made", None, False),
    ]
    assert [d["scores"] for d in shown["deals"]] == [nous_eux(92, 70), nous_eux(100, 62)]
    assert shown["totals"] == nous_eux(192, 132)
    assert "in reserve" not in doc.find("table", "belote-sheet").text()
    assert api_match(client, match_id)["state"]["reserve"] == 0


def test_bad_correction_on_the_edit_page_keeps_the_stored_deal(
    client: FlaskClient, classic: dict
) -> None:
    match_id = classic["id"]
    play(client, match_id, deal(82, 70, "Nous"))
    with unchanged(client, match_id):
        response = client.post(
            f"/matches/{match_id}/rounds/1/edit", data=deal_form(nous="100", eux="100")
        )
        assert response.status_code == 422
    doc = parse(response)
    assert (values(doc)["teams-0-points"], values(doc)["teams-1-points"]) == ("100", "100")
    assert "add up to 152" in " ".join(field_errors(doc)["teams-0-points"])


# --- a correction derives the other team's points again -----------------------------------------


def test_edit_page_shows_both_stored_points_and_remembers_them(client: FlaskClient, classic: dict):
    """Both boxes come back as stored; the form remembers them, so a phone without scripts
    that changes one box gets the other derived again (the next test)."""
    match_id = classic["id"]
    play(client, match_id, deal(82, 70, "Nous"))
    form = parse(client.get(f"/matches/{match_id}/rounds/1/edit")).find("form", "round-form")
    boxes = [form.find("input", "points", **{"data-side": side}) for side in ("0", "1")]
    assert [box.attrs["value"] for box in boxes] == ["82", "70"]
    assert form.find("input", name="stored_points").attrs["value"] == "82 70"
    new = parse(client.get(f"/matches/{match_id}")).find("form", "round-form")
    assert new.find("input", name="stored_points").attrs.get("value", "") == ""


@pytest.mark.parametrize(
    ("typed", "derived"),
    [
        pytest.param({"nous": "100", "eux": "70"}, nous_eux(100, 52), id="nous-changed"),
        pytest.param({"nous": "82", "eux": "90"}, nous_eux(62, 90), id="eux-changed"),
        pytest.param({"nous": "100", "eux": ""}, nous_eux(100, 52), id="eux-emptied"),
    ],
)
def test_correcting_one_teams_points_derives_the_others_again(
    client: FlaskClient, classic: dict, typed: dict[str, str], derived: dict[str, int]
) -> None:
    match_id = classic["id"]
    play(client, match_id, deal(82, 70, "Nous"))
    stored = {"stored_points": "82 70"}  # as the edit page shows the deal
    response = client.post(f"/matches/{match_id}/rounds/1/edit", data=deal_form(**typed) | stored)
    assert response.status_code == 302, field_errors(parse(response))
    assert api_match(client, match_id)["rounds"][0]["input"]["points"] == derived


def test_a_correction_changing_both_teams_points_must_still_add_up(
    client: FlaskClient, classic: dict
) -> None:
    match_id = classic["id"]
    play(client, match_id, deal(82, 70, "Nous"))
    with unchanged(client, match_id):
        response = client.post(
            f"/matches/{match_id}/rounds/1/edit",
            data=deal_form(nous="100", eux="60") | {"stored_points": "82 70"},
        )
    assert response.status_code == 422
    assert "must add up to 152" in " ".join(field_errors(parse(response))["teams-0-points"])


# --- who deals ----------------------------------------------------------------------------------


def test_the_sheet_says_who_dealt_each_deal(client: FlaskClient) -> None:
    match_id = start(client, **CLASSIC, first_dealer="Bo")["id"]
    play(client, match_id, deal(82, 70, "Nous"), deal(82, 70, "Nous"))
    doc = parse(client.get(f"/matches/{match_id}/sheet"))
    dealt = [node.text() for node in doc.find("table", "belote-sheet").find_all("small", "dealer")]
    assert dealt == ["dealt by Bo", "dealt by Ana"]  # the deal passes to the right
    assert api_match(client, match_id)["state"]["dealer"] == "Di"


def test_new_belote_match_form_takes_the_first_dealer_by_seat(client: FlaskClient) -> None:
    doc = parse(client.get("/matches/new/belote"))
    assert radio_values(doc, "option_first_dealer") == [f"Player {seat}" for seat in range(1, 5)]
    assert values(doc)["option_first_dealer"] == "Player 1"
    response = client.post("/matches/new/belote", data=team_form(first_dealer="Player 4"))
    assert response.status_code == 302
    match = api_match(client, newest_match_id(client))
    assert match["options"]["first_dealer"] == "Di"  # seats Ana, Bo, Cy, Di
    assert match["state"]["dealer"] == "Di"


def test_the_rules_page_says_who_deals(client: FlaskClient) -> None:
    match_id = start(client, **CLASSIC, first_dealer="Cy")["id"]
    doc = parse(client.get(f"/matches/{match_id}/rules"))
    rules = {item.find("h2").text(): item.find("p").text() for item in listed_rules(doc)}
    assert rules["Who deals"] == (
        "First dealer: Cy. After each deal, the player to the right deals (counter-clockwise)."
    )


# --- Official rules and impossible values through the API (issue 17) --------------------------


def test_official_deal_with_announcements_for_both_teams_is_refused(client: FlaskClient) -> None:
    match_id = start(client, **CLASSIC_OFFICIAL)["id"]
    both = deal(72, 80, "Eux", announcements={"Nous": 50, "Eux": 20})
    with unchanged(client, match_id):
        body = refused(
            send(client, "POST", rounds_url(match_id), both),
            422,
            "announcements",
            "Enter the announcements of Nous or Eux only, or of neither.",
        )
    assert "only one team's announcements count" in body["error"]


def test_maison_deal_with_announcements_for_both_teams_is_scored(client: FlaskClient) -> None:
    # Nous 72 + 50 = 122 > Eux 80 + 10 + 20 = 110: made.
    match_id = start(client, **CLASSIC)["id"]
    match = play(client, match_id, deal(72, 80, "Eux", announcements={"Nous": 50, "Eux": 20}))
    assert match["totals"] == nous_eux(122, 110)


def test_all_trump_belotes_are_counted_and_answered_per_team(client: FlaskClient) -> None:
    # Nous 98 + 10 + 40 = 148 >= 100 > Eux 54 + 20 = 74: 248 -> 250, 74 -> 70.
    match_id = start(client, **COINCHE_OFFICIAL)["id"]
    entered = bid(100, 98, 54, "Nous", trump="all_trump", belotes={"Nous": 2, "Eux": 1})
    match = play(client, match_id, entered)
    answered = match["rounds"][0]
    assert answered["input"]["belotes"] == nous_eux(2, 1)
    assert answered["input"]["belote"] is None  # both teams hold belotes
    assert answered["scores"] == nous_eux(250, 70)
    # One team named the old way is answered with its count too.
    match = play(client, match_id, bid(100, 98, 54, "Nous", trump="all_trump", belote="Eux"))
    assert match["rounds"][1]["input"]["belotes"] == nous_eux(0, 1)
    assert match["rounds"][1]["input"]["belote"] == "Eux"


@pytest.mark.parametrize(
    ("variant", "belotes", "words"),
    [
        (COINCHE_OFFICIAL, {"Nous": 3, "Eux": 2}, "at most four belotes"),
        (COINCHE, {"Nous": 2}, "several at all trump count only under official rules"),
    ],
)
def test_too_many_belotes_are_refused(
    client: FlaskClient, variant: dict, belotes: dict, words: str
) -> None:
    match_id = start(client, **variant)["id"]
    entered = bid(100, 98, 54, "Nous", trump="all_trump", belotes=belotes)
    with unchanged(client, match_id):
        refused(send(client, "POST", rounds_url(match_id), entered), 422, "belotes", words)


def test_official_belote_alone_keeps_the_match_going(client: FlaskClient) -> None:
    # Target 600: Nous 252 + 252 + 90 = 594, then fall with belote: 594 + 20 = 614, but only
    # through the belote: playing. Then Nous take tricks (82/70: 92): finished, Nous 706.
    match_id = start(client, **CLASSIC_OFFICIAL, target=600)["id"]
    capot = deal(152, 0, None, capot="Nous")
    match = play(client, match_id, capot, capot, deal(80, 72, "Nous"))
    match = play(client, match_id, deal(66, 86, "Eux", belote="Nous"))
    assert (match["totals"], match["status"]) == (nous_eux(614, 234), "playing")
    assert "a belote alone does not win" in " ".join(match["rounds"][-1]["explanation"])
    match = play(client, match_id, deal(82, 70, "Nous"))
    assert (match["totals"]["Nous"], match["status"], match["winner"]) == (
        706,
        "finished",
        "Nous",
    )


@pytest.mark.parametrize(
    ("variant", "entered", "field", "words"),
    [
        pytest.param(CLASSIC, deal(1, None, "Nous"), "points.Nous", "No cards add up to 1", id="1"),
        pytest.param(
            CLASSIC, deal(None, 151, "Nous"), "points.Eux", "No cards add up to 151", id="151"
        ),
        pytest.param(
            CLASSIC,
            deal(119, None, "Nous", trump="no_trump"),
            "points.Nous",
            "count them again",
            id="119-maison-no-trump",
        ),
        pytest.param(
            COINCHE,
            bid(80, 151, 1, "Nous", trump="all_trump"),
            "points.Eux",
            "Eux cannot have 1 card points",
            id="1-all-trump",
        ),
    ],
)
def test_impossible_card_points_are_refused_and_change_nothing(
    client: FlaskClient, variant: dict, entered: dict, field: str, words: str
) -> None:
    match_id = start(client, **variant)["id"]
    with unchanged(client, match_id):
        refused(send(client, "POST", rounds_url(match_id), entered), 422, field, words)


def test_classic_accepts_neutral_coinche_fields(client: FlaskClient) -> None:
    # B1: Nous 82 + 10 + 20 = 112, Eux 70.
    match_id = start(client, **CLASSIC)["id"]
    entered = deal(82, 70, "Nous", belote="Nous", coinche="none", taker_alone=False)
    match = play(client, match_id, entered)
    assert match["totals"] == nous_eux(112, 70)
    assert "coinche" not in match["rounds"][0]["input"]


def test_classic_still_refuses_a_coinche(client: FlaskClient) -> None:
    match_id = start(client, **CLASSIC)["id"]
    with unchanged(client, match_id):
        refused(
            send(client, "POST", rounds_url(match_id), deal(82, 70, "Nous", coinche="coinche")),
            422,
            "coinche",
            "this match plays classic belote",
        )


def test_openapi_documents_belotes_and_the_round_fields_belote_adds(client: FlaskClient) -> None:
    schemas = client.get("/api/openapi.json").json["components"]["schemas"]
    assert "belotes" in schemas["BeloteDeal"]["properties"]
    round_fields = schemas["Round"]["properties"]
    assert {"result", "reserve", "reserve_won", "rounded", "tie"} <= set(round_fields)
    # Every field a Belote round answers with is documented.
    match_id = start(client, **CLASSIC)["id"]
    answered = play(client, match_id, deal(82, 70, "Nous"))["rounds"][0]
    assert set(answered) <= set(round_fields)


def quick_buttons(doc: Node) -> dict[str, list[str]]:
    """Return the quick announcement buttons shown, and those hidden, by their words."""
    shown: dict[str, list[str]] = {"shown": [], "hidden": []}
    for group in doc.find_all("div", "quick"):
        side = "hidden" if "hidden" in group.attrs else "shown"
        shown[side] += [button.text() for button in group.find_all("button", name="announce")]
    return shown


def test_official_no_trump_offers_no_trump_carrés(client: FlaskClient) -> None:
    match_id = start(client, **COINCHE_OFFICIAL)["id"]
    form = deal_form(trump="no_trump", nous="82", contract="80", coinche="none")
    with unchanged(client, match_id):
        response = post_deal(client, match_id, {**form, "announce": "0:200"})
    buttons = quick_buttons(parse(response))
    for team in range(2):
        assert buttons["shown"][team * 6 : team * 6 + 6] == [
            "tierce +20",
            "cinquante +50",
            "cent +100",
            "carré (K, Q, J, 9) +100",
            "carré de 10 +150",
            "carré d'as +200",
        ]
    assert "carré de valets +200" in buttons["hidden"]
    assert not any("7" in words or "8" in words for words in buttons["shown"])
    assert values(parse(response))["teams-0-announcements"] == "200"


def test_official_suit_trump_offers_jacks_and_nines(client: FlaskClient) -> None:
    match_id = start(client, **CLASSIC_OFFICIAL)["id"]
    response = client.get(f"/matches/{match_id}")
    shown = quick_buttons(parse(response))["shown"]
    assert "carré de valets +200" in shown and "carré (A, 10, K, Q) +100" in shown
    assert not any("d'as" in words for words in shown)


def test_belotes_boxes_record_an_all_trump_deal(client: FlaskClient) -> None:
    match_id = start(client, **COINCHE_OFFICIAL)["id"]
    form = deal_form(trump="all_trump", nous="98", contract="100", coinche="none")
    form |= {"teams-0-belotes": "2", "teams-1-belotes": "1"}
    response = post_deal(client, match_id, form)
    assert response.status_code == 302, field_errors(parse(response))
    answered = api_match(client, match_id)["rounds"][0]
    assert answered["input"]["belotes"] == nous_eux(2, 1)
    assert answered["scores"] == nous_eux(250, 70)


def test_official_rules_page_states_the_new_rules(client: FlaskClient) -> None:
    match_id = start(client, **COINCHE_OFFICIAL)["id"]
    doc = parse(client.get(f"/matches/{match_id}/rules"))
    rules = {item.find("h2").text(): item.find("p").text() for item in listed_rules(doc)}
    assert rules["Announcements"].startswith("Only one team's announcements count")
    assert "up to four belotes" in rules["Belotes at all trump"]
    assert "only through its belote has not won yet" in rules["A belote alone does not win"]


@pytest.mark.parametrize("page", ["", "/sheet", "/live", "/rules", "/whatif", "/handoff"])
def test_a_coinche_match_is_called_coinche_on_every_page(client: FlaskClient, page: str) -> None:
    match_id = start(client, variant="coinche")["id"]
    doc = parse(client.get(f"/matches/{match_id}{page}"))
    assert "Coinche" in doc.find("h1").text()
    assert "Belote" not in doc.find("h1").text()


def test_the_new_match_form_of_coinche_is_called_coinche(client: FlaskClient) -> None:
    coinche = parse(client.get("/matches/new/belote?variant=coinche"))
    assert coinche.find("h1").text() == "New Coinche match"
    assert coinche.find("title").text().startswith("New Coinche match")
    assert parse(client.get("/matches/new/belote")).find("h1").text() == "New Belote match"


def test_a_refused_contract_is_told_in_the_tables_words(client: FlaskClient) -> None:
    match_id = start(client, variant="coinche")["id"]
    entered = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 100}, "last_trick": "Nous"}
    response = send(client, "POST", rounds_url(match_id), entered | {"contract": 85})
    assert response.status_code == 422
    said = response.json["fields"]["contract"][0]
    assert said == "Choose the contract: 80 to 160 by tens, capot or générale."


def test_an_unanswered_last_trick_marks_its_chips_not_the_card_points(
    client: FlaskClient, classic: dict[str, Any]
) -> None:
    response = post_deal(client, classic["id"], deal_form(nous="82", der=""))
    assert response.status_code == 422
    doc = parse(response)
    points = doc.find("fieldset", id="last_trick")
    assert "unanswered" in points.attrs["class"].split()
    assert "invalid" not in points.attrs["class"].split()
    assert field_errors(doc)["last_trick"]
