"""Barbu rules, pure: RULES.md §3 example D1, the seven contracts, the declarer's turn, doubles
settled pair by pair, the obligation to double the declarer twice, the end of the match.

Seats Ana, Bo, Cy, Di; Ana declares the first seven hands unless a test says otherwise.
Raw scores: no tricks −2 a trick (−26), no queens −6 a queen (−24), no hearts −2 a heart and the
A♥ −6 (−30), no last two −10 and −20 (−30), barbu −20, trumps +5 a trick (+65), dominoes
+45/+20/+5/−5 (+65). A pair settles the difference of its raw scores, twice when redoubled.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorers import GAMES, Refusal, RoundImpossible, Table
from scorers.base import FINISHED, PLAYING

BARBU = GAMES["barbu"]

PLAYERS = ("Ana", "Bo", "Cy", "Di")
NEGATIVE = ("no_tricks", "no_queens", "no_hearts", "no_last_two", "barbu")
CONTRACTS = (*NEGATIVE, "trumps", "dominoes")
TOTALS = {
    "no_tricks": -26,
    "no_queens": -24,
    "no_hearts": -30,
    "no_last_two": -30,
    "barbu": -20,
    "trumps": 65,
    "dominoes": 65,
}


def table(first: str | None = None) -> Table:
    """Seat Ana, Bo, Cy and Di, with `first` declaring the first seven hands if given."""
    options = {"first_declarer": first} if first else {}
    return BARBU.read_table({"players": list(PLAYERS), "options": options})


def pairs(doubles: str) -> list[list[str]]:
    """Write doubles as the API takes them: "Bo>Ana Ana>Bo" is Bo doubling Ana, Ana redoubling."""
    return [pair.split(">") for pair in doubles.split()]


def hand(contract: str, taken: Any, doubles: str = "", **extra: Any) -> dict[str, Any]:
    """Write a hand as the API takes it."""
    return {"contract": contract, "taken": taken, "doubles": pairs(doubles), **extra}


def counts(ana: int, bo: int, cy: int, di: int) -> dict[str, int]:
    """Count per player (tricks, queens or hearts), in seat order."""
    return dict(zip(PLAYERS, (ana, bo, cy, di), strict=True))


def all_to(name: str, count: int) -> dict[str, int]:
    """Give the whole count to one player."""
    return {player: count if player == name else 0 for player in PLAYERS}


def no_hearts(taken: dict[str, int], ace: str, doubles: str = "") -> dict[str, Any]:
    """Write a no hearts hand: hearts per player and who took the A♥."""
    return hand("no_hearts", taken, doubles, ace_of_hearts=ace)


def no_last_two(second_last: str, last: str, doubles: str = "") -> dict[str, Any]:
    """Write a no last two hand: who took trick 12 and trick 13."""
    return hand("no_last_two", {"second_last": second_last, "last": last}, doubles)


def barbu(king: str, doubles: str = "") -> dict[str, Any]:
    """Write a barbu hand: who took the K♥."""
    return hand("barbu", {"king_of_hearts": king}, doubles)


def dominoes(order: str, doubles: str = "") -> dict[str, Any]:
    """Write a dominoes hand: the finishing order, "Cy Ana Di Bo"."""
    return hand("dominoes", {"order": order.split()}, doubles)


def seats_after(declarer: str) -> list[str]:
    """Return the three other players, from the declarer's left round the table."""
    at = PLAYERS.index(declarer)
    return [PLAYERS[(at + step) % 4] for step in (1, 2, 3)]


def block(declarer: str, doubled_in: tuple[int, int] = (1, 2)) -> list[dict[str, Any]]:
    """Return a declarer's seven hands, one of each contract, the declarer taking everything and
    the three others doubling the declarer in the two hands `doubled_in` (1-based).

    Raw over the block: the declarer −26 −24 −30 −30 −20 +65 +45 = −20; the dominoes order
    declarer, left, opposite, right gives the others +20, +5, −5. Settling three doubles of the
    declarer moves, for the declarer (each other player the opposite, by their difference):
    hand 1 −78, hand 2 −72, hand 3 −90, hand 4 −90, hand 5 −60, hand 6 +195,
    hand 7 +115 (from the others −25, −40, −50).
    """
    left, opposite, right = seats_after(declarer)

    def doubles(k: int) -> str:
        if k not in doubled_in:
            return ""
        return " ".join(f"{other}>{declarer}" for other in (left, opposite, right))

    return [
        hand("no_tricks", all_to(declarer, 13), doubles(1)),
        hand("no_queens", all_to(declarer, 4), doubles(2)),
        no_hearts(all_to(declarer, 13), declarer, doubles(3)),
        no_last_two(declarer, declarer, doubles(4)),
        barbu(declarer, doubles(5)),
        hand("trumps", all_to(declarer, 13), doubles(6)),
        dominoes(f"{declarer} {left} {opposite} {right}", doubles(7)),
    ]


