"""Players across matches: how each does per game variant, against whom, and renaming them.

A player is the key on the seats they took: their casefolded name, until a rename moves it.
Matches keep every name as the table typed it, so a rename rewrites no match. Statistics are
kept per player as matches change (`storage.tally`), from each match's cached result (totals,
status, winner); a shared first place has no winner, so it is nobody's win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorebook import matches, storage
from scorebook.matches import Conflict, NotFound, Page
from scorebook.storage import Database
from scorers import GAMES
from scorers.refusal import Problems
from scorers.seating import Names
from scorers.words import _, ngettext


def make_key(name: Any) -> str:
    """Return the key a name is looked up by: the exact name, whatever its case."""
    return name.strip().casefold() if isinstance(name, str) else ""


@dataclass
class Record:
    """How a player did in one variant of one game."""

    game: str
    variant: str
    matches: int
    finished: int
    wins: int
    scored: int
    """The sum of the final totals of the finished matches."""

    @property
    def win_rate(self) -> float | None:
        """Return the share of finished matches won, or None before any finished."""
        return round(self.wins / self.finished, 3) if self.finished else None

    @property
    def average_score(self) -> float | None:
        """Return the mean final total over finished matches, or None before any finished."""
        return round(self.scored / self.finished, 1) if self.finished else None


@dataclass
class Rivalry:
    """A player's record against one opponent: matches on opposite sides, and who won them."""

    opponent: str
    matches: int = 0
    wins: int = 0
    losses: int = 0


@dataclass
class Player:
    """One player: the name they go by, their records, rivalries and newest matches."""

    name: str
    records: list[Record]
    rivalries: list[Rivalry]
    recent: Page


@dataclass
class Listed:
    """A player as the list of players shows them."""

    name: str
    matches: int = 0
    wins: int = 0


def nobody_called(name: Any) -> str:
    """Say that a name looked up or renamed belongs to nobody who played here."""
    return _("Nobody called {name} has played a match here.").format(name=repr(name))


def list_players(db: Database) -> list[Listed]:
    """List every player with how many matches they played and won, by name."""
    listed = [Listed(row["name"], row["matches"], row["wins"]) for row in storage.list_players(db)]
    return sorted(listed, key=lambda player: player.name.casefold())


def find(db: Database, name: Any) -> Player:
    """Return a player's records per variant, rivalries and newest matches, or raise NotFound."""
    player_key = make_key(name)
    names = storage.player_names(db, [player_key])
    if not names:
        raise NotFound(nobody_called(name))
    records = [
        Record(
            row["game"],
            GAMES[row["game"]].variant(row["variant"]),
            row["matches"],
            row["finished"],
            row["wins"],
            row["scored"],
        )
        for row in storage.player_records(db, player_key)
    ]
    games = list(GAMES)
    return Player(
        names[player_key],
        sorted(records, key=lambda r: (games.index(r.game), r.variant)),
        find_rivalries(db, player_key),
        matches.find(db, player=player_key),
    )


def find_rivalries(db: Database, player_key: str) -> list[Rivalry]:
    """Return, per opponent, the matches played on opposite sides and who won them."""
    rows = storage.player_rivals(db, player_key)
    names = storage.player_names(db, [row["opponent_key"] for row in rows])
    found = [
        Rivalry(names[row["opponent_key"]], row["matches"], row["wins"], row["losses"])
        for row in rows
    ]
    return sorted(found, key=lambda rivalry: rivalry.opponent.casefold())


def rename(db: Database, name: Any, data: Mapping[str, Any]) -> str:
    """Give a player the name in `data["to"]` and return it; an existing player's name merges.

    Taking the name of a player who never sat at the same table merges the two histories:
    they were one person under two names. Taking the name of someone met at a table is
    refused, since two people sat there.
    """
    problems = Problems()
    new = Names(problems).read(data.get("to"), "to")
    problems.raise_any()
    old_key, new_key = make_key(name), new.casefold()
    with storage.writing(db):
        if not storage.has_player(db, old_key):
            raise NotFound(nobody_called(name))
        together = storage.shared_matches(db, old_key, new_key) if new_key != old_key else 0
        if together:
            raise Conflict(
                ngettext(
                    "{new_name} and {old_name} sat at the same table in {count} match: they are "
                    "two people, so one cannot take the other's name.",
                    "{new_name} and {old_name} sat at the same table in {count} matches: they "
                    "are two people, so one cannot take the other's name.",
                    together,
                ).format(new_name=new, old_name=name, count=together)
            )
        storage.rename_player(db, old_key, new, storage.now_utc())
    return new
