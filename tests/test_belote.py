"""Belote and Coinche rules, pure: RULES.md §2 examples B1–B15, every option and branch,
the refusals, the end of the match.

Team total = card points + 10 for the last trick (100 for a capot) + 20 belote + announcements.
Taker South (team NS) unless a test says otherwise.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from scorers import GAMES, Refusal, Table
from scorers.base import FINISHED, PLAYING
from scorers.belote.rules import announcement_choices, card_total, possible_points
from tests.rules_helpers import assert_at

BELOTE = GAMES["belote"]

TEAMS = {"NS": ["South", "North"], "EW": ["West", "East"]}
CLASSIC = {"variant": "classic", "rules": "maison"}
CLASSIC_OFFICIAL = {"variant": "classic", "rules": "official"}
COINCHE = {"variant": "coinche", "rules": "maison"}
COINCHE_OFFICIAL = {"variant": "coinche", "rules": "official"}


def table(**options: Any) -> Table:
    """Seat NS against EW with the given options, the others at their defaults."""
    return BELOTE.read_table({"teams": TEAMS, "options": options})


def deal(
    ns: int | None,
    ew: int | None,
    der: str | None,
    *,
    taker: str = "South",
    trump: str = "hearts",
    **extra: Any,
) -> dict[str, Any]:
    """Write a deal as the API takes it: card points per team (None leaves a side out)."""
    points = {team: value for team, value in (("NS", ns), ("EW", ew)) if value is not None}
    entered: dict[str, Any] = {"taker": taker, "trump": trump, "points": points}
    if der is not None:
        entered["last_trick"] = der
    entered.update(extra)
    return entered


def bid(contract: int | str, ns: int | None, ew: int | None, der: str | None, **extra: Any):
    """Write a coinche deal with its contract."""
    return deal(ns, ew, der, contract=contract, **extra)


def play(seated: Table, *deals: dict[str, Any]):
    """Read every deal as the API would, then replay them."""
    return BELOTE.replay(seated, [BELOTE.read_round(seated, entered) for entered in deals])


def scores(options: dict[str, Any], *deals: dict[str, Any]) -> dict[str, int]:
    """Return the last deal's scores under the given options."""
    return play(table(**options), *deals).rounds[-1].scores


def plain(text: str) -> str:
    """Fold case and accents so "Générale" reads as "generale"."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def outcome(played) -> tuple[str, int]:
    """Return a deal's result word and the reserve held after it."""
    return played.extra["result"], played.extra["reserve"]


def refused(seated: Table, entered: dict[str, Any]) -> Refusal:
    """Return the refusal of one deal."""
    with pytest.raises(Refusal) as refusal:
        BELOTE.read_round(seated, entered)
    return refusal.value


def assert_refused_at(refusal: Refusal, path: str, word: str) -> None:
    """Check a refusal names the field and says the key word there."""
    assert path in refusal.fields, refusal.fields
    assert plain(word) in plain(" ".join(refusal.fields[path])), refusal.fields[path]


# --- Seating and options -------------------------------------------------------------------------


def test_partners_sit_opposite():
    seated = table()
    assert seated.players == ("South", "West", "North", "East")
    assert dict(seated.teams) == {"NS": ("South", "North"), "EW": ("West", "East")}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            {},
            {
                "variant": "classic",
                "rules": "maison",
                "target": 1000,
                "litige": "reserve",
                "rounding": False,
            },
        ),
        (CLASSIC_OFFICIAL, {"rules": "official", "target": 1000, "rounding": False}),
        ({"variant": "coinche"}, {"rules": "maison", "target": 2000, "rounding": False}),
        (COINCHE_OFFICIAL, {"target": 2000, "rounding": True}),
        ({**COINCHE_OFFICIAL, "rounding": True}, {"rounding": True}),
        ({**COINCHE, "rounding": False}, {"rounding": False}),
        ({**CLASSIC, "rounding": True}, {"rounding": True}),
        ({**CLASSIC, "target": 500}, {"target": 500}),
        ({**COINCHE, "target": 1500}, {"target": 1500}),
        ({"litige": "fall"}, {"litige": "fall"}),
    ],
)
def test_options_take_their_defaults(options, expected):
    resolved = table(**options).options
    assert {name: resolved[name] for name in expected} == expected


@pytest.mark.parametrize(
    ("options", "path"),
    [
        ({**COINCHE_OFFICIAL, "rounding": False}, "options.rounding"),
        ({**COINCHE, "rounding": True}, "options.rounding"),
        ({"variant": "tarot"}, "options.variant"),
        ({"rules": "house"}, "options.rules"),
        ({"litige": "split"}, "options.litige"),
        ({"rounding": "yes"}, "options.rounding"),
        ({"target": "1000"}, "options.target"),
    ],
)
def test_bad_options_are_refused_by_field(options, path):
    with pytest.raises(Refusal) as refusal:
        table(**options)
    assert path in refusal.value.fields


# --- RULES.md examples B1–B15 --------------------------------------------------------------------

B3 = deal(71, 81, "NS")  # NS 71 + 10 = 81, EW 81: litige