def play(seated: Table, *hands: dict[str, Any]):
    """Read every hand as the API would, then replay them."""
    return BARBU.replay(seated, [BARBU.read_round(seated, entered) for entered in hands])


def impossible(seated: Table, *hands: dict[str, Any]) -> RoundImpossible:
    """Return why the replay of these hands stops."""
    with pytest.raises(RoundImpossible) as stopped:
        play(seated, *hands)
    return stopped.value


def refused(entered: Any) -> Refusal:
    """Return the refusal of one hand's shape."""
    with pytest.raises(Refusal) as refusal:
        BARBU.read_round(table(), entered)
    return refusal.value


def assert_at(refusal: Refusal, path: str, words: str) -> None:
    """Check a refusal names the field and says the words there."""
    assert path in refusal.fields, refusal.fields
    assert words in " ".join(refusal.fields[path]), refusal.fields[path]


# --- RULES.md example D1 -----------------------------------------------------------------------

D1 = no_hearts(
    counts(2, 5, 0, 6),  # 2 + 5 + 0 + 6 = 13 hearts
    "Bo",  # Bo: A♥ −6 + 4 hearts × −2 = −14
    "Bo>Ana Bo>Cy Cy>Bo Cy>Ana Di>Ana Ana>Bo",
)


def test_d1_no_hearts_with_doubles_and_redoubles():
    played = play(table(), D1).rounds[0]
    assert played.extra["raw"] == {"Ana": -4, "Bo": -14, "Cy": 0, "Di": -12}
    # Ana −4 + 20 − 4 + 8; Bo −14 − 20 − 28; Cy 0 + 4 + 28; Di −12 − 8.
    assert played.scores == {"Ana": 20, "Bo": -62, "Cy": 32, "Di": -20}
    assert sum(played.scores.values()) == -30
    assert played.extra["declarer"] == "Ana"
    assert played.extra["hand_in_block"] == 1


@pytest.mark.parametrize(
    ("pair", "diff", "high", "low", "moved"),
    [
        ("Ana–Bo", 10, "Ana", "Bo", 20),  # redoubled: twice 10
        ("Ana–Cy", 4, "Cy", "Ana", 4),
        ("Ana–Di", 8, "Ana", "Di", 8),
        ("Bo–Cy", 14, "Cy", "Bo", 28),  # redoubled: twice 14
    ],
)
def test_d1_each_pair_is_settled_in_its_own_sentence(pair, diff, high, low, moved):
    explanation = play(table(), D1).rounds[0].explanation
    settled = [sentence for sentence in explanation if sentence.startswith(pair)]
    assert len(settled) == 1, explanation
    sentence = settled[0]
    assert f"difference is {diff}" in sentence
    assert f"{high} +{moved}" in sentence
    assert f"{low} −{moved}" in sentence or f"{low} -{moved}" in sentence
    assert ("redoubled" in sentence) == (moved == 2 * diff)


def test_d1_pairs_that_did_not_double_each_other_settle_nothing():
    explanation = play(table(), D1).rounds[0].explanation
    assert not [s for s in explanation if s.startswith(("Bo–Di", "Cy–Di"))], explanation


# --- The seven contracts -----------------------------------------------------------------------

RAW = [
    ("no tricks", hand("no_tricks", counts(3, 4, 0, 6)), (-6, -8, 0, -12)),
    ("no tricks, one takes all", hand("no_tricks", all_to("Di", 13)), (0, 0, 0, -26)),
    ("no queens", hand("no_queens", counts(1, 2, 0, 1)), (-6, -12, 0, -6)),
    ("no queens, one takes all", hand("no_queens", all_to("Cy", 4)), (0, 0, -24, 0)),
    # Bo: the A♥ −6 + 4 more hearts × −2.
    ("no hearts", no_hearts(counts(2, 5, 0, 6), "Bo"), (-4, -14, 0, -12)),
    # Ana's only heart is the A♥; Bo 12 × −2.
    ("no hearts, the A♥ alone", no_hearts(counts(1, 12, 0, 0), "Ana"), (-6, -24, 0, 0)),
    # −6 + 12 × −2.
    ("no hearts, one takes all", no_hearts(all_to("Di", 13), "Di"), (0, 0, 0, -30)),
    ("no last two", no_last_two("Bo", "Cy"), (0, -10, -20, 0)),
    ("no last two, both to one", no_last_two("Di", "Di"), (0, 0, 0, -30)),
    ("barbu", barbu("Cy"), (0, 0, -20, 0)),
    ("trumps", hand("trumps", counts(3, 4, 0, 6)), (15, 20, 0, 30)),
    ("trumps, one takes all", hand("trumps", all_to("Ana", 13)), (65, 0, 0, 0)),
    ("dominoes", dominoes("Cy Ana Di Bo"), (20, -5, 45, 5)),
]


