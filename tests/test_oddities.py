"""Unusual rounds, pure: each game's short list of rounds the rules accept but a table rarely
sees, asked about once before Record (docs/UNUSUAL_ROUNDS.md). A check only asks: every round
here is scored as usual."""

from __future__ import annotations

from typing import Any

import pytest

from scorers import GAMES, Scorer, Table
from scorers.base import Oddity

BELOTE, RAMI, BARBU, GAIGEL, PORRAZO = (
    GAMES[game] for game in ("belote", "rami", "barbu", "gaigel", "porrazo")
)


def asked(scorer: Scorer, table: Table, *rounds: dict[str, Any]) -> list[str]:
    """Read and replay the rounds; return the questions the last one raises."""
    entered = [scorer.read_round(table, data) for data in rounds]
    replay = scorer.replay(table, entered)
    return scorer.oddities_of(table, entered[-1], replay.rounds[-1])


# --- Belote and Coinche ------------------------------------------------------------------------


def belote(**options: Any) -> Table:
    """Seat NS (South, North) against EW (West, East)."""
    teams = {"NS": ["South", "North"], "EW": ["West", "East"]}
    return BELOTE.read_table({"teams": teams, "options": options})


def deal(ns: int | None, ew: int | None, der: str | None, **extra: Any) -> dict[str, Any]:
    """A deal South takes at hearts: card points per team (None leaves a side out)."""
    points = {team: value for team, value in (("NS", ns), ("EW", ew)) if value is not None}
    entered = {"taker": "South", "trump": "hearts", "points": points, "last_trick": der}
    return entered | extra


COINCHE = {"variant": "coinche", "rules": "maison"}


@pytest.mark.parametrize(
    ("options", "entered", "questions"),
    [
        pytest.param(
            {},
            deal(None, None, None, capot="EW"),
            ["Capot by EW, with 0 card points for the takers, NS?"],
            id="capot-against-the-takers",
        ),
        pytest.param(
            {}, deal(0, 152, "NS"), ["0 card points for NS, and no capot?"], id="no-points"
        ),
        pytest.param(
            COINCHE,
            deal(None, None, None, capot="NS", contract="capot"),
            ["South bid capot and made it?"],
            id="capot-bid-made",
        ),
        pytest.param(
            COINCHE,
            deal(None, None, None, capot="NS", contract="generale", taker_alone=True),
            ["South bid générale and made it?"],
            id="generale-made",
        ),
        pytest.param(
            COINCHE,
            deal(98, 54, "NS", contract=100, coinche="surcoinche"),
            ["NS scores 1040 in one deal?"],
            id="surcoinche",
        ),
        pytest.param({}, deal(82, 70, "NS", belote="NS"), [], id="ordinary"),
        pytest.param({}, deal(None, None, None, capot="NS"), [], id="capot-by-the-takers"),
        pytest.param(
            COINCHE, deal(None, None, None, capot="NS", contract=160), [], id="capot-not-bid"
        ),
        pytest.param(COINCHE, deal(98, 54, "NS", contract=100), [], id="contract-made"),
    ],
)
def test_belote_asks_about_unusual_deals(options, entered, questions) -> None:
    assert asked(BELOTE, belote(**options), entered) == questions


# --- Rami --------------------------------------------------------------------------------------


def rami() -> Table:
    """Seat Ana, Bo and Cy (target 200)."""
    return RAMI.read_table({"players": ["Ana", "Bo", "Cy"], "options": {}})


def hand(points: int, melded: bool = True) -> dict[str, Any]:
    """A hand left, by its value."""
    return {"points": points, "melded": melded}