EXAMPLES = [
    # B1: NS 82 + 10 + 20 = 112 > EW 70.
    ("B1", CLASSIC, [deal(82, 70, "NS", belote="NS")], (112, 70), "made"),
    # B2: NS 66 + 20 = 86 < EW 86 + 10 = 96: EW 162, NS keep their belote.
    ("B2", CLASSIC, [deal(66, 86, "EW", belote="NS")], (20, 162), "fall"),
    ("B3", CLASSIC, [B3], (0, 81), "litige"),
    # B4: NS 90 + 10 = 100 > 62, plus the 81 in reserve.
    ("B4", CLASSIC, [B3, deal(90, 62, "NS")], (181, 62), "made"),
    ("B5", CLASSIC, [deal(152, 0, None, capot="NS")], (252, 0), "capot"),
    # B6: NS 72 + 50 = 122 > EW 80 + 10 = 90.
    ("B6", CLASSIC, [deal(72, 80, "EW", announcements={"NS": 50})], (122, 90), "made"),
    # B7: 120 card points without trumps (maison): NS 56 + 10 = 66 > 64.
    ("B7", CLASSIC, [deal(56, 64, "NS", trump="no_trump")], (66, 64), "made"),
    # B8: 152 card points without trumps (official): NS 76 < EW 86: the whole 162.
    ("B8", CLASSIC_OFFICIAL, [deal(76, 76, "EW", trump="no_trump")], (0, 162), "fall"),
    # B9: NS 108 >= 100 and > 54: 108 + 100.
    ("B9", COINCHE, [bid(100, 98, 54, "NS")], (208, 54), "made"),
    # B10: as B9, rounded: 208 -> 210, 54 -> 50.
    ("B10", COINCHE_OFFICIAL, [bid(100, 98, 54, "NS")], (210, 50), "made"),
    # B11: (160 + 100) x 2.
    ("B11", COINCHE, [bid(100, 98, 54, "NS", coinche="coinche")], (520, 0), "made"),
    # B12: (160 + 100) x 4.
    ("B12", COINCHE, [bid(100, 98, 54, "NS", coinche="surcoinche")], (1040, 0), "made"),
    # B13: NS 80 < 100 and < EW 82: EW (160 + 100) x 2.
    ("B13", COINCHE, [bid(100, 80, 72, "EW", coinche="coinche")], (0, 520), "fall"),
    # B14: 252 + 250.
    ("B14", COINCHE, [bid("capot", 152, 0, None, capot="NS")], (502, 0), "capot"),
    # B15: (250 + 250) x 2.
    (
        "B15",
        COINCHE_OFFICIAL,
        [bid("capot", 152, 0, None, capot="NS", coinche="coinche")],
        (1000, 0),
        "capot",
    ),
]


@pytest.mark.parametrize(
    ("options", "deals", "expected", "result"),
    [example[1:] for example in EXAMPLES],
    ids=[example[0] for example in EXAMPLES],
)
def test_rules_examples(options, deals, expected, result):
    replay = play(table(**options), *deals)
    last = replay.rounds[-1]
    assert last.scores == {"NS": expected[0], "EW": expected[1]}
    assert last.extra["result"] == result
    for played in replay.rounds:
        assert played.explanation
        assert all(isinstance(sentence, str) and sentence for sentence in played.explanation)


def test_b3_holds_81_in_reserve_and_b4_pays_it_out():
    replay = play(table(**CLASSIC), B3, deal(90, 62, "NS"))
    assert replay.rounds[0].scores == {"NS": 0, "EW": 81}
    assert outcome(replay.rounds[0]) == ("litige", 81)
    assert replay.rounds[1].scores == {"NS": 181, "EW": 62}
    assert replay.rounds[1].extra["reserve"] == 0
    assert replay.totals == {"NS": 181, "EW": 143}
    assert replay.state == {"reserve": 0, "extra_round": False, "dealer": "North"}
    assert play(table(**CLASSIC), B3).state == {
        "reserve": 81,
        "extra_round": False,
        "dealer": "East",
    }


# --- Explanations --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "entered", "amount"),
    [
        (CLASSIC, deal(66, 86, "EW", belote="NS"), "162"),
        (CLASSIC_OFFICIAL, deal(76, 76, "EW", trump="no_trump"), "162"),
        (CLASSIC, deal(50, 70, "EW", trump="no_trump"), "130"),
        (COINCHE, bid(100, 80, 72, "EW", coinche="coinche"), "520"),
    ],
)
def test_a_falls_explanation_gives_the_defences_amount(options, entered, amount):
    explanation = play(table(**options), entered).rounds[0].explanation
    assert amount in " ".join(explanation)


@pytest.mark.parametrize(("options", "entered"), [(CLASSIC, B3), (COINCHE, bid(80, 71, 81, "NS"))])
def test_a_litiges_explanation_mentions_the_reserve(options, entered):
    explanation = play(table(**options), entered).rounds[0].explanation
    assert "reserve" in " ".join(explanation).casefold()


# --- Reading a deal ------------------------------------------------------------------------------


def test_names_and_teams_are_read_case_insensitively():
    seated = table(**CLASSIC)
    entered = BELOTE.read_round(
        seated,
        {
            "taker": "south",
            "trump": "hearts",
            "points": {"ns": 82, "Ew": 70},
            "last_trick": "ns",
            "belote": "nS",
            "announcements": {"ew": 0},
            "capot": None,
        },
    )
    assert entered["taker"] == "South"
    assert entered["last_trick"] == "NS"
    assert entered["belote"] == "NS"
    assert set(entered["points"]) <= {"NS", "EW"}
    assert BELOTE.replay(seated, [entered]).rounds[0].scores == {"NS": 112, "EW": 70}


@pytest.mark.parametrize(
    ("options", "entered", "expected"),
    [
        (CLASSIC, deal(82, None, "NS", belote="NS"), (112, 70)),  # EW 152 - 82 = 70
        (CLASSIC, deal(None, 70, "NS", belote="NS"), (112, 70)),
        (CLASSIC, deal(56, None, "NS", trump="no_trump"), (66, 64)),  # EW 120 - 56 = 64
        (CLASSIC_OFFICIAL, deal(None, 76, "EW", trump="no_trump"), (0, 162)),  # NS 152 - 76
        (CLASSIC, deal(152, None, None, capot="NS"), (252, 0)),
        (CLASSIC, deal(152, 0, "NS", capot="NS"), (252, 0)),  # the capot team may be named
        # Coinche maison without trumps: EW 120 - 70 = 50; NS 70 + 10 = 80 >= 80 > 50.
        (COINCHE, bid(80, 70, None, "NS", trump="no_trump"), (160, 50)),
    ],
)
def test_a_side_left_out_is_the_rest_of_the_card_total(options, entered, expected):
    assert scores(options, entered) == {"NS": expected[0], "EW": expected[1]}


@pytest.mark.parametrize("value", [0, 20, 40, 50, 70, 150, 200, 550])
def test_announcements_that_real_melds_make_are_accepted(value):
    entered = deal(82, 70, "NS", announcements={"EW": value})
    BELOTE.read_round(table(**CLASSIC), entered)


@pytest.mark.parametrize("trump", ["hearts", "diamonds", "clubs", "spades", "all_trump"])
def test_belote_is_allowed_with_trumps(trump):
    BELOTE.read_round(table(**COINCHE), bid(90, 100, 52, "NS", trump=trump, belote="NS"))


