"""Belote and Coinche: the scorer (options, replay with the litige reserve) and the deal form."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import (
    BooleanField,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
)
from wtforms.fields import Field
from wtforms.validators import Optional

from . import explain
from .base import FINISHED, Option, Replay, RoundResult, Rule, Scorer, Table
from .belote_rules import (
    ALL_TRUMP,
    ANNOUNCEMENTS,
    LITIGE,
    NO_TRUMP,
    NUMBERED_CONTRACTS,
    RANKS,
    SUITS,
    card_total,
    card_value,
    half_up,
    read_deal,
    score_deal,
)
from .forms import RoundForm, SeatList
from .refusal import Refusal

TRUMP_LABELS = {suit: symbol for suit, symbol in SUITS.items()} | {
    NO_TRUMP: "No trump",
    ALL_TRUMP: "All trump",
}
CONTRACT_LABELS = {str(v): str(v) for v in NUMBERED_CONTRACTS} | {
    "capot": "Capot",
    "generale": "Générale",
}
CARDS = tuple(f"{rank}{suit[0].upper()}" for suit in SUITS for rank in RANKS)
"""Card codes for the points counter: rank then suit initial ("JH" is the jack of hearts)."""


# --- the deal form ----------------------------------------------------------------------------


class TeamForm(Form):
    """One team's numbers for the deal: card points and announcements."""

    points = IntegerField(
        "Card points", validators=[Optional()], render_kw={"inputmode": "numeric"}
    )
    announcements = IntegerField(
        "Announcements", validators=[Optional()], render_kw={"inputmode": "numeric"}
    )


def team_choice(label: str, nobody: bool = False) -> RadioField:
    """Build a tap-a-team field; `nobody` adds a first choice for no team."""
    return RadioField(label, validate_choice=False, default="" if nobody else None)


class BeloteRoundForm(RoundForm):
    """One deal as the table tells it: taker, trump, contract, points and extras."""

    taker = RadioField("Who took?", validate_choice=False)
    trump = RadioField("Trump", validate_choice=False)
    contract = RadioField("Contract", validate_choice=False)
    coinche = RadioField(
        "Doubling",
        choices=[
            SelectChoice("none", "None"),
            SelectChoice("coinche", "Coinche ×2"),
            SelectChoice("surcoinche", "Surcoinche ×4"),
        ],
        default="none",
        validate_choice=False,
    )
    taker_alone = BooleanField("The taker took every trick alone")
    teams = SeatList(FormField(TeamForm), max_entries=2)
    last_trick = team_choice("Last trick (dix de der)")
    belote = team_choice("Belote-rebelote", nobody=True)
    capot = team_choice("Capot (all 8 tricks)", nobody=True)
    counted = HiddenField(default="")
    counting = team_choice("Count the cards won by")
    announcement_values = ANNOUNCEMENTS
    ranks = RANKS
    suits = SUITS

    def __init__(self, table: Table, *args: Any, **kwargs: Any):
        super().__init__(table, *args, **kwargs)
        names = list(table.teams or {})
        self.taker.choices = list(table.players)
        self.trump.choices = [SelectChoice(t, TRUMP_LABELS[t]) for t in self.trumps()]
        self.contract.choices = [SelectChoice(*item) for item in CONTRACT_LABELS.items()]
        self.last_trick.choices = names
        self.belote.choices = [SelectChoice("", "Nobody"), *names]
        self.capot.choices = [SelectChoice("", "Nobody"), *names]
        self.counting.choices = names
        if not self.counting.data:
            self.counting.data = names[0]
        self.teams.fit(len(names))

    def trumps(self) -> list[str]:
        """Return the trump choices this match offers (all trump is for coinche)."""
        return [*SUITS, NO_TRUMP] + ([ALL_TRUMP] if self.coinche_match else [])

    @property
    def coinche_match(self) -> bool:
        """Say whether this match bids contracts."""
        return self.table.options["variant"] == "coinche"

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Show a stored deal again, for correcting it."""
        data = {
            key: entered.get(key) or ""
            for key in ("taker", "trump", "last_trick", "belote", "capot")
        }
        data["teams"] = [
            {"points": entered["points"][team], "announcements": entered["announcements"][team]}
            for team in table.teams or {}
        ]
        if "contract" in entered:
            data |= {
                "contract": str(entered["contract"]),
                "coinche": entered["coinche"],
                "taker_alone": entered["taker_alone"],
            }
        return data

    def sides(self) -> list[tuple[str, FormField]]:
        """Pair each team with its numbers."""
        return list(zip(self.table.teams or {}, self.teams, strict=True))

    def to_input(self) -> dict[str, Any]:
        """Return the deal in the API's shape; an empty points box is the rest of the total."""
        sides = self.sides()
        deal: dict[str, Any] = {
            "taker": self.taker.data,
            "trump": self.trump.data,
            "points": {team: e.points.data for team, e in sides if e.points.data is not None},
            "last_trick": self.last_trick.data or None,
            "belote": self.belote.data or None,
            "capot": self.capot.data or None,
            "announcements": {team: e.announcements.data or 0 for team, e in sides},
        }
        if self.coinche_match:
            contract = self.contract.data
            deal["contract"] = int(contract) if contract and contract.isdigit() else contract
            deal["coinche"] = self.coinche.data
            deal["taker_alone"] = self.taker_alone.data
        return deal

    def follow_taps(self, formdata: Any) -> bool:
        """Add a quick announcement ("announce" = "team:value") or count a card ("count")."""
        team, _, value = formdata.get("announce", "").partition(":")
        if team.isdigit() and int(team) < len(self.teams) and value.isdigit():
            field = self.teams[int(team)].announcements
            field.data = (field.data or 0) + int(value)
            field.raw_data = None  # show the new total, not the number the phone sent
            return True
        card = formdata.get("count", "")
        if card in CARDS:
            counted = self.counted_cards()
            if card in counted:
                counted.remove(card)
            else:
                counted.append(card)
            self.counted.data = " ".join(counted)
            for team, entry in self.sides():
                entry.points.data = self.counted_points() if team == self.counting.data else None
                entry.points.raw_data = None
            return True
        return False

    def counted_cards(self) -> list[str]:
        """Return the cards tapped in the points counter."""
        return [card for card in (self.counted.data or "").split() if card in CARDS]

    def counted_points(self) -> int:
        """Return what the counted cards are worth under the trump chosen (hearts if none yet)."""
        values = self.card_values().get(self.trump.data) or self.card_values()["hearts"]
        return sum(values[card] for card in self.counted_cards())

    def card_values(self) -> dict[str, dict[str, int]]:
        """Return each card's worth under each trump choice, for the counter."""
        rules = self.table.options["rules"]
        return {
            trump: {
                f"{rank}{suit[0].upper()}": card_value(rank, suit, trump, rules)
                for suit in SUITS
                for rank in RANKS
            }
            for trump in self.trumps()
        }

    def counter_json(self) -> str:
        """Return the counter's card values and each trump's card total, for the page's script."""
        rules = self.table.options["rules"]
        totals = {trump: card_total(trump, rules) for trump in self.trumps()}
        return json.dumps({"values": self.card_values(), "totals": totals})

    def field_at(self, path: str) -> Field | None:
        """Map "points.Nous" to Nous's points box, and a deal's own fields to theirs."""
        head, _, team = path.partition(".")
        if head in ("taker", "trump", "contract", "coinche", "taker_alone"):
            return self[head]
        if head in ("last_trick", "belote", "capot"):
            return self[head]
        for name, entry in self.sides():
            if head in ("points", "announcements") and name.casefold() == (team or name).casefold():
                return entry[head]
        return None


