"""Porrazo rules, pure: RULES.md §5 and its examples (the porrazo and its counter, the limpias,
tendidos T1 and T2), the values by rank, provisional porrazos, San Benito, the target reached at
once (or only once a porrazo stands), who may peg what and when (the next player answers a
porrazo, the dealer lays one tendido a turn, one pack's rondas, runs that stop at the king),
rondas, the tendido by brute force, the card count, the dealer's turn, and the shape of every
event.

Seats Ana, Bo and Cy, each for themselves, unless a test says otherwise; partnerships are Us (Ana,
Cy) and Them (Bo, Di), seated Ana, Bo, Cy, Di. Target 61, Ana deals first.
Values by rank (K / Q / J / A–10): ronda, porrazo, limpia 4 / 3 / 2 / 1; rondín and
counter-porrazo 12 / 9 / 6 / 3; four of a kind 24 / 18 / 12 / 6. A card in place A–4 scores 1–4.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations
from typing import Any

import pytest

from scorers import GAMES, Refusal, RoundImpossible, Table
from scorers.base import FINISHED, PLAYING
from scorers.cards import RANKS
from scorers.porrazo.rules import (
    best_ronda,
    best_tendido,
    capture,
    card_count,
    four_of_a_kind,
    simple,
    triple,
)
from tests.rules_helpers import assert_at, said

P = GAMES["porrazo"]

THREE = ("Ana", "Bo", "Cy")
FOUR = ("Ana", "Bo", "Cy", "Di")
TEAMS = {"Us": ["Ana", "Cy"], "Them": ["Bo", "Di"]}
LOW = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")

# Rank → (simple: ronda, porrazo, limpia; triple: rondín, counter-porrazo; four of a kind).
VALUES = {
    "K": (4, 12, 24),
    "Q": (3, 9, 18),
    "J": (2, 6, 12),
    **{rank: (1, 3, 6) for rank in LOW},
}


def table(*players: str, **options: Any) -> Table:
    """Seat the players (Ana, Bo and Cy unless given), each for themselves."""
    return P.read_table({"players": list(players or THREE), "options": options})


def teams(**options: Any) -> Table:
    """Seat the partnerships Us (Ana, Cy) and Them (Bo, Di)."""
    return P.read_table({"teams": TEAMS, "options": options})


def peg(player: str, event: str, rank: str | None = None, **extra: Any) -> dict[str, Any]:
    """Write one event by a player as the API takes it."""
    entered: dict[str, Any] = {"player": player, "event": event}
    if rank is not None:
        entered["rank"] = rank
    return entered | extra


def porrazo(player: str, rank: str, limpia: str | None = None) -> dict[str, Any]:
    """Write a porrazo, with the limpia the same card made if any."""
    return peg(player, "porrazo", rank, **({"limpia": limpia} if limpia else {}))


def counter(player: str, rank: str, limpia: str | None = None) -> dict[str, Any]:
    """Write a counter-porrazo, with the limpia the same card made if any."""
    return peg(player, "counter_porrazo", rank, **({"limpia": limpia} if limpia else {}))


def benito(player: str) -> dict[str, Any]:
    """Write a San Benito."""
    return peg(player, "san_benito")


CONFIRM = {"event": "confirm"}


def tendido(player: str, pairs: str, on_table: str = "") -> dict[str, Any]:
    """Write a tendido: "2 4, 7 3" is the pairs (2, 4) and (7, 3); the table "5 6 Q"."""
    return peg(
        player,
        "tendido",
        pairs=[pair.split() for pair in pairs.split(",")],
        table=on_table.split(),
    )


def rondas(**declared: str) -> dict[str, Any]:
    """Write the declared rondas of a deal: Ana="7 7", Bo="5 5 5"."""
    return {
        "event": "rondas",
        "declared": {name: cards.split() for name, cards in declared.items()},
    }


def cards(**counts: int) -> dict[str, Any]:
    """Write the end of a hand: the cards each side won."""
    return {"event": "cards", "counts": counts}


def play(seated: Table, *events: dict[str, Any]):
    """Read every event as the API would, then replay them."""
    return P.replay(seated, [P.read_round(seated, entered) for entered in events])


def impossible(seated: Table, *events: dict[str, Any]) -> RoundImpossible:
    """Return why the replay of these events stops."""
    with pytest.raises(RoundImpossible) as stopped:
        play(seated, *events)
    return stopped.value


def refused(seated: Table, entered: Any) -> Refusal:
    """Return the refusal of one event's shape."""
    with pytest.raises(Refusal) as refusal:
        P.read_round(seated, entered)
    return refusal.value


def pts(ana: int = 0, bo: int = 0, cy: int = 0) -> dict[str, int]:
    """Points per player, Ana, Bo and Cy."""
    return {"Ana": ana, "Bo": bo, "Cy": cy}


def sides(us: int = 0, them: int = 0) -> dict[str, int]:
    """Points per partnership."""
    return {"Us": us, "Them": them}


def pending(played) -> dict[str, Any] | None:
    """Return what is pending after an event, without its sentence."""
    held = played.extra["pending"]
    return (
        None if held is None else {key: held[key] for key in ("event", "player", "rank", "points")}
    )


# --- Seating and options -------------------------------------------------------------------------


def test_options_take_their_defaults():
    assert dict(table().options) == {
        "target": 61,
        "card_count": "difference",
        "wrap": True,
        "first_dealer": "Ana",
    }
    assert table(first_dealer="cy").options["first_dealer"] == "Cy"


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8])
def test_two_to_eight_players(count):
    names = [f"P{seat}" for seat in range(1, count + 1)]
    seated = table(*names)
    assert seated.players == tuple(names)
    assert not seated.teams
    assert play(seated).totals == dict.fromkeys(names, 0)


def test_partnerships_sit_opposite_and_score_by_team():
    seated = teams()
    assert seated.players == FOUR
    assert dict(seated.teams) == {"Us": ("Ana", "Cy"), "Them": ("Bo", "Di")}
    replay = play(seated)
    assert replay.totals == sides(0, 0)
    assert replay.state == {"dealer": "Ana", "pending": None}


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"players": ["Ana"]}, "players"),
        ({"players": [f"P{seat}" for seat in range(9)]}, "players"),
        ({"teams": {"Us": ["Ana", "Cy"], "Them": ["Bo"]}}, "teams"),  # 3 players
        (
            {"players": ["Ana", "Bo", "Cy"], "options": {"card_count": "over_half"}},
            "options.card_count",
        ),
        ({"players": list(FOUR), "options": {"card_count": "over_half"}}, "options.card_count"),
        ({"players": ["Ana", "Bo"], "options": {"card_count": "most"}}, "options.card_count"),
        ({"players": ["Ana", "Bo"], "options": {"target": 0}}, "options.target"),
        ({"players": ["Ana", "Bo"], "options": {"wrap": "yes"}}, "options.wrap"),
        ({"players": ["Ana", "Bo"], "options": {"first_dealer": "Zed"}}, "options.first_dealer"),
        ({"players": ["Ana", "Bo"], "options": {"escoba": True}}, "options.escoba"),
    ],
)
def test_bad_tables_are_refused_by_field(data, path):
    with pytest.raises(Refusal) as refusal:
        P.read_table(data)
    assert path in refusal.value.fields, refusal.value.fields


@pytest.mark.parametrize(
    "data",
    [
        {"players": ["Ana", "Bo"], "options": {"card_count": "over_half"}},
        {"teams": TEAMS, "options": {"card_count": "over_half"}},  # two sides of two
    ],
)
def test_over_half_is_for_two_sides(data):
    assert P.read_table(data).options["card_count"] == "over_half"


# --- Values by rank ------------------------------------------------------------------------------


@pytest.mark.parametrize(("rank", "values"), list(VALUES.items()))
def test_the_value_helpers(rank, values):
    assert (simple(rank), triple(rank), four_of_a_kind(rank)) == values


def test_the_value_table_covers_every_rank():
    assert set(VALUES) == set(RANKS)


@pytest.mark.parametrize(("rank", "values"), list(VALUES.items()))
@pytest.mark.parametrize(
    ("event", "which"),
    [("ronda", 0), ("limpia", 0), ("rondin", 1), ("four_of_a_kind", 2)],
)
def test_events_pegged_at_once_score_by_rank(event, which, rank, values):
    replay = play(table(), peg("Bo", event, rank))
    assert replay.rounds[0].scores == pts(bo=values[which])
    assert replay.totals == pts(bo=values[which])
    assert replay.rounds[0].extra["pending"] is None
    said(replay.rounds[0])


