"""Matches as portable documents: export them, and import them elsewhere.

An export keeps every round ever entered and the whole change log, so the importing Tablescore
stores the same history and replays it through its own scorers. A document whose numbers that
replay does not give was edited by hand: it is refused, and so is everything imported with it.
"""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import re
import threading
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from typing import Any, BinaryIO

from scorebook import access, matches, storage, verdicts
from scorebook.json_guards import MAX_DEPTH, SURROGATE_ESCAPE, lone_surrogate, nesting_depth
from scorebook.round_json import round_json
from scorebook.storage import Database
from scorers import Refusal, Replay, RoundImpossible, Scorer, Table
from scorers.seating import DEVICE, checked_name
from scorers.words import _, ngettext, speak

FORMAT = "tablescore-match"
VERSION = 1
UID = re.compile(r"[0-9A-Za-z_-]{1,64}")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's list for CSV injection)."""
DERIVED = ("rounds", "totals", "status", "winner")
"""What an export replays from the log: its words follow the language it was exported in."""


@dataclass
class Record:
    """A round as stored: its input as last corrected, when it was entered, corrected, removed."""

    input: dict[str, Any]
    entered_at: str
    corrected_at: str | None = None
    removed_at: str | None = None
    note: str | None = None

    def document(self, ref: int) -> dict[str, Any]:
        """Return the record as the export lists it; `ref` is its place among the records.
        A note is listed only when there is one, as exports before notes had none."""
        return {
            "ref": ref,
            "input": self.input,
            "entered_at": self.entered_at,
            "corrected_at": self.corrected_at,
            "removed_at": self.removed_at,
            **({"note": self.note} if self.note is not None else {}),
        }


@dataclass
class Entry:
    """One change of the log, naming its round by the record's place rather than a local id."""

    action: str
    n: int
    ref: int | None
    """None for a change of the match's own note, place or date."""
    entered: dict[str, Any] | None
    replaced: dict[str, Any] | None
    at: str
    device: str | None = None

    def document(self) -> dict[str, Any]:
        """Return the change as the export lists it, its hash apart: as the log shows it."""
        return storage.chain.logged_form(
            self.action, self.n, self.entered, self.replaced, self.at, self.device, self.ref
        )


@dataclass
class Incoming:
    """A match document checked all through, ready to be stored."""

    uid: str
    scorer: Scorer
    table: Table
    created_at: str
    records: list[Record]
    log: list[Entry]
    replay: Replay
    details: dict[str, str | None] = field(default_factory=dict)
    """Its note, place and the moment it was played."""
    abandoned_at: str | None = None
    """When its table abandoned it, if its log leaves it abandoned."""
    scorer_side: str | None = None
    """The side its scoring phone played for, when every side confirmed its rounds."""


@dataclass
class Outcome:
    """What an import did: the uids it stored, those already here, and those here but other.

    A conflict is a uid already here with another history: neither is changed, and the
    import says so rather than passing it over as one already here.
    """

    imported: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    scorer_tokens: dict[str, str] = field(default_factory=dict)
    """Match id → a new scorer token for each match imported, shown this once."""

    def summary(self) -> str:
        """Say in one sentence what the import did."""
        said = _("Imported {imported}; skipped {skipped} already here.").format(
            imported=matches_count(len(self.imported)), skipped=matches_count(len(self.skipped))
        )
        if not self.conflicts:
            return said
        conflicts = _(
            "Not imported: {conflicts} already here with another history ({uids})."
        ).format(conflicts=matches_count(len(self.conflicts)), uids=", ".join(self.conflicts))
        return f"{said} {conflicts}"


def matches_count(count: int) -> str:
    """Count matches in words: "1 match", "3 matches"."""
    return ngettext("{count} match", "{count} matches", count).format(count=count)


# --- export -----------------------------------------------------------------------------------


def export_match(db: Database, match_id: int) -> dict[str, Any]:
    """Return one match as its export document: rounds, results, every record and the log."""
    # Replayed apart from the kept replays: a whole history passing through would push out
    # the matches being played tonight. Read as of one moment: a round recorded meanwhile
    # would be in the log and not in the records.
    with storage.reading(db):
        match = matches.score(matches.read_stored(db, match_id))
        rows = storage.round_records(db, match.id)
        changes = storage.changes(db, match.id)
    return {
        **start_document(match.uid, match.scorer, match.table, match.created_utc),
        "options": dict(match.table.options) | verdicts.shown_choice(match.scorer_side),
        "note": match.details.get("note"),
        "place": match.details.get("place"),
        "played_at": match.details.get("played_at") or match.created_utc,
        "abandoned_at": match.abandoned_utc,
        # A round's id is this installation's own: the round records stand for it.
        "rounds": [
            {key: value for key, value in round_json(stored, result).items() if key != "id"}
            for stored, result in match.scored_rounds()
        ],
        "totals": match.replay.totals,
        "status": match.replay.status,
        "winner": match.replay.winner,
        "log": [logged(change) for change in changes],
        "log_head": storage.chain.head(changes),
        "round_records": [
            Record(
                row["input"],
                row["entered_utc"],
                row["corrected_utc"],
                row["removed_utc"],
                row["note"],
            ).document(ref)
            for ref, row in enumerate(rows)
        ],
    }


