"""Players as stored: their names, what each match counts for them (played, won, rivals), and
the results log ratings are kept under.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .database import Database, add, circle_of, decoded, rows

RECORDS_TALLY = """
    insert into records (circle_id, player_key, game, variant_json, matches, finished, wins,
        scored)
    select m.circle_id, s.player_key, m.game, m.variant_json, :sign,
        :sign * CASE WHEN m.status = 'finished' THEN 1 ELSE 0 END,
        :sign * CASE WHEN m.status = 'finished' and m.winner = s.side THEN 1 ELSE 0 END,
        :sign * CASE WHEN m.status = 'finished' THEN {side_total} ELSE 0 END
    from seats s join matches m on m.id = s.match_id
    where {matches} and m.abandoned_utc is null
    on conflict (circle_id, player_key, game, variant_json) do update set
        matches = records.matches + excluded.matches,
        finished = records.finished + excluded.finished,
        wins = records.wins + excluded.wins, scored = records.scored + excluded.scored
"""
RIVALRIES_TALLY = """
    insert into rivalries (circle_id, player_key, opponent_key, matches, wins, losses)
    select m.circle_id, s.player_key, o.player_key, :sign,
        :sign * CASE WHEN m.winner = s.side THEN 1 ELSE 0 END,
        :sign * CASE WHEN m.winner = o.side THEN 1 ELSE 0 END
    from seats s join seats o on o.match_id = s.match_id and o.side != s.side
    join matches m on m.id = s.match_id where {matches} and m.abandoned_utc is null
    on conflict (circle_id, player_key, opponent_key) do update set
        matches = rivalries.matches + excluded.matches, wins = rivalries.wins + excluded.wins,
        losses = rivalries.losses + excluded.losses
"""


def count_for_players(db: Database, matches: str, params: dict[str, Any]) -> None:
    """Add (`sign` 1) or take back (-1) what the matches `matches` names (a condition on m
    and its seats s) count for their players: records, then rivalries."""
    side_total = db.engine.json_number("m.totals_json", "s.side")
    for query in (RECORDS_TALLY, RIVALRIES_TALLY):
        db.execute(query.format(matches=matches, side_total=side_total), params)


def tally(db: Database, match_id: int, sign: int) -> None:
    """Add (sign 1) or take back (sign -1) what a match counts for each of its players: a
    match played, finished, won, its final total, and who they played it against. An
    abandoned match counts for nobody."""
    count_for_players(db, "s.match_id = :match", {"match": match_id, "sign": sign})


def list_players(db: Database) -> list[dict[str, Any]]:
    """Return every player of the circle: the name they go by, how many matches they played
    and won."""
    query = """
        select p.name, cast(sum(r.matches) as bigint) as matches,
            cast(sum(r.wins) as bigint) as wins
        from players p join records r on r.circle_id = p.circle_id and r.player_key = p.key
        where p.circle_id = ? group by p.circle_id, p.key having sum(r.matches) > 0
    """
    return rows(db, query, [circle_of(db)])


def player_names(db: Database, keys: Iterable[str]) -> dict[str, str]:
    """Map each of these player keys to the name the player goes by."""
    keys = list(keys)
    if not keys:
        return {}
    marks = ", ".join("?" * len(keys))
    query = f"select key, name from players where circle_id = ? and key in ({marks})"
    return dict(db.execute(query, [circle_of(db), *keys]).fetchall())


def player_records(db: Database, player_key: str) -> list[dict[str, Any]]:
    """Return a player's matches, finished ones, wins and final totals, per game variant."""
    query = "select * from records where circle_id = ? and player_key = ? and matches > 0"
    return [decoded(row) for row in rows(db, query, [circle_of(db), player_key])]


def player_rivals(db: Database, player_key: str) -> list[dict[str, Any]]:
    """Return, per opponent, the matches a player sat on the other side of, won and lost."""
    query = "select * from rivalries where circle_id = ? and player_key = ? and matches > 0"
    return rows(db, query, [circle_of(db), player_key])


def has_player(db: Database, player_key: str) -> bool:
    """Say whether anyone with this key has sat at a table."""
    query = "select 1 from seats where circle_id = ? and player_key = ? limit 1"
    return db.execute(query, [circle_of(db), player_key]).fetchone() is not None


def shared_matches(db: Database, player_key: str, other_key: str) -> int:
    """Count the matches two players both sat in."""
    query = (
        "select count(*) as n from seats a join seats b on b.match_id = a.match_id "
        "where a.circle_id = ? and a.player_key = ? and b.player_key = ?"
    )
    return db.execute(query, [circle_of(db), player_key, other_key]).fetchone()[0]


