"""The language of each page: a picker remembered in the session, else the browser's choice."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Flask, redirect, request, session
from flask.typing import ResponseReturnValue
from flask_babel import Babel, get_locale

from scorers import words

LANGUAGES = {
    "en": "English",
    "fr": "Français",
    "de": "Deutsch",
    "es": "Español",
    "fa": "فارسی",
    "ar": "العربية",
    "el": "Ελληνικά",
    "kn": "ಕನ್ನಡ",
}
"""Every language the pages speak, by its code, in its own words."""

RIGHT_TO_LEFT = words.RIGHT_TO_LEFT

bp = Blueprint("language", __name__)
babel = Babel()


def chosen() -> str:
    """Return the language of this request: the one picked on this phone, else the best the
    browser asks for, else English. The JSON API always speaks English."""
    if request.path.startswith("/api/"):
        return "en"
    picked = session.get("language")
    if picked in LANGUAGES:
        return picked
    return request.accept_languages.best_match(LANGUAGES) or "en"


def register(app: Flask) -> None:
    """Choose each request's language for the templates (Flask-Babel) and the scorers."""
    babel.init_app(app, locale_selector=chosen)
    # Templates translate through the catalog chosen once per request: Flask-Babel's own
    # callables look the language up again for each of the hundred messages of a page.
    app.jinja_env.install_gettext_callables(
        words._, words.ngettext, newstyle=True, pgettext=words.pgettext, npgettext=words.npgettext
    )
    app.register_blueprint(bp)
    app.before_request(lambda: words.speak(chosen()))


@bp.app_context_processor
def languages() -> dict[str, object]:
    """Let every template name the page's language, its direction and the others."""
    language = str(get_locale() or "en")
    return {
        "language": language,
        "direction": "rtl" if language in RIGHT_TO_LEFT else "ltr",
        "languages": LANGUAGES,
    }


@bp.post("/language")
def pick() -> ResponseReturnValue:
    """Remember the language picked on this phone, and go back to the page it was picked on."""
    picked = request.form.get("language", "")
    if picked in LANGUAGES:
        session["language"] = picked
    back = request.form.get("next", "/")
    # Only a path on this site: a crafted form must not send the phone elsewhere.
    parts = urlsplit(back)
    if parts.scheme or parts.netloc or not back.startswith("/") or back.startswith("//"):
        back = "/"
    return redirect(back)
