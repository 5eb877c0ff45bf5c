"""Events: a club night or a tournament across tables, round by round.

An event keeps its entrants and each round's draw; every table plays an ordinary match that
knows its event, round and table. Standings are never stored: they are added up from the
matches' results each time they are read, so a correction moves them at once.
"""

from __future__ import annotations

import secrets
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from scorebook import access, matches, storage, verdicts
from scorebook.storage import Database
from scorers import GAMES, Refusal, Scorer, Table
from scorers.base import FINISHED, PLAYING, Replay, seats
from scorers.draw import Finished, Record, draw, meetings, ranked, tally
from scorers.refusal import Problems
from scorers.seating import PLAYER, TEAM, check_plain, checked_name
from scorers.words import _

MAX_EVENT_NAME = 80
MAX_PLACE = 100
MAX_ROUNDS = 30
MAX_ENTRANTS = 400


@dataclass
class Event:
    """An event as it stands: its row, entrants, draws, tables and standings."""

    row: dict[str, Any]
    scorer: Scorer
    entrants: list[dict[str, Any]]
    draws: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    """Every table's match row, by round and table."""
    standings: list[tuple[int, Record]]
    organiser_token: str | None = None
    """The organiser's token, given once, when the event is created."""
    said: dict[int, verdicts.Verdicts] = field(default_factory=dict)
    """By match, what the sides of each table said of its rounds, in an event whose sides
    confirm them."""

    @property
    def id(self) -> int:
        """The event's id, as its row holds it."""
        return self.row["id"]

    @property
    def title(self) -> str:
        """The game's name as the event's tables call it (Coinche, for coinche)."""
        return self.scorer.title(self.row["options"])

    @property
    def drawn(self) -> int:
        """How many rounds are drawn so far."""
        return len(self.draws)

    @property
    def status(self) -> str:
        """Finished once closed, or once every round is drawn and every table has finished."""
        if self.row["closed_utc"] is not None:
            return FINISHED
        every_round = self.drawn == self.row["rounds"]
        return FINISHED if every_round and not self.playing(self.drawn) else PLAYING

    def playing(self, n: int) -> list[dict[str, Any]]:
        """The tables of round n still playing."""
        return [t for t in self.tables if t["event_round"] == n and t["status"] != FINISHED]

    def counts(self, table: dict[str, Any]) -> bool:
        """Say whether a table's result counts in the standings: its match is finished and,
        where every side confirms, settled or accepted by the organiser."""
        if table["status"] != FINISHED:
            return False
        said = self.said.get(table["id"])
        return said is None or said.settled or said.accepted

    def waiting(self, n: int) -> list[dict[str, Any]]:
        """The tables of round n finished but waiting for their sides to confirm."""
        return [
            t
            for t in self.tables
            if t["event_round"] == n and t["status"] == FINISHED and not self.counts(t)
        ]

    def contested(self) -> list[tuple[dict[str, Any], int, dict[str, Any]]]:
        """Every contested round of the event: its table, its number and the contest."""
        found = []
        for table in self.tables:
            said = self.said.get(table["id"])
            if said is None:
                continue
            for n, round_id in enumerate(said.by_round, 1):
                contest = said.by_round[round_id].contest
                if contest is not None:
                    found.append((table, n, contest))
        return found

    def round_tables(self, n: int) -> list[dict[str, Any]]:
        """The tables of round n, in order."""
        return [t for t in self.tables if t["event_round"] == n]

    def entrant_list(self) -> list[dict[str, Any]]:
        """The entrants as the API and the export list them."""
        return [
            {
                "name": entrant["name"],
                "players": entrant["members"],
                "joined_round": entrant["joined_round"],
                "withdrawn_round": entrant["withdrawn_round"],
            }
            for entrant in self.entrants
        ]

    @property
    def winner(self) -> str | None:
        """The entrant alone at the top once the event is finished."""
        if self.status != FINISHED or not self.standings:
            return None
        first = [record for rank, record in self.standings if rank == 1]
        return first[0].entrant if len(first) == 1 else None


def shown_options(row: dict[str, Any]) -> dict[str, Any]:
    """Return an event's options as its documents show them: with confirm, when every side
    of every table confirms its rounds."""
    return row["options"] | ({"confirm": True} if row["confirm"] else {})


