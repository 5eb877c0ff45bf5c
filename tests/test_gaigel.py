"""Gaigel rules, pure: RULES.md §4 and its example, the outcomes, the Aus checker's evidence, the
stroke slate (given, then erased), six players, and the three-player tournament.

Teams Oben (A, C) and Unten (B, D) unless a test says otherwise; strokes 10.
A single (aus, five sevens, auf Farbe) is worth 1 stroke, a double (gaigel, untergaigeln,
übergaigeln) 2. Evidence describes the team that called Aus (for a claimed untergaigeln the other
team; for übergaigeln the caught team): card points + marriages (once it has a trick) vs 101.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorers import GAMES, Refusal, Table
from scorers.base import FINISHED, PLAYING
from tests.rules_helpers import assert_at, said

GAIGEL = GAMES["gaigel"]

TEAMS = {"Oben": ["A", "C"], "Unten": ["B", "D"]}
SIX = {"Oben": ["A", "C", "E"], "Unten": ["B", "D", "F"]}
THREE = ("A", "B", "C")


def table(teams: dict[str, list[str]] | None = None, **options: Any) -> Table:
    """Seat two teams (Oben and Unten of two unless given) with the given options."""
    return GAIGEL.read_table({"teams": teams or TEAMS, "options": options})


def three(**options: Any) -> Table:
    """Seat A, B and C, each for themselves."""
    return GAIGEL.read_table({"players": list(THREE), "options": {"mode": "three", **options}})


def ev(points: int, *marriages: int, **tricks: int) -> dict[str, Any]:
    """Write the evidence: the calling team's card points, its marriages, and tricks if given."""
    return {"points": points, "marriages": list(marriages), **tricks}


