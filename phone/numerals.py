"""The digits and signs of a page, as its language writes numbers, and the marks between a
list's items, as its script writes them: the server writes every page so (web/numerals.py
reads each language's from CLDR), and the phone its own pages, from the same few facts.

Templates and scorers write numbers in Latin digits with a real minus (−12). A Persian page
writes ۱۲ and an Arabic one ١٢, each with its own sign before a negative number, so one page
has one numeral system in its scores, dates and times alike. Only the text a phone reads
changes: tags, attributes (links, form values), scripts and whatever is marked
`translate="no"` (a code or a link to type or copy) keep Latin digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scorers.words import MINUS

ZEROS = {"latn": "0", "arab": "\u0660", "arabext": "\u06f0"}
"""The digit zero of each numbering system the pages' languages use; the nine others follow
it in Unicode."""

PIECES = re.compile(
    r"(<(?:script|style|textarea|pre|code|kbd|samp)\b.*?"
    r"</(?:script|style|textarea|pre|code|kbd|samp)\s*>|<!--.*?-->|<[^>]*>|&#?\w+;)",
    re.DOTALL | re.IGNORECASE,
)
"""What a page's digits are never rewritten in: tags and their attributes, scripts, codes,
comments, entities (&#39;). Between them is the text a phone reads."""

BETWEEN = " · "
"""What the pages set between the items of a line: "Deal 3 · Ana deals", "Ana 12 · Bo 40"."""

ARABIC_MARKS = ((BETWEEN, "، "), (", ", "، "), ("; ", "؛ "))
"""The marks between a list's items as Arabic script writes them, for the numbering systems
whose zero is a dot (٠, ۰): a middle dot beside one reads as one more zero, and a Latin comma
or semicolon is foreign to the script ("آنا ۰، بهرام ۳۵؛ سارا ۷")."""

DOTTED_ZEROS = {"arab", "arabext"}

SIGN = re.compile(r"([+\u2212-])(?<![\w)][+\u2212-])(?=\d)")
"""A sign before a number: a hyphen after a word or a bracket joins, it is no minus. (The
sign is matched first, then what stands before it, so that a page is read fast.)"""


@dataclass(frozen=True)
class Numerals:
    """How one language writes a number: its numbering system, digits and minus sign."""

    system: str
    digits: dict[str, str]
    minus: str
    plus: str
    marks: tuple[tuple[str, str], ...]

    @property
    def facts(self) -> dict[str, str]:
        """Say what `written_as` needs to write numbers so again: a page hands it to the
        phone's Python, which writes the pages it draws as the server writes its own."""
        return {"system": self.system, "minus": self.minus, "plus": self.plus}

    @property
    def between(self) -> str:
        """What this language sets between the items of a line, as the scripts write it too."""
        return dict(self.marks).get(BETWEEN, BETWEEN)

    def write(self, text: str) -> str:
        """Write the digits, signs and separators of a text as the language does."""
        text = SIGN.sub(lambda sign: self.plus if sign.group(1) == "+" else self.minus, text)
        for latin, mark in self.marks:
            text = text.replace(latin, mark)
        # Ten replacements run faster than one translate of a text in Persian letters.
        for latin, digit in self.digits.items():
            text = text.replace(latin, digit)
        return text

    def write_html(self, html: str) -> str:
        """Write the text of an HTML page as the language does, leaving its tags be; an
        element marked translate="no" keeps its text as it is (a code, a link)."""
        parts = PIECES.split(html)
        texts = self.write("\x00".join(parts[::2])).split("\x00")
        for i, tag in enumerate(parts[1::2]):
            if 'translate="no"' in tag:
                texts[i + 1] = parts[2 * i + 2]
        parts[::2] = texts
        return "".join(parts)


def written_as(system: str, minus: str, plus: str) -> Numerals:
    """Describe how a language writes numbers: its numbering system ("arabext": ۱۲) and its
    signs; a minus given as a hyphen is written as a real minus."""
    zero = ord(ZEROS.get(system, "0"))
    return Numerals(
        system=system,
        digits={str(d): chr(zero + d) for d in range(10)},
        minus=MINUS if minus == "-" else minus,
        plus=plus,
        marks=ARABIC_MARKS if system in DOTTED_ZEROS else (),
    )
