"""Rami rules, pure: RULES.md §1 examples R1–R4, every option, the end of the match."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorers import GAMES, Refusal, Table
from scorers.base import FINISHED, PLAYING
from tests.api_helpers import refused, rounds_url, send, start_match, unchanged
from tests.rules_helpers import assert_at

RAMI = GAMES["rami"]


def table(*players: str, **options: Any) -> Table:
    """Seat players with the given options, the others at their defaults."""
    return RAMI.read_table({"players": list(players), "options": options})


def play(seated: Table, *rounds: dict[str, Any]):
    """Read every round as the API would, then replay them."""
    return RAMI.replay(seated, [RAMI.read_round(seated, entered) for entered in rounds])


def out(winner: str, **hands: dict[str, Any]) -> dict[str, Any]:
    """Write a round where `winner` went out."""
    return {"outcome": "out", "winner": winner, "hands": hands}


def cards(*ranks: str, melded: bool = True) -> dict[str, Any]:
    """Write a hand by its cards."""
    return {"cards": list(ranks), "melded": melded}


def points(value: int, melded: bool = True) -> dict[str, Any]:
    """Write a hand by its typed value."""
    return {"points": value, "melded": melded}


def test_r1_cards_left_in_hand_cost_their_value():
    replay = play(
        table("Ana", "Bo", "Cy"), out("Ana", Bo=cards("A", "JK", "5"), Cy=cards("9", "9"))
    )
    assert replay.rounds[0].scores == {"Ana": 0, "Bo": 36, "Cy": 18}
    assert replay.rounds[0].explanation == [
        "Ana went out: 0.",
        "Bo holds A, JK, 5: 11 + 20 + 5 = 36.",
        "Cy holds 9, 9: 9 + 9 = 18.",
    ]


@pytest.mark.parametrize(
    ("hand", "score", "sentence"),
    [
        (
            cards("K", "Q", "9", "8", melded=False),
            50,
            "Bo never melded: 37 + 25 = 62, capped at 50.",
        ),
        (cards("7", "3", melded=False), 35, "Bo never melded: 10 + 25 = 35."),
    ],
)
def test_r2_never_melded_two_players_capped_at_half_the_target(hand, score, sentence):
    replay = play(table("Ana", "Bo"), out("Ana", Bo=hand))
    assert replay.rounds[0].scores == {"Ana": 0, "Bo": score}
    assert sentence in replay.rounds[0].explanation


def test_r3_four_players_never_melded_capped_at_100():
    seated = table("Ana", "Bo", "Cy", "Di")
    assert seated.options["target"] == 300
    replay = play(
        seated,
        out(
            "Ana",
            Bo=points(14),
            Cy=points(31),
            Di=cards("J", "Q", "K", "JK", "A", "9", "8", melded=False),
        ),
    )
    assert replay.rounds[0].scores == {"Ana": 0, "Bo": 14, "Cy": 31, "Di": 100}
    assert "Di never melded: 78 + 25 = 103, capped at 100." in replay.rounds[0].explanation


def test_r4_rami_sec_charges_every_opponent_and_ends_the_match():
    seated = table("Ana", "Bo", "Cy")
    rami_sec = {
        "outcome": "rami_sec",
        "winner": "Bo",
        "hands": {"Ana": cards("K", "K", melded=False), "Cy": cards("3", melded=False)},
    }
    replay = play(seated, rami_sec)
    assert replay.rounds[0].scores == {"Ana": 200, "Bo": 0, "Cy": 200}
    assert replay.status == FINISHED
    assert replay.winner == "Bo"
    assert replay.ended_after == 1
    assert replay.rounds[0].explanation[-1] == (
        "Ana and Cy reached the target of 200: the match is over and Bo wins with 0."
    )


def test_rami_sec_needs_no_hands():
    replay = play(table("Ana", "Bo", "Cy"), {"outcome": "rami_sec", "winner": "Cy"})
    assert replay.rounds[0].scores == {"Ana": 200, "Bo": 200, "Cy": 0}


def test_rami_sec_is_refused_when_an_opponent_had_melded():
    seated = table("Ana", "Bo", "Cy")
    with pytest.raises(Refusal) as refused:
        RAMI.read_round(
            seated,
            {"outcome": "rami_sec", "winner": "Bo", "hands": {"Ana": cards("5"), "Cy": {}}},
        )
    assert refused.value.message == "No rami sec: Ana had already melded."
    assert list(refused.value.fields) == ["hands.Ana.melded"]


@pytest.mark.parametrize(("players", "target"), [(2, 100), (3, 200), (4, 300), (5, 400), (6, 500)])
def test_target_is_100_per_opponent(players, target):
    assert table(*"ABCDEF"[:players]).options["target"] == target


def test_options_change_the_scores():
    seated = table("Ana", "Bo", "Cy", rami_sec_points=150, unmelded_bonus=10, unmelded_cap=30)
    replay = play(
        seated,
        out("Ana", Bo=points(12, melded=False), Cy=points(25, melded=False)),
        {"outcome": "rami_sec", "winner": "Bo"},
    )
    assert replay.rounds[0].scores == {"Ana": 0, "Bo": 22, "Cy": 30}
    assert replay.rounds[1].scores == {"Ana": 150, "Bo": 0, "Cy": 150}


def test_half_the_target_caps_below_the_cap_option():
    replay = play(table("Ana", "Bo", target=60), out("Ana", Bo=points(20, melded=False)))
    assert replay.rounds[0].scores["Bo"] == 30


def test_blocked_round_lowest_hand_wins_and_others_score_as_usual():
    blocked = {
        "outcome": "blocked",
        "hands": {"Ana": points(12), "Bo": points(30, melded=False), "Cy": cards("A", "K")},
    }
    replay = play(table("Ana", "Bo", "Cy"), blocked)
    assert replay.rounds[0].scores == {"Ana": 0, "Bo": 55, "Cy": 21}
    assert replay.rounds[0].explanation[0] == (
        "Blocked: Ana holds the lowest hand (12) and scores 0."
    )


def test_blocked_round_tied_lowest_hands_all_score_zero():
    blocked = {
        "outcome": "blocked",
        "hands": {"Ana": points(12), "Bo": cards("10", "2"), "Cy": points(40)},
    }
    replay = play(table("Ana", "Bo", "Cy"), blocked)
    assert replay.rounds[0].scores == {"Ana": 0, "Bo": 0, "Cy": 40}
    assert replay.rounds[0].explanation[0] == (
        "Blocked: Ana and Bo tie for the lowest hand (12) and score 0."
    )


def test_reaching_the_target_ends_the_match_lowest_total_wins():
    seated = table("Ana", "Bo", target=100)
    replay = play(seated, out("Ana", Bo=points(60)), out("Bo", Ana=points(20)))
    assert replay.status == PLAYING
    replay = play(
        seated, out("Ana", Bo=points(60)), out("Bo", Ana=points(20)), out("Ana", Bo=points(40))
    )
    assert replay.totals == {"Ana": 20, "Bo": 100}
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Ana", 3)


def test_tie_for_lowest_at_the_target_plays_an_extra_round():
    seated = table("Ana", "Bo", "Cy", target=100)
    tied = [out("Ana", Bo=points(30), Cy=points(60)), out("Bo", Ana=points(30), Cy=points(45))]
    replay = play(seated, *tied)
    assert replay.totals == {"Ana": 30, "Bo": 30, "Cy": 105}
    assert (replay.status, replay.winner) == (PLAYING, None)
    assert replay.state == {
        "extra_round": True,
        "dealer": "Cy",
        "melded": {"Ana": True, "Cy": True},
    }
    assert replay.rounds[1].explanation[-1] == (
        "Cy reached the target of 100, but Ana and Bo tie for the lowest total (30): "
        "another round is played."
    )
    replay = play(seated, *tied, out("Bo", Ana=points(4), Cy=points(4)))
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Bo", 3)
    assert replay.state == {
        "extra_round": False,
        "dealer": "Ana",
        "melded": {"Ana": True, "Cy": True},
    }


def test_names_and_ranks_are_read_case_insensitively():
    seated = table("Ana", "Bo")
    entered = RAMI.read_round(
        seated, {"outcome": "out", "winner": "ana", "hands": {"BO": cards("a", "jk", "q")}}
    )
    assert entered == {
        "outcome": "out",
        "winner": "Ana",
        "hands": {"Bo": {"cards": ["A", "JK", "Q"], "melded": True}},
    }


def test_cards_and_points_may_both_be_given_when_they_agree():
    seated = table("Ana", "Bo")
    hand = {"cards": ["K", "5"], "points": 15, "melded": True}
    assert RAMI.read_round(seated, out("Ana", Bo=hand))["hands"]["Bo"] == hand


@pytest.mark.parametrize(
    ("entered", "path", "words"),
    [
        ({"outcome": "won"}, "outcome", "someone went out, rami sec, or blocked"),
        (out("Zed", Bo=points(5)), "winner", "'Zed' is not a player in this match: Ana and Bo."),
        ({"outcome": "out", "hands": {}}, "winner", "Say who went out."),
        (out("Ana"), "hands.Bo", "Bo's hand is missing"),
        (out("Ana", Bo=points(5), bo=points(5)), "hands.bo", "given twice"),
        (out("Ana", Bo=points(5), Ana=points(5)), "hands.Ana", "went out and has no hand"),
        (out("Ana", Bo={"melded": True}), "hands.Bo", "tap the cards left or type their value"),
        (out("Ana", Bo=cards("A", "Z")), "hands.Bo.cards.1", "not a card rank"),
        (out("Ana", Bo=points(281)), "hands.Bo.points", "between 2 and 280"),
        (out("Ana", Bo=points(-1)), "hands.Bo.points", "between 2 and 280"),
        (out("Ana", Bo={"points": 5}), "hands.Bo.melded", "Say whether Bo had melded"),
        (out("Ana", Bo=cards(*["2"] * 15)), "hands.Bo.cards", "between 1 and 14 cards"),
        (
            out("Ana", Bo={"cards": ["K"], "points": 9, "melded": True}),
            "hands.Bo.points",
            "10, not 9",
        ),
        ({"outcome": "blocked", "winner": "Ana"}, "winner", "no winner"),
    ],
)
def test_bad_rounds_are_refused_by_field(entered, path, words):
    with pytest.raises(Refusal) as refused:
        RAMI.read_round(table("Ana", "Bo"), entered)
    assert path in refused.value.fields
    assert words in " ".join(refused.value.fields[path])


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"players": ["Ana"]}, "players"),
        ({"players": list("ABCDEFG")}, "players"),
        ({"players": ["Ana", " "]}, "players.1"),
        ({"players": ["Ana", "ana"]}, "players.1"),
        ({"players": ["Ana", "B" * 41]}, "players.1"),
        ({"players": ["Ana", "Bo"], "options": {"target": 0}}, "options.target"),
        ({"players": ["Ana", "Bo"], "options": {"target": "100"}}, "options.target"),
        ({"players": ["Ana", "Bo"], "options": {"jokers": 2}}, "options.jokers"),
    ],
)
def test_bad_tables_are_refused_by_field(data, path):
    with pytest.raises(Refusal) as refused:
        RAMI.read_table(data)
    assert path in refused.value.fields


# --- Who deals: the deal passes to the left, round the table -------------------------------------


@pytest.mark.parametrize(
    ("first", "dealers"),
    [
        pytest.param({}, ["Ana", "Bo", "Cy", "Ana"], id="first-player"),
        pytest.param({"first_dealer": "cy"}, ["Cy", "Ana", "Bo", "Cy"], id="cy-first"),
    ],
)
def test_the_deal_passes_to_the_left_each_round(first, dealers):
    seated = table("Ana", "Bo", "Cy", **first)
    rounds = [out("Ana", Bo=points(5), Cy=points(5))] * 3
    assert [play(seated, *rounds[:n]).state["dealer"] for n in range(4)] == dealers
    assert [played.dealer for played in play(seated, *rounds).rounds] == dealers[:3]


def test_an_unknown_first_dealer_is_refused():
    with pytest.raises(Refusal) as refusal:
        table("Ana", "Bo", first_dealer="Zed")
    assert_at(refusal.value, "options.first_dealer", "'Zed' is not a player")


def test_a_match_stored_before_the_first_dealer_option_deals_from_the_first_seat():
    seated = table("Ana", "Bo", "Cy")
    older = Table(seated.players, {k: v for k, v in seated.options.items() if k != "first_dealer"})
    replay = play(older, out("Ana", Bo=points(5), Cy=points(5)))
    assert (replay.rounds[0].dealer, replay.state["dealer"]) == ("Ana", "Bo")
    rule = next(rule for rule in RAMI.rules(older.options) if rule.title == "Who deals")
    assert rule.text.startswith("First dealer: the first player.")


def test_the_rules_say_who_deals_first_and_which_way():
    options = table("Ana", "Bo", first_dealer="Bo").options
    rules = {rule.title: rule.text for rule in RAMI.rules(options)}
    assert rules["Who deals"] == (
        "First dealer: Bo. After each deal, the player to the left deals (clockwise)."
    )


def test_the_first_dealer_is_no_variant():
    assert RAMI.variant_key(table("Ana", "Bo", first_dealer="Bo").options) == {"target": 100}


def test_the_state_keeps_each_hand_melded_or_not_as_last_entered():
    seated = table("Ana", "Bo", "Cy")
    assert play(seated).state["melded"] == {}
    replay = play(seated, out("Ana", Bo=points(5, melded=False), Cy=points(5)))
    assert replay.state["melded"] == {"Bo": False, "Cy": True}


def test_a_hand_must_say_whether_its_player_had_melded():
    with pytest.raises(Refusal) as refusal:
        play(table("Ana", "Bo"), out("Ana", Bo={"points": 5}))
    assert refusal.value.fields["hands.Bo.melded"] == ["Say whether Bo had melded."]


# --- a hand that counts is worth 2 or more (RULES.md §1) -------------------------------------


@pytest.mark.parametrize("value", [0, 1])
@pytest.mark.parametrize("outcome", ["out", "blocked"])
def test_a_hand_worth_0_or_1_is_refused(outcome, value):
    # Every card left costs at least 2 (a 2), so no hand that counts is worth 0 or 1.
    if outcome == "out":
        entered = out("Ana", Bo=points(value))
    else:
        entered = {"outcome": "blocked", "hands": {"Ana": points(5), "Bo": points(value)}}
    with pytest.raises(Refusal) as refusal:
        RAMI.read_round(table("Ana", "Bo"), entered)
    assert_at(refusal.value, "hands.Bo.points", f"cannot be worth {value}: every card left costs")


def test_a_hand_worth_2_is_one_card_and_counts():
    # Bo holds a single 2: Bo 2, Ana 0.
    assert play(table("Ana", "Bo"), out("Ana", Bo=points(2))).rounds[0].scores == {
        "Ana": 0,
        "Bo": 2,
    }


def test_the_api_refuses_a_hand_worth_0_and_changes_nothing(client: FlaskClient) -> None:
    match_id = start_match(client, {"game": "rami", "players": ["Ana", "Bo"]})["id"]
    with unchanged(client, match_id):
        body = refused(
            send(client, "POST", rounds_url(match_id), out("Ana", Bo=points(0))),
            422,
            "hands.Bo.points",
            "Type the value of the cards Bo still holds.",
        )
    assert "Bo's hand cannot be worth 0" in body["error"]