@pytest.mark.parametrize(
    ("entered", "expected"), [case[1:] for case in RAW], ids=[case[0] for case in RAW]
)
def test_each_contracts_raw_scores_add_up_to_its_total(entered, expected):
    played = play(table(), entered).rounds[0]
    raw = dict(zip(PLAYERS, expected, strict=True))
    assert played.extra["raw"] == raw
    assert played.scores == raw  # no doubles: net is raw
    assert sum(raw.values()) == TOTALS[entered["contract"]]


def test_the_seven_totals_add_up_to_zero():
    assert sum(TOTALS.values()) == 0
    assert {case[1]["contract"] for case in RAW} == set(CONTRACTS)


def test_a_hand_reads_names_case_insensitively_and_doubles_default_to_none():
    entered = {
        "contract": "no_hearts",
        "taken": {"ana": 2, "BO": 5, "Cy": 0, "di": 6},
        "ace_of_hearts": "bo",
    }
    assert BARBU.read_round(table(), entered) == {
        "contract": "no_hearts",
        "taken": {"Ana": 2, "Bo": 5, "Cy": 0, "Di": 6},
        "ace_of_hearts": "Bo",
        "doubles": [],
    }
    read = BARBU.read_round(table(), {**dominoes("cy ana di bo", "bo>ana"), "declarer": "ANA"})
    assert read["taken"] == {"order": ["Cy", "Ana", "Di", "Bo"]}
    assert read["doubles"] == [["Bo", "Ana"]]
    assert read["declarer"] == "Ana"


# --- Doubles -----------------------------------------------------------------------------------

# Every double the rules allow in the contract: in a negative one anybody doubles anybody (the
# declarer redoubling); in a positive one only the declarer is doubled.
EVERY_NEGATIVE_DOUBLE = (
    "Bo>Ana Cy>Ana Di>Ana Ana>Bo Ana>Cy Ana>Di Bo>Cy Cy>Bo Bo>Di Di>Bo Cy>Di Di>Cy"
)
EVERY_POSITIVE_DOUBLE = "Bo>Ana Cy>Ana Di>Ana Ana>Bo Ana>Cy Ana>Di"