class Belote(Scorer):
    """Belote and Coinche for two teams of two: deals scored into a running total to a target."""

    id = "belote"
    name = "Belote"
    player_counts = (4,)
    teams = True
    team_names = ("Nous", "Eux")
    round_name = "Deal"
    tie_message = "Both teams are level past the target: deal again."
    round_form = BeloteRoundForm
    options = (
        Option(
            "variant",
            "Variant",
            default="classic",
            choices=("classic", "coinche"),
            help="Classic belote, or coinche with contracts, coinche and surcoinche.",
        ),
        Option(
            "rules",
            "Rules",
            default="maison",
            choices=("maison", "official"),
            help="House rules, or the federation's official rules.",
        ),
        Option(
            "target",
            "Target",
            default=lambda _players, chosen: 2000 if chosen["variant"] == "coinche" else 1000,
            placeholder="1000 classic, 2000 coinche",
            help="The match ends at the end of the deal where a team reaches it.",
            minimum=1,
            maximum=100_000,
        ),
        Option(
            "litige",
            "Litige",
            default="reserve",
            choices=("reserve", "fall"),
            help="A tie puts the takers' points in reserve, or counts as a fall.",
        ),
        Option(
            "rounding",
            "Round deal scores to tens",
            default=lambda _players, chosen: (
                chosen["variant"] == "coinche" and chosen["rules"] == "official"
            ),
            help="Classic only: coinche rounds by its rules (official always, maison never).",
        ),
    )

    def variant(self, options: Mapping[str, Any]) -> str:
        """Name the variant: classic or coinche, and the target."""
        kind = "Coinche" if options["variant"] == "coinche" else "Belote classic"
        return f"{kind}, to {options['target']}"

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse rounding that coinche's own rules decide otherwise."""
        official = options["rules"] == "official"
        if options["variant"] == "coinche" and options["rounding"] != official:
            raise Refusal.at(
                "options.rounding",
                "Coinche rounds by its rules: official rules always round, maison never.",
            )

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §2 for this match's variant, rules, litige, rounding and target."""
        official = options["rules"] == "official"
        result_is = lambda *words: lambda _entered, result: result.extra["result"] in words  # noqa: E731
        rules = [
            Rule(
                "Card points",
                "Trumps: J 20, 9 14, A 11, 10 10, K 4, Q 3. Other suits: A 11, 10 10, K 4, Q 3, "
                f"J 2. No trump: the ace is worth {19 if official else 11} "
                f"(a deal of {162 if official else 130}). The last trick adds 10, or 100 "
                "with a capot (252 in all); belote-rebelote 20; announcements as announced.",
            ),
            Rule(
                "Made",
                "The takers' total must be strictly above the defence's; then each team "
                "scores its total"
                + (" and the takers add the contract." if options["variant"] == "coinche" else "."),
                result_is("made", "capot"),
            ),
            Rule(
                "Fall",
                "Otherwise the defence scores the whole deal with its belote and every "
                "announcement, and the takers keep only their belote.",
                result_is("fall"),
            ),
            Rule(
                "Litige",
                "Equal totals: the defence scores its total and the takers' total waits in "
                "reserve for the next deal's winner."
                if options["litige"] == "reserve"
                else "Equal totals count as a fall.",
                lambda _entered, result: (
                    result.extra["tie"] or "reserve" in " ".join(result.explanation)
                ),
            ),
        ]
        if options["variant"] == "coinche":
            rules.append(
                Rule(
                    "Contract and coinche",
                    "The takers must reach the contract (capot 250, générale 500 with the taker "
                    "alone). Coinche doubles and surcoinche quadruples: (160 + contract + "
                    + (
                        "announcements + belote) × the multiplier."
                        if official
                        else "announcements) × the multiplier, + belote."
                    ),
                    lambda entered, _result: entered.get("coinche", "none") != "none",
                )
            )
        if options["rounding"]:
            rules.append(
                Rule(
                    "Rounding",
                    "Each team's deal score is rounded to the nearest ten, 5 going up.",
                    lambda _entered, result: "Rounded" in " ".join(result.explanation),
                )
            )
        rules.append(
            Rule(
                "The end",
                f"At the end of the deal where a team reaches {options['target']}, the higher "
                "total wins; equal totals deal again.",
            )
        )
        return rules

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check one deal."""
        return read_deal(table, data)

    def summary(self, deal: Mapping[str, Any]) -> str:
        """Say who took what in a few words: "South · 100 ♥ · coinche"."""
        parts = [deal["taker"], TRUMP_LABELS[deal["trump"]]]
        if "contract" in deal:
            parts[1] = f"{CONTRACT_LABELS[str(deal['contract'])]} {parts[1]}"
            if deal["coinche"] != "none":
                parts.append(deal["coinche"])
        return " · ".join(parts)

    def replay(self, table: Table, rounds: Sequence[Mapping[str, Any]]) -> Replay:
        """Score deals in order, carrying the litige reserve, and end the match at the target."""
        teams = list(table.teams or {})
        replay = Replay(
            rounds=[], totals=dict.fromkeys(teams, 0), state={"reserve": 0, "extra_round": False}
        )
        reserve = 0
        for entered in rounds:
            deal = score_deal(table, entered)
            if deal.result == LITIGE:
                reserve += deal.held
                if reserve != deal.held:
                    deal.explanation.append(f"The reserve now holds {reserve}.")
            elif reserve:
                deal.scores[deal.winner] += reserve
                deal.explanation.append(
                    f"{deal.winner} wins the deal and the {reserve} in reserve."
                )
                reserve = 0
            if table.options["rounding"]:
                round_scores(deal.scores, deal.explanation)
            for team, score in deal.scores.items():
                replay.totals[team] += score
            result = RoundResult(
                deal.scores,
                deal.explanation,
                dict(replay.totals),
                {"result": deal.result, "reserve": reserve, "tie": deal.tie},
            )
            replay.state["reserve"] = reserve
            if replay.status != FINISHED:
                settle(replay, table.options["target"], result.explanation)
            replay.rounds.append(result)
        return replay


def round_scores(scores: dict[str, int], explanation: list[str]) -> None:
    """Round each team's deal score to the nearest ten, 5 going up, saying what changed."""
    changes = []
    for team, score in scores.items():
        if half_up(score) != score:
            changes.append(f"{team} {score} → {half_up(score)}")
            scores[team] = half_up(score)
    if changes:
        explanation.append(f"Rounded to the nearest ten: {', '.join(changes)}.")


def settle(replay: Replay, target: int, explanation: list[str]) -> None:
    """End the match when a team reaches the target: the higher total wins, a tie deals again."""
    if max(replay.totals.values()) < target:
        return
    (first, high), (second, low) = sorted(replay.totals.items(), key=lambda item: -item[1])
    if high == low:
        replay.state["extra_round"] = True
        explanation.append(f"Both teams have {high}, past the target of {target}: deal again.")
        return
    replay.state["extra_round"] = False
    replay.finish(first)
    explanation.append(
        f"{explain.names([t for t, v in replay.totals.items() if v >= target])} reached the "
        f"target of {target}: {first} wins, {high} to {low}."
    )