def logged(change: dict[str, Any]) -> dict[str, Any]:
    """Return a stored change as the log and the export show it, with its hash."""
    shown = storage.chain.logged_form(
        change["action"],
        change["n"],
        change["input"],
        change["replaced"],
        change["at_utc"],
        change["device"],
        change["round_ref"],
    )
    return shown | {"hash": change["hash"]}


def start_document(uid: str, scorer: Scorer, table: Table, created_at: str) -> dict[str, Any]:
    """Return what every match document opens with: its format, uid, game, table and birth."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "uid": uid,
        "game": scorer.id,
        "options": dict(table.options),
        "players": list(table.players),
        "teams": None if table.teams is None else dict(table.teams),
        "created_at": created_at,
    }


def export_history(db: Database) -> list[dict[str, Any]]:
    """Return every match's export document, oldest first."""
    return [export_match(db, match_id) for match_id in storage.match_ids(db)]


def export_stream(database: str, circle: int | None = storage.ONE_CIRCLE) -> Iterator[str]:
    """Write every match of a circle's export document as one JSON array, a match at a time.

    A history of thousands of matches is never held whole: memory stays flat, each match is
    read in its own short queries, and phones scoring meanwhile are not kept waiting. The
    stream reads through its own connection, which outlives the request that started it.
    """
    with storage.opened(database, circle) as db:
        yield "["
        for i, match_id in enumerate(storage.match_ids(db)):
            yield ("," if i else "") + "\n" + as_text(export_match(db, match_id))
        yield "\n]\n"


def write_history(database: str, into: BinaryIO, circle: int | None = storage.ONE_CIRCLE) -> None:
    """Write every match of a circle's export document into a file, as one JSON array in UTF-8."""
    for text in export_stream(database, circle):
        into.write(text.encode())


def as_text(exported: Any) -> str:
    """Write an export as the JSON text of its file, readable by people too."""
    return json.dumps(exported, ensure_ascii=False, indent=2)


def score_sheet(db: Database, match_id: int) -> str:
    """Return the match's score sheet as CSV: per round, each side's score and running total."""
    match = matches.load(db, match_id)
    sides = list(match.table.teams or match.table.players)
    columns = [(side, kind) for side in sides for kind in ("score", "total")]
    rows = [["n", *(f"{side} {kind}" for side, kind in columns), "note"]]
    for stored, result in match.scored_rounds():
        numbers = {"score": result.scores, "total": result.totals}
        scores = [numbers[kind][side] for side, kind in columns]
        rows.append([stored.n, *scores, stored.note or ""])
    return as_csv(rows)


def as_csv(rows: Iterable[list[Any]]) -> str:
    """Write rows as CSV for a spreadsheet, each cell guarded by `cells`."""
    sheet = io.StringIO()
    writer = csv.writer(sheet)
    for row in rows:
        writer.writerow(cells(row))
    return sheet.getvalue()


def cells(row: list[Any]) -> list[Any]:
    """Keep a spreadsheet from running a name as a formula: "=1+1" is written "'=1+1".

    Only text is guarded; a number stays a number, so a score of -8 is still -8.
    """
    return [
        f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
        for cell in row
    ]


# --- import -----------------------------------------------------------------------------------


class Unreadable(Refusal):
    """A file that is not JSON at all, or JSON no import could walk: told apart from a refused
    match, as the API answers it 400 where a refused match is 422."""


def parse_export(data: bytes | str) -> Any:
    """Read an export file's JSON, saying where it breaks if it is not JSON.

    :raises Unreadable: it is not JSON, not text, or nested too deeply.
    """
    # Checked before parsing, as every JSON body is: see scorebook.json_guards.
    if nesting_depth(data) > MAX_DEPTH:
        raise Unreadable(
            _(
                "This file is nested too deeply (more than {depth} levels): choose a "
                "Tablescore export (.json)."
            ).format(depth=MAX_DEPTH)
        )
    try:
        parsed = json.loads(data)
    except UnicodeDecodeError:
        raise Unreadable(_("This file is not text: choose a Tablescore export (.json).")) from None
    except json.JSONDecodeError as error:
        raise Unreadable(
            _(
                "This file is not JSON ({error} at line {line}, column {column}): "
                "choose a Tablescore export (.json)."
            ).format(error=error.msg, line=error.lineno, column=error.colno)
        ) from None
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if SURROGATE_ESCAPE.search(raw):
        lone_surrogate(parsed)
    return parsed