def create(db: Database, data: Any) -> Event:
    """Check and store a new event with its entrants; the organiser's token is given once."""
    fields, entrants = check_new(data)
    with storage.writing(db):
        event_id, token = store(db, fields, uuid.uuid4().hex, storage.now_utc())
        for entrant, members in entrants.items():
            storage.insert_entrant(db, event_id, entrant, members, 1)
    event = load(db, event_id)
    event.organiser_token = token
    return event


def store(
    db: Database, fields: dict[str, Any], uid: str, created: str, closed: str | None = None
) -> tuple[int, str]:
    """Store a checked event under a new organiser's token (inside the caller's change);
    return its id and the token, which only its digest keeps."""
    token = secrets.token_urlsafe(24)
    row = fields | {
        "uid": uid,
        "created_utc": created,
        "closed_utc": closed,
        "organiser_sha256": access.digest(token),
    }
    return storage.insert_event(db, row), token


def check_new(data: Any) -> tuple[dict[str, Any], dict[str, tuple[str, ...] | None]]:
    """Check a new event, every mistake at once; return its fields and its entrants."""
    if not isinstance(data, dict):
        raise Refusal(_("An event must be an object with name, game, entrants and rounds."))
    scorer = matches.find_scorer(data.get("game"))
    problems = Problems()
    checked: dict[str, Any] = {"game": scorer.id, "teams": int(scorer.teams)}
    readers = {
        "name": lambda: read_text(data.get("name"), "name", MAX_EVENT_NAME, required=True),
        "place": lambda: read_text(data.get("place"), "place", MAX_PLACE),
        "played_on": lambda: read_day(data.get("played_on")),
        "rounds": lambda: read_count(data.get("rounds"), "rounds", 1, MAX_ROUNDS, _("Rounds")),
        "deals": lambda: read_length(scorer, data),
        "table_size": lambda: read_table_size(scorer, data.get("table_size")),
    }
    for name, read in readers.items():
        checked[name] = None
        with problems.collect():
            checked[name] = read()
    checked["options"] = {}
    game_data, choice = verdicts.take_choice(data)
    with problems.collect():
        checked["confirm"] = read_confirm(choice)
    with problems.collect():
        checked["options"] = read_options(scorer, game_data.get("options"), checked["deals"])
    entrants: dict[str, tuple[str, ...] | None] = {}
    with problems.collect():
        entrants = read_entrants(scorer, data, scorer.teams)
    problems.raise_any()
    sizes = allowed_sizes(scorer)
    if len(entrants) < min(sizes):
        raise Refusal.at(
            "teams" if scorer.teams else "players",
            _("An event of {game} needs at least {count} entrants, to fill one table.").format(
                game=scorer.name, count=min(sizes)
            ),
        )
    check_tables(scorer, entrants, checked["options"], checked["table_size"] or min(sizes))
    return checked, entrants


def read_confirm(choice: dict[str, Any]) -> int:
    """Check whether every side of every table confirms its rounds (each table's scorer plays
    for its first side)."""
    if "scorer_side" in choice:
        raise Refusal.at(
            "options.scorer_side",
            _("At an event each table's scorer plays for its first side: leave scorer_side out."),
        )
    confirm = choice.get("confirm", False)
    if not isinstance(confirm, bool):
        raise Refusal.at("options.confirm", _("Confirm is true or false."))
    return int(confirm)


def read_text(given: Any, path: str, most: int, required: bool = False) -> str | None:
    """Check a short text (an event's name, its place): trimmed, not too long, plain."""
    text = given.strip() if isinstance(given, str) else ""
    if not text:
        if required:
            raise Refusal.at(path, _("An event needs a name."))
        if given is None or isinstance(given, str):
            return None
        raise Refusal.at(path, _("This must be a text."))
    if len(text) > most:
        raise Refusal.at(path, _("This has at most {most} characters.").format(most=most))
    check_plain(text, path)
    return text


def read_day(given: Any) -> str:
    """Check the day an event is played on (YYYY-MM-DD); today by default."""
    if given is None or given == "":
        return date.today().isoformat()
    try:
        return date.fromisoformat(str(given)).isoformat()
    except ValueError:
        raise Refusal.at("played_on", _("Give the day as YYYY-MM-DD, like 2026-12-05.")) from None


def read_count(given: Any, path: str, least: int, most: int, label: str) -> int:
    """Check a whole number within bounds."""
    if isinstance(given, bool) or not isinstance(given, int) or not least <= given <= most:
        raise Refusal.at(
            path,
            _("{option} must be between {least} and {most}.").format(
                option=label, least=least, most=most
            ),
        )
    return given