@pytest.mark.parametrize(("rank", "values"), list(VALUES.items()))
def test_a_porrazo_scores_by_rank_once_it_stands(rank, values):
    replay = play(table(), porrazo("Bo", rank), CONFIRM)
    assert [r.scores for r in replay.rounds] == [pts(), pts(bo=values[0])]
    assert replay.totals == pts(bo=values[0])


@pytest.mark.parametrize(("rank", "values"), list(VALUES.items()))
def test_a_counter_porrazo_scores_by_rank_once_it_stands(rank, values):
    replay = play(table(), porrazo("Bo", rank), counter("Cy", rank), CONFIRM)
    assert [r.scores for r in replay.rounds] == [pts(), pts(), pts(cy=values[1])]
    assert replay.totals == pts(cy=values[1])


@pytest.mark.parametrize(("rank", "points"), [("A", 1), ("2", 2), ("3", 3), ("4", 4)])
def test_a_card_in_place_scores_its_value(rank, points):
    replay = play(table(), peg("Cy", "in_place", rank))
    assert replay.rounds[0].scores == pts(cy=points)
    said(replay.rounds[0])


@pytest.mark.parametrize(("rank", "values"), list(VALUES.items()))
def test_a_porrazos_limpia_is_valued_by_the_last_card(rank, values):
    # A porrazo of 5 (1) with a limpia ending on `rank`: 1 + simple.
    replay = play(table(), porrazo("Ana", "5", rank), CONFIRM)
    assert pending(replay.rounds[0])["points"] == 1 + values[0]
    assert replay.totals == pts(ana=1 + values[0])


# --- Provisional porrazos ------------------------------------------------------------------------


def test_rules_example_the_porrazo_stands():
    # A lone 7; Ana plays a 6, Bo plays a 6: porrazo 1 + limpia 1 (run 6-7, last card 7) = 2.
    replay = play(table(), porrazo("Bo", "6", "7"), CONFIRM)
    assert replay.rounds[0].scores == pts()  # provisional: nothing yet
    assert pending(replay.rounds[0]) == {
        "event": "porrazo",
        "player": "Bo",
        "rank": "6",
        "points": 2,
    }
    assert replay.rounds[1].scores == pts(bo=2)
    assert replay.rounds[1].extra["pending"] is None
    assert replay.totals == pts(bo=2)
    assert replay.state == {"dealer": "Ana", "pending": None}
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)
    said(replay.rounds[0])
    said(replay.rounds[1])


def test_rules_example_the_counter_porrazo():
    # Cy then plays a 6: counter-porrazo 3 + limpia 1 = 4 for Cy; Bo's 2 is void.
    replay = play(table(), porrazo("Bo", "6", "7"), counter("Cy", "6", "6"), CONFIRM)
    assert [r.scores for r in replay.rounds] == [pts(), pts(), pts(cy=4)]
    assert [r.totals for r in replay.rounds] == [pts(), pts(), pts(cy=4)]
    assert pending(replay.rounds[1]) == {
        "event": "counter_porrazo",
        "player": "Cy",
        "rank": "6",
        "points": 4,
    }
    assert replay.totals == pts(cy=4)  # Bo scores nothing
    assert "void" in said(replay.rounds[1])


def test_a_porrazo_stands_at_the_next_event_that_does_not_match():
    # Bo's porrazo of 6 with limpia 7 (2) stands when Cy pegs a limpia of K (4).
    replay = play(table(), porrazo("Bo", "6", "7"), peg("Cy", "limpia", "K"))
    assert replay.rounds[1].scores == pts(bo=2, cy=4)
    assert replay.totals == pts(bo=2, cy=4)
    assert replay.state["pending"] is None


def test_a_porrazo_stands_before_the_next_porrazo_is_held():
    # Bo's porrazo of Q (3) stands; Cy's porrazo of 9 (1) is the one now held.
    replay = play(table(), porrazo("Bo", "Q"), porrazo("Cy", "9"))
    assert replay.rounds[1].scores == pts(bo=3)
    assert pending(replay.rounds[1]) == {
        "event": "porrazo",
        "player": "Cy",
        "rank": "9",
        "points": 1,
    }
    assert replay.totals == pts(bo=3)


def test_a_porrazo_stands_before_the_card_count():
    # Bo's porrazo of J (2) stands; then Ana 29 vs Bo 23 gives Ana 6.
    replay = play(table("Ana", "Bo"), porrazo("Bo", "J"), cards(Ana=29, Bo=23))
    assert replay.rounds[1].scores == {"Ana": 6, "Bo": 2}
    assert replay.state == {"dealer": "Bo", "pending": None}


def test_a_porrazo_left_waiting_is_not_in_the_totals():
    replay = play(table(), peg("Ana", "ronda", "K"), porrazo("Bo", "K", "Q"))
    assert replay.totals == pts(ana=4)
    assert replay.state["dealer"] == "Ana"
    held = replay.state["pending"]
    assert {key: held[key] for key in ("event", "player", "rank", "points")} == {
        "event": "porrazo",
        "player": "Bo",
        "rank": "K",
        "points": 7,  # porrazo 4 + limpia 3
    }


def test_a_counter_porrazo_stands_at_the_next_event_too():
    # Cy's counter of J (6) stands when Ana pegs a ronda of 5 (1).
    replay = play(table(), porrazo("Bo", "J"), counter("Cy", "J"), peg("Ana", "ronda", "5"))
    assert replay.rounds[2].scores == pts(ana=1, cy=6)
    assert replay.totals == pts(ana=1, cy=6)


def test_a_counter_porrazo_voids_the_porrazos_limpia():
    # Bo's porrazo of K with limpia K (4 + 4) is void; Cy's counter of K without a limpia: 12.
    replay = play(table(), porrazo("Bo", "K", "K"), counter("Cy", "K"), CONFIRM)
    assert replay.totals == pts(cy=12)


@pytest.mark.parametrize("rank", ["5", "7", "Q"])
def test_a_counter_porrazo_of_another_rank_is_refused_at_rank(rank):
    stopped = impossible(table(), porrazo("Bo", "6"), counter("Cy", rank))
    assert stopped.n == 2
    assert not stopped.waiting
    assert_at(stopped.refusal, "rank", "6")


def test_a_counter_porrazo_matches_in_any_case():
    replay = play(table(), porrazo("Bo", "q"), counter("Cy", "Q"), CONFIRM)
    assert replay.totals == pts(cy=9)


@pytest.mark.parametrize(
    ("events", "n"),
    [
        ([counter("Cy", "6")], 1),
        ([peg("Ana", "ronda", "6"), counter("Cy", "6")], 2),
        ([porrazo("Bo", "6"), CONFIRM, counter("Cy", "6")], 3),  # it already stood
        ([porrazo("Bo", "6"), peg("Ana", "limpia", "2"), counter("Cy", "6")], 3),
        ([porrazo("Bo", "6"), counter("Cy", "6"), counter("Ana", "6")], 3),  # a counter pending
        ([benito("Ana")], 1),
        ([porrazo("Bo", "6"), benito("Cy")], 2),  # a San Benito answers a counter-porrazo
        ([porrazo("Bo", "6"), counter("Cy", "6"), CONFIRM, benito("Ana")], 4),
    ],
    ids=[
        "counter first",
        "counter after a ronda",
        "counter after confirm",
        "counter after the porrazo stood",
        "counter to a counter",
        "san benito first",
        "san benito to a porrazo",
        "san benito after confirm",
    ],
)
def test_a_counter_or_san_benito_with_nothing_to_answer_is_refused(events, n):
    stopped = impossible(table(), *events)
    assert stopped.n == n
    assert not stopped.waiting
    assert_at(stopped.refusal, "event")


@pytest.mark.parametrize(
    ("events", "n"),
    [
        ([CONFIRM], 1),
        ([peg("Ana", "ronda", "K"), CONFIRM], 2),
        ([porrazo("Bo", "6"), CONFIRM, CONFIRM], 3),
        ([porrazo("Bo", "6"), counter("Cy", "6"), CONFIRM, CONFIRM], 4),
    ],
)
def test_confirm_with_nothing_pending_is_refused(events, n):
    stopped = impossible(table(), *events)
    assert stopped.n == n
    assert not stopped.waiting
    assert_at(stopped.refusal, "event", "nothing")


# --- San Benito ----------------------------------------------------------------------------------


def test_a_san_benito_voids_the_counter_and_wins_at_once():
    # Bo's porrazo of 6, Cy's counter of 6 (3 + limpia 1), Ana's San Benito: Ana wins.
    replay = play(table(), porrazo("Bo", "6"), counter("Cy", "6", "6"), benito("Ana"))
    assert replay.rounds[2].scores == pts()
    assert replay.totals == pts()  # neither the porrazo nor the counter scores
    assert replay.state["pending"] is None
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Ana", 3)
    assert "San Benito" in said(replay.rounds[2])


