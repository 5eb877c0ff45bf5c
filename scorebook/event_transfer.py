"""An event as one JSON document, with its matches, to keep or to bring into another Tablescore.

The matches travel as the match export documents they are; the event adds its entrants, its
draws and which match was played at which table. An import checks it all before storing
anything, then stores it in one transaction (an event is a few hundred matches at most).
"""

from __future__ import annotations

from typing import Any

from scorebook import access, events, matches, storage, transfer
from scorebook.storage import Database
from scorers import Refusal
from scorers.seating import PLAYER, TEAM, checked_name
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
        "options": events.shown_options(row),
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
    """Store an exported event and its matches; say whether it was new here.

    An event already here (same uid) is left as it is. Its matches must all be new here: an
    import brings matches in and never takes over one already stored (it would move it into
    the event and hand the importer its scoring). Its organiser's token is new: tokens never
    travel.
    """
    transfer.check_format(
        document, FORMAT, _('This is not a Tablescore event: its format must be "{format}".')
    )
    uid = document.get("uid")
    if not isinstance(uid, str) or not transfer.UID.fullmatch(uid):
        raise Refusal.at("uid", _("Every event needs its uid: 1 to 64 letters, digits, - or _."))
    here = storage.event_by_uid(db, uid)
    if here is not None:
        return events.load(db, here), False
    # The event is checked as a new one would be: its game, options and entrants.
    entrants = document.get("entrants")
    if not isinstance(entrants, list) or not all(isinstance(e, dict) for e in entrants):
        raise Refusal.at("entrants", _("List the event's entrants."))
    scorer = matches.find_scorer(document.get("game"))
    asked = {name: document.get(name) for name in EVENT_FIELDS}
    names = read_entrant_names(entrants, TEAM if scorer.teams else PLAYER)
    asked["teams" if scorer.teams else "players"] = (
        dict(zip(names, (e.get("players") for e in entrants), strict=True))
        if scorer.teams
        else names
    )
    checked, entered = events.check_new(asked)
    incoming = transfer.read_history(document.get("matches"))
    by_uid = {match.uid: match for match in incoming}
    draws = read_draws(document.get("draws"), checked["rounds"], set(entered))
    tables = read_tables(document.get("tables"), by_uid, len(draws), set(entered))
    rounds_in = [read_rounds_in(e, i, checked["rounds"]) for i, e in enumerate(entrants)]
    closed = document.get("closed_at")
    with storage.writing(db):
        refuse_stored(db, [match_uid for _n, _number, match_uid in tables])
        event_id, token = events.store(
            db,
            checked,
            uid,
            transfer.read_moment(document.get("created_at"), "created_at"),
            None if closed is None else transfer.read_moment(closed, "closed_at"),
        )
        for (name, members), (joined, withdrawn) in zip(entered.items(), rounds_in, strict=True):
            storage.insert_entrant(db, event_id, name, members, joined)
            if withdrawn is not None:
                storage.withdraw_entrant(db, event_id, name, withdrawn)
        for drawn in draws:
            storage.insert_draw(
                db, event_id, drawn["round"], drawn["seed"], drawn["byes"], drawn["drawn_at"]
            )
        for n, number, match_uid in tables:
            match_id = transfer.store_match(db, by_uid[match_uid], None, (event_id, n, number))
            access.admit(db, match_id, access.digest(token), _("the organiser"))
    event = events.load(db, event_id)
    event.organiser_token = token
    return event, True


def read_entrant_names(entrants: list[dict[str, Any]], what: str) -> list[str]:
    """Check the entrants' names: each a name, and none twice (whatever its case)."""
    names: list[str] = []
    seen: set[str] = set()
    for i, entrant in enumerate(entrants):
        name = checked_name(entrant.get("name"), f"entrants.{i}.name", what)
        if name.casefold() in seen:
            raise Refusal.at(
                f"entrants.{i}.name",
                _("{name} is entered twice: names must differ.").format(name=name),
            )
        seen.add(name.casefold())
        names.append(name)
    return names


