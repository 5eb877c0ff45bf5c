"""Which circle a request acts in: the key it carries in X-Tablescore-Circle, or the circle
its phone is in (the session remembers every circle it joined, the one in use last).

On a server of many circles the request's connection sees that circle's rows alone, and a
request in none is answered before any view runs: 401 where it would list or make something,
404 where it names a match, an event or a player, as if nothing were there.
"""

from __future__ import annotations

import hashlib
import hmac
from base64 import urlsafe_b64encode

from flask import Flask, current_app, g, render_template, request, session
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address
from limits import parse as parse_limit

from scorebook import circles, storage
from scorebook.circles import MANY, ONE, Circle

from .db import get_db
from .errors import answer

CIRCLE_HEADER = "X-Tablescore-Circle"
KEPT_CIRCLES = 20
"""How many circles' keys a phone's session keeps, the one used last kept: 20 keys make about
900 bytes of cookie, and a browser drops a cookie past 4 KB."""
OPEN_DOORS = {
    "pages.home",
    "api.games",
    "api.openapi_document",
    "assets.fingerprinted",
    "static",
    "language.pick",
    "pwa.manifest",
    "pwa.offline",
    "pwa.service_worker",
    # The phone's Python and its runtime: the same code for every circle, nothing of theirs.
    "runtime.served",
    "alone.python",
    "patterns.patterns",
    "ratings.method",
    "circle_pages.start_page",
    "circle_pages.start_json",
    "circle_pages.join",
    "circle_pages.switch",
}
"""What a phone in no circle may open on a server of many: what Tablescore is, how to start
or join a circle, and the files every page needs."""
NAMED = ("match_id", "event_id", "name")
"""What an address names a thing of a circle by: without the circle, it is not there."""
WATCHED = {"live.live", "live.sheet"}
"""The doors a match's live link opens, for that match only, to whoever holds the link."""


def many() -> bool:
    """Say whether this server keeps many circles, each private."""
    return current_app.config["CIRCLES"] == MANY


def current() -> Circle | None:
    """Return the circle this request acts in; on a server of one, None: there is only one."""
    return g.get("circle")


def register(app: Flask) -> None:
    """Check the mode the server was started in, and enter each request into its circle."""
    mode = app.config["CIRCLES"]
    if mode not in (ONE, MANY):
        raise RuntimeError(f"TABLESCORE_CIRCLES is {mode!r}: it is either one or many.")
    app.before_request(enter)
    app.jinja_env.globals.update(circle=current, many_circles=many, watch_args=watch_args)


def enter() -> ResponseReturnValue | None:
    """Act in the circle the request's key opens, or answer it here if it opens none."""
    if not many():
        g.circle_id = storage.ONE_CIRCLE
        return None
    g.circle_id = None
    # A match's live link reads that match, whatever circle the phone holding it is in.
    if request.endpoint in WATCHED and watched():
        return None
    given = request.headers.get(CIRCLE_HEADER)
    if given is not None:
        if too_many_wrong_keys():
            return answer(429, wrong_keys_said())
        found = circles.find(get_db(), given.strip())
        if found is None:
            count_wrong_key()
        else:
            settle(found, given.strip())
    else:
        phone_circle()
    if current() is not None or request.endpoint in OPEN_DOORS:
        return None
    if request.endpoint is None or set(NAMED) & set(request.view_args or {}):
        return answer(404, outside_said())
    if request.path.startswith("/api/"):
        return answer(401, outside_said())
    # A page asked from outside every circle shows how to get into one.
    return render_template("circles/welcome.html", outside=outside_said()), 401


def settle(found: Circle, key: str) -> None:
    """Let this request's connection see the circle's rows, and no other's."""
    g.circle, g.circle_key, g.circle_id = found, key, found.id
    storage.enter_circle(get_db(), found.id)


def phone_circle() -> None:
    """Enter the circle this phone used last, forgetting keys changed since it joined."""
    keys = session.get("circles") or []
    if not keys:
        return
    opened = circles.joined(get_db(), keys)
    if len(opened) != len(keys):
        session["circles"] = [key for key in keys if key in opened]
        g.circle_dropped = True
    if opened:
        key = session["circles"][-1]
        settle(opened[key], key)


def remember(key: str) -> None:
    """Put a circle's key in this phone's session, as the circle it uses from now on."""
    keys = [kept for kept in session.get("circles") or [] if kept != key]
    session["circles"] = [*keys, key][-KEPT_CIRCLES:]


def forget(key: str) -> None:
    """Take a circle's key out of this phone's session."""
    session["circles"] = [kept for kept in session.get("circles") or [] if kept != key]


def phone_circles() -> dict[str, Circle]:
    """Return the circles this phone joined, by key, the one in use last."""
    return circles.joined(get_db(), session.get("circles") or [])


def watch_code(match_id: int) -> str:
    """Return the code a match's live link carries on a server of many: made from the
    server's secret, so only the match's own page can give it."""
    secret = current_app.config["SECRET_KEY"].encode()
    made = hmac.new(secret, f"watch {match_id}".encode(), hashlib.sha256).digest()
    return urlsafe_b64encode(made[:16]).decode().rstrip("=")


def watch_args(match_id: int) -> dict[str, str]:
    """Return what a match's live link adds to its address: its code, on a server of many."""
    return {"watch": watch_code(match_id)} if many() else {}


def watched() -> bool:
    """Say whether the request holds this match's live link, and let it read that match."""
    match_id = (request.view_args or {}).get("match_id")
    given = request.args.get("watch", "")
    if not isinstance(match_id, int) or not hmac.compare_digest(given, watch_code(match_id)):
        return False
    db = get_db()
    g.circle_id = storage.circle_of_match(db, match_id)
    storage.enter_circle(db, g.circle_id)
    return True


def tries_key() -> str:
    """Name the count of wrong circle keys this phone sent."""
    return f"circle-key/{get_remote_address()}"


def key_limit() -> tuple[int, int]:
    """Return how many wrong keys one address may send, and in how many seconds."""
    limit = parse_limit(current_app.config["CIRCLE_KEY_LIMIT"])
    return limit.amount, limit.get_expiry()


def too_many_wrong_keys() -> bool:
    """Say whether this phone sent as many wrong keys as its window allows."""
    amount, _seconds = key_limit()
    return storage.tries_of(current_app.config["DATABASE"], tries_key()) >= amount


def count_wrong_key() -> None:
    """Count one more wrong key from this phone."""
    _amount, seconds = key_limit()
    storage.count_try(current_app.config["DATABASE"], tries_key(), seconds)


def wrong_keys_said() -> str:
    """Say why a phone must wait before sending another circle key."""
    return _(
        "Too many wrong circle keys from this phone: wait a minute, then open the circle's "
        "invite link again or ask for a new one."
    )


def outside_said() -> str:
    """Say how to get into a circle, in the door's own way."""
    if request.path.startswith("/api/"):
        return _(
            "This Tablescore keeps each group's matches in a private circle: send its key in "
            "the X-Tablescore-Circle header, or start a circle with POST /api/circles."
        )
    return _(
        "This Tablescore keeps each group's matches in a private circle: open your circle's "
        "invite link on this phone, or start a circle on the home page."
    )
