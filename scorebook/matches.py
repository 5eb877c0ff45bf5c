"""Matches as the list of rounds the table entered, replayed through their game's scorer.

Both doors, the phone pages and the JSON API, change matches only through these functions, so
a refused change is refused the same way everywhere and leaves the database as it was.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from scorebook import access, storage, verdicts
from scorebook.storage import Database, MatchRecord, Round, StoredMatch
from scorebook.verdicts import Verdicts
from scorers import GAMES, Refusal, Replay, RoundImpossible, Scorer, Table, Unfit, words
from scorers.base import FINISHED, PLAYING, RoundResult
from scorers.refusal import Problems
from scorers.seating import check_plain
from scorers.words import _

ABANDONED = "abandoned"
"""The history's filter for abandoned matches: whatever their rounds say, they count for
nobody."""


class NotFound(storage.NotFound):
    """No such match or round, said in the reader's words (storage's own NotFound, translated)."""


class Conflict(Exception):
    """The change does not fit the match as it stands (over, or a later round would break)."""


class Stale(Exception):
    """The round a phone asked to change is no longer the one it saw (If-Match failed)."""


@dataclass(frozen=True)
class Seen:
    """The round a phone saw and means to change: its stable id and its version."""

    round_id: int
    version: int


@dataclass
class Match:
    """A stored match with the state its rounds replay to."""

    id: int
    uid: str
    scorer: Scorer
    table: Table
    created_utc: str
    rounds: list[Round]
    replay: Replay
    scorer_token: str | None = None
    """The token a new match was started with: shown once, to the phone that started it."""
    recorded: int | None = None
    """The number of the round a change recorded or corrected."""
    version: int = 0
    """How many changes the match has had: it grows with every one."""
    removed: list[Round] = field(default_factory=list)
    """The rounds taken out and not put back, oldest removal first (numbered where they stood
    when removed)."""
    rematch_of: int | None = None
    """The match this one plays again, if it is a rematch."""
    rematched_by: int | None = None
    """The match started to play this one again, if any."""
    event: dict[str, int] | None = None
    """The event, round and table this match is played at, if it is an event's."""
    details: dict[str, str | None] = field(default_factory=dict)
    """Its note, place and the moment it was played (storage.DETAILS)."""
    abandoned_utc: str | None = None
    """When its table abandoned it, while it stays abandoned: then it counts for nobody."""
    scorer_side: str | None = None
    """The side its scoring phone plays for, when every side confirms the rounds."""
    confirmations: Verdicts | None = None
    """What each side said of each round, when every side confirms them."""
    log_head: str = ""
    """The hash of its log's last change: what a printed sheet or an export is checked by."""

    @property
    def title(self) -> str:
        """The game's name as this match's table calls it (Coinche, for coinche)."""
        return self.scorer.title(self.table.options)

    def scored_rounds(self) -> list[tuple[Round, RoundResult]]:
        """Pair each round as entered with what it scored."""
        return list(zip(self.rounds, self.replay.rounds, strict=True))

    def state_before(self, n: int) -> dict[str, Any]:
        """Return the game's state just before round n was played."""
        return self.scorer.replay(self.table, [r.input for r in self.rounds[: n - 1]]).state

    def round(self, n: int) -> Round:
        """Return round n (1-based) or raise NotFound."""
        return find_round(self.rounds, n)


def find_round(rounds: Sequence[Round], n: int) -> Round:
    """Return round n (1-based) of the rounds that count, or raise NotFound."""
    if not 1 <= n <= len(rounds):
        raise NotFound(
            _("This match has no round {n}; it has {count}.").format(n=n, count=len(rounds))
        )
    return rounds[n - 1]


def find_scorer(game: Any) -> Scorer:
    """Return the scorer of a game id, refusing an unknown one."""
    if not isinstance(game, str) or game not in GAMES:
        raise Refusal.at("game", _("Choose a game: {games}.").format(games=", ".join(GAMES)))
    return GAMES[game]


