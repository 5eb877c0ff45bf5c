"""Belote's deal form: taker, trump, contract, each team's points, and the points counter."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from wtforms import BooleanField, Form, FormField, HiddenField, RadioField, SelectChoice
from wtforms.fields import Field
from wtforms.validators import Optional

from ..base import Table
from ..forms import Number, RoundForm, SeatList
from ..words import _, lazy
from .rules import (
    ALL_TRUMP,
    ANNOUNCEMENTS,
    NO_TRUMP,
    RANKS,
    SUITS,
    TRUMP_LABELS,
    announcement_choices,
    card_total,
    card_value,
)
from .scorer import CONTRACT_LABELS

CARDS = tuple(f"{rank}{suit[0].upper()}" for suit in SUITS for rank in RANKS)
"""Card codes for the points counter: rank then suit initial ("JH" is the jack of hearts)."""


@dataclass(frozen=True)
class Held:
    """What an extra of the deal holds, in words for its summary, and whether it shows open."""

    shown: list[str]
    open: bool


class TeamForm(Form):
    """One team's numbers for the deal: card points and announcements."""

    points = Number(lazy("Card points"), validators=[Optional()])
    announcements = Number(lazy("Announcements"), validators=[Optional()])
    belotes = Number(lazy("Belotes at all trump"), validators=[Optional()])


def team_choice(label: lazy, nobody: bool = False) -> RadioField:
    """Build a tap-a-team field; `nobody` adds a first choice for no team."""
    return RadioField(label, validate_choice=False, default="" if nobody else None)


