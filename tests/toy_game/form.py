"""Tally's round form: one number box a player, built for the table's own names."""

from __future__ import annotations

from typing import Any

from wtforms.validators import InputRequired

from scorers.base import Table
from scorers.forms import Number, RoundForm


class TallyForm(RoundForm):
    """A round of Tally as typed: each player's points."""

    def to_input(self) -> dict[str, Any]:
        """Return the round in the API's shape."""
        players = self.table.players
        return {"points": {name: self[f"points_{seat}"].data for seat, name in enumerate(players)}}

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Show a stored round again."""
        points = entered["points"]
        return {f"points_{seat}": points[name] for seat, name in enumerate(table.players)}


def round_form(
    table: Table, formdata: Any = None, *, entered: dict | None = None, state: dict | None = None
) -> TallyForm:
    """Build the form with one box for each player at this table."""
    boxes = {
        f"points_{seat}": Number(name, [InputRequired()]) for seat, name in enumerate(table.players)
    }
    form_class = type("TallyTableForm", (TallyForm,), boxes)
    return form_class(table, formdata, entered=entered, state=state)