def start(
    db: Database,
    data: Any,
    device: str | None = None,
    key: str | None = None,
    rematch_of: int | None = None,
) -> Match:
    """Check and store a new match, and give the phone that started it its scorer token.

    A start sent again with the same key (a double tap) starts nothing more: it answers the
    match the first one started, with a new token for this phone (tokens are never kept).
    """
    if not isinstance(data, dict):
        raise Refusal(_("A match must be an object with game, players and options."))
    scorer = find_scorer(data.get("game"))
    asked = fingerprint("start", None, data)
    uid = read_uid(data.get("uid"))
    game_data, choice = verdicts.take_choice({k: v for k, v in data.items() if k != "uid"})
    with storage.writing(db):
        done = storage.started_with(db, key) if key else None
        if done is not None:
            match_id, first = done
            if first != asked:
                raise Conflict(
                    _(
                        "This Idempotency-Key already started another match; nothing was "
                        "started. Send this match with a new key."
                    )
                )
        else:
            table = scorer.read_table(game_data)
            scorer_side = verdicts.read_choice(choice, table)
            refuse_stored(db, uid)
            match_id = insert(db, scorer, table, rematch_of, scorer_side=scorer_side, uid=uid)
            if key:
                storage.remember_start(db, key, asked, match_id, storage.now_utc())
        token = access.issue(db, match_id, device or _("the phone that started it"))
    match = load(db, match_id)
    match.scorer_token = token
    return match


UID = re.compile(r"[0-9a-f]{32}")
"""A match's uid as a phone that started it alone names it: 32 lowercase hexadecimal digits."""


def read_uid(given: Any) -> str | None:
    """Read the uid a phone gave a match it started while the server was out of reach.

    :raises Refusal: when it is not 32 lowercase hexadecimal digits.
    """
    if given is None:
        return None
    if not isinstance(given, str) or not UID.fullmatch(given):
        raise Refusal.at("uid", _("A match's uid is 32 lowercase hexadecimal digits."))
    return given


def refuse_stored(db: Database, uid: str | None) -> None:
    """Refuse to start a match under a uid already stored here: it is another match.

    :raises Conflict: naming the match stored under it.
    """
    found = storage.stored_under(db, uid) if uid else None
    if found is not None:
        raise Conflict(
            _(
                "A match with this uid is already here (#{id}); nothing was started. Send "
                "this one without its uid, or open that one."
            ).format(id=found[0])
        )


def insert(
    db: Database,
    scorer: Scorer,
    table: Table,
    rematch_of: int | None = None,
    event: tuple[int, int, int] | None = None,
    scorer_side: str | None = None,
    uid: str | None = None,
) -> int:
    """Store a new match at a checked table, inside the caller's change; return its id.
    With `scorer_side`, every side confirms its rounds, the scoring phone for that side;
    `uid`, the one a phone gave it (a new one otherwise)."""
    return storage.insert_match(
        db,
        uid=uid or uuid.uuid4().hex,
        game=scorer.id,
        options=dict(table.options),
        variant=scorer.variant_key(table.options),
        players=table.players,
        teams=table.teams,
        totals=scorer.replay(table, []).totals,
        at=storage.now_utc(),
        rematch_of=rematch_of,
        event=event,
        scorer_side=scorer_side,
    )


SEATINGS = ("same", "rotate")
"""How a rematch seats the table: as before, or each one seat further round."""


def rematch(db: Database, match_id: int, seating: Any = "same", device: str | None = None) -> Match:
    """Start the same game again with the same table and options, seated as asked.

    A match is played again once: asking again answers the rematch already started.
    """
    if seating not in SEATINGS:
        raise Refusal.at(
            "seating",
            _("Seating is {same} or {rotate}.").format(same=repr("same"), rotate=repr("rotate")),
        )
    old = load(db, match_id)
    if old.replay.status != FINISHED:
        raise Conflict(_("This match is still being played: finish it before playing again."))
    already = storage.rematched_by(db, match_id)
    if already is not None:
        again = load(db, already)
        with storage.writing(db):
            again.scorer_token = access.issue(db, already, device or _("the phone that started it"))
        return again
    # Two phones asking at once start one rematch between them.
    key = f"rematch of {match_id}"
    return start(db, plan_rematch(old, seating), device, key=key, rematch_of=match_id)


def plan_rematch(old: Match, seating: str) -> dict[str, Any]:
    """Write the start of a rematch: the same game, options and table, seated as asked."""
    turn = 1 if seating == "rotate" else 0
    players = list(old.table.players)
    players = players[turn:] + players[:turn]
    options = dict(old.table.options)
    known = {option.name for option in old.scorer.options}
    # The deal goes on round the table: whoever would deal next deals first.
    if "first_dealer" in known and old.replay.state.get("dealer") in players:
        options["first_dealer"] = old.replay.state["dealer"]
    options |= verdicts.shown_choice(old.scorer_side)
    data: dict[str, Any] = {"game": old.scorer.id, "options": options}
    if old.table.teams is None:
        data["players"] = players
    else:
        # Partners alternate round the table: each team lists its players in their new seats.
        teams: dict[str, list[str]] = {}
        for player in players:
            teams.setdefault(old.table.team_of(player), []).append(player)
        data["teams"] = teams
    return data