def test_a_san_benito_wins_even_from_behind():
    # Bo 24 + 24 = 48; Ana's San Benito wins anyway (Bo's porrazo, Cy next, then Ana next).
    events = [peg("Bo", "four_of_a_kind", "K")] * 2
    replay = play(table(), *events, porrazo("Bo", "3"), counter("Cy", "3"), benito("Ana"))
    assert replay.totals == pts(bo=48)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Ana", 5)


def test_a_san_benito_wins_for_the_team():
    replay = play(teams(), porrazo("Ana", "8"), counter("Bo", "8"), benito("Cy"))
    assert replay.totals == sides()
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Us", 3)


def test_a_san_benito_ends_the_match_so_later_events_would_be_refused():
    replay = play(
        table(), porrazo("Bo", "6"), counter("Cy", "6"), benito("Ana"), peg("Bo", "ronda", "5")
    )
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Ana", 3)
    assert len(replay.rounds) == 4  # one more than ended_after: the engine refuses it


# --- The target ----------------------------------------------------------------------------------

# Bo 24 + 24 + 12 = 60, one short of 61.
SIXTY = [
    peg("Bo", "four_of_a_kind", "K"),
    peg("Bo", "four_of_a_kind", "K"),
    peg("Bo", "rondin", "K"),
]


def test_reaching_the_target_wins_at_once():
    replay = play(table(), *SIXTY, peg("Bo", "limpia", "2"))  # 60 + 1 = 61
    assert replay.rounds[-1].totals == pts(bo=61)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Bo", 4)
    assert "61" in said(replay.rounds[-1])
    before = play(table(), *SIXTY)
    assert (before.status, before.winner, before.ended_after) == (PLAYING, None, None)


@pytest.mark.parametrize(
    ("last", "ended_after"),
    [
        (peg("Bo", "ronda", "Q"), 4),  # 60 + 3 = 63
        (peg("Bo", "in_place", "4"), 4),
        (tendido("Bo", "2 4, 7 3"), 4),  # T1: 60 + 5
        (rondas(Bo="7 7", Cy="5 5"), 4),  # 60 + 1
        (cards(Ana=10, Bo=30, Cy=12), 4),  # 60 + 18
    ],
    ids=["ronda", "in place", "tendido", "rondas", "cards"],
)
def test_any_scoring_event_may_reach_the_target(last, ended_after):
    # Bo deals, so the tendido is his to lay.
    replay = play(table(first_dealer="Bo"), *SIXTY, last)
    assert replay.totals["Bo"] >= 61
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Bo", ended_after)


def test_the_match_ends_at_the_target_so_later_events_would_be_refused():
    replay = play(table(target=10), peg("Cy", "rondin", "K"), peg("Ana", "ronda", "5"))
    # Cy 12 ≥ 10 with the first event: the second is one too many.
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Cy", 1)
    assert len(replay.rounds) == 2


def test_the_target_option_counts():
    assert play(table(target=12), peg("Cy", "rondin", "K")).winner == "Cy"  # 12 ≥ 12
    assert play(table(target=13), peg("Cy", "rondin", "K")).status == PLAYING  # 12 < 13


@pytest.mark.parametrize(
    "next_event",
    [
        peg("Ana", "ronda", "5"),
        peg("Bo", "limpia", "K"),  # even by the porrazo's own player
        porrazo("Cy", "7"),
        peg("Ana", "in_place", "A"),
        tendido("Ana", "2 4, 7 3"),
        rondas(Ana="7 7"),
        cards(Ana=20, Bo=20, Cy=12),
    ],
    ids=["ronda", "limpia", "porrazo", "in place", "tendido", "rondas", "cards"],
)
def test_a_porrazo_that_would_reach_the_target_waits_for_a_counter_or_confirm(next_event):
    # Bo at 60; a porrazo of 5 would make 61.
    stopped = impossible(table(), *SIXTY, porrazo("Bo", "5"), next_event)
    assert stopped.n == 5
    assert stopped.waiting
    assert stopped.refusal.message
    held = play(table(), *SIXTY, porrazo("Bo", "5"))
    assert (held.status, held.winner) == (PLAYING, None)
    assert held.totals == pts(bo=60)


def test_a_porrazo_at_the_target_ends_the_match_once_confirmed():
    replay = play(table(), *SIXTY, porrazo("Bo", "5"), CONFIRM)
    assert replay.rounds[4].scores == pts(bo=1)
    assert replay.totals == pts(bo=61)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Bo", 5)


def test_a_porrazo_whose_limpia_reaches_the_target_waits_too():
    # Bo 24 + 24 + 6 = 54. A porrazo of 3 with a limpia of K: 1 + 4 = 5, 59 is short.
    events = [peg("Bo", "four_of_a_kind", "K")] * 2 + [peg("Bo", "four_of_a_kind", "10")]
    assert play(table(), *events, porrazo("Bo", "3", "K"), CONFIRM).totals == pts(bo=59)
    # A porrazo of K with a limpia of K: 4 + 4 = 8, 62 would reach 61.
    stopped = impossible(table(), *events, porrazo("Bo", "K", "K"), peg("Ana", "ronda", "5"))
    assert (stopped.n, stopped.waiting) == (5, True)  # 54 + 4 + 4 = 62
    replay = play(table(), *events, porrazo("Bo", "K", "K"), CONFIRM)
    assert replay.totals == pts(bo=62)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Bo", 5)


def test_a_counter_porrazo_answers_a_porrazo_at_the_target():
    replay = play(table(), *SIXTY, porrazo("Bo", "5"), counter("Cy", "5"))
    assert replay.totals == pts(bo=60)
    assert (replay.status, replay.winner, replay.ended_after) == (PLAYING, None, None)
    replay = play(table(), *SIXTY, porrazo("Bo", "5"), counter("Cy", "5"), peg("Ana", "ronda", "J"))
    assert replay.totals == pts(ana=2, bo=60, cy=3)  # Bo's 1 void, Cy's 3 stands
    assert replay.status == PLAYING


def test_a_counter_porrazo_at_the_target_waits_too():
    # Cy 24 + 24 + 12 = 60; Bo's porrazo of 9, Cy's counter of 9 (3) would make 63.
    cy = [peg("Cy", "four_of_a_kind", "K")] * 2 + [peg("Cy", "rondin", "K")]
    stopped = impossible(
        table(), *cy, porrazo("Bo", "9"), counter("Cy", "9"), cards(Ana=52, Bo=0, Cy=0)
    )
    assert (stopped.n, stopped.waiting) == (6, True)
    replay = play(table(), *cy, porrazo("Bo", "9"), counter("Cy", "9"), CONFIRM)
    assert replay.totals == pts(cy=63)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Cy", 6)
    replay = play(table(), *cy, porrazo("Bo", "9"), counter("Cy", "9"), benito("Ana"))
    assert replay.totals == pts(cy=60)
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, "Ana", 6)


def test_a_porrazo_short_of_the_target_does_not_wait():
    # Bo 24 + 24 = 48; a porrazo of K (4) would make 52 < 61: it stands at the next event.
    events = [peg("Bo", "four_of_a_kind", "K")] * 2
    replay = play(table(), *events, porrazo("Bo", "K"), peg("Ana", "ronda", "5"))
    assert replay.totals == pts(ana=1, bo=52)
    assert replay.status == PLAYING


# --- Who may peg what, and when (RULES.md §5, December 2026) -----------------------------------
# "A counter-porrazo is made by the next player after the porrazo's maker, in the order of play;
# a San Benito by the next player after the counter-porrazo's maker." Play goes clockwise, in
# seat order: Ana, Bo, Cy, then Ana again.

NEXT = [("Ana", "Bo"), ("Bo", "Cy"), ("Cy", "Ana")]


@pytest.mark.parametrize(("maker", "next_one"), NEXT)
def test_the_counter_porrazo_is_the_next_players(maker, next_one):
    replay = play(table(), porrazo(maker, "6"), counter(next_one, "6"), CONFIRM)
    assert replay.totals == {name: 3 if name == next_one else 0 for name in THREE}


@pytest.mark.parametrize(
    ("maker", "next_one", "who"),
    [(maker, next_one, who) for maker, next_one in NEXT for who in THREE if who != next_one],
)
def test_a_counter_porrazo_by_anyone_else_is_refused_naming_the_next_player(maker, next_one, who):
    stopped = impossible(table(), porrazo(maker, "6"), counter(who, "6"))
    assert (stopped.n, stopped.waiting) == (2, False)
    assert_at(
        stopped.refusal,
        "player",
        f"The counter-porrazo to {maker}'s porrazo of 6 is made by {next_one}, the next player, "
        f"not {who}.",
    )