BATCH_SECONDS = 0.05
"""How long an import holds the write lock at a time: a phone recording a round waits for one
batch at most."""
PAUSE_SECONDS = 0.11
"""The gap left after each batch. A phone kept waiting by SQLite sleeps at most a tenth of a
second between its looks (SQLite's busy handler backs off from 1 to 100 ms): a gap longer than
that is one it can't miss, where a shorter one let a phone miss gap after gap behind a large
import."""


def import_history(db: Database, exported: Any) -> Outcome:
    """Check every document, then store the new matches: all or nothing.

    They go in by batches, each a short transaction, and stay out of sight until the last
    batch is in; an import that fails on the way is dropped whole.
    """
    incoming = read_history(exported)
    with storage.writing(db):
        import_id = storage.begin_import(db, storage.now_utc())
    try:
        outcome, new = sort_out(db, incoming)
        waiting = deque(new)
        while waiting:
            with storage.writing(db):
                store_batch(db, import_id, waiting, outcome)
            # The import, not the next phone to commit, copies what it wrote out of the WAL.
            storage.checkpoint(db)
            time.sleep(PAUSE_SECONDS)
        with storage.writing(db):
            storage.finish_import(db, import_id)
    except BaseException as error:
        with suppress(storage.Fault), storage.writing(db):
            storage.drop_import(db, import_id)
        if isinstance(error, storage.Duplicate):
            raise another_import() from None
        raise
    finally:
        storage.release_import(import_id)
    return outcome


class Interrupted(Exception):
    """An import whose process ended before it said how it went: what it stored is hidden,
    and dropped as a dead import's rows are."""


IMPORT_NICENESS = 10
"""How far below the tables' requests an import's process runs: it gets what CPU they leave."""


def import_apart(
    database: str, data: bytes, language: str | None, circle: int | None = storage.ONE_CIRCLE
) -> Outcome:
    """Import an export file's matches into a circle in a process of its own, at a lower
    priority.

    Reading, replaying and storing thousands of matches is seconds of CPU: done in the server's
    process it would take the tables' threads and cores from them. The child speaks the
    reader's language, and ends at once if this process does (its import is then dropped).

    :raises Unreadable: the file is not JSON, as `parse_export` says.
    :raises Refusal: a match is refused, as `import_history` refuses it.
    :raises storage.Unavailable: the database could not keep the matches (full, busy).
    :raises matches.Conflict: another import is storing some of these matches.
    :raises Interrupted: the child ended without a word (killed, out of memory).
    """
    context = multiprocessing.get_context("forkserver")
    # Forked from a server that already imported the rules: a child costs milliseconds.
    context.set_forkserver_preload(["scorebook.transfer"])
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(
        target=import_alone,
        args=(database, data, language, circle, sending, os.getpid()),
        daemon=True,
    )
    child.start()
    sending.close()
    try:
        kind, said, fields = receiving.recv()
    except EOFError:
        raise Interrupted() from None
    finally:
        receiving.close()
        child.join()
    if kind == "unreadable":
        raise Unreadable(said, fields)
    if kind == "refused":
        raise Refusal(said, fields)
    if kind == "storage":
        raise storage.Unavailable(said, fields)
    if kind == "conflict":
        raise matches.Conflict(said)
    return Outcome(**said)


def import_alone(
    database: str,
    data: bytes,
    language: str | None,
    circle: int | None,
    answer: Connection,
    parent: int,
) -> None:
    """Run one import in the child `import_apart` started, and send back what came of it."""
    os.nice(IMPORT_NICENESS)
    threading.Thread(target=leave_with, args=(parent,), daemon=True).start()
    speak(language)
    db = storage.connect(database, circle)
    try:
        said = ("done", asdict(import_history(db, parse_export(data))), None)
    except Unreadable as unreadable:
        said = ("unreadable", unreadable.message, unreadable.fields)
    except Refusal as refusal:
        said = ("refused", refusal.message, refusal.fields)
    except storage.Unavailable as fault:
        said = ("storage", str(fault), fault.reason)
    except matches.Conflict as conflict:
        said = ("conflict", str(conflict), None)
    finally:
        db.close()
    answer.send(said)
    answer.close()


def leave_with(parent: int) -> None:
    """End this process at once when the server process that asked for it has ended: nobody
    waits for its answer. (Its parent is the fork server, so the server is asked by its pid.)"""
    while True:
        time.sleep(1)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)