LARGEST_ID = 2**63 - 1
"""The largest integer either engine keeps (SQLite's INTEGER, PostgreSQL's bigint): no match or
page lies beyond it."""


def read_record(db: Database, match_id: int) -> MatchRecord:
    """Read a match's row (no rounds, no replay), or raise NotFound."""
    found = storage.read_record(db, match_id) if 0 < match_id <= LARGEST_ID else None
    if found is None:
        raise no_such_match(match_id)
    return found


def read_stored(db: Database, match_id: int) -> StoredMatch:
    """Read a match's row and rounds, without replaying them, or raise NotFound."""
    found = storage.read_match(db, match_id) if 0 < match_id <= LARGEST_ID else None
    if found is None:
        raise no_such_match(match_id)
    return found


def no_such_match(match_id: int) -> NotFound:
    """Say that no match has this id (404)."""
    return NotFound(_("There is no match {match_id}.").format(match_id=match_id))


def read_standing(db: Database, match_id: int) -> tuple[StoredMatch, Replay | None]:
    """Read a match as it stands, as `read_stored` does, with its replay if a phone read this
    version lately: then its rounds come from that replay's match, and only a new round needs
    scoring (`Scorer.advance`)."""
    stamp = storage.match_stamp(db, match_id)
    kept = None if stamp is None else REPLAYED.get(replay_key(db, match_id, stamp))
    if kept is None:
        return read_stored(db, match_id), None
    record = read_record(db, match_id)
    # The row holds the last replay's count and totals: a kept replay that disagrees is not
    # trusted, and the rounds are read and scored again.
    if (record.rounds_played, record.totals) != (len(kept.rounds), kept.replay.totals):
        return read_stored(db, match_id), None
    return StoredMatch(record, list(kept.rounds), list(kept.removed)), kept.replay


def seat_table(record: MatchRecord) -> Table:
    """Seat a stored match's table as its scorer reads it."""
    return Table(record.players, record.options, record.teams)


def score(stored: StoredMatch, replay: Replay | None = None) -> Match:
    """Pair a stored match with its replay: the one given, or its rounds replayed now."""
    record = stored.record
    scorer, table = GAMES[record.game], seat_table(record)
    if replay is None:
        replay = scorer.replay(table, [r.input for r in stored.rounds])
    return Match(
        record.id,
        record.uid,
        scorer,
        table,
        record.created_utc,
        stored.rounds,
        replay,
        removed=stored.removed,
        rematch_of=record.rematch_of,
        event=record.event,
        details=dict(record.details),
        abandoned_utc=record.abandoned_utc,
        scorer_side=record.scorer_side,
    )


def read_said(db: Database, match: Match) -> Match:
    """Give a match its log's head and, if its sides confirm its rounds, what each side said
    of them."""
    match.log_head = storage.log_head(db, match.id)
    if match.scorer_side is not None:
        said = storage.sayings(db, [match.id], verdicts.READ)
        rounds = [r.id for r in match.rounds]
        sides = verdicts.sides_of(match.table)
        match.confirmations = verdicts.read_verdicts(match.scorer_side, sides, rounds, said)
    return match


