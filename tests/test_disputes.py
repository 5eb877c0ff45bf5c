"""Settling a dispute: the "why?" page, corrections on paper, the rules pages, what-if, the chart.

Ana, Bo and Cy play Rami unless a test says otherwise. Belote is Nous (Ana and Cy) against Eux
(Bo and Di); Gaigel is Oben (Ana and Cy) against Unten (Bo and Di). Every number asserted here was
worked out by hand from RULES.md and the rules texts the pages show.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorebook import matches, storage
from scorers import GAMES
from tests.api_helpers import send
from tests.html_reader import Node, alerts, parse, values
from web.chart import chart
from web.db import get_db

PLAYERS = ["Ana", "Bo", "Cy"]
FOUR = ["Ana", "Bo", "Cy", "Di"]
BELOTE_TEAMS = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
GAIGEL_TEAMS = {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}

# Each round's sentence below is how the pages say it (the Why? page, "Was:", the removed list).
# Rami, three players, target 200. Round 1: Ana goes out; Bo holds A, JK,
# 5 = 36 (melded); Cy's 47 never melded: 47 + 25 = 72. Totals 0, 36, 72.
RAMI_OUT = {
    "outcome": "out",
    "winner": "Ana",
    "hands": {
        "Bo": {"cards": ["A", "JK", "5"], "melded": True},
        "Cy": {"points": 47, "melded": False},
    },
}
RAMI_OUT_SAID = "Ana went out; Bo held A, Joker, 5 and had melded; Cy held 47 and had not melded"
# Round 2: rami sec by Bo: Ana and Cy score 200 each. Totals 200, 36, 272: Bo wins with 36.
RAMI_SEC = {"outcome": "rami_sec", "winner": "Bo"}
# Round 2 instead: Cy goes out; Ana 10 and Bo 20, both melded. Totals 10, 56, 72: still playing.
CY_OUT = {
    "outcome": "out",
    "winner": "Cy",
    "hands": {"Ana": {"points": 10, "melded": True}, "Bo": {"points": 20, "melded": True}},
}
CY_OUT_SAID = "Cy went out; Ana held 10 and had melded; Bo held 20 and had melded"


# --- talking to the API -----------------------------------------------------------------------


def start(client: FlaskClient, game: str, seats: Any, **options: Any) -> int:
    """Start a match (players as a list, teams as a dict) and return its id."""
    key = "teams" if isinstance(seats, dict) else "players"
    response = send(client, "POST", "/api/matches", {"game": game, key: seats, "options": options})
    assert response.status_code == 201, response.json
    return response.json["id"]


def play(client: FlaskClient, match_id: int, *rounds: dict[str, Any]) -> dict[str, Any]:
    """Record rounds one after the other and return the match after the last."""
    match = client.get(f"/api/matches/{match_id}").json
    for entered_round in rounds:
        response = send(client, "POST", f"/api/matches/{match_id}/rounds", entered_round)
        assert response.status_code == 201, response.json
        match = response.json["match"]
    return match


def rami(client: FlaskClient, *rounds: dict[str, Any], **options: Any) -> int:
    """A Rami match for Ana, Bo and Cy with these rounds played."""
    match_id = start(client, "rami", PLAYERS, **options)
    play(client, match_id, *rounds)
    return match_id


def log(client: FlaskClient, match_id: int) -> list[dict[str, Any]]:
    """The match's change log through the API."""
    return client.get(f"/api/matches/{match_id}/log").json["changes"]


@contextmanager
def unchanged(client: FlaskClient, match_id: int) -> Iterator[None]:
    """Assert that whatever happens inside leaves the match and its log as they were."""
    before = (client.get(f"/api/matches/{match_id}").json, log(client, match_id))
    yield
    assert (client.get(f"/api/matches/{match_id}").json, log(client, match_id)) == before


def what_if(client: FlaskClient, match_id: int, query: str) -> Any:
    """Ask the what-if API."""
    return client.get(f"/api/matches/{match_id}/whatif?{query}")


def refused(response: Any, status: int, field: str | None = None, words: str = "") -> dict:
    """Assert the error shape and status; `field` must be named, with `words` in its messages."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.json
    assert set(body) == {"error", "fields"}
    assert words in body["error"], body
    if field is not None:
        assert list(body["fields"]) == [field], body
        assert words in " ".join(body["fields"][field]), body
    return body


# --- reading the pages ------------------------------------------------------------------------


def page(client: FlaskClient, url: str, status: int = 200) -> Node:
    """Get and parse a page, checking its status."""
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)
    return parse(response)


def elements(node: Node, tag: str) -> list[Node]:
    """Return the direct children of a node with this tag."""
    return [child for child in node.children if isinstance(child, Node) and child.tag == tag]


def section(doc: Node, title_id: str) -> Node:
    """Return the <section> labelled by the heading with this id."""
    found = doc.find("section", **{"aria-labelledby": title_id})
    assert found is not None, f"no section {title_id}"
    return found


def said(doc: Node) -> str:
    """Return the round as the Why? page says it: the first paragraph under "What the table
    entered"."""
    paragraphs = elements(section(doc, "entered-title"), "p")
    assert paragraphs, "no sentence for the round"
    return paragraphs[0].text()


def table_rows(table: Node) -> list[list[str]]:
    """Return a table's body rows as lists of cell texts (the row heading first)."""
    return [
        [cell.text() for cell in row.find_all() if cell.tag in ("th", "td")]
        for body in table.find_all("tbody")
        for row in elements(body, "tr")
    ]


def rules_page(client: FlaskClient, match_id: int) -> dict[str, Any]:
    """Read a rules page: its options line, and per rule its text and where it applied.

    A rule's `applied` is the list of round numbers it links, "not yet", or None when the rule
    says nothing about rounds.
    """
    doc = page(client, f"/matches/{match_id}/rules")
    shown: dict[str, Any] = {"options": doc.find("p", "options-line").text(), "rules": {}}
    for item in elements(doc.find("ol", "rules"), "li"):
        applied = item.find("p", "applied")
        links = applied.find_all("a") if applied else []
        for link in links:
            assert link.attrs["href"] == f"/matches/{match_id}#round-{link.text()}"
        if applied is None:
            where: Any = None
        elif links:
            where = [int(link.text()) for link in links]
        else:
            assert applied.text() == "Not applied yet."
            where = "not yet"
        shown["rules"][item.find("h2").text()] = {
            "text": elements(item, "p")[0].text(),
            "applied": where,
        }
    return shown


def applied(client: FlaskClient, match_id: int) -> dict[str, Any]:
    """Each rule's title and where it applied."""
    return {title: rule["applied"] for title, rule in rules_page(client, match_id)["rules"].items()}


