"""How the pages write names, numbers and cards, on the server and on the phone alike: a real
minus, each name and number set apart from a right-to-left sentence, red hearts and diamonds."""

from __future__ import annotations

import functools
import re
from typing import Any

from markupsafe import Markup, escape

from scorers.words import MINUS, pgettext


def number_text(points: int) -> str:
    """Write a total with a real minus sign when it is below zero: −143."""
    return f"{MINUS}{-points}" if points < 0 else str(points)


def signed_text(points: int) -> str:
    """Write a round's score with its sign, as the sheet shows it: +20, −70, 0."""
    return f"+{points}" if points > 0 else number_text(points)


RED_SUITS = re.compile("([♥♦])")


def suits(text: Any) -> Markup:
    """Draw hearts and diamonds red, as on the cards, in text a page shows."""
    return Markup(RED_SUITS.sub(r'<span class="red-suit">\1</span>', str(escape(text))))


def rank(code: str) -> str:
    """Write a card's rank as the language's packs print it: a French queen is D (dame)."""
    printed = {
        "A": pgettext("card rank", "A"),
        "J": pgettext("card rank", "J"),
        "Q": pgettext("card rank", "Q"),
        "K": pgettext("card rank", "K"),
    }
    return printed.get(code, code)


SIGNED = r"(?:(?<![\w)])[+\u2212-])?\d+"
"""A number with its sign, if it has one: a hyphen after a word or a bracket joins, not a minus."""


@functools.lru_cache(maxsize=256)
def apart(names: tuple[str, ...]) -> re.Pattern[str]:
    """Find the players' names (the longest first: "Anaïs" before "Ana") and signed numbers."""
    named = [rf"(?<!\w){re.escape(name)}(?!\w)" for name in sorted(names, key=len, reverse=True)]
    return re.compile("|".join([*named, SIGNED]))


def left_to_right(text: str) -> Markup:
    """Set a number apart, left to right (escaped once, without Markup.format: a 200-round
    sheet sets thousands apart)."""
    return Markup(f'<bdi dir="ltr">{escape(text)}</bdi>')


def isolated(text: Any, names: tuple[str, ...] | list[str] = ()) -> Markup:
    """Set each name and each signed number of a sentence apart, a number left to right with
    a real minus, and draw the red suits: right to left, "آنا 3 × −2; بهرام 4 × −2" keeps
    each item whole and in order, as the sentence says it."""
    text, shown, at = str(text), [], 0
    for found in apart(tuple(names)).finditer(text):
        shown.append(suits(text[at : found.start()]))
        piece = found.group(0)
        if piece[0].isdigit() or piece[0] in "+-\u2212":
            piece = piece.replace("-", MINUS, 1)
            shown.append(left_to_right(piece))
        else:
            shown.append(Markup(f"<bdi>{escape(piece)}</bdi>"))
        at = found.end()
    shown.append(suits(text[at:]))
    return Markup("").join(shown)


def signed(points: int) -> Markup:
    """Write a round's score with its sign, set apart from the names and words around it."""
    return left_to_right(signed_text(points))


def number(points: int) -> Markup:
    """Write a total with a real minus, set apart: right to left, "آنا −6 · بهرام −8" keeps
    each total after its name."""
    return left_to_right(number_text(points))
