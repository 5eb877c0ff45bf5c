"""The phone pages: start a match, score it round by round, correct it, look back at history."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from phone import marks
from scorebook import access, confirming, matches, storage
from scorers import GAMES, Refusal, Scorer, round_form_of
from scorers.forms import RefusalOnFields, match_form

from . import sides
from .chart import chart
from .circles import current, many, phone_circles
from .db import get_db
from .limits import joining
from .passcode import check_passcode, phone_for

bp = Blueprint("pages", __name__)

RECENT = 5
KNOWN_NAMES = 60
"""How many known players the new-match form suggests, those who played most first."""


@bp.after_request
def no_store(response: Response) -> Response:
    """Keep pages out of the browser's cache: Back must not bring back a form already sent."""
    if response.mimetype == "text/html":
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_context_processor
def games() -> dict[str, Any]:
    """Let every template name the games and draw a match's chart."""
    return {"games": GAMES, "chart": chart}


@bp.app_template_global()
def new_key() -> str:
    """Make the one-time key a round form carries, so a double tap records the round once."""
    return uuid.uuid4().hex


for name, mark in (
    ("suits", marks.suits),
    ("rank", marks.rank),
    ("isolated", marks.isolated),
    ("signed", marks.signed),
    ("number", marks.number),
):
    bp.add_app_template_filter(mark, name)


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


@dataclass(frozen=True)
class Entry:
    """One game the home page offers to start: Coinche is Belote with its own variant."""

    name: str
    scorer: Scorer
    preset: dict[str, str]


def entries() -> list[Entry]:
    """List what a table can start: each game, and the variants it offers on the home page."""
    return [
        Entry(name, scorer, preset)
        for scorer in GAMES.values()
        for name, preset in scorer.home_entries()
    ]


@bp.get("/")
def home() -> ResponseReturnValue:
    """Offer the games to start and the latest matches to go back to; on a server of many
    circles, to a phone in none, what Tablescore is and how to start or join one."""
    if many() and current() is None:
        return render_template("circles/welcome.html")
    recent = matches.find(get_db()).rows[:RECENT]
    joined = phone_circles() if many() else {}
    return render_template("home.html", recent=recent, entries=entries(), joined=joined)


@bp.route("/matches/new/<game>", methods=["GET", "POST"])
def new_match(game: str) -> ResponseReturnValue:
    """Name the players and choose the options, then start the match."""
    scorer = GAMES.get(game)
    if scorer is None:
        abort(404, _("Tablescore does not score %(game)s.", game=repr(game)))
    layout = request.args.get("layout")
    form = match_form(scorer, request.form if request.method == "POST" else None, layout)
    if request.method == "GET":
        form.preset_choices(request.args)
    known = known_names()
    if request.method == "GET":
        return render_template("new_match.html", form=form, scorer=scorer, known=known)
    try:
        check_passcode(request.form.get("passcode"))
    except access.Forbidden as refused:
        form.form_errors = [str(refused)]
        return render_template("new_match.html", form=form, scorer=scorer, known=known), 403
    key = request.form.get("idempotency_key") or None
    started, status = submit(form, lambda data: matches.start(get_db(), data, key=key))
    if started:
        keep_token(started.id, started.scorer_token)
        return redirect(url_for(".match", match_id=started.id))
    return render_template("new_match.html", form=form, scorer=scorer, known=known), status


def known_names() -> list[str]:
    """Name the players this Tablescore knows, those who played most first, for suggestions."""
    played = sorted(storage.list_players(get_db()), key=lambda row: (-row["matches"], row["name"]))
    return [row["name"] for row in played[:KNOWN_NAMES]]


KEPT_TOKENS = 30
"""How many matches' scorer tokens a browser's session keeps, the newest kept: 30 of them make
a cookie of about 1.4 KB, and a browser drops a cookie past 4 KB."""


def keep_token(match_id: int, token: str | None) -> None:
    """Keep a match's scorer token in this browser's session: this phone may score it.

    Only the KEPT_TOKENS kept last stay; the session's JSON sorts its keys, so the order they
    were kept in is kept beside them (a session from before that order counts as older).
    """
    tokens = dict(session.get("scorer_tokens", {}))
    ordered = [key for key in session.get("scorer_order", []) if key in tokens]
    older = [key for key in tokens if key not in ordered]
    tokens[str(match_id)] = token
    kept = [key for key in older + ordered if key != str(match_id)] + [str(match_id)]
    kept = kept[-KEPT_TOKENS:]
    session["scorer_tokens"] = {key: tokens[key] for key in kept}
    session["scorer_order"] = kept