BAD_DEALS = [
    # Coinche words in a classic deal.
    (CLASSIC, deal(82, 70, "NS", contract=100), "contract", "contract"),
    (CLASSIC, deal(82, 70, "NS", coinche="coinche"), "coinche", "coinche"),
    (CLASSIC, deal(152, 0, None, capot="NS", taker_alone=True), "taker_alone", "alone"),
    (CLASSIC, deal(82, 70, "NS", trump="all_trump"), "trump", "♠ or No trump"),
    (CLASSIC, deal(82, 70, "NS", trump="stars"), "trump", "♥"),
    # The contract.
    (COINCHE, deal(98, 54, "NS"), "contract", "contract"),
    (COINCHE, bid(85, 98, 54, "NS"), "contract", "160"),
    (COINCHE, bid(70, 98, 54, "NS"), "contract", "160"),
    (COINCHE, bid(170, 98, 54, "NS"), "contract", "160"),
    (COINCHE, bid("slam", 98, 54, "NS"), "contract", "160"),
    (COINCHE, bid(100, 98, 54, "NS", coinche="double"), "coinche", "surcoinche"),
    # The last trick.
    (CLASSIC, deal(82, 70, None), "last_trick", "last trick"),
    (CLASSIC, deal(152, 0, "EW", capot="NS"), "last_trick", "capot"),
    # Belote needs trumps.
    (CLASSIC, deal(56, 64, "NS", trump="no_trump", belote="NS"), "belote", "trump"),
    (CLASSIC_OFFICIAL, deal(76, 76, "NS", trump="no_trump", belote="EW"), "belote", "trump"),
    # Announcements are sums of 20, 50, 100, 150, 200, at most 550.
    (CLASSIC, deal(82, 70, "NS", announcements={"NS": 10}), "announcements.NS", "announcement"),
    (CLASSIC, deal(82, 70, "NS", announcements={"NS": 30}), "announcements.NS", "announcement"),
    (CLASSIC, deal(82, 70, "NS", announcements={"EW": 25}), "announcements.EW", "announcement"),
    (CLASSIC, deal(82, 70, "NS", announcements={"EW": -20}), "announcements.EW", "announcement"),
    (CLASSIC, deal(82, 70, "NS", announcements={"NS": 560}), "announcements.NS", "550"),
    # Card points.
    (CLASSIC, deal(153, None, "NS"), "points.NS", "152"),
    (CLASSIC, deal(-1, None, "NS"), "points.NS", "152"),
    (CLASSIC, deal(82, 160, "NS"), "points.EW", "152"),
    (CLASSIC, deal(121, None, "NS", trump="no_trump"), "points.NS", "120"),
    (CLASSIC, deal(80, 80, "NS"), "points", "152"),
    (CLASSIC, deal(60, 50, "NS", trump="no_trump"), "points", "120"),
    (CLASSIC, deal(140, 12, None, capot="NS"), "points.EW", "capot"),
    (COINCHE, bid(100, 10, 142, None, capot="EW"), "points.NS", "capot"),
    # Taker alone: only in a générale won by the takers.
    (COINCHE, bid(100, 98, 54, "NS", taker_alone=True), "taker_alone", "generale"),
    (
        COINCHE,
        bid("capot", 152, 0, None, capot="NS", taker_alone=True),
        "taker_alone",
        "generale",
    ),
    (COINCHE, bid("generale", 140, 12, "NS", taker_alone=True), "taker_alone", "capot"),
    (
        COINCHE,
        bid("generale", 0, 152, None, capot="EW", taker_alone=True),
        "taker_alone",
        "capot",
    ),
    # Unknown people and teams.
    (CLASSIC, deal(82, 70, "NS", taker="Zed"), "taker", "Zed"),
    (CLASSIC, deal(82, 70, "NS", taker="NS"), "taker", "NS"),
    (CLASSIC, deal(82, 70, "XY"), "last_trick", "NS and EW"),
    (CLASSIC, deal(82, 70, "NS", belote="XY"), "belote", "NS and EW"),
    (CLASSIC, deal(152, 0, None, capot="XY"), "capot", "NS and EW"),
]


@pytest.mark.parametrize(
    ("options", "entered", "path", "word"),
    BAD_DEALS,
    ids=[f"{n}-{case[2]}" for n, case in enumerate(BAD_DEALS)],
)
def test_bad_deals_are_refused_by_field(options, entered, path, word):
    assert_refused_at(refused(table(**options), entered), path, word)


@pytest.mark.parametrize(
    ("entered", "field"),
    [
        ({"taker": "South", "trump": "hearts", "points": {"XY": 82}, "last_trick": "NS"}, "points"),
        (deal(82, 70, "NS", announcements={"XY": 20}), "announcements"),
    ],
)
def test_unknown_teams_in_per_team_fields_are_refused(entered, field):
    refusal = refused(table(**CLASSIC), entered)
    paths = [path for path in refusal.fields if path == field or path.startswith(f"{field}.")]
    assert paths, refusal.fields
    assert "NS and EW" in " ".join(message for path in paths for message in refusal.fields[path])


# --- Classic belote ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "entered", "expected"),
    [
        # Maison, no trump: 120 in cards. NS 50 < EW 70 + 10 = 80: EW the whole 130.
        (CLASSIC, deal(50, 70, "EW", trump="no_trump"), (0, 130)),
        # Official, no trump: 152 in cards. NS 60 < EW 92 + 10 = 102: EW the whole 162.
        (CLASSIC_OFFICIAL, deal(60, 92, "EW", trump="no_trump"), (0, 162)),
        # Maison, no trump, NS 50 + 20 = 70 < 80: EW 130 + both teams' announcements (20).
        (CLASSIC, deal(50, 70, "EW", trump="no_trump", announcements={"NS": 20}), (0, 150)),
    ],
)
def test_no_trump_fall_is_worth_the_whole_deal(options, entered, expected):
    replay = play(table(**options), entered)
    assert replay.rounds[0].scores == {"NS": expected[0], "EW": expected[1]}
    assert replay.rounds[0].extra["result"] == "fall"


def test_a_classic_fall_gives_the_defence_both_teams_announcements():
    # NS 66 + 20 belote + 20 = 106 < EW 86 + 10 + 50 = 146: EW 162 + 20 + 50 = 232, NS belote 20.
    entered = deal(66, 86, "EW", belote="NS", announcements={"NS": 20, "EW": 50})
    assert scores(CLASSIC, entered) == {"NS": 20, "EW": 232}


