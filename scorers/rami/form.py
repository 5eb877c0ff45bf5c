"""Rami's round form: how the round ended, and the cards or value of each hand left."""

from __future__ import annotations

from typing import Any

from wtforms import Form, FormField, HiddenField, RadioField, SelectChoice
from wtforms.fields import Field
from wtforms.validators import Optional

from ..base import Table
from ..forms import Number, RoundForm, SeatList
from ..words import lazy
from .rules import (
    BLOCKED,
    CARD_VALUES,
    MAX_HAND_CARDS,
    MAX_PLAYERS,
    OUT,
    RAMI_RANKS,
    RAMI_SEC,
    hand_value,
)

MELDED = {"y": True, "n": False}
"""The melded chips' values ("y" as the checkbox it replaced posted), and what each says."""


def melded_choice(melded: bool | None) -> str | None:
    """Return the melded chip a stored answer ticks; none for no answer."""
    return None if melded is None else ("y" if melded else "n")


class HandForm(Form):
    """One player's hand: the cards tapped (kept as "A JK 5"), or a typed value, and whether
    they had melded: asked every round, never carried from the one before, since an answer
    nobody gave would cost the bonus unseen."""

    cards = HiddenField(default="")
    points = Number(lazy("Value"), validators=[Optional()])
    melded = RadioField(
        lazy("Had melded"),
        choices=[SelectChoice("y", lazy("Yes")), SelectChoice("n", lazy("No"))],
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

    def fit_table(self, table: Table) -> None:
        """Offer the players as who went out, and a hand for each."""
        self.winner.choices = list(table.players)
        self.hands.fit(len(table.players))

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


round_form = RamiRoundForm
"""The form a phone fills in for one round of Rami."""
