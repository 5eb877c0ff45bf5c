"""The phone alone: the page that scores a match with no server in reach, and the Python it
runs there (the scorers, the phone's package, the templates and the language's words, zipped).

A phone gets ready once (static/app.js): it keeps every file `ready.json` lists, the Pyodide
runtime (web/runtime.py) included, and from then on starts, scores and explains matches
offline with the server's own rules (phone/, docs/DEVELOPING.md).
"""

from __future__ import annotations

import functools
import hashlib
import io
import zipfile
from pathlib import Path

import jinja2
import markupsafe
import wtforms
from flask import Blueprint, Response, abort, render_template, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from scorers import GAMES

from . import runtime
from .language import LANGUAGES
from .pages import entries

bp = Blueprint("alone", __name__)

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = (jinja2, markupsafe, wtforms)
"""The pure-Python libraries the phone's forms and templates need beside the standard library."""
TEMPLATES = (
    "_form.html",
    "_round_form.html",
    "_oddities.html",
    "_score_bar.html",
    "_sheet.html",
    "_round_why.html",
    "_round_note.html",
    "_removed.html",
    "_rules_list.html",
    "_why_steps.html",
    "gaigel/_board.html",
)
"""The server's templates the phone's pages include, beside its own (templates/phone/) and
each game's round form and sheet."""


NOT_INSTALLED = (
    "This Tablescore cannot make phones score alone: the phone's Python is not installed "
    "on it (python -m web.runtime)."
)


def sources() -> list[tuple[str, Path]]:
    """List what the phone's Python is made of: each file and where it goes in the zip."""
    found = [
        (f"{top}/{path.relative_to(ROOT / top)}", path)
        for top in ("phone", "scorers")
        for path in sorted((ROOT / top).rglob("*.py"))
    ]
    for library in LIBRARIES:
        folder = Path(library.__file__).parent
        found += [
            (f"{folder.name}/{path.relative_to(folder)}", path)
            for path in sorted(folder.rglob("*.py"))
        ]
    games = [f"{game}/{page}" for game in GAMES for page in ("round_form.html", "sheet.html")]
    own = [f"phone/{path.name}" for path in sorted((ROOT / "templates" / "phone").glob("*.html"))]
    names = [*TEMPLATES, *own, *games]
    found += [
        (f"templates/{name}", ROOT / "templates" / name)
        for name in names
        if (ROOT / "templates" / name).exists()
    ]
    return found


def catalog(language: str) -> list[tuple[str, Path]]:
    """Name a language's compiled words, where it has them (English is the text itself)."""
    name = f"translations/{language}/LC_MESSAGES/messages.mo"
    return [(name, ROOT / name)] if (ROOT / name).exists() else []


@functools.cache
def bundle(language: str) -> tuple[str, bytes]:
    """Zip the phone's Python for one language once: its digest and its bytes."""
    files = [*sources(), *catalog(language)]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in files:
            # A fixed time: the same files make the same zip, and the same digest.
            archive.writestr(
                zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0)),
                path.read_bytes(),
                zipfile.ZIP_DEFLATED,
            )
    body = buffer.getvalue()
    return hashlib.sha256(body).hexdigest()[:12], body


def language() -> str:
    """Name this request's language, as the pages choose it."""
    return str(get_locale() or "en")


@bp.app_template_global()
def alone_offered() -> bool:
    """Say whether this Tablescore can make a phone ready to score alone."""
    return runtime.installed()


@bp.get("/alone")
def page() -> ResponseReturnValue:
    """Show the matches kept on this phone, and the one being scored, drawn by the phone."""
    if not runtime.installed():
        abort(404, NOT_INSTALLED)
    return render_template("alone.html", bundle=bundle_url(language()), runtime=runtime_url())


def bundle_url(language: str) -> str:
    """Name the phone's Python for a language after its content: kept a year, never stale."""
    digest, _body = bundle(language)
    return url_for(".python", language=language, digest=digest)


def runtime_url() -> str:
    """Return where the Pyodide runtime's files are served from (its index URL)."""
    return url_for("runtime.served", name="x")[: -len("x")]


@bp.get("/alone/python-<language>-<digest>.zip")
def python(language: str, digest: str) -> ResponseReturnValue:
    """Serve the phone's Python for a language; a digest of another release is not here."""
    if language not in LANGUAGES:
        abort(404)
    found, body = bundle(language)
    if digest != found:
        abort(404)
    response = Response(body, mimetype="application/zip")
    response.cache_control.public = True
    response.cache_control.max_age = 365 * 24 * 3600
    response.cache_control.immutable = True
    # The same bytes whatever the phone's cookie: the address names the language.
    session.accessed = False
    return response


@bp.get("/alone/ready.json")
def ready() -> ResponseReturnValue:
    """List what a phone keeps to score alone, and how much it weighs to fetch once."""
    if not runtime.installed():
        abort(404, NOT_INSTALLED)
    files = [url_for(".page"), bundle_url(language())]
    files += [runtime_url() + name for name in runtime.FILES]
    pages = [url_for("pages.home")] + [
        url_for("pages.new_match", game=entry.scorer.id, **entry.preset) for entry in entries()
    ]
    fetched = (runtime.served_dir() / f"{name}.gz" for name in runtime.FILES)
    size = len(bundle(language())[1]) + sum(path.stat().st_size for path in fetched)
    return {"version": runtime.VERSION, "files": files, "pages": pages, "bytes": size}