def test_a_classic_fall_with_the_defences_capot():
    # NS 0 + 20 belote + 20 = 40 < EW 252: EW 252 + its belote (0) + all announcements (20).
    replay = play(
        table(**CLASSIC), deal(0, 152, None, capot="EW", belote="NS", announcements={"NS": 20})
    )
    assert replay.rounds[0].scores == {"NS": 20, "EW": 272}
    assert replay.rounds[0].extra["result"] == "fall"


def test_a_classic_made_contract_scores_each_teams_total_with_its_belote():
    # NS 92 + 10 = 102 > EW 60 + 20 belote = 80.
    assert scores(CLASSIC, deal(92, 60, "NS", belote="EW")) == {"NS": 102, "EW": 80}


@pytest.mark.parametrize(
    ("options", "entered", "expected", "reserve"),
    [
        (CLASSIC, B3, (0, 81), 81),
        # litige=fall: the tie is a fall, EW take the whole 162.
        ({**CLASSIC, "litige": "fall"}, B3, (0, 162), 0),
    ],
)
def test_litige_option(options, entered, expected, reserve):
    replay = play(table(**options), entered)
    assert replay.rounds[0].scores == {"NS": expected[0], "EW": expected[1]}
    assert replay.rounds[0].extra["result"] == ("litige" if reserve else "fall")
    assert replay.rounds[0].extra["reserve"] == reserve
    assert replay.state["reserve"] == reserve


def test_consecutive_litiges_add_up_and_go_to_the_defence_after_a_fall():
    replay = play(table(**CLASSIC), B3, B3, deal(66, 86, "EW", belote="NS"))
    assert [r.scores for r in replay.rounds] == [
        {"NS": 0, "EW": 81},
        {"NS": 0, "EW": 81},
        {"NS": 20, "EW": 324},  # B2's 162 + the 81 + 81 held
    ]
    assert [r.extra["result"] for r in replay.rounds] == ["litige", "litige", "fall"]
    assert [r.extra["reserve"] for r in replay.rounds] == [81, 162, 0]
    assert [r.totals for r in replay.rounds] == [
        {"NS": 0, "EW": 81},
        {"NS": 0, "EW": 162},
        {"NS": 20, "EW": 486},
    ]
    assert replay.totals == {"NS": 20, "EW": 486}
    assert replay.state == {"reserve": 0, "extra_round": False, "dealer": "West"}


def test_the_reserve_goes_to_whichever_team_makes_the_next_deal():
    # South's litige holds NS's 81; then West takes: EW 90 + 10 = 100 > 62, + 81.
    replay = play(table(**CLASSIC), B3, deal(62, 90, "EW", taker="West"))
    assert replay.rounds[1].scores == {"NS": 62, "EW": 181}
    assert outcome(replay.rounds[1]) == ("made", 0)


@pytest.mark.parametrize(
    ("rounding", "entered", "expected"),
    [
        # NS 85 + 10 = 95 > 67: 95 -> 100 (5 goes up), 67 -> 70.
        (True, deal(85, 67, "NS"), (100, 70)),
        (False, deal(85, 67, "NS"), (95, 67)),
        # NS 84 > EW 68 + 10 = 78: 84 -> 80, 78 -> 80.
        (True, deal(84, 68, "EW"), (80, 80)),
        (False, deal(84, 68, "EW"), (84, 78)),
        # Fall: NS 66 < EW 96: EW's 162 -> 160.
        (True, deal(66, 86, "EW"), (0, 160)),
        (False, deal(66, 86, "EW"), (0, 162)),
    ],
)
def test_classic_rounding_option(rounding, entered, expected):
    assert scores({**CLASSIC, "rounding": rounding}, entered) == {
        "NS": expected[0],
        "EW": expected[1],
    }


def test_classic_official_does_not_round():
    # NS 85 + 10 = 95 > 67.
    assert scores(CLASSIC_OFFICIAL, deal(85, 67, "NS")) == {"NS": 95, "EW": 67}


# --- Coinche -------------------------------------------------------------------------------------


def test_all_trump_in_coinche():
    # NS 100 + 10 + 20 = 130 >= 90 and > 52: 130 + 90 = 220.
    entered = bid(90, 100, 52, "NS", trump="all_trump", belote="NS")
    assert scores(COINCHE, entered) == {"NS": 220, "EW": 52}
    assert scores(COINCHE_OFFICIAL, entered) == {"NS": 220, "EW": 50}


@pytest.mark.parametrize(
    ("options", "entered", "expected"),
    [
        # Not reached: NS 88 + 10 + 20 = 118 < 120 though ahead of 64: EW 160 + 120; NS belote.
        (COINCHE, bid(120, 88, 64, "NS", belote="NS"), (20, 280)),
        # Reached but not strictly ahead: NS 70 + 10 = 80 >= 80, EW 82: EW 160 + 80.
        (COINCHE, bid(80, 70, 82, "NS"), (0, 240)),
        # A tie with the contract not reached is a fall: 81/81 under 90: EW 160 + 90.
        (COINCHE, bid(90, 71, 81, "NS"), (0, 250)),
        # A coinched tie is a fall: 81/81, 80 reached: EW (160 + 80) x 2.
        (COINCHE, bid(80, 71, 81, "NS", coinche="coinche"), (0, 480)),
        # litige=fall in coinche: 81/81, 80 reached: EW 160 + 80.
        ({**COINCHE, "litige": "fall"}, bid(80, 71, 81, "NS"), (0, 240)),
        # Capot contract without the capot: NS 152 > 10 but no capot: EW 160 + 250.
        (COINCHE, bid("capot", 142, 10, "NS"), (0, 410)),
        # Surcoinche failed: as B13, EW (160 + 100) x 4.
        (COINCHE, bid(100, 80, 72, "EW", coinche="surcoinche"), (0, 1040)),
        # Surcoinche failed with the defence's belote: maison 1040 + 20, official (260 + 20) x 4.
        (COINCHE, bid(100, 80, 72, "EW", coinche="surcoinche", belote="EW"), (0, 1060)),
        (COINCHE_OFFICIAL, bid(100, 80, 72, "EW", coinche="surcoinche", belote="EW"), (0, 1120)),
        # Générale: the takers' capot without taker_alone does not reach it: EW 160 + 500.
        (COINCHE, bid("generale", 152, 0, None, capot="NS"), (0, 660)),
        # Générale without a capot: EW 160 + 500.
        (COINCHE, bid("generale", 140, 12, "NS"), (0, 660)),
    ],
)
def test_failed_contracts(options, entered, expected):
    replay = play(table(**options), entered)
    assert replay.rounds[0].scores == {"NS": expected[0], "EW": expected[1]}
    assert replay.rounds[0].extra["result"] == "fall"
    assert replay.rounds[0].extra["reserve"] == 0


