"""Gaigel's deal forms: a team deal (who won, how, the evidence), or a three-player deal."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, FormField, RadioField, SelectChoice
from wtforms import Form as PlainForm
from wtforms.fields import Field
from wtforms.validators import Optional

from ..base import Table
from ..forms import Number, RoundForm, SeatList
from ..words import lazy
from .rules import OUTCOMES, VARIANTS


class TeamDealForm(RoundForm):
    """One team deal: who won and how, and optionally the evidence to check the Aus."""

    winner = RadioField(lazy("Which team won?"), validate_choice=False)
    outcome = RadioField(lazy("How?"), validate_choice=False)
    points = Number(lazy("Card points of the team that called Aus"), validators=[Optional()])
    marriages_20 = Number(lazy("Marriages of 20"), validators=[Optional()])
    marriages_40 = Number(lazy("Marriages of 40 (trumps)"), validators=[Optional()])
    loser_tricks = Number(lazy("Tricks the other team took"), validators=[Optional()])

    def fit_table(self, table: Table) -> None:
        """Offer the two teams, and the outcomes this match is played with."""
        self.winner.choices = list(table.teams or {})
        enabled = [o for o in OUTCOMES if o not in VARIANTS or table.options[o]]
        self.outcome.choices = [SelectChoice(o, OUTCOMES[o][0]) for o in enabled]

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Show a stored deal again, for correcting it."""
        data = {"winner": entered["winner"], "outcome": entered["outcome"]}
        evidence = entered.get("evidence")
        if evidence:
            data |= {
                "points": evidence["points"],
                "marriages_20": evidence["marriages"].count(20),
                "marriages_40": evidence["marriages"].count(40),
                "loser_tricks": evidence.get("loser_tricks"),
            }
        return data

    def to_input(self) -> dict[str, Any]:
        """Return the deal in the API's shape; evidence only when card points were typed."""
        deal: dict[str, Any] = {"winner": self.winner.data, "outcome": self.outcome.data or None}
        if self.points.data is not None:
            marriages = [40] * (self.marriages_40.data or 0) + [20] * (self.marriages_20.data or 0)
            deal["evidence"] = {"points": self.points.data, "marriages": marriages}
            if self.loser_tricks.data is not None:
                deal["evidence"]["loser_tricks"] = self.loser_tricks.data
        return deal

    def field_at(self, path: str) -> Field | None:
        """Map the evidence's paths to its boxes."""
        head, _, rest = path.partition(".")
        if head in ("winner", "outcome"):
            return self[head]
        if head == "evidence":
            boxes = {"points": self.points, "loser_tricks": self.loser_tricks}
            return boxes.get(rest, self.marriages_40 if rest.endswith("40") else self.marriages_20)
        return None


class PlayerDealForm(PlainForm):
    """One player's line in a three-player deal."""

    card_points = Number(lazy("Card points"), validators=[Optional()])
    took_trick = BooleanField(lazy("Took a trick"), default=True)
    cut = Number(lazy("Cut place"), validators=[Optional()])


class ThreeDealForm(RoundForm):
    """One three-player deal: each player's card points, trick, and place in a cut."""

    players = SeatList(FormField(PlayerDealForm), max_entries=3)

    def fit_table(self, table: Table) -> None:
        """Give each player a line."""
        self.players.fit(len(table.players))

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Show a stored deal again, for correcting it."""
        cut = entered["cut_order"]
        return {
            "players": [
                {
                    "card_points": entered["card_points"][name],
                    "took_trick": entered["took_trick"][name],
                    "cut": cut.index(name) + 1 if name in cut else None,
                }
                for name in table.players
            ]
        }

    def seats(self) -> list[tuple[str, FormField]]:
        """Pair each player with their line."""
        return list(zip(self.table.players, self.players, strict=True))

    def to_input(self) -> dict[str, Any]:
        """Return the deal in the API's shape; the cut lists those given a cut place."""
        seats = self.seats()
        cut = sorted((e.cut.data, name) for name, e in seats if e.cut.data is not None)
        return {
            "card_points": {name: e.card_points.data for name, e in seats},
            "took_trick": {name: e.took_trick.data for name, e in seats},
            "cut_order": [name for _, name in cut],
        }

    def field_at(self, path: str) -> Field | None:
        """Map "card_points.Ana" to Ana's box, and the cut to the first cut box."""
        head, _, name = path.partition(".")
        part = {"card_points": "card_points", "took_trick": "took_trick"}.get(head, "cut")
        for player, entry in self.seats():
            if not name or player.casefold() == name.casefold():
                return entry[part]
        return None


def round_form(
    table: Table,
    formdata: Any = None,
    *,
    entered: dict | None = None,
    state: dict | None = None,
) -> RoundForm:
    """Build the deal form of the match's mode."""
    form = ThreeDealForm if table.options["mode"] == "three" else TeamDealForm
    return form(table, formdata, entered=entered, state=state)