def session_token(match_id: int) -> str | None:
    """Return the scorer token this browser keeps for a match, if any: its own, or the
    organiser's of the match's event."""
    token = session.get("scorer_tokens", {}).get(str(match_id))
    if token is None and session.get("event_tokens") and 0 < match_id <= matches.LARGEST_ID:
        event_id = storage.event_of_match(get_db(), match_id)
        token = session["event_tokens"].get(str(event_id))
    return token


def phone(match_id: int) -> str:
    """Return the label of this browser's phone if it may score the match, or refuse (403)."""
    return phone_for(match_id, session_token(match_id))


def may_score(match_id: int) -> bool:
    """Say whether this browser holds a token that opens the match."""
    return access.may_score(get_db(), match_id, session_token(match_id))


def amendments(match: matches.Match) -> dict[str, Any]:
    """Return a match's corrections by round id and its removed rounds, for its sheet."""
    corrected: dict[int, list[dict[str, Any]]] = {}
    for change in storage.amendments(get_db(), match.id):
        if change["action"] == "correct":
            corrected.setdefault(change["round_id"], []).append(change)
    return {"corrected": corrected, "removed": match.removed}


def show_match(
    match: matches.Match, form: Any, status: int = 200, **notice: Any
) -> ResponseReturnValue:
    """Render the match page: the score bar, the form, the latest rounds, the chart."""
    side = sides.side_of_phone(match.id) if match.confirmations else None
    page = render_template(
        "match.html",
        match=match,
        rows=match.scored_rounds()[-match.scorer.recent :],
        form=form,
        can_score=may_score(match.id),
        confirming_side=side,
        to_answer=sides.rounds_to_answer(match, side) if side else [],
        contest_asked=read_int(request.args.get("contest")),
        guard={"expected": len(match.rounds) + 1},
        **notice,
        **amendments(match),
    )
    return page, status


@bp.get("/matches/<int:match_id>")
def match(match_id: int) -> ResponseReturnValue:
    """Show the score bar, the form for the next round and the latest rounds.

    The latest round is offered to undo, until the next one is recorded: just after it is
    recorded (`?recorded=<round id>`) and whenever the match is opened again, from the
    history or a bookmark. After an undo, the form holds the round taken back
    (`?undone=<round id>`) so a slip is fixed without typing it all again.
    """
    match = matches.load(get_db(), match_id)
    undone = taken_back(match, request.args.get("undone"))
    # Just after an undo, the page offers to restore what was taken back instead.
    recorded = None if undone else latest(match, request.args.get("recorded"))
    # A refused round redirected here (post/redirect/get) comes back as typed, with what was
    # refused, and a reload asks nothing.
    kept = kept_refusal(match, None, match.replay.state)
    if kept is not None:
        return show_match(match, kept)
    form = round_form_of(match.scorer)(
        match.table, entered=undone.input if undone else None, state=match.replay.state
    )
    return show_match(match, form, recorded=recorded, undone=undone)


def keep_refusal(match_id: int, form: Any, n: int | None = None) -> None:
    """Keep a refused round (a new one, or a correction of round n) as typed, with what was
    refused, for the page redirected to."""
    typed = [(name, value) for name, value in request.form.items(multi=True)]
    session["refused_round"] = {
        "match": match_id,
        "round": n,
        "form": [(name, value) for name, value in typed if name != "csrf_token"],
        "fields": {field.name: list(field.errors) for field in leaves(form) if field.errors},
        "form_errors": list(form.form_errors),
        "refused": form.refused,
    }


def leaves(form: Any) -> Iterator[Any]:
    """Walk a form's fields down to those typed into: a hand of a list of hands, too."""
    for field in form:
        inner = getattr(field, "entries", None) or getattr(field, "form", None)
        if inner is None:
            yield field
        else:
            yield from leaves(inner)


