"""Each page's numbers as its language writes them: the facts read from CLDR once per
language, and every HTML page written so after it is made (phone/numerals.py does the
writing, for the phone's own pages too)."""

from __future__ import annotations

import functools

from babel import Locale
from babel.core import get_global
from babel.numbers import get_minus_sign_symbol, get_plus_sign_symbol
from flask import Flask, Response
from flask_babel import get_locale

from phone.numerals import Numerals, written_as
from scorers.words import MINUS


@functools.cache
def numerals(language: str) -> Numerals:
    """Read a language's numerals from CLDR, as written where it is most spoken (its likely
    region: Arabic as in Egypt, ١٢; Persian as in Iran, ۱۲)."""
    where = Locale.parse(get_global("likely_subtags").get(language, language))
    system = where.default_numbering_system
    return written_as(
        system,
        get_minus_sign_symbol(where, numbering_system=system),
        get_plus_sign_symbol(where, numbering_system=system),
    )


def current() -> Numerals:
    """The numerals of this request's language."""
    return numerals(str(get_locale() or "en"))


def write_page(response: Response) -> Response:
    """Write the numbers of an HTML page in its language's numerals; other answers pass."""
    if response.mimetype != "text/html" or response.direct_passthrough:
        return response
    written = current()
    if written.system == "latn" and (written.minus, written.plus) == (MINUS, "+"):
        return response
    page = written.write_html(response.get_data(as_text=True))
    response.set_data(page)
    return response


def register(app: Flask) -> None:
    """Rewrite each page's numbers after it is made, before it is compressed."""
    app.after_request(write_page)
    app.jinja_env.globals["numerals"] = current