def test_the_porrazos_own_maker_cannot_counter_it():
    # The RULES.md example, with Bo matching his own porrazo: refused, Cy is the next player.
    stopped = impossible(table(), porrazo("Bo", "6", "7"), counter("Bo", "6", "6"))
    assert stopped.n == 2
    assert_at(stopped.refusal, "player", "made by Cy, the next player, not Bo")
    # Nothing was scored or voided: Bo's porrazo still waits.
    held = play(table(), porrazo("Bo", "6", "7"))
    assert pending(held.rounds[0])["player"] == "Bo"


def test_with_two_players_the_other_one_counters_and_the_maker_answers_with_san_benito():
    seated = table("Ana", "Bo")
    replay = play(seated, porrazo("Ana", "9"), counter("Bo", "9"), benito("Ana"))
    assert (replay.status, replay.winner) == (FINISHED, "Ana")
    stopped = impossible(seated, porrazo("Ana", "9"), counter("Ana", "9"))
    assert_at(stopped.refusal, "player", "made by Bo, the next player, not Ana")


def test_a_wrong_player_and_a_wrong_rank_are_both_named():
    stopped = impossible(table(), porrazo("Bo", "6"), counter("Bo", "7"))
    assert set(stopped.refusal.fields) == {"player", "rank"}
    assert "2 things to fix" in stopped.refusal.message


@pytest.mark.parametrize(
    ("maker", "counter_by", "next_one", "who"),
    [
        ("Bo", "Cy", "Ana", "Cy"),  # the counter-porrazo's own maker
        ("Bo", "Cy", "Ana", "Bo"),  # the porrazo's maker
        ("Cy", "Ana", "Bo", "Ana"),
        ("Cy", "Ana", "Bo", "Cy"),
    ],
)
def test_the_san_benito_is_the_next_players_after_the_counter(maker, counter_by, next_one, who):
    events = [porrazo(maker, "6"), counter(counter_by, "6")]
    stopped = impossible(table(), *events, benito(who))
    assert (stopped.n, stopped.waiting) == (3, False)
    assert_at(
        stopped.refusal,
        "player",
        f"The San Benito to {counter_by}'s counter-porrazo of 6 is made by {next_one}, "
        f"the next player, not {who}.",
    )
    replay = play(table(), *events, benito(next_one))
    assert (replay.status, replay.winner, replay.ended_after) == (FINISHED, next_one, 3)


# "In partnerships the next player is always an opponent, so a counter-porrazo or San Benito
# credited to the maker's own side is impossible." Us are Ana and Cy, Them Bo and Di.

PARTNERSHIP_ANSWERS = [
    # (events before, the answer, field words) — the answer is refused.
    ([porrazo("Ana", "Q")], counter("Cy", "Q"), "can't go to Us, the side of Ana's porrazo of Q"),
    ([porrazo("Ana", "Q")], counter("Us", "Q"), "it is made by Bo, the next player."),
    ([porrazo("Ana", "Q")], counter("Ana", "Q"), "can't go to Us"),
    ([porrazo("Ana", "Q")], counter("Di", "Q"), "made by Bo, the next player, not Di."),
    ([porrazo("Di", "Q")], counter("Bo", "Q"), "it is made by Ana, the next player."),
    ([porrazo("Us", "Q")], counter("Cy", "Q"), "made by the next player, for Them."),
    ([porrazo("Them", "Q")], counter("Them", "Q"), "can't go to Them"),
    (
        [porrazo("Ana", "Q"), counter("Bo", "Q")],
        benito("Di"),
        "can't go to Them, the side of Bo's counter-porrazo of Q: it is made by Cy",
    ),
    ([porrazo("Ana", "Q"), counter("Bo", "Q")], benito("Them"), "can't go to Them"),
    ([porrazo("Ana", "Q"), counter("Bo", "Q")], benito("Ana"), "made by Cy, the next player"),
    ([porrazo("Ana", "Q"), counter("Them", "Q")], benito("Bo"), "for Us."),
]


@pytest.mark.parametrize(("before", "answer", "words"), PARTNERSHIP_ANSWERS)
def test_with_partnerships_an_answer_for_the_makers_own_side_is_refused(before, answer, words):
    stopped = impossible(teams(), *before, answer)
    assert (stopped.n, stopped.waiting) == (len(before) + 1, False)
    assert_at(stopped.refusal, "player", words)


@pytest.mark.parametrize(
    ("before", "answer", "winner"),
    [
        ([porrazo("Ana", "Q")], counter("Bo", "Q"), None),
        ([porrazo("Ana", "Q")], counter("Them", "Q"), None),  # the side of the next player
        ([porrazo("Us", "Q")], counter("Di", "Q"), None),  # by side: some opponent is next
        ([porrazo("Di", "Q")], counter("Ana", "Q"), None),
        ([porrazo("Ana", "Q"), counter("Bo", "Q")], benito("Cy"), "Us"),
        ([porrazo("Ana", "Q"), counter("Bo", "Q")], benito("Us"), "Us"),
        ([porrazo("Bo", "Q"), counter("Cy", "Q")], benito("Di"), "Them"),
    ],
)
def test_with_partnerships_the_next_player_answers(before, answer, winner):
    replay = play(teams(), *before, answer)
    assert replay.winner == winner
    assert replay.state["pending"] is None or replay.state["pending"]["player"] == answer["player"]


def test_with_six_in_partnerships_the_next_player_is_the_seat_on_the_left():
    seated = P.read_table({"teams": {"Us": ["A", "C", "E"], "Them": ["B", "D", "F"]}})
    assert seated.players == ("A", "B", "C", "D", "E", "F")
    assert play(seated, porrazo("E", "5"), counter("F", "5"), CONFIRM).totals == sides(0, 3)
    stopped = impossible(seated, porrazo("E", "5"), counter("B", "5"))
    assert_at(stopped.refusal, "player", "made by F, the next player, not B.")
    stopped = impossible(seated, porrazo("E", "5"), counter("C", "5"))
    assert_at(stopped.refusal, "player", "can't go to Us")


# "The tendido is laid by the dealer, once per dealer's turn (the dealer's turn ends with the
# end-of-hand card count, when the deal passes on)."

HAND = cards(Ana=20, Bo=20, Cy=12)  # a tie: nobody scores, the deal passes on


@pytest.mark.parametrize("who", ["Bo", "Cy"])
def test_a_tendido_by_a_player_not_dealing_is_refused_naming_the_dealer(who):
    stopped = impossible(table(), tendido(who, "2 4, 7 3"))
    assert (stopped.n, stopped.waiting) == (1, False)
    assert_at(stopped.refusal, "player", f"The tendido is laid by the dealer, Ana, not {who}.")


def test_a_second_tendido_in_the_dealers_turn_is_refused():
    # T1 (5), then another tendido before the card count: the next one is Bo's, after it.
    stopped = impossible(table(), tendido("Ana", "2 4, 7 3"), tendido("Ana", "4 Q, 4 Q", "5 6 Q"))
    assert (stopped.n, stopped.waiting) == (2, False)
    assert_at(
        stopped.refusal,
        "event",
        "Ana has laid this turn's tendido already: the next is Bo's, once the card count "
        "passes the deal on.",
    )
    # Pegs in between do not end the turn; only the card count does.
    stopped = impossible(
        table(), tendido("Ana", "2 4, 7 3"), peg("Bo", "ronda", "K"), tendido("Ana", "A 2, 3 4")
    )
    assert_at(stopped.refusal, "event", "already")


def test_each_dealer_lays_one_tendido_a_turn():
    # T1 by Ana (5); the hand ends, Bo deals and lays T2 (14); then Cy lays T1 (5).
    replay = play(
        table(),
        tendido("Ana", "2 4, 7 3"),
        HAND,
        tendido("Bo", "4 Q, 4 Q", "5 6 Q"),
        HAND,
        tendido("Cy", "2 4, 7 3"),
    )
    assert replay.totals == pts(5, 14, 5)
    stopped = impossible(table(), tendido("Ana", "2 4, 7 3"), HAND, tendido("Ana", "2 4, 7 3"))
    assert_at(stopped.refusal, "player", "laid by the dealer, Bo, not Ana.")


def test_with_partnerships_the_dealers_side_may_be_named_for_the_tendido():
    assert play(teams(), tendido("Us", "2 4, 7 3")).totals == sides(5, 0)  # Ana deals
    stopped = impossible(teams(), tendido("Them", "2 4, 7 3"))
    assert_at(stopped.refusal, "player", "laid by the dealer, Ana, not Them.")
    stopped = impossible(teams(), tendido("Cy", "2 4, 7 3"))
    assert_at(stopped.refusal, "player", "laid by the dealer, Ana, not Cy.")
    hand = cards(Us=26, Them=26)
    assert play(teams(), hand, tendido("Them", "2 4, 7 3")).totals == sides(0, 5)  # Bo deals


