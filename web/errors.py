"""Answer every refusal and error as JSON for the API and as a page for people."""

from __future__ import annotations

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


def answer(status: int, message: str, fields: dict | None = None) -> ResponseReturnValue:
    """Answer in the door's own language: JSON under /api, a page elsewhere."""
    if request.blueprint == "api" or request.path.startswith("/api/"):
        return jsonify(error=message, fields=fields or {}), status
    return render_template("error.html", status=status, message=message), status


def register(app: Flask) -> None:
    """Install the handlers that turn exceptions into answers, and the check of JSON bodies."""
    # Before any view reads a body: those that parse it themselves are covered too.
    app.before_request(check_body)

    @app.errorhandler(Refusal)
    def refused(refusal: Refusal) -> ResponseReturnValue:
        return answer(422, refusal.message, refusal.fields)

    @app.errorhandler(NotFound)
    def not_found(error: NotFound) -> ResponseReturnValue:
        return answer(404, str(error))

    @app.errorhandler(Forbidden)
    def forbidden(error: Forbidden) -> ResponseReturnValue:
        return answer(403, str(error))

    @app.errorhandler(Conflict)
    def conflict(error: Conflict) -> ResponseReturnValue:
        return answer(409, str(error))

    @app.errorhandler(Interrupted)
    def interrupted(_error: Interrupted) -> ResponseReturnValue:
        return answer(
            503,
            _(
                "The import stopped before it finished: nothing was imported. Try again; if "
                "it stops again, the file may be too large for this server."
            ),
        )

    @app.errorhandler(Stale)
    def stale(error: Stale) -> ResponseReturnValue:
        return answer(412, str(error))

    @app.errorhandler(CSRFError)
    def form_expired(_error: CSRFError) -> ResponseReturnValue:
        return answer(
            400,
            _(
                "This form has expired or did not come from Tablescore: "
                "reload the page and send it again."
            ),
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        response = make_response(answer(error.code or 500, error.description or error.name))
        # The error's own headers say what to do next: a 405's Allow lists the methods.
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response
