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

from . import explain
from .base import (
    FINISHED,
    FIRST_DEALER,
    LEFT,
    Option,
    Replay,
    RoundResult,
    Rule,
    Scorer,
    Table,
    dealing_rule,
)
from .cards import JOKER, RANKS, read_ranks
from .forms import Number, RoundForm, SeatList
from .refusal import Problems, Refusal
from .words import _, lazy, ngettext

OUT = "out"
RAMI_SEC = "rami_sec"
BLOCKED = "blocked"
OUTCOMES = (OUT, RAMI_SEC, BLOCKED)
MAX_PLAYERS = 6

RAMI_RANKS = (JOKER, *RANKS)
CARD_VALUES = {JOKER: 20, "A": 11, "J": 10, "Q": 10, "K": 10} | {str(v): v for v in range(2, 11)}
MAX_HAND_CARDS = 14
"""A hand never holds more than the 14 cards its player had before a discard."""
MAX_HAND_POINTS = MAX_HAND_CARDS * CARD_VALUES[JOKER]


def hand_value(hand: Mapping[str, Any]) -> int:
    """Return what the cards left in a hand cost."""
    if "cards" in hand:
        return sum(CARD_VALUES[rank] for rank in hand["cards"])
    return hand["points"]


def missing(name: str) -> str:
    """Say that a hand that counts was not given."""
    return _("{player}'s hand is missing: tap the cards left or type their value.").format(
        player=name
    )


def read_cards(cards: Any, path: str, name: str) -> list[str]:
    """Check the cards left in a hand: known ranks, and no more than a hand can hold."""
    ranks = read_ranks(cards, path, RAMI_RANKS)
    if not 1 <= len(ranks) <= MAX_HAND_CARDS:
        given = ngettext(
            "{player} holds between 1 and {most} cards; {count} was given.",
            "{player} holds between 1 and {most} cards; {count} were given.",
            len(ranks),
        )
        raise Refusal.at(path, given.format(player=name, most=MAX_HAND_CARDS, count=len(ranks)))
    return ranks


def read_points(points: Any, path: str, name: str) -> int:
    """Check a typed hand value: a whole number a hand can be worth."""
    if isinstance(points, bool) or not isinstance(points, int):
        raise Refusal.at(
            path, _("{player}'s hand value must be a whole number.").format(player=name)
        )
    if not 0 <= points <= MAX_HAND_POINTS:
        raise Refusal.at(
            path,
            _("{player}'s hand is worth between 0 and {most} points.").format(
                player=name, most=MAX_HAND_POINTS
            ),
        )
    return points


def read_hand(hand: Any, path: str, name: str, need_value: bool) -> dict[str, Any]:
    """Check one player's hand: cards or points (agreeing if both), and whether they melded."""
    if not isinstance(hand, dict):
        raise Refusal.at(
            path,
            _("{player}'s hand must be an object with cards or points and melded.").format(
                player=name
            ),
        )
    problems = Problems()
    for unknown in sorted(set(hand) - {"cards", "points", "melded"}):
        problems.add(
            f"{path}.{unknown}",
            _("A hand has cards, points and melded, not {field}.").format(field=repr(unknown)),
        )
    read: dict[str, Any] = {}
    for key, reader in (("cards", read_cards), ("points", read_points)):
        if key in hand:
            with problems.collect():
                read[key] = reader(hand[key], f"{path}.{key}", name)
    if need_value and "cards" not in hand and "points" not in hand:
        problems.add(path, missing(name))
    if "cards" in read and "points" in read:
        counted = hand_value({"cards": read["cards"]})
        if counted != read["points"]:
            problems.add(
                f"{path}.points",
                _(
                    "{player}'s cards add up to {counted}, not {points}: give one or the other."
                ).format(player=name, counted=counted, points=read["points"]),
            )
    read["melded"] = hand.get("melded", None if need_value else False)
    if read["melded"] is None:
        problems.add(f"{path}.melded", _("Say whether {player} had melded.").format(player=name))
    elif not isinstance(read["melded"], bool):
        problems.add(
            f"{path}.melded",
            _("Say whether {player} had melded (true or false).").format(player=name),
        )
    problems.raise_any()
    return read