class Replayed:
    """The matches replayed lately, by database file, match, latest change and language.

    The scoring phone after each round, the live view every few seconds and every phone
    watching ask for the same replay again and again; a change, being logged, makes a new key.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[Hashable, Match] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> Match | None:
        """Return the match replayed under this key, if it is still kept."""
        with self.lock:
            found = self.kept.get(key)
            if found is not None:
                self.kept.move_to_end(key)
            return found

    def keep(self, key: Hashable, match: Match, replacing: Hashable | None = None) -> None:
        """Keep a replay, forgetting the one it replaces (no phone asks for an old version
        again) and, when full, the one used least lately."""
        with self.lock:
            self.kept.pop(replacing, None)
            self.kept[key] = match
            if len(self.kept) > self.size:
                self.kept.popitem(last=False)


REPLAYED = Replayed(size=64)


def replay_key(db: Database, match_id: int, stamp: tuple[str, int]) -> Hashable:
    """Name a match's replay in REPLAYED: its file and circle, the match, its uid and version
    (`stamp`), the language. Another circle's phone never finds this circle's replay, nor a
    new match the id of a deleted one."""
    return (storage.path_of(db), storage.circle_of(db), match_id, *stamp, words.speaking.get())


def load(db: Database, match_id: int) -> Match:
    """Read a match and replay its rounds, or reuse the replay of the state it is in."""
    if not 0 < match_id <= LARGEST_ID:
        raise no_such_match(match_id)
    with storage.reading(db):
        # One snapshot: the version it is kept under is the version of the rounds read.
        stamp = storage.match_stamp(db, match_id)
        if stamp is None:
            raise no_such_match(match_id)
        key = replay_key(db, match_id, stamp)
        found = REPLAYED.get(key)
        if found is None:
            found = read_said(db, score(read_stored(db, match_id)))
            found.version = stamp[1]
            REPLAYED.keep(key, found)
    # The caller's own Match (what it records or hands out stays its own); rounds and replay
    # are shared and only read. A rematch is another match's change, so it is read anew.
    return replace(found, rematched_by=storage.rematched_by(db, match_id))


# Each change replays the match once: the rounds as they will be stored, checked before any
# write. The cached status on the row says whether the match is over without a replay.


def fingerprint(action: str, n: int | None, data: Any) -> str:
    """Say what a request asks, as a digest: a key sent again must ask the same."""
    asked = json.dumps([action, n, data], sort_keys=True, default=str)
    return hashlib.sha256(asked.encode()).hexdigest()


def recall(
    db: Database, match_id: int, key: str | None, action: str, asked: str
) -> storage.Request | None:
    """Return the change this key already made, refusing a key sent with another request."""
    done = storage.replayed_request(db, match_id, key) if key else None
    if (
        done is not None
        and done.fingerprint is not None
        and (done.action, done.fingerprint) != (action, asked)
    ):
        raise Conflict(
            _(
                "This Idempotency-Key was already used for another change to this match; "
                "nothing was changed. Send this change with a new key."
            )
        )
    return done


def check_seen(scorer: Scorer, rounds: Sequence[Round], n: int, seen: Seen | None) -> Round:
    """Return round n, refusing the change if it is not the round, or the version, it saw."""
    current = find_round(rounds, n)
    if seen is not None and (current.id, current.version) != (seen.round_id, seen.version):
        raise Stale(
            _(
                "{round} {n} changed since this phone read it (another phone corrected or "
                "removed a round); nothing was changed. Reload the match and try again."
            ).format(round=scorer.round_name, n=n)
        )
    return current


@dataclass(frozen=True)
class Asked:
    """A change to a match's rounds as a phone asked for it."""

    action: str
    """add, correct, remove or restore: its word in the change log."""
    n: int | None
    """The round it names, for a correction or a removal."""
    data: Any
    """The round as sent, for a new round or a correction."""
    device: str | None
    """The label of the phone asking."""
    key: str | None = None
    """Its idempotency key: sent again, the request changes nothing more."""


@dataclass(frozen=True)
class Edit:
    """A change to a match's rounds, checked against the match as it stands, not yet stored."""

    n: int
    """The number of the round it changes, as its entry in the log says."""
    inputs: list[dict[str, Any]]
    """Every round that counts once it is made, as entered: what the replay scores."""
    store: Callable[[str], tuple[int, list[Round]]]
    """Write it at the moment given; return the id of the round it changes and the rounds that
    count then."""
    changed: int | None = None
    """The round whose refusal is this change's own; a later round it breaks is a conflict."""
    entered: dict[str, Any] | None = None
    """The round as this change enters it, for the log."""
    replaced: dict[str, Any] | None = None
    """The round as it stood before, for the log."""


def change_rounds(
    db: Database,
    match_id: int,
    asked: Asked,
    edit: Callable[[StoredMatch, Scorer, Table], Edit],
    recorded: Callable[[list[Round], storage.Request], int | None] | None = None,
    advance: bool = False,
) -> Match:
    """Make one change to a match's rounds: under the write lock, once per idempotency key,
    replayed before anything is written, then logged and its result cached on the row.

    `edit` checks the change against the match as it stands and says what to store;
    `recorded` names the round a request sent again recorded; a new round (`advance`) is
    scored on the kept replay when there is one.
    """
    with storage.writing(db):
        if advance:
            found, after = read_standing(db, match_id)
        else:
            found, after = read_stored(db, match_id), None
        digest = fingerprint(asked.action, asked.n, asked.data)
        done = recall(db, match_id, asked.key, asked.action, digest)
        if done is not None:
            match = score(found)
            match.recorded = None if recorded is None else recorded(found.rounds, done)
            return read_extras(db, match)
        scorer, table = GAMES[found.record.game], seat_table(found.record)
        planned = edit(found, scorer, table)
        replay = check_replay(scorer, table, planned.inputs, planned.changed, after)
        at = storage.now_utc()
        round_id, rounds = planned.store(at)
        if asked.key:
            made = storage.Request(asked.action, digest, round_id)
            storage.remember_request(db, match_id, asked.key, made, at)
        change = storage.Change(
            asked.action, planned.n, round_id, planned.entered, planned.replaced, at, asked.device
        )
        return record_change(db, score(replace(found, rounds=rounds), replay), change)