@pytest.mark.parametrize(
    ("options", "entered", "expected"),
    [
        # Générale made, taker alone: 252 + 500.
        (COINCHE, bid("generale", 152, 0, None, capot="NS", taker_alone=True), (752, 0)),
        # Générale coinched, official: (250 + 500) x 2.
        (
            COINCHE_OFFICIAL,
            bid("generale", 152, 0, None, capot="NS", taker_alone=True, coinche="coinche"),
            (1500, 0),
        ),
        # Capot coinched, maison: 160 stays 160: (160 + 250) x 2.
        (COINCHE, bid("capot", 152, 0, None, capot="NS", coinche="coinche"), (820, 0)),
        # Not coinched, the defence keeps its announcements: NS 108 > EW 54 + 50: 108 + 80.
        (COINCHE, bid(80, 98, 54, "NS", announcements={"EW": 50}), (188, 104)),
        # Capot by the takers, not coinched: NS 252 + 20 = 272, + 80 + EW's 50 announcements.
        (
            COINCHE,
            bid(80, 152, 0, None, capot="NS", announcements={"NS": 20, "EW": 50}),
            (402, 0),
        ),
        # ... while the defence keeps its belote.
        (
            COINCHE,
            bid(80, 152, 0, None, capot="NS", belote="EW", announcements={"NS": 20, "EW": 50}),
            (402, 20),
        ),
    ],
)
def test_made_contracts(options, entered, expected):
    assert scores(options, entered) == {"NS": expected[0], "EW": expected[1]}


@pytest.mark.parametrize(
    ("rules", "entered", "expected"),
    [
        # Made, takers' belote: NS 98 + 10 + 20 = 128.
        ("maison", bid(100, 98, 54, "NS", coinche="coinche", belote="NS"), (540, 0)),  # 520 + 20
        ("official", bid(100, 98, 54, "NS", coinche="coinche", belote="NS"), (560, 0)),  # 280 x 2
        # Made, defence's belote: NS 108 > EW 74; EW keep only their belote.
        ("maison", bid(100, 98, 54, "NS", coinche="coinche", belote="EW"), (520, 20)),
        ("official", bid(100, 98, 54, "NS", coinche="coinche", belote="EW"), (520, 20)),
        # Made with announcements NS 20, EW 50 (maison; official counts one side's only, so
        # there NS announce 20 + 50): maison NS 148 > EW 104, (160 + 100 + 70) x 2 + 20 = 680;
        # official NS 198 > EW 54, (160 + 100 + 70 + 20) x 2 = 700.
        (
            "maison",
            bid(
                100,
                98,
                54,
                "NS",
                coinche="coinche",
                belote="NS",
                announcements={"NS": 20, "EW": 50},
            ),
            (680, 0),
        ),
        (
            "official",
            bid(
                100,
                98,
                54,
                "NS",
                coinche="coinche",
                belote="NS",
                announcements={"NS": 70},
            ),
            (700, 0),
        ),
        # Failed, defence's belote: NS 80 < 100: maison 520 + 20, official (260 + 20) x 2.
        ("maison", bid(100, 80, 72, "EW", coinche="coinche", belote="EW"), (0, 540)),
        ("official", bid(100, 80, 72, "EW", coinche="coinche", belote="EW"), (0, 560)),
        # Failed, takers' belote: NS 80 + 20 = 100 < 110: NS keep 20, EW (160 + 110) x 2.
        ("maison", bid(110, 80, 72, "EW", coinche="coinche", belote="NS"), (20, 540)),
        ("official", bid(110, 80, 72, "EW", coinche="coinche", belote="NS"), (20, 540)),
    ],
)
def test_official_and_maison_formulas_place_the_belote_differently(rules, entered, expected):
    assert scores({"variant": "coinche", "rules": rules}, entered) == {
        "NS": expected[0],
        "EW": expected[1],
    }


@pytest.mark.parametrize(
    ("entered", "expected"),
    [
        # NS 77 + 20 belote = 97 >= 90 > EW 75 + 10 = 85: NS 187 -> 190, EW 85 -> 90.
        (bid(90, 77, 75, "EW", belote="NS"), (190, 90)),
        # NS 78 + 20 = 98 > EW 74 + 10 = 84: NS 188 -> 190, EW 84 -> 80.
        (bid(90, 78, 74, "EW", belote="NS"), (190, 80)),
        # NS 95 + 10 = 105: 185 -> 190; EW 57 -> 60.
        (bid(80, 95, 57, "NS"), (190, 60)),
        # NS 94 + 10 = 104: 184 -> 180; EW 58 -> 60.
        (bid(80, 94, 58, "NS"), (180, 60)),
        # NS 87 + 80 = 167 -> 170; EW 65 + 10 = 75 -> 80.
        (bid(80, 87, 65, "EW"), (170, 80)),
    ],
)
def test_official_rounding_is_half_up_for_each_team(entered, expected):
    assert scores(COINCHE_OFFICIAL, entered) == {"NS": expected[0], "EW": expected[1]}
    assert scores(COINCHE, entered) != {"NS": expected[0], "EW": expected[1]}


@pytest.mark.parametrize(
    ("entered", "expected"),
    [
        # NS 69 + 10 = 79 < 80: failed, EW 160 + 80.
        (bid(80, 69, 83, "NS"), (0, 240)),
        # NS 79 + 20 = 99 would round to 100, but 99 < 100: failed, EW 160 + 100 + 20 = 280.
        (bid(100, 79, 73, "EW", announcements={"NS": 20}), (0, 280)),
    ],
)
def test_rounding_never_makes_a_failed_contract(entered, expected):
    replay = play(table(**COINCHE_OFFICIAL), entered)
    assert replay.rounds[0].scores == {"NS": expected[0], "EW": expected[1]}
    assert replay.rounds[0].extra["result"] == "fall"