def kept_refusal(match: matches.Match, n: int | None, state: Any) -> Any:
    """Take the refused round this browser kept for this page (the next round's, n None, or
    round n's correction): its form as typed, with what was refused; None if it kept none."""
    kept = session.pop("refused_round", None)
    if kept is None or (kept["match"], kept.get("round")) != (match.id, n):
        return None
    form = round_form_of(match.scorer)(match.table, MultiDict(kept["form"]), state=state)
    for field in leaves(form):
        if field.name in kept["fields"]:
            field.errors = kept["fields"][field.name]
    form.form_errors, form.refused = kept["form_errors"], kept["refused"]
    return form


def latest(match: matches.Match, round_id: str | None) -> matches.Round | None:
    """Return the match's latest round, the one an Undo may take back, unless another round
    is named: a page asked for after a round that is no longer the latest offers none."""
    last = match.rounds[-1] if match.rounds else None
    return last if last is not None and round_id in (None, str(last.id)) else None


def taken_back(match: matches.Match, round_id: str | None) -> matches.Round | None:
    """Return the removed round named, if it was the last one when it was taken out."""
    gone = next((r for r in match.removed if str(r.id) == round_id), None)
    return gone if gone is not None and gone.n == len(match.rounds) + 1 else None


@bp.get("/matches/<int:match_id>/sheet")
def sheet(match_id: int) -> ResponseReturnValue:
    """Show every round of the match, with the chart as a table."""
    match = matches.load(get_db(), match_id)
    return render_template(
        "sheet.html",
        match=match,
        rows=match.scored_rounds(),
        can_score=may_score(match.id),
        **amendments(match),
    )


@bp.get("/matches/<int:match_id>/rounds/<int:n>/why")
def why(match_id: int, n: int, **typed: Any) -> ResponseReturnValue:
    """Walk through one round rule by rule, with the numbers the table entered."""
    match = matches.load(get_db(), match_id)
    stored = match.round(n)
    result = match.replay.rounds[n - 1]
    before = match.replay.rounds[n - 2].totals if n > 1 else dict.fromkeys(result.totals, 0)
    history = [
        c
        for c in matches.read_changes(get_db(), match_id)
        if c["round_id"] == stored.id and c["action"] in ROUND_ACTIONS
    ]
    return render_template(
        "why.html",
        match=match,
        stored=stored,
        result=result,
        before=before,
        history=history,
        can_score=may_score(match_id),
        **typed,
    )


@bp.post("/matches/<int:match_id>/details")
def edit_details(match_id: int) -> ResponseReturnValue:
    """Change the match's note, place and day from its page."""
    device = phone(match_id)
    typed = {name: request.form.get(name, "") for name in storage.DETAILS}
    day_typed = typed["played_at"]
    sent: dict[str, Any] = {"note": typed["note"], "place": typed["place"]}
    if day_typed:
        sent["played_at"] = day_typed
    try:
        matches.edit_details(get_db(), match_id, sent, device)
    except Refusal as refusal:
        match = matches.load(get_db(), match_id)
        form = round_form_of(match.scorer)(match.table, state=match.replay.state)
        return show_match(match, form, 422, details_errors=refusal.message, typed_details=typed)
    flash(_("Saved."))
    return redirect(url_for(".match", match_id=match_id))


ROUND_ACTIONS = ("add", "correct", "remove", "restore")
"""The changes a round's history tells in words; a note speaks for itself."""


@bp.post("/matches/<int:match_id>/rounds/<int:n>/note")
def note_round(match_id: int, n: int) -> ResponseReturnValue:
    """Write a round's note from its Why? page, then show it there."""
    device = phone(match_id)
    typed = request.form.get("note", "")
    try:
        matches.note_round(get_db(), match_id, n, {"note": typed}, device)
    except Refusal as refusal:
        return why(match_id, n, typed=typed, note_error=refusal.message), 422
    flash(_("Note saved."))
    return redirect(url_for(".why", match_id=match_id, n=n))


@bp.get("/matches/<int:match_id>/rules")
def rules(match_id: int) -> ResponseReturnValue:
    """Show the rules this match is played under, each with the rounds it scored."""
    match = matches.load(get_db(), match_id)
    scored = [(stored.input, result) for stored, result in match.scored_rounds()]
    applied = match.scorer.rules_applied(match.table.options, scored)
    return render_template("rules.html", match=match, applied=applied)