def renumber(rounds: Iterable[Round]) -> list[Round]:
    """Number rounds by their place among the rounds that count."""
    return [replace(r, n=i) for i, r in enumerate(rounds, 1)]


def add_round(
    db: Database,
    match_id: int,
    data: Any,
    device: str | None = None,
    key: str | None = None,
    expected: int | None = None,
) -> Match:
    """Record the next round, unless the match is over or this request was already made.

    `expected` is the number the round was entered as: a form left open while the match moved
    on (Back, another phone) is refused instead of recording the round in the wrong place.
    """

    def edit(found: StoredMatch, scorer: Scorer, table: Table) -> Edit:
        refuse_closed(db, found.record)
        if found.record.status == FINISHED:
            raise Conflict(scorer.say_over(score(found).replay))
        n = len(found.rounds) + 1
        if expected is not None and expected != n:
            raise Conflict(
                _(
                    "This form was for {round} {expected}, but the match is at {round} {n} "
                    "now (another phone, or a page left open); nothing was recorded. Check "
                    "the sheet, then record this {round} again if it is still missing."
                ).format(round=scorer.round_word, expected=expected, n=n)
            )
        entered = scorer.read_round(table, data)

        def store(at: str) -> tuple[int, list[Round]]:
            round_id = storage.insert_round(db, match_id, entered, at)
            return round_id, [*found.rounds, Round(round_id, n, entered, at, None)]

        inputs = [*(r.input for r in found.rounds), entered]
        return Edit(n, inputs, store, changed=n, entered=entered)

    asked = Asked("add", None, data, device, key)
    match = change_rounds(db, match_id, asked, edit, recorded_again, advance=True)
    # Kept once stored: the next round, and every phone reading this one, start from it.
    REPLAYED.keep(
        replay_key(db, match_id, (match.uid, match.version)),
        replace(match, recorded=None),
        replacing=replay_key(db, match_id, (match.uid, match.version - 1)),
    )
    return match


def recorded_again(rounds: list[Round], done: storage.Request) -> int:
    """Return the number of the round a new round's request sent again recorded, refusing it
    if that round was removed since."""
    n = next((r.n for r in rounds if r.id == done.round_id), None)
    if n is None:
        raise Conflict(
            _(
                "The round this request recorded was removed since; nothing was "
                "changed. Restore it from the sheet, or send it again with a new key."
            )
        )
    return n


def oddities(match: Match, data: Any, expected: int | None = None) -> list[str]:
    """Return the questions a new round raises, read and scored on the match as it stands;
    nothing is stored. A round that cannot be recorded as sent (refused, the match over or
    abandoned, a form for another round) raises none: recording it says why."""
    n = len(match.rounds) + 1
    if match.replay.status == FINISHED or match.abandoned_utc or expected not in (None, n):
        return []
    scorer, table = match.scorer, match.table
    try:
        entered = scorer.read_round(table, data)
        inputs = [*(r.input for r in match.rounds), entered]
        replay = check_replay(scorer, table, inputs, n, match.replay)
    except (Refusal, Conflict):
        return []
    return scorer.oddities_of(table, entered, replay.rounds[-1])


def unusual(match: Match, n: int) -> list[str]:
    """Return the questions round n raises, as it was scored in the match."""
    return match.scorer.oddities_of(match.table, match.round(n).input, match.replay.rounds[n - 1])


def correct_round(
    db: Database,
    match_id: int,
    n: int,
    data: Any,
    device: str | None = None,
    key: str | None = None,
    seen: Seen | None = None,
) -> Match:
    """Replace round n as entered; every later round is scored again."""

    def edit(found: StoredMatch, scorer: Scorer, table: Table) -> Edit:
        refuse_closed(db, found.record)
        old = check_seen(scorer, found.rounds, n, seen)
        entered = scorer.read_round(table, data)

        def store(at: str) -> tuple[int, list[Round]]:
            storage.replace_round(db, old.id, entered, at)
            rounds = list(found.rounds)
            rounds[n - 1] = replace(old, input=entered, corrected_utc=at, version=old.version + 1)
            return old.id, rounds

        inputs = [entered if r.n == n else r.input for r in found.rounds]
        return Edit(n, inputs, store, changed=n, entered=entered, replaced=old.input)

    asked = Asked("correct", n, data, device, key)
    return change_rounds(db, match_id, asked, edit, lambda _rounds, _done: n)


