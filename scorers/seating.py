"""Who sits where: names checked once for every game, and teams whose partners sit opposite."""

from __future__ import annotations

from typing import Any

from .refusal import Problems, Refusal

MAX_NAME_LENGTH = 40


class Names:
    """Check names as they are given, so that no two people or teams at a table share one."""

    def __init__(self, problems: Problems):
        self.problems = problems
        self.seen: set[str] = set()

    def read(self, name: Any, path: str, what: str = "player") -> str:
        """Return a name stripped of spaces, noting it if empty, too long or taken."""
        name = name.strip() if isinstance(name, str) else ""
        if not name:
            self.problems.add(path, f"Every {what} needs a name.")
        elif len(name) > MAX_NAME_LENGTH:
            self.problems.add(path, f"A name has at most {MAX_NAME_LENGTH} characters.")
        elif name.casefold() in self.seen:
            self.problems.add(path, f"{name} is already at the table: names must differ.")
        self.seen.add(name.casefold())
        return name


def read_players(given: Any, counts: tuple[int, ...], game: str) -> tuple[str, ...]:
    """Check the names in seating order: how many, none empty, none too long, none twice."""
    allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    if not isinstance(given, list):
        raise Refusal.at("players", f"{game} needs a list of {allowed} player names.")
    problems = Problems()
    names = Names(problems)
    players = tuple(names.read(name, f"players.{i}") for i, name in enumerate(given))
    if len(given) not in counts:
        problems.add("players", f"{game} is played by {allowed} players, not {len(given)}.")
    problems.raise_any()
    return players


def read_teams(
    given: Any, counts: tuple[int, ...], game: str
) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Check two named teams of equal size; return the seating order and the teams.

    Partners sit opposite, so seats alternate: first of the first team, first of the second,
    second of the first, and so on.
    """
    sizes = " or ".join(str(count // 2) for count in counts)
    shape = f'{game} needs two teams of {sizes}: {{"team name": [player names]}}.'
    if not isinstance(given, dict) or len(given) != 2:
        raise Refusal.at("teams", shape)
    problems = Problems()
    names = Names(problems)
    teams: dict[str, tuple[str, ...]] = {}
    for team, members in given.items():
        name = names.read(team, f"teams.{team}", "team")
        if not isinstance(members, list):
            problems.add(f"teams.{team}", shape)
            members = []
        teams[name] = tuple(
            names.read(member, f"teams.{team}.{i}") for i, member in enumerate(members)
        )
    first, second = teams.values()
    if len(first) != len(second) or len(first) + len(second) not in counts:
        problems.add("teams", shape)
    problems.raise_any()
    seats = tuple(player for pair in zip(first, second, strict=True) for player in pair)
    return seats, teams