def store_batch(db: Database, import_id: int, waiting: deque[Incoming], outcome: Outcome) -> None:
    """Store waiting matches of an import, out of sight, for one batch's time (one at least)."""
    until = time.monotonic() + BATCH_SECONDS
    while True:
        match = waiting.popleft()
        match_id = store_match(db, match, import_id)
        outcome.imported.append(match.uid)
        # Tokens never travel in an export: whoever imports a match may score it.
        token = access.issue(db, match_id, _("the phone that imported it"))
        outcome.scorer_tokens[str(match_id)] = token
        if not waiting or time.monotonic() >= until:
            return


def sort_out(db: Database, incoming: list[Incoming]) -> tuple[Outcome, list[Incoming]]:
    """Tell the matches already here (skipped, or conflicts) from the new ones to store."""
    outcome = Outcome()
    new: dict[str, Incoming] = {}
    for match in incoming:
        here = find_stored(db, match.uid)
        if here is None and match.uid not in new:
            new[match.uid] = match
            continue
        # The same match twice in one import is stored once, as if it had been stored already.
        there = history_document(new[match.uid]) if here is None else stored_document(db, here)
        kept = outcome.skipped if there == history_document(match) else outcome.conflicts
        kept.append(match.uid)
    return outcome, list(new.values())


def another_import() -> matches.Conflict:
    """Refuse an import some of whose matches another import is bringing in right now."""
    return matches.Conflict(
        _(
            "Another import is storing some of these matches right now. Nothing was "
            "imported; try again once it has finished."
        )
    )


def find_stored(db: Database, uid: str) -> int | None:
    """Return the id of the match stored under this uid, if there is one.

    A match another import is still bringing in is refused: whether it will be stored is not
    known yet. One left by an import whose process is gone goes with that import, at once.

    :raises matches.Conflict: another import, alive, is bringing this match in.
    """
    here = storage.stored_under(db, uid)
    if here is None:
        return None
    match_id, import_id, holder = here
    if import_id is None:
        return match_id
    if storage.holder_alive(db, holder):
        raise another_import()
    if storage.in_transaction(db):
        # Asked inside a change (an event's import): the write lock is already held.
        storage.drop_dead_imports(db)
    else:
        with storage.writing(db):
            storage.drop_dead_imports(db)
    # Its import is gone, and the match with it (a uid is stored once).
    return None


def stored_document(db: Database, match_id: int) -> Any:
    """Return a stored match's export document without what it replays to, as JSON reads it.

    Without a local id and without the replayed numbers (and the words explaining them), two
    matches with equal documents have the same table and history.
    """
    here = export_match(db, match_id)
    kept = {key: value for key, value in here.items() if key not in (*DERIVED, "log_head")}
    # Its hashes follow from the rest: a document from before the chain has none to compare.
    return as_json(kept | {"log": [unchained(change) for change in here["log"]]})


def history_document(match: Incoming) -> Any:
    """Return an incoming match as `stored_document` reads a stored one."""
    return as_json(
        {
            **start_document(match.uid, match.scorer, match.table, match.created_at),
            "options": dict(match.table.options) | verdicts.shown_choice(match.scorer_side),
            **match.details,
            "abandoned_at": match.abandoned_at,
            "log": [entry.document() for entry in match.log],
            "round_records": [record.document(ref) for ref, record in enumerate(match.records)],
        }
    )


def as_json(value: Any) -> Any:
    """Return a value as JSON reads it back: tuples become lists, as in a file."""
    return json.loads(json.dumps(value))


def read_history(exported: Any) -> list[Incoming]:
    """Check every document of an export before anything is stored."""
    if not isinstance(exported, list):
        raise Refusal(
            _(
                "An import is a JSON array of match documents, as GET /api/export or "
                "`flask export` write it. Nothing was imported."
            )
        )
    checked = []
    for i, document in enumerate(exported):
        uid = document.get("uid") if isinstance(document, dict) else None
        label = (
            _("Match {uid}").format(uid=uid)
            if isinstance(uid, str) and UID.fullmatch(uid)
            else _("Document {n}").format(n=i + 1)
        )
        with locating(str(i), label, _("Nothing was imported.")):
            checked.append(read_match(document))
    return checked


@contextmanager
def locating(path: str, label: str = "", after: str = "") -> Iterator[None]:
    """Say where a refusal comes from: its fields under `path`, its message after `label`."""
    try:
        yield
    except Refusal as refusal:
        fields = {
            f"{path}.{name}" if name else path: messages
            for name, messages in refusal.fields.items()
        }
        message = (
            _("{where}: {problem}").format(where=label, problem=refusal.message)
            if label
            else refusal.message
        )
        if after:
            message = f"{message} {after}"
        raise Refusal(message, fields or {path: [refusal.message]}) from None


def check_format(document: Any, named: str, not_ours: str) -> None:
    """Refuse a document of another format (`not_ours` says which it must be) or version."""
    if not isinstance(document, dict) or document.get("format") != named:
        raise Refusal.at("format", not_ours.format(format=named))
    if document.get("version") != VERSION:
        raise Refusal.at(
            "version",
            _(
                "This is a version {version} export; this Tablescore reads version {supported}."
            ).format(version=repr(document.get("version")), supported=VERSION),
        )