@bp.get("/matches/<int:match_id>/whatif")
def what_if(match_id: int) -> ResponseReturnValue:
    """Replay the match under other options, beside the real result; nothing is stored."""
    match = matches.load(get_db(), match_id)
    changed = {key: value for key, value in request.args.items() if value != ""}
    if not changed:
        return render_template("whatif.html", match=match, other=None, changed={})
    try:
        other = matches.what_if(match, changed).replay
    except Refusal as refusal:
        page = render_template(
            "whatif.html", match=match, other=None, changed=changed, refusal=refusal
        )
        return page, 422
    return render_template("whatif.html", match=match, other=other, changed=changed)


@bp.post("/matches/<int:match_id>/rounds")
def add_round(match_id: int) -> ResponseReturnValue:
    """Record the next round, or apply a card tap made without JavaScript."""
    device = phone(match_id)
    match = matches.load(get_db(), match_id)
    form = round_form_of(match.scorer)(match.table, request.form, state=match.replay.state)
    if form.follow_taps(request.form):
        return show_match(match, form)
    key = request.form.get("idempotency_key") or None
    expected = read_int(request.form.get("expected"))
    asked = questions(match, form, expected)
    if asked:
        return show_match(match, form, oddities=asked)
    recorded, status = submit(
        form, lambda data: matches.add_round(get_db(), match_id, data, device, key, expected)
    )
    if recorded:
        round_id = recorded.round(recorded.recorded).id
        return redirect(url_for(".match", match_id=match_id, recorded=round_id))
    if request.headers.get("Sec-Fetch-Mode") == "navigate":
        # A phone's own Record: the page it is sent to shows the refusal, so a reload never
        # asks to send the form again. A round sent again from the phone's outbox (fetched,
        # not navigated) is answered with its refusal, which it shows beside the round.
        keep_refusal(match_id, form)
        return redirect(url_for(".match", match_id=match_id), 303)
    # The form comes back as typed, for the match as it stands now.
    return show_match(matches.load(get_db(), match_id), form, status)


def questions(match: matches.Match, form: Any, expected: int | None) -> list[str]:
    """Return what a phone's own Record asks first: a round the rules accept but a table rarely
    sees asks once, nothing recorded yet, and the page's answer sends it again sure. A round
    resent from the outbox (fetched, not navigated) is never asked: it records as before."""
    if request.headers.get("Sec-Fetch-Mode") != "navigate" or request.form.get("sure") == "1":
        return []
    return matches.oddities(match, form.to_input(), expected) if form.validate() else []


def read_int(text: str | None) -> int | None:
    """Read a whole number a form carries in a hidden field, or None."""
    return int(text) if text and text.isdigit() and len(text) < 12 else None


def read_seen(form: Any) -> matches.Seen | None:
    """Read the round id and version a correction or removal form was shown for."""
    round_id, version = read_int(form.get("round_id")), read_int(form.get("version"))
    return None if round_id is None or version is None else matches.Seen(round_id, version)


@bp.route("/matches/<int:match_id>/rounds/<int:n>/edit", methods=["GET", "POST"])
def edit_round(match_id: int, n: int) -> ResponseReturnValue:
    """Correct a past round; every later round is scored again."""
    device = phone(match_id)
    match = matches.load(get_db(), match_id)
    stored = match.round(n)
    state = match.state_before(n)
    if request.method == "GET":
        # A refused correction redirected here comes back the same way, for the round as it
        # stands now.
        kept = kept_refusal(match, n, state)
        if kept is not None:
            return edit_page(match, stored, kept)
        form = round_form_of(match.scorer)(match.table, entered=stored.input, state=state)
        return edit_page(match, stored, form)
    form = round_form_of(match.scorer)(match.table, request.form, state=state)
    if form.follow_taps(request.form):
        return edit_page(match, stored, form)
    seen = read_seen(request.form)
    key = request.form.get("idempotency_key") or None
    corrected, status = submit(
        form,
        lambda data: matches.correct_round(get_db(), match_id, n, data, device, key, seen),
    )
    if corrected:
        flash(
            _(
                "%(round)s %(n)s corrected; everything after it was scored again.",
                round=match.scorer.round_name,
                n=n,
            )
        )
        return redirect(url_for(".match", match_id=match_id, _anchor=f"round-{n}"))
    if request.headers.get("Sec-Fetch-Mode") == "navigate":
        # As for a new round: a reload of the page shown asks nothing.
        keep_refusal(match_id, form, n)
        return redirect(url_for(".edit_round", match_id=match_id, n=n), 303)
    return edit_page(match, stored, form, status)