def test_a_tendido_by_the_wrong_player_is_refused_even_while_a_porrazo_waits():
    # Bo at 60 with a porrazo that would win: the dealer's tendido waits for it (409), but one
    # no table could lay is refused outright (422).
    held = [*SIXTY, porrazo("Bo", "5")]
    assert impossible(table(), *held, tendido("Ana", "2 4, 7 3")).waiting
    stopped = impossible(table(), *held, tendido("Cy", "2 4, 7 3"))
    assert (stopped.n, stopped.waiting) == (5, False)
    assert_at(stopped.refusal, "player", "laid by the dealer, Ana")


# "Rondas declared in one deal can't hold more than four cards of a rank between them, and no
# player holds more than three cards."


@pytest.mark.parametrize(
    ("declared", "words"),
    [
        ({"Ana": "7 7", "Bo": "7 7 7"}, "Ana and Bo declare 5 7s between them"),
        ({"Ana": "K K K", "Cy": "K K K"}, "Ana and Cy declare 6 Ks between them"),
        ({"Ana": "7 7", "Bo": "7 7", "Cy": "7 7"}, "Ana, Bo and Cy declare 6 7s"),
        ({"Ana": "5 5", "Bo": "J J J", "Cy": "J J"}, "Bo and Cy declare 5 Js"),
    ],
)
def test_rondas_holding_five_of_a_rank_are_refused(declared, words):
    assert_at(refused(table(), rondas(**declared)), "declared", words)


@pytest.mark.parametrize(
    ("declared", "best"),
    [
        ({"Ana": "7 7", "Bo": "7 7"}, pts(bo=1)),  # four 7s: Bo sits nearest Ana's left
        ({"Ana": "Q Q Q", "Bo": "5 5 5", "Cy": "K K"}, pts(ana=9)),  # three of each at most
    ],
)
def test_rondas_up_to_four_of_a_rank_are_taken(declared, best):
    assert play(table(), rondas(**declared)).rounds[0].scores == best


def test_with_partnerships_five_of_a_rank_are_refused_too():
    refusal = refused(teams(), rondas(Ana="9 9", Bo="9 9", Cy="9 9"))
    assert_at(refusal, "declared", "Ana, Bo and Cy declare 6 9s")


# "A limpia's last card follows from the run rule: with wrap off, a run going up from the played
# rank stops at the king." The porrazo's (or counter's) rank is the card played.


def run_from(played: str, last: str) -> list[str]:
    """Return the run from the played rank up to the last card, wrapping if it must."""
    start = RANKS.index(played)
    length = (RANKS.index(last) - start) % len(RANKS) + 1
    return [RANKS[(start + i) % len(RANKS)] for i in range(length)]


@pytest.mark.parametrize("wrap", [True, False])
@pytest.mark.parametrize("played", RANKS)
def test_a_porrazos_limpia_is_taken_only_if_the_run_can_end_there(played, wrap):
    # The limpia a run from the played card makes, by the capture helper, is the one taken.
    seated = table(wrap=wrap)
    for last in RANKS:
        reachable = capture(run_from(played, last), played, wrap)[1] is not None
        for answer in (porrazo("Bo", played, last), counter("Bo", played, last)):
            if reachable:
                assert P.read_round(seated, answer)["limpia"] == last
            else:
                assert_at(refused(seated, answer), "limpia", f"not on {last}")


def test_without_wrap_the_rules_example_q_k_a_2_is_refused():
    # Table A-2-Q-K, play Q: with wrap on, Q-K-A-2 → 1; with wrap off the run stops at K.
    assert play(table(), porrazo("Bo", "Q", "2"), CONFIRM).totals == pts(bo=3 + 1)
    refusal = refused(table(wrap=False), porrazo("Bo", "Q", "2"))
    assert_at(
        refusal,
        "limpia",
        "Runs stop at the king in this match: a limpia made by Bo's Q ends on a card from Q to "
        "K, not on 2.",
    )
    assert play(table(wrap=False), porrazo("Bo", "Q", "K"), CONFIRM).totals == pts(bo=3 + 4)


def test_the_rules_say_the_order_of_play_and_who_pegs_what():
    rules = {rule.title: rule for rule in P.rules(table().options)}
    assert "clockwise, starting on the dealer's left" in rules["Order of play"].text
    assert "always an opponent" in rules["Order of play"].text
    who = rules["Who pegs what"].text
    assert "The next player after a porrazo's maker makes the counter-porrazo" in who
    assert "The dealer lays the tendido, once a turn" in who
    assert "at most four cards of a rank" in who
    assert "stops at the king" not in who
    no_wrap = {rule.title: rule.text for rule in P.rules(table(wrap=False).options)}
    assert no_wrap["Who pegs what"].endswith(
        "A limpia's run stops at the king: it never ends below the card played."
    )
    # The rules are linked to the pegs they decide: the counter-porrazo (2), the tendido (3).
    events = [porrazo("Bo", "6"), counter("Cy", "6"), tendido("Ana", "2 4, 7 3")]
    results = play(table(), *events).rounds

    def linked(title: str) -> list[int]:
        applies = rules[title].applies
        return [n for n, (e, r) in enumerate(zip(events, results, strict=True), 1) if applies(e, r)]

    assert (linked("Order of play"), linked("Who pegs what")) == ([2], [2, 3])


# --- Limpias: the capture helper -----------------------------------------------------------------

CAPTURES = [
    # RULES.md examples.
    ("4-5, play 4", "4 5", "4", True, ["4", "5"], 1),
    ("8-9-10-J, play 8", "8 9 10 J", "8", True, ["8", "9", "10", "J"], 2),
    ("Q, play Q", "Q", "Q", True, ["Q"], 3),
    ("A-2-Q-K, play Q", "A 2 Q K", "Q", True, ["Q", "K", "A", "2"], 1),
    ("A-2-Q-K, play Q, no wrap", "A 2 Q K", "Q", False, ["Q", "K"], None),
    # More.
    ("K, play K", "K", "K", True, ["K"], 4),
    ("J, play J", "J", "J", False, ["J"], 2),
    ("7, play 7", "7", "7", True, ["7"], 1),
    ("10-J-Q-K, play 10", "K Q J 10", "10", True, ["10", "J", "Q", "K"], 4),
    ("9-10-J-Q, play 9", "9 10 J Q", "9", False, ["9", "10", "J", "Q"], 3),
    ("K-A, play K", "K A", "K", True, ["K", "A"], 1),
    ("K-A, play K, no wrap", "K A", "K", False, ["K"], None),
    ("4-5-9, play 4: the 9 stays", "4 5 9", "4", True, ["4", "5"], None),
    ("4-6, play 4: the run breaks", "4 6", "4", True, ["4"], None),
    ("5-6, play 6: only up the run", "5 6", "6", True, ["6"], None),
    ("5-6, play 9: no match", "5 6", "9", True, [], None),
    ("empty table", "", "9", True, [], None),
]


@pytest.mark.parametrize(
    ("on_table", "played", "wrap", "captured", "limpia"),
    [case[1:] for case in CAPTURES],
    ids=[case[0] for case in CAPTURES],
)
def test_capture(on_table, played, wrap, captured, limpia):
    assert capture(on_table.split(), played, wrap) == (captured, limpia)


# --- Rondas --------------------------------------------------------------------------------------

BEST = [
    # Any rondín beats any ronda: Bo's 2-2-2 (3) over Ana's K-K.
    ("rondin beats ronda", {"Ana": "K K", "Bo": "2 2 2"}, "Bo", 3),
    ("rondin beats ronda, later seat", {"Bo": "K K", "Cy": "A A A"}, "Cy", 3),
    # A higher rank beats a lower one.
    ("K pair beats Q pair", {"Ana": "Q Q", "Bo": "K K"}, "Bo", 4),
    ("J rondin beats 5 rondin", {"Ana": "J J J", "Bo": "5 5 5"}, "Ana", 6),
    ("10 beats 9", {"Bo": "9 9", "Cy": "10 10"}, "Cy", 1),
    ("Q rondin beats J rondin", {"Cy": "J J J", "Ana": "Q Q Q"}, "Ana", 9),
    # Equals: Ana deals, so Bo sits first on her left, then Cy, then Ana herself.
    # (A pack has four of a rank, so only two pairs can tie.)
    ("tie, Bo first on the dealer's left", {"Bo": "7 7", "Cy": "7 7"}, "Bo", 1),
    ("tie, Cy before the dealer", {"Ana": "K K", "Cy": "K K"}, "Cy", 4),
    ("alone", {"Ana": "J J"}, "Ana", 2),
]