@pytest.mark.parametrize(
    ("entered", "questions"),
    [
        pytest.param(
            {"outcome": "out", "winner": "Ana", "hands": {"Bo": hand(110), "Cy": hand(120)}},
            ["Every hand left is worth over 100?"],
            id="every-hand-over-100",
        ),
        pytest.param(
            {"outcome": "out", "winner": "Ana", "hands": {"Bo": hand(160), "Cy": hand(20)}},
            ["Bo scores 160 for one hand?"],
            id="heavy-hand",
        ),
        pytest.param(
            {"outcome": "out", "winner": "Ana", "hands": {"Bo": hand(160), "Cy": hand(170)}},
            ["Every hand left is worth over 100?", "Cy scores 170 for one hand?"],
            id="both",
        ),
        pytest.param(
            {
                "outcome": "blocked",
                "hands": {"Ana": hand(30), "Bo": hand(30), "Cy": hand(30, melded=False)},
            },
            ["Blocked, and every hand is worth 30, so nobody scores?"],
            id="blocked-level",
        ),
        pytest.param(
            {"outcome": "out", "winner": "Ana", "hands": {"Bo": hand(36), "Cy": hand(18)}},
            [],
            id="ordinary",
        ),
        pytest.param(
            {"outcome": "out", "winner": "Ana", "hands": {"Bo": hand(101), "Cy": hand(100)}},
            [],
            id="one-hand-at-100",
        ),
        pytest.param(
            {"outcome": "blocked", "hands": {"Ana": hand(30), "Bo": hand(30), "Cy": hand(31)}},
            [],
            id="blocked-two-tied",
        ),
        pytest.param(
            {"outcome": "rami_sec", "winner": "Ana", "hands": {"Bo": {}, "Cy": {}}},
            [],
            id="rami-sec",
        ),
    ],
)
def test_rami_asks_about_unusual_rounds(entered, questions) -> None:
    assert asked(RAMI, rami(), entered) == questions


# --- Barbu -------------------------------------------------------------------------------------

SEATS = ("Ana", "Bo", "Cy", "Di")


def barbu() -> Table:
    """Seat Ana, Bo, Cy and Di; Ana declares the first seven hands."""
    return BARBU.read_table({"players": list(SEATS), "options": {}})


def counts(*each: int) -> dict[str, int]:
    """A count per player, in seat order."""
    return dict(zip(SEATS, each, strict=True))


AGAINST_BO = [["Cy", "Bo"], ["Bo", "Cy"], ["Di", "Bo"], ["Bo", "Di"], ["Bo", "Ana"], ["Ana", "Bo"]]
"""Bo doubles and is redoubled by everyone (Ana, declaring, only redoubles)."""


@pytest.mark.parametrize(
    ("entered", "questions"),
    [
        pytest.param(
            {"contract": "no_tricks", "taken": counts(0, 13, 0, 0)},
            ["Bo took all 13 tricks?"],
            id="every-trick",
        ),
        pytest.param(
            {"contract": "trumps", "taken": counts(13, 0, 0, 0)},
            ["Ana took all 13 tricks?"],
            id="every-trick-at-trumps",
        ),
        pytest.param(
            {"contract": "no_queens", "taken": counts(0, 0, 4, 0)},
            ["Cy took all 4 queens?"],
            id="every-queen",
        ),
        pytest.param(
            {"contract": "no_hearts", "taken": counts(0, 0, 0, 13), "ace_of_hearts": "Di"},
            ["Di took all 13 hearts?"],
            id="every-heart",
        ),
        pytest.param(
            {
                "contract": "no_tricks",
                "taken": counts(0, 12, 1, 0),
                "doubles": AGAINST_BO,
            },
            ["Bo scores -164 in one hand?"],
            id="big-swing",
        ),
        pytest.param({"contract": "no_tricks", "taken": counts(3, 4, 3, 3)}, [], id="ordinary"),
        pytest.param(
            {"contract": "no_last_two", "taken": {"second_last": "Bo", "last": "Bo"}},
            [],
            id="both-last-tricks",
        ),
    ],
)
def test_barbu_asks_about_unusual_hands(entered, questions) -> None:
    assert asked(BARBU, barbu(), entered) == questions


def test_barbu_asks_each_question_a_hand_raises() -> None:
    entered = {
        "contract": "no_tricks",
        "taken": counts(0, 13, 0, 0),
        "doubles": AGAINST_BO,
    }
    assert asked(BARBU, barbu(), entered) == [
        "Bo took all 13 tricks?",
        "Bo scores -182 in one hand?",
    ]


# --- Gaigel ------------------------------------------------------------------------------------


def gaigel(**options: Any) -> Table:
    """Seat Oben (Ana, Cy) against Unten (Bo, Di)."""
    teams = {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}
    return GAIGEL.read_table({"teams": teams, "options": options})