# No tricks Ana 3, Bo 4, Cy 0, Di 6: raw Ana −6, Bo −8, Cy 0, Di −12.
TRICKS = counts(3, 4, 0, 6)
# Trumps Ana 3, Bo 4, Cy 0, Di 6: raw Ana 15, Bo 20, Cy 0, Di 30.
# Dominoes Cy, Ana, Di, Bo: raw Ana 20, Bo −5, Cy 45, Di 5.
SETTLED = [
    # Cy 0 vs Bo −8: difference 8 to Cy.
    ("single", hand("no_tricks", TRICKS, "Bo>Cy"), (-6, -16, 8, -12)),
    ("single, the other way", hand("no_tricks", TRICKS, "Cy>Bo"), (-6, -16, 8, -12)),
    ("redouble, twice 8", hand("no_tricks", TRICKS, "Bo>Cy Cy>Bo"), (-6, -24, 16, -12)),
    # Bo −8 vs Di −12: 4 to Bo.
    ("the doubler may win", hand("no_tricks", TRICKS, "Di>Bo"), (-6, -4, 0, -16)),
    # Ana −6 vs Bo −8: 2 to Ana.
    ("the declarer doubled", hand("no_tricks", TRICKS, "Bo>Ana"), (-4, -10, 0, -12)),
    ("the declarer redoubles", hand("no_tricks", TRICKS, "Bo>Ana Ana>Bo"), (-2, -12, 0, -12)),
    # Ana–Bo ×2 diff 2: Ana +4; Ana–Cy ×2 diff 6: Cy +12; Ana–Di ×2 diff 6: Ana +12.
    (
        "all double the declarer, all redoubled",
        hand("no_tricks", TRICKS, "Bo>Ana Cy>Ana Di>Ana Ana>Bo Ana>Cy Ana>Di"),
        (-2, -12, 12, -24),
    ),
    # As above, plus Bo–Cy ×2 diff 8: Cy +16; Bo–Di ×2 diff 4: Bo +8; Cy–Di ×2 diff 12: Cy +24.
    # Ana −6 +4 −12 +12; Bo −8 −4 −16 +8; Cy 0 +12 +16 +24; Di −12 −12 −8 −24.
    (
        "everybody doubles everybody",
        hand("no_tricks", TRICKS, EVERY_NEGATIVE_DOUBLE),
        (-2, -20, 52, -56),
    ),
    # Equal raw scores: nothing moves, doubled or redoubled.
    ("equal, redoubled", hand("no_tricks", counts(4, 4, 0, 5), "Bo>Ana Ana>Bo"), (-8, -8, 0, -10)),
    ("equal at zero", no_last_two("Bo", "Cy", "Di>Ana"), (0, -10, -20, 0)),
    # Positive contracts: only the declarer is doubled.
    ("trumps, the doubler wins", hand("trumps", TRICKS, "Bo>Ana"), (10, 25, 0, 30)),
    ("trumps, redoubled", hand("trumps", TRICKS, "Bo>Ana Ana>Bo"), (5, 30, 0, 30)),
    ("trumps, the declarer wins", hand("trumps", TRICKS, "Cy>Ana"), (30, 20, -15, 30)),
    # Bo +5 from Ana; Ana +15 from Cy; Di ×2 diff 15: Di +30. Ana 15 −5 +15 −30.
    (
        "trumps, three doubles and a redouble",
        hand("trumps", TRICKS, "Bo>Ana Cy>Ana Di>Ana Ana>Di"),
        (-5, 25, -15, 60),
    ),
    ("dominoes, double", dominoes("Cy Ana Di Bo", "Cy>Ana"), (-5, -5, 70, 5)),  # diff 25
    ("dominoes, redoubled", dominoes("Cy Ana Di Bo", "Bo>Ana Ana>Bo"), (70, -55, 45, 5)),
]


@pytest.mark.parametrize(
    ("entered", "expected"), [case[1:] for case in SETTLED], ids=[case[0] for case in SETTLED]
)
def test_doubles_settle_pair_by_pair(entered, expected):
    played = play(table(), entered).rounds[0]
    assert played.scores == dict(zip(PLAYERS, expected, strict=True))
    assert sum(played.scores.values()) == TOTALS[entered["contract"]]


def test_equal_raw_scores_say_nothing_moves():
    played = play(table(), hand("no_tricks", counts(4, 4, 0, 5), "Bo>Ana Ana>Bo")).rounds[0]
    settled = [sentence for sentence in played.explanation if sentence.startswith("Ana–Bo")]
    assert len(settled) == 1
    assert "nothing moves" in settled[0]


@pytest.mark.parametrize("entered", [case[1] for case in RAW], ids=[case[0] for case in RAW])
def test_net_scores_add_up_to_the_contracts_total_whatever_the_doubles(entered):
    positive = entered["contract"] in ("trumps", "dominoes")
    doubles = EVERY_POSITIVE_DOUBLE if positive else EVERY_NEGATIVE_DOUBLE
    played = play(table(), {**entered, "doubles": pairs(doubles)}).rounds[0]
    assert sum(played.scores.values()) == TOTALS[entered["contract"]]
    assert sum(played.extra["raw"].values()) == TOTALS[entered["contract"]]


@pytest.mark.parametrize("contract", NEGATIVE)
def test_any_player_may_double_any_other_in_a_negative_contract(contract):
    entered = next(case[1] for case in RAW if case[1]["contract"] == contract)
    played = play(table(), {**entered, "doubles": pairs("Di>Bo Cy>Di Di>Cy")})
    assert len(played.rounds) == 1


@pytest.mark.parametrize(
    ("entered", "paths"),
    [
        (hand("trumps", TRICKS, "Bo>Cy"), ["doubles.0"]),
        (hand("trumps", TRICKS, "Bo>Cy Cy>Bo"), ["doubles.0", "doubles.1"]),
        (dominoes("Cy Ana Di Bo", "Bo>Ana Cy>Di"), ["doubles.1"]),
        (dominoes("Cy Ana Di Bo", "Di>Bo"), ["doubles.0"]),
    ],
)
def test_only_the_declarer_may_be_doubled_in_a_positive_contract(entered, paths):
    stopped = impossible(table(), entered)
    assert stopped.n == 1
    assert sorted(stopped.refusal.fields) == paths
    assert "only the declarer, Ana, may be doubled" in " ".join(stopped.refusal.fields[paths[0]])