def selects(doc: Node) -> dict[str, str | None]:
    """Return each <select>'s chosen value."""
    chosen: dict[str, str | None] = {}
    for select in doc.find_all("select"):
        picked = [o.attrs["value"] for o in select.find_all("option") if "selected" in o.attrs]
        chosen[select.attrs["name"]] = picked[0] if picked else None
    return chosen


# --- the "why?" page --------------------------------------------------------------------------


def test_why_page_walks_through_a_rami_round(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT)
    doc = page(client, f"/matches/{match_id}/rounds/1/why")
    assert doc.find("h1").text() == f"Why round 1 scored what it did Rami #{match_id}"
    assert said(doc) == (
        "Ana went out; Bo held A, Joker, 5 and had melded; Cy held 47 and had not melded"
    )
    assert doc.find("dl", "entered") is None
    steps = section(doc, "rules-title").find("ol", "steps")
    assert [li.text() for li in elements(steps, "li")] == [
        "Ana went out: 0.",
        "Bo holds A, JK, 5: 11 + 20 + 5 = 36.",
        "Cy's hand is worth 47.",
        "Cy never melded: 47 + 25 = 72.",
    ]
    totals = section(doc, "totals-title").find("table")
    assert [th.text() for th in totals.find("thead").find_all("th")] == [
        "",
        "Before",
        "This round",
        "After",
    ]
    assert table_rows(totals) == [
        ["Ana", "0", "0", "0"],
        ["Bo", "0", "+36", "36"],
        ["Cy", "0", "+72", "72"],
    ]
    back = [a for a in doc.find_all("a") if a.text() == "Back to the score sheet"]
    assert [a.attrs["href"] for a in back] == [f"/matches/{match_id}#round-1"]
    assert doc.find("a", href=f"/matches/{match_id}/rules") is not None
    assert doc.find("section", **{"aria-labelledby": "history-title"}) is None


def test_why_page_starts_from_the_totals_before_the_round(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, RAMI_SEC)
    doc = page(client, f"/matches/{match_id}/rounds/2/why")
    assert said(doc) == "Bo went out rami sec"
    assert [li.text() for li in doc.find("ol", "steps").find_all("li")] == [
        "Rami sec by Bo: nobody else had melded, so Ana and Cy score 200 each, whatever their "
        "hands.",
        "Ana and Cy reached the target of 200: the match is over and Bo wins with 36.",
    ]
    assert table_rows(section(doc, "totals-title").find("table")) == [
        ["Ana", "0", "+200", "200"],
        ["Bo", "36", "0", "36"],
        ["Cy", "72", "+200", "272"],
    ]


def test_why_page_walks_through_a_coinche_deal(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS, variant="coinche", rules="official")
    play(
        client,
        match_id,
        {
            "taker": "Ana",
            "trump": "hearts",
            "points": {"Nous": 98, "Eux": 54},
            "last_trick": "Nous",
            "contract": 100,
            "coinche": "coinche",
        },
        # Eux take at 80: 71 + 10 = 81 against 81, a litige; official coinche rounds 81 to 80.
        {
            "taker": "Bo",
            "trump": "spades",
            "points": {"Nous": 81, "Eux": 71},
            "last_trick": "Eux",
            "contract": 80,
        },
    )
    first = page(client, f"/matches/{match_id}/rounds/1/why")
    assert first.find("h1").text() == f"Why deal 1 scored what it did Coinche #{match_id}"
    assert said(first) == (
        "Ana took 100 at ♥, coinche; card points Nous 98, Eux 54, last trick Nous"
    )
    assert [li.text() for li in first.find("ol", "steps").find_all("li")] == [
        "Nous: 98 in cards + 10 for the last trick = 108.",
        "Eux: 54 in cards.",
        "Contract 100 reached: Nous (takers) made 108, Eux 54.",
        "Made, coinche (×2): Nous scores (160 + 100 + 0 + 0) × 2 = 520.",
        "Eux keeps its belote (0).",
    ]
    assert table_rows(first.find("table")) == [["Nous", "0", "+520", "520"], ["Eux", "0", "0", "0"]]
    second = page(client, f"/matches/{match_id}/rounds/2/why")
    assert said(second) == "Bo took 80 at ♠; card points Nous 81, Eux 71, last trick Eux"
    assert [li.text() for li in second.find("ol", "steps").find_all("li")] == [
        "Nous: 81 in cards.",
        "Eux: 71 in cards + 10 for the last trick = 81.",
        "Contract 80 reached: Eux (takers) made 81, Nous 81.",
        "Litige: both teams made 81; Nous scores its 81 and Eux's 81 go to the reserve for the "
        "next deal's winner.",
        "Rounded to the nearest ten: Nous 81 → 80.",
    ]
    assert [th.text() for th in second.find("thead").find_all("th")][2] == "This deal"
    assert table_rows(second.find("table")) == [
        ["Nous", "520", "+80", "600"],
        ["Eux", "0", "0", "0"],
    ]


@pytest.mark.parametrize("n", [0, 2, 99])
def test_why_page_of_a_missing_round_is_404(client: FlaskClient, n: int) -> None:
    match_id = rami(client, RAMI_OUT)
    page(client, f"/matches/{match_id}/rounds/{n}/why", 404)


def test_why_page_of_a_missing_match_is_404(client: FlaskClient) -> None:
    page(client, "/matches/999/rounds/1/why", 404)


def test_why_page_lists_the_history_of_a_corrected_round(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, CY_OUT)
    corrected = {
        "outcome": "out",
        "winner": "Bo",
        "hands": {"Ana": {"points": 12, "melded": True}, "Cy": {"points": 47, "melded": False}},
    }
    assert send(client, "PUT", f"/api/matches/{match_id}/rounds/1", corrected).status_code == 200
    added, correction = [c for c in log(client, match_id) if c["n"] == 1]
    doc = page(client, f"/matches/{match_id}/rounds/1/why")
    assert said(doc) == "Bo went out; Ana held 12 and had melded; Cy held 47 and had not melded"
    times = doc.find("p", "help").find_all("time")
    assert [t.attrs["datetime"] for t in times] == [added["at"], correction["at"]]
    history = elements(section(doc, "history-title").find("ul"), "li")
    assert [li.text() for li in history] == [
        f"{added['at'][:10]} {added['at'][11:16]} UTC: add",
        f"{correction['at'][:10]} {correction['at'][11:16]} UTC: correct, was " + RAMI_OUT_SAID,
    ]
    assert history[0].find("del") is None
    assert history[1].find("del").text() == RAMI_OUT_SAID
    assert table_rows(doc.find("table")) == [
        ["Ana", "0", "+12", "12"],
        ["Bo", "0", "0", "0"],
        ["Cy", "0", "+72", "72"],
    ]
    # Round 2 was never corrected: no history section.
    second = page(client, f"/matches/{match_id}/rounds/2/why")
    assert second.find("section", **{"aria-labelledby": "history-title"}) is None