def gaigel_three() -> Table:
    """Seat Ana, Bo and Cy, each for themselves."""
    return GAIGEL.read_table({"players": ["Ana", "Bo", "Cy"], "options": {"mode": "three"}})


@pytest.mark.parametrize(
    ("seated", "entered", "questions"),
    [
        pytest.param(
            gaigel(five_sevens=True),
            {"winner": "Oben", "outcome": "five_sevens"},
            ["Five sevens: Oben won at once?"],
            id="five-sevens",
        ),
        pytest.param(
            gaigel(auf_farbe=True),
            {"winner": "Unten", "outcome": "auf_farbe"},
            ["Auf Farbe: Unten won at once?"],
            id="auf-farbe",
        ),
        pytest.param(
            gaigel(),
            {"winner": "Oben", "outcome": "aus", "evidence": {"points": 160, "loser_tricks": 2}},
            ["Oben called Aus only at 160 in cards?"],
            id="late-aus",
        ),
        pytest.param(
            gaigel_three(),
            {"card_points": {"Ana": 240, "Bo": 0, "Cy": 0}},
            ["Ana took every trick?"],
            id="three-one-took-all",
        ),
        pytest.param(gaigel(), {"winner": "Oben", "outcome": "aus"}, [], id="ordinary"),
        pytest.param(
            gaigel(),
            {"winner": "Oben", "outcome": "aus", "evidence": {"points": 105, "loser_tricks": 2}},
            [],
            id="aus-at-105",
        ),
        pytest.param(
            gaigel(),
            {"winner": "Unten", "outcome": "uebergaigeln", "evidence": {"points": 170}},
            [],
            id="played-on",
        ),
        pytest.param(
            gaigel_three(),
            {"card_points": {"Ana": 120, "Bo": 80, "Cy": 40}},
            [],
            id="three-ordinary",
        ),
    ],
)
def test_gaigel_asks_about_unusual_deals(seated, entered, questions) -> None:
    assert asked(GAIGEL, seated, entered) == questions


# --- Porrazo -----------------------------------------------------------------------------------


def porrazo() -> Table:
    """Seat Ana, Bo and Cy; Ana deals first."""
    return PORRAZO.read_table({"players": ["Ana", "Bo", "Cy"], "options": {}})


def test_porrazo_asks_about_a_san_benito() -> None:
    pegs = [
        {"event": "porrazo", "player": "Ana", "rank": "6"},
        {"event": "counter_porrazo", "player": "Bo", "rank": "6"},
        {"event": "san_benito", "player": "Cy"},
    ]
    assert asked(PORRAZO, porrazo(), *pegs) == ["San Benito by Cy: it wins the game?"]
    assert asked(PORRAZO, porrazo(), *pegs[:2]) == []


@pytest.mark.parametrize(
    ("entered", "questions"),
    [
        pytest.param(
            {"event": "cards", "counts": {"Ana": 52, "Bo": 0, "Cy": 0}},
            ["Ana won all 52 cards of the hand?"],
            id="every-card",
        ),
        pytest.param(
            {"event": "tendido", "player": "Ana", "pairs": [["K", "K"], ["K", "K"]]},
            ["A tendido worth 24 to Ana?"],
            id="rich-tendido",
        ),
        pytest.param(
            {"event": "cards", "counts": {"Ana": 30, "Bo": 12, "Cy": 10}}, [], id="card-count"
        ),
        pytest.param(
            {"event": "tendido", "player": "Ana", "pairs": [["2", "4"], ["7", "3"]]},
            [],
            id="tendido-t1",
        ),
        pytest.param({"event": "ronda", "player": "Bo", "rank": "K"}, [], id="ronda"),
    ],
)
def test_porrazo_asks_about_unusual_pegs(entered, questions) -> None:
    assert asked(PORRAZO, porrazo(), entered) == questions


# --- the contract ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["belote", "rami", "barbu", "gaigel", "porrazo"])
def test_every_game_lists_a_few_documented_checks(game: str) -> None:
    oddities = GAMES[game].oddities
    assert 2 <= len(oddities) <= 4
    for oddity in oddities:
        assert isinstance(oddity, Oddity)
        assert str(oddity.text).strip()


def test_a_game_lists_no_checks_unless_it_declares_them() -> None:
    assert Scorer.oddities == ()