def edit_page(
    match: matches.Match, stored: matches.Round, form: Any, status: int = 200
) -> ResponseReturnValue:
    """Render the correction form of a round, for the version of it this phone was shown."""
    guard = {"round_id": stored.id, "version": stored.version}
    page = render_template(
        "edit_round.html", match=match, n=stored.n, stored=stored, form=form, guard=guard
    )
    return page, status


@bp.post("/matches/<int:match_id>/rounds/<int:n>/remove")
def remove_round(match_id: int, n: int) -> ResponseReturnValue:
    """Remove a round once asked twice (or at once, as an Undo); the change log keeps it.

    The form names the round by its id and version: a second tap, or a page left open after
    another phone changed the sheet, removes nothing else.
    """
    device = phone(match_id)
    match = matches.load(get_db(), match_id)
    seen = read_seen(request.form)
    if seen is None:
        seen = matches.Seen(match.round(n).id, match.round(n).version)
    where = next((r for r in match.rounds if r.id == seen.round_id), None)
    if where is None:
        flash(_("%(round)s %(n)s was already removed.", round=match.scorer.round_name, n=n))
        return redirect(url_for(".match", match_id=match_id))
    undo = request.form.get("undo") == "1"
    if not undo and request.form.get("confirmed") != "1":
        return render_template("remove_round.html", match=match, stored=where)
    match = matches.remove_round(get_db(), match_id, where.n, device, seen=seen)
    if undo:
        return redirect(url_for(".match", match_id=match_id, undone=seen.round_id))
    flash(
        _(
            "%(round)s %(n)s removed; everything after it was scored again.",
            round=match.scorer.round_name,
            n=where.n,
        )
    )
    return redirect(url_for(".match", match_id=match_id))


@bp.post("/matches/<int:match_id>/removed/<int:round_id>/restore")
def restore_round(match_id: int, round_id: int) -> ResponseReturnValue:
    """Put a removed round back where it stood; everything after it is scored again."""
    device = phone(match_id)
    try:
        match = matches.restore_round(get_db(), match_id, round_id, device)
    except matches.Conflict as conflict:
        flash(str(conflict))
        return redirect(url_for(".sheet", match_id=match_id, _anchor="removed-title"))
    n = match.recorded
    flash(
        _(
            "%(round)s %(n)s restored; everything after it was scored again.",
            round=match.scorer.round_name,
            n=n,
        )
    )
    return redirect(url_for(".match", match_id=match_id, _anchor=f"round-{n}"))


@bp.post("/matches/<int:match_id>/abandon")
def abandon(match_id: int) -> ResponseReturnValue:
    """Abandon the match: it stays in the history, out of every statistic and rating."""
    device = phone(match_id)
    try:
        matches.abandon(get_db(), match_id, device)
    except matches.Conflict as conflict:
        flash(str(conflict))
        return redirect(url_for(".match", match_id=match_id))
    flash(_("Match abandoned: it counts in no statistic or rating now."))
    return redirect(url_for(".match", match_id=match_id))


@bp.post("/matches/<int:match_id>/resume")
def take_back(match_id: int) -> ResponseReturnValue:
    """Take an abandoned match back: it counts again and the table plays on."""
    device = phone(match_id)
    matches.take_back(get_db(), match_id, device)
    flash(_("Match taken back: it counts again."))
    return redirect(url_for(".match", match_id=match_id))


@bp.post("/matches/<int:match_id>/delete")
def delete(match_id: int) -> ResponseReturnValue:
    """Delete a match nothing was entered in, then show the history it is gone from."""
    phone(match_id)
    try:
        matches.delete(get_db(), match_id)
    except matches.Conflict as conflict:
        flash(str(conflict))
        return redirect(url_for(".match", match_id=match_id))
    flash(_("Match #%(id)s deleted.", id=match_id))
    return redirect(url_for(".history"))


@bp.post("/matches/<int:match_id>/rematch")
def rematch(match_id: int) -> ResponseReturnValue:
    """Play a finished match again: same players, options and table, seats kept or rotated."""
    device = phone(match_id)
    again = matches.rematch(get_db(), match_id, request.form.get("seating", "same"), device)
    keep_token(again.id, again.scorer_token)
    return redirect(url_for(".match", match_id=again.id))


