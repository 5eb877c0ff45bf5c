"""Static files under fingerprinted names: a phone keeps each for a year and never a stale one."""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, send_from_directory, url_for
from flask.typing import ResponseReturnValue

bp = Blueprint("assets", __name__)

YEAR = 365 * 24 * 3600


def fingerprint(folder: Path) -> dict[str, str]:
    """Name every file of the folder after its content: app.css → app.3f2a1b9c0d.css."""
    named = {}
    for path in sorted(folder.iterdir()):
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
            named[path.name] = f"{path.stem}.{digest}{path.suffix}"
    return named


def register(app: Flask) -> None:
    """Fingerprint the app's static files once, when it starts, and serve them."""
    app.extensions["assets"] = fingerprint(Path(app.static_folder))
    app.register_blueprint(bp)


@bp.app_template_global()
def asset(name: str) -> str:
    """Return the URL of a static file under its fingerprinted name."""
    return url_for("assets.fingerprinted", name=current_app.extensions["assets"][name])


@bp.get("/assets/<name>")
def fingerprinted(name: str) -> ResponseReturnValue:
    """Serve a static file by its fingerprinted name, to be cached for a year unchanged."""
    originals = {named: original for original, named in current_app.extensions["assets"].items()}
    if name not in originals:
        abort(404, "No such file: a page from an older version may name it.")
    response = send_from_directory(current_app.static_folder, originals[name], max_age=YEAR)
    response.cache_control.public = True
    response.cache_control.immutable = True
    return response