BARBU_HAND = {"contract": "barbu", "taken": {"king_of_hearts": "Di"}, "doubles": []}
NO_QUEENS = {"contract": "no_queens", "taken": {"Ana": 1, "Bo": 1, "Cy": 1, "Di": 1}, "doubles": []}


@pytest.mark.parametrize(
    ("game", "seats", "options", "rounds", "round_name"),
    [
        pytest.param("rami", PLAYERS, {}, [RAMI_OUT, CY_OUT], "round", id="rami"),
        pytest.param(
            "belote",
            BELOTE_TEAMS,
            {},
            [
                {"taker": "Ana", "trump": "hearts", "points": {"Nous": 82}, "last_trick": "Nous"},
                {"taker": "Bo", "trump": "clubs", "points": {"Eux": 90}, "last_trick": "Eux"},
            ],
            "deal",
            id="belote",
        ),
        pytest.param("barbu", FOUR, {}, [BARBU_HAND, NO_QUEENS], "hand", id="barbu"),
        pytest.param(
            "gaigel",
            GAIGEL_TEAMS,
            {},
            [{"winner": "Oben", "outcome": "aus"}, {"winner": "Unten", "outcome": "gaigel"}],
            "deal",
            id="gaigel",
        ),
        pytest.param(
            "gaigel",
            PLAYERS,
            {"mode": "three"},
            [
                {"card_points": {"Ana": 60, "Bo": 40, "Cy": 20}},
                {"card_points": {"Ana": 20, "Bo": 40, "Cy": 60}},
            ],
            "deal",
            id="gaigel-three",
        ),
        pytest.param(
            "porrazo",
            PLAYERS,
            {},
            [
                {"player": "Ana", "event": "ronda", "rank": "K"},
                {"player": "Bo", "event": "limpia", "rank": "5"},
            ],
            "peg",
            id="porrazo",
        ),
    ],
)
def test_every_sheet_row_links_its_why_page(
    app: Flask,
    client: FlaskClient,
    game: str,
    seats: Any,
    options: dict,
    rounds: list,
    round_name: str,
) -> None:
    match_id = start(client, game, seats, **options)
    play(client, match_id, *rounds)
    stored = [played.input for played in load(app, match_id).rounds]
    key = "teams" if isinstance(seats, dict) else "players"
    table = GAMES[game].read_table({"game": game, key: seats, "options": options})
    doc = page(client, f"/matches/{match_id}")
    bodies = doc.find_all("tbody", "round")
    assert [body.attrs["id"] for body in bodies] == ["round-1", "round-2"]
    for n, body in enumerate(bodies, start=1):
        links = [a.attrs["href"] for a in body.find_all("a") if a.text() == "Why?"]
        assert links == [f"/matches/{match_id}/rounds/{n}/why"]
        why = page(client, links[0])
        assert why.find("h1").text().startswith(f"Why {round_name} {n} scored what it did")
        # The page says the round as the game's scorer does, from the round as stored.
        assert said(why) == GAMES[game].describe(table, stored[n - 1])


# --- corrections on paper ---------------------------------------------------------------------


def test_match_page_shows_a_correction_struck_through_and_a_removed_round(
    client: FlaskClient,
) -> None:
    blocked = {
        "outcome": "blocked",
        "hands": {
            "Ana": {"points": 5, "melded": True},
            "Bo": {"points": 30, "melded": True},
            "Cy": {"points": 40, "melded": True},
        },
    }
    match_id = rami(client, RAMI_OUT, CY_OUT, blocked)
    corrected = {
        "outcome": "out",
        "winner": "Bo",
        "hands": {"Ana": {"points": 12, "melded": True}, "Cy": {"points": 47, "melded": False}},
    }
    assert send(client, "PUT", f"/api/matches/{match_id}/rounds/1", corrected).status_code == 200
    assert client.delete(f"/api/matches/{match_id}/rounds/2").status_code == 200
    correction, removal = log(client, match_id)[3:]
    assert (correction["action"], removal["action"]) == ("correct", "remove")

    doc = page(client, f"/matches/{match_id}")
    first = doc.find("tbody", id="round-1")
    assert "corrected" in first.attrs["class"].split()
    was = first.find_all("p", "was")
    assert len(was) == 1
    old = RAMI_OUT_SAID
    assert was[0].find("del").text() == old
    assert was[0].find("time").attrs["datetime"] == correction["at"]
    assert was[0].text() == f"Was: {old} {correction['at'][11:16]} UTC"
    assert first.find("span", "badge").text() == f"Corrected {correction['at'][11:16]} UTC"
    # Bo went out instead: Ana 12, Cy 47 + 25 = 72; the old blocked round 3 is round 2 now.
    assert [li.text() for li in first.find("tr", "why").find("ul").find_all("li")] == [
        "Bo went out: 0.",
        "Ana's hand is worth 12.",
        "Cy's hand is worth 47.",
        "Cy never melded: 47 + 25 = 72.",
    ]
    second = doc.find("tbody", id="round-2")
    assert second.find("p", "was") is None
    assert second.find("span", "badge") is None
    assert doc.find("tbody", id="round-3") is None

    removed = section(doc, "removed-title")
    assert removed.find("h2").text() == "Removed"
    items = removed.find("ul").find_all("li")
    at = removal["at"]
    assert [li.text() for li in items] == [
        f"Round 2, removed {at[:10]} {at[11:16]} UTC: {CY_OUT_SAID} Restore round 2"
    ]
    assert items[0].find("del").text() == CY_OUT_SAID
    assert items[0].find("time").attrs["datetime"] == at


def test_match_page_without_corrections_has_no_was_and_no_removed(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT)
    doc = page(client, f"/matches/{match_id}")
    assert doc.find("p", "was") is None
    assert doc.find("del") is None
    assert doc.find("section", **{"aria-labelledby": "removed-title"}) is None


@pytest.mark.parametrize("statement", ["UPDATE changes SET action = 'add'", "DELETE FROM changes"])
def test_the_change_log_file_refuses_rewrites(
    app: Flask, client: FlaskClient, statement: str
) -> None:
    match_id = rami(client, RAMI_OUT)
    with closing(storage.connect(app.config["DATABASE"])) as db:
        with pytest.raises(storage.Duplicate, match="append-only"):
            db.execute(statement)
    assert [change["action"] for change in log(client, match_id)] == ["add"]


# --- the rules pages --------------------------------------------------------------------------


