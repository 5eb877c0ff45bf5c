"""The result pictures to share: a finished match's sheet and an event's standings, as SVG
and PNG, in the reader's language and direction."""

from __future__ import annotations

from flask import Blueprint, Response
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from scorebook import events, matches
from scorers.base import FINISHED
from scorers.words import RIGHT_TO_LEFT, _

from .db import get_db
from .picture import Picture, of_match, of_standings, png, svg

bp = Blueprint("share", __name__)


def right_to_left() -> bool:
    """Say whether the reader's language is written right to left."""
    return str(get_locale() or "en") in RIGHT_TO_LEFT


def sent(picture: Picture, kind: str, name: str) -> Response:
    """Answer a picture as SVG or PNG, named for a download."""
    body, mimetype = (
        (svg(picture), "image/svg+xml") if kind == "svg" else (png(picture), "image/png")
    )
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'inline; filename="{name}.{kind}"'
    response.cache_control.no_cache = True
    return response


@bp.get("/matches/<int:match_id>/picture.<any(svg, png):kind>")
def match_picture(match_id: int, kind: str) -> ResponseReturnValue:
    """A finished match's result as a picture; a match still playing has none yet (409)."""
    played = matches.load(get_db(), match_id)
    if played.replay.status != FINISHED:
        raise matches.Conflict(
            _("This match is not over yet: its picture comes with its last {round}.").format(
                round=played.scorer.round_word
            )
        )
    return sent(of_match(played, right_to_left()), kind, f"tablescore-match-{match_id}")


@bp.get("/events/<int:event_id>/standings.<any(svg, png):kind>")
def standings_picture(event_id: int, kind: str) -> ResponseReturnValue:
    """An event's standings as a picture."""
    shown = events.load(get_db(), event_id)
    return sent(of_standings(shown, right_to_left()), kind, f"tablescore-event-{event_id}")