@pytest.mark.parametrize(
    ("declared", "best", "points"), [case[1:] for case in BEST], ids=[case[0] for case in BEST]
)
def test_only_the_best_ronda_scores(declared, best, points):
    event = rondas(**declared)
    read = P.read_round(table(), event)
    assert best_ronda(table(), read["declared"], "Ana") == best
    replay = play(table(), event)
    assert replay.rounds[0].scores == {name: points if name == best else 0 for name in THREE}
    said(replay.rounds[0])


@pytest.mark.parametrize(
    ("dealer", "best"),
    [
        # Ana and Cy tie; clockwise from the dealer's left: Ana deals → Bo, Cy, Di, Ana.
        ("Ana", "Cy"),
        ("Bo", "Cy"),  # Cy, Di, Ana, Bo
        ("Cy", "Ana"),  # Di, Ana, Bo, Cy
        ("Di", "Ana"),  # Ana, Bo, Cy, Di
    ],
)
def test_tied_rondas_go_to_the_player_nearest_the_dealers_left(dealer, best):
    seated = table(*FOUR)
    read = P.read_round(seated, rondas(Ana="Q Q", Cy="Q Q"))
    assert best_ronda(seated, read["declared"], dealer) == best
    # The same through the first dealer option ...
    by_option = play(table(*FOUR, first_dealer=dealer), rondas(Ana="Q Q", Cy="Q Q"))
    assert by_option.state["dealer"] == dealer
    assert by_option.totals == {name: 3 if name == best else 0 for name in FOUR}
    # ... and through hands played: each card count moves the deal one seat on.
    hands = [cards(Ana=13, Bo=13, Cy=13, Di=13)] * FOUR.index(dealer)  # all tie: nobody scores
    by_hands = play(seated, *hands, rondas(Ana="Q Q", Cy="Q Q"))
    assert by_hands.state["dealer"] == dealer
    assert by_hands.totals == {name: 3 if name == best else 0 for name in FOUR}


def test_the_dealer_moves_between_two_rondas():
    # Bo and Cy tie with 7-7: Ana deals → Bo wins; after a hand Bo deals → Cy wins.
    hand = cards(Ana=13, Bo=13, Cy=13, Di=13)
    replay = play(table(*FOUR), rondas(Bo="7 7", Cy="7 7"), hand, rondas(Bo="7 7", Cy="7 7"))
    assert replay.rounds[0].scores == {"Ana": 0, "Bo": 1, "Cy": 0, "Di": 0}
    assert replay.rounds[2].scores == {"Ana": 0, "Bo": 0, "Cy": 1, "Di": 0}


PARTNERS = [
    # Cy's rondín of 5 (3) is best; partner Ana's own 7-7 (1) scores too: Us 3 + 1 = 4.
    ("best and partner", {"Ana": "7 7", "Bo": "Q Q", "Cy": "5 5 5", "Di": "K K"}, (4, 0)),
    # Bo's K-K (4) is best; partner Di's 2-2 (1) too: Them 4 + 1 = 5; Ana's Q-Q nothing.
    ("other team", {"Ana": "Q Q", "Bo": "K K", "Di": "2 2"}, (0, 5)),
    # Di's rondín of J (6); partner Bo's rondín of 10 (3): Them 9.
    ("two rondines", {"Bo": "10 10 10", "Cy": "K K", "Di": "J J J"}, (0, 9)),
    # Bo's K-K alone: the partner declared nothing.
    ("partner without one", {"Ana": "Q Q", "Bo": "K K", "Cy": "J J"}, (0, 4)),
    # Ana and Bo tie on 8-8: Ana deals, Bo wins; Di's own 3-3: Them 1 + 1 = 2.
    ("tie, then partner", {"Ana": "8 8", "Bo": "8 8", "Di": "3 3"}, (0, 2)),
]


@pytest.mark.parametrize(
    ("declared", "expected"), [case[1:] for case in PARTNERS], ids=[case[0] for case in PARTNERS]
)
def test_with_partnerships_the_partners_own_ronda_scores_too(declared, expected):
    replay = play(teams(), rondas(**declared))
    assert replay.rounds[0].scores == sides(*expected)
    assert replay.totals == sides(*expected)
    said(replay.rounds[0])


def test_a_ronda_event_goes_to_the_team():
    replay = play(
        teams(), peg("Cy", "ronda", "K"), peg("Them", "rondin", "Q"), peg("us", "limpia", "J")
    )
    assert [r.scores for r in replay.rounds] == [sides(4, 0), sides(0, 9), sides(2, 0)]
    assert replay.totals == sides(6, 9)


def test_porrazos_with_partnerships_go_to_the_team():
    # Ana's porrazo of Q (3) void; Bo's counter (9) + limpia 4 (1) stands at Di's ronda of 5.
    replay = play(teams(), porrazo("Ana", "Q"), counter("Bo", "Q", "4"), peg("Di", "ronda", "5"))
    assert replay.rounds[2].scores == sides(0, 11)
    assert replay.totals == sides(0, 11)


# --- The tendido ---------------------------------------------------------------------------------

IN_PLACE = {"A": 1, "2": 2, "3": 3, "4": 4}


def placed(row: tuple[str, ...]) -> int:
    """Score the cards in their own position: an A first, a 2 second, a 3 third, a 4 fourth."""
    return sum(IN_PLACE[card] for at, card in enumerate(row, start=1) if IN_PLACE.get(card) == at)


def test_t1():
    # 4-2-3-7 left to right: the 2 second and the 3 third, 2 + 3 = 5.
    count, row, sentences = best_tendido([["2", "4"], ["7", "3"]], [])
    assert count == 5
    assert 5 in (placed(row), placed(row[::-1]))  # 4-2-3-7, from one end or the other
    assert sentences
    replay = play(table(first_dealer="Bo"), tendido("Bo", "2 4, 7 3"))  # the dealer lays it
    assert replay.rounds[0].scores == pts(bo=5)
    said(replay.rounds[0])


def test_t2():
    # Pair of 4s 1, three queens (5-6-Q on the table) 9, a 4 fourth 4: 1 + 9 + 4 = 14.
    count, row, _ = best_tendido([["4", "Q"], ["4", "Q"]], ["5", "6", "Q"])
    assert count == 14
    assert 4 in (placed(row), placed(row[::-1]))  # a 4 fourth, from one end or the other
    replay = play(table(first_dealer="Bo"), tendido("Bo", "4 Q, 4 Q", "5 6 Q"))
    assert replay.rounds[0].scores == pts(bo=14)
    said(replay.rounds[0])


TENDIDOS = [
    # A first: 1; 2 second: 2; 3 third: 3; 4 fourth: 4. Pairs (A, 2), (3, 4): A-2-3-4 = 10.
    ("A 2, 3 4", "", 10),
    # (2, A) can be reversed too.
    ("2 A, 4 3", "", 10),
    # A-9-9-4: the A first 1, the 4 fourth 4, and the 9s a pair 1.
    ("A 9, 9 4", "", 1 + 4 + 1),
    # Four 7s: a double rondín, 2 × 3 = 6.
    ("7 7, 7 7", "", 6),
    # Four kings across tendido and table: 24.
    ("K K, 5 6", "K K", 24),
    # Table cards alone make nothing: the 8s on the table are not counted.
    ("9 10, J 5", "8 8", 0),
    # One tendido card with a table pair: three of Q, 9.
    ("Q 5, 6 7", "Q Q", 9),
    # Two sets: pair of J 2, three 3s (one on the table) 3; 3 third 3.
    ("J J, 3 3", "3", 2 + 3 + 3),
]


@pytest.mark.parametrize(("pairs", "on_table", "count"), TENDIDOS)
def test_tendidos(pairs, on_table, count):
    entered = tendido("Ana", pairs, on_table)
    assert best_tendido(entered["pairs"], entered["table"])[0] == count
    assert play(table(), entered).totals == pts(ana=count)


def every_row(pairs: list[list[str]]) -> list[tuple[str, ...]]:
    """Enumerate the 16 rows: either pair first, each pair either way, read from either end."""
    laid = []
    for first, second in permutations(pairs):
        for a in permutations(first):
            for b in permutations(second):
                row = (*a, *b)
                laid += [row, row[::-1]]
    assert len(laid) == 16
    return laid


def sets(pairs: list[list[str]], on_table: list[str]) -> int:
    """Score every set of equal ranks that includes a tendido card: pair, three or four."""
    laid = [card for pair in pairs for card in pair]
    every = Counter(laid + on_table)
    return sum(
        VALUES[rank][{2: 0, 3: 1, 4: 2}[count]]
        for rank, count in every.items()
        if rank in laid and count >= 2
    )