def test_coinche_litige_holds_the_takers_total_without_the_contract():
    # NS 71 + 10 = 81 reaches 80 and ties EW 81: EW 81 now, 81 (not 161) held.
    # Next: NS 98 + 10 = 108 + 100 + 81 = 289.
    replay = play(table(**COINCHE), bid(80, 71, 81, "NS"), bid(100, 98, 54, "NS"))
    assert replay.rounds[0].scores == {"NS": 0, "EW": 81}
    assert outcome(replay.rounds[0]) == ("litige", 81)
    assert replay.rounds[1].scores == {"NS": 289, "EW": 54}
    assert outcome(replay.rounds[1]) == ("made", 0)


def test_coinche_reserve_goes_to_the_defence_when_the_next_contract_fails():
    # B13 after a litige: EW (160 + 100) x 2 = 520, + the 81 held.
    replay = play(
        table(**COINCHE), bid(80, 71, 81, "NS"), bid(100, 80, 72, "EW", coinche="coinche")
    )
    assert replay.rounds[1].scores == {"NS": 0, "EW": 601}
    assert replay.state["reserve"] == 0


def test_official_rounding_comes_after_the_reserve():
    # Litige: EW 81 -> 80, 81 held. Next: NS 94 + 10 + 100 + 81 = 285 -> 290; EW 58 -> 60.
    replay = play(table(**COINCHE_OFFICIAL), bid(80, 71, 81, "NS"), bid(100, 94, 58, "NS"))
    assert replay.rounds[0].scores == {"NS": 0, "EW": 80}
    assert replay.rounds[0].extra["reserve"] == 81
    assert replay.rounds[1].scores == {"NS": 290, "EW": 60}


# --- The end of the match ------------------------------------------------------------------------


def test_reaching_the_target_ends_the_match():
    seated = table(**CLASSIC, target=300)
    replay = play(seated, deal(82, 70, "NS", belote="NS"))
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)
    replay = play(seated, deal(82, 70, "NS", belote="NS"), deal(152, 0, None, capot="NS"))
    assert replay.totals == {"NS": 364, "EW": 70}  # 112 + 252
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 2)


def test_the_default_target_is_1000_in_classic():
    three = [deal(152, 0, None, capot="NS")] * 3  # 3 x 252 = 756
    replay = play(table(**CLASSIC), *three)
    assert replay.status == PLAYING
    replay = play(table(**CLASSIC), *three, deal(152, 0, None, capot="NS"))  # 1008
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 4)


def test_the_default_target_is_2000_in_coinche():
    capot = bid("capot", 152, 0, None, capot="NS")  # 502 each
    replay = play(table(**COINCHE), capot, capot, capot)  # 1506
    assert replay.status == PLAYING
    replay = play(table(**COINCHE), capot, capot, capot, capot)  # 2008
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 4)


def test_the_higher_total_wins_when_both_pass_the_target():
    # NS 112 + 62, EW 70 + 100 (West takes, EW 90 + 10 > 62): 174 / 170.
    seated = table(**CLASSIC, target=150)
    replay = play(seated, deal(82, 70, "NS", belote="NS"), deal(62, 90, "EW", taker="West"))
    assert replay.totals == {"NS": 174, "EW": 170}
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 2)


def test_a_tie_at_the_target_plays_another_deal():
    seated = table(**CLASSIC, target=150)
    tied = [deal(92, 60, "NS"), deal(60, 92, "EW", taker="West")]  # 102/60 then 60/102
    replay = play(seated, *tied)
    assert replay.totals == {"NS": 162, "EW": 162}
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)
    assert replay.state == {"reserve": 0, "extra_round": True, "dealer": "North"}
    replay = play(seated, *tied, deal(82, 70, "NS"))  # 92/70
    assert replay.totals == {"NS": 254, "EW": 232}
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 3)
    assert replay.state["extra_round"] is False


def test_a_reserve_pending_at_the_end_is_not_awarded():
    # NS 71 + 10 + 50 = 131, EW 81 + 50 = 131: litige, EW score 131 and reach 100.
    seated = table(**CLASSIC, target=100)
    replay = play(seated, deal(71, 81, "NS", announcements={"NS": 50, "EW": 50}))
    assert replay.rounds[0].extra["result"] == "litige"
    assert replay.totals == {"NS": 0, "EW": 131}
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "EW", 1)


# --- Who deals: French belote is played counter-clockwise, the deal passes to the right ----------


@pytest.mark.parametrize(
    ("first", "dealers"),
    [
        # Seated South, West, North, East: to the right of South sits East.
        pytest.param({}, ["South", "East", "North", "West", "South"], id="first-player"),
        pytest.param(
            {"first_dealer": "west"}, ["West", "South", "East", "North", "West"], id="west-first"
        ),
    ],
)
def test_the_deal_passes_to_the_right_each_deal(first, dealers):
    seated = table(**CLASSIC, **first)
    deals = [deal(82, 70, "NS")] * 4
    assert [play(seated, *deals[:n]).state["dealer"] for n in range(5)] == dealers
    assert [played.dealer for played in play(seated, *deals).rounds] == dealers[:4]


def test_an_unknown_first_dealer_is_refused():
    with pytest.raises(Refusal) as refusal:
        table(first_dealer="Zed")
    assert_at(refusal.value, "options.first_dealer", "'Zed' is not a player")


def test_a_match_stored_before_the_first_dealer_option_deals_from_the_first_seat():
    seated = table(**CLASSIC)
    older = Table(
        seated.players,
        {k: v for k, v in seated.options.items() if k != "first_dealer"},
        seated.teams,
    )
    replay = play(older, deal(82, 70, "NS"))
    assert (replay.rounds[0].dealer, replay.state["dealer"]) == ("South", "East")


def test_the_rules_say_who_deals_first_and_which_way():
    rules = {rule.title: rule.text for rule in BELOTE.rules(table(first_dealer="North").options)}
    assert rules["Who deals"] == (
        "First dealer: North. After each deal, the player to the right deals (counter-clockwise)."
    )


def test_the_first_dealer_is_no_variant():
    key = BELOTE.variant_key(table(first_dealer="North").options)
    assert key == {"variant": "classic", "target": 1000}


# --- Official rules (RULES.md §2, December 2026) -----------------------------------------------

