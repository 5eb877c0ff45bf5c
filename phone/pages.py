"""The phone's own pages, drawn in the browser's Python from the server's templates: the
game's round form as the server draws it, with the score bar, the rounds and their Why?."""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from scorers import round_form_of, words
from scorers.base import FINISHED, Replay, Scorer, Table

from . import marks
from .match import replay

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
"""The server's templates: the phone draws the same round forms from the same files."""


@dataclass
class PhoneMatch:
    """A kept match as the templates read a match: its scorer, table, replay and rounds."""

    scorer: Scorer
    table: Table
    replay: Replay
    rounds: list[Any]
    removed: list[Any] = field(default_factory=list)
    id: str = ""
    abandoned_utc: None = None

    @property
    def title(self) -> str:
        """Name the game as the server's pages head it ("Coinche")."""
        return self.scorer.title(self.table.options)


@functools.cache
def environment() -> Environment:
    """Load the templates once, with the server's words, filters and globals."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(
        words._, words.ngettext, newstyle=True, pgettext=words.pgettext, npgettext=words.npgettext
    )
    env.filters.update(
        suits=marks.suits,
        rank=marks.rank,
        isolated=marks.isolated,
        signed=marks.signed,
        number=marks.number,
    )
    env.globals.update(
        FINISHED=FINISHED,
        new_key=lambda: uuid.uuid4().hex,
        csrf_token=lambda: "",
        # The phone's page has its own Undo: a game's own (Porrazo's) is the server's.
        request=SimpleNamespace(endpoint="pages.edit_round"),
        url_for=lambda *_args, **_kwargs: "",
    )
    return env


def kept_match(kept: dict[str, Any]) -> PhoneMatch:
    """Read a kept match as the templates read one."""
    scorer, table, done = replay(kept)
    rounds = [
        SimpleNamespace(n=n, input=stored["input"], id=stored.get("key"), version=1)
        for n, stored in enumerate(kept["rounds"], 1)
    ]
    removed = [SimpleNamespace(**entry) for entry in kept.get("removed", [])]
    return PhoneMatch(scorer, table, done, rounds, removed, kept.get("uid", ""))


def show(
    kept: dict[str, Any],
    assets: dict[str, str],
    form: Any = None,
    n: int | None = None,
    asked: list[str] | None = None,
) -> str:
    """Draw a kept match's page: the score bar, the form for the next round (or for round
    `n`, to correct it), and every round with its Why?."""
    match = kept_match(kept)
    if form is None:
        before = match.scorer.replay(match.table, [r.input for r in match.rounds][: (n or 0) - 1])
        build = round_form_of(match.scorer)
        form = (
            build(match.table, entered=match.rounds[n - 1].input, state=before.state)
            if n
            else build(match.table, state=match.replay.state)
        )
    number = n or len(match.rounds) + 1
    return (
        environment()
        .get_template("phone/match.html")
        .render(
            match=match,
            replay=match.replay,
            form=form,
            correcting=n,
            action="",
            guard={"expected": number},
            oddities=asked or [],
            scored=list(zip(match.rounds, match.replay.rounds, strict=True)),
            names=[*match.table.players, *(match.table.teams or {})],
            asset=lambda name: assets.get(name, ""),
        )
    )


def rules(kept: dict[str, Any]) -> str:
    """Draw the rules a kept match is played under, each with the rounds it scored."""
    match = kept_match(kept)
    scored = list(zip(match.rounds, match.replay.rounds, strict=True))
    applied = [
        (rule, [r.n for r, result in scored if rule.applies and rule.applies(r.input, result)])
        for rule in [
            *match.scorer.rules(match.table.options),
            *match.scorer.length_rule(match.table.options),
        ]
    ]
    return environment().get_template("phone/rules.html").render(match=match, applied=applied)