def test_rami_rules_follow_the_stored_options_and_link_the_rounds(client: FlaskClient) -> None:
    match_id = start(client, "rami", FOUR)
    play(
        client,
        match_id,
        {
            "outcome": "out",
            "winner": "Ana",
            "hands": {
                "Bo": {"points": 10, "melded": True},
                "Cy": {"points": 20, "melded": False},
                "Di": {"points": 5, "melded": True},
            },
        },
        {"outcome": "rami_sec", "winner": "Bo"},
    )
    shown = rules_page(client, match_id)
    assert shown["options"] == (
        "This match: target 300 · rami sec points 200 · never-melded bonus 25 · never-melded cap "
        "100 · first dealer Ana. These stay as they were when the match started."
    )
    assert list(shown["rules"]) == [
        "Cards left in hand",
        "Going out",
        "Rami sec",
        "Blocked",
        "Never melded",
        "The end",
        "Who deals",
    ]
    assert shown["rules"]["The end"]["text"] == (
        "When a total reaches 300 the lowest total wins; a tie for lowest plays another round."
    )
    assert shown["rules"]["Never melded"]["text"] == (
        "A loser who never melded scores the hand + 25, at most 100."
    )
    assert shown["rules"]["Who deals"]["text"] == (
        "First dealer: Ana. After each deal, the player to the left deals (clockwise)."
    )
    assert {title: rule["applied"] for title, rule in shown["rules"].items()} == {
        "Cards left in hand": [1],
        "Going out": [1],
        "Rami sec": [2],
        "Blocked": "not yet",
        "Never melded": [1],
        "The end": None,
        "Who deals": None,
    }


@pytest.mark.parametrize(
    ("options", "rule", "text"),
    [
        pytest.param(
            {"rami_sec_points": 150},
            "Rami sec",
            "Going out at the first meld, before anyone else melded: every opponent scores 150, "
            "whatever they hold.",
            id="rami-sec-150",
        ),
        pytest.param(
            {"target": 150},
            "Never melded",
            "A loser who never melded scores the hand + 25, at most 75.",
            id="cap-half-the-target",
        ),
        pytest.param(
            {"target": 1000, "unmelded_cap": 60, "unmelded_bonus": 30},
            "Never melded",
            "A loser who never melded scores the hand + 30, at most 60.",
            id="cap-below-half-the-target",
        ),
        pytest.param(
            {"target": 150},
            "The end",
            "When a total reaches 150 the lowest total wins; a tie for lowest plays another round.",
            id="target",
        ),
    ],
)
def test_rami_rule_texts_carry_the_match_options(
    client: FlaskClient, options: dict, rule: str, text: str
) -> None:
    match_id = start(client, "rami", PLAYERS, **options)
    shown = rules_page(client, match_id)
    assert shown["rules"][rule]["text"] == text
    assert shown["rules"][rule]["applied"] in ("not yet", None)


def test_rami_rules_page_options_line_shows_changed_options(client: FlaskClient) -> None:
    match_id = start(client, "rami", PLAYERS, target=150, rami_sec_points=150)
    assert rules_page(client, match_id)["options"] == (
        "This match: target 150 · rami sec points 150 · never-melded bonus 25 · never-melded cap "
        "100 · first dealer Ana. These stay as they were when the match started."
    )


def test_never_melded_does_not_claim_a_blocked_round_it_scored_nothing_in(
    client: FlaskClient,
) -> None:
    # Blocked: Ana never melded but holds the lowest hand and scores 0; Bo and Cy had melded.
    # No never-melded bonus was charged, so the rule produced no number in this round.
    blocked = {
        "outcome": "blocked",
        "hands": {
            "Ana": {"points": 5, "melded": False},
            "Bo": {"points": 30, "melded": True},
            "Cy": {"points": 40, "melded": True},
        },
    }
    match_id = rami(client, blocked)
    explanation = client.get(f"/api/matches/{match_id}").json["rounds"][0]["explanation"]
    assert not any("never melded" in sentence for sentence in explanation)
    assert applied(client, match_id)["Never melded"] == "not yet"


def belote_deal(nous: int, eux: int, der: str, taker: str = "Ana", **extra: Any) -> dict:
    """A trump deal as the API takes it."""
    deal = {"taker": taker, "trump": "hearts", "points": {"Nous": nous, "Eux": eux}}
    return deal | {"last_trick": der} | extra


def test_belote_official_coinche_rules_page(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS, variant="coinche", rules="official")
    play(
        client,
        match_id,
        belote_deal(98, 54, "Nous", contract=100, coinche="coinche"),
        belote_deal(81, 71, "Eux", taker="Bo", contract=80),
    )
    shown = rules_page(client, match_id)
    assert shown["options"] == (
        "This match: coinche, with contracts · official rules · target 2000 · a tie waits in "
        "reserve · round deal scores to tens: yes · first dealer Ana. These stay as they were "
        "when the match started."
    )
    assert "official rules" in shown["options"] and "target 2000" in shown["options"]
    rules = shown["rules"]
    assert rules["Card points"]["text"].startswith("Trumps: J 20, 9 14, A 11, 10 10, K 4, Q 3.")
    assert "No trump: the ace is worth 19 (a deal of 162)." in rules["Card points"]["text"]
    assert rules["Contract and coinche"]["text"].endswith(
        "(160 + contract + announcements + belote) × the multiplier."
    )
    assert rules["The end"]["text"].startswith("At the end of the deal where a team reaches 2000,")
    assert rules["Who deals"]["text"] == (
        "First dealer: Ana. After each deal, the player to the right deals (counter-clockwise)."
    )
    assert {title: rule["applied"] for title, rule in rules.items()} == {
        "Card points": None,
        "Made": [1],
        "Fall": "not yet",
        "Litige": [2],
        "Contract and coinche": [1],
        "Rounding": [2],
        "Announcements": "not yet",
        "Belotes at all trump": "not yet",
        "A belote alone does not win": None,
        "The end": None,
        "Who deals": None,
    }


def test_belote_classic_maison_rules_page_links_the_litige(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS)
    play(
        client,
        match_id,
        belote_deal(82, 70, "Nous"),  # made
        belote_deal(71, 81, "Nous"),  # 81 each: litige, Nous's 81 in reserve
        belote_deal(90, 62, "Nous"),  # made, and Nous win the 81 in reserve
        belote_deal(90, 62, "Nous", taker="Bo"),  # Eux took with 62: fall
    )
    shown = rules_page(client, match_id)
    assert shown["options"].startswith(
        "This match: classic belote · house rules · target 1000 · a tie waits in reserve · round "
        "deal scores to tens: no · first dealer Ana."
    )
    assert "No trump: the ace is worth 11 (a deal of 130)." in shown["rules"]["Card points"]["text"]
    assert shown["rules"]["Made"]["text"].endswith("then each team scores its total.")
    assert shown["rules"]["Litige"]["text"] == (
        "Equal totals: the defence scores its total and the takers' total waits in reserve for "
        "the next deal's winner."
    )
    assert {title: rule["applied"] for title, rule in shown["rules"].items()} == {
        "Card points": None,
        "Made": [1, 3],
        "Fall": [4],
        "Litige": [2, 3],
        "The end": None,
        "Who deals": None,
    }