BOTH_ANNOUNCE = deal(72, 80, "EW", announcements={"NS": 50, "EW": 20})


def test_official_rules_refuse_announcements_for_both_teams():
    assert_at(refused(table(**CLASSIC_OFFICIAL), BOTH_ANNOUNCE), "announcements", "only one team")
    assert_at(
        refused(
            table(**COINCHE_OFFICIAL), bid(80, 72, 80, "EW", announcements={"NS": 20, "EW": 20})
        ),
        "announcements",
        "equal best: nobody scores",
    )


def test_maison_keeps_announcements_for_both_teams():
    # NS 72 + 50 = 122 > EW 80 + 10 + 20 = 110: made, each team its total.
    assert scores(CLASSIC, BOTH_ANNOUNCE) == {"NS": 122, "EW": 110}


def test_official_rules_count_one_sides_announcements():
    # B6 under official rules: NS 72 + 50 = 122 > EW 80 + 10 = 90.
    assert scores(CLASSIC_OFFICIAL, deal(72, 80, "EW", announcements={"NS": 50})) == {
        "NS": 122,
        "EW": 90,
    }


ALL_TRUMP_BID = {"trump": "all_trump", "contract": 100}


def test_official_all_trump_counts_each_teams_belotes():
    # All trump 98/54, der NS; NS 2 belotes, EW 1: NS 98 + 10 + 40 = 148 >= 100 and > EW 54 + 20
    # = 74: NS 148 + 100 = 248 -> 250, EW 74 -> 70 (official rounding).
    entered = bid(100, 98, 54, "NS", trump="all_trump", belotes={"NS": 2, "EW": 1})
    seated = table(**COINCHE_OFFICIAL)
    read = BELOTE.read_round(seated, entered)
    assert (read["belote"], read["belotes"]) == (None, {"NS": 2, "EW": 1})
    played = play(seated, entered).rounds[0]
    assert played.scores == {"NS": 250, "EW": 70}
    assert "NS: 98 in cards + 10 for the last trick + 40 for 2 belotes = 148." in played.explanation


def test_four_belotes_for_one_team_at_all_trump():
    # NS 90 + 10 + 80 = 180 >= 100, EW 62: NS 280, EW 62 -> 60.
    entered = bid(100, 90, 62, "NS", trump="all_trump", belotes={"NS": 4})
    read = BELOTE.read_round(table(**COINCHE_OFFICIAL), entered)
    assert (read["belote"], read["belotes"]) == ("NS", {"NS": 4, "EW": 0})
    assert scores(COINCHE_OFFICIAL, entered) == {"NS": 280, "EW": 60}


def test_one_belote_named_at_all_trump_is_counted_per_team():
    # NS 98 + 10 + 20 = 128 >= 100: 228 -> 230; EW 54 -> 50.
    entered = bid(100, 98, 54, "NS", trump="all_trump", belote="NS")
    read = BELOTE.read_round(table(**COINCHE_OFFICIAL), entered)
    assert (read["belote"], read["belotes"]) == ("NS", {"NS": 1, "EW": 0})
    assert scores(COINCHE_OFFICIAL, entered) == {"NS": 230, "EW": 50}
    # Read again (a what-if, a correction) it stays the same deal.
    assert BELOTE.read_round(table(**COINCHE_OFFICIAL), read) == read


@pytest.mark.parametrize(
    ("options", "extra", "path", "words"),
    [
        (COINCHE_OFFICIAL, {"belotes": {"NS": 3, "EW": 2}}, "belotes", "at most four"),
        (COINCHE, {"belotes": {"NS": 2}}, "belotes", "only under official rules"),
        (COINCHE_OFFICIAL, {"belotes": {"NS": -1}}, "belotes.NS", "fewer than 0"),
        (COINCHE_OFFICIAL, {"belotes": {"NS": 1}, "belote": "EW"}, "belote", "gives EW none"),
        (COINCHE_OFFICIAL, {"belotes": {"NS": 1}, "trump": "hearts"}, "belotes", "Only all trump"),
        (COINCHE_OFFICIAL, {"belotes": {"NS": "2"}}, "belotes.NS", "whole number"),
    ],
)
def test_impossible_belotes_are_refused(options, extra, path, words):
    entered = bid(100, 98, 54, "NS", trump="all_trump") | extra
    assert_at(refused(table(**options), entered), path, words)


def test_zero_belotes_at_a_suit_trump_say_nothing():
    entered = bid(100, 98, 54, "NS", belotes={"NS": 0, "EW": 0}, belote="NS")
    read = BELOTE.read_round(table(**COINCHE_OFFICIAL), entered)
    assert "belotes" not in read and read["belote"] == "NS"


# Target 600. Deals 1-3 bring NS to 594 (252 + 252 + 90), EW to 72.
TO_594 = [deal(152, 0, None, capot="NS")] * 2 + [deal(80, 72, "NS")]
FELL_WITH_BELOTE = deal(66, 86, "EW", belote="NS")  # NS 86 < EW 96: fall, NS keep 20, EW 162
CAPOT_AGAINST = deal(0, 152, None, taker="West", capot="EW", belote="NS")  # EW 252, NS 0 + 20


@pytest.mark.parametrize("lost", [FELL_WITH_BELOTE, CAPOT_AGAINST], ids=["fall", "capot"])
def test_official_a_belote_alone_does_not_win(lost):
    seated = table(**CLASSIC_OFFICIAL, target=600)
    replay = play(seated, *TO_594, lost)
    # NS 594 + 20 = 614 >= 600, but 614 - 20 belote = 594 < 600: not won yet.
    assert replay.totals["NS"] == 614
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)
    assert "a belote alone does not win" in " ".join(replay.rounds[-1].explanation)
    # A capot by EW: NS take no trick, still waiting (EW below 600).
    capot_ew = deal(0, 152, None, taker="West", capot="EW")
    replay = play(seated, *TO_594, lost, capot_ew)
    assert (replay.status, replay.ended_after) == (PLAYING, None)
    # NS take tricks (82/70: NS 92, EW 70): the match ends after that deal, higher total wins.
    replay = play(seated, *TO_594, lost, capot_ew, deal(82, 70, "NS"))
    assert replay.totals["NS"] == 706  # 614 + 92
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 6)