def read_match(document: Any) -> Incoming:
    """Check one match document through and through: its table, its log, its numbers."""
    check_format(
        document, FORMAT, _('This is not a Tablescore match: its format must be "{format}".')
    )
    uid = document.get("uid")
    if not isinstance(uid, str) or not UID.fullmatch(uid):
        raise Refusal.at("uid", _("Every match needs its uid: 1 to 64 letters, digits, - or _."))
    created_at = read_moment(document.get("created_at"), "created_at")
    scorer = matches.find_scorer(document.get("game"))
    # First: a change edited by hand is named where its chain breaks, before anything is
    # read from it.
    check_chain(document)
    game_document, choice = verdicts.take_choice(document)
    table = read_table(scorer, game_document)
    scorer_side = verdicts.read_choice(choice, table)
    records, log = read_log(scorer, table, document.get("log"), scorer_side)
    check_records(records, document.get("round_records"))
    replay = replay_records(scorer, table, records)
    check_numbers(replay, document)
    details = read_logged_details(document, log, created_at)
    abandoned = read_abandoned(document, log)
    return Incoming(
        uid, scorer, table, created_at, records, log, replay, details, abandoned, scorer_side
    )


def check_chain(document: dict[str, Any]) -> None:
    """Refuse a document whose log's chain is broken, naming the first change that is not
    what was scored. An export made before the chain carries no hash at all, and is checked
    by what its log says alone."""
    log = document.get("log")
    if not isinstance(log, list):
        return
    if "log_head" not in document and not any(
        isinstance(change, dict) and "hash" in change for change in log
    ):
        return
    bad = storage.chain.first_broken(log)
    if bad is not None:
        raise Refusal.at(
            f"log.{bad}.hash",
            _(
                "Its log's chain breaks at change {n}: that change is not what was scored, "
                "or one was taken out or slipped in before it."
            ).format(n=bad + 1),
        )
    if document.get("log_head") != storage.chain.head(log):
        raise Refusal.at(
            "log_head",
            _("Its log_head is not the hash of its log's last change: the log was cut short."),
        )


def read_abandoned(document: dict[str, Any], log: list[Entry]) -> str | None:
    """Read when the match was abandoned, if its log leaves it so (an export before abandoning
    says nothing): the document must say what the log leaves."""
    left = None
    for entry in log:
        if entry.action in ("abandon", "resume"):
            left = entry.at if entry.action == "abandon" else None
    if document.get("abandoned_at", left) != left:
        raise Refusal.at(
            "abandoned_at",
            _("Its abandoned_at should be {value}, as its log leaves it.").format(
                value=json.dumps(left)
            ),
        )
    return left


def read_logged_details(
    document: dict[str, Any], log: list[Entry], created_at: str
) -> dict[str, str | None]:
    """Read the match's note, place and date (an export before them has none): each change of
    them in the log must replace what was there, and they must be what the log leaves."""
    left: dict[str, str | None] = {"note": None, "place": None, "played_at": created_at}
    for i, entry in enumerate(log):
        if entry.action != "details":
            continue
        before = {name: left[name] for name in entry.entered or {}}
        if entry.replaced != before:
            raise Refusal.at(
                f"log.{i}.replaced",
                _("Change {n} of the log replaced {value}.").format(
                    n=i + 1, value=json.dumps(before)
                ),
            )
        left |= entry.entered or {}
    given = {name: document.get(name, left[name]) for name in left}
    for name, value in given.items():
        if value != left[name]:
            raise Refusal.at(
                name,
                _("Its {field} should be {value}, as its log leaves it.").format(
                    field=name, value=json.dumps(left[name])
                ),
            )
    return given


def read_moment(value: Any, path: str) -> str:
    """Check a UTC time written as Tablescore stores it."""
    try:
        datetime.strptime(value, storage.STAMP)
    except (TypeError, ValueError):
        raise Refusal.at(
            path,
            _("{value} is not a UTC time like 2024-05-01T20:30:00Z.").format(value=repr(value)),
        ) from None
    return value


def read_table(scorer: Scorer, document: dict[str, Any]) -> Table:
    """Check the seats and options as the game would for a new match, seated as exported."""
    players, teams = document.get("players"), document.get("teams")
    if isinstance(teams, dict) and isinstance(players, list):
        # Seating follows the order of the teams, which a JSON object need not keep (Flask's
        # own JSON sorts keys): the players list says whose team sits first.
        seat = {name: i for i, name in enumerate(players) if isinstance(name, str)}
        teams = dict(
            sorted(teams.items(), key=lambda team: seat.get(first_member(team[1]), len(seat)))
        )
    given = {"players": players, "options": document.get("options")}
    # A match started without teams has none, and Porrazo seats teams whenever they are given.
    table = scorer.read_table(given if teams is None else given | {"teams": teams})
    if list(table.players) != players:
        raise Refusal.at(
            "players",
            _("The players must be listed as they sit: {players}.").format(
                players=", ".join(table.players)
            ),
        )
    return table