def test_belote_litige_counted_as_a_fall_links_the_litige_rule(client: FlaskClient) -> None:
    # With litige "fall" the rule reads "Equal totals count as a fall." and decides deal 1
    # (81 each): it applied there, even though the deal's result is a fall.
    match_id = start(client, "belote", BELOTE_TEAMS, litige="fall")
    play(client, match_id, belote_deal(71, 81, "Nous"))
    rules = rules_page(client, match_id)["rules"]
    assert rules["Litige"]["text"] == "Equal totals count as a fall."
    assert rules["Fall"]["applied"] == [1]
    assert rules["Litige"]["applied"] == [1]


def test_barbu_rules_link_each_contract_to_its_hand(client: FlaskClient) -> None:
    match_id = start(client, "barbu", FOUR, first_declarer="Bo")
    play(
        client,
        match_id,
        BARBU_HAND | {"doubles": [["Ana", "Bo"]]},
        NO_QUEENS,
        {"contract": "trumps", "taken": {"Ana": 4, "Bo": 3, "Cy": 3, "Di": 3}, "doubles": []},
    )
    shown = rules_page(client, match_id)
    assert shown["options"] == (
        "This match: first declarer Bo. These stay as they were when the match started."
    )
    assert shown["rules"]["Declarers"]["text"].startswith("Bo declares the first seven hands,")
    assert shown["rules"]["Barbu"]["text"] == "−20 for the K♥."
    assert shown["rules"]["Who deals"]["text"] == (
        "The declarer deals each hand: Bo the first seven, then the player to the left (clockwise)."
    )
    assert {title: rule["applied"] for title, rule in shown["rules"].items()} == {
        "Declarers": None,
        "No tricks": "not yet",
        "No queens": [2],
        "No hearts": "not yet",
        "No last two": "not yet",
        "Barbu": [1],
        "Trumps": [3],
        "Dominoes": "not yet",
        "Doubles": [1],
        "Who deals": None,
        "Obligation": None,
    }


def test_gaigel_rules_link_the_gaigel_deal_and_the_strokes(client: FlaskClient) -> None:
    match_id = start(client, "gaigel", GAIGEL_TEAMS, strokes=3, auf_farbe=True)
    play(
        client,
        match_id,
        {"winner": "Oben", "outcome": "aus"},  # Unten take 1 of 3
        {"winner": "Unten", "outcome": "gaigel"},  # Oben take 2: all 3 given
        {"winner": "Oben", "outcome": "auf_farbe"},  # Oben erase 1
        {"winner": "Oben", "evidence": {"points": 87, "marriages": [20], "loser_tricks": 2}},
    )
    shown = rules_page(client, match_id)
    assert shown["options"] == (
        "This match: two teams (4 or 6) · strokes 3 · five sevens win: no · auf Farbe wins: "
        "yes · first dealer Ana. These stay as they were when the match started."
    )
    assert shown["rules"]["Giving strokes"]["text"].startswith("Until all 3 strokes are given,")
    assert {title: rule["applied"] for title, rule in shown["rules"].items()} == {
        "Aus": [1, 4],
        "Gaigel": [2],
        "Untergaigeln and Übergaigeln": "not yet",
        "Checking the Aus": [4],
        "Giving strokes": [1, 2],
        "Erasing strokes": [3, 4],
        "Auf Farbe": [3],
        "Who deals": None,
    }


def test_three_player_gaigel_rules(client: FlaskClient) -> None:
    match_id = start(client, "gaigel", PLAYERS, mode="three")
    play(client, match_id, {"card_points": {"Ana": 60, "Bo": 40, "Cy": 20}})
    shown = rules_page(client, match_id)
    assert shown["options"].startswith("This match: three players")
    assert {title: rule["text"] for title, rule in shown["rules"].items()} == {
        "Game points": "Each deal shares 9: 5, 3 and 1 by card points; a player with no trick "
        "gets 0 and the others 6 and 3; one player alone with tricks gets 9. Ties cut.",
        "Sessions": "Ten deals a session, three sessions; most game points wins.",
        "Who deals": "First dealer: Ana. After each deal, the player to the left deals "
        "(clockwise).",
    }
    assert {title: rule["applied"] for title, rule in shown["rules"].items()} == {
        "Game points": None,
        "Sessions": None,
        "Who deals": None,
    }


PORRAZO_EVENTS = [
    {"player": "Ana", "event": "ronda", "rank": "K"},
    {"player": "Bo", "event": "porrazo", "rank": "6", "limpia": "7"},
    {"player": "Cy", "event": "counter_porrazo", "rank": "6", "limpia": "7"},
    {"event": "confirm"},
    {"player": "Ana", "event": "limpia", "rank": "5"},
    {"event": "cards", "counts": {"Ana": 29, "Bo": 13, "Cy": 10}},
]


def test_porrazo_rules_link_the_porrazo_events(client: FlaskClient) -> None:
    match_id = start(client, "porrazo", PLAYERS, target=40, wrap=False)
    play(client, match_id, *PORRAZO_EVENTS)
    shown = rules_page(client, match_id)
    assert shown["rules"]["Limpia"]["text"] == (
        "Clearing the table scores by the last card of the run captured."
    )
    assert shown["rules"]["Card count"]["text"] == (
        "At the end of the hand the most cards score the difference with the next side."
    )
    assert shown["rules"]["The end"]["text"] == "The first side to reach 40 wins at once."
    where = {title: rule["applied"] for title, rule in shown["rules"].items()}
    assert where["Porrazo and its answers"] == [2, 3, 4]
    assert where["Limpia"] == [2, 3, 5]
    assert where["Card count"] == [6]
    assert where["Rondas"] == where["Tendido"] == "not yet"
    assert where["The end"] is None
    assert {1, 5} <= set(where["Values by rank"])


def test_porrazo_values_by_rank_link_the_porrazo_and_counter(client: FlaskClient) -> None:
    # "Ronda, porrazo, limpia: K 4, … Rondín and counter-porrazo: 12, 9, 6, 3." The porrazo of 6
    # (1) and the counter-porrazo of 6 (3) took their values from this rule.
    match_id = start(client, "porrazo", PLAYERS)
    play(client, match_id, *PORRAZO_EVENTS)
    assert {2, 3} <= set(applied(client, match_id)["Values by rank"])


def test_porrazo_rules_options_line_keeps_the_card_ranks(client: FlaskClient) -> None:
    match_id = start(client, "porrazo", PLAYERS, target=40, wrap=False)
    assert rules_page(client, match_id)["options"] == (
        "This match: target 40 · the difference with the next · runs wrap K-A-2: no · first "
        "dealer Ana. These stay as they were when the match started."
    )


def test_rules_page_of_an_unknown_match_is_404(client: FlaskClient) -> None:
    page(client, "/matches/999/rules", 404)