def read_hands(table: Table, data: Any, expected: Sequence[str], need_value: bool) -> dict:
    """Check the hands given: each expected player once, nobody else."""
    if data is None and not need_value:
        data = {}
    if not isinstance(data, dict):
        raise Refusal.at("hands", _("Hands must be an object: player name → hand."))
    problems = Problems()

    def read_one(name: str, hand: Any, path: str) -> dict[str, Any]:
        if name not in expected:
            raise Refusal.at(
                path, _("{player} went out and has no hand to count.").format(player=name)
            )
        return read_hand(hand, path, name, need_value)

    hands = table.each(data, "hands", read_one, problems)
    for name in expected:
        if need_value and name not in hands:
            problems.add(f"hands.{name}", missing(name))
    problems.raise_any()
    return {name: hands[name] for name in expected if name in hands}


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


class Rami(Scorer):
    """Rami: each round charges the losers their hands; the target ends the match."""

    id = "rami"
    name = "Rami"
    player_counts = tuple(range(2, MAX_PLAYERS + 1))
    tie_message = lazy("Tie for the lowest total: extra round.")
    low_leads = True
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
    )

    def variant_key(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Keep races to different targets apart: 100 points mean more in a race to 300."""
        return {"target": options["target"]}

    def variant(self, key: Mapping[str, Any]) -> str:
        """Name the variant by its target."""
        return _("Rami, to {target}").format(target=key["target"])

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §1 for this match's target, rami sec and never-melded values."""
        cap = min(options["unmelded_cap"], options["target"] // 2)
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
        if not isinstance(data, dict):
            raise Refusal(_("A Rami round must be an object with outcome, winner and hands."))
        outcome = data.get("outcome")
        if outcome not in OUTCOMES:
            raise Refusal.at("outcome", _("Say how the round ended: out, rami_sec or blocked."))
        problems = Problems()
        read: dict[str, Any] = {"outcome": outcome}
        expected = list(table.players)
        winner = data.get("winner")
        if outcome == BLOCKED and winner is not None:
            problems.add(
                "winner", _("A blocked round has no winner to name: the lowest hand wins.")
            )
        elif outcome != BLOCKED and winner is None:
            problems.add("winner", _("Say who went out."))
        elif outcome != BLOCKED:
            with problems.collect():
                read["winner"] = table.player(winner, "winner")
                expected.remove(read["winner"])
        with problems.collect():
            read["hands"] = read_hands(table, data.get("hands"), expected, outcome != RAMI_SEC)
        unknown = sorted(set(data) - {"outcome", "winner", "hands"})
        if unknown:
            problems.add(
                unknown[0],
                _("A Rami round has outcome, winner and hands, not {field}.").format(
                    field=repr(unknown[0])
                ),
            )
        problems.raise_any()
        if outcome == RAMI_SEC:
            melded = [name for name, hand in read["hands"].items() if hand["melded"]]
            if melded:
                unmelded = _("A rami sec needs every opponent unmelded.")
                raise Refusal(
                    _("No rami sec: {players} had already melded.").format(
                        players=explain.names(melded)
                    ),
                    {f"hands.{name}.melded": [unmelded] for name in melded},
                )
        return read

    def replay(self, table: Table, rounds: Sequence[Mapping[str, Any]]) -> Replay:
        """Score every round, then end the match at the target unless the lowest is shared."""
        options = table.options
        cap = min(options["unmelded_cap"], options["target"] // 2)
        replay = Replay(
            rounds=[], totals=dict.fromkeys(table.players, 0), state={"extra_round": False}
        )
        for entered in rounds:
            result = score_round(table, entered, cap)
            for name, score in result.scores.items():
                replay.totals[name] += score
            result.totals = dict(replay.totals)
            if replay.status != FINISHED:
                settle(replay, options["target"], result.explanation)
            replay.rounds.append(result)
        replay.name_dealers(table, LEFT)
        last = rounds[-1]["hands"] if rounds else {}
        replay.state["melded"] = {name: hand["melded"] for name, hand in last.items()}
        return replay


def losing_hands(entered: Mapping[str, Any]) -> dict[str, Any]:
    """Return the hands a round charges: all after going out, all but the lowest when blocked."""
    hands = entered["hands"]
    if entered["outcome"] == RAMI_SEC:
        return {}
    if entered["outcome"] == OUT:
        return dict(hands)
    lowest = min(hand_value(hand) for hand in hands.values())
    return {name: hand for name, hand in hands.items() if hand_value(hand) > lowest}


def score_round(table: Table, entered: Mapping[str, Any], cap: int) -> RoundResult:
    """Score one round as entered, with a sentence for every number."""
    options = table.options
    hands = entered["hands"]
    scores = dict.fromkeys(table.players, 0)
    explanation: list[str] = []
    if entered["outcome"] == RAMI_SEC:
        winner = entered["winner"]
        losers = [name for name in table.players if name != winner]
        for name in losers:
            scores[name] = options["rami_sec_points"]
        explanation.append(
            _(
                "Rami sec by {winner}: nobody else had melded, so {losers} score {points} each, "
                "whatever their hands."
            ).format(winner=winner, losers=explain.names(losers), points=options["rami_sec_points"])
        )
        return RoundResult(scores, explanation)
    if entered["outcome"] == OUT:
        explanation.append(_("{winner} went out: 0.").format(winner=entered["winner"]))
    else:
        lowest = min(hand_value(hand) for hand in hands.values())
        winners = [name for name, hand in hands.items() if hand_value(hand) == lowest]
        blocked = ngettext(
            "Blocked: {players} holds the lowest hand ({points}) and scores 0.",
            "Blocked: {players} tie for the lowest hand ({points}) and score 0.",
            len(winners),
        )
        explanation.append(blocked.format(players=explain.names(winners), points=lowest))
    for name, hand in losing_hands(entered).items():
        scores[name] = penalty(name, hand, options["unmelded_bonus"], cap, explanation)
    return RoundResult(scores, explanation)


def penalty(
    name: str, hand: Mapping[str, Any], bonus: int, cap: int, explanation: list[str]
) -> int:
    """Charge a loser their hand, plus the bonus up to the cap if they never melded."""
    value = hand_value(hand)
    if "cards" in hand:
        parts = [CARD_VALUES[rank] for rank in hand["cards"]]
        explanation.append(
            _("{player} holds {cards}: {addition}.").format(
                player=name, cards=", ".join(hand["cards"]), addition=explain.addition(parts)
            )
        )
    else:
        explanation.append(
            _("{player}'s hand is worth {points}.").format(player=name, points=value)
        )
    if hand["melded"]:
        return value
    charged = value + bonus
    numbers = {"player": name, "value": value, "bonus": bonus, "charged": charged, "cap": cap}
    if charged > cap:
        explanation.append(
            _("{player} never melded: {value} + {bonus} = {charged}, capped at {cap}.").format(
                **numbers
            )
        )
        return cap
    explanation.append(_("{player} never melded: {value} + {bonus} = {charged}.").format(**numbers))
    return charged


def settle(replay: Replay, target: int, explanation: list[str]) -> None:
    """End the match once a total reaches the target, unless the lowest total is shared."""
    reached = [name for name, total in replay.totals.items() if total >= target]
    if not reached:
        return
    lowest = min(replay.totals.values())
    leaders = [name for name, total in replay.totals.items() if total == lowest]
    if len(leaders) > 1:
        replay.state["extra_round"] = True
        explanation.append(
            _(
                "{players} reached the target of {target}, but {leaders} tie for the lowest "
                "total ({points}): another round is played."
            ).format(
                players=explain.names(reached),
                target=target,
                leaders=explain.names(leaders),
                points=lowest,
            )
        )
        return
    replay.finish(leaders[0])
    replay.state["extra_round"] = False
    explanation.append(
        _(
            "{players} reached the target of {target}: the match is over and {winner} wins "
            "with {points}."
        ).format(players=explain.names(reached), target=target, winner=leaders[0], points=lowest)
    )