def first_member(members: Any) -> str | None:
    """Return a team's first player, or None if the team is not a list of names."""
    if isinstance(members, list) and members and isinstance(members[0], str):
        return members[0]
    return None


def read_log(
    scorer: Scorer, table: Table, log: Any, scorer_side: str | None = None
) -> tuple[list[Record], list[Entry]]:
    """Replay the change log into the round records it leaves, refusing a change that cannot be."""
    if not isinstance(log, list):
        raise Refusal.at("log", _("The log must be a list of changes, oldest first."))
    records: list[Record] = []
    live: list[int] = []
    entries: list[Entry] = []
    abandoned = False
    for i, given in enumerate(log):
        with locating(f"log.{i}", _("change {n} of the log").format(n=i + 1)):
            action = given.get("action") if isinstance(given, dict) else None
            if action in ("abandon", "resume"):
                if abandoned == (action == "abandon"):
                    raise Refusal.at("action", _("It abandons or takes back a match twice."))
                abandoned = action == "abandon"
                entry = Entry(action, 0, None, None, None, read_moment(given.get("at"), "at"))
                entry.device = read_device(given)
            elif abandoned:
                raise Refusal.at(
                    "action", _("The match was abandoned then: nothing could be changed in it.")
                )
            elif action in (*verdicts.SAYING, "accept"):
                entry = read_saying(table, live, scorer_side, given)
            else:
                entry = apply_change(scorer, table, records, live, given)
            check_same(entry.document(), unchained(given))
        entries.append(entry)
    return records, entries


@dataclass(frozen=True)
class Check:
    """What checking a result file found: whether it is what was scored and, if not, the
    first change of its log that differs and why; whether this Tablescore keeps its match,
    and how many changes were made to it since the file was exported."""

    valid: bool
    first_bad_change: int | None = None
    reason: str | None = None
    kept_here: bool = False
    changes_since: int | None = None


def verify(db: Database, document: Any) -> Check:
    """Check a match document as exported: its chain unbroken, its head its last change's
    hash, every number what its log replays to, and, where this Tablescore keeps the match,
    everything else as kept here."""
    log = document.get("log") if isinstance(document, dict) else None
    if not isinstance(log, list) or not isinstance(document.get("log_head"), str):
        return Check(
            False,
            reason=_(
                "This file carries no chained log: it is not a Tablescore match export, or it "
                "was exported before results could be checked."
            ),
        )
    bad = storage.chain.first_broken(log)
    if bad is not None:
        return Check(False, bad, changed_since_scored(bad))
    if document["log_head"] != storage.chain.head(log):
        return Check(False, reason=_("Its log was cut short: the last changes scored are missing."))
    try:
        read_match(document)
    except Refusal as refusal:
        return Check(False, reason=refusal.message)
    here = storage.stored_under(db, document["uid"])
    if here is None or here[1] is not None:
        return Check(True)
    return against_kept(document, as_json(export_match(db, here[0])))


def changed_since_scored(index: int) -> str:
    """Say which change of a file is not what was scored."""
    return _(
        "Change {n} is not what was scored: it was edited, or a change before it was taken "
        "out or slipped in."
    ).format(n=index + 1)


def against_kept(document: dict[str, Any], kept: dict[str, Any]) -> Check:
    """Compare a checked document with the export of the match kept here: its log must be the
    kept log or its beginning (an export made before the latest changes), and, but for what
    the log replays to (said in the language it was exported in), the rest as kept."""
    log, kept_log = document["log"], kept["log"]
    for i, change in enumerate(log):
        if i >= len(kept_log) or change != kept_log[i]:
            return Check(False, i, changed_since_scored(i), kept_here=True)
    later = len(kept_log) - len(log)
    # A later export's round records, note and place may have moved on with its log.
    compared = ("uid", "game", "options", "players", "teams", "created_at")
    if not later:
        compared = tuple(key for key in kept if key not in (*DERIVED, "log", "log_head"))
    for key in compared:
        if document.get(key) != kept.get(key):
            return Check(
                False,
                reason=_("Its {field} is not as the match kept here says.").format(field=key),
                kept_here=True,
            )
    return Check(True, kept_here=True, changes_since=later)


def unchained(given: Any) -> Any:
    """Return a logged change without its hash, which `check_chain` checked."""
    if not isinstance(given, dict):
        return given
    return {key: value for key, value in given.items() if key != "hash"}