@pytest.mark.parametrize("seed", range(10))
def test_best_tendido_is_the_best_of_every_row(seed):
    deal = random.Random(seed)
    for _ in range(60):
        # Half the deals from a small pack, where cards in place and sets are common.
        ranks = RANKS if deal.random() < 0.5 else ("A", "2", "3", "4", "5", "K")
        pack = [rank for rank in ranks for _ in range(4)]
        deal.shuffle(pack)
        pairs = [pack[0:2], pack[2:4]]
        on_table = pack[4 : 4 + deal.randint(0, 5)]
        count, row, sentences = best_tendido(pairs, on_table)
        best = max(placed(laid) for laid in every_row(pairs))
        assert count == best + sets(pairs, on_table), (pairs, on_table)
        assert row in every_row(pairs), (pairs, row)
        assert placed(row) == best, (pairs, row)
        assert sentences


# --- The card count ------------------------------------------------------------------------------

COUNTS = [
    ("difference", {"Ana": 29, "Bo": 23}, "difference", ("Ana", 6)),  # 29 − 23
    ("difference, second wins", {"Ana": 20, "Bo": 32}, "difference", ("Bo", 12)),
    ("over half", {"Ana": 29, "Bo": 23}, "over_half", ("Ana", 3)),  # 29 − 26
    ("over half, second wins", {"Ana": 12, "Bo": 40}, "over_half", ("Bo", 14)),
    ("three players", {"Ana": 20, "Bo": 18, "Cy": 14}, "difference", ("Ana", 2)),  # 20 − 18
    ("three, Bo and Cy tie for most", {"Ana": 12, "Bo": 20, "Cy": 20}, "difference", (None, 0)),
    ("three, tie for second", {"Ana": 24, "Bo": 14, "Cy": 14}, "difference", ("Ana", 10)),
    ("tie for most", {"Ana": 20, "Bo": 20, "Cy": 12}, "difference", (None, 0)),
    ("two tie", {"Ana": 26, "Bo": 26}, "difference", (None, 0)),
    ("two tie, over half", {"Ana": 26, "Bo": 26}, "over_half", (None, 0)),
    ("one takes all", {"Ana": 52, "Bo": 0}, "difference", ("Ana", 52)),
    ("one takes all, over half", {"Ana": 52, "Bo": 0}, "over_half", ("Ana", 26)),
]


@pytest.mark.parametrize(
    ("counts", "option", "expected"),
    [case[1:] for case in COUNTS],
    ids=[case[0] for case in COUNTS],
)
def test_card_count(counts, option, expected):
    side, points, sentence = card_count(counts, option)
    assert (side, points) == expected
    assert sentence


@pytest.mark.parametrize(
    ("seated", "counts", "expected"),
    [
        (table("Ana", "Bo"), {"Ana": 29, "Bo": 23}, {"Ana": 6, "Bo": 0}),
        (table("Ana", "Bo", card_count="over_half"), {"Ana": 29, "Bo": 23}, {"Ana": 3, "Bo": 0}),
        (table(), {"Ana": 20, "Bo": 18, "Cy": 14}, pts(ana=2)),
        (table(), {"Ana": 20, "Bo": 20, "Cy": 12}, pts()),
        (table(), {"ana": 14, "BO": 18, "Cy": 20}, pts(cy=2)),
    ],
    ids=["difference", "over half", "three", "tie", "names in any case"],
)
def test_the_card_count_is_pegged(seated, counts, expected):
    replay = play(seated, cards(**counts))
    assert replay.rounds[0].scores == expected
    assert replay.totals == expected
    said(replay.rounds[0])


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"Us": 29, "Them": 23}, sides(6, 0)),
        ({"us": 29, "THEM": 23}, sides(6, 0)),
        ({"Ana": 29, "Bo": 23}, sides(6, 0)),  # a player's name counts for their team
        ({"Cy": 20, "Di": 32}, sides(0, 12)),
        ({"Cy": 20, "Them": 32}, sides(0, 12)),
    ],
)
def test_with_partnerships_cards_are_counted_by_team(counts, expected):
    read = P.read_round(teams(), cards(**counts))
    assert set(read["counts"]) == {"Us", "Them"}
    assert sum(read["counts"].values()) == 52
    assert play(teams(), cards(**counts)).totals == expected


def test_with_partnerships_over_half_counts_the_teams():
    assert play(teams(card_count="over_half"), cards(Ana=29, Di=23)).totals == sides(3, 0)


@pytest.mark.parametrize(
    ("counts", "per_side"),
    [
        ({"Ana": 15, "Cy": 14, "Bo": 23}, {"Us": 29, "Them": 23}),
        ({"Ana": 29, "Us": 0, "Them": 23}, {"Us": 29, "Them": 23}),
        ({"Us": 0, "Ana": 29, "Them": 23}, {"Us": 29, "Them": 23}),
    ],
    ids=["both partners", "player then team", "team then player"],
)
def test_a_side_counted_twice_is_added_up_or_refused_by_name(counts, per_side):
    # A team given twice (by its name and a player's, or by both partners) must not be
    # overwritten by whichever comes last: either the counts add up for the team, or the
    # repeat is refused at its own field.
    try:
        read = P.read_round(teams(), cards(**counts))
    except Refusal as refusal:
        assert set(refusal.fields) & {f"counts.{name}" for name in counts}, refusal.fields
    else:
        assert read["counts"] == per_side


@pytest.mark.parametrize(
    ("seated", "counts", "path"),
    [
        (table("Ana", "Bo"), {"Ana": 29, "Bo": 22}, "counts"),  # 51
        (table("Ana", "Bo"), {"Ana": 29, "Bo": 24}, "counts"),  # 53
        (table(), {"Ana": 20, "Bo": 18, "Cy": 15}, "counts"),  # 53
        (table("Ana", "Bo"), {"Ana": 52}, "counts.Bo"),
        (table(), {"Ana": 30, "Bo": 22}, "counts.Cy"),
        (teams(), {"Us": 52}, "counts.Them"),
        (teams(), {"Ana": 52}, "counts.Them"),
        (table("Ana", "Bo"), {"Ana": 53, "Bo": -1}, "counts.Ana"),
        (table("Ana", "Bo"), {"Ana": "29", "Bo": 23}, "counts.Ana"),
        (table("Ana", "Bo"), {"Ana": 29, "Zed": 23}, "counts.Zed"),
        (table("Ana", "Bo"), {"Ana": 29.0, "Bo": 23}, "counts.Ana"),
    ],
    ids=[
        "51",
        "53",
        "three, 53",
        "a side missing",
        "three, a side missing",
        "a team missing",
        "a team missing, by player",
        "over 52",
        "text",
        "a stranger",
        "a float",
    ],
)
def test_bad_counts_are_refused_by_field(seated, counts, path):
    assert_at(refused(seated, cards(**counts)), path)


def test_counts_must_be_an_object():
    assert_at(refused(table(), {"event": "cards", "counts": [29, 23]}), "counts")
    assert_at(refused(table(), {"event": "cards"}), "counts")


# --- The dealer ----------------------------------------------------------------------------------


def test_the_dealer_moves_to_the_next_seat_after_each_hand():
    hand = cards(Ana=20, Bo=20, Cy=12)  # a tie: nobody scores
    dealers = [play(table(), *[hand] * played).state["dealer"] for played in range(5)]
    assert dealers == ["Ana", "Bo", "Cy", "Ana", "Bo"]
    replay = play(table(), hand, hand)
    assert [r.scores for r in replay.rounds] == [pts(), pts()]
    assert "Cy" in said(replay.rounds[1])  # who deals next


def test_the_first_dealer_option_starts_the_turn():
    hand = cards(Ana=20, Bo=20, Cy=12)
    assert play(table(first_dealer="Cy")).state["dealer"] == "Cy"
    assert play(table(first_dealer="Cy"), hand).state["dealer"] == "Ana"


def test_each_peg_names_whoever_was_dealing_when_it_was_pegged():
    hand = cards(Ana=20, Bo=20, Cy=12)
    pegs = [peg("Bo", "ronda", "K"), hand, peg("Cy", "limpia", "Q"), hand, hand]
    replay = play(table(first_dealer="Bo"), *pegs)
    assert [r.dealer for r in replay.rounds] == ["Bo", "Bo", "Cy", "Cy", "Ana"]
    assert replay.state["dealer"] == "Bo"  # round the table once


def test_an_unknown_first_dealer_is_refused():
    with pytest.raises(Refusal) as refusal:
        table(first_dealer="Zed")
    assert_at(refusal.value, "options.first_dealer", "'Zed' is not a player")


def test_a_match_stored_before_the_first_dealer_option_deals_from_the_first_seat():
    seated = table()
    older = Table(seated.players, {k: v for k, v in seated.options.items() if k != "first_dealer"})
    replay = play(older, cards(Ana=20, Bo=20, Cy=12))
    assert (replay.rounds[0].dealer, replay.state["dealer"]) == ("Ana", "Bo")