@pytest.mark.parametrize(
    ("entered", "path"),
    [
        (hand("no_tricks", TRICKS, "Ana>Bo"), "doubles.0"),
        (hand("trumps", TRICKS, "Ana>Bo"), "doubles.0"),
        # Cy doubled Ana, but Ana doubling Bo is not a redouble.
        (hand("no_queens", counts(1, 2, 0, 1), "Cy>Ana Ana>Bo"), "doubles.1"),
    ],
)
def test_the_declarer_may_not_double_first(entered, path):
    stopped = impossible(table(), entered)
    assert stopped.n == 1
    assert_at(stopped.refusal, path, "may only redouble a player who doubled them")


def test_the_declarer_may_redouble_whichever_order_the_pairs_come_in():
    first = play(table(), hand("no_tricks", TRICKS, "Ana>Bo Bo>Ana")).rounds[0]
    assert first.scores == {"Ana": -2, "Bo": -12, "Cy": 0, "Di": -12}


def test_a_doubled_player_who_does_not_declare_may_redouble_in_a_negative_contract():
    # Bo doubles Di, Di redoubles: Bo −12 vs Di −6, twice 6 = 12 to Di.
    played = play(table(), hand("no_queens", counts(1, 2, 0, 1), "Bo>Di Di>Bo")).rounds[0]
    assert played.scores == {"Ana": -6, "Bo": -24, "Cy": 0, "Di": 6}


# --- The declarer's turn -----------------------------------------------------------------------


def test_the_first_declarer_defaults_to_the_first_player():
    assert table().options["first_declarer"] == "Ana"
    assert table("bo").options["first_declarer"] == "Bo"


def test_an_unknown_first_declarer_is_refused():
    with pytest.raises(Refusal) as refusal:
        table("Zed")
    assert "options.first_declarer" in refusal.value.fields


def test_a_new_match_waits_for_the_first_declarers_first_hand():
    assert play(table("Cy")).state == {
        "declarer": "Cy",
        "hand_in_block": 1,
        "contracts_left": list(CONTRACTS),
        "doubles_of_declarer": {"Ana": 0, "Bo": 0, "Di": 0},
        "compulsory": [],
        "dealer": "Cy",
    }


def test_each_player_declares_seven_hands_then_the_next_seat():
    hands = block("Bo") + block("Cy") + block("Di") + block("Ana")
    replay = play(table("Bo"), *hands)
    assert [played.extra["declarer"] for played in replay.rounds] == (
        ["Bo"] * 7 + ["Cy"] * 7 + ["Di"] * 7 + ["Ana"] * 7
    )
    assert [played.extra["hand_in_block"] for played in replay.rounds] == list(range(1, 8)) * 4


@pytest.mark.parametrize(
    ("played", "declarer", "hand_in_block", "contracts_left"),
    [
        (0, "Bo", 1, CONTRACTS),
        (1, "Bo", 2, CONTRACTS[1:]),
        (6, "Bo", 7, ("dominoes",)),
        (7, "Cy", 1, CONTRACTS),
        (10, "Cy", 4, CONTRACTS[3:]),
        (21, "Ana", 1, CONTRACTS),
        (27, "Ana", 7, ("dominoes",)),
    ],
)
def test_the_state_names_the_turn(played, declarer, hand_in_block, contracts_left):
    hands = block("Bo") + block("Cy") + block("Di") + block("Ana")
    state = play(table("Bo"), *hands[:played]).state
    assert state["declarer"] == declarer
    assert state["hand_in_block"] == hand_in_block
    assert state["contracts_left"] == list(contracts_left)


def test_a_declarer_given_and_right_is_accepted_in_any_case():
    replay = play(table("Bo"), {**block("Bo")[0], "declarer": "bo"})
    assert replay.rounds[0].extra["declarer"] == "Bo"


@pytest.mark.parametrize(
    ("before", "declarer", "n"),
    [(0, "Ana", 1), (3, "Cy", 4), (7, "Bo", 8), (7, "Di", 8)],
)
def test_a_declarer_given_but_wrong_stops_the_replay_at_that_hand(before, declarer, n):
    hands = block("Bo") + block("Cy")
    stopped = impossible(table("Bo"), *hands[:before], {**hands[before], "declarer": declarer})
    assert stopped.n == n
    assert list(stopped.refusal.fields) == ["declarer"]


