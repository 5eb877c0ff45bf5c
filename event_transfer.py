"""An event as one JSON document, with its matches, to keep or to bring into another Tablescore.

The matches travel as the match export documents they are; the event adds its entrants, its
draws and which match was played at which table. An import checks it all before storing
anything, then stores it in one transaction (an event is a few hundred matches at most).
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

import access
import events
import matches
import store
import store_events
import transfer
from scorers import Refusal
from scorers.words import _

FORMAT = "tablescore-event"
VERSION = transfer.VERSION
EVENT_FIELDS = ("name", "game", "options", "rounds", "deals", "table_size", "place", "played_on")


def export_event(db: Database, event_id: int) -> dict[str, Any]:
    """Return an event as its export document, every match of it included."""
    event = events.load(db, event_id)
    row = event.row
    return {
        "format": FORMAT,
        "version": VERSION,
        "uid": row["uid"],
        **{name: row[name] for name in EVENT_FIELDS},
        "created_at": row["created_utc"],
        "closed_at": row["closed_utc"],
        "entrants": event.entrant_list(),
        "draws": [
            {"round": d["round"], "seed": d["seed"], "byes": d["byes"], "drawn_at": d["drawn_utc"]}
            for d in event.draws
        ],
        "tables": [
            {"round": t["event_round"], "table": t["event_table"], "match": t["uid"]}
            for t in event.tables
        ],
        "matches": [transfer.export_match(db, t["id"]) for t in event.tables],
    }


def import_event(db: Database, document: Any) -> tuple[events.Event, bool]:
    """Store an exported event and its new matches; say whether it was new here.

    An event already here (same uid) is left as it is. Its organiser's token is new: tokens
    never travel.
    """
    transfer.check_format(
        document, FORMAT, _('This is not a Tablescore event: its format must be "{format}".')
    )
    uid = document.get("uid")
    if not isinstance(uid, str) or not transfer.UID.fullmatch(uid):
        raise Refusal.at("uid", _("Every event needs its uid: 1 to 64 letters, digits, - or _."))
    here = store_events.event_by_uid(db, uid)
    if here is not None:
        return events.load(db, here), False
    # The event is checked as a new one would be: its game, options and entrants.
    entrants = document.get("entrants")
    if not isinstance(entrants, list) or not all(isinstance(e, dict) for e in entrants):
        raise Refusal.at("entrants", _("List the event's entrants."))
    scorer = matches.scorer_for(document.get("game"))
    asked = {name: document.get(name) for name in EVENT_FIELDS}
    options = dict(asked.pop("options") or {})
    asked["deals"] = options.pop("match_deals", None)
    key = "teams" if scorer.teams else "players"
    asked[key] = (
        {e.get("name"): e.get("players") for e in entrants}
        if scorer.teams
        else [e.get("name") for e in entrants]
    )
    checked, _entrants = events.create_checks(asked | {"options": options})
    incoming = transfer.read_history(document.get("matches"))
    by_uid = {match.uid: match for match in incoming}
    tables = read_tables(document.get("tables"), by_uid)
    draws = read_draws(document.get("draws"), checked["rounds"])
    rounds_in = [read_rounds_in(e, i, checked["rounds"]) for i, e in enumerate(entrants)]
    closed = document.get("closed_at")
    with store.writing(db):
        event_id, token = events.stored(
            db,
            checked,
            uid,
            transfer.moment(document.get("created_at"), "created_at"),
            None if closed is None else transfer.moment(closed, "closed_at"),
        )
        for entrant, (joined, withdrawn) in zip(entrants, rounds_in, strict=True):
            store_events.insert_entrant(
                db, event_id, entrant["name"], entrant.get("players"), joined
            )
            if withdrawn is not None:
                store_events.withdraw(db, event_id, entrant["name"], withdrawn)
        for drawn in draws:
            store_events.insert_draw(db, event_id, drawn["round"], drawn["seed"], drawn["byes"])
        for n, number, match_uid in tables:
            match_id = transfer.stored_id(db, match_uid)
            if match_id is None:
                match_id = transfer.keep(db, by_uid[match_uid], None)
            store.update(
                db,
                "matches",
                match_id,
                {"event_id": event_id, "event_round": n, "event_table": number},
            )
            access.admit(db, match_id, access.digest(token), _("the organiser"))
    event = events.load(db, event_id)
    event.organiser_token = token
    return event, True


def read_rounds_in(entrant: dict[str, Any], i: int, rounds: int) -> tuple[int, int | None]:
    """Check the rounds an entrant joined from and withdrew before: within the event's."""
    joined, withdrawn = entrant.get("joined_round", 1), entrant.get("withdrawn_round")
    fits = [joined] + ([] if withdrawn is None else [withdrawn])
    if not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= rounds + 1 for n in fits
    ):
        raise Refusal.at(
            f"entrants.{i}",
            _("An entrant joins and withdraws at rounds of the event: 1 to {most}.").format(
                most=rounds + 1
            ),
        )
    return joined, withdrawn


def read_tables(given: Any, by_uid: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Check which match was played at which table: every one among the matches sent."""
    if not isinstance(given, list):
        raise Refusal.at("tables", _("List the event's tables: round, table and match."))
    tables = []
    for i, table in enumerate(given):
        ok = (
            isinstance(table, dict)
            and isinstance(table.get("round"), int)
            and isinstance(table.get("table"), int)
            and table.get("match") in by_uid
        )
        if not ok:
            raise Refusal.at(
                f"tables.{i}",
                _("Each table names its round, its number and one of the matches sent."),
            )
        tables.append((table["round"], table["table"], table["match"]))
    return tables


def read_draws(given: Any, rounds: int) -> list[dict[str, Any]]:
    """Check the rounds drawn: numbered from 1, at most the event's rounds, with their byes."""
    if not isinstance(given, list) or len(given) > rounds:
        raise Refusal.at("draws", _("List the rounds drawn, at most the event's rounds."))
    for n, drawn in enumerate(given, 1):
        if not (
            isinstance(drawn, dict)
            and drawn.get("round") == n
            and isinstance(drawn.get("byes"), list)
        ):
            raise Refusal.at(f"draws.{n - 1}", _("Each round drawn names its number and byes."))
    return [{"round": d["round"], "seed": d.get("seed"), "byes": d["byes"]} for d in given]
