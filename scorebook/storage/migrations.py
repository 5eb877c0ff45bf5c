"""The database schema, as small numbered migrations that each run once, in order, and
`prepare`, which applies them to a database before it is served.

Each step is written for SQLite here, with sqlite-utils; its PostgreSQL step, under the same
name, is in `postgresql_steps`.

A migration is frozen with the step it made: it imports no live domain code, so a database
built years ago migrates the same way whatever the games have become.
"""

import json
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from . import chain, database
from .database import engine_of, now_utc, opened, writing
from .imports import drop_dead_imports
from .postgresql_steps import STEPS

migrations = Migrations("tablescore")


@migrations()
def m001_matches(db: Database) -> None:
    """Create matches, their seats, the rounds as entered and the change log."""
    # Options are frozen with the match, so a match replays the way it was played even after
    # a default changes. Totals, status and winner are a cache of the replay for fast lists.
    db.table("matches").create(
        {
            "id": int,
            "uid": str,
            "game": str,
            "options_json": str,
            "players_json": str,
            "teams_json": str,
            "created_utc": str,
            "updated_utc": str,
            "status": str,
            "winner": str,
            "totals_json": str,
            "rounds_played": int,
        },
        pk="id",
        not_null=[
            "uid",
            "game",
            "options_json",
            "players_json",
            "created_utc",
            "updated_utc",
            "status",
            "totals_json",
            "rounds_played",
        ],
        strict=True,
    )
    db.table("matches").create_index(["uid"], unique=True)
    db.table("matches").create_index(["game", "id"])
    db.table("matches").create_index(["status", "id"])
    # One row per seat lets history find a player's matches through an index.
    db.table("seats").create(
        {"match_id": int, "seat": int, "name": str, "name_key": str},
        pk=("match_id", "seat"),
        not_null=["name", "name_key"],
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )
    db.table("seats").create_index(["name_key", "match_id"])
    # A round keeps the input as last corrected; removing it only marks it, so the history
    # and the change log can always show what the table entered.
    db.table("rounds").create(
        {
            "id": int,
            "match_id": int,
            "input_json": str,
            "entered_utc": str,
            "corrected_utc": str,
            "removed_utc": str,
        },
        pk="id",
        not_null=["match_id", "input_json", "entered_utc"],
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )
    db.table("rounds").create_index(["match_id", "id"])
    db.table("changes").create(
        {
            "id": int,
            "match_id": int,
            "round_id": int,
            "action": str,
            "n": int,
            "input_json": str,
            "replaced_json": str,
            "at_utc": str,
        },
        pk="id",
        not_null=["match_id", "round_id", "action", "n", "at_utc"],
        foreign_keys=[("match_id", "matches", "id"), ("round_id", "rounds", "id")],
        strict=True,
    )
    db.table("changes").create_index(["match_id", "id"])
    # The log is the table's memory of every correction: the database itself refuses to
    # rewrite or forget it, whatever code runs against the file.
    for verb in ("UPDATE", "DELETE"):
        db.execute(
            f"""
            CREATE TRIGGER changes_refuse_{verb.lower()} BEFORE {verb} ON changes
            BEGIN SELECT RAISE(ABORT, 'the change log is append-only'); END
            """
        )


@migrations()
def m002_player_keys(db: Database) -> None:
    """Give every seat the player it belongs to, and keep an append-only log of renames."""
    # A seat's name stays as the table typed it; player_key says who that was. Renaming a
    # player rewrites only this key, so the matches themselves are never rewritten.
    db.table("seats").add_column("player_key", str)
    db.execute("UPDATE seats SET player_key = name_key")
    db.table("seats").transform(not_null={"player_key"})
    db.table("seats").create_index(["player_key", "match_id"])
    db.table("renames").create(
        {"id": int, "from_key": str, "to_name": str, "at_utc": str},
        pk="id",
        not_null=["from_key", "to_name", "at_utc"],
        strict=True,
    )
    # Like the change log: the history of who was renamed into whom is never rewritten.
    for verb in ("UPDATE", "DELETE"):
        db.execute(
            f"""
            CREATE TRIGGER renames_refuse_{verb.lower()} BEFORE {verb} ON renames
            BEGIN SELECT RAISE(ABORT, 'the renames log is append-only'); END
            """
        )


