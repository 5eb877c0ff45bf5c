"""The patterns page: every component of the pages in light, dark and right to left at once."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from wtforms import BooleanField, IntegerField, RadioField, SelectChoice, StringField
from wtforms.form import BaseForm

from scorebook import matches, storage
from scorers import GAMES

bp = Blueprint("patterns", __name__)

SAMPLES: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    "rami": (
        {"players": ["Ana", "Bo", "Cy"]},
        [
            {
                "outcome": "out",
                "winner": "Ana",
                "hands": {
                    "Bo": {"points": 35, "melded": True},
                    "Cy": {"cards": ["A", "JK", "5"], "melded": False},
                },
            },
            {
                "outcome": "out",
                "winner": "Cy",
                "hands": {
                    "Ana": {"points": 12, "melded": True},
                    "Bo": {"points": 40, "melded": False},
                },
            },
        ],
    ),
    "gaigel": (
        {"teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}},
        [
            {"winner": "Oben", "outcome": "aus"},
            {"winner": "Unten", "outcome": "gaigel"},
            {"winner": "Oben", "outcome": "untergaigeln"},
        ],
    ),
    "porrazo": (
        {"players": ["Ana", "Bo", "Cy"]},
        [
            {"player": "Ana", "event": "ronda", "rank": "5"},
            {"player": "Bo", "event": "in_place", "rank": "3"},
            {"player": "Cy", "event": "rondin", "rank": "K"},
        ],
    ),
}
"""A few rounds of the games whose pages draw a picture, played in memory: nothing is stored."""


AT = "2024-03-01T20:00:00Z"
"""When the sample matches were played."""


def sample(game: str) -> matches.Match:
    """Replay a sample match in memory, the way a stored one is replayed."""
    scorer = GAMES[game]
    seats, entered = SAMPLES[game]
    table = scorer.read_table({"game": game, **seats})
    rounds = [
        matches.Round(n, n, scorer.read_round(table, data), AT, None)
        for n, data in enumerate(entered, start=1)
    ]
    replay = scorer.replay(table, [r.input for r in rounds])
    details = dict.fromkeys(storage.DETAILS)
    return matches.Match(0, "sample", scorer, table, AT, rounds, replay, details=details)


def corrected(played: matches.Match) -> dict[int, list[dict[str, Any]]]:
    """Mark a sample's first round corrected, and return its correction as the sheet shows it."""
    first = played.rounds[0]
    played.rounds[0] = replace(first, corrected_utc=AT)
    return {first.id: [{"replaced": first.input, "at_utc": AT}]}


def card(played: matches.Match) -> dict[str, Any]:
    """Return a sample match as the history lists it."""
    return {
        "id": played.id,
        "game": played.scorer.id,
        "created_utc": played.created_utc,
        "totals": played.replay.totals,
        "status": played.replay.status,
        "winner": played.replay.winner,
        "rounds_played": len(played.rounds),
    }


def sample_form(prefix: str) -> BaseForm:
    """Return the form pieces of the round and match forms, one refused, for one column: its ids
    prefixed, so that each label finds its own input."""
    form = BaseForm(
        [
            ("name", StringField(_("Player 1"))),
            (
                "contract",
                RadioField(
                    _("Contract"),
                    choices=[SelectChoice(bid, bid) for bid in ("80", "100", "120")],
                    default="100",
                ),
            ),
            (
                "winner",
                RadioField(
                    _("Which team won?"),
                    choices=[SelectChoice("us", _("Us")), SelectChoice("them", _("Them"))],
                    default="us",
                ),
            ),
            (
                "points",
                IntegerField(_("Points"), description=_("Card points the taking team won.")),
            ),
            ("melded", BooleanField(_("Had melded"))),
        ],
        prefix=f"{prefix}-",
    )
    form.process()
    form["name"].errors = [_("Give every player a name.")]
    return form


@bp.get("/patterns")
def patterns() -> ResponseReturnValue:
    """Show every component three times: light theme, dark theme, and right to left."""
    columns = [
        {"name": _("Light"), "prefix": "light", "theme": "theme-light", "dir": None, "lang": None},
        {"name": _("Dark"), "prefix": "dark", "theme": "theme-dark", "dir": None, "lang": None},
        {"name": _("Right to left"), "prefix": "rtl", "theme": "", "dir": "rtl", "lang": "fa"},
    ]
    for column in columns:
        column["form"] = sample_form(column["prefix"])
    samples = {game: sample(game) for game in SAMPLES}
    return render_template(
        "patterns.html",
        wide=True,
        columns=columns,
        samples=samples,
        corrected=corrected(samples["rami"]),
        row=card(samples["rami"]),
    )
