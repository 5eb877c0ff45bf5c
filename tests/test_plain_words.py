"""No code words in anything a person reads (issue 15): every page of a match of each game, in
every language, says its rounds and options in words, never the codes they are stored with."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorers import GAMES, words
from tests.api_helpers import send
from tests.html_reader import Node, parse
from web.language import LANGUAGES

TEAMS = {"Nous": ["Ana", "Bo"], "Eux": ["Cy", "Di"]}
FOUR = ["Ana", "Bo", "Cy", "Di"]


def hand(*ranks: str, melded: bool = True) -> dict[str, Any]:
    """Write a Rami hand by its cards."""
    return {"cards": list(ranks), "melded": melded}


RAMI = {
    "start": {"game": "rami", "players": ["Ana", "Bo", "Cy"], "options": {"target": 1000}},
    "rounds": [
        {
            "outcome": "out",
            "winner": "Ana",
            "hands": {"Bo": hand("K", "Q", "5"), "Cy": hand("JK", melded=False)},
        },
        {
            "outcome": "rami_sec",
            "winner": "Bo",
            "hands": {"Ana": {"melded": False}, "Cy": {"melded": False}},
        },
        {
            "outcome": "blocked",
            "hands": {
                "Ana": {"points": 4, "melded": True},
                "Bo": hand("9"),
                "Cy": {"points": 47, "melded": False},
            },
        },
    ],
    "correct": (
        1,
        {
            "outcome": "out",
            "winner": "Cy",
            "hands": {"Ana": hand("A"), "Bo": {"points": 12, "melded": False}},
        },
    ),
    "removed": {
        "outcome": "rami_sec",
        "winner": "Cy",
        "hands": {"Ana": {"melded": False}, "Bo": {"melded": False}},
    },
}


def deal(taker: str, trump: str, nous: int, last: str, **extras: Any) -> dict[str, Any]:
    """Write a Belote deal: Nous's card points, the rest to Eux."""
    return {"taker": taker, "trump": trump, "points": {"Nous": nous}, "last_trick": last, **extras}