@migrations()
def m003_scorers(db: Database) -> None:
    """Add who may score a match, the codes that hand that right on, and replayed requests."""
    # Only a token's SHA-256 is kept: the token itself is shown once and never stored.
    db.table("scorers").create(
        {
            "id": int,
            "match_id": int,
            "token_sha256": str,
            "device": str,
            "created_utc": str,
            "revoked_utc": str,
        },
        pk="id",
        not_null=["match_id", "token_sha256", "device", "created_utc"],
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )
    db.table("scorers").create_index(["match_id", "token_sha256"])
    db.table("handoffs").create(
        {
            "id": int,
            "match_id": int,
            "code_sha256": str,
            "created_utc": str,
            "used_utc": str,
            "revoked_utc": str,
            "device": str,
        },
        pk="id",
        not_null=["match_id", "code_sha256", "created_utc"],
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )
    db.table("handoffs").create_index(["code_sha256"])
    # A double tap or a retried request carries the same key: it answers the round it made.
    db.table("replays").create(
        {"match_id": int, "key": str, "round_id": int, "at_utc": str},
        pk=("match_id", "key"),
        not_null=["round_id", "at_utc"],
        foreign_keys=[("match_id", "matches", "id"), ("round_id", "rounds", "id")],
        strict=True,
    )
    # The log says which phone made each change; older entries say nobody.
    db.table("changes").add_column("device", str)


@migrations()
def m004_history_by_date(db: Database) -> None:
    """Index the days matches were started on, so history filtered by dates reads no other."""
    db.table("matches").create_index(["created_utc"])