def read_length(scorer: Scorer, data: dict[str, Any]) -> int | None:
    """Check how many deals each match lasts, said as the event's deals or as the option its
    matches are played with (options.match_deals, as an export holds it): the event says
    the length its matches end after, and said both ways it must be said alike."""
    deals = read_deals(scorer, data.get("deals"), "deals")
    options = data.get("options")
    given = options.get("match_deals") if isinstance(options, dict) else None
    length = read_deals(scorer, given, "options.match_deals")
    if length is not None and deals not in (None, length):
        raise Refusal.at(
            "options.match_deals",
            _(
                "Each match lasts the event's deals ({deals}): leave options.match_deals out, "
                "or give the same."
            ).format(deals=deals),
        )
    return length if deals is None else deals


def read_deals(scorer: Scorer, given: Any, path: str) -> int | None:
    """Check how many deals each match lasts, for the games that count deals."""
    if given is None or given == "":
        return None
    if not any(option.name == "match_deals" for option in scorer.options):
        raise Refusal.at(
            path,
            _("A {game} match is not counted in deals: it is played to its own end.").format(
                game=scorer.name
            ),
        )
    return read_count(given, path, 1, 500, _("Deals per match"))


def read_options(scorer: Scorer, given: Any, deals: int | None) -> dict[str, Any]:
    """Check the options every match of the event is played with; seats are each table's."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise Refusal.at("options", _("Options must be an object: option name → value."))
    seated = [name for name in given if any(o.name == name and o.player for o in scorer.options)]
    if seated:
        raise Refusal.at(
            f"options.{seated[0]}",
            _("Who deals first is chosen at each table, not for the whole event."),
        )
    scorer.check_event_options(given)
    chosen = dict(given)
    if deals is not None:
        chosen["match_deals"] = deals
    players = seats(scorer.player_counts[-1])
    options = scorer.resolve_options(chosen, players[: scorer.player_counts[0]])
    return {name: value for name, value in options.items() if name not in seated_options(scorer)}


def seated_options(scorer: Scorer) -> set[str]:
    """The options that name a player (who deals first): each table's own."""
    return {option.name for option in scorer.options if option.player}


def allowed_sizes(scorer: Scorer) -> tuple[int, ...]:
    """How many entrants one table of the game may seat."""
    return scorer.event_sizes or scorer.player_counts


def read_table_size(scorer: Scorer, given: Any) -> int | None:
    """Check the table size of a game that may seat several (Rami, Porrazo); 4 by default."""
    if scorer.event_sizes is not None:
        if given is not None:
            raise Refusal.at(
                "table_size",
                _("{game} seats its tables as the game does.").format(game=scorer.name),
            )
        return None
    if given is None:
        return 4 if 4 in scorer.player_counts else scorer.player_counts[0]
    counts = scorer.player_counts
    return read_count(given, "table_size", counts[0], counts[-1], _("Players per table"))


def read_entrants(
    scorer: Scorer, data: dict[str, Any], in_teams: bool
) -> dict[str, tuple[str, ...] | None]:
    """Check the entrants: named teams of players, or players; no name twice anywhere."""
    problems = Problems()
    seen: set[str] = set()

    def unique(name: str, path: str) -> None:
        if name.casefold() in seen:
            problems.add(path, _("{name} is entered twice: names must differ.").format(name=name))
        seen.add(name.casefold())

    entrants: dict[str, tuple[str, ...] | None] = {}
    if in_teams:
        given = data.get("teams")
        if not isinstance(given, dict) or not given:
            raise Refusal.at(
                "teams",
                _('An event of {game} enters teams: {{"team name": [player names]}}.').format(
                    game=scorer.name
                ),
            )
        for team, members in given.items():
            with problems.collect():
                name = checked_name(team, f"teams.{team}", TEAM)
                unique(name, f"teams.{team}")
                if not isinstance(members, list):
                    raise Refusal.at(f"teams.{team}", _("List the team's players."))
                players = []
                for i, member in enumerate(members):
                    with problems.collect():
                        player = checked_name(member, f"teams.{team}.{i}")
                        unique(player, f"teams.{team}.{i}")
                        players.append(player)
                entrants[name] = tuple(players)
    else:
        given = data.get("players")
        if not isinstance(given, list) or not given:
            raise Refusal.at(
                "players",
                _("An event of {game} enters players: a list of names.").format(game=scorer.name),
            )
        for i, player in enumerate(given):
            with problems.collect():
                name = checked_name(player, f"players.{i}")
                unique(name, f"players.{i}")
                entrants[name] = None
    problems.raise_any()
    if len(entrants) > MAX_ENTRANTS:
        raise Refusal(_("An event has at most {most} entrants.").format(most=MAX_ENTRANTS))
    return entrants


