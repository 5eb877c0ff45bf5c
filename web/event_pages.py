"""The pages of events: create one, draw its rounds, follow its tables, show its standings."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

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
from wtforms import BooleanField, Field, IntegerField, StringField, TextAreaField
from wtforms.validators import Optional

from scorebook import access, events, matches, storage
from scorers import GAMES, Refusal, Scorer
from scorers.base import seats
from scorers.forms import RefusalOnFields, option_field
from scorers.words import _

from .db import get_db
from .pages import entries, known_names
from .passcode import check_passcode

bp = Blueprint("event_pages", __name__)

KEPT_EVENTS = 10
"""How many events' organiser tokens a browser keeps: one evening holds one or two."""


class EventForm(RefusalOnFields):
    """Create an event: its name, day and place, the rounds, the options and the entrants."""

    scorer: Scorer

    def field_at(self, path: str) -> Field | None:
        """Map "teams.Les As.0" and "players.3" to the entrants box, "options.x" to x's box."""
        head, _dot, rest = path.partition(".")
        if head in ("teams", "players"):
            return self.entrants
        if head == "options":
            return self._fields.get(f"option_{rest}")
        return self._fields.get(path)

    def asked_options(self) -> list[Any]:
        """The game's options an event asks about: not who deals, nor the length it sets."""
        return [o for o in self.scorer.options if o.asked and not o.player]

    def to_input(self) -> dict[str, Any]:
        """Return the event in the API's shape; one entrant a line ("Les As: Ana, Bo")."""
        data: dict[str, Any] = {
            "game": self.scorer.id,
            "name": self.name.data,
            "place": self.place.data,
            "played_on": self.played_on.data,
            "rounds": self.rounds.data,
            "options": {
                o.name: self[f"option_{o.name}"].data
                for o in self.asked_options()
                if self[f"option_{o.name}"].data is not None
            }
            | ({"confirm": True} if self.confirm.data else {}),
        }
        for optional in ("deals", "table_size"):
            if optional in self and self[optional].data is not None:
                data[optional] = self[optional].data
        lines = [line.strip() for line in (self.entrants.data or "").splitlines() if line.strip()]
        if self.scorer.teams:
            teams: dict[str, list[str]] = {}
            for line in lines:
                team, colon, members = line.partition(":")
                if not colon:
                    raise Refusal.at(
                        "teams",
                        _('Write each team as "Team name: player, player": {line}').format(
                            line=line
                        ),
                    )
                teams[team.strip()] = names_in(members)
            data["teams"] = teams
        else:
            data["players"] = lines
        return data


def names_in(typed: str) -> list[str]:
    """Split names typed in one box, by commas (the Persian and Arabic "،" too)."""
    return [name.strip() for name in re.split("[,،]", typed) if name.strip()]


def event_form(scorer: Scorer, formdata: Any = None) -> EventForm:
    """Build the new-event form for one game."""
    fields: dict[str, Any] = {
        "scorer": scorer,
        "name": StringField(_("Name of the event")),
        "place": StringField(_("Venue")),
        "played_on": StringField(_("Day"), default=lambda: date.today().isoformat()),
        "rounds": IntegerField(_("Rounds"), default=3, validators=[Optional()]),
        "entrants": TextAreaField(
            _("Teams") if scorer.teams else _("Players"),
            description=_("One team a line: its name, a colon, its players (Les As: Ana, Bo).")
            if scorer.teams
            else _("One player a line."),
        ),
    }
    if any(option.name == "match_deals" for option in scorer.options):
        fields["deals"] = IntegerField(
            _("Deals per match"),
            validators=[Optional()],
            description=_("Empty: each match is played to the game's own end."),
        )
    if scorer.event_sizes is None:
        fields["table_size"] = IntegerField(
            _("Players per table"), default=4, validators=[Optional()]
        )
    chairs = seats(scorer.player_counts[0])
    defaults = scorer.resolve_options({}, chairs)
    for option in scorer.options:
        if option.asked and not option.player:
            fields[f"option_{option.name}"] = option_field(option, defaults[option.name], chairs)
    fields["confirm"] = BooleanField(
        _("Every side confirms its table's rounds on its own phone"),
        description=_(
            "A table's result counts once every side has confirmed every round, or once you "
            "accept it."
        ),
    )
    form_class = type(f"{scorer.name}EventForm", (EventForm,), fields)
    return form_class(formdata)


def organiser_token(event_id: int) -> str | None:
    """Return the organiser's token this browser keeps for an event, if any."""
    return session.get("event_tokens", {}).get(str(event_id))


def keep_organiser(event_id: int, token: str | None) -> None:
    """Keep an event's organiser token in this browser: it runs the event and scores its
    tables (the newest KEPT_EVENTS are kept)."""
    tokens = dict(session.get("event_tokens", {}))
    tokens[str(event_id)] = token
    newest = sorted(tokens, key=int)[-KEPT_EVENTS:]
    session["event_tokens"] = {key: tokens[key] for key in newest}


def runs(event: events.Event) -> bool:
    """Say whether this browser is the event's organiser."""
    token = organiser_token(event.id)
    return token is not None and access.digest(token) == event.row["organiser_sha256"]


@bp.get("/events")
def listed() -> ResponseReturnValue:
    """List the events, newest first, and offer to create one for each game."""
    return render_template(
        "events/list.html",
        events=storage.list_events(get_db()),
        entries=entries(),
    )


