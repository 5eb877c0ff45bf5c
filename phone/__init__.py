"""What a phone runs alone, with no server in reach: the server's own scorers, forms and round
templates, in the browser's Python, behind one door the page calls (`answer`).

Nothing here stores anything: the page keeps each match in the phone's storage (IndexedDB) and
hands it over whole with every question; the answer is JSON, as the server's API writes it.
"""

from __future__ import annotations

import json
from typing import Any

from scorers import words

from . import match, pages
from .numerals import written_as


def answer(asked: str) -> str:
    """Answer one question of the phone's page, in its language and, for a page drawn, with its
    numbers as that language writes them (`numerals`: `{"system", "minus", "plus"}`).

    Asked `{"do": "start" | "record" | "correct" | "fits" | "show" | "score", …}`; see each
    step below.
    """
    question = json.loads(asked)
    words.speak(question.get("language"))
    said = STEPS[question["do"]](question)
    if "html" in said and question.get("numerals"):
        said["html"] = written_as(**question["numerals"]).write_html(said["html"])
    return json.dumps(said, ensure_ascii=False, default=str)


def start(question: dict[str, Any]) -> dict[str, Any]:
    """Read a new match from the new-match form as posted: its data, or what to fix."""
    return match.start(question["game"], question["body"], question.get("layout"))


def record(question: dict[str, Any]) -> dict[str, Any]:
    """Read a round from the round form as posted (`n`: a correction): what the table entered,
    or the page again with the form showing what to fix or asking about an unusual round."""
    kept, n = question["match"], question.get("n")
    read = match.read_round(kept, question["body"], n)
    if read.entered is not None:
        return {"entered": read.entered}
    return {"html": pages.show(kept, "edit" if n else "match", n, read.form, read.asked)}


def show(question: dict[str, Any]) -> dict[str, Any]:
    """Draw a page of a match (`view`: "match", "edit", "why" or "rules", of round `n`), and
    say where the match stands."""
    kept = question["match"]
    html = pages.show(kept, question.get("view", "match"), question.get("n"))
    return match.scored(kept, rounds=False) | {"html": html}


def fits(question: dict[str, Any]) -> dict[str, Any]:
    """Say whether a match can take a removal or a restore (`match`: its rounds as they would
    stand; `n`: the round restored): `{}`, or `{"refused": why}` as the server says it."""
    refused = match.refused_change(question["match"], question.get("n"))
    return {} if refused is None else {"refused": refused}


def score(question: dict[str, Any]) -> dict[str, Any]:
    """Score a match as the server's API would answer it: totals, winner, every round."""
    return match.scored(question["match"])


STEPS = {
    "start": start,
    "record": record,
    "correct": record,
    "fits": fits,
    "show": show,
    "score": score,
}