def remove_round(
    db: Database,
    match_id: int,
    n: int,
    device: str | None = None,
    key: str | None = None,
    seen: Seen | None = None,
) -> Match:
    """Take round n out of the match; every later round is scored again."""

    def edit(found: StoredMatch, scorer: Scorer, _table: Table) -> Edit:
        refuse_closed(db, found.record)
        old = check_seen(scorer, found.rounds, n, seen)
        rounds = renumber(r for r in found.rounds if r.n != n)

        def store(at: str) -> tuple[int, list[Round]]:
            storage.mark_removed(db, old.id, at)
            return old.id, rounds

        return Edit(n, [r.input for r in rounds], store, replaced=old.input)

    return change_rounds(db, match_id, Asked("remove", n, None, device, key), edit)


def restore_round(db: Database, match_id: int, round_id: int, device: str | None = None) -> Match:
    """Put a removed round back where it stood; every later round is scored again."""

    def edit(found: StoredMatch, _scorer: Scorer, _table: Table) -> Edit:
        back = next((r for r in found.removed if r.id == round_id), None)
        if back is None:
            raise NotFound(
                _("This match has no removed round {id} to restore.").format(id=round_id)
            )
        # Rounds count in the order they were entered, so it goes back where it stood.
        rounds = renumber(sorted([*found.rounds, back], key=lambda r: r.id))
        n = next(r.n for r in rounds if r.id == round_id)
        refuse_closed(db, found.record)

        def store(_at: str) -> tuple[int, list[Round]]:
            storage.mark_restored(db, round_id)
            return round_id, rounds

        return Edit(n, [r.input for r in rounds], store, changed=n, entered=back.input)

    return change_rounds(db, match_id, Asked("restore", None, None, device), edit)


MAX_NOTE, MAX_PLACE, MAX_ROUND_NOTE = 500, 100, 200


def edit_details(db: Database, match_id: int, data: Any, device: str | None = None) -> Match:
    """Change a match's note, place or the moment it was played; the change is logged."""
    values = read_details(data)
    with storage.writing(db):
        found = read_stored(db, match_id)
        refuse_closed(db, found.record)
        details = found.record.details
        before = {name: details[name] for name in values}
        storage.set_details(db, match_id, values)
        at = storage.now_utc()
        change = storage.Change("details", 0, None, values, before, at, device)
        storage.log_change(db, match_id, change)
        record = replace(found.record, details=details | values)
        return read_extras(db, score(replace(found, record=record)))


def read_details(data: Any) -> dict[str, str | None]:
    """Check a match's note, place and date as sent: each optional, none too long."""
    if not isinstance(data, dict) or not data or set(data) - set(storage.DETAILS):
        raise Refusal(
            _('Send any of "note", "place" and "played_at", like {"place": "Café du Port"}.')
        )
    values: dict[str, str | None] = {}
    problems = Problems()
    for name, most in (("note", MAX_NOTE), ("place", MAX_PLACE)):
        if name in data:
            with problems.collect():
                values[name] = read_note(data[name], name, most)
    if "played_at" in data:
        with problems.collect():
            values["played_at"] = read_moment(data["played_at"])
    problems.raise_any()
    return values


def read_note(given: Any, path: str, most: int) -> str | None:
    """Check a short text: trimmed, at most `most` characters, plain as a name is; empty or
    null takes it away."""
    if given is None:
        return None
    if not isinstance(given, str):
        raise Refusal.at(path, _("A note is a text, or null to take it away."))
    text = given.strip()
    if len(text) > most:
        raise Refusal.at(
            path,
            _("This has at most {most} characters; it has {count}.").format(
                most=most, count=len(text)
            ),
        )
    check_plain(text, path)
    return text or None


