"""The phone pages: start a match, score it round by round, correct it, look back at history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

import matches
from scorers import GAMES, Refusal
from scorers.forms import RefusalOnFields, match_form

from . import get_db

bp = Blueprint("pages", __name__)

RECENT = 5


@bp.app_context_processor
def games() -> dict[str, Any]:
    """Let every template name the games."""
    return {"games": GAMES}


def submit(form: RefusalOnFields, change: Callable[[dict[str, Any]], Any]) -> tuple[Any, int]:
    """Apply a change from a valid form: its result and 200, or None and the failing status."""
    if not form.validate():
        return None, 422
    try:
        return change(form.to_input()), 200
    except Refusal as refusal:
        form.show_refusal(refusal)
        return None, 422
    except matches.Conflict as conflict:
        form.form_errors = [*form.form_errors, str(conflict)]
        return None, 409


@bp.get("/")
def home() -> ResponseReturnValue:
    """Offer the games to start and the latest matches to go back to."""
    recent = matches.find(get_db()).rows[:RECENT]
    return render_template("home.html", recent=recent)


@bp.route("/matches/new/<game>", methods=["GET", "POST"])
def new_match(game: str) -> ResponseReturnValue:
    """Name the players and choose the options, then start the match."""
    scorer = GAMES.get(game) or abort(404, f"Tablescore does not score {game!r}.")
    layout = request.args.get("layout")
    form = match_form(scorer, request.form if request.method == "POST" else None, layout)
    if request.method == "GET":
        return render_template("new_match.html", form=form, scorer=scorer)
    started, status = submit(form, lambda data: matches.start(get_db(), data))
    if started:
        return redirect(url_for(".match", match_id=started.id))
    return render_template("new_match.html", form=form, scorer=scorer), status


@bp.get("/matches/<int:match_id>")
def match(match_id: int) -> ResponseReturnValue:
    """Show the score sheet and the form for the next round."""
    played = matches.load(get_db(), match_id)
    form = played.scorer.round_form(played.table, state=played.replay.state)
    return render_template("match.html", match=played, form=form)


@bp.post("/matches/<int:match_id>/rounds")
def add_round(match_id: int) -> ResponseReturnValue:
    """Record the next round, or apply a card tap made without JavaScript."""
    played = matches.load(get_db(), match_id)
    form = played.scorer.round_form(played.table, request.form, state=played.replay.state)
    if form.follow_taps(request.form):
        return render_template("match.html", match=played, form=form)
    n = len(played.rounds) + 1
    recorded, status = submit(form, lambda data: matches.add_round(get_db(), match_id, data))
    if recorded:
        flash(f"{played.scorer.round_name} {n} recorded.")
        return redirect(url_for(".match", match_id=match_id, _anchor=f"round-{n}"))
    return render_template("match.html", match=played, form=form), status


@bp.route("/matches/<int:match_id>/rounds/<int:n>/edit", methods=["GET", "POST"])
def edit_round(match_id: int, n: int) -> ResponseReturnValue:
    """Correct a past round; every later round is scored again."""
    played = matches.load(get_db(), match_id)
    stored = played.round(n)
    state = played.state_before(n)
    if request.method == "GET":
        form = played.scorer.round_form(played.table, entered=stored.input, state=state)
        return render_template("edit_round.html", match=played, n=n, form=form)
    form = played.scorer.round_form(played.table, request.form, state=state)
    if form.follow_taps(request.form):
        return render_template("edit_round.html", match=played, n=n, form=form)
    corrected, status = submit(
        form, lambda data: matches.correct_round(get_db(), match_id, n, data)
    )
    if corrected:
        flash(f"{played.scorer.round_name} {n} corrected; everything after it was scored again.")
        return redirect(url_for(".match", match_id=match_id, _anchor=f"round-{n}"))
    return render_template("edit_round.html", match=played, n=n, form=form), status


@bp.post("/matches/<int:match_id>/rounds/<int:n>/remove")
def remove_round(match_id: int, n: int) -> ResponseReturnValue:
    """Remove a round; the change log keeps it."""
    played = matches.remove_round(get_db(), match_id, n)
    flash(f"{played.scorer.round_name} {n} removed; everything after it was scored again.")
    return redirect(url_for(".match", match_id=match_id))


@bp.get("/history")
def history() -> ResponseReturnValue:
    """List every match, newest first, filtered by game, player and status."""
    filters = {key: request.args.get(key, "").strip() for key in ("game", "player", "status")}
    page = matches.find(get_db(), **filters, page=request.args.get("page"))
    return render_template("history.html", page=page, filters=filters)
