"""Rami (French rummy): penalties for the cards left in hand; lowest total wins (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import (
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectChoice,
)
from wtforms.fields import Field
from wtforms.validators import Optional

from .. import explain
from ..base import (
    FINISHED,
    FIRST_DEALER,
    LEFT,
    MATCH_DEALS,
    Option,
    Replay,
    Rule,
    Scorer,
    Table,
    dealing_rule,
)
from ..cards import said
from ..draw import Record
from ..forms import Number, RoundForm, SeatList
from ..words import _, lazy
from .rules import (
    BLOCKED,
    CARD_VALUES,
    MAX_HAND_CARDS,
    MAX_PLAYERS,
    OUT,
    RAMI_RANKS,
    RAMI_SEC,
    hand_value,
    losing_hands,
    never_melded_cap,
    read_round,
    score_round,
    settle,
)

MELDED = {"y": True, "n": False}
"""The melded chips' values ("y" as the checkbox it replaced posted), and what each says."""


def melded_choice(melded: bool | None) -> str | None:
    """Return the melded chip a stored answer ticks; none for no answer."""
    return None if melded is None else ("y" if melded else "n")


class HandForm(Form):
    """One player's hand: the cards tapped (kept as "A JK 5"), or a typed value, and whether
    they had melded: asked every time, since an unanswered "no" would cost the bonus unseen."""

    cards = HiddenField(default="")
    points = Number(lazy("Value"), validators=[Optional()])
    melded = RadioField(
        lazy("Had melded"),
        choices=[SelectChoice("y", lazy("Had melded")), SelectChoice("n", lazy("Had not melded"))],
        validate_choice=False,
    )


class RamiRoundForm(RoundForm):
    """How the round ended, and the hand of each player who did not go out."""

    outcome = RadioField(
        lazy("How did the round end?"),
        choices=[
            SelectChoice(OUT, lazy("Someone went out")),
            SelectChoice(RAMI_SEC, lazy("Rami sec")),
            SelectChoice(BLOCKED, lazy("Blocked: no stock")),
        ],
        default=OUT,
        validate_choice=False,
    )
    winner = RadioField(lazy("Who went out?"), validate_choice=False)
    hands = SeatList(FormField(HandForm), max_entries=MAX_PLAYERS)
    card_ranks = RAMI_RANKS
    card_values = CARD_VALUES

    def __init__(self, table: Table, *args: Any, **kwargs: Any):
        super().__init__(table, *args, **kwargs)
        self.winner.choices = list(table.players)
        self.hands.fit(len(table.players))

    @classmethod
    def fresh_data(cls, table: Table, state: dict) -> dict[str, Any]:
        """Start a round with each player's melded answer of the round before, shown ticked."""
        melded = state.get("melded") or {}
        return {"hands": [{"melded": melded_choice(melded.get(name))} for name in table.players]}

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Show a stored round: its outcome, winner and every hand in seat order."""
        hands = entered["hands"]
        return {
            "outcome": entered["outcome"],
            "winner": entered.get("winner"),
            "hands": [
                {
                    "cards": " ".join(hands.get(name, {}).get("cards", [])),
                    "points": hands.get(name, {}).get("points"),
                    "melded": melded_choice(hands.get(name, {}).get("melded")),
                }
                for name in table.players
            ],
        }

    def seats(self) -> list[tuple[str, FormField]]:
        """Pair each player with their hand's fields."""
        return list(zip(self.table.players, self.hands, strict=True))

    def to_input(self) -> dict[str, Any]:
        """Return the round in the API's shape; the winner's row is not a hand."""
        outcome = self.outcome.data
        entered: dict[str, Any] = {"outcome": outcome, "hands": {}}
        if outcome != BLOCKED:
            entered["winner"] = self.winner.data
        for name, entry in self.seats():
            if outcome != BLOCKED and name == self.winner.data:
                continue
            hand: dict[str, Any] = {}
            if entry.melded.data in MELDED:
                hand["melded"] = MELDED[entry.melded.data]
            if self.cards_of(entry):
                hand["cards"] = self.cards_of(entry)
            if entry.points.data is not None:
                hand["points"] = entry.points.data
            entered["hands"][name] = hand
        return entered

    def follow_taps(self, formdata: Any) -> bool:
        """Add a tapped card ("tap" = "seat:rank") or take one back ("untap" = "seat:index")."""
        for action in ("tap", "untap"):
            seat, _, what = formdata.get(action, "").partition(":")
            if not seat.isdigit() or int(seat) >= len(self.hands):
                continue
            cards = self.cards_of(self.hands[int(seat)])
            if action == "tap" and what in RAMI_RANKS and len(cards) < MAX_HAND_CARDS:
                cards.append(what)
            elif action == "untap" and what.isdigit() and int(what) < len(cards):
                del cards[int(what)]
            self.hands[int(seat)].cards.data = " ".join(cards)
            return True
        return False

    def cards_of(self, entry: FormField) -> list[str]:
        """Return the cards tapped so far into one hand."""
        return (entry.cards.data or "").split()

    def hand_total(self, entry: FormField) -> int | None:
        """Return the value of the cards tapped so far, if any."""
        cards = self.cards_of(entry)
        if not cards or any(rank not in CARD_VALUES for rank in cards):
            return None
        return hand_value({"cards": cards})

    def field_at(self, path: str) -> Field | None:
        """Map "hands.Bo.melded" to Bo's melded box; a hand as a whole to its value box."""
        head, _, rest = path.partition(".")
        if head in ("outcome", "winner"):
            return self[head]
        if head != "hands":
            return None
        name, _, part = rest.partition(".")
        for player, entry in self.seats():
            if player.casefold() == name.casefold():
                part = part.partition(".")[0]
                return entry[part] if part in ("cards", "melded") else entry.points
        return None


