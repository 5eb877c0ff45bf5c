"""Barbu's hand form: the contract, what it counts, and the doubles as a grid of toggles."""

from __future__ import annotations

from typing import Any

from wtforms import RadioField, SelectChoice, SelectMultipleField
from wtforms.fields import Field

from ..base import Table
from ..forms import Number, RoundForm, SeatList
from ..words import _, lazy
from .rules import CONTRACTS, COUNTED, POSITIVE

PICKED = ("ace_of_hearts", "second_last", "last", "king_of_hearts")
"""The single cards or tricks a hand can ask "who took it?" about."""


class BarbuRoundForm(RoundForm):
    """One hand: the contract, what it counts, and the doubles as a grid of toggles."""

    contract = RadioField(lazy("Contract"), validate_choice=False)
    counts = SeatList(Number(lazy("Count")), max_entries=4)
    ace_of_hearts = RadioField(lazy("Who took the A♥?"), validate_choice=False)
    second_last = RadioField(lazy("Who took the second-last trick?"), validate_choice=False)
    last = RadioField(lazy("Who took the last trick?"), validate_choice=False)
    king_of_hearts = RadioField(lazy("Who took the K♥?"), validate_choice=False)
    order = SeatList(RadioField(lazy("Place"), validate_choice=False), max_entries=4)
    doubles = SelectMultipleField(lazy("Doubles"), validate_choice=False)
    contract_names = CONTRACTS
    counted = COUNTED
    positive = POSITIVE

    def fit_table(self, table: Table) -> None:
        """Offer the contracts, and the players for each card or trick a hand asks about."""
        self.contract.choices = [SelectChoice(*item) for item in CONTRACTS.items()]
        for name in PICKED:
            self[name].choices = list(table.players)
        self.counts.fit(len(table.players))
        self.order.fit(len(table.players))
        for place in self.order:
            place.choices = list(table.players)

    @classmethod
    def fresh_data(cls, table: Table, state: dict) -> dict[str, Any]:
        """Start a hand with zero counts and the doubles the obligation makes compulsory."""
        declarer = state.get("declarer")
        return {
            "counts": [0] * len(table.players),
            "doubles": [pair_code(table, name, declarer) for name in state.get("compulsory", [])],
        }

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Show a stored hand again, for correcting it."""
        taken = entered["taken"]
        data: dict[str, Any] = {
            "contract": entered["contract"],
            "doubles": [pair_code(table, *pair) for pair in entered["doubles"]],
            "counts": [0] * len(table.players),
            "ace_of_hearts": entered.get("ace_of_hearts"),
        }
        if entered["contract"] in COUNTED:
            data["counts"] = [taken[name] for name in table.players]
        elif entered["contract"] == "dominoes":
            data["order"] = taken["order"]
        else:
            data |= taken
        return data

    def declarer(self) -> str | None:
        """Return who declares this hand."""
        return self.state.get("declarer")

    def to_input(self) -> dict[str, Any]:
        """Return the hand in the API's shape, with only what its contract counts."""
        players = self.table.players
        contract = self.contract.data
        hand: dict[str, Any] = {"contract": contract, "doubles": []}
        for code in self.doubles.data or []:
            doubler, _, doubled = code.partition(">")
            if doubler.isdigit() and doubled.isdigit() and max(int(doubler), int(doubled)) < 4:
                hand["doubles"].append([players[int(doubler)], players[int(doubled)]])
        if contract in COUNTED:
            hand["taken"] = {name: box.data for name, box in zip(players, self.counts, strict=True)}
            if contract == "no_hearts":
                hand["ace_of_hearts"] = self.ace_of_hearts.data
        elif contract == "no_last_two":
            hand["taken"] = {"second_last": self.second_last.data, "last": self.last.data}
        elif contract == "barbu":
            hand["taken"] = {"king_of_hearts": self.king_of_hearts.data}
        elif contract == "dominoes":
            hand["taken"] = {"order": [place.data for place in self.order]}
        return hand

    def follow_taps(self, formdata: Any) -> bool:
        """Step a player's count up or down ("step" = "seat:+1" or "seat:-1")."""
        seat, _, step = formdata.get("step", "").partition(":")
        if not seat.isdigit() or int(seat) >= len(self.counts) or step not in ("+1", "-1"):
            return False
        box = self.counts[int(seat)]
        box.data = min(13, max(0, (box.data or 0) + int(step)))
        box.raw_data = None  # show the new count, not the one the phone sent
        return True

    def cell(self, doubler: int, doubled: int) -> dict[str, Any]:
        """Describe one toggle of the doubles grid: its code, whether it is on, and why not."""
        players = self.table.players
        declarer = self.declarer()
        code = f"{doubler}>{doubled}"
        reason = ""
        if doubler == doubled:
            reason = _("Nobody doubles themselves.")
        elif players[doubler] == declarer and f"{doubled}>{doubler}" not in (
            self.doubles.data or []
        ):
            reason = _("{declarer} declares: only a redouble of a player who doubled them.").format(
                declarer=declarer
            )
        elif self.contract.data in POSITIVE and declarer not in (
            players[doubler],
            players[doubled],
        ):
            reason = _("In a positive contract only the declarer may be doubled.")
        return {"code": code, "on": code in (self.doubles.data or []), "reason": reason}

    def field_at(self, path: str) -> Field | None:
        """Map "taken.Bo" to Bo's count, "taken.order.2" to the third place, doubles to the grid."""
        head, _, rest = path.partition(".")
        if head in ("contract", "ace_of_hearts"):
            return self[head]
        if head.startswith("doubles"):
            return self.doubles
        if head != "taken" or not rest:
            return None
        key, _, place = rest.partition(".")
        if key in PICKED:
            return self[key]
        if key == "order":
            return self.order[int(place)] if place.isdigit() and int(place) < 4 else self.order[0]
        for name, box in zip(self.table.players, self.counts, strict=True):
            if name.casefold() == key.casefold():
                return box
        return None


def pair_code(table: Table, doubler: str, doubled: str) -> str:
    """Name a grid toggle by seats: "1>0" is the second player doubling the first."""
    return f"{table.players.index(doubler)}>{table.players.index(doubled)}"


round_form = BarbuRoundForm
"""The form a phone fills in for one hand of Barbu."""
