"""Moving a site to the other engine (SQLite into PostgreSQL, or back), and proving the move:
every match replayed where it arrived comes to the totals, status and winner it had, and its
change log is the same, entry for entry."""

from __future__ import annotations

from dataclasses import dataclass

from . import matches, storage


class Mismatch(Exception):
    """A match did not arrive as it was: the copy must not be served."""


@dataclass(frozen=True)
class Moved:
    """What a move copied, and what it replayed to check it."""

    rows: dict[str, int]
    """The rows copied, per table."""
    replayed: int
    """The matches replayed where they arrived, each to the result it had."""

    def summary(self) -> str:
        """Say what was moved, in a line."""
        rows = self.rows
        return (
            f"Copied {rows['matches']} matches ({rows['rounds']} rounds, {rows['changes']} "
            f"changes logged) in {rows['circles']} circles, {rows['events']} events; "
            f"{self.replayed} matches replayed to the same totals."
        )


def move(source: str, target: str) -> Moved:
    """Copy every row of the database at `source` into the new one at `target`, then replay
    every match there against what it was.

    :raises storage.NotEmpty: the target holds data already; nothing was copied.
    :raises storage.ImportUnderWay: the source is importing; nothing was copied.
    :raises Mismatch: a match replays otherwise in the target, or its log differs.
    """
    rows = storage.copy_database(source, target)
    replayed = 0
    with storage.opened(source, None) as read:
        circles = storage.circle_ids(read)
    for circle in circles:
        with storage.opened(source, circle) as was, storage.opened(target, circle) as now:
            for match_id in storage.match_ids(was):
                check_arrived(was, now, match_id)
                replayed += 1
    return Moved(rows, replayed)


def check_arrived(was: storage.Database, now: storage.Database, match_id: int) -> None:
    """Replay a match where it arrived, and compare it with the match as it was stored.

    :raises Mismatch: its result or its log differs.
    """
    stored = matches.read_record(was, match_id)
    arrived = matches.load(now, match_id)
    result = (arrived.replay.totals, arrived.replay.status, arrived.replay.winner)
    if result != (stored.totals, stored.status, stored.winner):
        raise Mismatch(f"match {match_id} replays to {result} where it was {stored.totals}")
    if storage.changes(was, match_id) != storage.changes(now, match_id):
        raise Mismatch(f"the change log of match {match_id} differs")