BELOTE = {
    "start": {"game": "belote", "teams": TEAMS},
    "rounds": [
        deal("Ana", "hearts", 90, "Nous", belote="Eux", announcements={"Nous": 50}),
        deal("Cy", "no_trump", 60, "Eux"),
        deal("Ana", "spades", 71, "Nous"),  # 81 each: a litige
        {"taker": "Bo", "trump": "clubs", "capot": "Nous", "announcements": {}},
    ],
    "correct": (2, deal("Cy", "no_trump", 50, "Eux")),
    "removed": deal("Di", "diamonds", 40, "Eux", belote="Eux"),
}
COINCHE = {
    "start": {"game": "belote", "teams": TEAMS, "options": {"variant": "coinche"}},
    "rounds": [
        deal("Ana", "all_trump", 100, "Nous", contract=100, coinche="coinche"),
        deal("Cy", "no_trump", 30, "Eux", contract=90, coinche="surcoinche"),
        {"taker": "Bo", "trump": "hearts", "capot": "Nous", "contract": "capot"},
        {
            "taker": "Bo",
            "trump": "hearts",
            "capot": "Nous",
            "contract": "generale",
            "taker_alone": True,
        },
    ],
    "correct": (1, deal("Ana", "all_trump", 110, "Nous", contract=100, coinche="none")),
    "removed": deal("Di", "no_trump", 20, "Eux", contract=80, coinche="coinche"),
}
ANA_DOUBLED = [["Bo", "Ana"], ["Cy", "Ana"], ["Di", "Ana"]]
BARBU = {
    "start": {"game": "barbu", "players": FOUR},
    "rounds": [
        {
            "contract": "no_tricks",
            "taken": {"Ana": 4, "Bo": 3, "Cy": 6, "Di": 0},
            "doubles": [*ANA_DOUBLED, ["Ana", "Bo"]],
        },
        {"contract": "no_queens", "taken": {"Ana": 1, "Bo": 1, "Cy": 2, "Di": 0}},
        {
            "contract": "no_hearts",
            "taken": {"Ana": 4, "Bo": 3, "Cy": 6, "Di": 0},
            "ace_of_hearts": "Cy",
        },
        {
            "contract": "no_last_two",
            "taken": {"second_last": "Bo", "last": "Di"},
            "doubles": [["Cy", "Di"]],
        },
        {"contract": "barbu", "taken": {"king_of_hearts": "Di"}},
        {"contract": "trumps", "taken": {"Ana": 7, "Bo": 2, "Cy": 2, "Di": 2}},
        {
            "contract": "dominoes",
            "taken": {"order": ["Di", "Ana", "Cy", "Bo"]},
            "doubles": ANA_DOUBLED,
        },
    ],
    "correct": (2, {"contract": "no_queens", "taken": {"Ana": 0, "Bo": 2, "Cy": 2, "Di": 0}}),
    "removed": {"contract": "no_queens", "taken": {"Ana": 4, "Bo": 0, "Cy": 0, "Di": 0}},
}
GAIGEL = {
    "start": {
        "game": "gaigel",
        "teams": {"Oben": ["Ana", "Bo"], "Unten": ["Cy", "Di"]},
        "options": {"five_sevens": True, "auf_farbe": True},
    },
    "rounds": [
        {"winner": "Oben", "outcome": "aus"},
        {
            "winner": "Oben",
            "outcome": "gaigel",
            "evidence": {"points": 101, "marriages": [], "loser_tricks": 0},
        },
        {
            "winner": "Oben",
            "outcome": "untergaigeln",
            "evidence": {"points": 80, "marriages": [20]},
        },
        {
            "winner": "Oben",
            "outcome": "uebergaigeln",
            "evidence": {"points": 110, "marriages": [40, 20]},
        },
        {"winner": "Unten", "outcome": "five_sevens"},
        {"winner": "Unten", "outcome": "auf_farbe"},
    ],
    "correct": (
        1,
        {
            "winner": "Unten",
            "outcome": "aus",
            "evidence": {"points": 90, "marriages": [20], "loser_tricks": 2},
        },
    ),
    "removed": {"winner": "Unten", "outcome": "uebergaigeln"},
}
GAIGEL_THREE = {
    "start": {"game": "gaigel", "players": ["Ana", "Bo", "Cy"], "options": {"mode": "three"}},
    "rounds": [
        {"card_points": {"Ana": 120, "Bo": 80, "Cy": 40}},
        {
            "card_points": {"Ana": 100, "Bo": 100, "Cy": 0},
            "took_trick": {"Cy": False},
            "cut_order": ["Bo", "Ana"],
        },
    ],
    "correct": (1, {"card_points": {"Ana": 40, "Bo": 80, "Cy": 120}}),
    "removed": {
        "card_points": {"Ana": 240, "Bo": 0, "Cy": 0},
        "took_trick": {"Bo": False, "Cy": False},
    },
}
PORRAZO = {
    "start": {"game": "porrazo", "players": ["Ana", "Bo"], "options": {"card_count": "over_half"}},
    "rounds": [
        {"event": "rondas", "declared": {"Ana": ["5", "5"], "Bo": ["7", "7", "7"]}},
        {"event": "porrazo", "player": "Ana", "rank": "6", "limpia": "K"},
        {"event": "counter_porrazo", "player": "Bo", "rank": "6"},
        {"event": "confirm"},
        {
            "event": "tendido",
            "player": "Ana",
            "pairs": [["2", "4"], ["7", "3"]],
            "table": ["5", "Q"],
        },
        {"event": "limpia", "player": "Bo", "rank": "K"},
        {"event": "in_place", "player": "Ana", "rank": "3"},
        {"event": "four_of_a_kind", "player": "Bo", "rank": "2"},
        {"event": "ronda", "player": "Ana", "rank": "J"},
        {"event": "cards", "counts": {"Ana": 30, "Bo": 22}},
    ],
    "correct": (7, {"event": "in_place", "player": "Ana", "rank": "2"}),
    "removed": {"event": "rondin", "player": "Bo", "rank": "Q"},
    "after": [
        {"event": "porrazo", "player": "Ana", "rank": "9"},
        {"event": "counter_porrazo", "player": "Bo", "rank": "9"},
        {"event": "san_benito", "player": "Ana"},
    ],
}
MATCHES = [RAMI, BELOTE, COINCHE, BARBU, GAIGEL, GAIGEL_THREE, PORRAZO]

ORDINARY = {
    *("out", "blocked", "hearts", "diamonds", "clubs", "spades", "none", "last", "order"),
    *("winner", "cards", "points", "melded", "hands", "taker", "trump", "taken", "doubles"),
    *("belote", "coinche", "surcoinche", "capot", "litige", "barbu", "trumps", "dominoes"),
    *("aus", "gaigel", "porrazo", "ronda", "rondin", "rondas", "limpia", "tendido", "confirm"),
    *("classic", "maison", "official", "reserve", "fall", "teams", "three", "difference"),
    *("target", "strokes", "mode", "variant", "rules", "rounding", "wrap", "contract"),
    *("announcements", "evidence", "marriages", "event", "player", "rank", "table", "counts"),
    *("declared", "pairs"),
}
"""Codes that are also words a page says (in English, or as the table names the game's
things): "hands" is what Barbu calls its rounds, "rondin" a French word."""