def test_the_rules_say_who_deals_first_and_which_way():
    rules = {rule.title: rule.text for rule in P.rules(table(first_dealer="Cy").options)}
    assert rules["Who deals"] == (
        "First dealer: Cy. After each deal, the player to the left deals (clockwise)."
    )


def test_with_partnerships_the_deal_goes_round_every_seat():
    hand = cards(Us=26, Them=26)
    dealers = [play(teams(), *[hand] * played).state["dealer"] for played in range(5)]
    assert dealers == ["Ana", "Bo", "Cy", "Di", "Ana"]


@pytest.mark.parametrize(
    "event",
    [peg("Ana", "ronda", "K"), porrazo("Bo", "6"), tendido("Ana", "2 4, 7 3"), rondas(Bo="5 5")],
    ids=["ronda", "porrazo", "tendido", "rondas"],
)
def test_only_the_card_count_moves_the_dealer(event):
    assert play(table(), event).state["dealer"] == "Ana"


# --- The shape of an event -----------------------------------------------------------------------


def test_events_are_read_in_canonical_spelling():
    assert P.read_round(table(), porrazo("bo", "q", "k")) == {
        "event": "porrazo",
        "player": "Bo",
        "rank": "Q",
        "limpia": "K",
    }
    assert P.read_round(table(), peg("CY", "in_place", "a")) == {
        "event": "in_place",
        "player": "Cy",
        "rank": "A",
    }
    assert P.read_round(table(), tendido("ana", "2 4, 7 3", "5")) == {
        "event": "tendido",
        "player": "Ana",
        "pairs": [["2", "4"], ["7", "3"]],
        "table": ["5"],
    }
    assert P.read_round(table(), rondas(ana="7 7", Bo="j j j")) == {
        "event": "rondas",
        "declared": {"Ana": ["7", "7"], "Bo": ["J", "J", "J"]},
    }
    assert P.read_round(table(), CONFIRM) == {"event": "confirm"}
    assert P.read_round(table(), benito("ana")) == {"event": "san_benito", "player": "Ana"}
    assert P.read_round(teams(), peg("them", "ronda", "5"))["player"] == "Them"
    assert P.read_round(teams(), peg("di", "ronda", "5"))["player"] == "Di"


def test_a_tendido_without_table_cards_has_an_empty_table():
    entered = {"player": "Ana", "event": "tendido", "pairs": [["2", "4"], ["7", "3"]]}
    assert P.read_round(table(), entered)["table"] == []


BAD_EVENTS = [
    # A rank where none belongs.
    ("tendido with rank", {**tendido("Ana", "2 4, 7 3"), "rank": "5"}, "rank", "no rank"),
    ("cards with rank", {**cards(Ana=20, Bo=20, Cy=12), "rank": "5"}, "rank", "no rank"),
    ("rondas with rank", {**rondas(Ana="7 7"), "rank": "7"}, "rank", "no rank"),
    ("confirm with rank", {"event": "confirm", "rank": "7"}, "rank", "no rank"),
    ("san benito with rank", peg("Ana", "san_benito", "7"), "rank", "no rank"),
    # A missing or bad rank.
    ("porrazo without rank", peg("Ana", "porrazo"), "rank", ""),
    ("counter without rank", peg("Ana", "counter_porrazo"), "rank", ""),
    ("ronda without rank", peg("Ana", "ronda"), "rank", ""),
    ("rondin without rank", peg("Ana", "rondin"), "rank", ""),
    ("four without rank", peg("Ana", "four_of_a_kind"), "rank", ""),
    ("limpia without rank", peg("Ana", "limpia"), "rank", ""),
    ("in place without rank", peg("Ana", "in_place"), "rank", ""),
    ("in place with 5", peg("Ana", "in_place", "5"), "rank", "A, 2, 3 or 4"),
    ("in place with K", peg("Ana", "in_place", "K"), "rank", "A, 2, 3 or 4"),
    ("rank 11", peg("Ana", "ronda", "11"), "rank", ""),
    ("rank as a number", peg("Ana", "ronda", 7), "rank", ""),
    ("joker", peg("Ana", "ronda", "JK"), "rank", ""),
    # The limpia a porrazo made is checked at its own field.
    ("porrazo with a bad limpia", porrazo("Ana", "6", "Z"), "limpia", ""),
    ("counter with a bad limpia", counter("Ana", "6", "11"), "limpia", ""),
    ("limpia on a ronda", {**peg("Ana", "ronda", "6"), "limpia": "7"}, "limpia", ""),
    # The tendido's cards.
    ("one pair", peg("Ana", "tendido", pairs=[["2", "4"]]), "pairs", "two pairs"),
    ("three pairs", tendido("Ana", "2 4, 7 3, 5 6"), "pairs", "two pairs"),
    ("no pairs", peg("Ana", "tendido"), "pairs", "two pairs"),
    ("pairs not a list", peg("Ana", "tendido", pairs="2 4 7 3"), "pairs", ""),
    ("a pair of three", tendido("Ana", "2 4 5, 7 3"), "pairs.0", "two cards"),
    ("a pair of one", tendido("Ana", "2 4, 7"), "pairs.1", "two cards"),
    ("a bad card", tendido("Ana", "2 4, 7 Z"), "pairs.1.1", ""),
    ("a bad table card", tendido("Ana", "2 4, 7 3", "5 X"), "table.1", ""),
    ("table not a list", {**tendido("Ana", "2 4, 7 3"), "table": "5"}, "table", ""),
    ("five 5s", tendido("Ana", "5 5, 5 5", "5"), "table", "four"),
    ("five Qs across", tendido("Ana", "Q Q, Q 3", "Q Q"), "table", "four"),
    # Who pegs.
    ("an unknown player", peg("Zed", "ronda", "5"), "player", "Zed"),
    ("no player", {"event": "ronda", "rank": "5"}, "player", ""),
    (
        "no player for a tendido",
        {"event": "tendido", "pairs": [["2", "4"], ["7", "3"]]},
        "player",
        "",
    ),
    ("no player for san benito", {"event": "san_benito"}, "player", ""),
    ("a team without partnerships", peg("Us", "ronda", "5"), "player", ""),
    ("player for rondas", {**rondas(Ana="7 7"), "player": "Ana"}, "player", "leave out"),
    ("player for cards", {**cards(Ana=20, Bo=20, Cy=12), "player": "Ana"}, "player", "leave out"),
    ("player for confirm", {"event": "confirm", "player": "Ana"}, "player", "leave out"),
    # Rondas declared.
    ("nothing declared", {"event": "rondas", "declared": {}}, "declared", ""),
    ("no declared", {"event": "rondas"}, "declared", ""),
    ("a single card", rondas(Ana="7"), "declared.Ana", ""),
    ("four cards", rondas(Ana="7 7 7 7"), "declared.Ana", ""),
    ("a mixed pair", rondas(Ana="7 8"), "declared.Ana", ""),
    ("a stranger declares", rondas(Zed="7 7"), "declared.Zed", ""),
    # Unknown events and fields.
    ("unknown event", peg("Ana", "escoba", "5"), "event", ""),
    ("no event", {"player": "Ana", "rank": "5"}, "event", ""),
    ("unknown field", {**peg("Ana", "ronda", "5"), "points": 1}, "points", ""),
    ("pairs on a porrazo", {**porrazo("Ana", "5"), "pairs": [["2", "4"], ["7", "3"]]}, "pairs", ""),
    ("counts on rondas", {**rondas(Ana="7 7"), "counts": {}}, "counts", ""),
    ("declared on confirm", {"event": "confirm", "declared": {}}, "declared", ""),
]


@pytest.mark.parametrize(
    ("entered", "path", "words"),
    [case[1:] for case in BAD_EVENTS],
    ids=[case[0] for case in BAD_EVENTS],
)
def test_bad_events_are_refused_by_field(entered, path, words):
    assert_at(refused(table(), entered), path, words)


@pytest.mark.parametrize(
    ("entered", "path"),
    [
        (peg("Zed", "ronda", "5"), "player"),
        (rondas(Us="7 7"), "declared.Us"),  # rondas are declared by players, not teams
    ],
)
def test_bad_events_with_partnerships_are_refused_by_field(entered, path):
    assert_at(refused(teams(), entered), path)


def test_an_event_that_is_not_an_object_is_refused():
    assert refused(table(), ["Ana", "ronda", "5"]).message


def test_every_mistake_in_an_event_is_named_at_once():
    refusal = refused(table(), {"player": "Zed", "event": "ronda", "rank": "11", "points": 1})
    assert {"player", "rank", "points"} <= set(refusal.fields)
