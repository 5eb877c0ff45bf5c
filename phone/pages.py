"""The phone's own pages, drawn in the browser's Python from the server's templates: its score
bar, each game's round form and sheet, the removed rounds, the correction page, a round's
Why? and the rules, answered by the page itself (static/alone.js)."""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape

from scorers import round_form_of, words
from scorers.base import FINISHED, Replay, Scorer, Table

from . import marks
from .match import replay

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
"""The server's templates: the phone draws the same forms and sheets from the same files."""
VIEWS = {
    "match": "phone/match.html",
    "edit": "phone/edit.html",
    "why": "phone/why.html",
    "rules": "phone/rules.html",
    "bar": "_score_bar.html",
}
"""The pages of a match kept on the phone, by the name its address gives them, and the score
bar alone: a server's match page offline shows it with the rounds waiting on the phone."""


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
    confirmations: None = None

    @property
    def title(self) -> str:
        """Name the game as the server's pages head it ("Coinche")."""
        return self.scorer.title(self.table.options)


def address(endpoint: str, **values: Any) -> str:
    """Write where a form or link of the server's templates leads, as the phone's page reads
    it: "pages.remove_round", n=3 is "?phone=remove_round&n=3", answered on the phone."""
    values.pop("match_id", None)
    anchor = values.pop("_anchor", None)
    written = "?" + urlencode({"phone": endpoint.rpartition(".")[2], **values})
    return f"{written}#{anchor}" if anchor else written


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
        url_for=address,
    )
    return env


def kept_match(kept: dict[str, Any]) -> PhoneMatch:
    """Read a kept match as the templates read one."""
    scorer, table, done = replay(kept)
    rounds = [
        SimpleNamespace(
            n=n,
            input=stored["input"],
            id=stored.get("key"),
            version=1,
            note=None,
            entered_utc=stored.get("at"),
            corrected_utc=stored.get("corrected_at"),
        )
        for n, stored in enumerate(kept["rounds"], 1)
    ]
    removed = [
        SimpleNamespace(id=index, n=gone["n"], input=gone["input"], removed_utc=gone["removed_at"])
        for index, gone in enumerate(kept.get("removed", []))
    ]
    return PhoneMatch(scorer, table, done, rounds, removed, kept.get("uid", ""))


def corrections(kept: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Return each round's corrections from the phone's log, by the round's key: what it was."""
    corrected: dict[str, list[dict[str, Any]]] = {}
    for change in kept.get("log", []):
        if change["action"] == "correct":
            entry = {"at_utc": change["at"], "replaced": change["replaced"]}
            corrected.setdefault(change["round"], []).append(entry)
    return corrected


def show(
    kept: dict[str, Any],
    view: str = "match",
    n: int | None = None,
    form: Any = None,
    asked: list[str] | None = None,
) -> str:
    """Draw one page of a kept match: the match itself, the correction of round `n`, its
    Why? or the rules; `form` is the round form as posted, `asked` what it asks once.

    :raises KeyError: for a view or a round the match does not have.
    """
    match = kept_match(kept)
    scored = list(zip(match.rounds, match.replay.rounds, strict=True))
    if view in ("edit", "why") and not 0 < (n or 0) <= len(match.rounds):
        raise KeyError(n)
    before = match.scorer.replay(match.table, [r.input for r in match.rounds][: (n or 1) - 1])
    if form is None and view in ("match", "edit"):
        build = round_form_of(match.scorer)
        if view == "edit":
            form = build(match.table, entered=match.rounds[n - 1].input, state=before.state)
        else:
            form = build(match.table, state=match.replay.state)
    return (
        environment()
        .get_template(VIEWS[view])
        .render(
            match=match,
            replay=match.replay,
            form=form,
            n=n,
            stored=match.rounds[n - 1] if n else None,
            result=match.replay.rounds[n - 1] if n else None,
            before=before.totals,
            recorded=match.rounds[-1] if match.rounds and view == "match" else None,
            guard={"expected": n or len(match.rounds) + 1},
            oddities=asked or [],
            rows=scored,
            corrected=corrections(kept),
            removed=match.removed,
            can_score=True,
            rounds_url=address("pages.round") + "&n=",
            names=[*match.table.players, *(match.table.teams or {})],
            applied=match.scorer.rules_applied(
                match.table.options, [(stored.input, result) for stored, result in scored]
            )
            if view == "rules"
            else [],
            request=SimpleNamespace(
                endpoint="pages.edit_round" if view == "edit" else "pages.match"
            ),
            asset=lambda _name: "",
        )
    )