def read_moment(given: Any) -> str:
    """Check when a match was played: a day (2026-12-05) or a moment, kept in UTC as stored."""
    try:
        moment = datetime.fromisoformat(str(given).replace("Z", "+00:00"))
    except ValueError:
        raise Refusal.at(
            "played_at", _("Give the moment as 2026-12-05 or 2026-12-05T20:30:00Z.")
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        utc = moment.astimezone(UTC)
    except OverflowError:
        raise Refusal.at(
            "played_at",
            _("In UTC this moment falls outside the calendar (years 1 to 9999): give another."),
        ) from None
    # In four digits of year, as stored times sort and read back: strftime writes 0999 as 999.
    return utc.replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def note_round(db: Database, match_id: int, n: int, data: Any, device: str | None = None) -> Match:
    """Write, change or take away round n's note; the change is logged."""
    if not isinstance(data, dict) or "note" not in data:
        raise Refusal(_('Send the note as {"note": "misdeal, dealt again"}, or null.'))
    note = read_note(data["note"], "note", MAX_ROUND_NOTE)
    with storage.writing(db):
        found = read_stored(db, match_id)
        refuse_closed(db, found.record)
        old = find_round(found.rounds, n)
        storage.set_round_note(db, old.id, note)
        rounds = [replace(old, note=note) if r.n == n else r for r in found.rounds]
        at = storage.now_utc()
        change = storage.Change("note", n, old.id, {"note": note}, {"note": old.note}, at, device)
        storage.log_change(db, match_id, change)
        match = read_extras(db, score(replace(found, rounds=rounds)))
        match.recorded = n
        return match


def refuse_closed(db: Database, record: MatchRecord) -> None:
    """Refuse to change an abandoned match, or a match of an event round that is closed: its
    standings are final."""
    if record.abandoned_utc is not None:
        raise Conflict(
            _("This match was abandoned: take it back to change it; nothing was changed.")
        )
    event = record.event
    if event is not None and storage.is_round_closed(db, event["id"], event["round"]):
        raise Conflict(
            _(
                "Round {round} of this match's event is closed (the next round was drawn, or "
                "the event ended): its matches can no longer be changed; nothing was changed."
            ).format(round=event["round"])
        )


def abandon(db: Database, match_id: int, device: str | None = None) -> Match:
    """Abandon a match the table stopped playing (a test, a game left for the night): it
    stays in the history, marked, and counts in no statistic or rating until taken back.
    Asked again, it changes nothing more."""
    return mark_abandoned(db, match_id, True, device)


def take_back(db: Database, match_id: int, device: str | None = None) -> Match:
    """Take an abandoned match back: it counts again as its rounds say, and can be played on.
    Asked of a match not abandoned, it changes nothing."""
    return mark_abandoned(db, match_id, False, device)


def mark_abandoned(db: Database, match_id: int, abandoned: bool, device: str | None) -> Match:
    """Abandon a match or take it back, logged as a change of its own."""
    with storage.writing(db):
        found = read_stored(db, match_id)
        record = found.record
        if (record.abandoned_utc is not None) != abandoned:
            if record.event is not None:
                raise Conflict(
                    _(
                        "An event's match stays in its event's standings: its organiser "
                        "withdraws a team instead; nothing was changed."
                    )
                )
            at = storage.now_utc()
            storage.set_abandoned(db, match_id, at if abandoned else None)
            action = "abandon" if abandoned else "resume"
            storage.log_change(
                db, match_id, storage.Change(action, 0, None, None, None, at, device)
            )
            record = replace(record, abandoned_utc=at if abandoned else None)
        return read_extras(db, score(replace(found, record=record)))


def delete(db: Database, match_id: int) -> None:
    """Delete a match nothing was ever entered in (started by mistake, or to try the app);
    one with a round, a note or any change can only be abandoned, its log kept."""
    with storage.writing(db):
        record = read_record(db, match_id)
        if record.event is not None:
            raise Conflict(_("An event's match is its event's to keep: it cannot be deleted."))
        if storage.match_version(db, match_id):
            raise Conflict(
                _(
                    "Something was already entered in this match, and what a table entered "
                    "is never lost: abandon it instead, to keep it out of every statistic."
                )
            )
        storage.delete_match(db, match_id)


def check_replay(
    scorer: Scorer,
    table: Table,
    inputs: Sequence[Mapping[str, Any]],
    changed: int | None,
    after: Replay | None = None,
) -> Replay:
    """Replay candidate rounds, refusing a change that breaks this round or a later one.

    :raises Refusal: the changed round itself breaks a rule.
    :raises Conflict: the match can't take the change where it stands.
    """
    try:
        return scorer.replay_change(table, inputs, changed, after)
    except Unfit as unfit:
        raise Conflict(unfit.message) from None


def record_change(db: Database, match: Match, change: storage.Change) -> Match:
    """Log the change and cache the match's replay on its row, in the change's transaction."""
    replay = match.replay
    storage.log_change(db, match.id, change)
    storage.cache_result(
        db,
        match.id,
        totals=replay.totals,
        status=replay.status,
        winner=replay.winner,
        rounds_played=len(replay.rounds),
        at=change.at,
    )
    match.recorded = None if change.action == "remove" else change.n
    return read_extras(db, match)


def read_extras(db: Database, match: Match) -> Match:
    """Give a match read inside a change its version and its removed rounds."""
    match.version = storage.match_version(db, match.id)
    match.removed = storage.removed_rounds(db, match.id)
    return read_said(db, match)


def what_if(match: Match, changed: Mapping[str, str]) -> WhatIf:
    """Replay a match's rounds under other options, typed as text; nothing is stored."""
    known = {option.name: option for option in match.scorer.options}
    players, stored = match.table.players, match.table.options
    # A switch left to follow other options (coinche rounding) follows the changed ones too.
    options = {
        name: value
        for name, value in stored.items()
        if not (known[name].derived and value == known[name].default_for(players, stored))
    }
    for name, text in changed.items():
        if name not in known:
            raise Refusal.at(
                name,
                _("{game} has no option {option}.").format(
                    game=match.scorer.name, option=repr(name)
                ),
            )
        options[name] = known[name].parse(text)
    try:
        options = match.scorer.resolve_options(options, players)
    except Refusal as refusal:
        fields = {path.removeprefix("options."): said for path, said in refusal.fields.items()}
        raise Refusal(refusal.message, fields) from None
    table = Table(players, options, match.table.teams)
    inputs = []
    # Rounds are read again: other options may change what a round may say.
    for n, stored_round in enumerate(match.rounds, 1):
        try:
            inputs.append(match.scorer.read_round(table, stored_round.input))
        except Refusal as refused:
            raise cannot_replay(match.scorer, n, refused) from None
    try:
        replay = match.scorer.replay(table, inputs)
    except RoundImpossible as impossible:
        raise cannot_replay(match.scorer, impossible.n, impossible.refusal) from None
    except Refusal as refused:
        # A replay that refuses without naming its round stopped at the last one.
        raise cannot_replay(match.scorer, len(inputs), refused) from None
    return WhatIf(options, replay)


def cannot_replay(scorer: Scorer, n: int, refusal: Refusal) -> Refusal:
    """Say which round other options cannot score, and why, in the game's word for it."""
    return Refusal(
        _("Under these options {round} {n} could not be scored: {reason}").format(
            round=scorer.round_word, n=n, reason=refusal.message
        )
    )


@dataclass
class WhatIf:
    """A match replayed under other options: the options in force and what they lead to."""

    options: dict[str, Any]
    replay: Replay


def read_changes(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Return a match's change log, oldest first."""
    read_record(db, match_id)
    return storage.changes(db, match_id)


@dataclass
class Page:
    """One page of history: match rows from the cache, and where it stands in the whole list."""

    rows: list[dict[str, Any]]
    number: int
    total: int

    @property
    def count(self) -> int:
        """Return how many pages the whole list fills (at least one, even empty)."""
        return max(1, -(-self.total // storage.PAGE_SIZE))


def find(
    db: Database,
    *,
    game: Any = None,
    player: Any = None,
    status: Any = None,
    since: Any = None,
    until: Any = None,
    page: Any = 1,
    place: Any = None,
) -> Page:
    """Check history filters and return one page of matches, newest first.

    `since` and `until` are the `from` and `to` days (YYYY-MM-DD, UTC) the match was created in.
    """
    first, last = read_day(since, "from"), read_day(until, "to")
    if first and last and first > last:
        raise Refusal.at(
            "to",
            _("To ({until}) is before from ({since}): swap them.").format(until=last, since=first),
        )
    if game:
        find_scorer(game)
    if status and status not in (PLAYING, FINISHED, ABANDONED):
        raise Refusal.at(
            "status",
            _("Status is {playing}, {finished} or {abandoned}.").format(
                playing=PLAYING, finished=FINISHED, abandoned=ABANDONED
            ),
        )
    try:
        page = int(page or 1)
    except ValueError:
        page = 0
    if not 1 <= page <= LARGEST_ID // storage.PAGE_SIZE:
        raise Refusal.at("page", _("Page is a whole number from 1."))
    rows, total = storage.find_matches(
        db,
        game=game,
        player=player,
        status=status,
        since=first,
        until=last,
        page=page,
        place=place if isinstance(place, str) and place.strip() else None,
    )
    return Page(rows, page, total)


def read_day(text: Any, field: str) -> date | None:
    """Read a history filter's day, written YYYY-MM-DD; an empty one filters nothing."""
    if not text:
        return None
    try:
        read = date.fromisoformat(text)
    except (TypeError, ValueError):
        read = None
    # fromisoformat also takes 20240301 and 2024-W09-5; the filter promises one spelling.
    if read is None or read.isoformat() != text:
        said = (
            _("From is a day written YYYY-MM-DD, like 2024-03-01.")
            if field == "from"
            else _("To is a day written YYYY-MM-DD, like 2024-03-01.")
        )
        raise Refusal.at(field, said)
    return read