def test_a_declarer_who_is_not_a_player_is_refused_at_read_round():
    assert_at(refused({**barbu("Cy"), "declarer": "Zed"}), "declarer", "not a player")


def test_a_contract_repeated_in_a_block_is_refused():
    first = hand("no_tricks", TRICKS)
    stopped = impossible(table(), first, barbu("Cy"), hand("no_tricks", counts(0, 0, 13, 0)))
    assert stopped.n == 3
    assert list(stopped.refusal.fields) == ["contract"]
    message = " ".join(stopped.refusal.fields["contract"])
    assert "No tricks" in message


def test_the_next_declarer_may_choose_the_contracts_again():
    replay = play(table(), *block("Ana"), hand("no_tricks", TRICKS, "Cy>Bo Di>Bo Ana>Bo"))
    assert replay.rounds[7].extra["declarer"] == "Bo"
    assert replay.state["contracts_left"] == list(CONTRACTS[1:])


# --- The obligation: every other player doubles the declarer twice in the block -----------------

# Ana declares; Cy and Di double her in hands 1 and 2; Bo leaves it to hands 6 and 7.
OWING = [
    hand("no_tricks", TRICKS, "Cy>Ana Di>Ana"),
    hand("no_queens", counts(1, 2, 0, 1), "Cy>Ana Di>Ana"),
    no_hearts(counts(2, 5, 0, 6), "Bo"),
    no_last_two("Bo", "Cy", "Bo>Cy"),  # doubling someone else does not count
    barbu("Di"),
    hand("trumps", TRICKS, "Bo>Ana"),
    dominoes("Cy Ana Di Bo", "Bo>Ana"),
]


def test_after_five_hands_without_doubling_bo_must_double_in_hand_6():
    assert play(table(), *OWING[:4]).state["compulsory"] == []  # 0 + 2 hands left after 5
    state = play(table(), *OWING[:5]).state
    assert state["hand_in_block"] == 6
    assert state["doubles_of_declarer"] == {"Bo": 0, "Cy": 2, "Di": 2}
    assert state["compulsory"] == ["Bo"]


def test_hand_6_without_bo_doubling_the_declarer_is_refused():
    stopped = impossible(table(), *OWING[:5], hand("trumps", TRICKS, "Cy>Ana"))
    assert stopped.n == 6
    assert list(stopped.refusal.fields) == ["doubles"]
    assert "Bo must double Ana" in stopped.refusal.message


def test_hand_7_without_bos_second_double_is_refused():
    state = play(table(), *OWING[:6]).state
    assert state["doubles_of_declarer"] == {"Bo": 1, "Cy": 2, "Di": 2}
    assert state["compulsory"] == ["Bo"]
    stopped = impossible(table(), *OWING[:6], dominoes("Cy Ana Di Bo"))
    assert stopped.n == 7
    assert "Bo" in " ".join(stopped.refusal.fields["doubles"])


def test_the_obligation_met_the_next_block_starts_clean():
    state = play(table(), *OWING).state
    assert state["declarer"] == "Bo"
    assert state["doubles_of_declarer"] == {"Ana": 0, "Cy": 0, "Di": 0}
    assert state["compulsory"] == []


@pytest.mark.parametrize(
    ("bo_in", "cy_in", "played", "compulsory"),
    [
        # After hand k a player with d doubles needs d + (7 − k) ≥ 2: before hand k + 1 a
        # double is compulsory when d + (7 − (k + 1)) < 2.
        ((), (1, 2), 4, []),  # 0 + 2
        ((), (1, 2), 5, ["Bo"]),  # 0 + 1
        ((), (), 5, ["Bo", "Cy"]),
        ((1,), (), 5, ["Cy"]),  # Bo 1 + 1
        ((1,), (1, 2), 6, ["Bo"]),  # 1 + 0
        ((1, 3), (1, 2), 6, []),  # 2 + 0
        ((1, 2, 3, 4, 5), (4, 5), 5, []),
        ((6,), (1, 2), 6, ["Bo"]),  # Bo 1 + 0
    ],
)
def test_compulsory_doubles_before_the_next_hand(bo_in, cy_in, played, compulsory):
    hands = [
        {
            **entered,
            "doubles": [
                [name, "Ana"]
                for name, doubled_in in (("Bo", bo_in), ("Cy", cy_in), ("Di", (1, 2)))
                if k in doubled_in
            ],
        }
        for k, entered in enumerate(OWING, start=1)
    ]
    state = play(table(), *hands[:played]).state
    assert state["compulsory"] == compulsory
    assert state["doubles_of_declarer"]["Bo"] == sum(k <= played for k in bo_in)