def refuse_stored(db: Database, uids: list[str]) -> None:
    """Refuse an event whose matches are here already (or are being imported right now)."""
    here = [uid for uid in uids if transfer.find_stored(db, uid) is not None]
    if here:
        raise matches.Conflict(
            _(
                "These matches are here already: {uids}. An event is imported with new "
                "matches only, and never takes over one stored here; nothing was imported."
            ).format(uids=", ".join(here))
        )


def is_count(given: Any, most: int) -> bool:
    """Say whether a number given is a whole number from 1 to `most`."""
    return isinstance(given, int) and not isinstance(given, bool) and 1 <= given <= most


def read_rounds_in(entrant: dict[str, Any], i: int, rounds: int) -> tuple[int, int | None]:
    """Check the rounds an entrant joined from and withdrew before: within the event's."""
    joined, withdrawn = entrant.get("joined_round", 1), entrant.get("withdrawn_round")
    fits = [joined] + ([] if withdrawn is None else [withdrawn])
    if not all(is_count(n, rounds + 1) for n in fits):
        raise Refusal.at(
            f"entrants.{i}",
            _("An entrant joins and withdraws at rounds of the event: 1 to {most}.").format(
                most=rounds + 1
            ),
        )
    return joined, withdrawn


def read_tables(
    given: Any, by_uid: dict[str, transfer.Incoming], drawn: int, entrants: set[str]
) -> list[tuple[int, int, str]]:
    """Check which match was played at which table: a table of a round drawn, each once, and
    a match among those sent, at one table only, seating entrants of the event."""
    if not isinstance(given, list):
        raise Refusal.at("tables", _("List the event's tables: round, table and match."))
    tables: list[tuple[int, int, str]] = []
    placed: set[tuple[int, int]] = set()
    played: set[str] = set()
    for i, table in enumerate(given):
        ok = (
            isinstance(table, dict)
            and is_count(table.get("round"), drawn)
            and is_count(table.get("table"), events.MAX_ENTRANTS)
            and (table["round"], table["table"]) not in placed
            and isinstance(table.get("match"), str)
            and table["match"] in by_uid
            and table["match"] not in played
        )
        if not ok:
            raise Refusal.at(
                f"tables.{i}",
                _("Each table names its round, its number and one of the matches sent."),
            )
        seated = by_uid[table["match"]].table
        strangers = [side for side in seated.teams or seated.players if side not in entrants]
        if strangers:
            raise Refusal.at(
                f"tables.{i}",
                _("The match at this table seats {names}: not entrants of the event.").format(
                    names=", ".join(strangers)
                ),
            )
        placed.add((table["round"], table["table"]))
        played.add(table["match"])
        tables.append((table["round"], table["table"], table["match"]))
    return tables


def read_draws(given: Any, rounds: int, entrants: set[str]) -> list[dict[str, Any]]:
    """Check the rounds drawn: numbered from 1, at most the event's rounds, each with its seed,
    its byes (entrants of the event) and when it was drawn."""
    if not isinstance(given, list) or len(given) > rounds:
        raise Refusal.at("draws", _("List the rounds drawn, at most the event's rounds."))
    for n, drawn in enumerate(given, 1):
        if not (
            isinstance(drawn, dict)
            and drawn.get("round") == n
            and isinstance(drawn.get("byes"), list)
            and all(isinstance(name, str) and name in entrants for name in drawn["byes"])
        ):
            raise Refusal.at(f"draws.{n - 1}", _("Each round drawn names its number and byes."))
    return [
        {
            "round": d["round"],
            "seed": events.read_seed(d.get("seed"), f"draws.{n}.seed"),
            "byes": d["byes"],
            "drawn_at": transfer.read_moment(d.get("drawn_at"), f"draws.{n}.drawn_at"),
        }
        for n, d in enumerate(given)
    ]