def deal(
    winner: str, outcome: str | None = None, evidence: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Write a team deal as the API takes it (no outcome: the evidence decides)."""
    entered: dict[str, Any] = {"winner": winner}
    if outcome is not None:
        entered["outcome"] = outcome
    if evidence is not None:
        entered["evidence"] = evidence
    return entered


def hand(
    a: int, b: int, c: int, *, no_trick: str = "", took: str = "", cut: str = ""
) -> dict[str, Any]:
    """Write a three-player deal: card points of A, B, C; who took no trick (or did, with 0
    points), and the cut order ("C B": C cut best)."""
    took_trick = {name: False for name in no_trick.split()}
    took_trick |= {name: True for name in took.split()}
    entered: dict[str, Any] = {"card_points": {"A": a, "B": b, "C": c}}
    if took_trick:
        entered["took_trick"] = took_trick
    if cut:
        entered["cut_order"] = cut.split()
    return entered


def play(seated: Table, *deals: dict[str, Any]):
    """Read every deal as the API would, then replay them."""
    return GAIGEL.replay(seated, [GAIGEL.read_round(seated, entered) for entered in deals])


def refused(seated: Table, entered: Any) -> Refusal:
    """Return the refusal of one deal."""
    with pytest.raises(Refusal) as refusal:
        GAIGEL.read_round(seated, entered)
    return refusal.value


def mark(kind: str, units: int, crossed: int = 0) -> dict[str, Any]:
    """Write one stroke mark as the board shows it."""
    return {"kind": kind, "units": units, "crossed": crossed}


def strokes(oben: int, unten: int) -> dict[str, int]:
    """Strokes per team."""
    return {"Oben": oben, "Unten": unten}


def points(a: int, b: int, c: int) -> dict[str, int]:
    """Game points per player."""
    return dict(zip(THREE, (a, b, c), strict=True))


# --- Seating and options -------------------------------------------------------------------------


def test_four_players_partners_alternate():
    seated = table()
    assert seated.players == ("A", "B", "C", "D")
    assert dict(seated.teams) == {"Oben": ("A", "C"), "Unten": ("B", "D")}


def test_six_players_in_teams_of_three_alternate():
    seated = table(SIX)
    assert seated.players == ("A", "B", "C", "D", "E", "F")
    assert dict(seated.teams) == {"Oben": ("A", "C", "E"), "Unten": ("B", "D", "F")}


def test_three_players_play_alone():
    seated = three()
    assert seated.players == THREE
    assert not seated.teams
    assert seated.options["mode"] == "three"


def test_options_take_their_defaults():
    assert dict(table().options) == {
        "mode": "teams",
        "strokes": 10,
        "five_sevens": False,
        "auf_farbe": False,
        "first_dealer": "A",
    }
    assert table(strokes=4, five_sevens=True).options["strokes"] == 4


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"teams": {"Oben": ["A"], "Unten": ["B"]}}, "teams"),  # 2 players
        ({"teams": {"Oben": ["A", "C"], "Unten": ["B", "D", "F"]}}, "teams"),  # 2 against 3
        ({"teams": {"Oben": ["A", "C", "E", "G"], "Unten": ["B", "D", "F", "H"]}}, "teams"),
        ({"players": ["A", "B", "C"]}, "teams"),  # three players need the mode
        ({"players": ["A", "B", "C", "D"], "options": {"mode": "three"}}, "players"),
        ({"teams": TEAMS, "options": {"mode": "three"}}, "players"),
        ({"teams": TEAMS, "options": {"mode": "solo"}}, "options.mode"),
        ({"teams": TEAMS, "options": {"strokes": 0}}, "options.strokes"),
        ({"teams": TEAMS, "options": {"strokes": 41}}, "options.strokes"),
        ({"teams": TEAMS, "options": {"strokes": "10"}}, "options.strokes"),
        ({"teams": TEAMS, "options": {"five_sevens": "yes"}}, "options.five_sevens"),
        ({"teams": TEAMS, "options": {"auf_farbe": 1}}, "options.auf_farbe"),
        ({"teams": TEAMS, "options": {"schneider": True}}, "options.schneider"),
    ],
)
def test_bad_tables_are_refused_by_field(data, path):
    with pytest.raises(Refusal) as refusal:
        GAIGEL.read_table(data)
    assert path in refusal.value.fields, refusal.value.fields


# --- RULES.md example ----------------------------------------------------------------------------

EXAMPLE = [
    deal("Oben", "aus"),  # Unten 1 (1 given)
    deal("Unten", "gaigel"),  # Oben 2 (3 given)
    deal("Oben", "aus"),  # Unten 1 + 1 = 2 (4 given)
    deal("Unten", "untergaigeln"),  # Oben called Aus with 96: Oben 2 + 2 = 4 (6 given)
]
EXAMPLE_BY_EVIDENCE = [
    deal("Oben", evidence=ev(90, 20, loser_tricks=3)),  # 90 + 20 = 110 ≥ 101, Unten took 3
    deal("Unten", evidence=ev(131, 40, loser_tricks=0)),  # 131 + 40 = 171, Oben took none
    deal("Oben", evidence=ev(101, loser_tricks=1)),  # exactly 101
    deal("Oben", evidence=ev(96)),  # Oben calls Aus with 96 < 101
]
EXAMPLE_CLAIMED_WITH_EVIDENCE = [
    deal("Oben", "aus", ev(90, 20, loser_tricks=3)),
    deal("Unten", "gaigel", ev(131, 40, loser_tricks=0)),
    deal("Oben", "aus", ev(101, loser_tricks=1)),
    deal("Unten", "untergaigeln", ev(96)),  # the evidence is the caller's: Oben's 96
]
EXAMPLE_STATE = {
    "phase": "giving",
    "given": 6,
    "pool": 4,  # 10 − 6
    "board": {"Oben": [mark("V", 2), mark("V", 2)], "Unten": [mark("I", 1), mark("I", 1)]},
}


@pytest.mark.parametrize(
    "deals",
    [EXAMPLE, EXAMPLE_BY_EVIDENCE, EXAMPLE_CLAIMED_WITH_EVIDENCE],
    ids=["outcomes", "evidence", "outcomes-checked-by-evidence"],
)
def test_rules_example(deals):
    replay = play(table(), *deals)
    assert [r.scores for r in replay.rounds] == [
        strokes(0, 1),
        strokes(2, 0),
        strokes(0, 1),
        strokes(2, 0),
    ]
    assert [r.totals for r in replay.rounds] == [
        strokes(0, 1),
        strokes(2, 1),
        strokes(2, 2),
        strokes(4, 2),
    ]
    assert replay.totals == strokes(4, 2)
    assert replay.state == EXAMPLE_STATE | {"dealer": "A"}  # four deals: round the table once
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)
    for played in replay.rounds:
        said(played)


def test_rules_example_evidence_is_stored_as_the_derived_outcomes():
    seated = table()
    read = [GAIGEL.read_round(seated, entered) for entered in EXAMPLE_BY_EVIDENCE]
    assert [(r["winner"], r["outcome"]) for r in read] == [
        ("Oben", "aus"),
        ("Unten", "gaigel"),
        ("Oben", "aus"),
        ("Unten", "untergaigeln"),  # Oben called: the deal is Unten's
    ]
    assert read[3]["evidence"]["points"] == 96
    claimed = [GAIGEL.read_round(seated, entered) for entered in EXAMPLE_CLAIMED_WITH_EVIDENCE]
    assert [(r["winner"], r["outcome"]) for r in claimed] == [
        (r["winner"], r["outcome"]) for r in read
    ]


def test_rules_example_sentences_give_the_strokes_and_the_count():
    replay = play(table(), *EXAMPLE)
    assert "4 of 10" in said(replay.rounds[2])
    assert "6 of 10" in said(replay.rounds[3])


# --- Outcomes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "options", "taken", "kind"),
    [
        ("aus", {}, 1, "I"),
        ("gaigel", {}, 2, "V"),
        ("untergaigeln", {}, 2, "V"),
        ("uebergaigeln", {}, 2, "V"),
        ("five_sevens", {"five_sevens": True}, 1, "I"),
        ("auf_farbe", {"auf_farbe": True}, 1, "I"),
    ],
)
def test_each_outcome_gives_the_losers_a_single_or_a_double(outcome, options, taken, kind):
    replay = play(table(**options), deal("Unten", outcome))
    assert replay.rounds[0].scores == strokes(taken, 0)
    assert replay.totals == strokes(taken, 0)
    assert replay.state["given"] == taken
    assert replay.state["pool"] == 10 - taken
    assert replay.state["board"] == {"Oben": [mark(kind, taken)], "Unten": []}
    said(replay.rounds[0])


def test_a_deal_is_read_with_names_in_any_case():
    assert GAIGEL.read_round(table(), {"winner": "oBEN", "outcome": "gaigel"}) == {
        "winner": "Oben",
        "outcome": "gaigel",
    }


@pytest.mark.parametrize(
    ("options", "outcome"),
    [
        ({}, "five_sevens"),
        ({}, "auf_farbe"),
        ({"auf_farbe": True}, "five_sevens"),
        ({"five_sevens": True}, "auf_farbe"),
    ],
)
def test_a_variant_outcome_needs_its_option(options, outcome):
    assert_at(
        refused(table(**options), deal("Oben", outcome)), "outcome", "not played in this match"
    )


@pytest.mark.parametrize(
    ("entered", "path", "words"),
    [
        (deal("Oben", "schneider"), "outcome", "not an outcome"),
        (deal("Oben"), "outcome", "aus"),  # neither outcome nor evidence
        (deal("Mitte", "aus"), "winner", "Oben"),
        ({"outcome": "aus"}, "winner", "Unten"),
        (deal("A", "aus"), "winner", "Oben"),  # a player is not a team
        ({**deal("Oben", "aus"), "strokes": 2}, "strokes", "strokes"),
        (deal("Oben", "aus", "110"), "evidence", "points"),
    ],
)
def test_bad_deals_are_refused_by_field(entered, path, words):
    assert_at(refused(table(), entered), path, words)


def test_a_deal_that_is_not_an_object_is_refused():
    assert refused(table(), ["Oben", "aus"]).message


def test_every_mistake_in_a_deal_is_named_at_once():
    refusal = refused(table(), {"winner": "Mitte", "outcome": "schneider"})
    assert {"winner", "outcome"} <= set(refusal.fields)


# --- The Aus checker -----------------------------------------------------------------------------

JUDGED = [
    # Caller Oben; ≥ 101 with the losers on a trick: aus.
    ("101 in cards", "Oben", ev(101, loser_tricks=1), ("Oben", "aus")),
    ("loser tricks not given", "Oben", ev(150), ("Oben", "aus")),
    ("81 + 20 = 101", "Oben", ev(81, 20, loser_tricks=4), ("Oben", "aus")),
    ("61 + 40 = 101, Unten calls", "Unten", ev(61, 40), ("Unten", "aus")),
    # Losers took no trick: Gaigel.
    ("120, Unten trickless", "Oben", ev(120, loser_tricks=0), ("Oben", "gaigel")),
    ("21 + 40 + 40 = 101, trickless", "Oben", ev(21, 40, 40, loser_tricks=0), ("Oben", "gaigel")),
    # Under 101: untergaigeln, the other team wins.
    ("100 in cards", "Oben", ev(100, loser_tricks=2), ("Unten", "untergaigeln")),
    ("80 + 20 = 100", "Oben", ev(80, 20), ("Unten", "untergaigeln")),
    ("under 101 though trickless", "Oben", ev(96, loser_tricks=0), ("Unten", "untergaigeln")),
    ("Unten calls with 96", "Unten", ev(96), ("Oben", "untergaigeln")),
    # Marriages count only once the caller has a trick: 0 points and no caller_tricks is none.
    ("0 + marriages, no trick", "Oben", ev(0, 40, 40, 20, 20), ("Unten", "untergaigeln")),
    # 0 + 40 + 40 + 20 + 20 = 120 with a trick of sevens.
    ("0 + 120, a trick", "Oben", ev(0, 40, 40, 20, 20, caller_tricks=1), ("Oben", "aus")),
    ("0 + 40, caller_tricks 0", "Oben", ev(0, 40, caller_tricks=0), ("Unten", "untergaigeln")),
    ("61 + 40, caller_tricks 2", "Oben", ev(61, 40, caller_tricks=2), ("Oben", "aus")),
    # All the marriages of a double pack: 40 + 40 + 6 × 20 = 200.
    ("every marriage", "Oben", ev(0, 40, 40, *[20] * 6, caller_tricks=1), ("Oben", "aus")),
]


@pytest.mark.parametrize(
    ("caller", "evidence", "expected"),
    [case[1:] for case in JUDGED],
    ids=[case[0] for case in JUDGED],
)
def test_evidence_without_an_outcome_derives_it(caller, evidence, expected):
    read = GAIGEL.read_round(table(), deal(caller, evidence=evidence))
    assert (read["winner"], read["outcome"]) == expected
    assert read["evidence"]["points"] == evidence["points"]
    assert sorted(read["evidence"]["marriages"]) == sorted(evidence["marriages"])
    loser = "Unten" if expected[0] == "Oben" else "Oben"
    taken = 1 if expected[1] == "aus" else 2
    assert play(table(), deal(caller, evidence=evidence)).totals == {expected[0]: 0, loser: taken}


@pytest.mark.parametrize(
    ("caller", "evidence", "expected"),
    [case[1:] for case in JUDGED],
    ids=[case[0] for case in JUDGED],
)
def test_the_derived_outcome_may_also_be_claimed(caller, evidence, expected):
    winner, outcome = expected
    read = GAIGEL.read_round(table(), deal(winner, outcome, evidence))
    assert (read["winner"], read["outcome"]) == expected


CONTRADICTED = [
    # Oben 96 < 101: not an Aus but untergaigeln.
    ("aus under 101", deal("Oben", "aus", ev(96)), "101"),
    ("aus under 101 with marriages", deal("Oben", "aus", ev(80, 20)), "101"),
    ("aus, marriages without a trick", deal("Oben", "aus", ev(0, 40, 40, 20, 20)), "trick"),
    # Unten took no trick: a Gaigel, not a single.
    ("aus that was a Gaigel", deal("Oben", "aus", ev(120, loser_tricks=0)), "Gaigel"),
    # Unten took 2 tricks: a single, not a Gaigel.
    ("gaigel with loser tricks", deal("Oben", "gaigel", ev(120, loser_tricks=2)), "took a trick"),
    ("gaigel under 101", deal("Oben", "gaigel", ev(100, loser_tricks=0)), "101"),
    # Untergaigeln claimed for Unten: Oben called, but with 101 the call was right.
    ("untergaigeln over 101", deal("Unten", "untergaigeln", ev(101)), "101"),
    ("untergaigeln, 81 + 20", deal("Unten", "untergaigeln", ev(81, 20)), "101"),
    # Übergaigeln: the caught team (Oben) must hold 101.
    ("uebergaigeln under 101", deal("Unten", "uebergaigeln", ev(100)), "101"),
    (
        "uebergaigeln, marriages without a trick",
        deal("Unten", "uebergaigeln", ev(0, 40, 40, 20, 20)),
        "101",
    ),
]


@pytest.mark.parametrize(
    ("entered", "words"),
    [case[1:] for case in CONTRADICTED],
    ids=[case[0] for case in CONTRADICTED],
)
def test_a_claim_the_evidence_contradicts_is_refused_at_outcome(entered, words):
    assert_at(refused(table(), entered), "outcome", words)


@pytest.mark.parametrize(
    ("entered", "expected"),
    [
        # Unten's tricks not given: nothing says Unten took a trick, so a Gaigel stands ...
        (deal("Oben", "gaigel", ev(120)), ("Oben", "gaigel")),
        (deal("Oben", "gaigel", ev(81, 20)), ("Oben", "gaigel")),  # 81 + 20 = 101
        # ... and so does a single.
        (deal("Oben", "aus", ev(120)), ("Oben", "aus")),
    ],
)
def test_a_claim_the_evidence_leaves_open_is_accepted(entered, expected):
    read = GAIGEL.read_round(table(), entered)
    assert (read["winner"], read["outcome"]) == expected


def test_the_reason_names_the_count():
    refusal = refused(table(), deal("Oben", "aus", ev(76, 20)))
    assert "96" in " ".join(refusal.fields["outcome"])  # 76 + 20 = 96
    assert "Untergaigeln" in " ".join(refusal.fields["outcome"])


@pytest.mark.parametrize(
    "evidence",
    [
        ev(101),
        ev(61, 40),  # 61 + 40 = 101
        ev(0, 40, 40, 20, 20, caller_tricks=1),  # 120 with a trick
        ev(130, loser_tricks=0),  # whether the catchers took a trick does not matter
    ],
)
def test_uebergaigeln_is_checked_against_the_caught_team(evidence):
    read = GAIGEL.read_round(table(), deal("Unten", "uebergaigeln", evidence))
    assert (read["winner"], read["outcome"]) == ("Unten", "uebergaigeln")
    assert read["evidence"]["points"] == evidence["points"]
    assert play(table(), deal("Unten", "uebergaigeln", evidence)).totals == strokes(2, 0)


def test_an_untergaigeln_claim_reads_the_evidence_as_the_other_teams():
    # Winner Oben: Unten called Aus with 96.
    read = GAIGEL.read_round(table(), deal("Oben", "untergaigeln", ev(96)))
    assert (read["winner"], read["outcome"]) == ("Oben", "untergaigeln")
    assert play(table(), deal("Oben", "untergaigeln", ev(96))).totals == strokes(0, 2)


BAD_EVIDENCE = [
    ("points over 240", {}, ev(241), "evidence.points", "240"),
    ("points negative", {}, ev(-1), "evidence.points", "240"),
    ("points as text", {}, {"points": "110"}, "evidence.points", "240"),
    ("points missing", {}, {"marriages": [20]}, "evidence.points", "240"),
    ("three 40s", {}, ev(60, 40, 40, 40), "evidence.marriages.40", "40"),
    ("seven 20s", {}, ev(60, *[20] * 7), "evidence.marriages.20", "20"),
    ("a marriage of 30", {}, ev(80, 30), "evidence.marriages", "20"),
    ("marriages not a list", {}, {"points": 80, "marriages": 40}, "evidence.marriages", "40"),
    ("13 loser tricks", {}, ev(120, loser_tricks=13), "evidence.loser_tricks", "12"),
    ("negative loser tricks", {}, ev(120, loser_tricks=-1), "evidence.loser_tricks", "12"),
    ("13 caller tricks", {}, ev(120, caller_tricks=13), "evidence.caller_tricks", "12"),
    ("unknown key", {}, {**ev(120), "trumps": "acorns"}, "evidence.trumps", "trumps"),
]


@pytest.mark.parametrize(
    ("options", "evidence", "path", "words"),
    [case[1:] for case in BAD_EVIDENCE],
    ids=[case[0] for case in BAD_EVIDENCE],
)
def test_bad_evidence_is_refused_by_field(options, evidence, path, words):
    assert_at(refused(table(**options), deal("Oben", evidence=evidence)), path, words)
    assert_at(refused(table(**options), deal("Oben", "aus", evidence)), path, words)


@pytest.mark.parametrize("outcome", ["five_sevens", "auf_farbe"])
def test_evidence_with_a_variant_is_refused(outcome):
    seated = table(five_sevens=True, auf_farbe=True)
    refusal = refused(seated, deal("Oben", outcome, ev(120)))
    assert "evidence" in refusal.fields, refusal.fields
    assert play(seated, deal("Oben", outcome)).totals == strokes(0, 1)


def test_all_marriages_of_the_pack_are_accepted():
    read = GAIGEL.read_round(table(), deal("Oben", evidence=ev(10, *[20] * 6, 40, 40)))
    assert sorted(read["evidence"]["marriages"]) == [20] * 6 + [40, 40]
    assert read["outcome"] == "aus"  # 10 + 120 + 80 = 210


# --- The slate: giving, then erasing -------------------------------------------------------------


def test_a_double_with_one_stroke_left_gives_only_one():
    # Oben wins 4 Gaigels (Unten 8), Unten a single (Oben 1): 9 of 10 given.
    deals = [deal("Oben", "gaigel")] * 4 + [deal("Unten", "aus")]
    before = play(table(), *deals)
    assert before.totals == strokes(1, 8)
    assert (before.state["phase"], before.state["given"], before.state["pool"]) == ("giving", 9, 1)
    replay = play(table(), *deals, deal("Oben", "gaigel"))
    assert replay.rounds[-1].scores == strokes(0, 1)  # a double, capped at the 1 left
    assert replay.totals == strokes(1, 9)
    assert (replay.state["phase"], replay.state["given"], replay.state["pool"]) == (
        "erasing",
        10,
        0,
    )
    assert replay.state["board"] == {
        "Oben": [mark("I", 1)],
        "Unten": [mark("V", 2)] * 4 + [mark("I", 1)],  # the capped double is drawn I
    }
    assert "only 1" in said(replay.rounds[-1])
    assert replay.status == PLAYING


def test_erasing_crosses_the_winners_own_strokes():
    # As above, then Unten wins a Gaigel: Unten 9 − 2 = 7, Oben untouched.
    deals = [deal("Oben", "gaigel")] * 4 + [deal("Unten", "aus"), deal("Oben", "gaigel")]
    replay = play(table(), *deals, deal("Unten", "gaigel"))
    assert replay.rounds[-1].scores == strokes(0, -2)
    assert replay.totals == strokes(1, 7)
    assert replay.state["board"]["Unten"] == [mark("V", 2, 2)] + [mark("V", 2)] * 3 + [mark("I", 1)]
    assert (replay.state["given"], replay.state["pool"]) == (10, 0)
    # Then a single: 7 − 1 = 6, half of the second V crossed.
    replay = play(table(), *deals, deal("Unten", "gaigel"), deal("Unten", "aus"))
    assert replay.rounds[-1].scores == strokes(0, -1)
    assert replay.state["board"]["Unten"][:2] == [mark("V", 2, 2), mark("V", 2, 1)]
    assert replay.status == PLAYING


def test_the_first_team_to_erase_every_stroke_wins():
    # Oben holds 1 after the giving; it wins a single: 1 − 1 = 0.
    deals = [deal("Oben", "gaigel")] * 4 + [deal("Unten", "aus"), deal("Oben", "gaigel")]
    replay = play(table(), *deals, deal("Oben", "aus"))
    assert replay.rounds[-1].scores == strokes(-1, 0)
    assert replay.totals == strokes(0, 9)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Oben", 7)
    assert replay.state["board"]["Oben"] == [mark("I", 1, 1)]


def test_erasing_past_zero_is_lost():
    # Oben holds 1 and wins a double: erases 1, the other is lost.
    deals = [deal("Oben", "gaigel")] * 4 + [deal("Unten", "aus"), deal("Oben", "gaigel")]
    replay = play(table(), *deals, deal("Oben", "untergaigeln"))
    assert replay.rounds[-1].scores == strokes(-1, 0)
    assert replay.totals == strokes(0, 9)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Oben", 7)
    assert "lost" in said(replay.rounds[-1])


def test_the_rules_example_played_to_the_end():
    deals = [
        *EXAMPLE,  # Oben 4, Unten 2, 6 given
        deal("Unten", "gaigel"),  # Oben 4 + 2 = 6, 8 given
        deal("Oben", "aus"),  # Unten 2 + 1 = 3, 9 given
        deal("Unten", "uebergaigeln"),  # a double with 1 left: Oben 7, 10 given
        deal("Unten", "aus"),  # Unten erases 1: 2
        deal("Oben", "aus"),  # Oben erases 1: 6
        deal("Unten", "gaigel"),  # Unten erases 2: 0, wins
    ]
    replay = play(table(), *deals)
    assert [r.scores for r in replay.rounds[4:]] == [
        strokes(2, 0),
        strokes(0, 1),
        strokes(1, 0),
        strokes(0, -1),
        strokes(-1, 0),
        strokes(0, -2),
    ]
    assert [r.totals for r in replay.rounds[4:]] == [
        strokes(6, 2),
        strokes(6, 3),
        strokes(7, 3),
        strokes(7, 2),
        strokes(6, 2),
        strokes(6, 0),
    ]
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Unten", 10)
    assert replay.state == {
        "phase": "erasing",
        "given": 10,
        "pool": 0,
        "board": {
            # V V V I (the capped double), the first V half crossed.
            "Oben": [mark("V", 2, 1), mark("V", 2), mark("V", 2), mark("I", 1)],
            "Unten": [mark("I", 1, 1)] * 3,
        },
        "dealer": "C",
    }
    assert "only 1" in said(replay.rounds[6])


def test_the_match_is_not_over_until_a_team_is_clear():
    deals = [*EXAMPLE, deal("Unten", "gaigel"), deal("Oben", "aus"), deal("Unten", "aus")]
    replay = play(table(), *deals)  # 10 given: Oben 7, Unten 3
    assert replay.totals == strokes(7, 3)
    assert replay.state["phase"] == "erasing"
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)


@pytest.mark.parametrize(
    ("deals", "ended_after"),
    [
        ([deal("Oben", "gaigel")] * 5, 5),  # 5 × 2 = 10
        ([deal("Oben", "aus")] * 10, 10),  # 10 × 1
        ([deal("Oben", "aus")] * 8 + [deal("Oben", "uebergaigeln")], 9),  # 8 + 2
        ([deal("Oben", "gaigel")] * 4 + [deal("Oben", "untergaigeln")], 5),
        ([deal("Oben", "aus")] * 9 + [deal("Oben", "gaigel")], 10),  # 9 + 1 (capped)
    ],
)
def test_a_team_without_strokes_when_the_giving_ends_wins_at_once(deals, ended_after):
    replay = play(table(), *deals)
    assert replay.totals == strokes(0, 10)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Oben", ended_after)
    assert replay.state["phase"] == "erasing"
    assert replay.state["pool"] == 0
    before = play(table(), *deals[:-1])
    assert (before.status, before.winner, before.ended_after) == (PLAYING, None, None)


@pytest.mark.parametrize(
    ("count", "deals", "totals", "status", "winner"),
    [
        # 4 strokes: 2 + 2 to Unten, Oben clean when the giving ends.
        (4, [deal("Oben", "gaigel")] * 2, (0, 4), FINISHED, "Oben"),
        # 4 strokes: Unten 1, Oben 2, then a double with 1 left: Unten 2; erasing.
        (
            4,
            [deal("Oben", "aus"), deal("Unten", "gaigel"), deal("Oben", "gaigel")],
            (2, 2),
            PLAYING,
            None,
        ),
        # 1 stroke: the first deal ends the giving, and the winners are clean.
        (1, [deal("Unten", "gaigel")], (1, 0), FINISHED, "Unten"),
        # 20 strokes: 5 Gaigels give 10, half the pool.
        (20, [deal("Oben", "gaigel")] * 5, (0, 10), PLAYING, None),
    ],
)
def test_the_strokes_option_sets_the_pool(count, deals, totals, status, winner):
    replay = play(table(strokes=count), *deals)
    assert replay.totals == strokes(*totals)
    assert (replay.status, replay.winner) == (status, winner)
    assert replay.state["given"] == sum(totals)
    assert replay.state["pool"] == count - sum(totals)


def test_a_fresh_slate():
    replay = GAIGEL.replay(table(), [])
    assert replay.totals == strokes(0, 0)
    assert replay.state == {
        "phase": "giving",
        "given": 0,
        "pool": 10,
        "board": {"Oben": [], "Unten": []},
        "dealer": "A",
    }
    assert replay.status == PLAYING


# --- Six players ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "deals",
    [EXAMPLE, EXAMPLE_BY_EVIDENCE, EXAMPLE_CLAIMED_WITH_EVIDENCE],
    ids=["outcomes", "evidence", "outcomes-checked-by-evidence"],
)
def test_six_players_score_the_rules_example(deals):
    replay = play(table(SIX), *deals)
    assert replay.totals == strokes(4, 2)
    assert replay.state == EXAMPLE_STATE | {"dealer": "E"}


@pytest.mark.parametrize(
    ("evidence", "expected"),
    [
        (ev(120, loser_tricks=8), "aus"),  # 48 cards / 6 = 8 tricks each
        (ev(120, loser_tricks=0), "gaigel"),
        (ev(120, caller_tricks=8), "aus"),
    ],
)
def test_six_players_have_8_tricks(evidence, expected):
    read = GAIGEL.read_round(table(SIX), deal("Oben", evidence=evidence))
    assert read["outcome"] == expected


@pytest.mark.parametrize(
    ("evidence", "path"),
    [
        (ev(120, loser_tricks=9), "evidence.loser_tricks"),
        (ev(120, caller_tricks=9), "evidence.caller_tricks"),
    ],
)
def test_six_players_refuse_a_ninth_trick(evidence, path):
    assert_at(refused(table(SIX), deal("Oben", evidence=evidence)), path, "8")
    GAIGEL.read_round(table(), deal("Oben", evidence=evidence))  # 9 is fine with 4 players


# --- Three players -------------------------------------------------------------------------------

SHARES = [
    # 5 / 3 / 1 by card points.
    ("5/3/1", hand(120, 80, 40), (5, 3, 1)),
    ("5/3/1 in another order", hand(40, 120, 80), (1, 5, 3)),
    # A trick of sevens is a trick: 0 card points still rank.
    ("0 points with a trick", hand(160, 80, 0, took="C"), (5, 3, 1)),
    # One player took no trick: 0, the others 6 / 3.
    ("C trickless", hand(150, 90, 0), (6, 3, 0)),
    ("C trickless, said", hand(150, 90, 0, no_trick="C"), (6, 3, 0)),
    ("A trickless", hand(0, 100, 140), (0, 3, 6)),
    ("trickless, the other two tie", hand(120, 120, 0, cut="B A"), (3, 6, 0)),
    # Two took no trick: the third gets all 9.
    ("two trickless", hand(240, 0, 0), (9, 0, 0)),
    ("two trickless, said", hand(0, 240, 0, no_trick="A C"), (0, 9, 0)),
    # Ties on card points go by the cut.
    ("B and C tie, C cuts best", hand(100, 70, 70, cut="C B"), (5, 1, 3)),
    ("B and C tie, B cuts best", hand(100, 70, 70, cut="B C"), (5, 3, 1)),
    ("A and B tie at the top", hand(100, 100, 40, cut="B A"), (3, 5, 1)),
    ("all three tie", hand(80, 80, 80, cut="B C A"), (1, 5, 3)),
    ("0 and 0 with tricks tie", hand(240, 0, 0, took="B C", cut="C B"), (5, 1, 3)),
]


@pytest.mark.parametrize(
    ("entered", "expected"), [case[1:] for case in SHARES], ids=[case[0] for case in SHARES]
)
def test_three_players_share_9_game_points(entered, expected):
    replay = play(three(), entered)
    assert replay.rounds[0].scores == points(*expected)
    assert sum(replay.rounds[0].scores.values()) == 9
    assert replay.totals == points(*expected)
    said(replay.rounds[0])


def test_a_three_player_deal_is_read_whole():
    assert GAIGEL.read_round(three(), hand(100, 70, 70, cut="c b")) == {
        "card_points": {"A": 100, "B": 70, "C": 70},
        "took_trick": {"A": True, "B": True, "C": True},
        "cut_order": ["C", "B"],
    }
    assert GAIGEL.read_round(three(), hand(150, 90, 0))["took_trick"] == {
        "A": True,
        "B": True,
        "C": False,
    }


BAD_HANDS = [
    ("no cut for a tie", hand(100, 70, 70), "cut_order", "B and C"),
    ("cut of one of two", hand(100, 70, 70, cut="B"), "cut_order", "B and C"),
    ("cut of the wrong two", hand(100, 70, 70, cut="A B"), "cut_order", "B and C"),
    ("cut of an untied player", hand(100, 70, 70, cut="B C A"), "cut_order", "B and C"),
    ("cut twice", hand(100, 70, 70, cut="B B"), "cut_order", "B and C"),
    ("cut of two of three", hand(80, 80, 80, cut="A B"), "cut_order", "A, B and C"),
    ("cut without a tie", hand(120, 80, 40, cut="A B"), "cut_order", "nothing to cut"),
    # Two trickless players at 0 are not tied: they both score 0.
    ("cut of trickless players", hand(240, 0, 0, cut="B C"), "cut_order", "nothing to cut"),
    ("cut of a stranger", hand(100, 70, 70, cut="Zed B"), "cut_order.0", "Zed"),
    ("over 240", hand(120, 120, 1), "card_points", "240"),  # 120 + 120 + 1 = 241
    ("points but no trick", hand(150, 90, 0, no_trick="B"), "took_trick.B", "trick"),
    ("nobody took a trick", hand(0, 0, 0), "took_trick", "trick"),
    ("241 for one", hand(241, 0, 0), "card_points.A", "240"),
    ("negative", hand(150, -10, 100), "card_points.B", "240"),
    ("text", {"card_points": {"A": "100", "B": 70, "C": 70}}, "card_points.A", "240"),
    ("a player missing", {"card_points": {"A": 150, "B": 90}}, "card_points.C", "C"),
    ("a stranger", {"card_points": {"A": 150, "B": 90, "C": 0, "Zed": 0}}, "card_points.Zed", ""),
    ("no card points", {"took_trick": {"A": True}}, "card_points", ""),
    ("took_trick not a flag", hand(150, 90, 0) | {"took_trick": {"C": "no"}}, "took_trick.C", ""),
]


@pytest.mark.parametrize(
    ("entered", "path", "words"),
    [case[1:] for case in BAD_HANDS],
    ids=[case[0] for case in BAD_HANDS],
)
def test_bad_three_player_deals_are_refused_by_field(entered, path, words):
    assert_at(refused(three(), entered), path, words)


def rotation(deals: int) -> list[dict[str, Any]]:
    """Return deals won in turn by A (A 5, B 3, C 1), B (B 5, C 3, A 1) and C (C 5, A 3, B 1)."""
    three_deals = [hand(120, 80, 40), hand(40, 120, 80), hand(80, 40, 120)]
    return [three_deals[n % 3] for n in range(deals)]


@pytest.mark.parametrize(
    ("played", "session", "deal_in_session"),
    [(0, 1, 1), (1, 1, 2), (9, 1, 10), (10, 2, 1), (19, 2, 10), (20, 3, 1), (29, 3, 10)],
)
def test_sessions_are_ten_deals(played, session, deal_in_session):
    replay = play(three(), *rotation(played))
    assert replay.state["session"] == session
    assert replay.state["deal_in_session"] == deal_in_session
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)


def test_thirty_deals_finish_the_match_most_points_wins():
    # 30 × (A 5, B 3, C 1).
    replay = play(three(), *[hand(120, 80, 40)] * 30)
    assert replay.totals == points(150, 90, 30)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "A", 30)
    assert replay.state["session"] == 3
    assert "shared_first" not in replay.state
    assert replay.rounds[-1].totals == replay.totals


def test_a_close_match_is_won_by_the_most_points():
    # 29 rotating deals: A tops 10, B 10, C 9. A 10 × 5 + 10 × 1 + 9 × 3 = 87;
    # B 10 × 3 + 10 × 5 + 9 × 1 = 89; C 10 × 1 + 10 × 3 + 9 × 5 = 85.
    deals = rotation(29)
    assert play(three(), *deals).totals == points(87, 89, 85)
    replay = play(three(), *deals, hand(40, 120, 80))  # A 1, B 5, C 3
    assert replay.totals == points(88, 94, 88)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "B", 30)


def test_a_tie_at_the_end_shares_first_place():
    # 15 × (A 5, B 3, C 1) and 15 × (B 5, A 3, C 1): A and B 15 × 8 = 120, C 30.
    deals = [hand(120, 80, 40), hand(80, 120, 40)] * 15
    replay = play(three(), *deals)
    assert replay.totals == points(120, 120, 30)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, None, 30)
    assert replay.state["shared_first"] == ["A", "B"]


def test_all_three_level_share_first_place():
    replay = play(three(), *rotation(30))  # each 10 × (5 + 3 + 1) = 90
    assert replay.totals == points(90, 90, 90)
    assert (replay.status, replay.winner) == (FINISHED, None)
    assert replay.state["shared_first"] == list(THREE)


@pytest.mark.parametrize(
    ("evidence", "path"),
    [
        ({"points": 61, "marriages": [40], "caller_tricks": 0}, "evidence.caller_tricks"),
        ({"points": 120, "caller_tricks": 8, "loser_tricks": 5}, "evidence.loser_tricks"),
    ],
)
def test_evidence_that_cannot_happen_at_the_table_is_refused(evidence, path):
    table = GAIGEL.read_table({"teams": {"Oben": ["A", "C"], "Unten": ["B", "D"]}})
    with pytest.raises(Refusal) as refused:
        GAIGEL.read_round(table, {"winner": "Oben", "evidence": evidence})
    assert path in refused.value.fields


def test_a_null_evidence_is_no_evidence():
    table = GAIGEL.read_table({"teams": {"Oben": ["A", "C"], "Unten": ["B", "D"]}})
    deal = GAIGEL.read_round(table, {"winner": "Oben", "outcome": "aus", "evidence": None})
    assert deal == {"winner": "Oben", "outcome": "aus"}


# --- Who deals: clockwise, the deal passing to the left ----------------------------------------


@pytest.mark.parametrize(
    ("seated", "deals", "dealers"),
    [
        pytest.param(table(), [deal("Oben", "aus")] * 4, "A B C D A", id="teams"),
        pytest.param(table(first_dealer="d"), [deal("Oben", "aus")] * 4, "D A B C D", id="d-first"),
        pytest.param(table(SIX), [deal("Oben", "aus")] * 6, "A B C D E F A", id="six"),
        pytest.param(three(), [hand(60, 40, 20)] * 3, "A B C A", id="three"),
        pytest.param(three(first_dealer="C"), [hand(60, 40, 20)] * 3, "C A B C", id="three-c"),
    ],
)
def test_the_deal_passes_to_the_left_each_deal(seated, deals, dealers):
    expected = dealers.split()
    assert [play(seated, *deals[:n]).state["dealer"] for n in range(len(deals) + 1)] == expected
    assert [played.dealer for played in play(seated, *deals).rounds] == expected[:-1]


@pytest.mark.parametrize("seated", [table, three], ids=["teams", "three"])
def test_an_unknown_first_dealer_is_refused(seated):
    with pytest.raises(Refusal) as refusal:
        seated(first_dealer="Zed")
    assert_at(refusal.value, "options.first_dealer", "'Zed' is not a player")


def test_a_match_stored_before_the_first_dealer_option_deals_from_the_first_seat():
    for seated in (table(), three()):
        options = {k: v for k, v in seated.options.items() if k != "first_dealer"}
        older = Table(seated.players, options, seated.teams)
        deals = [deal("Oben", "aus")] if seated.teams else [hand(60, 40, 20)]
        replay = play(older, *deals)
        assert (replay.rounds[0].dealer, replay.state["dealer"]) == ("A", "B")


@pytest.mark.parametrize("seated", [table, three], ids=["teams", "three"])
def test_the_rules_say_who_deals_first_and_which_way(seated):
    rules = {rule.title: rule.text for rule in GAIGEL.rules(seated(first_dealer="B").options)}
    assert rules["Who deals"] == (
        "First dealer: B. After each deal, the player to the left deals (clockwise)."
    )


def test_the_first_dealer_is_no_variant():
    assert GAIGEL.variant_key(table(first_dealer="B").options) == {"mode": "teams", "strokes": 10}