# --- The end of the match ----------------------------------------------------------------------


def test_a_full_match_finishes_after_28_hands_highest_total_wins():
    # First declarer Bo; Bo, Cy and Di are doubled in hands 1–2, Ana in hands 6–7 (trumps and
    # dominoes, where she takes everything). Raw: each player once declarer (−20), left (+20),
    # opposite (+5), right (−5): 0. Doubles in hands 1–2 of X's block: X −78 −72 = −150, the
    # others +26 +24 = +50; in hands 6–7 of Ana's: Ana +195 +115 = +310, Bo −65 −25 = −90,
    # Cy −65 −40 = −105, Di −65 −50 = −115.
    # Ana 50 + 50 + 50 + 310 = 460; Bo −150 + 50 + 50 − 90 = −140;
    # Cy 50 − 150 + 50 − 105 = −155; Di 50 + 50 − 150 − 115 = −165.
    hands = block("Bo") + block("Cy") + block("Di") + block("Ana", doubled_in=(6, 7))
    replay = play(table("Bo"), *hands)
    # After Bo's block: Bo −20 − 150, Cy 20 + 50, Di 5 + 50, Ana −5 + 50.
    assert replay.rounds[6].totals == {"Ana": 45, "Bo": -170, "Cy": 70, "Di": 55}
    assert replay.totals == {"Ana": 460, "Bo": -140, "Cy": -155, "Di": -165}
    assert sum(replay.totals.values()) == 0
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Ana", 28)
    assert "shared_first" not in replay.state
    assert replay.rounds[-1].totals == replay.totals


def test_the_match_plays_on_until_the_28th_hand():
    hands = block("Ana") + block("Bo") + block("Cy") + block("Di")
    replay = play(table(), *hands[:27])
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)
    assert replay.state["declarer"] == "Di"
    assert replay.state["hand_in_block"] == 7


def test_a_shared_first_place_has_no_winner():
    # Ana and Cy are doubled in hands 6–7, Bo and Di in hands 1–2 (see the full match above).
    # Ana 310 + 50 (right of Bo) − 105 (opposite Cy) + 50 (left of Di) = 305;
    # Cy −105 (opposite Ana) + 50 (left of Bo) + 310 + 50 (right of Di) = 305;
    # Bo −90 − 150 − 115 + 50 = −305; Di −115 + 50 − 90 − 150 = −305.
    hands = (
        block("Ana", doubled_in=(6, 7)) + block("Bo") + block("Cy", doubled_in=(6, 7)) + block("Di")
    )
    replay = play(table(), *hands)
    assert replay.totals == {"Ana": 305, "Bo": -305, "Cy": 305, "Di": -305}
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, None, 28)
    assert replay.state["shared_first"] == ["Ana", "Cy"]


def test_all_four_level_share_first_place():
    # Every block alike relative to its declarer: everybody ends on 0.
    hands = block("Ana") + block("Bo") + block("Cy") + block("Di")
    replay = play(table(), *hands)
    assert replay.totals == dict.fromkeys(PLAYERS, 0)
    assert (replay.status, replay.winner) == (FINISHED, None)
    assert replay.state["shared_first"] == list(PLAYERS)


def test_a_29th_hand_is_refused():
    hands = block("Ana") + block("Bo") + block("Cy") + block("Di")
    stopped = impossible(table(), *hands, hand("no_tricks", TRICKS, "Bo>Ana Cy>Ana Di>Ana"))
    assert stopped.n == 29
    assert "28 hands" in stopped.refusal.message


