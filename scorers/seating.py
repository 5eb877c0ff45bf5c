"""Who sits where: names checked once for every game, and teams whose partners sit opposite."""

from __future__ import annotations

from typing import Any

from . import explain
from .refusal import Problems, Refusal
from .words import _, ngettext

MAX_NAME_LENGTH = 40


class Names:
    """Check names as they are given, so that no two people or teams at a table share one."""

    def __init__(self, problems: Problems):
        self.problems = problems
        self.seen: set[str] = set()

    def read(self, name: Any, path: str, team: bool = False) -> str:
        """Return a name stripped of spaces, noting it if empty, too long or taken."""
        name = name.strip() if isinstance(name, str) else ""
        if not name:
            nameless = _("Every team needs a name.") if team else _("Every player needs a name.")
            self.problems.add(path, nameless)
        elif len(name) > MAX_NAME_LENGTH:
            self.problems.add(
                path,
                _("A name has at most {most} characters.").format(most=MAX_NAME_LENGTH),
            )
        elif name.casefold() in self.seen:
            self.problems.add(
                path, _("{name} is already at the table: names must differ.").format(name=name)
            )
        self.seen.add(name.casefold())
        return name


def read_players(given: Any, counts: tuple[int, ...], game: str) -> tuple[str, ...]:
    """Check the names in seating order: how many, none empty, none too long, none twice."""
    least, most = counts[0], counts[-1]
    if not isinstance(given, list):
        if least == most:
            needs = ngettext(
                "{game} needs a list of {count} player name.",
                "{game} needs a list of {count} player names.",
                least,
            )
        else:
            needs = _("{game} needs a list of {least} to {most} player names.")
        raise Refusal.at("players", needs.format(game=game, count=least, least=least, most=most))
    problems = Problems()
    names = Names(problems)
    players = tuple(names.read(name, f"players.{i}") for i, name in enumerate(given))
    if len(given) not in counts:
        if least == most:
            played_by = ngettext(
                "{game} is played by {count} player, not {given}.",
                "{game} is played by {count} players, not {given}.",
                least,
            )
        else:
            played_by = _("{game} is played by {least} to {most} players, not {given}.")
        problems.add(
            "players",
            played_by.format(game=game, count=least, least=least, most=most, given=len(given)),
        )
    problems.raise_any()
    return players


def read_teams(
    given: Any, counts: tuple[int, ...], game: str
) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """Check two named teams of equal size; return the seating order and the teams.

    Partners sit opposite, so seats alternate: first of the first team, first of the second,
    second of the first, and so on.
    """
    sizes = explain.names([str(count // 2) for count in counts], _("or"))
    shape = _('{game} needs two teams of {sizes}: {{"team name": [player names]}}.').format(
        game=game, sizes=sizes
    )
    if not isinstance(given, dict) or len(given) != 2:
        raise Refusal.at("teams", shape)
    problems = Problems()
    names = Names(problems)
    teams: dict[str, tuple[str, ...]] = {}
    for team, members in given.items():
        name = names.read(team, f"teams.{team}", team=True)
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
