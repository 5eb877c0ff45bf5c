"""Answer every refusal and error as JSON for the API and as a page for people."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorebook.access import Forbidden
from scorebook.matches import Conflict, NotFound, Stale
from scorebook.transfer import Interrupted
from scorers import Refusal

from .json_body import check_body

ErrorHandler = Callable[[Exception], ResponseReturnValue]
"""What Flask calls with an error raised in a view, to answer it."""


def answer(status: int, message: str, fields: dict | None = None) -> ResponseReturnValue:
    """Answer in the door's own language: JSON under /api, a page elsewhere."""
    if request.blueprint == "api" or request.path.startswith("/api/"):
        return jsonify(error=message, fields=fields or {}), status
    return render_template("error.html", status=status, message=message), status


STATUSES: dict[type[Exception], int] = {NotFound: 404, Forbidden: 403, Conflict: 409, Stale: 412}
"""The use-cases' refusals, each answered under its own status with its own message."""


def answering(status: int, message: Callable[[], str] | None = None) -> ErrorHandler:
    """Answer an error under `status`, saying the error's own message, or `message()` (in
    the reader's language) for an error that has none a person could act on."""

    def answer_error(error: Exception) -> ResponseReturnValue:
        return answer(status, message() if message else str(error))

    return answer_error


def import_stopped() -> str:
    """Say that a stopped import changed nothing, and what to try."""
    return _(
        "The import stopped before it finished: nothing was imported. Try again; if "
        "it stops again, the file may be too large for this server."
    )


def form_expired() -> str:
    """Say that a form is too old or not Tablescore's own (its CSRF token failed)."""
    return _(
        "This form has expired or did not come from Tablescore: reload the page and send it again."
    )


def register(app: Flask) -> None:
    """Install the handlers that turn exceptions into answers, and the check of JSON bodies."""
    # Before any view reads a body: those that parse it themselves are covered too.
    app.before_request(check_body)

    @app.errorhandler(Refusal)
    def refused(refusal: Refusal) -> ResponseReturnValue:
        return answer(422, refusal.message, refusal.fields)

    for error, status in STATUSES.items():
        app.register_error_handler(error, answering(status))
    app.register_error_handler(Interrupted, answering(503, import_stopped))
    app.register_error_handler(CSRFError, answering(400, form_expired))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        response = make_response(answer(error.code or 500, error.description or error.name))
        # The error's own headers say what to do next: a 405's Allow lists the methods.
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response