@bp.route("/events/new/<game>", methods=["GET", "POST"])
def new_event(game: str) -> ResponseReturnValue:
    """Create an event: the organiser's phone keeps its token and runs it."""
    scorer = GAMES.get(game)
    if scorer is None:
        abort(404, _("Tablescore does not score %(game)s.", game=repr(game)))
    form = event_form(scorer, request.form if request.method == "POST" else None)
    if request.method == "GET":
        variant = request.args.get("variant")
        if "option_variant" in form and variant:
            form["option_variant"].data = variant
        return render_template("events/new.html", form=form, scorer=scorer, known=known_names())
    status = 422
    try:
        check_passcode(request.form.get("passcode"), "event")
        if form.validate():
            created = events.create(get_db(), form.to_input())
            keep_organiser(created.id, created.organiser_token)
            return redirect(url_for(".event", event_id=created.id))
    except access.Forbidden as refused:
        form.form_errors = [str(refused)]
        status = 403
    except Refusal as refusal:
        form.show_refusal(refusal)
    page = render_template("events/new.html", form=form, scorer=scorer, known=known_names())
    return page, status


@bp.get("/events/<int:event_id>")
def event(event_id: int) -> ResponseReturnValue:
    """Show the event: each round's tables as they play, and what the organiser may do."""
    shown = events.load(get_db(), event_id)
    return render_template(
        "events/event.html", event=shown, organiser=runs(shown), shown_round=round_asked(shown)
    )


def round_asked(event: events.Event) -> int:
    """The round whose tables the page shows: the one asked for (?round=), else the latest."""
    asked = request.args.get("round", type=int)
    return asked if asked is not None and 1 <= asked <= event.drawn else event.drawn


def act(event_id: int, action: Any) -> ResponseReturnValue:
    """Do what the organiser asked, then show the event again with the outcome in view."""
    try:
        action(organiser_token(event_id))
    except (Refusal, matches.Conflict, access.Forbidden) as refused:
        shown = events.load(get_db(), event_id)
        status = 403 if isinstance(refused, access.Forbidden) else 409
        status = 422 if isinstance(refused, Refusal) else status
        message = refused.message if isinstance(refused, Refusal) else str(refused)
        page = render_template(
            "events/event.html",
            event=shown,
            organiser=runs(shown),
            shown_round=shown.drawn,
            problem=message,
        )
        return page, status
    return redirect(url_for(".event", event_id=event_id))


@bp.post("/events/<int:event_id>/draw")
def draw(event_id: int) -> ResponseReturnValue:
    """Draw the next round: a match at each table."""

    def drawn(token: str | None) -> None:
        done = events.draw_round(get_db(), event_id, token)
        flash(_("Round {round} is drawn: hand each table its phone.").format(round=done.drawn))

    return act(event_id, drawn)


@bp.post("/events/<int:event_id>/withdraw")
def withdraw(event_id: int) -> ResponseReturnValue:
    """Withdraw an entrant from the next round on."""
    name = request.form.get("name", "")

    def withdrawn(token: str | None) -> None:
        events.withdraw(get_db(), event_id, name, token)
        flash(_("{name} is not drawn again; what was played stays.").format(name=name))

    return act(event_id, withdrawn)


@bp.post("/events/<int:event_id>/entrants")
def enter(event_id: int) -> ResponseReturnValue:
    """Enter a late entrant, drawn from the next round on."""
    data = {
        "name": request.form.get("name", ""),
        "players": names_in(request.form.get("players", "")),
    }

    def entered(token: str | None) -> None:
        events.enter_late(get_db(), event_id, data, token)
        flash(_("{name} joins from the next round.").format(name=data["name"].strip()))

    return act(event_id, entered)


@bp.post("/events/<int:event_id>/close")
def close(event_id: int) -> ResponseReturnValue:
    """Close the event: the standings are final."""

    def closed(token: str | None) -> None:
        events.close(get_db(), event_id, token)
        flash(_("The event is closed: the standings are final."))

    return act(event_id, closed)


@bp.post("/events/<int:event_id>/tables/<int:n>/<int:table>/accept")
def accept(event_id: int, n: int, table: int) -> ResponseReturnValue:
    """Count a finished table's result as it stands, whatever its sides said."""

    def accepted(token: str | None) -> None:
        events.accept(get_db(), event_id, n, table, token)
        flash(_("Table {table}'s result counts as it stands.").format(table=table))

    return act(event_id, accepted)


@bp.get("/events/<int:event_id>/disputes")
def disputes(event_id: int) -> ResponseReturnValue:
    """List the event's contested rounds with their reasons, each one tap from its Why?."""
    shown = events.load(get_db(), event_id)
    return render_template("events/disputes.html", event=shown, organiser=runs(shown))


@bp.get("/events/<int:event_id>/standings")
def standings(event_id: int) -> ResponseReturnValue:
    """Show the standings big, for a screen across the room; they follow the tables."""
    shown = events.load(get_db(), event_id)
    stamp = storage.event_stamp(get_db(), event_id)
    return render_template("events/standings.html", event=shown, version=stamp)


@bp.get("/events/<int:event_id>/standings/sheet")
def standings_sheet(event_id: int) -> ResponseReturnValue:
    """Answer the standings page: nothing (204) if nothing moved since it asked, else them."""
    if not 0 < event_id <= matches.LARGEST_ID:
        raise events.no_such_event(event_id)
    stamp = storage.event_stamp(get_db(), event_id)
    if request.args.get("since") == stamp:
        response = Response(status=204)
        response.cache_control.no_store = True
        return response
    shown = events.load(get_db(), event_id)
    return render_template("events/_standings.html", event=shown, version=stamp)


@bp.get("/events/<int:event_id>/tables")
def tables(event_id: int) -> ResponseReturnValue:
    """List the tables of the round drawn last, to print and pin on the wall."""
    shown = events.load(get_db(), event_id)
    n = request.args.get("round", shown.drawn, type=int)
    return render_template("events/tables.html", event=shown, n=n)