# --- what-if: the API -------------------------------------------------------------------------


def test_what_if_a_higher_target_leaves_the_match_playing(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, RAMI_SEC)
    with unchanged(client, match_id):
        response = what_if(client, match_id, "target=300")
        assert response.status_code == 200, response.json
    assert response.json == {
        "options": {
            "target": 300,
            "rami_sec_points": 200,
            "unmelded_bonus": 25,
            "unmelded_cap": 100,
            "first_dealer": "Ana",
        },
        "actual": {
            "totals": {"Ana": 200, "Bo": 36, "Cy": 272},
            "status": "finished",
            "winner": "Bo",
            "ended_after": 2,
        },
        "whatif": {
            "totals": {"Ana": 200, "Bo": 36, "Cy": 272},
            "status": "playing",
            "winner": None,
            "ended_after": None,
        },
    }
    match = client.get(f"/api/matches/{match_id}").json
    assert (match["options"]["target"], match["status"], match["winner"]) == (200, "finished", "Bo")


def test_what_if_a_lower_target_ends_the_match_earlier(client: FlaskClient) -> None:
    # At 30 the cap is 15: after round 1 Bo's 36 reaches 30 and Ana wins with 0.
    match_id = rami(client, RAMI_OUT, CY_OUT)
    with unchanged(client, match_id):
        response = what_if(client, match_id, "target=30")
        assert response.status_code == 200, response.json
    assert response.json["options"]["target"] == 30
    assert response.json["actual"] == {
        "totals": {"Ana": 10, "Bo": 56, "Cy": 72},
        "status": "playing",
        "winner": None,
        "ended_after": None,
    }
    other = response.json["whatif"]
    assert (other["status"], other["winner"], other["ended_after"]) == ("finished", "Ana", 1)


def test_what_if_never_melded_cap_follows_the_target(client: FlaskClient) -> None:
    # Target 100: the cap is 50, so Cy's 47 + 25 = 72 costs 50 (round 1: 0, 36, 50).
    match_id = rami(client, RAMI_OUT, CY_OUT)
    response = what_if(client, match_id, "target=100")
    assert response.json["whatif"] == {
        "totals": {"Ana": 10, "Bo": 56, "Cy": 50},
        "status": "playing",
        "winner": None,
        "ended_after": None,
    }


def test_what_if_official_rules_change_coinche_totals_and_rounding(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS, variant="coinche")
    play(
        client,
        match_id,
        # Maison: (160 + 100 + 20) × 2 + 20 = 580. Official: (160 + 100 + 20 + 20) × 2 = 600.
        belote_deal(
            98,
            54,
            "Nous",
            contract=100,
            coinche="coinche",
            belote="Nous",
            announcements={"Nous": 20, "Eux": 0},
        ),
        # 85 + 10 = 95 + 80 = 175, Eux 67; official rounds them to 180 and 70.
        belote_deal(85, 67, "Nous", contract=80),
    )
    with unchanged(client, match_id):
        response = what_if(client, match_id, "rules=official")
        assert response.status_code == 200, response.json
    assert response.json["options"] == {
        "variant": "coinche",
        "rules": "official",
        "target": 2000,
        "litige": "reserve",
        "rounding": True,
        "first_dealer": "Ana",
    }
    assert response.json["actual"]["totals"] == {"Nous": 755, "Eux": 67}
    assert response.json["whatif"] == {
        "totals": {"Nous": 780, "Eux": 70},
        "status": "playing",
        "winner": None,
        "ended_after": None,
    }


def test_what_if_keeps_a_classic_match_rounding(client: FlaskClient) -> None:
    # Classic rounding is the table's free choice, not derived: changing only the target must
    # keep it. Nous 82 + 10 = 92 rounds to 90.
    match_id = start(client, "belote", BELOTE_TEAMS, rounding=True)
    play(client, match_id, belote_deal(82, 70, "Nous"))
    response = what_if(client, match_id, "target=500")
    assert response.status_code == 200, response.json
    assert response.json["actual"]["totals"] == {"Nous": 90, "Eux": 70}
    assert response.json["options"]["rounding"] is True
    assert response.json["whatif"]["totals"] == {"Nous": 90, "Eux": 70}


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        pytest.param("nope=1", "nope", "Rami has no option 'nope'.", id="unknown-option"),
        pytest.param("target=abc", "target", "Target is a whole number.", id="not-a-number"),
        pytest.param("target=2.5", "target", "Target is a whole number.", id="not-whole"),
        pytest.param("target=0", "target", "Target must be between 1 and", id="too-low"),
        pytest.param(
            "rami_sec_points=5000", "rami_sec_points", "between 0 and 1000", id="too-high"
        ),
    ],
)
def test_what_if_refuses_a_bad_option_at_its_query_parameter(
    client: FlaskClient, query: str, field: str, words: str
) -> None:
    match_id = rami(client, RAMI_OUT)
    with unchanged(client, match_id):
        refused(what_if(client, match_id, query), 422, field, words)


def test_what_if_refuses_an_unknown_choice_at_its_query_parameter(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS)
    refused(what_if(client, match_id, "rules=strict"), 422, "rules", "maison, official")


@pytest.mark.parametrize("text", ["ture", "maybe"])
def test_what_if_refuses_a_switch_it_cannot_read(client: FlaskClient, text: str) -> None:
    # Anything but true/yes/on silently reads as "no": a typo turns the runs' wrap off.
    match_id = start(client, "porrazo", PLAYERS)
    play(client, match_id, PORRAZO_EVENTS[0])
    refused(what_if(client, match_id, f"wrap={text}"), 422, "wrap")


def test_what_if_that_breaks_a_porrazo_event_is_refused(client: FlaskClient) -> None:
    # At 2, Bo's provisional porrazo (1 + limpia 1) would win: the next card must answer it,
    # so Ana's ronda cannot follow.
    match_id = start(client, "porrazo", PLAYERS)
    play(client, match_id, PORRAZO_EVENTS[1], PORRAZO_EVENTS[0])
    with unchanged(client, match_id):
        body = refused(what_if(client, match_id, "target=2"), 422)
    assert body["error"] == (
        "Under these options peg 2 could not be scored: Bo's porrazo of 6 would reach 2: "
        "record the next player's counter-porrazo if they matched, or confirm that it stands."
    )


def test_what_if_another_first_declarer_is_refused_for_a_declared_hand(
    client: FlaskClient,
) -> None:
    match_id = start(client, "barbu", FOUR)
    play(client, match_id, BARBU_HAND | {"declarer": "Ana"})
    with unchanged(client, match_id):
        body = refused(what_if(client, match_id, "first_declarer=Bo"), 422)
    assert body["error"] == (
        "Under these options hand 1 could not be scored: Hand 1 is Bo's to declare."
    )