def rename_player(db: Database, player_key: str, to_name: str, at: str) -> None:
    """Move a player's seats to the key of their new name, count their matches for that key,
    and log the rename."""
    new_key, circle = to_name.casefold(), circle_of(db)
    query = "select match_id from seats where circle_id = ? and player_key = ?"
    played = [row[0] for row in db.execute(query, [circle, player_key]).fetchall()]
    for match_id in played:
        tally(db, match_id, -1)
    db.execute(
        "update seats set player_key = ? where circle_id = ? and player_key = ?",
        [new_key, circle, player_key],
    )
    for match_id in played:
        tally(db, match_id, 1)
    if new_key != player_key:
        # The old key's counts are all zero now: it stands for nobody.
        db.execute(
            "delete from records where circle_id = ? and player_key = ?", [circle, player_key]
        )
        db.execute(
            "delete from rivalries where circle_id = ? and ? in (player_key, opponent_key)",
            [circle, player_key],
        )
        note_results(
            db,
            "s.circle_id = :circle and s.player_key = :player",
            {"circle": circle, "player": new_key},
        )
    db.execute(
        "delete from players where circle_id = ? and key in (?, ?)", [circle, player_key, new_key]
    )
    add(db, "players", {"circle_id": circle, "key": new_key, "name": to_name, "named_utc": at})
    row = {"circle_id": circle, "from_key": player_key, "to_name": to_name, "at_utc": at}
    add(db, "renames", row)


def finished_seats(
    db: Database, board: tuple[str, str] | None = None, since: tuple[str, int] = ("", 0)
) -> list[tuple[Any, ...]]:
    """Every seat of every finished match of the circle in sight, oldest match first: what
    ratings replay;
    or only one board's (game, variant JSON), from the match `since` names on (its creation
    time and id), which is all a board rated again from that match reads.

    Each row: match id, creation time, game, variant JSON, options JSON, totals JSON, winner,
    the seat's player key and side.
    """
    # One board's read is a range of the index of finished matches by board (m010).
    only = "and m.game = ? and m.variant_json = ? and (m.created_utc, m.id) >= (?, ?)"
    query = f"""
        select m.id, m.created_utc, m.game, m.variant_json, m.options_json, m.totals_json,
            m.winner, s.player_key, s.side
        from matches m join seats s on s.match_id = m.id
        where m.circle_id = ? and m.status = 'finished' and m.import_id is null
            and m.abandoned_utc is null {only if board else ""}
        order by m.created_utc, m.id, s.seat
    """
    return db.execute(
        query, [circle_of(db), *board, *since] if board else [circle_of(db)]
    ).fetchall()


def history_stamp(db: Database) -> int:
    """Name the state of every finished result of the circle in one read, through the results'
    key: it moves when one changes, and a round of a match still played leaves it (ratings
    are kept under it)."""
    query = "select coalesce(max(id), 0) from results where circle_id = ?"
    return db.execute(query, [circle_of(db)]).fetchone()[0]


def results_since(db: Database, stamp: int) -> dict[tuple[str, str], tuple[str, int]]:
    """Each board (game, variant JSON) whose finished results changed after `stamp`, with the
    first match they changed on (its creation time and id): the ratings before it stand."""
    query = (
        "select m.game, m.variant_json, m.created_utc, m.id "
        "from results r join matches m on m.id = r.match_id where r.circle_id = ? and r.id > ?"
    )
    changed: dict[tuple[str, str], tuple[str, int]] = {}
    for game, variant, created, match_id in db.execute(query, [circle_of(db), stamp]):
        first = changed.get((game, variant), (created, match_id))
        changed[game, variant] = min(first, (created, match_id))
    return changed


FIRST_FINISHED = """
    insert into results (match_id, circle_id)
    select id, circle_id from (
        select m.id, m.circle_id, row_number() over (
            partition by m.game, m.variant_json order by m.created_utc, m.id
        ) as nth
        from matches m where m.status = 'finished' and m.id in (
            select s.match_id from seats s join matches m on m.id = s.match_id where {matches}
        )
    ) as firsts where nth = 1
"""


def note_results(db: Database, matches: str, params: dict[str, Any]) -> None:
    """Log the first finished match of each board among those `matches` names (a condition on
    m and its seats s): each board's ratings change from it on, and stand before it."""
    db.execute(FIRST_FINISHED.format(matches=matches), params)
