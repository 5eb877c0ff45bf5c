"""The live view: a read-only page for the other players that follows the match as it is scored."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import segno
from flask import Blueprint, Response, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from scorebook import matches

from .conditional import match_tag, tagged, unchanged
from .db import get_db
from .pages import amendments

bp = Blueprint("live", __name__)


@bp.app_template_global()
@lru_cache(maxsize=256)
def qr_code(link: str) -> Markup:
    """Draw a link as an inline SVG QR code, once: the match page shows it at every round."""
    code = segno.make(link, micro=False)
    # A viewBox instead of a fixed size: the stylesheet sizes it to the phone.
    drawn = code.svg_inline(scale=4, dark="#1d1d1b", light="#ffffff", omitsize=True)
    return Markup(drawn)


def sheet_of(match_id: int, current: str) -> dict[str, Any]:
    """Return what the live sheet shows: the banner, the totals and the latest rounds."""
    match = matches.load(get_db(), match_id)
    return {
        "match": match,
        "rows": match.scored_rounds()[-match.scorer.recent :],
        "version": current,
        # Read-only, even on the scoring phone: this page is for showing the table.
        "can_score": False,
        **amendments(match),
    }


@bp.get("/matches/<int:match_id>/live")
def live(match_id: int) -> ResponseReturnValue:
    """Show the match to the table; the page asks for the new sheet every few seconds."""
    current, _tag = match_tag(match_id)
    return render_template("live.html", **sheet_of(match_id, current))


@bp.get("/matches/<int:match_id>/live/sheet")
def sheet(match_id: int) -> ResponseReturnValue:
    """Answer the live page: nothing (204) if the match is as it last saw it, else the sheet."""
    current, tag = match_tag(match_id)
    if request.args.get("since") == current:
        response = Response(status=204)
        response.cache_control.no_store = True
        return response
    return unchanged(tag) or tagged(
        render_template("_live_sheet.html", **sheet_of(match_id, current)), tag
    )
