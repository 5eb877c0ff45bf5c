"""A match kept on the phone, scored by the server's own rules: started from the new-match
form, each round read from the game's round form, the whole match replayed from its rounds.

A kept match is the page's plain JSON: `{"uid", "data": {"game", "players" | "teams",
"options"}, "rounds": [{"key", "input", …}], …}`, `data` being what the server's API would be
sent to start it, and each round's `input` what it stores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from scorers import GAMES, Refusal, Scorer, Unfit, round_form_of
from scorers.base import FINISHED, Replay, Table
from scorers.forms import match_form
from scorers.options import CONFIRM_CHOICE
from scorers.words import _


class Posted:
    """A form as the browser posts it (`a=1&b=2`), read as WTForms reads a request's form."""

    def __init__(self, body: str) -> None:
        self.values = parse_qs(body, keep_blank_values=True)

    def getlist(self, name: str) -> list[str]:
        """Return every value posted under a name, in order."""
        return self.values.get(name, [])

    def get(self, name: str, default: Any = None) -> Any:
        """Return the first value posted under a name, or `default`."""
        return next(iter(self.values.get(name, [])), default)

    def __contains__(self, name: object) -> bool:
        return name in self.values

    def __iter__(self) -> Any:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


def start(game: str, body: str, layout: str | None = None) -> dict[str, Any]:
    """Read a new match from its form: `{"data"}` to keep, or `{"refused": [messages]}`."""
    scorer = GAMES.get(game)
    if scorer is None:
        return {"refused": [_("Tablescore does not score {game}.").format(game=repr(game))]}
    form = match_form(scorer, Posted(body), layout)
    if form.validate():
        try:
            data = form.to_input()
            table_of(data)
            return {"data": data}
        except Refusal as refusal:
            form.show_refusal(refusal)
    return {"refused": refusals(form)}


def refusals(form: Any) -> list[str]:
    """List what a refused form says, each field's message after its label."""
    return [*form.form_errors, *(said for field in form for said in field_refusals(field))]


def field_refusals(field: Any, label: str | None = None) -> list[str]:
    """List what a field says, the boxes of a list of fields and a form within it included
    (a refusal is put on the very box it names: the second name of the players)."""
    label = label or str(field.label.text)
    inner = getattr(field, "entries", None) or list(getattr(field, "form", None) or [])
    said = [f"{label}: {message}" for message in field.errors if isinstance(message, str)]
    return said + [message for entry in inner for message in field_refusals(entry, label)]


def table_of(data: dict[str, Any]) -> tuple[Scorer, Table]:
    """Seat a kept match's table as the server would, the confirm choice left aside.

    :raises Refusal: when the data is not a match the game can seat.
    """
    scorer = GAMES[data["game"]]
    options = {
        key: value for key, value in data.get("options", {}).items() if key not in CONFIRM_CHOICE
    }
    return scorer, scorer.read_table(data | {"options": options})


def replay(kept: dict[str, Any], upto: int | None = None) -> tuple[Scorer, Table, Replay]:
    """Replay a kept match's rounds (the first `upto` of them), as the server replays them."""
    scorer, table = table_of(kept["data"])
    inputs = [r["input"] for r in kept["rounds"]][:upto]
    return scorer, table, scorer.replay(table, inputs)


def refused_change(kept: dict[str, Any], changed: int | None) -> str | None:
    """Say why a match can't take a removal or a restore (its rounds as they would stand),
    as the server would refuse it; None when it can. `changed`: the round restored."""
    scorer, table = table_of(kept["data"])
    try:
        scorer.replay_change(table, [r["input"] for r in kept["rounds"]], changed)
    except (Refusal, Unfit) as refused:
        return refused.message
    return None


@dataclass
class Read:
    """A round read from its form: what to keep, or the form to show again and why."""

    entered: dict[str, Any] | None
    form: Any = None
    asked: list[str] | None = None


def read_round(kept: dict[str, Any], body: str, n: int | None = None) -> Read:
    """Read round `n` (None: the next one) from its form as posted, checked as the server
    checks it: the form's fields, the rules, the whole match replayed with it, and once, an
    unusual round asked about."""
    rounds = kept["rounds"]
    at = len(rounds) if n is None else n - 1
    scorer, table, before = replay(kept, at)
    posted = Posted(body)
    form = round_form_of(scorer)(table, posted, state=before.state)
    if form.follow_taps(posted) or not form.validate():
        return Read(None, form)
    if n is None and before.status == FINISHED:
        form.form_errors = [scorer.say_over(before)]
        return Read(None, form)
    try:
        entered = scorer.read_round(table, form.to_input())
        inputs = [r["input"] for r in rounds]
        inputs[at : at + 1] = [entered]
        after = scorer.replay_change(table, inputs, at + 1, before if n is None else None)
    except Refusal as refusal:
        form.show_refusal(refusal)
        return Read(None, form)
    except Unfit as unfit:
        form.form_errors = [unfit.message]
        return Read(None, form)
    if n is None and posted.get("sure") != "1":
        asked = scorer.oddities_of(table, entered, after.rounds[at])
        if asked:
            return Read(None, form, asked)
    return Read(entered)


def scored(kept: dict[str, Any], rounds: bool = True) -> dict[str, Any]:
    """Score a kept match as the server's API answers it: totals, status, winner, state and,
    with `rounds`, each round's scores, explanation and totals."""
    scorer, table, done = replay(kept)
    answer = {
        "title": scorer.title(table.options),
        "totals": done.totals,
        "status": done.status,
        "winner": done.winner,
        "state": done.state,
        "banner": scorer.banner(done) if done.status == FINISHED else None,
    }
    if rounds:
        answer["rounds"] = [
            {"n": n, "input": stored["input"], **result.answered()}
            for n, (stored, result) in enumerate(zip(kept["rounds"], done.rounds, strict=True), 1)
        ]
    return answer