# --- Shape refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entered", "path", "words"),
    [
        (hand("no_tricks", counts(3, 4, 0, 5)), "taken", "add up to 13"),
        (hand("trumps", counts(3, 4, 1, 6)), "taken", "add up to 13"),
        (hand("no_queens", counts(1, 2, 0, 2)), "taken", "add up to 4"),
        (no_hearts(counts(2, 5, 0, 5), "Bo"), "taken", "add up to 13"),
        (hand("no_tricks", {"Ana": 3, "Bo": 4, "Cy": 6}), "taken.Di", "Di"),
        (hand("no_tricks", {**TRICKS, "Zed": 0}), "taken.Zed", "not a player"),
        (hand("no_tricks", {**TRICKS, "bo": 4}), "taken.bo", "given twice"),
        (hand("no_tricks", counts(0, 14, 0, 0)), "taken.Bo", "between 0 and 13"),
        (hand("no_tricks", counts(3, -1, 0, 11)), "taken.Bo", "between 0 and 13"),
        (hand("no_tricks", {**TRICKS, "Bo": "4"}), "taken.Bo", "between 0 and 13"),
        (hand("no_tricks", {**TRICKS, "Bo": True}), "taken.Bo", "between 0 and 13"),
        (hand("no_queens", counts(0, 5, 0, 0)), "taken.Bo", "between 0 and 4"),
        (hand("no_tricks", [3, 4, 0, 6]), "taken", "player name"),
        (no_hearts(counts(2, 5, 0, 6), "Cy"), "ace_of_hearts", "at least one heart"),
        (hand("no_hearts", counts(2, 5, 0, 6)), "ace_of_hearts", "A♥"),
        (no_hearts(counts(2, 5, 0, 6), "Zed"), "ace_of_hearts", "not a player"),
        (hand("no_last_two", {"second_last": "Bo"}), "taken.last", "last trick"),
        (no_last_two("Zed", "Bo"), "taken.second_last", "not a player"),
        (hand("barbu", {}), "taken.king_of_hearts", "K♥"),
        (hand("barbu", "Cy"), "taken", "Barbu"),
        (dominoes("Ana Bo Cy Ana"), "taken.order.3", "twice"),
        (dominoes("Ana Bo Bo Cy"), "taken.order.2", "twice"),
        (dominoes("Ana Bo Cy"), "taken.order", "all four"),
        (dominoes("Ana Bo Cy Zed"), "taken.order.3", "not a player"),
        (hand("misere", TRICKS), "contract", "No tricks"),
        ({"taken": TRICKS}, "contract", "No tricks"),
        (hand("no_tricks", TRICKS, "Bo>Bo"), "doubles.0", "themselves"),
        (hand("no_tricks", TRICKS, "Cy>Ana Bo>Ana Bo>Ana"), "doubles.2", "only once"),
        (hand("no_tricks", TRICKS, "Bo>Zed"), "doubles.0", "not a player"),
        (hand("no_tricks", TRICKS, "Cy>Ana Zed>Ana"), "doubles.1", "not a player"),
        ({**hand("no_tricks", TRICKS), "doubles": [["Bo", "Ana", "Cy"]]}, "doubles.0", "pair"),
        ({**hand("no_tricks", TRICKS), "doubles": "Bo>Ana"}, "doubles", "pairs"),
        ({**hand("no_tricks", TRICKS), "ace_of_hearts": "Bo"}, "ace_of_hearts", "no field"),
    ],
)
def test_bad_hands_are_refused_by_field(entered, path, words):
    assert_at(refused(entered), path, words)


def test_a_hand_that_is_not_an_object_is_refused():
    assert refused(["no_tricks"]).message


def test_every_mistake_in_a_hand_is_named_at_once():
    refusal = refused(hand("no_tricks", counts(0, 14, 0, 0), "Bo>Bo"))
    assert {"taken.Bo", "doubles.0"} <= set(refusal.fields)


# --- Who deals: the declarer, seven hands each, the deal passing to the left ---------------------


@pytest.mark.parametrize(
    ("first", "dealers"),
    [
        pytest.param(None, ["Ana", "Ana", "Ana", "Bo", "Cy", "Di", "Ana"], id="first-player"),
        pytest.param("Cy", ["Cy", "Cy", "Cy", "Di", "Ana", "Bo", "Cy"], id="cy-first"),
    ],
)
def test_the_declarer_deals_and_the_deal_passes_to_the_left(first, dealers):
    start = first or "Ana"
    hands = [hand for declarer in (start, *seats_after(start)) for hand in block(declarer)]
    played = (0, 1, 2, 7, 14, 21, 28)
    seated = table(first)
    assert [play(seated, *hands[:n]).state["dealer"] for n in played] == dealers
    assert [result.dealer for result in play(seated, *hands).rounds[::7]] == dealers[2:6]


def test_barbu_has_no_first_dealer_option_its_declarer_deals():
    with pytest.raises(Refusal) as refusal:
        BARBU.read_table({"players": list(PLAYERS), "options": {"first_dealer": "Ana"}})
    assert "options.first_dealer" in refusal.value.fields  # Barbu's dealer is its declarer


def test_the_rules_say_the_declarer_deals():
    rules = {rule.title: rule.text for rule in BARBU.rules(table("Bo").options)}
    assert rules["Who deals"] == (
        "The declarer deals each hand: Bo the first seven, then the player to the left (clockwise)."
    )
