"""Tablescore as an installed app: its manifest, a service worker, and the page shown offline."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from flask import Blueprint, Response, current_app, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _

from .assets import asset
from .language import RIGHT_TO_LEFT

bp = Blueprint("pwa", __name__)

BACKGROUND = "#f7f5ef"
"""The page colour of app.css's light theme: the splash screen of the installed app."""
THEME = {"light": "#1f6f4a", "dark": "#5cc08c"}
"""The colour of app.css's header bar in each theme, for the phone's status bar."""


@bp.app_context_processor
def theme_colors() -> dict[str, Any]:
    """Let the layout name the status-bar colour of each theme."""
    return {"theme_colors": THEME}


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    """Describe the app a phone installs: its name, start page, colours and icons."""
    home = url_for("pages.home")
    language = str(get_locale() or "en")
    described = {
        "id": home,
        "name": "Tablescore",
        "short_name": "Tablescore",
        "description": _("Score card games at the table: Rami, Belote, Barbu, Gaigel, Porrazo."),
        "lang": language,
        "dir": "rtl" if language in RIGHT_TO_LEFT else "ltr",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME["light"],
        "icons": [
            {"src": asset("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            *(
                {"src": asset(f"icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
                | {"purpose": purpose}
                for purpose in ("any", "maskable")
                for size in (192, 512)
            ),
        ],
    }
    response = Response(current_app.json.dumps(described), mimetype="application/manifest+json")
    response.cache_control.no_cache = True
    return response


def precached() -> list[str]:
    """Return what the service worker keeps from its install: every asset and the offline page."""
    return [
        *(
            url_for("assets.fingerprinted", name=asset.name)
            for asset in current_app.extensions["assets"].values()
        ),
        url_for(".offline"),
    ]


def match_path() -> str:
    """Return a pattern for the path of a match's page, wherever the app is served from."""
    return re.escape(url_for("pages.home")) + r"matches/\d+"


def kept_pages() -> str:
    """Match the pages kept for reading offline: a match, its sheet and its live view."""
    return rf"^{match_path()}(/sheet|/live)?$"


def queued_forms() -> str:
    """Match the forms kept in the outbox offline (a new round, a correction), capturing the
    page of their match."""
    return rf"^({match_path()})/rounds(/\d+/edit)?$"


def cache_name(urls: list[str]) -> str:
    """Name the worker's cache after what it holds: a release with other assets starts anew."""
    offline, _name, _uptodate = current_app.jinja_env.loader.get_source(
        current_app.jinja_env, "offline.html"
    )
    digest = hashlib.sha256("\n".join([*urls, offline]).encode()).hexdigest()[:10]
    return f"tablescore-{digest}"


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    """Serve the service worker from the root, so that it may answer for every page."""
    urls = precached()
    script = render_template(
        "sw.js",
        cache=cache_name(urls),
        urls=urls,
        offline=url_for(".offline"),
        assets=url_for("assets.fingerprinted", name=""),
        kept_pages=kept_pages(),
        queued_forms=queued_forms(),
        new_match=rf"^{re.escape(url_for('pages.home'))}matches/new/(\w+)$",
        alone_page=url_for("alone.page"),
        alone_files=rf"^{re.escape(url_for('alone.page'))}/(pyodide-|python-)",
        outbox=asset("outbox.js"),
        phone_store=asset("phone_store.js"),
    )
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True
    response.headers["Service-Worker-Allowed"] = url_for("pages.home")
    return response


@bp.get("/offline")
def offline() -> ResponseReturnValue:
    """Say what still works without a connection; the service worker shows it then."""
    return render_template("offline.html")