def check_tables(
    scorer: Scorer, entrants: dict[str, tuple[str, ...] | None], options: dict, size: int
) -> None:
    """Refuse entrants no table of the game could seat: teams of the wrong size."""
    names = list(entrants)
    if scorer.teams:
        for first, second in zip(names, names[1:], strict=False):
            seat(scorer, [first, second], entrants, options)
    else:
        seat(scorer, names[:size], entrants, options)


def seat(scorer: Scorer, seats: list[str], entrants: dict[str, Any], options: dict) -> Table:
    """Check one table of the event as the game would start it."""
    if scorer.teams:
        data = {"teams": {name: list(entrants[name]) for name in seats}}
    else:
        data = {"players": seats}
    return scorer.read_table({"game": scorer.id, "options": options, **data})


def load(db: Database, event_id: int) -> Event:
    """Read an event with its tables, and add up its standings."""
    row = storage.get_event(db, event_id) if 0 < event_id <= matches.LARGEST_ID else None
    if row is None:
        raise no_such_event(event_id)
    scorer = GAMES[row["game"]]
    with storage.reading(db):
        entrants = storage.entrants(db, event_id)
        draws = storage.draws(db, event_id)
        tables = storage.table_matches(db, event_id)
        said = read_said(db, tables)
    event = Event(row, scorer, entrants, draws, tables, [], said=said)
    finished = [read_result(scorer, table) for table in tables if event.counts(table)]
    byes = [name for drawn in draws for name in drawn["byes"]]
    records = tally([e["name"] for e in entrants], finished, byes)
    for entrant in entrants:
        records[entrant["name"]].withdrawn = entrant["withdrawn_round"] is not None
    event.standings = ranked(records.values(), scorer.event_order)
    return event


def read_said(db: Database, tables: list[dict[str, Any]]) -> dict[int, verdicts.Verdicts]:
    """Read what the sides of each confirming table said of its rounds, in one read each."""
    confirming = [table for table in tables if table["scorer_side"] is not None]
    ids = [table["id"] for table in confirming]
    rounds = storage.live_round_ids(db, ids)
    by_match: dict[int, list[dict[str, Any]]] = {}
    for change in storage.sayings(db, ids, verdicts.READ):
        by_match.setdefault(change["match_id"], []).append(change)
    return {
        table["id"]: verdicts.read_verdicts(
            table["scorer_side"],
            list_sides(table),
            rounds.get(table["id"], []),
            by_match.get(table["id"], []),
        )
        for table in confirming
    }


def no_such_event(event_id: int) -> matches.NotFound:
    """Say that no event has this id (404)."""
    return matches.NotFound(_("There is no event {event_id}.").format(event_id=event_id))


def read_result(scorer: Scorer, row: dict[str, Any]) -> Finished:
    """Read a finished table's result from its match: each side's total and who won."""
    if row["winner"] is not None:
        return Finished(row["totals"], (row["winner"],))
    teams = row["teams"]
    table = Table(
        tuple(row["players"]),
        row["options"],
        None if teams is None else {name: tuple(seats) for name, seats in teams.items()},
    )
    shared = scorer.leaders(table, Replay(rounds=[], totals=row["totals"]))
    return Finished(row["totals"], tuple(shared))


def load_for_organiser(db: Database, event_id: int, token: str | None) -> Event:
    """Read an event for its organiser, or refuse a phone without the organiser's token."""
    event = load(db, event_id)
    if not token or access.digest(token) != event.row["organiser_sha256"]:
        raise access.Forbidden(
            _("Running this event needs the organiser's token: use the phone that created it.")
        )
    return event


SEEDS = (-(2**63), 2**63 - 1)
"""The seeds a draw may be made with: the whole numbers the database keeps (64 bits, on either
engine)."""

DRAW_ATTEMPTS = 3
"""How often a round is drawn again when the event changed while it was being drawn."""


@dataclass(frozen=True)
class Drawn:
    """A round drawn and not stored yet: its number, its seed, its tables and its byes."""

    n: int
    seed: int | None
    tables: list[Table]
    byes: list[str]


