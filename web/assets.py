"""Static files under fingerprinted names: a phone keeps each for a year and never a stale one."""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, url_for
from flask.typing import ResponseReturnValue

bp = Blueprint("assets", __name__)

YEAR = 365 * 24 * 3600


@dataclass(frozen=True)
class Asset:
    """One static file as the app serves it: read once, when the app starts."""

    name: str
    """The fingerprinted name it is served under: app.3f2a1b9c0d.css."""
    body: bytes
    mimetype: str


def fingerprint(folder: Path) -> dict[str, Asset]:
    """Read every file of the folder, named after its content: app.css → app.3f2a1b9c0d.css."""
    assets = {}
    for path in sorted(folder.iterdir()):
        if path.is_file():
            body = path.read_bytes()
            digest = hashlib.sha256(body).hexdigest()[:10]
            mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            assets[path.name] = Asset(f"{path.stem}.{digest}{path.suffix}", body, mimetype)
    return assets


def register(app: Flask) -> None:
    """Fingerprint the app's static files once, when it starts, and serve them."""
    assets = fingerprint(Path(app.static_folder))
    app.extensions["assets"] = assets
    app.extensions["assets_by_name"] = {asset.name: asset for asset in assets.values()}
    app.register_blueprint(bp)


@bp.app_template_global()
def asset(name: str) -> str:
    """Return the URL of a static file under its fingerprinted name."""
    return url_for("assets.fingerprinted", name=current_app.extensions["assets"][name].name)


@bp.get("/assets/<name>")
def fingerprinted(name: str) -> ResponseReturnValue:
    """Serve a static file by its fingerprinted name, to be cached for a year unchanged.

    The body comes from memory, not a file left open for the compression to stream.
    """
    found = current_app.extensions["assets_by_name"].get(name)
    if found is None:
        abort(404, "No such file: a page from an older version may name it.")
    response = current_app.response_class(found.body, mimetype=found.mimetype)
    response.cache_control.max_age = YEAR
    response.cache_control.public = True
    response.cache_control.immutable = True
    return response