def variant_at_m005(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Return the options that kept a match's statistics apart when m005 ran (each game's
    `variant_key` of that day, frozen here)."""
    if game == "belote":
        return {"variant": options["variant"], "target": options["target"]}
    if game == "gaigel":
        if options["mode"] == "three":
            return {"mode": "three"}
        return {"mode": options["mode"], "strokes": options["strokes"]}
    if game in ("rami", "porrazo"):
        return {"target": options["target"]}
    return {}


@migrations()
def m005_players(db: Database) -> None:
    """Give every seat the side it scores for, and keep per player their name, their records
    per game variant, and their rivalries.

    A player's page and the list of players read these few rows instead of every seat of every
    match; `player_book.tally` keeps them true in the transaction of each change.
    """
    # The variant a match is played: the options that change what its scores mean (a coinche
    # to 2000), which statistics keep apart. Like the options, it is frozen with the match.
    db.table("matches").add_column("variant_json", str)
    variants = [
        (json.dumps(variant_at_m005(row["game"], json.loads(row["options"])), sort_keys=True),
         row["id"])
        for row in db.query("SELECT id, game, options_json AS options FROM matches")
    ]  # fmt: skip
    db.conn.executemany("UPDATE matches SET variant_json = ? WHERE id = ?", variants)
    db.table("seats").add_column("side", str)
    db.execute(
        "UPDATE seats SET side = name "
        "WHERE match_id IN (SELECT id FROM matches WHERE teams_json IS NULL)"
    )
    db.execute(
        """
        UPDATE seats SET side = (
            SELECT team.key FROM matches m, json_each(m.teams_json) team, json_each(team.value) seat
            WHERE m.id = seats.match_id AND seat.value = seats.name
        ) WHERE side IS NULL
        """
    )
    db.table("players").create(
        {"key": str, "name": str, "named_utc": str},
        pk="key",
        not_null=["name", "named_utc"],
        strict=True,
    )
    # The name shown is the one given last: typed at a table (while the seat still belongs to
    # the name typed on it), or by a rename. Keys are casefolded, which only Python does fully.
    named: dict[str, tuple[str, str]] = {}
    spellings = """
        SELECT s.name, m.created_utc AS at, 0 AS renamed FROM seats s
        JOIN matches m ON m.id = s.match_id WHERE s.name_key = s.player_key
        UNION ALL SELECT to_name, at_utc, 1 FROM renames
        ORDER BY at, renamed
    """
    for row in db.query(spellings):
        named[row["name"].casefold()] = (row["name"], row["at"])
    keys = [row["player_key"] for row in db.query("SELECT DISTINCT player_key FROM seats")]
    db.table("players").insert_all(
        {"key": key, "name": named[key][0], "named_utc": named[key][1]} for key in keys
    )
    # Matches played, finished and won, and the final totals of the finished ones, per variant.
    db.table("records").create(
        {
            "player_key": str,
            "game": str,
            "variant_json": str,
            "matches": int,
            "finished": int,
            "wins": int,
            "scored": int,
        },
        pk=("player_key", "game", "variant_json"),
        not_null=["matches", "finished", "wins", "scored"],
        strict=True,
    )
    db.execute(
        """
        INSERT INTO records
        SELECT s.player_key, m.game, m.variant_json, count(*),
            sum(m.status = 'finished'),
            sum(m.status = 'finished' AND m.winner IS s.side),
            sum(iif(m.status = 'finished',
                (SELECT value FROM json_each(m.totals_json) WHERE key = s.side), 0))
        FROM seats s JOIN matches m ON m.id = s.match_id
        GROUP BY s.player_key, m.game, m.variant_json
        """
    )
    # Matches played on opposite sides, and who won them.
    db.table("rivalries").create(
        {"player_key": str, "opponent_key": str, "matches": int, "wins": int, "losses": int},
        pk=("player_key", "opponent_key"),
        not_null=["matches", "wins", "losses"],
        strict=True,
    )
    db.execute(
        """
        INSERT INTO rivalries
        SELECT s.player_key, o.player_key, count(*),
            sum(m.winner IS s.side), sum(m.winner IS o.side)
        FROM seats s JOIN seats o ON o.match_id = s.match_id AND o.side != s.side
        JOIN matches m ON m.id = s.match_id
        GROUP BY s.player_key, o.player_key
        """
    )


@migrations()
def m006_safe_changes(db: Database) -> None:
    """Number each round's versions, fingerprint replayed requests, key match starts, and link
    a rematch to the match it follows."""
    # A correction makes a new version of a round: a phone changing round 3 names the version
    # it saw, so it never overwrites a correction it has not seen.
    db.table("rounds").add_column("version", int, not_null_default=1)
    db.execute(
        """
        UPDATE rounds SET version = 1 + (
            SELECT count(*) FROM changes c WHERE c.round_id = rounds.id AND c.action = 'correct'
        )
        """
    )
    # The same key with another request is refused; keys kept before had no fingerprint and
    # answer as they always did.
    db.table("replays").add_column("action", str)
    db.table("replays").add_column("fingerprint", str)
    # A double tap on "Start the match" carries the same key twice and starts one match.
    db.table("starts").create(
        {"key": str, "fingerprint": str, "match_id": int, "at_utc": str},
        pk="key",
        not_null=["fingerprint", "match_id", "at_utc"],
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )
    db.table("matches").add_column("rematch_of", int)
    db.table("matches").create_index(["rematch_of"])


@migrations()
def m007_imports_out_of_sight(db: Database) -> None:
    """Let an import store its matches in short batches that stay out of sight until the last
    batch is in, and be dropped whole if it never finishes."""
    # A match with an import_id belongs to an import still under way: no list, page or count
    # shows it, and its seats count for nobody until the import finishes.
    db.table("matches").add_column("import_id", int)
    db.execute("CREATE INDEX matches_importing ON matches (import_id) WHERE import_id IS NOT NULL")
    db.table("imports").create(
        {"id": int, "started_utc": str, "touched_utc": str},
        pk="id",
        not_null=["started_utc", "touched_utc"],
        strict=True,
    )
    # The log of a stored match stays append-only; the log of a match an unfinished import
    # was bringing in was never stored, and goes with it.
    db.execute("DROP TRIGGER changes_refuse_delete")
    db.execute(
        """
        CREATE TRIGGER changes_refuse_delete BEFORE DELETE ON changes
        WHEN NOT EXISTS (
            SELECT 1 FROM matches WHERE id = old.match_id AND import_id IS NOT NULL
        )
        BEGIN SELECT RAISE(ABORT, 'the change log is append-only'); END
        """
    )


@migrations()
def m008_events(db: Database) -> None:
    """Keep events: a club night or a tournament, its entrants, and each round's tables, whose
    matches are ordinary matches that know their event, round and table."""
    db.table("events").create(
        {
            "id": int,
            "uid": str,
            "name": str,
            "game": str,
            "options_json": str,
            "teams": int,
            "table_size": int,
            "rounds": int,
            "deals": int,
            "place": str,
            "played_on": str,
            "created_utc": str,
            "organiser_sha256": str,
            "closed_utc": str,
        },
        pk="id",
        not_null=["uid", "name", "game", "options_json", "teams", "rounds", "created_utc"],
        strict=True,
    )
    db.table("events").create_index(["uid"], unique=True)
    db.table("events").create_index(["created_utc"])
    # An entrant is a team (members listed) or a player; one who withdraws keeps the results
    # played, and one who joins late is drawn from the round after.
    db.table("event_entrants").create(
        {
            "id": int,
            "event_id": int,
            "name": str,
            "members_json": str,
            "joined_round": int,
            "withdrawn_round": int,
        },
        pk="id",
        not_null=["event_id", "name", "joined_round"],
        foreign_keys=[("event_id", "events", "id")],
        strict=True,
    )
    db.execute(
        "CREATE UNIQUE INDEX event_entrants_by_name "
        "ON event_entrants (event_id, name COLLATE NOCASE)"
    )
    db.table("event_rounds").create(
        {"event_id": int, "round": int, "drawn_utc": str, "seed": int, "byes_json": str},
        pk=("event_id", "round"),
        not_null=["drawn_utc", "byes_json"],
        foreign_keys=[("event_id", "events", "id")],
        strict=True,
    )
    db.table("matches").add_column("event_id", int)
    db.table("matches").add_column("event_round", int)
    db.table("matches").add_column("event_table", int)
    db.execute(
        "CREATE INDEX matches_by_event ON matches (event_id, event_round, event_table) "
        "WHERE event_id IS NOT NULL"
    )


@migrations()
def m009_notes_place_and_date(db: Database) -> None:
    """Give a match a note, a place and the day it was played, and a round its note; let the
    change log hold changes that touch no round (a match's note, place or date)."""
    db.table("matches").add_column("note", str)
    db.table("matches").add_column("place", str)
    db.table("matches").add_column("played_at", str)
    db.execute("UPDATE matches SET played_at = created_utc")
    db.execute("CREATE INDEX matches_by_place ON matches (place COLLATE NOCASE, created_utc)")
    db.table("rounds").add_column("note", str)
    # The log keeps refusing to be rewritten: its triggers are set again on the new table.
    for verb in ("update", "delete"):
        db.execute(f"DROP TRIGGER changes_refuse_{verb}")
    db.table("changes").transform(not_null={"round_id": False})
    db.execute(
        """
        CREATE TRIGGER changes_refuse_update BEFORE UPDATE ON changes
        BEGIN SELECT RAISE(ABORT, 'the change log is append-only'); END
        """
    )
    db.execute(
        """
        CREATE TRIGGER changes_refuse_delete BEFORE DELETE ON changes
        WHEN NOT EXISTS (
            SELECT 1 FROM matches WHERE id = old.match_id AND import_id IS NOT NULL
        )
        BEGIN SELECT RAISE(ABORT, 'the change log is append-only'); END
        """
    )


@migrations()
def m010_results(db: Database) -> None:
    """Log every change of a finished result, so ratings are kept until one changes and then
    rated again from that match on; index each board's finished matches in rating order."""
    # One row per change: a match finished, corrected, reopened, imported or renamed in, named
    # by the first match it changes on. The stamp ratings are kept under is the newest id, so
    # the log is only ever added to. No foreign key: a dropped import would look through the
    # whole log for each of its matches, and none of them is ever named here.
    db.table("results").create(
        {"id": int, "match_id": int}, pk="id", not_null=["match_id"], strict=True
    )
    for verb in ("update", "delete"):
        db.execute(
            f"""
            CREATE TRIGGER results_refuse_{verb} BEFORE {verb.upper()} ON results
            BEGIN SELECT RAISE(ABORT, 'the results log is append-only'); END
            """
        )
    db.execute(
        "CREATE INDEX matches_finished_by_board ON matches (game, variant_json, created_utc) "
        "WHERE status = 'finished'"
    )


@migrations()
def m011_imports_held(db: Database) -> None:
    """Name the lock file each import's process holds, so a retry after that process died
    finds its hidden rows dead at once instead of waiting for a timer."""
    db.table("imports").add_column("holder", str)


@migrations()
def m012_tries(db: Database) -> None:
    """Count each phone's tries at the doors a guess could open (wrong join codes, imports)
    where every server process sees the same count."""
    db.table("tries").create(
        {"key": str, "count": int, "expires": float},
        pk="key",
        not_null=["count", "expires"],
        strict=True,
    )


CIRCLE_TABLES = (
    "matches",
    "seats",
    "events",
    "players",
    "records",
    "rivalries",
    "renames",
    "results",
    "starts",
)
"""Every table whose rows belong to a circle of their own; the rest belong to a match's or an
event's."""


@migrations()
def m013_circles(db: Database) -> None:
    """Keep circles, each one group's Tablescore behind a key of its own, and put everything
    stored so far in the first: a database made before circles is one circle's."""
    # Only the key's SHA-256 is kept, as for scorer tokens: a key is shown when it is made.
    db.table("circles").create(
        {
            "id": int,
            "name": str,
            "key_sha256": str,
            "created_utc": str,
            "keyed_utc": str,
            "leaving_utc": str,
        },
        pk="id",
        not_null=["name", "created_utc"],
        strict=True,
    )
    db.execute(
        "CREATE UNIQUE INDEX circles_by_key ON circles (key_sha256) WHERE key_sha256 IS NOT NULL"
    )
    first = db.execute("SELECT coalesce(min(created_utc), ?) FROM matches", [now_utc()])
    db.table("circles").insert({"id": 1, "name": "Tablescore", "created_utc": first.fetchone()[0]})
    for table in CIRCLE_TABLES:
        db.table(table).add_column("circle_id", int, not_null_default=1)
    # Players are per circle: "Ana" in two circles is two players.
    db.table("players").transform(pk=("circle_id", "key"))
    db.table("records").transform(pk=("circle_id", "player_key", "game", "variant_json"))
    db.table("rivalries").transform(pk=("circle_id", "player_key", "opponent_key"))
    db.table("starts").transform(pk=("circle_id", "key"))
    # Every list and every search reads one circle's rows through an index that starts with it.
    for old in (
        "idx_matches_uid",
        "idx_matches_game_id",
        "idx_matches_status_id",
        "idx_matches_created_utc",
        "matches_by_place",
        "matches_finished_by_board",
        "idx_seats_player_key_match_id",
        "idx_seats_name_key_match_id",
        "idx_events_uid",
        "idx_events_created_utc",
    ):
        db.execute(f"DROP INDEX {old}")
    for index in (
        "UNIQUE INDEX matches_by_uid ON matches (circle_id, uid)",
        "INDEX matches_by_circle ON matches (circle_id, id)",
        "INDEX matches_by_game ON matches (circle_id, game, id)",
        "INDEX matches_by_status ON matches (circle_id, status, id)",
        "INDEX matches_by_day ON matches (circle_id, created_utc)",
        "INDEX matches_by_place ON matches (circle_id, place COLLATE NOCASE, created_utc)",
        "INDEX matches_finished_by_board ON matches (circle_id, game, variant_json, created_utc) "
        "WHERE status = 'finished'",
        "INDEX seats_by_player ON seats (circle_id, player_key, match_id)",
        "UNIQUE INDEX events_by_uid ON events (circle_id, uid)",
        "INDEX events_by_day ON events (circle_id, created_utc)",
        "INDEX results_by_circle ON results (circle_id, id)",
    ):
        db.execute(f"CREATE {index}")
    # The logs refuse to be rewritten as before, except while their circle is being deleted
    # by whoever holds its key: a circle's data is its own to take away.
    leaving = "SELECT 1 FROM circles WHERE id = {circle} AND leaving_utc IS NOT NULL"
    for table in ("changes", "renames", "results"):
        db.execute(f"DROP TRIGGER {table}_refuse_delete")
    db.execute(
        f"""
        CREATE TRIGGER changes_refuse_delete BEFORE DELETE ON changes
        WHEN NOT EXISTS (
            SELECT 1 FROM matches WHERE id = old.match_id AND import_id IS NOT NULL
        ) AND NOT EXISTS (
            {leaving.format(circle="(SELECT circle_id FROM matches WHERE id = old.match_id)")}
        )
        BEGIN SELECT RAISE(ABORT, 'the change log is append-only'); END
        """
    )
    for table in ("renames", "results"):
        db.execute(
            f"""
            CREATE TRIGGER {table}_refuse_delete BEFORE DELETE ON {table}
            WHEN NOT EXISTS ({leaving.format(circle="old.circle_id")})
            BEGIN SELECT RAISE(ABORT, 'the {table} log is append-only'); END
            """
        )


def variant_at_m014(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Return the options that keep a match's statistics apart since m014: a match of fixed
    length is kept by its deals, not the target no longer ending it (frozen here)."""
    variant = variant_at_m005(game, options)
    deals = options.get("match_deals")
    if deals is None:
        return variant
    variant.pop("target", None)
    return variant | {"deals": deals}


@migrations()
def m014_fixed_length_apart(db: Database) -> None:
    """Keep matches of a fixed number of deals (an event's) apart from races to a target in
    every statistic and rating: they were counted with the races to the same target."""
    query = (
        "SELECT id, game, options_json, variant_json FROM matches "
        "WHERE json_extract(options_json, '$.match_deals') IS NOT NULL"
    )
    moved = [
        (match_id, variant)
        for match_id, game, options, old in db.execute(query).fetchall()
        if (variant := json.dumps(variant_at_m014(game, json.loads(options)), sort_keys=True))
        != old
    ]
    records = """
        INSERT INTO records (circle_id, player_key, game, variant_json, matches, finished,
            wins, scored)
        SELECT m.circle_id, s.player_key, m.game, m.variant_json, :sign,
            :sign * (m.status = 'finished'),
            :sign * (m.status = 'finished' AND m.winner IS s.side),
            :sign * iif(m.status = 'finished',
                (SELECT value FROM json_each(m.totals_json) WHERE key = s.side), 0)
        FROM seats s JOIN matches m ON m.id = s.match_id
        WHERE s.match_id = :match AND m.import_id IS NULL
        ON CONFLICT (circle_id, player_key, game, variant_json) DO UPDATE SET
            matches = matches + excluded.matches, finished = finished + excluded.finished,
            wins = wins + excluded.wins, scored = scored + excluded.scored
    """
    for match_id, variant in moved:
        db.execute(records, {"match": match_id, "sign": -1})
        db.execute("UPDATE matches SET variant_json = ? WHERE id = ?", [variant, match_id])
        db.execute(records, {"match": match_id, "sign": 1})
        # Its finished result now rates on another board: ratings are derived again.
        db.execute(
            "INSERT INTO results (match_id, circle_id) "
            "SELECT id, circle_id FROM matches WHERE id = ? AND status = 'finished'",
            [match_id],
        )


@migrations()
def m015_abandoned(db: Database) -> None:
    """Let a table abandon a match: kept in its history, out of every statistic and rating
    until it is taken back."""
    db.table("matches").add_column("abandoned_utc", str)


@migrations()
def m016_sides_confirm(db: Database) -> None:
    """Let every side of a match confirm its rounds from its own phone, and chain each change
    of the log to the one before it; the changes logged so far are chained once, here."""
    db.table("matches").add_column("scorer_side", str)
    db.table("events").add_column("confirm", int, not_null_default=0)
    db.table("side_phones").create(
        {
            "id": int,
            "match_id": int,
            "side": str,
            "token_sha256": str,
            "code_sha256": str,
            "device": str,
            "created_utc": str,
            "used_utc": str,
            "revoked_utc": str,
        },
        pk="id",
        not_null=["match_id", "side", "token_sha256", "created_utc"],
        foreign_keys=[("match_id", "matches", "id")],
        strict=True,
    )
    db.execute("CREATE UNIQUE INDEX side_phones_by_token ON side_phones (token_sha256)")
    db.execute(
        "CREATE UNIQUE INDEX side_phones_by_code ON side_phones (code_sha256) "
        "WHERE code_sha256 IS NOT NULL"
    )
    db.execute("CREATE INDEX side_phones_by_match ON side_phones (match_id, id)")
    db.table("changes").add_column("hash", str)
    # The log refuses every update but this one, which writes what it always implied.
    db.execute("DROP TRIGGER changes_refuse_update")
    chain.chain_every_log(db)
    db.execute(
        """
        CREATE TRIGGER changes_refuse_update BEFORE UPDATE ON changes
        BEGIN SELECT RAISE(ABORT, 'the change log is append-only'); END
        """
    )


def prepare(address: str) -> None:
    """Make a database ready to serve: create it if needed, apply the migrations it lacks, and
    drop what dead imports left.

    Several server processes may start at once over one database: a lock (a file beside an
    SQLite database, an advisory lock on PostgreSQL) lets one migrate while the others wait,
    then find nothing left to do.

    :raises Unavailable: the database can't be reached.
    """
    engine = engine_of(address)
    lock = engine.migrating(address)
    try:
        engine.make_ready(address)
        with opened(address) as db:
            MIGRATE[engine.NAME](db)
            # An import whose process died (a crash, kill -9) left its hidden rows.
            with writing(db):
                drop_dead_imports(db)
    finally:
        lock.close()


def migrate_sqlite(db: database.Database) -> None:
    """Apply the SQLite steps the file lacks, each in a transaction with its record."""
    migrations.apply(Database(db.conn))


def migrate_postgresql(db: database.Database) -> None:
    """Apply the PostgreSQL steps the database lacks, each in a transaction with its record."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS tablescore_migrations "
        '(name text COLLATE "C" PRIMARY KEY, applied_utc text NOT NULL)'
    )
    applied = {row[0] for row in db.execute("SELECT name FROM tablescore_migrations")}
    for name, step in STEPS.items():
        if name in applied:
            continue
        with writing(db):
            for part in step if isinstance(step, tuple) else (step,):
                part(db) if callable(part) else db.execute(part)
            db.execute("INSERT INTO tablescore_migrations VALUES (?, ?)", [name, now_utc()])


MIGRATE = {"sqlite": migrate_sqlite, "postgresql": migrate_postgresql}
"""How each engine applies the migrations."""