def read_saying(
    table: Table, live: list[int], scorer_side: str | None, given: dict[str, Any]
) -> Entry:
    """Read what a side said of a round (confirm, contest) or an organiser's acceptance."""
    if scorer_side is None:
        raise Refusal.at(
            "action", _("The match was started without confirm: no side confirms its rounds.")
        )
    action, at, device = given["action"], read_moment(given.get("at"), "at"), read_device(given)
    if action == "accept":
        return Entry(action, 0, None, None, None, at, device)
    n, said = given.get("n"), given.get("input")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(live):
        raise Refusal.at(
            "n", _("There is no round {n}: {count} are played.").format(n=repr(n), count=len(live))
        )
    others = [side for side in verdicts.sides_of(table) if side != scorer_side]
    if not isinstance(said, dict) or said.get("side") not in others:
        raise Refusal.at(
            "input.side",
            _("The side that confirms or contests is one of {sides}.").format(
                sides=", ".join(others)
            ),
        )
    words = {"side": said["side"]}
    if action == "contest":
        with locating("input"):
            words["reason"] = verdicts.read_reason(said.get("reason"))
    return Entry(action, n, live[n - 1], words, None, at, device)


def apply_change(
    scorer: Scorer, table: Table, records: list[Record], live: list[int], given: Any
) -> Entry:
    """Make one logged change to the records as Tablescore made it, and return that change."""
    if not isinstance(given, dict):
        raise Refusal(_("It must be an object with action, n, input, replaced, at and round_ref."))
    action, n, at = given.get("action"), given.get("n"), read_moment(given.get("at"), "at")
    device = read_device(given)
    if action == "add":
        entered = read_input(scorer, table, given)
        records.append(Record(entered, at))
        live.append(len(records) - 1)
        return Entry(action, len(live), len(records) - 1, entered, None, at, device)
    if action == "restore":
        return restore_record(records, live, given.get("round_ref"), at, device)
    if action == "details":
        entered = matches.read_details(given.get("input"))
        return Entry(action, 0, None, entered, given.get("replaced"), at, device)
    if action not in ("correct", "remove", "note"):
        raise Refusal.at(
            "action", _("The action must be add, correct, remove, restore, note or details.")
        )
    if not isinstance(n, int) or not 1 <= n <= len(live):
        missing = (
            _("There is no round {n} to correct: {count} are played.")
            if action == "correct"
            else _("There is no round {n} to remove: {count} are played.")
        )
        raise Refusal.at("n", missing.format(n=repr(n), count=len(live)))
    record = records[live[n - 1]]
    if action == "note":
        given_note = given.get("input")
        if not isinstance(given_note, dict) or set(given_note) != {"note"}:
            raise Refusal.at("input", _('A note change is {"note": text or null}.'))
        note = matches.read_note(given_note["note"], "input.note", matches.MAX_ROUND_NOTE)
        entry = Entry(action, n, live[n - 1], {"note": note}, {"note": record.note}, at, device)
        record.note = note
        return entry
    entry = Entry(action, n, live[n - 1], None, record.input, at, device)
    if action == "correct":
        entry.entered = record.input = read_input(scorer, table, given)
        record.corrected_at = at
    else:
        record.removed_at = at
        live.pop(n - 1)
    return entry


def read_device(given: dict[str, Any]) -> str | None:
    """Read the label of the phone that made a logged change, checked as a name is."""
    device = given.get("device")
    if device is not None and not isinstance(device, str):
        raise Refusal.at("device", _("The device is the label of a phone, or null."))
    # A phone's label follows the rules of names wherever it comes from.
    return None if device is None else checked_name(device, "device", DEVICE)


def restore_record(
    records: list[Record], live: list[int], ref: Any, at: str, device: str | None
) -> Entry:
    """Put a removed record back among the rounds that count, where it was entered."""
    if not isinstance(ref, int) or not 0 <= ref < len(records) or ref in live:
        raise Refusal.at("round_ref", _("Only a removed round can be restored."))
    record = records[ref]
    record.removed_at = None
    live.append(ref)
    live.sort()
    return Entry("restore", live.index(ref) + 1, ref, record.input, None, at, device)


def read_input(scorer: Scorer, table: Table, given: dict[str, Any]) -> dict[str, Any]:
    """Check a logged round input as the game checks a round sent to it."""
    with locating("input"):
        return scorer.read_round(table, given.get("input"))


def check_same(expected: dict[str, Any], given: Any) -> None:
    """Refuse `given` unless it is exactly `expected`, naming the first field that differs."""
    if not isinstance(given, dict):
        raise Refusal(_("It must be an object, as Tablescore exports it."))
    for key in [*expected, *given]:
        if expected.get(key) != given.get(key):
            raise Refusal.at(
                key,
                _("Its {field} should be {value}.").format(
                    field=key, value=json.dumps(expected.get(key))
                ),
            )


