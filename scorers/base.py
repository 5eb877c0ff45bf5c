"""The contract every game's scorer follows, and the plain data it works on."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from . import explain

PLAYING = "playing"
FINISHED = "finished"
MAX_NAME_LENGTH = 40


class Refusal(Exception):
    """Refuse an input with a sentence a player understands, field by field."""

    def __init__(self, message: str, fields: Mapping[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.fields: dict[str, list[str]] = dict(fields or {})

    @classmethod
    def at(cls, path: str, message: str) -> Refusal:
        """Refuse because of one field, using its message as the summary too."""
        return cls(message, {path: [message]})


class Problems:
    """Collect every mistake in one input so the player can fix them all at once."""

    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        """Note one field's mistake."""
        self.fields.setdefault(path, []).append(message)

    @contextmanager
    def collect(self) -> Iterator[None]:
        """Note a refusal raised inside the block, and carry on checking the rest."""
        try:
            yield
        except Refusal as refusal:
            for path, messages in (refusal.fields or {"": [refusal.message]}).items():
                for message in messages:
                    self.add(path, message)

    def raise_any(self) -> None:
        """Refuse the input if anything was noted: one mistake is the summary, or a count."""
        if not self.fields:
            return
        messages = [message for found in self.fields.values() for message in found]
        summary = (
            messages[0] if len(messages) == 1 else f"{len(messages)} things to fix: {messages[0]}"
        )
        raise Refusal(summary, self.fields)


@dataclass(frozen=True)
class Option:
    """A rule choice a match is created with and keeps for its whole life."""

    name: str
    label: str
    default: Any | Callable[[int], Any]
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def default_for(self, player_count: int) -> Any:
        """Return the default in force for a match of this many players."""
        return self.default(player_count) if callable(self.default) else self.default

    def read(self, value: Any) -> Any:
        """Check one given value, returning it in its stored type."""
        if self.choices:
            if value not in self.choices:
                raise Refusal.at(
                    f"options.{self.name}",
                    f"{self.label} must be one of: {', '.join(self.choices)}.",
                )
            return value
        if isinstance(self.default_for(2), bool):
            if not isinstance(value, bool):
                raise Refusal.at(f"options.{self.name}", f"{self.label} must be true or false.")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refusal.at(f"options.{self.name}", f"{self.label} must be a whole number.")
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise Refusal.at(
                f"options.{self.name}",
                f"{self.label} must be between {self.minimum} and {self.maximum}.",
            )
        return value


@dataclass(frozen=True)
class Table:
    """Who sits at the table and the options the match is played under."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    teams: Mapping[str, tuple[str, ...]] | None = None

    def player(self, name: Any, path: str) -> str:
        """Return the seated player's name as written at creation, matched case-insensitively."""
        if isinstance(name, str):
            for player in self.players:
                if player.casefold() == name.strip().casefold():
                    return player
        raise Refusal.at(
            path, f"{name!r} is not a player in this match: {explain.names(self.players)}."
        )


@dataclass
class RoundResult:
    """What one round scored, why, and the totals after it."""

    scores: dict[str, int]
    explanation: list[str]
    totals: dict[str, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Replay:
    """The state of a match derived from its rounds as entered."""

    rounds: list[RoundResult]
    totals: dict[str, int]
    status: str = PLAYING
    winner: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    ended_after: int | None = None
    """How many rounds had been played when the match ended, if it has."""


class RoundImpossible(Exception):
    """A stored round can no longer be scored after an earlier one changed."""

    def __init__(self, n: int, refusal: Refusal):
        super().__init__(refusal.message)
        self.n = n
        self.refusal = refusal


class Scorer(ABC):
    """One game: its seats, its options, how a round is read and how a match is replayed."""

    id: str
    name: str
    player_counts: tuple[int, ...]
    teams: bool = False
    options: tuple[Option, ...] = ()
    round_form: type
    """The WTForms form a phone fills in for one round (see scorers/forms.py)."""

    def read_table(self, data: Mapping[str, Any]) -> Table:
        """Check the players and options a match is started with, returning its table."""
        problems = Problems()
        players: tuple[str, ...] = ()
        with problems.collect():
            players = self.read_players(data.get("players"))
        options = data.get("options") or {}
        if not isinstance(options, dict):
            problems.add("options", "Options must be an object: option name → value.")
        else:
            with problems.collect():
                options = self.resolve_options(options, len(players) or self.player_counts[0])
        problems.raise_any()
        return Table(players=players, options=options)

    def read_players(self, given: Any) -> tuple[str, ...]:
        """Check the names in seating order: how many, none empty, none too long, none twice."""
        counts = f"{self.player_counts[0]} to {self.player_counts[-1]}"
        if not isinstance(given, list):
            raise Refusal.at("players", f"{self.name} needs a list of {counts} player names.")
        problems = Problems()
        seen: set[str] = set()
        names = []
        for i, name in enumerate(given):
            name = name.strip() if isinstance(name, str) else ""
            if not name:
                problems.add(f"players.{i}", "Every player needs a name.")
            elif len(name) > MAX_NAME_LENGTH:
                problems.add(f"players.{i}", f"A name has at most {MAX_NAME_LENGTH} characters.")
            elif name.casefold() in seen:
                problems.add(f"players.{i}", f"{name} is already at the table: names must differ.")
            seen.add(name.casefold())
            names.append(name)
        if len(given) not in self.player_counts:
            problems.add("players", f"{self.name} is played by {counts} players, not {len(given)}.")
        problems.raise_any()
        return tuple(names)

    def resolve_options(self, given: Mapping[str, Any], player_count: int) -> dict[str, Any]:
        """Return every option's value in force, refusing unknown or impossible ones."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise Refusal.at(
                f"options.{unknown[0]}",
                f"{self.name} has no option {unknown[0]!r}; "
                f"its options are: {', '.join(known) or 'none'}.",
            )
        return {
            name: option.default_for(player_count)
            if given.get(name) is None
            else option.read(given[name])
            for name, option in known.items()
        }

    @abstractmethod
    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check one round as given (API shape) and return it normalised, or raise Refusal."""

    @abstractmethod
    def replay(self, table: Table, rounds: Sequence[Mapping[str, Any]]) -> Replay:
        """Score the rounds in order; raise RoundImpossible for one that cannot stand."""
