"""Who sits where: names checked once for every game, and teams whose partners sit opposite."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from . import explain
from .refusal import Problems, Refusal
from .words import _, ngettext

MAX_NAME_LENGTH = 40

PLAYER, TEAM, DEVICE, CIRCLE = "player", "team", "device", "circle"
"""What a name names: a player, a team, the phone (device) that scores, or a circle."""

JOINERS = {"\u200c", "\u200d"}
"""Zero-width (non-)joiners: Persian, Kannada and emoji sequences need them between letters."""

BLANKS = set("\u115f\u1160\u2800\u3164\uffa0")
"""Letters and signs that show nothing: the Hangul fillers and the blank Braille pattern."""


def checked_name(given: Any, path: str, what: str = PLAYER) -> str:
    """Return a name trimmed of spaces, or refuse it: empty, too long, or not plain text.

    One rule for players, teams and phones, in forms, the API and imports: no control or
    formatting character (a bidi override could make "Ana" read as someone else), and at
    least one character that shows.
    """
    name = given.strip() if isinstance(given, str) else ""
    if not name:
        raise Refusal.at(path, nameless(what))
    if len(name) > MAX_NAME_LENGTH:
        too_long = (
            _("A device label has at most {count} characters.")
            if what == DEVICE
            else _("A name has at most {most} characters.")
        )
        raise Refusal.at(path, too_long.format(most=MAX_NAME_LENGTH, count=MAX_NAME_LENGTH))
    character = first_hidden(name)
    if character is not None:
        raise Refusal.at(
            path,
            _(
                "A name cannot hold control or invisible formatting characters "
                "(here {code}): type it again without it."
            ).format(code=f"U+{ord(character):04X}"),
        )
    if all(invisible(character) for character in name):
        raise Refusal.at(path, _("A name needs at least one letter, digit or sign that shows."))
    return name


def check_plain(text: str, path: str) -> None:
    """Refuse a text (a note, a place, an event's name) as a name is refused for a control or
    invisible formatting character: a bidi override makes it read as something else, and a
    control character breaks the result picture it is drawn in."""
    if first_hidden(text) is not None:
        raise Refusal.at(
            path,
            _("This cannot hold control or invisible formatting characters: type it again."),
        )


def first_hidden(text: str) -> str | None:
    """Return the first control or formatting character of a text, or None; a joiner between
    two characters that show is part of the writing, not one."""
    return next(
        (
            character
            for i, character in enumerate(text)
            if hidden(character) and not joining(text, i)
        ),
        None,
    )


def nameless(what: str) -> str:
    """Say that a name is missing."""
    if what == TEAM:
        return _("Every team needs a name.")
    if what == DEVICE:
        return _("Every phone needs a name.")
    if what == CIRCLE:
        return _("Every circle needs a name.")
    return _("Every player needs a name.")


def hidden(character: str) -> bool:
    """Say whether a character is a control, a format character or half of one (a surrogate)."""
    return unicodedata.category(character) in ("Cc", "Cf", "Cs", "Zl", "Zp")


def joining(name: str, i: int) -> bool:
    """Say whether name[i] is a joiner standing between two characters that show."""
    return (
        name[i] in JOINERS
        and 0 < i < len(name) - 1
        and not invisible(name[i - 1])
        and not invisible(name[i + 1])
    )


def invisible(character: str) -> bool:
    """Say whether a character shows nothing by itself: a space, a mark, a format or blank."""
    return (
        character.isspace()
        or character in BLANKS
        or unicodedata.category(character) in ("Cc", "Cf", "Cs", "Mn", "Me", "Zs", "Zl", "Zp")
    )


class Names:
    """Check names as they are given, so that no two people or teams at a table share one."""

    def __init__(self, problems: Problems):
        self.problems = problems
        self.seen: set[str] = set()

    def read(self, name: Any, path: str, team: bool = False) -> str:
        """Return a name stripped of spaces, noting it if it is not a name or is taken."""
        try:
            name = checked_name(name, path, TEAM if team else PLAYER)
        except Refusal as refusal:
            self.problems.add(path, refusal.message)
            return name.strip() if isinstance(name, str) else ""
        if name.casefold() in self.seen:
            self.problems.add(
                path, _("{name} is already at the table: names must differ.").format(name=name)
            )
        self.seen.add(name.casefold())
        return name


def seated(name: Any, players: Sequence[str], path: str) -> str:
    """Return a seated player's name as written at creation, matched case-insensitively."""
    if isinstance(name, str):
        for player in players:
            if player.casefold() == name.strip().casefold():
                return player
    raise Refusal.at(
        path,
        _("{name} is not a player in this match: {players}.").format(
            name=repr(name), players=explain.names(players)
        ),
    )


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
    sizes = explain.either(count // 2 for count in counts)
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
