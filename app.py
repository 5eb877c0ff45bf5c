"""Build Tablescore: `flask --app app run`, or `waitress-serve --call app:create_app`."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from scorebook import storage
from scorers.base import FINISHED
from web import (
    alone,
    api,
    assets,
    checking,
    circle_pages,
    circles,
    errors,
    event_pages,
    events_api,
    language,
    live,
    numerals,
    pages,
    patterns,
    player_pages,
    pwa,
    rating_pages,
    runtime,
    share,
    sides,
    storage_faults,
    transfer_pages,
)
from web.db import close_db
from web.json_provider import OrjsonProvider
from web.limits import limiter

csrf = CSRFProtect()
compress = Compress()
PARTS = (
    pages,
    api,
    transfer_pages,
    player_pages,
    live,
    pwa,
    patterns,
    events_api,
    event_pages,
    rating_pages,
    share,
    circle_pages,
    sides,
    checking,
    runtime,
    alone,
)
"""The web modules whose blueprint (`bp`) holds pages or JSON doors, in the order registered."""


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app over its database (an SQLite file unless DATABASE is a postgresql:// URL),
    creating and migrating it on first use."""
    app = Flask(__name__, instance_relative_config=True)
    app.json = OrjsonProvider(app)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "tablescore.sqlite"),
        # A game night lasts hours: a form opened at the first deal must still post at the last.
        WTF_CSRF_TIME_LIMIT=24 * 3600,
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Wrong handoff codes one address may try (Flask-Limiter's notation): ten a minute
        # lets a table mistype, and makes guessing one of 32⁸ codes hopeless.
        JOIN_LIMIT="10 per minute",
        RATELIMIT_HEADERS_ENABLED=True,
        # Imports run in a process of their own, below the tables' requests (transfer.py).
        IMPORT_APART=True,
        # Megabytes of imports one address may send without a passcode, each import counting
        # one at least: a whole evening's history is one or two.
        IMPORT_ALLOWANCE="64 per hour",
        # Served behind one reverse proxy (deploy/Caddyfile): its X-Forwarded-For, -Proto and
        # -Host say the phone's address and the scheme and host it asked for. Without one,
        # anybody could write them, so they are never read.
        BEHIND_PROXY=False,
        # One circle for everyone who reaches the server (a laptop at the table), or many,
        # each private behind its key (a server on the internet).
        CIRCLES="one",
        # Circles one address may start, and wrong circle keys it may send.
        CIRCLE_LIMIT="10 per hour",
        CIRCLE_KEY_LIMIT="10 per minute",
        # Where the phone's Python is served from: `python -m web.runtime` installs it there.
        PYODIDE_DIR=str(runtime.runtime_dir(Path(app.root_path))),
    )
    app.config.from_prefixed_env("TABLESCORE")
    # from_prefixed_env reads JSON: a passcode of 0, false or null would switch it off, and
    # 1e3 would become 1000.0. A passcode is text, as typed.
    if "TABLESCORE_PASSCODE" in os.environ:
        app.config["PASSCODE"] = os.environ["TABLESCORE_PASSCODE"]
    # Nor may a typo trust forwarded headers: "no" or "off" would read as a true string.
    if "TABLESCORE_BEHIND_PROXY" in os.environ:
        said = os.environ["TABLESCORE_BEHIND_PROXY"].strip().lower()
        app.config["BEHIND_PROXY"] = said in {"1", "true", "yes", "on"}
    if config:
        app.config.from_mapping(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))
    storage.prepare(app.config["DATABASE"])
    if app.config["BEHIND_PROXY"]:
        # Exactly one hop, the proxy's own: whatever a phone wrote in these headers itself
        # stands further left, and is never read.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    app.session_interface = SessionCookies()
    csrf.init_app(app)
    limiter.init_app(app)
    csrf.exempt(api.bp)
    csrf.exempt(events_api.bp)
    for door in circle_pages.JSON_DOORS:
        csrf.exempt(door)
    for part in PARTS:
        app.register_blueprint(part.bp)
    # The templates tell a match over by the scorers' own word for it.
    app.jinja_env.globals["FINISHED"] = FINISHED
    assets.register(app)
    language.register(app)
    compress.init_app(app)
    # After Compress, so that it runs first: a page's numbers are written before it is packed.
    numerals.register(app)
    errors.register(app)
    circles.register(app)
    storage_faults.register(app)
    app.teardown_appcontext(close_db)
    app.after_request(secure_headers)
    return app


SECURITY_HEADERS = {
    # Everything is served by the app itself: no inline script or style, no other host. The
    # phone's own Python is WebAssembly, compiled in the browser (web/alone.py); no script is.
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
    "style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Over https, Flask-WTF takes a form only with a Referer from this site (WTF_CSRF_SSL_STRICT):
    # the phones send it to this site alone, and no other site ever learns a page's address
    # (a join link carries its code).
    "Referrer-Policy": "same-origin",
}


def secure_headers(response: Response) -> Response:
    """Send the security headers with every answer, pages and API alike."""
    response.headers.update(SECURITY_HEADERS)
    return response


class SessionCookies(SecureCookieSessionInterface):
    """Flask's signed session cookie, marked Secure whenever the phone asked over https."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """Say whether the cookie may travel only over https: set so, or asked so."""
        return super().get_cookie_secure(app) or request.is_secure


def instance_secret(instance: Path) -> str:
    """Return this installation's session secret, made once so sessions survive restarts."""
    path = instance / "secret_key"
    instance.mkdir(parents=True, exist_ok=True)
    # Made with O_EXCL: of several server processes starting at once, one writes it and every
    # one reads that one, or the phones' sessions would hold only on the process that made them.
    try:
        made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(made, "w") as secret:
            secret.write(secrets.token_hex(32))
    for _ in range(50):
        # Another process may have made it a moment ago and be writing it still.
        kept = path.read_text().strip()
        if kept:
            return kept
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty: delete it and start again.")
