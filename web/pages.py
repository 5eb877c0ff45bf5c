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
from .chart import chart
from .entered import entered

bp = Blueprint("pages", __name__)

RECENT = 5


@bp.app_context_processor
def games() -> dict[str, Any]:
    """Let every template name the games and draw a match's chart."""
    return {"games": GAMES, "chart": chart}


@bp.app_template_filter("entered")
def entered_filter(value: Any) -> str:
    """Say an entered round in one compact line."""
    return entered(value)


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


def show_match(played: matches.Match, form: Any, status: int = 200) -> ResponseReturnValue:
    """Render the match page: the sheet with its corrections, the chart, the round form."""
    log = matches.changes(get_db(), played.id)
    corrected: dict[int, list[dict[str, Any]]] = {}
    for change in log:
        if change["action"] == "correct":
            corrected.setdefault(change["round_id"], []).append(change)
    removed = [change for change in log if change["action"] == "remove"]
    page = render_template(
        "match.html", match=played, form=form, corrected=corrected, removed=removed
    )
    return page, status


@bp.get("/matches/<int:match_id>")
def match(match_id: int) -> ResponseReturnValue:
    """Show the score sheet and the form for the next round."""
    played = matches.load(get_db(), match_id)
    return show_match(played, played.scorer.round_form(played.table, state=played.replay.state))


@bp.get("/matches/<int:match_id>/rounds/<int:n>/why")
def why(match_id: int, n: int) -> ResponseReturnValue:
    """Walk through one round rule by rule, with the numbers the table entered."""
    played = matches.load(get_db(), match_id)
    stored = played.round(n)
    result = played.replay.rounds[n - 1]
    before = played.replay.rounds[n - 2].totals if n > 1 else dict.fromkeys(result.totals, 0)
    history = [c for c in matches.changes(get_db(), match_id) if c["round_id"] == stored.id]
    return render_template(
        "why.html", match=played, stored=stored, result=result, before=before, history=history
    )


@bp.get("/matches/<int:match_id>/rules")
def rules(match_id: int) -> ResponseReturnValue:
    """Show the rules this match is played under, each with the rounds it scored."""
    played = matches.load(get_db(), match_id)
    applied = [
        (
            rule,
            [
                stored.n
                for stored, result in played.played()
                if rule.applies and rule.applies(stored.input, result)
            ],
        )  # fmt: skip
        for rule in played.scorer.rules(played.table.options)
    ]
    return render_template("rules.html", match=played, applied=applied)


@bp.get("/matches/<int:match_id>/whatif")
def what_if(match_id: int) -> ResponseReturnValue:
    """Replay the match under other options, beside the real result; nothing is stored."""
    played = matches.load(get_db(), match_id)
    changed = {key: value for key, value in request.args.items() if value != ""}
    if not changed:
        return render_template("whatif.html", match=played, other=None, changed={})
    try:
        other = matches.what_if(played, changed).replay
    except Refusal as refusal:
        page = render_template(
            "whatif.html", match=played, other=None, changed=changed, refusal=refusal
        )
        return page, 422
    return render_template("whatif.html", match=played, other=other, changed=changed)


@bp.post("/matches/<int:match_id>/rounds")
def add_round(match_id: int) -> ResponseReturnValue:
    """Record the next round, or apply a card tap made without JavaScript."""
    played = matches.load(get_db(), match_id)
    form = played.scorer.round_form(played.table, request.form, state=played.replay.state)
    if form.follow_taps(request.form):
        return show_match(played, form)
    n = len(played.rounds) + 1
    recorded, status = submit(form, lambda data: matches.add_round(get_db(), match_id, data))
    if recorded:
        flash(f"{played.scorer.round_name} {n} recorded.")
        return redirect(url_for(".match", match_id=match_id, _anchor=f"round-{n}"))
    return show_match(played, form, status)


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
    """List every match, newest first, filtered by game, player, status and days."""
    keys = ("game", "player", "status", "from", "to")
    filters = {key: request.args.get(key, "").strip() for key in keys}
    page = matches.find(
        get_db(),
        game=filters["game"],
        player=filters["player"],
        status=filters["status"],
        since=filters["from"],
        until=filters["to"],
        page=request.args.get("page"),
    )
    return render_template("history.html", page=page, filters=filters)