def draw_round(db: Database, event_id: int, token: str | None, seed: Any = None) -> Event:
    """Draw the next round and start a match at each of its tables.

    The round is drawn from the event as one read finds it, outside the write lock (a round of
    400 teams takes a second to draw, and every table would wait), then stored in one short
    change if the event is still as read, or else drawn again (DRAW_ATTEMPTS at most).
    """
    seed = read_seed(seed, "seed")
    for _attempt in range(DRAW_ATTEMPTS):
        with storage.reading(db):
            event = load_for_organiser(db, event_id, token)
            stamp = storage.event_stamp(db, event_id)
        drawn = draw_next(event, seed)
        with storage.writing(db):
            unchanged = storage.event_stamp(db, event_id) == stamp
            if unchanged:
                keep_round(db, event, drawn)
        if unchanged:
            return load(db, event_id)
    raise matches.Conflict(
        _(
            "The event kept changing while its round was drawn (results, entrants): nothing "
            "was drawn. Draw it again."
        )
    )


def read_seed(given: Any, path: str) -> int | None:
    """Check the seed of a draw: none, or a whole number the database keeps (SEEDS)."""
    least, most = SEEDS
    if given is not None and (
        isinstance(given, bool) or not isinstance(given, int) or not least <= given <= most
    ):
        raise Refusal.at(
            path,
            _("A seed is a whole number from {least} to {most}.").format(least=least, most=most),
        )
    return given


def draw_next(event: Event, seed: int | None) -> Drawn:
    """Draw the event's next round as it stands, or refuse when it cannot be drawn now."""
    n = event.drawn + 1
    refuse_early(event, n)
    playing = {
        e["name"] for e in event.entrants if e["joined_round"] <= n and e["withdrawn_round"] is None
    }
    standing = [record.entrant for _rank, record in event.standings if record.entrant in playing]
    if n == 1 and seed is None:
        seed = secrets.randbelow(2**31)
    sizes = allowed_sizes(event.scorer)
    drawn = draw(
        standing,
        meetings(list_tables(event)),
        Counter(name for d in event.draws for name in d["byes"]),
        sizes,
        event.row["table_size"] or sizes[0],
        seed if n == 1 else None,
    )
    if not drawn.tables:
        raise matches.Conflict(_("Too few entrants are left to fill a table: nothing was drawn."))
    members = {e["name"]: e["members"] for e in event.entrants}
    tables = [seat(event.scorer, seats, members, event.row["options"]) for seats in drawn.tables]
    return Drawn(n, seed if n == 1 else None, tables, drawn.byes)


def keep_round(db: Database, event: Event, drawn: Drawn) -> None:
    """Store a round drawn, inside the caller's change: its draw, and a match at each table
    that the organiser's token scores."""
    for number, table in enumerate(drawn.tables, 1):
        # Where every side confirms, each table's scorer plays for its first side.
        side = verdicts.sides_of(table)[0] if event.row["confirm"] else None
        at = (event.id, drawn.n, number)
        match_id = matches.insert(db, event.scorer, table, event=at, scorer_side=side)
        access.admit(db, match_id, event.row["organiser_sha256"], _("the organiser"))
    storage.insert_draw(db, event.id, drawn.n, drawn.seed, drawn.byes)


def refuse_early(event: Event, n: int) -> None:
    """Refuse to draw a round while the last one is played, or when every round is drawn."""
    if event.row["closed_utc"] is not None or n > event.row["rounds"]:
        raise matches.Conflict(
            _("Every round of this event is drawn: there is nothing more to draw.")
        )
    refuse_unfinished(
        event,
        n - 1,
        _(
            "Round {round} is still being played at table {tables}: draw the next round "
            "once every table has finished."
        ),
        _(
            "Round {round} waits for its sides to confirm at table {tables}: draw the next "
            "round once they have, or accept those results as they stand."
        ),
    )


def refuse_unfinished(event: Event, n: int, playing: str, waiting: str) -> None:
    """Refuse to go past round n while a table still plays it (`playing` says so) or waits
    for its sides to confirm (`waiting`), naming those tables."""
    for tables, said in ((event.playing(n), playing), (event.waiting(n), waiting)):
        if tables:
            numbers = ", ".join(str(table["event_table"]) for table in tables)
            raise matches.Conflict(said.format(round=n, tables=numbers))


def list_tables(event: Event) -> list[list[str]]:
    """The entrants who sat at each table so far."""
    return [list_sides(table) for table in event.tables]