ENDINGS = {
    OUT: lazy("{player} went out"),
    RAMI_SEC: lazy("{player} went out rami sec"),
    BLOCKED: lazy("Blocked: no stock"),
}
"""How a round ended, as the table says it."""


def hand_said(name: str, hand: Mapping[str, Any]) -> str:
    """Say a hand left at the end of a round: "Bo held K, Q, 5 and had melded"."""
    if "cards" not in hand and "points" not in hand:
        melded = _("{player} had melded") if hand.get("melded") else _("{player} had not melded")
        return melded.format(player=name)
    held = said(hand["cards"]) if "cards" in hand else str(hand["points"])
    if hand.get("melded"):
        return _("{player} held {hand} and had melded").format(player=name, hand=held)
    return _("{player} held {hand} and had not melded").format(player=name, hand=held)


class Rami(Scorer):
    """Rami: each round charges the losers their hands; the target ends the match."""

    id = "rami"
    name = "Rami"
    player_counts = tuple(range(2, MAX_PLAYERS + 1))
    tie_message = lazy("Tie for the lowest total: extra round.")
    low_leads = True
    event_rule = lazy(
        "Matches won first, then the fewest points (in Rami points count against a player), "
        "then the most points scored by the others at the table."
    )

    def event_order(self, record: Record) -> tuple[int, ...]:
        """Few points are good in Rami."""
        return (-record.won, record.points, -record.against)

    round_form = RamiRoundForm
    options = (
        Option(
            "target",
            lazy("Target"),
            default=lambda players, _chosen: 100 * (len(players) - 1),
            placeholder=lazy("100 per opponent"),
            help=lazy("The match ends when a total reaches it; 100 per opponent by default."),
            minimum=1,
            maximum=10_000,
        ),
        Option(
            "rami_sec_points",
            lazy("Rami sec points"),
            default=200,
            help=lazy("What every opponent scores when a player goes out rami sec."),
            minimum=0,
            maximum=1_000,
        ),
        Option(
            "unmelded_bonus",
            lazy("Never-melded bonus"),
            default=25,
            help=lazy("Added to the hand of a player who had not melded."),
            minimum=0,
            maximum=1_000,
        ),
        Option(
            "unmelded_cap",
            lazy("Never-melded cap"),
            default=100,
            help=lazy("A never-melded hand costs at most this, and at most half the target."),
            minimum=0,
            maximum=10_000,
        ),
        FIRST_DEALER,
        MATCH_DEALS,
    )

    def variant_key(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Keep races to different targets apart: 100 points mean more in a race to 300."""
        return {"target": options["target"]}

    def variant(self, key: Mapping[str, Any]) -> str:
        """Name the variant by its target."""
        return _("Rami, to {target}").format(target=key["target"])

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §1 for this match's target, rami sec and never-melded values."""
        cap = never_melded_cap(options)
        return [
            Rule(
                _("Cards left in hand"),
                _("Joker 20, ace 11, J, Q and K 10, 2 to 10 their face value."),
                lambda entered, _result: entered["outcome"] != RAMI_SEC,
            ),
            Rule(
                _("Going out"),
                _("Whoever goes out scores 0; everyone else scores the cards left in hand."),
                lambda entered, _result: entered["outcome"] == OUT,
            ),
            Rule(
                _("Rami sec"),
                _(
                    "Going out at the first meld, before anyone else melded: every opponent "
                    "scores {points}, whatever they hold."
                ).format(points=options["rami_sec_points"]),
                lambda entered, _result: entered["outcome"] == RAMI_SEC,
            ),
            Rule(
                _("Blocked"),
                _("When the stock runs out the lowest hand scores 0 (tied lowest hands all 0)."),
                lambda entered, _result: entered["outcome"] == BLOCKED,
            ),
            Rule(
                _("Never melded"),
                _("A loser who never melded scores the hand + {bonus}, at most {cap}.").format(
                    bonus=options["unmelded_bonus"], cap=cap
                ),
                lambda entered, _result: any(
                    not hand["melded"] for hand in losing_hands(entered).values()
                ),
            ),
            Rule(
                _("The end"),
                _(
                    "When a total reaches {target} the lowest total wins; a tie for lowest plays "
                    "another round."
                ).format(target=options["target"]),
            ),
            dealing_rule(options, LEFT),
        ]

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check who went out, how, and every hand that counts."""
        return read_round(table, data)

    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say a round as the table told it: how it ended, then each hand left."""
        ending = ENDINGS[entered["outcome"]].format(player=entered.get("winner"))
        hands = [hand_said(name, hand) for name, hand in entered["hands"].items()]
        return explain.clauses([ending, *hands])

    def score(self, table: Table, rounds: Sequence[Mapping[str, Any]]) -> Replay:
        """Score every round, then end the match at the target unless the lowest is shared."""
        cap = never_melded_cap(table.options)
        replay = Replay(
            rounds=[], totals=dict.fromkeys(table.players, 0), state={"extra_round": False}
        )
        for entered in rounds:
            round_on(table, replay, entered, cap)
        replay.name_dealers(table, LEFT)
        last = rounds[-1]["hands"] if rounds else {}
        replay.state["melded"] = {name: hand["melded"] for name, hand in last.items()}
        return replay

    def score_on(
        self,
        table: Table,
        replay: Replay,
        rounds: Sequence[Mapping[str, Any]],
        entered: Mapping[str, Any],
    ) -> Replay:
        """Score one more round on the totals the replay holds."""
        following = replay.continued(table)
        round_on(table, following, entered, never_melded_cap(table.options))
        following.name_dealers(table, LEFT)
        following.state["melded"] = {
            name: hand["melded"] for name, hand in entered["hands"].items()
        }
        return following


def round_on(table: Table, replay: Replay, entered: Mapping[str, Any], cap: int) -> None:
    """Score the next round of a replay and end the match at the target if it is reached."""
    result = score_round(table, entered, cap)
    for name, score in result.scores.items():
        replay.totals[name] += score
    result.totals = dict(replay.totals)
    # A match of a fixed number of rounds ends after them: the target only caps hands then.
    if replay.status != FINISHED and table.options.get("match_deals") is None:
        settle(replay, table.options["target"], result.explanation)
    replay.rounds.append(result)