@bp.route("/matches/<int:match_id>/handoff", methods=["GET", "POST"])
def handoff(match_id: int) -> ResponseReturnValue:
    """Let another phone score: a one-time code as a link and a QR code, and who may score."""
    phone(match_id)
    match = matches.load(get_db(), match_id)
    code = link = qr = None
    if request.method == "POST":
        code = access.offer(get_db(), match_id)
        link = url_for(".join_with", code=code, _external=True)
        qr = segno.make(link, micro=False).svg_inline(scale=4, dark="#1d1d1b", light="#ffffff")
    me = access.scorer_id(get_db(), match_id, session_token(match_id))
    keeper = access.owner(get_db(), match_id)
    phones = [
        row | {"revocable": access.may_revoke(me, keeper, row["kind"], row["id"])}
        for row in access.phones(get_db(), match_id)
    ]
    return render_template(
        "handoff.html",
        match=match,
        code=code,
        link=link,
        qr=qr,
        phones=phones,
        keeps=me is not None and me == keeper,
    )


@bp.route("/matches/<int:match_id>/sides", methods=["GET", "POST"])
def side_links(match_id: int) -> ResponseReturnValue:
    """Show the scorer a side's one-time link as a QR code, for that side's phone."""
    phone(match_id)
    match = confirming.confirming(get_db(), match_id)
    side = link = qr = None
    if request.method == "POST":
        side, link, _token = sides.link_answer(match_id, request.form.get("side"))
        qr = segno.make(link, micro=False).svg_inline(scale=4, dark="#1d1d1b", light="#ffffff")
    phones = confirming.side_phones(get_db(), match_id)
    return render_template("sides.html", match=match, side=side, link=link, qr=qr, phones=phones)


@bp.post("/matches/<int:match_id>/sides/revoke")
def revoke_side(match_id: int) -> ResponseReturnValue:
    """Take back a side's link or a side's phone (the scoring phone only)."""
    phone(match_id)
    row = request.form.get("id", "")
    confirming.revoke_side(get_db(), match_id, int(row) if row.isdigit() else 0)
    flash(_("Revoked."))
    return redirect(url_for(".side_links", match_id=match_id))


@bp.post("/matches/<int:match_id>/revoke")
def revoke(match_id: int) -> ResponseReturnValue:
    """Take back a phone's right to score, or a code not used yet; a joined phone may take
    back only itself and codes, the phone that started the match any phone (else 403)."""
    phone(match_id)
    row = request.form.get("id", "")
    kind = request.form.get("kind", "")
    me = access.scorer_id(get_db(), match_id, session_token(match_id))
    access.revoke(get_db(), match_id, kind, int(row) if row.isdigit() else 0, me)
    if kind == "phone" and row == str(me):
        flash(_("This phone no longer scores this match."))
        return redirect(url_for(".match", match_id=match_id))
    flash(_("Revoked."))
    return redirect(url_for(".handoff", match_id=match_id))


@bp.get("/join/<code>")
def join_with(code: str) -> ResponseReturnValue:
    """Open the join form with the code a link or a QR code carried."""
    return render_template("join.html", code=code)


@bp.route("/join", methods=["GET", "POST"])
@joining
def join() -> ResponseReturnValue:
    """Let this phone score a match with the code another phone made.

    Wrong codes are counted per address (JOIN_LIMIT): past it, 429 until the minute is over.
    """
    if request.method == "GET":
        return render_template("join.html")
    code, device = request.form.get("code", ""), request.form.get("device", "")
    try:
        match_id, token = access.accept(get_db(), code, access.read_label(device))
    except Refusal as refusal:
        return render_template("join.html", code=code, device=device, message=refusal.message), 422
    keep_token(match_id, token)
    flash(_("This phone can score this match now."))
    return redirect(url_for(".match", match_id=match_id))


@bp.get("/history")
def history() -> ResponseReturnValue:
    """List every match, newest first, filtered by game, player, status and days."""
    keys = ("game", "player", "status", "from", "to", "place")
    filters = {key: request.args.get(key, "").strip() for key in keys}
    page = matches.find(
        get_db(),
        game=filters["game"],
        player=filters["player"],
        status=filters["status"],
        since=filters["from"],
        until=filters["to"],
        page=request.args.get("page"),
        place=filters["place"],
    )
    return render_template("history.html", page=page, filters=filters)