def list_sides(row: dict[str, Any]) -> list[str]:
    """The entrants at a table: its teams, or its players."""
    return list(row["teams"]) if row["teams"] is not None else list(row["players"])


def withdraw(db: Database, event_id: int, name: Any, token: str | None) -> Event:
    """Draw an entrant no more from the next round on; what they played stays."""
    with storage.writing(db):
        event = load_for_organiser(db, event_id, token)
        entrant = find_entrant(event, name)
        if entrant["withdrawn_round"] is not None:
            raise matches.Conflict(_("{name} has already withdrawn.").format(name=entrant["name"]))
        storage.withdraw_entrant(db, event_id, entrant["name"], event.drawn + 1)
    return load(db, event_id)


def find_entrant(event: Event, name: Any) -> dict[str, Any]:
    """Find an entrant by name, as typed in any case."""
    for entrant in event.entrants:
        if isinstance(name, str) and entrant["name"].casefold() == name.strip().casefold():
            return entrant
    raise matches.NotFound(_("{name} is not an entrant of this event.").format(name=repr(name)))


def enter_late(db: Database, event_id: int, data: Any, token: str | None) -> Event:
    """Enter a team or a player after the start: drawn from the next round on."""
    if not isinstance(data, dict):
        raise Refusal(_('Name the entrant: {"name": …} (and its "players" for a team).'))
    with storage.writing(db):
        event = load_for_organiser(db, event_id, token)
        if event.status == FINISHED:
            raise matches.Conflict(_("The event is over: nobody can join it now."))
        name = checked_name(data.get("name"), "name", TEAM if event.scorer.teams else PLAYER)
        taken = {e["name"].casefold() for e in event.entrants}
        for e in event.entrants:
            taken |= {member.casefold() for member in e["members"] or ()}
        if name.casefold() in taken:
            raise Refusal.at("name", _("{name} is entered already.").format(name=name))
        members = None
        if event.scorer.teams:
            given = data.get("players")
            if not isinstance(given, list):
                raise Refusal.at("players", _("List the team's players."))
            members = tuple(checked_name(p, f"players.{i}") for i, p in enumerate(given))
            for i, member in enumerate(members):
                if member.casefold() in taken | {name.casefold()}:
                    raise Refusal.at(
                        f"players.{i}", _("{name} is entered already.").format(name=member)
                    )
            other = event.entrants[0]
            seat(
                event.scorer,
                [other["name"], name],
                {other["name"]: other["members"], name: members},
                event.row["options"],
            )
        storage.insert_entrant(db, event_id, name, members, event.drawn + 1)
    return load(db, event_id)


def close(db: Database, event_id: int, token: str | None) -> Event:
    """End the event: refused while a table plays; its last round can no longer change."""
    with storage.writing(db):
        event = load_for_organiser(db, event_id, token)
        if event.row["closed_utc"] is not None:
            raise matches.Conflict(_("The event is already closed."))
        if not event.drawn:
            raise matches.Conflict(
                _("No round is drawn yet: draw and play one before closing the event.")
            )
        refuse_unfinished(
            event,
            event.drawn,
            _(
                "Round {round} is still being played at table {tables}: close the event "
                "once every table has finished."
            ),
            _(
                "Round {round} waits for its sides to confirm at table {tables}: close the "
                "event once they have, or accept those results as they stand."
            ),
        )
        storage.close_event(db, event_id)
    return load(db, event_id)


def accept(db: Database, event_id: int, n: int, number: int, token: str | None) -> Event:
    """Count a finished table's result as it stands, whatever its sides said: the organiser's
    word, logged in the table's match. A later change to its rounds needs accepting again."""
    with storage.writing(db):
        event = load_for_organiser(db, event_id, token)
        table = next(
            (t for t in event.tables if (t["event_round"], t["event_table"]) == (n, number)), None
        )
        if table is None:
            raise matches.NotFound(
                _("Round {round} of this event has no table {table}.").format(round=n, table=number)
            )
        if table["status"] != FINISHED:
            raise matches.Conflict(
                _("Table {table} is still playing: accept its result once it is finished.").format(
                    table=number
                )
            )
        if not event.counts(table):
            matches.refuse_closed(db, matches.read_record(db, table["id"]))
            at, organiser = storage.now_utc(), _("the organiser")
            change = storage.Change("accept", 0, None, None, None, at, organiser)
            storage.log_change(db, table["id"], change)
    return load(db, event_id)