def test_what_if_names_the_round_it_cannot_read(client: FlaskClient) -> None:
    # Round 2 gives both teams announcements: maison scores it (Nous 72 + 50 = 122, Eux 80 + 10
    # + 20 = 110), official rules count one side's only, so round 2 is the one refused.
    match_id = start(client, "belote", BELOTE_TEAMS)
    play(
        client,
        match_id,
        belote_deal(82, 70, "Nous"),
        belote_deal(72, 80, "Eux", announcements={"Nous": 50, "Eux": 20}),
        belote_deal(90, 62, "Nous"),
    )
    with unchanged(client, match_id):
        body = refused(what_if(client, match_id, "rules=official"), 422)
    assert body["error"].startswith(
        "Under these options deal 2 could not be scored: Under official rules only one team's "
        "announcements count"
    )


def test_what_if_names_the_first_round_when_it_is_the_one(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS)
    play(client, match_id, belote_deal(72, 80, "Eux", announcements={"Nous": 50, "Eux": 20}))
    body = refused(what_if(client, match_id, "rules=official"), 422)
    assert body["error"].startswith("Under these options deal 1 could not be scored:")


def test_what_if_without_an_enabled_variant_refuses_its_deal(client: FlaskClient) -> None:
    # A "five sevens" deal cannot be entered unless five sevens win; replayed without them it
    # cannot be scored either.
    match_id = start(client, "gaigel", GAIGEL_TEAMS, five_sevens=True)
    play(
        client,
        match_id,
        {"winner": "Oben", "outcome": "aus"},
        {"winner": "Unten", "outcome": "five_sevens"},
    )
    refused(what_if(client, match_id, "five_sevens=false"), 422, words="could not be scored")


@pytest.mark.parametrize(
    ("game", "seats", "options", "rounds", "query"),
    [
        pytest.param(
            "belote",
            BELOTE_TEAMS,
            {},
            [belote_deal(82, 70, "Nous")],
            "variant=coinche",
            id="belote-classic-to-coinche",
        ),
        pytest.param(
            "gaigel",
            GAIGEL_TEAMS,
            {},
            [{"winner": "Oben", "outcome": "aus"}],
            "mode=three",
            id="gaigel-teams-to-three",
        ),
    ],
)
def test_what_if_that_changes_the_kind_of_round_is_refused_not_a_500(
    app: Flask,
    client: FlaskClient,
    game: str,
    seats: Any,
    options: dict,
    rounds: list,
    query: str,
) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    match_id = start(client, game, seats, **options)
    play(client, match_id, *rounds)
    with unchanged(client, match_id):
        response = what_if(client, match_id, query)
        assert response.status_code == 422, response.get_data(as_text=True)


def test_what_if_of_an_unknown_match_is_404(client: FlaskClient) -> None:
    refused(what_if(client, 999, "target=300"), 404)
    page(client, "/matches/999/whatif", 404)


# --- what-if: the page ------------------------------------------------------------------------


def test_what_if_page_offers_the_current_options(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, RAMI_SEC)
    doc = page(client, f"/matches/{match_id}/whatif")
    form = doc.find("form", "whatif")
    assert form.attrs["method"] == "get"
    assert values(form) == {
        "target": "200",
        "rami_sec_points": "200",
        "unmelded_bonus": "25",
        "unmelded_cap": "100",
    }
    assert doc.find("table", "whatif-result") is None
    assert alerts(doc) == []


def test_what_if_page_does_not_offer_derived_switches(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS, variant="coinche", rules="official")
    form = page(client, f"/matches/{match_id}/whatif").find("form", "whatif")
    assert selects(form) == {
        "variant": "coinche",
        "rules": "official",
        "litige": "reserve",
    }
    assert values(form) == {"target": "2000"}
    assert form.find(name="rounding") is None


def test_what_if_page_sets_the_results_side_by_side(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, RAMI_SEC)
    with unchanged(client, match_id):
        doc = page(client, f"/matches/{match_id}/whatif?target=300")
    assert values(doc.find("form", "whatif"))["target"] == "300"
    table = doc.find("table", "whatif-result")
    assert [th.text() for th in table.find("thead").find_all("th")] == ["", "As played", "What if"]
    assert table_rows(table) == [
        ["Ana", "200", "200"],
        ["Bo", "36", "36"],
        ["Cy", "272", "272"],
        ["Result", "Bo wins with 36!", "still playing"],
    ]


def test_what_if_page_shows_official_coinche_totals(client: FlaskClient) -> None:
    match_id = start(client, "belote", BELOTE_TEAMS, variant="coinche")
    play(client, match_id, belote_deal(85, 67, "Nous", contract=80))
    doc = page(client, f"/matches/{match_id}/whatif?rules=official&target=")
    assert selects(doc.find("form", "whatif"))["rules"] == "official"
    assert table_rows(doc.find("table", "whatif-result")) == [
        ["Nous", "175", "180"],
        ["Eux", "67", "70"],
        ["Result", "still playing", "still playing"],
    ]


def test_what_if_page_says_when_the_match_would_have_ended(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, CY_OUT)
    doc = page(client, f"/matches/{match_id}/whatif?target=30")
    result = table_rows(doc.find("table", "whatif-result"))[-1]
    assert result[:2] == ["Result", "still playing"]
    assert result[2].startswith("Ana wins with ")
    assert result[2].endswith("(after round 1)")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        pytest.param("target=abc", "Target is a whole number.", id="not-a-number"),
        pytest.param("nope=3", "Rami has no option 'nope'.", id="unknown-option"),
    ],
)
def test_what_if_page_shows_a_refusal(client: FlaskClient, query: str, message: str) -> None:
    match_id = rami(client, RAMI_OUT)
    with unchanged(client, match_id):
        doc = page(client, f"/matches/{match_id}/whatif?{query}", 422)
    assert alerts(doc) == [message]
    assert doc.find("table", "whatif-result") is None


def test_what_if_page_shows_a_round_that_could_not_be_scored(client: FlaskClient) -> None:
    match_id = start(client, "porrazo", PLAYERS)
    play(client, match_id, PORRAZO_EVENTS[1], PORRAZO_EVENTS[0])
    with unchanged(client, match_id):
        doc = page(client, f"/matches/{match_id}/whatif?target=2", 422)
    (message,) = alerts(doc)
    assert message.startswith("Under these options peg 2 could not be scored: ")
    assert values(doc.find("form", "whatif"))["target"] == "2"
    assert doc.find("table", "whatif-result") is None


# --- the chart --------------------------------------------------------------------------------


def load(app: Flask, match_id: int) -> matches.Match:
    """Load a match as the pages do."""
    with app.app_context():
        return matches.load(get_db(), match_id)


