"""An event's rules without a server: the draw, the standings of each game, and matches of a
fixed number of deals."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from scorers import GAMES, RoundImpossible
from scorers.base import FINISHED, PLAYING
from scorers.events import Finished, draw, meetings, ranked, table_sizes, tally

TEAMS = ["As", "Rois", "Pique", "Coeur"]


def played_rounds(entrants: list[str], rounds: int, seed: int = 7) -> list[list[list[str]]]:
    """Draw every round, the standings left in entry order (nobody scored yet)."""
    history: list[list[list[str]]] = []
    byes: Counter[str] = Counter()
    for n in range(rounds):
        drawn = draw(
            entrants,
            meetings(table for tables in history for table in tables),
            byes,
            (2,),
            2,
            seed if n == 0 else None,
        )
        byes.update(drawn.byes)
        history.append(drawn.tables)
    return history


def test_four_teams_over_three_rounds_play_a_round_robin():
    history = played_rounds(TEAMS, 3)
    pairs = [frozenset(table) for tables in history for table in tables]
    assert len(pairs) == 6 and len(set(pairs)) == 6
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(TEAMS, 2)}
    for tables in history:
        assert sorted(name for table in tables for name in table) == sorted(TEAMS)


def test_round_one_is_random_and_a_seed_repeats_it():
    entrants = [f"T{i}" for i in range(12)]
    first = draw(entrants, set(), {}, (2,), 2, seed=1).tables
    assert draw(entrants, set(), {}, (2,), 2, seed=1).tables == first
    assert draw(entrants, set(), {}, (2,), 2, seed=2).tables != first
    assert first != [[entrants[i], entrants[i + 1]] for i in range(0, 12, 2)]


def test_later_rounds_pair_by_the_standings():
    # Nobody has met: the first two of the standings play each other, then the next two.
    drawn = draw(["A", "B", "C", "D", "E", "F"], set(), {}, (2,), 2)
    assert drawn.tables == [["A", "B"], ["C", "D"], ["E", "F"]]
    # A and B met: A plays C, the next best not met; B then meets D.
    drawn = draw(["A", "B", "C", "D"], {frozenset("AB")}, {}, (2,), 2)
    assert drawn.tables == [["A", "C"], ["B", "D"]]


def test_a_repeat_comes_only_when_no_pairing_avoids_it():
    everyone_met = meetings([["A", "B"], ["A", "C"], ["A", "D"], ["B", "C"], ["B", "D"]])
    drawn = draw(["A", "B", "C", "D"], everyone_met, {}, (2,), 2)
    # C and D alone have not met; A and B then meet again: one repeat, the least possible.
    assert sorted(map(sorted, drawn.tables)) == [["A", "B"], ["C", "D"]]


def test_byes_go_round_the_odd_one_out_fairly():
    entrants = ["A", "B", "C", "D", "E"]
    byes: Counter[str] = Counter()
    history: list[list[str]] = []
    for _ in range(5):
        drawn = draw(entrants, meetings(history), byes, (2,), 2)
        assert len(drawn.byes) == 1
        seated = [name for table in drawn.tables for name in table]
        assert sorted(seated + drawn.byes) == entrants
        byes.update(drawn.byes)
        history += drawn.tables
    # Five rounds, five entrants: each had exactly one bye, the lowest placed first.
    assert byes == Counter(entrants)


def test_tables_of_several_sizes_seat_everyone_when_the_game_allows():
    assert table_sizes(10, (2, 3, 4, 5, 6), 4) == ([4, 3, 3], 0)
    assert table_sizes(8, (2, 3, 4, 5, 6), 4) == ([4, 4], 0)
    assert table_sizes(9, (4,), 4) == ([4, 4], 1)
    assert table_sizes(3, (4,), 4) == ([], 3)


def test_tables_of_four_meet_new_faces_first():
    players = [f"P{i}" for i in range(8)]
    first = draw(players, set(), {}, (4,), 4).tables
    assert first == [players[:4], players[4:]]
    second = draw(players, meetings(first), {}, (4,), 4).tables
    # Each table of the second round mixes both tables of the first.
    for table in second:
        assert {name in first[0] for name in table} == {True, False}


def test_the_standings_add_up_each_match_and_a_bye():
    records = tally(
        TEAMS,
        [
            Finished({"As": 1020, "Rois": 640}, ("As",)),
            Finished({"Pique": 700, "Coeur": 1010}, ("Coeur",)),
            Finished({"As": 500, "Coeur": 1002}, ("Coeur",)),
        ],
        ["Rois"],
    )
    assert (records["As"].played, records["As"].won) == (2, 1)
    assert (records["As"].points, records["As"].against) == (1020 + 500, 640 + 1002)
    assert (records["Coeur"].won, records["Coeur"].points) == (2, 2012)
    # A bye: a match won, with no points and not played.
    assert (records["Rois"].played, records["Rois"].won, records["Rois"].points) == (1, 1, 640)


def test_a_belote_concours_ranks_by_points_then_wins_then_points_against():
    belote = GAMES["belote"]
    records = tally(
        ["A", "B", "C", "D"],
        [
            Finished({"A": 1200, "B": 300}, ("A",)),
            Finished({"C": 800, "D": 700}, ("C",)),
            Finished({"A": 100, "C": 1000}, ("C",)),
            Finished({"B": 1000, "D": 1001}, ("D",)),
        ],
        [],
    )
    ranks = [
        (rank, r.entrant, r.points) for rank, r in ranked(records.values(), belote.event_order)
    ]
    # C 1800 points, D 1701, A 1300, B 1300; A and B level on points and wins (1 each): fewer
    # points against ranks first, A 1300 against B's 2201.
    assert ranks == [(1, "C", 1800), (2, "D", 1701), (3, "A", 1300), (4, "B", 1300)]


def test_rami_ranks_by_wins_then_the_fewest_points():
    rami = GAMES["rami"]
    records = tally(
        ["Ana", "Bo", "Cy", "Di"],
        [
            Finished({"Ana": 40, "Bo": 310, "Cy": 120, "Di": 90}, ("Ana",)),
            Finished({"Ana": 305, "Bo": 20, "Cy": 60, "Di": 150}, ("Bo",)),
        ],
        [],
    )
    ranks = [(rank, r.entrant) for rank, r in ranked(records.values(), rami.event_order)]
    # Ana and Bo won once each; Bo's 330 points beat Ana's 345. Cy 180 beats Di 240.
    assert ranks == [(1, "Bo"), (2, "Ana"), (3, "Cy"), (4, "Di")]


def test_gaigel_ranks_by_wins_then_the_fewest_strokes():
    gaigel = GAMES["gaigel"]
    records = tally(
        ["A", "B", "C", "D"],
        [
            Finished({"A": 0, "B": 7}, ("A",)),
            Finished({"C": 0, "D": 2}, ("C",)),
        ],
        [],
    )
    ranks = [(rank, r.entrant) for rank, r in ranked(records.values(), gaigel.event_order)]
    # A and C won, level on strokes (none left); A left more to its opponent (7 to 2).
    assert ranks == [(1, "A"), (2, "C"), (3, "D"), (4, "B")]


def test_barbu_and_porrazo_rank_as_their_rules_say():
    records = tally(
        ["Ana", "Bo", "Cy", "Di"],
        [Finished({"Ana": 30, "Bo": -10, "Cy": 0, "Di": -20}, ("Ana",))],
        [],
    )
    barbu = [r.entrant for _rank, r in ranked(records.values(), GAMES["barbu"].event_order)]
    assert barbu == ["Ana", "Cy", "Bo", "Di"]
    porrazo = [r.entrant for _rank, r in ranked(records.values(), GAMES["porrazo"].event_order)]
    assert porrazo == ["Ana", "Cy", "Bo", "Di"]


def test_equal_records_share_a_rank():
    records = tally(["A", "B", "C"], [Finished({"A": 5, "B": 5}, ("A", "B"))], [])
    ranks = [
        (rank, r.entrant) for rank, r in ranked(records.values(), GAMES["porrazo"].event_order)
    ]
    assert ranks == [(1, "A"), (1, "B"), (3, "C")]


# --- a match of a fixed number of deals --------------------------------------------------------

BELOTE_TEAMS = {"game": "belote", "teams": {"NS": ["N", "S"], "EW": ["E", "W"]}}


def deal(taker: str, ns: int) -> dict:
    return {"taker": taker, "trump": "hearts", "points": {"NS": ns, "EW": 152 - ns},
            "last_trick": "NS"}  # fmt: skip


def belote_table(deals: int):
    belote = GAMES["belote"]
    return belote, belote.read_table(BELOTE_TEAMS | {"options": {"match_deals": deals}})


def test_a_match_of_two_deals_ends_after_the_second_with_the_best_total():
    belote, table = belote_table(2)
    assert belote.to_go(table, belote.replay(table, []), "NS") == "2 deals to go"
    rounds = [belote.read_round(table, deal("N", 100)), belote.read_round(table, deal("E", 90))]
    after_one = belote.replay(table, rounds[:1])
    assert after_one.status == PLAYING
    assert belote.to_go(table, after_one, "NS") == "1 deal to go"
    replay = belote.replay(table, rounds)
    assert (replay.status, replay.ended_after) == (FINISHED, 2)
    assert replay.winner == max(replay.totals, key=replay.totals.get)
    # Scoring the last deal on the kept replay ends it the same way.
    assert belote.advance(table, after_one, rounds[:1], rounds[1]) == replay


def test_a_deal_past_the_length_is_refused():
    belote, table = belote_table(1)
    rounds = [belote.read_round(table, deal("N", 100))] * 2
    with pytest.raises(RoundImpossible) as refused:
        belote.replay(table, rounds)
    assert refused.value.n == 2 and "ended after 1 deal;" in refused.value.refusal.message


def test_level_totals_after_the_last_deal_share_first_place():
    rami = GAMES["rami"]
    table = rami.read_table(
        {"game": "rami", "players": ["Ana", "Bo"], "options": {"match_deals": 2}}
    )
    hands = [
        rami.read_round(table, {"outcome": "out", "winner": winner,
                                "hands": {loser: {"points": 10, "melded": True}}})
        for winner, loser in (("Ana", "Bo"), ("Bo", "Ana"))
    ]  # fmt: skip
    replay = rami.replay(table, hands)
    assert replay.totals == {"Ana": 10, "Bo": 10}
    assert replay.status == FINISHED and replay.winner is None
    assert replay.state["shared_first"] == ["Ana", "Bo"]
    assert rami.banner(replay) == "Ana and Bo share first place!"


def test_a_gaigel_slate_stopped_after_its_deals_goes_to_the_fewest_strokes():
    gaigel = GAMES["gaigel"]
    table = gaigel.read_table(
        {"game": "gaigel", "teams": {"A": ["a1", "a2"], "B": ["b1", "b2"]},
         "options": {"match_deals": 1}}
    )  # fmt: skip
    won = gaigel.read_round(table, {"winner": "A", "outcome": "aus"})
    replay = gaigel.replay(table, [won])
    assert replay.status == FINISHED
    assert replay.winner == min(replay.totals, key=replay.totals.get) == "A"


def test_a_concours_match_sums_its_deals_past_the_target():
    belote = GAMES["belote"]
    table = belote.read_table(BELOTE_TEAMS | {"options": {"match_deals": 12, "target": 200}})
    rounds = [belote.read_round(table, deal("N", 120))] * 3
    replay = belote.replay(table, rounds)
    # Past the target of 200 after two deals, the match plays on to its twelfth deal.
    assert replay.totals["NS"] > 200 and replay.status == PLAYING