def test_maison_a_belote_reaching_the_target_wins():
    replay = play(table(**CLASSIC, target=600), *TO_594, FELL_WITH_BELOTE)
    assert replay.totals == {"NS": 614, "EW": 234}  # 594 + 20; 72 + 162
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 4)


def test_official_the_other_team_still_ends_the_match_as_usual():
    # NS waits at 614; EW 234 + 252 + 252 = 738 >= 600: the usual rule, the higher total wins.
    capot_ew = deal(0, 152, None, taker="West", capot="EW")
    replay = play(table(**CLASSIC_OFFICIAL, target=600), *TO_594, FELL_WITH_BELOTE, capot_ew)
    assert replay.status == PLAYING  # EW 486
    replay = play(
        table(**CLASSIC_OFFICIAL, target=600), *TO_594, FELL_WITH_BELOTE, capot_ew, capot_ew
    )
    assert replay.totals == {"NS": 614, "EW": 738}
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "EW", 6)


def test_official_a_fall_that_reaches_the_target_without_the_belote_is_not_held():
    # NS at 594 + 252 capot (deal 4) = 846: reached by cards, the usual end.
    replay = play(table(**CLASSIC_OFFICIAL, target=600), *TO_594, deal(152, 0, None, capot="NS"))
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "NS", 4)


@pytest.mark.parametrize(
    ("rules", "trump", "expected"),
    [
        # Official no trump: carré d'as 200, de 10 150, the others (K, Q, J, 9) 100.
        (
            "official",
            "no_trump",
            {"carré d'as": 200, "carré de 10": 150, "carré (K, Q, J, 9)": 100},
        ),
        # A suit: jacks 200, nines 150, A, 10, K, Q 100; never 7s or 8s.
        (
            "official",
            "hearts",
            {"carré de valets": 200, "carré de 9": 150, "carré (A, 10, K, Q)": 100},
        ),
        (
            "official",
            "all_trump",
            {"carré de valets": 200, "carré de 9": 150, "carré (A, 10, K, Q)": 100},
        ),
    ],
)
def test_quick_carrés_follow_the_trump(rules, trump, expected):
    offered = {str(name): value for name, value in announcement_choices(trump, rules).items()}
    carres = {name: value for name, value in offered.items() if name.startswith("carré")}
    assert carres == expected
    assert {offered[n] for n in ("tierce", "cinquante", "cent")} == {20, 50, 100}
    assert not any("7" in name or "8" in name for name in offered)


@pytest.mark.parametrize(
    ("options", "trump", "points", "words"),
    [
        # A suit or all trump: no card is worth 1, so neither 1 nor 152 - 1 = 151 can be made.
        (CLASSIC, "hearts", {"NS": 1}, "No cards add up to 1"),
        (CLASSIC, "spades", {"NS": 151}, "No cards add up to 151"),
        (CLASSIC, "hearts", {"NS": 151, "EW": 1}, "No cards add up to 151"),
        (COINCHE, "all_trump", {"EW": 1}, "No cards add up to 1"),
        # Maison no trump: 120 in cards, so 119 is out of reach; official no trump: 152 - 1.
        (CLASSIC, "no_trump", {"NS": 119}, "No cards add up to 119"),
        (CLASSIC_OFFICIAL, "no_trump", {"NS": 151}, "No cards add up to 151"),
    ],
)
def test_impossible_card_points_are_refused(options, trump, points, words):
    entered = {"taker": "South", "trump": trump, "points": points, "last_trick": "NS"}
    if options["variant"] == "coinche":
        entered["contract"] = 80
    path = f"points.{next(iter(points))}"
    assert_at(refused(table(**options), entered), path, words)


@pytest.mark.parametrize(
    ("options", "trump", "ns", "expected"),
    [
        # 2 is a plain jack; 150 the rest. NS 2 + 10 = 12 < EW 150: fall, EW 162.
        (CLASSIC, "hearts", 2, {"NS": 0, "EW": 162}),
        # 118 + 10 = 128 > 2 at maison no trump (the 2 a jack).
        (CLASSIC, "no_trump", 118, {"NS": 128, "EW": 2}),
    ],
)
def test_card_points_next_to_the_impossible_ones_are_accepted(options, trump, ns, expected):
    assert scores(options, deal(ns, None, "NS", trump=trump)) == expected


def test_achievable_card_points_are_computed_from_the_trumps_card_values():
    for trump, rules in [("hearts", "maison"), ("no_trump", "maison"), ("no_trump", "official")]:
        total = card_total(trump, rules)
        missing = set(range(total + 1)) - possible_points(trump, rules)
        assert missing == {1, total - 1}


@pytest.mark.parametrize(
    "extra",
    [{"coinche": "none"}, {"taker_alone": False}, {"coinche": "none", "taker_alone": False}],
)
def test_classic_accepts_the_neutral_coinche_fields(extra):
    # B1: NS 82 + 10 + 20 = 112, EW 70.
    entered = deal(82, 70, "NS", belote="NS") | extra
    read = BELOTE.read_round(table(**CLASSIC), entered)
    assert not {"contract", "coinche", "taker_alone"} & set(read)
    assert scores(CLASSIC, entered) == {"NS": 112, "EW": 70}


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"coinche": "coinche"}, "coinche"),
        ({"taker_alone": True}, "taker_alone"),
        ({"taker_alone": 0}, "taker_alone"),
    ],
)
def test_classic_still_refuses_coinche_fields_that_say_something(extra, path):
    assert_at(refused(table(**CLASSIC), deal(82, 70, "NS") | extra), path, "for coinche")


def test_official_rules_page_states_the_federation_rules():
    titles = {rule.title: rule.text for rule in BELOTE.rules(table(**COINCHE_OFFICIAL).options)}
    assert "only one team's announcements count" in titles["Announcements"].casefold()
    assert "a carré of aces is worth 200, of tens 150" in titles["Announcements"]
    assert "up to four belotes" in titles["Belotes at all trump"]
    assert (
        "first later deal in which that team takes a trick" in titles["A belote alone does not win"]
    )
    maison = {rule.title for rule in BELOTE.rules(table(**COINCHE).options)}
    assert not {"Announcements", "Belotes at all trump", "A belote alone does not win"} & maison
    classic = {rule.title for rule in BELOTE.rules(table(**CLASSIC_OFFICIAL).options)}
    assert "Belotes at all trump" not in classic and "A belote alone does not win" in classic
