"""The words the scorers say, in the language of whoever reads them.

Scorers stay plain Python: they mark what they say with `_()` (a sentence with named
`{placeholders}`, filled with `.format()`) or `lazy()` (a label defined once, read in many
languages), and the web layer chooses the language of each request with `speak()`. The
catalogs are the app's own gettext catalogs in `translations/`, compiled from the `.po` files;
English is the text itself, so without a choice (tests of the rules, the JSON API) nothing is
translated.
"""

from __future__ import annotations

import gettext
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from markupsafe import escape

CATALOGS = Path(__file__).resolve().parent.parent / "translations"
"""Where `pybabel compile` writes each language's messages.mo."""

ENGLISH = gettext.NullTranslations()
speaking: ContextVar[gettext.NullTranslations] = ContextVar("speaking", default=ENGLISH)
RIGHT_TO_LEFT = {"fa", "ar"}
"""Languages written right to left: what fills their sentences is isolated."""
isolating: ContextVar[bool] = ContextVar("isolating", default=False)

RIGHT_TO_LEFT_ISOLATE, POP = "\u2067", "\u2069"
"""A right-to-left isolate, not a first-strong one: a page sets every name and number of a
list apart in isolates of its own (<bdi>), and a first-strong isolate, finding no letter
outside them, would run the list left to right ("داریوش" read first)."""
MINUS = "\u2212"


def isolated(value: Any) -> Any:
    """Wrap a name or a number in Unicode isolates, so a right-to-left sentence keeps it whole
    and in its own order ("Cy 4 × −2" stays so); a negative number gets a real minus sign."""
    if isinstance(value, bool) or not isinstance(value, str | int | float | lazy):
        return value
    text = str(value)
    if isinstance(value, int | float) and text.startswith("-"):
        text = MINUS + text[1:]
    return f"{RIGHT_TO_LEFT_ISOLATE}{text}{POP}"


class Sentence(str):
    """A translated sentence of a right-to-left language: its placeholders are isolated."""

    __slots__ = ()

    def format(self, *args: Any, **kwargs: Any) -> str:
        """Fill the placeholders, each value isolated."""
        return str.format(
            self, *map(isolated, args), **{name: isolated(v) for name, v in kwargs.items()}
        )


def said(text: str) -> str:
    """Return a translation as the sentence it is in the language being spoken."""
    return Sentence(text) if isolating.get() else text


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """Return a language's compiled catalog, or English when it has none."""
    return gettext.translation("messages", CATALOGS, languages=[language], fallback=True)


def speak(language: str | None) -> None:
    """Say everything from now on, in this context, in `language` (None: English)."""
    speaking.set(catalog(language) if language and language != "en" else ENGLISH)
    isolating.set(language in RIGHT_TO_LEFT)


def _(message: str) -> str:
    """Translate a message into the language being spoken."""
    return said(speaking.get().gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message that changes with a count."""
    return said(speaking.get().ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """Translate a message whose meaning its context settles ("Second" of the dominoes)."""
    return said(speaking.get().pgettext(context, message))


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """Translate a message with a context that changes with a count."""
    return said(speaking.get().npgettext(context, singular, plural, n))


class lazy:  # noqa: N801 - read like the function it stands for, as gettext_lazy is
    """A message translated each time it is read: a label defined when a module loads."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __str__(self) -> str:
        return _(self.message)

    def __html__(self) -> str:
        return str(escape(str(self)))

    def __repr__(self) -> str:
        return f"lazy({self.message!r})"

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.message)

    def __add__(self, other: str) -> str:
        return str(self) + other

    def __radd__(self, other: str) -> str:
        return other + str(self)

    def __len__(self) -> int:
        return len(str(self))

    def format(self, *args: Any, **kwargs: Any) -> str:
        """Translate, then fill the placeholders."""
        return _(self.message).format(*args, **kwargs)

    def lower(self) -> str:
        """Translate, then lower the case, as a label inside a sentence."""
        return str(self).lower()