def check_records(records: list[Record], given: Any) -> None:
    """Refuse round records other than those the log leaves."""
    if not isinstance(given, list) or len(given) != len(records):
        raise Refusal.at(
            "round_records",
            _("The log enters {count} rounds: round_records lists each of them, in order.").format(
                count=len(records)
            ),
        )
    for ref, record in enumerate(records):
        with locating(f"round_records.{ref}", _("round record {ref}").format(ref=ref)):
            check_same(record.document(ref), given[ref])


def replay_records(scorer: Scorer, table: Table, records: list[Record]) -> Replay:
    """Replay the rounds that count through the game's scorer, refusing any it cannot score."""
    inputs = [record.input for record in records if record.removed_at is None]
    try:
        replay = scorer.replay(table, inputs)
    except RoundImpossible as impossible:
        raise Refusal.at(
            "log",
            _("Round {n} cannot be scored: {reason}").format(
                n=impossible.n, reason=impossible.refusal.message
            ),
        ) from None
    if replay.ended_after is not None and replay.ended_after < len(inputs):
        raise Refusal.at(
            "log",
            _("The match ends after round {n}, yet more rounds follow.").format(
                n=replay.ended_after
            ),
        )
    return replay


def check_numbers(replay: Replay, document: dict[str, Any]) -> None:
    """Refuse a document whose scores or results its own rounds do not replay to."""
    shown = document.get("rounds")
    if not isinstance(shown, list) or len(shown) != len(replay.rounds):
        raise Refusal.at(
            "rounds",
            _(
                "This document was tampered with: its log leaves {count} rounds. "
                "Export it again from the Tablescore it came from."
            ).format(count=len(replay.rounds)),
        )
    for n, (result, given) in enumerate(zip(replay.rounds, shown, strict=True), start=1):
        for key in ("scores", "totals"):
            said = given.get(key) if isinstance(given, dict) else None
            if said != getattr(result, key):
                raise Refusal.at(
                    f"rounds.{n - 1}.{key}",
                    _(
                        "This document was tampered with: round {n} replays to {field} "
                        "{replayed}, but the document says {said}. Export it again from the "
                        "Tablescore it came from."
                    ).format(
                        n=n,
                        field=key,
                        replayed=json.dumps(getattr(result, key)),
                        said=json.dumps(said),
                    ),
                )
    for key in ("totals", "status", "winner"):
        if document.get(key) != getattr(replay, key):
            raise Refusal.at(
                key,
                _(
                    "This document was tampered with: its rounds replay to {field} {replayed}, "
                    "but the document says {said}. Export it again from the Tablescore it came "
                    "from."
                ).format(
                    field=key,
                    replayed=json.dumps(getattr(replay, key)),
                    said=json.dumps(document.get(key)),
                ),
            )


def store_match(
    db: Database,
    match: Incoming,
    import_id: int | None,
    event: tuple[int, int, int] | None = None,
) -> int:
    """Store a checked match of an import with its history as it was kept, and cache its
    replay; a match of an event comes in at its event, round and table (`event`)."""
    match_id = storage.insert_match(
        db,
        uid=match.uid,
        game=match.scorer.id,
        options=dict(match.table.options),
        variant=match.scorer.variant_key(match.table.options),
        players=match.table.players,
        teams=match.table.teams,
        totals=match.replay.totals,
        at=match.created_at,
        import_id=import_id,
        event=event,
        scorer_side=match.scorer_side,
    )
    round_ids = []
    corrections = Counter(entry.ref for entry in match.log if entry.action == "correct")
    for ref, record in enumerate(match.records):
        # Stored the way it happened: entered, then corrected, then removed.
        round_id = storage.insert_round(db, match_id, record.input, record.entered_at)
        if record.corrected_at:
            storage.replace_round(db, round_id, record.input, record.corrected_at)
        if record.removed_at:
            storage.mark_removed(db, round_id, record.removed_at)
        storage.set_round_as_exported(db, round_id, 1 + corrections[ref], record.note)
        round_ids.append(round_id)
    storage.set_details(db, match_id, match.details)
    for entry in match.log:
        change = storage.Change(
            entry.action,
            entry.n,
            None if entry.ref is None else round_ids[entry.ref],
            entry.entered,
            entry.replaced,
            entry.at,
            entry.device,
        )
        storage.log_change(db, match_id, change)
    storage.cache_result(
        db,
        match_id,
        totals=match.replay.totals,
        status=match.replay.status,
        winner=match.replay.winner,
        rounds_played=len(match.replay.rounds),
        at=match.log[-1].at if match.log else match.created_at,
    )
    if match.abandoned_at is not None:
        storage.set_abandoned(db, match_id, match.abandoned_at)
    return match_id