class BeloteRoundForm(RoundForm):
    """One deal as the table tells it: taker, trump, contract, points and extras."""

    taker = RadioField(lazy("Who took?"), validate_choice=False)
    trump = RadioField(lazy("Trump"), validate_choice=False)
    contract = RadioField(lazy("Contract"), validate_choice=False)
    coinche = RadioField(
        lazy("Doubling"),
        choices=[
            SelectChoice("none", lazy("None")),
            SelectChoice("coinche", lazy("Coinche ×2")),
            SelectChoice("surcoinche", lazy("Surcoinche ×4")),
        ],
        default="none",
        validate_choice=False,
    )
    taker_alone = BooleanField(lazy("The taker took every trick alone"))
    teams = SeatList(FormField(TeamForm), max_entries=2)
    last_trick = team_choice(lazy("Last trick (dix de der)"))
    belote = team_choice(lazy("Belote-rebelote"), nobody=True)
    capot = team_choice(lazy("Capot (all 8 tricks)"), nobody=True)
    counted = HiddenField(default="")
    stored_points = HiddenField(default="")
    """On a correction, each team's card points as stored ("82 70"): a box still showing its
    stored value while the other was changed is the rest again, as when the deal was entered."""
    counting = team_choice(lazy("Count the cards won by"))
    ranks = RANKS
    suits = SUITS

    def fit_table(self, table: Table) -> None:
        """Offer this table's players, teams, trumps and contracts."""
        names = list(table.teams or {})
        self.taker.choices = list(table.players)
        self.trump.choices = [SelectChoice(t, TRUMP_LABELS[t]) for t in self.trumps()]
        self.contract.choices = [SelectChoice(*item) for item in CONTRACT_LABELS.items()]
        self.last_trick.choices = names
        self.belote.choices = [SelectChoice("", _("Nobody")), *names]
        self.capot.choices = [SelectChoice("", _("Nobody")), *names]
        self.counting.choices = names
        if not self.counting.data:
            self.counting.data = names[0]
        self.teams.fit(len(names))

    def trumps(self) -> list[str]:
        """Return the trump choices this match offers (all trump is for coinche)."""
        return [*SUITS, NO_TRUMP] + ([ALL_TRUMP] if self.coinche_match else [])

    def extras_held(self) -> dict[str, Held]:
        """Say what each extra holds: one opens when it holds something, was refused, or the
        contract needs it (a capot or a générale is told in the capot's section)."""
        sides = self.sides()
        belotes = [f"{team} ×{e.belotes.data}" for team, e in sides if e.belotes.data]
        announced = [f"{team} +{e.announcements.data}" for team, e in sides if e.announcements.data]
        doubled = [
            str(choice.label)
            for choice in self.coinche.choices
            if choice.value == self.coinche.data and choice.value != "none"
        ]
        belote = [self.belote.data] if self.belote.data else belotes
        capot = [self.capot.data] if self.capot.data else []
        wanted = self.coinche_match and self.contract.data in ("capot", "generale")
        errors = {name for name, field in self._fields.items() if field.errors}
        team_errors = {
            key for _team, e in sides for key, field in e.form._fields.items() if field.errors
        }
        return {
            "belote": Held(
                belote, bool(belote) or bool({"belote"} & errors | {"belotes"} & team_errors)
            ),
            "announcements": Held(announced, bool(announced) or "announcements" in team_errors),
            "coinche": Held(doubled, bool(doubled) or "coinche" in errors),
            "capot": Held(capot, bool(capot) or wanted or bool({"capot", "taker_alone"} & errors)),
        }

    def announcement_values(self, trump: str | None = None) -> dict[Any, int]:
        """Return the quick announcement buttons for a trump (the one chosen if none is given)."""
        return announcement_choices(trump or self.trump.data, self.table.options["rules"])

    def announcement_sets(self) -> list[tuple[str, dict[Any, int], bool]]:
        """Return each set of quick buttons the trump can call for, and whether it is shown.

        Official no trump has its own carrés; the page shows the set of the trump chosen.
        """
        if self.table.options["rules"] != "official":
            return [("any", ANNOUNCEMENTS, True)]
        at_no_trump = self.trump.data == NO_TRUMP
        return [
            ("trump", self.announcement_values("hearts"), not at_no_trump),
            (NO_TRUMP, self.announcement_values(NO_TRUMP), at_no_trump),
        ]

    @property
    def several_belotes(self) -> bool:
        """Say whether all trump may hold several belotes: coinche under official rules."""
        return self.coinche_match and self.table.options["rules"] == "official"

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
            {
                "points": entered["points"][team],
                "announcements": entered["announcements"][team],
                "belotes": entered["belotes"][team] if "belotes" in entered else None,
            }
            for team in table.teams or {}
        ]
        data["stored_points"] = " ".join(str(entered["points"][team]) for team in table.teams or {})
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
            "points": self.typed_points(),
            "last_trick": self.last_trick.data or None,
            "belote": self.belote.data or None,
            "capot": self.capot.data or None,
            "announcements": {team: e.announcements.data or 0 for team, e in sides},
        }
        if any(e.belotes.data is not None for _team, e in sides):
            deal["belotes"] = {team: e.belotes.data or 0 for team, e in sides}
        if self.coinche_match:
            contract = self.contract.data
            deal["contract"] = int(contract) if contract and contract.isdigit() else contract
            deal["coinche"] = self.coinche.data
            deal["taker_alone"] = self.taker_alone.data
        return deal

    def typed_points(self) -> dict[str, int]:
        """Return the card points typed; when correcting, a box left as stored while the other
        changed is left out, so that it is the rest of the deal again."""
        typed = {team: e.points.data for team, e in self.sides() if e.points.data is not None}
        # A hidden value posted back may be anything: it only ever names points to compare.
        shown = (self.stored_points.data or "").split()
        stored = dict(zip(self.table.teams or {}, shown, strict=False))
        changed = [team for team, points in typed.items() if str(points) != stored.get(team)]
        return {changed[0]: typed[changed[0]]} if len(typed) == 2 and len(changed) == 1 else typed

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
            if (
                head in ("points", "announcements", "belotes")
                and name.casefold() == (team or name).casefold()
            ):
                return entry[head]
        return None


round_form = BeloteRoundForm
"""The form a phone fills in for one deal of Belote or Coinche."""
