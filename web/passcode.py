"""What a request carries to be let in: a match's token (a bearer token, or the one a
browser's session keeps), and the site passcode that starting, importing, renaming and
creating events ask for when the site has one."""

from __future__ import annotations

import hmac

from flask import current_app, request
from flask_babel import gettext as _

from scorebook import access, matches

from .circles import current, many
from .db import get_db


def bearer_token() -> str | None:
    """Return the token a request carries as `Authorization: Bearer <token>`, if any."""
    header = request.headers.get("Authorization", "")
    return header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else None


def phone_for(match_id: int, token: str | None) -> str:
    """Return the label of the phone whose token may change this match, or refuse: 404
    before 403, so a token is only ever checked against a match that exists.

    :raises matches.NotFound: when there is no such match.
    :raises access.Forbidden: when the token does not open it.
    """
    if not 0 < match_id <= matches.LARGEST_ID:
        raise matches.no_such_match(match_id)
    try:
        return access.device_for(get_db(), match_id, token)
    except access.Forbidden:
        matches.read_record(get_db(), match_id)
        raise


PASSCODE_HEADER = "X-Tablescore-Passcode"


def check_passcode(given: str | None, door: str = "start") -> None:
    """Refuse a change outside a match's own token without the site passcode, when it has one.

    `door` names what is asked for ("start", "import", "rename", "event", "circle"), so the
    refusal says it. On a server of many circles the passcode guards starting a circle; inside
    one, its key is what lets a phone in.
    """
    passcode = current_app.config.get("PASSCODE")
    if passcode is None or passcode == "" or (door != "circle" and in_circle()):
        return
    expected = as_bytes(str(passcode))
    # Either reading may be the one typed: a header's UTF-8 bytes reach WSGI read as Latin-1.
    readings = {as_bytes(text) for text in spellings(given or "")}
    # Compare every reading, so the time taken says nothing about which one came close.
    matched = [hmac.compare_digest(reading, expected) for reading in readings]
    if not any(matched):
        raise access.Forbidden(passcode_refusal(door))


def as_bytes(text: str) -> bytes:
    """Encode text as UTF-8 for comparing; a lone surrogate is kept rather than refused (a 500)."""
    return text.encode("utf-8", "surrogatepass")


def spellings(given: str) -> list[str]:
    """Return the text as received and, if it is UTF-8 read as Latin-1 (a header), as sent."""
    try:
        return [given, given.encode("latin-1").decode("utf-8")]
    except UnicodeError:
        return [given]


def passcode_refusal(door: str) -> str:
    """Say what the passcode is asked for and where to give it, in the door's own way."""
    if request.blueprint == "api" or request.path.startswith("/api/"):
        return {
            "import": _(
                "This Tablescore asks for its passcode to import matches: send it in the "
                "X-Tablescore-Passcode header."
            ),
            "rename": _(
                "This Tablescore asks for its passcode to rename or merge players: send it in "
                "the X-Tablescore-Passcode header."
            ),
            "event": _(
                "This Tablescore asks for its passcode to create an event: send it in the "
                "X-Tablescore-Passcode header."
            ),
            "circle": _(
                "This Tablescore asks for its passcode to start a circle: send it in the "
                "X-Tablescore-Passcode header."
            ),
        }.get(
            door,
            _(
                "This Tablescore asks for its passcode to start a match: send it in the "
                "X-Tablescore-Passcode header."
            ),
        )
    return {
        "import": _(
            "This Tablescore asks for its passcode to import matches: type it in the passcode "
            "box, or ask whoever runs it."
        ),
        "rename": _(
            "This Tablescore asks for its passcode to rename or merge players: type it in the "
            "passcode box, or ask whoever runs it."
        ),
        "event": _(
            "This Tablescore asks for its passcode to create an event: type it in the passcode "
            "box, or ask whoever runs it."
        ),
        "circle": _(
            "This Tablescore asks for its passcode to start a circle: type it in the passcode "
            "box, or ask whoever runs it."
        ),
    }.get(
        door,
        _(
            "This Tablescore asks for its passcode to start a match: type it in the passcode "
            "box, or ask whoever runs it."
        ),
    )


def in_circle() -> bool:
    """Say whether the request acts inside a circle of a server of many: its key let it in."""
    return many() and current() is not None