def words_of(value: Any) -> Iterator[str]:
    """Yield every key and text value inside an entered round but names and ranks."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from words_of(key)
            yield from words_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from words_of(item)
    elif isinstance(value, str) and value[:1].islower():
        yield value


def codes() -> set[str]:
    """Return the codes the five games store: option names and choices, round keys and values."""
    found = {"melded yes"}
    for scorer in GAMES.values():
        for option in scorer.options:
            found |= {option.name, *option.choices}
    for match in MATCHES:
        every = [*match["rounds"], match["correct"][1], match["removed"], *match.get("after", [])]
        found |= set(words_of(every))
    return found - ORDINARY


CODES = sorted(codes())
SPOKEN = re.compile("|".join(rf"(?<!\w){re.escape(code)}(?!\w)" for code in CODES))
"""A code as a whole word, as stored: lowercase ("Untergaigeln" is the game's own word)."""


def visible(node: Node) -> str:
    """Return the text a person sees: no scripts or styles, no attribute values."""
    if node.tag in ("script", "style"):
        return ""
    return " ".join(child if isinstance(child, str) else visible(child) for child in node.children)


def play(client: FlaskClient, match: dict[str, Any]) -> tuple[int, int]:
    """Start a match, play its rounds, correct one and remove one; return its id and rounds."""
    started = send(client, "POST", "/api/matches", match["start"])
    assert started.status_code == 201, started.json
    match_id = started.json["id"]
    rounds = f"/api/matches/{match_id}/rounds"
    for entered in [*match["rounds"], match["removed"]]:
        answer = send(client, "POST", rounds, entered)
        assert answer.status_code == 201, (entered, answer.json)
    played = len(match["rounds"])
    assert client.delete(f"{rounds}/{played + 1}").status_code == 200
    n, corrected = match["correct"]
    answer = send(client, "PUT", f"{rounds}/{n}", corrected)
    assert answer.status_code == 200, answer.json
    for entered in match.get("after", []):
        assert send(client, "POST", rounds, entered).status_code == 201, entered
    return match_id, played + len(match.get("after", []))


def pages(match_id: int, played: int) -> list[str]:
    """Return every page a person reads about one match."""
    base = f"/matches/{match_id}"
    whys = [f"{base}/rounds/{n}/why" for n in range(1, played + 1)]
    return [base, f"{base}/sheet", f"{base}/rules", f"{base}/whatif", *whys]


def test_the_codes_are_the_games_own() -> None:
    assert {"no_trump", "over_half", "outcome", "uebergaigeln", "five_sevens"} <= set(CODES)
    assert {"counter_porrazo", "san_benito", "rami_sec", "no_queens", "king_of_hearts"} <= set(
        CODES
    )
    assert {"last_trick", "taker_alone", "first_dealer", "first_declarer"} <= set(CODES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_code(client: FlaskClient, language: str) -> None:
    played = [play(client, match) for match in MATCHES]
    with client.session_transaction() as session:
        session["language"] = language
    urls = [url for match_id, n in played for url in pages(match_id, n)]
    urls += ["/history", *(f"/players/{name}" for name in FOUR)]
    urls += [f"/matches/{played[-1][0]}/whatif?card_count=difference"]
    shown = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        found = SPOKEN.findall(visible(parse(response)))
        if found:
            shown[url] = sorted(set(found))
    assert shown == {}


SAID = [
    (RAMI, 0, "Ana went out; Bo held K, Q, 5 and had melded; Cy held Joker and had not melded"),
    (RAMI, 1, "Bo went out rami sec; Ana had not melded; Cy had not melded"),
    (BELOTE, 0, "Ana took at ♥; card points Nous 90, Eux 62, last trick Nous, belote Eux, "
     "announcements Nous 50"),
    (COINCHE, 0, "Ana took 100 at all trump, coinche; card points Nous 100, Eux 52, "
     "last trick Nous"),
    (BARBU, 2, "No hearts: hearts Ana 4, Bo 3, Cy 6, Di 0; Cy took the A♥"),
    (BARBU, 6, "Dominoes: out in this order: Di, Ana, Cy, Bo; Bo doubled Ana; Cy doubled Ana; "
     "Di doubled Ana"),
    (GAIGEL, 3, "Oben won: Übergaigeln; Unten had 110 in cards; Unten announced marriages of "
     "40 and 20"),
    (GAIGEL_THREE, 1, "card points Ana 100, Bo 100, Cy 0; Cy took no trick; cut in this order: "
     "Bo, Ana"),
    (PORRAZO, 0, "Ana: ronda of 5; Bo: rondín of 7"),
    (PORRAZO, 1, "Porrazo of 6 by Ana, with a limpia of K"),
    (PORRAZO, 9, "Card count: Ana 30, Bo 22"),
]  # fmt: skip


@pytest.mark.parametrize(("match", "n", "said"), SAID)
def test_a_round_is_said_as_a_player_would(match: dict[str, Any], n: int, said: str) -> None:
    words.speak("en")  # a page fetched before may have left another language spoken
    scorer = GAMES[match["start"]["game"]]
    table = scorer.read_table(match["start"])
    assert scorer.describe(table, scorer.read_round(table, match["rounds"][n])) == said