def test_no_chart_before_the_first_round(app: Flask, client: FlaskClient) -> None:
    match_id = rami(client)
    assert chart(load(app, match_id)) is None
    doc = page(client, f"/matches/{match_id}")
    assert doc.find("figure", "chart") is None
    assert [svg.attrs.get("class") for svg in doc.find_all("svg")] == ["segno"]  # the QR code


def test_chart_scales_the_running_totals(app: Flask, client: FlaskClient) -> None:
    # Ana 0, 0, 200; Bo 0, 36, 36; Cy 0, 72, 272. x: 34, 183, 332; y = 10 + 166 × (272 − v) / 272.
    match_id = rami(client, RAMI_OUT, RAMI_SEC)
    drawn = chart(load(app, match_id))
    assert drawn is not None
    assert (drawn.low, drawn.high, drawn.zero_y, drawn.rounds) == (0, 272, 176.0, 2)
    assert [(line.side, line.points, line.dash, line.last) for line in drawn.lines] == [
        ("Ana", "34.0,176.0 183.0,176.0 332.0,53.9", "", (332.0, 53.9)),
        ("Bo", "34.0,176.0 183.0,154.0 332.0,154.0", "6 3", (332.0, 154.0)),
        ("Cy", "34.0,176.0 183.0,132.1 332.0,10.0", "2 3", (332.0, 10.0)),
    ]


def test_chart_keeps_negative_totals_above_the_bottom(app: Flask, client: FlaskClient) -> None:
    # Barbu: Di −20 after the barbu hand; the zero line sits above the low edge.
    match_id = start(client, "barbu", FOUR)
    play(client, match_id, BARBU_HAND)
    drawn = chart(load(app, match_id))
    assert (drawn.low, drawn.high, drawn.rounds) == (-20, 1, 1)
    # y(0) = 10 + 166 × 1 / 21 = 17.9; y(−20) = 176.
    assert drawn.zero_y == 17.9
    assert [line.points for line in drawn.lines] == [
        "34.0,17.9 332.0,17.9",
        "34.0,17.9 332.0,17.9",
        "34.0,17.9 332.0,17.9",
        "34.0,17.9 332.0,176.0",
    ]


def test_match_page_draws_the_chart_and_its_table(app: Flask, client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, RAMI_SEC)
    doc = page(client, f"/matches/{match_id}")
    figure = doc.find("figure", "chart")
    svg = figure.find("svg", role="img")
    assert svg is not None
    assert svg.attrs["aria-labelledby"] == "chart-title"
    assert svg.find("title", id="chart-title").text() == "Running totals after each round"
    lines = svg.find_all("polyline")
    assert [line.attrs["points"] for line in lines] == [
        line.points for line in chart(load(app, match_id)).lines
    ]
    assert [line.attrs["stroke-dasharray"] for line in lines] == ["", "6 3", "2 3"]
    ticks = [text.text() for text in svg.find_all("text", "tick")]
    assert ticks == ["272", "0", "2"]
    link = figure.find("figcaption").find("a")
    assert link.text() == "The chart as a table, on the whole sheet"
    assert link.attrs["href"] == f"/matches/{match_id}/sheet#chart"
    assert figure.find("table") is None


def test_whole_sheet_has_the_chart_as_a_table(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, RAMI_SEC)
    doc = page(client, f"/matches/{match_id}/sheet")
    figure = doc.find("figure", "chart")
    assert figure.attrs["id"] == "chart"
    details = figure.find("details")
    assert details.find("summary").text() == "The chart as a table"
    table = details.find("table", "chart-table")
    assert [th.text() for th in table.find("thead").find_all("th")] == ["#", "Ana", "Bo", "Cy"]
    assert table_rows(table) == [["1", "0", "36", "72"], ["2", "200", "36", "272"]]


LIMPIA = {"player": "Ana", "event": "limpia", "rank": "A"}
"""A Porrazo peg worth 1 to Ana: a long match is many of them."""


def long_porrazo(client: FlaskClient, pegs: int) -> int:
    """A Porrazo match to 1000 for Ana and Bo with this many pegs recorded."""
    match_id = start(client, "porrazo", ["Ana", "Bo"], target=1000)
    play(client, match_id, *([LIMPIA] * pegs))
    return match_id


def sheet_numbers(doc: Node) -> list[int]:
    """Return the numbers of the rounds a page's score sheet shows, in order."""
    sheet = doc.find("table", "sheet")
    return [int(body.attrs["id"].removeprefix("round-")) for body in sheet.find_all("tbody")]


def test_match_page_shows_the_latest_rounds_and_links_the_whole_sheet(
    client: FlaskClient,
) -> None:
    match_id = long_porrazo(client, 23)
    doc = page(client, f"/matches/{match_id}")
    assert sheet_numbers(doc) == list(range(4, 24))
    earlier = doc.find("p", "earlier").find("a")
    assert earlier.text() == "Earlier pegs, 1–3: the whole sheet"
    assert earlier.attrs["href"] == f"/matches/{match_id}/sheet"
    whole = page(client, f"/matches/{match_id}/sheet")
    assert sheet_numbers(whole) == list(range(1, 24))
    assert whole.find("a", href=f"/matches/{match_id}/rounds/1/why") is not None
    assert whole.find("p", "back").find("a").attrs["href"] == f"/matches/{match_id}"


def test_match_page_of_twenty_pegs_shows_them_all(client: FlaskClient) -> None:
    match_id = long_porrazo(client, 20)
    doc = page(client, f"/matches/{match_id}")
    assert sheet_numbers(doc) == list(range(1, 21))
    assert doc.find("p", "earlier") is None


def test_whole_sheet_lists_removed_rounds_and_is_read_only_for_watchers(
    client: FlaskClient, stranger: FlaskClient
) -> None:
    match_id = rami(client, RAMI_OUT, CY_OUT)
    assert client.delete(f"/api/matches/{match_id}/rounds/1").status_code == 200
    doc = page(client, f"/matches/{match_id}/sheet")
    assert "Round 1, removed" in doc.find("section", "removed").text()
    assert doc.find("a", href=f"/matches/{match_id}/rounds/1/edit") is not None
    watched = page(stranger, f"/matches/{match_id}/sheet")
    assert watched.find("a", href=f"/matches/{match_id}/rounds/1/edit") is None
    assert sheet_numbers(watched) == [1]


def test_whole_sheet_of_an_unknown_match_is_404(client: FlaskClient) -> None:
    page(client, "/matches/999/sheet", status=404)


def test_chart_table_follows_a_removed_round(client: FlaskClient) -> None:
    match_id = rami(client, RAMI_OUT, CY_OUT)
    assert client.delete(f"/api/matches/{match_id}/rounds/1").status_code == 200
    doc = page(client, f"/matches/{match_id}/sheet")
    assert table_rows(doc.find("table", "chart-table")) == [["1", "10", "20", "0"]]
    assert len(doc.find("svg", role="img").find_all("polyline")) == 3
