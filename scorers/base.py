"""The contract every game's scorer follows, and the plain data it works on."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from . import explain
from .draw import Record
from .options import Option
from .refusal import Problems, Refusal
from .seating import read_players, read_teams, seated
from .words import _, lazy, ngettext

PLAYING = "playing"
FINISHED = "finished"
LEFT, RIGHT = 1, -1
"""Which way the deal moves: players are seated in order, each next one on the left."""
Entered: TypeAlias = Mapping[str, Any]
"""One round as the table entered it, once read: what a game's `read_round` returns."""
Rounds: TypeAlias = Sequence[Entered]
"""A match's rounds in the order they were played."""


def seats(count: int) -> tuple[str, ...]:
    """Name the seats of a table nobody has sat at yet: "Player 1", "Player 2", … (in English,
    as the values a form posts and the API's defaults use; the form labels them in words)."""
    return tuple(f"Player {seat}" for seat in range(1, count + 1))


@dataclass(frozen=True)
class Table:
    """Who sits at the table and the options the match is played under."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    teams: Mapping[str, tuple[str, ...]] | None = None

    def team_of(self, player: str) -> str:
        """Return the team a seated player plays for."""
        return next(team for team, members in (self.teams or {}).items() if player in members)

    def team(self, name: Any, path: str) -> str:
        """Return a team's name as written at creation, matched case-insensitively."""
        if isinstance(name, str):
            for team in self.teams or {}:
                if team.casefold() == name.strip().casefold():
                    return team
        teams = explain.names(list(self.teams or {}))
        raise Refusal.at(path, _("Name a team: {teams}.").format(teams=teams))

    def each(
        self,
        given: Mapping[Any, Any],
        path: str,
        read: Callable[[str, Any, str], Any],
        problems: Problems,
        by_team: bool = False,
    ) -> dict[str, Any]:
        """Read a value per player (or team) named once each, noting every mistake.

        `read(name, value, path)` checks one value; names come back as written at creation.
        """
        name_of = self.team if by_team else self.player
        seen: dict[str, Any] = {}
        for given_name, value in given.items():
            where = f"{path}.{given_name}"
            with problems.collect():
                name = name_of(given_name, where)
                if name in seen:
                    raise Refusal.at(where, _("{name} is given twice.").format(name=name))
                seen[name] = None
                seen[name] = read(name, value, where)
        return seen

    def player(self, name: Any, path: str) -> str:
        """Return the seated player's name as written at creation, matched case-insensitively."""
        return seated(name, self.players, path)

    def dealer(self, deals: int, step: int = LEFT) -> str:
        """Return who deals once this many deals are over, the deal moving `step` seats a deal.

        Matches started before the first dealer was an option deal first from the first seat.
        """
        first = self.players.index(self.options.get("first_dealer") or self.players[0])
        return self.players[(first + step * deals) % len(self.players)]


@dataclass
class RoundResult:
    """What one round scored, why, and the totals after it."""

    scores: dict[str, int]
    explanation: list[str]
    totals: dict[str, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    dealer: str | None = None
    """Who dealt the round (in Barbu the declarer; in Porrazo whoever dealt when it was pegged)."""

    def answered(self) -> dict[str, Any]:
        """Say what the round scored as the API's rounds carry it: scores, the explanation,
        the totals after it, who dealt it and what the game adds."""
        dealt = {} if self.dealer is None else {"dealer": self.dealer}
        return {
            "scores": self.scores,
            "explanation": self.explanation,
            "totals": self.totals,
            **dealt,
            **self.extra,
        }


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
    carry: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What scoring the next round needs beyond the state shown (a game's own running state)."""

    def continued(self, table: Table) -> Replay:
        """Return a copy to score one more round on, leaving this replay as it is.

        The rounds scored stay shared (they are never changed); totals, state and carry are
        copied together, so whatever they share stays shared in the copy.
        """
        totals, state, carry = copy.deepcopy(
            (self.totals, self.state, self.carry), {id(table): table}
        )
        return Replay(
            list(self.rounds), totals, self.status, self.winner, state, self.ended_after, carry
        )

    def name_dealers(self, table: Table, step: int = LEFT) -> None:
        """Say who dealt each round and who deals the next, the deal moving `step` seats a round."""
        for index, result in enumerate(self.rounds):
            result.dealer = table.dealer(index, step)
        self.state["dealer"] = table.dealer(len(self.rounds), step)

    def finish(self, winner: str | None) -> None:
        """End the match with the round being scored now."""
        self.status = FINISHED
        self.winner = winner
        self.ended_after = len(self.rounds) + 1


@dataclass(frozen=True)
class Standing:
    """One side in the score bar: its total, whether it leads, how far it is from the end."""

    side: str
    total: int
    leads: bool
    to_go: str | None = None


@dataclass(frozen=True)
class Rule:
    """One rule as a match plays it, and how to spot the rounds it scored."""

    title: str
    text: str
    applies: Callable[[Mapping[str, Any], RoundResult], bool] | None = None
    """Whether the rule produced a number in a round (entered, result); None for every round."""


@dataclass(frozen=True)
class Oddity:
    """A round the rules accept but a table rarely sees: asked about once before Record.

    A check only asks, it never refuses: a slip is caught, and an odd round still counts.
    """

    text: str | lazy
    """What it checks, as the game's list of unusual rounds says it."""
    ask: Callable[[Table, Mapping[str, Any], RoundResult], str | None]
    """The question a round raises (table, entered, result), or None for an ordinary round:
    one short sentence ending with "?"."""


class RoundImpossible(Exception):
    """A round cannot be scored where it stands: refused (422), or waiting on another (409)."""

    def __init__(self, n: int, refusal: Refusal, waiting: bool = False):
        super().__init__(refusal.message)
        self.n = n
        self.refusal = refusal
        self.waiting = waiting
        """The round breaks no rule but another must be recorded first (a porrazo at 61)."""


class Unfit(Exception):
    """A change the rules accept but the match can't take where it stands: a later round it
    breaks, or rounds played after the end it makes (the server's 409)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Presentation:
    """How pages show a game: optional hooks, each with a default most games keep.

    Nothing here changes a score; a game overrides what its pages say differently.
    """

    round_name = lazy("Round")
    """What the table calls one scored round: a round, a deal, a hand."""
    round_word = lazy("round")
    """The same word inside a sentence: "Record round 3" (German keeps its capital)."""
    rounds_word = lazy("rounds")
    """And in the plural: "Replay the same 12 rounds"."""
    tie_message = lazy("Tie for the lead: extra round.")
    """What the banner says while a tie at the end calls for another round."""
    pictured = False
    """The sheet draws the game's board, worth showing before the first round too."""
    recent = 30
    """How many of the latest rounds the match page shows (every hand of a Barbu match); the
    whole sheet shows them all."""
    layouts: Mapping[str, str] = {}
    """Ways a new match can be seated (id → name on the page); the first is the usual one."""
    # Read from the scorer, which declares them.
    name: str
    teams: bool
    low_leads: bool
    deal_step: int

    def home_entries(self) -> list[tuple[str, dict[str, str]]]:
        """List what the home page offers to start with this game: a name and the options it
        presets (Belote offers Coinche too)."""
        return [(self.name, {})]

    def layout_preset(self, layout: str | None) -> dict[str, Any]:
        """Return the options a seating layout fixes (Gaigel for three plays mode three)."""
        return {}

    def layout_teams(self, layout: str | None) -> bool:
        """Say whether a seating layout seats teams."""
        return self.teams

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Return the game's rules as written for a match played under these options."""
        return []

    def dealing_rule(self, options: Mapping[str, Any]) -> Rule:
        """Write the "Who deals" rule: who dealt first and which way the deal moves."""
        first = options.get("first_dealer") or _("the first player")
        if self.deal_step == LEFT:
            text = _(
                "First dealer: {player}. After each deal, the player to the left deals (clockwise)."
            )
        else:
            text = _(
                "First dealer: {player}. After each deal, the player to the right deals "
                "(counter-clockwise)."
            )
        return Rule(_("Who deals"), text.format(player=first))

    def length_rule(self, options: Mapping[str, Any]) -> list[Rule]:
        """Say how long a match of fixed length is, when it is one."""
        deals = options.get("match_deals")
        if deals is None:
            return []
        text = ngettext(
            "The match ends after {n} {round}: then the best total wins, and equal best totals "
            "share first place. No target ends it sooner; a game with an end of its own (the "
            "last Barbu contract, a clear Gaigel slate) may.",
            "The match ends after {n} {rounds}: then the best total wins, and equal best totals "
            "share first place. No target ends it sooner; a game with an end of its own (the "
            "last Barbu contract, a clear Gaigel slate) may.",
            deals,
        )
        said = text.format(n=deals, round=self.round_word, rounds=self.rounds_word)
        return [Rule(_("Length of the match"), said)]

    def rules_applied(
        self, options: Mapping[str, Any], scored: Sequence[tuple[Entered, RoundResult]]
    ) -> list[tuple[Rule, list[int]]]:
        """Pair each rule a match is played under with the numbers of the rounds it scored
        (`scored`: each round as entered with what it scored, in order), as its rules page
        lists them."""
        return [
            (
                rule,
                [
                    n
                    for n, (entered, result) in enumerate(scored, 1)
                    if rule.applies and rule.applies(entered, result)
                ],
            )
            for rule in [*self.rules(options), *self.length_rule(options)]
        ]

    def progress(self, table: Table, replay: Replay) -> str:
        """Name the round being entered, as the score bar heads it: "Deal 5"."""
        return _("{round} {n}").format(round=self.round_name, n=len(replay.rounds) + 1)

    def dealers_ahead(self, table: Table, replay: Replay, count: int = 12) -> list[str]:
        """Say who deals each of the next `count` rounds, for a phone that records them while
        the server is out of reach; none where the deal does not move a seat a round."""
        if "dealer" not in replay.state:
            return []
        played = len(replay.rounds)
        return [table.dealer(played + ahead, self.deal_step) for ahead in range(count)]

    def standings(self, table: Table, replay: Replay) -> list[Standing]:
        """Say, for the score bar, each side's total, whether it leads and how far it is from
        the end; nobody leads while every total is the same."""
        totals = replay.totals
        best = (min if self.low_leads else max)(totals.values(), default=0)
        level = len(set(totals.values())) <= 1
        return [
            Standing(side, total, not level and total == best, self.to_go(table, replay, side))
            for side, total in totals.items()
        ]

    def to_go(self, table: Table, replay: Replay, side: str) -> str | None:
        """Say how far a side is from the end of the match: by default, points to the target."""
        target = table.options.get("target")
        deals = table.options.get("match_deals")
        if deals is not None and replay.status != FINISHED:
            left = deals - len(replay.rounds)
            to_go = ngettext("{n} {round} to go", "{n} {rounds} to go", left)
            return to_go.format(n=left, round=self.round_word, rounds=self.rounds_word)
        if not isinstance(target, int) or replay.status == FINISHED:
            return None
        left = max(0, target - replay.totals[side])
        return _("{points} to go").format(points=left)

    def banner(self, replay: Replay) -> str:
        """Say who won a finished match, as the banner over its sheet does."""
        if replay.winner is None:
            shared = explain.names(replay.state.get("shared_first", []))
            return _("{players} share first place!").format(players=shared)
        return _("{winner} wins with {points}!").format(
            winner=replay.winner, points=replay.totals[replay.winner]
        )

    def say_over(self, replay: Replay) -> str:
        """Say why a finished match takes no more rounds, wherever a round is entered."""
        over = _("The match is over: {banner} Start a new match to play on.")
        return over.format(banner=self.banner(replay))

    def picture_kind(self, table: Table) -> str:
        """Say how the picture shared of a finished match draws it: "sheet", the columns of
        scores; "slate", each side's strokes chalked (a Gaigel slate)."""
        return "sheet"


class EventHooks:
    """How an event (a tournament of several tables) plays a game: optional hooks, each with
    a default most games keep."""

    event_sizes: tuple[int, ...] | None = None
    """How many entrants an event seats at one table (teams or players); None: the player
    counts, and an event of this game chooses its table size among them."""
    event_rule = lazy(
        "Matches won first, then the most points scored, then the fewest points against."
    )
    """How an event of this game ranks its entrants, as its standings page says it."""

    def event_order(self, record: Record) -> tuple[int, ...]:
        """Sort an entrant's event record as `event_rule` says (the smallest key ranks first)."""
        return (-record.won, -record.points, record.against)

    def check_event_options(self, given: Mapping[str, Any]) -> None:
        """Refuse options an event of this game cannot be played with; most games take any."""
        return


class Scorer(Presentation, EventHooks, ABC):
    """One game: its seats, its options, how a round is read and how a match is replayed.

    What a game must say is abstract here: how to read a round, score the rounds, and describe
    one. The rest has a default: scoring one more round (`score_on`), the options and seating
    below, and the optional hooks of `Presentation` and `EventHooks`.
    """

    id: str
    name: str
    player_counts: tuple[int, ...]
    teams: bool = False
    team_names: tuple[str, ...] = ()
    """The names a new match's teams are given until the table types its own."""
    options: tuple[Option, ...] = ()
    low_leads = False
    """The lowest total leads (Rami), instead of the highest."""
    deal_step = LEFT
    """Which way the deal moves round the table, a seat a deal (RIGHT: counter-clockwise)."""
    oddities: tuple[Oddity, ...] = ()
    """The rounds the rules accept but a table rarely sees: asked about before Record."""

    @abstractmethod
    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check one round as given (API shape) and return it normalised, or raise Refusal."""

    @abstractmethod
    def score(self, table: Table, rounds: Rounds) -> Replay:
        """Score the rounds in order by the game's own rules and its own end."""

    def score_on(self, table: Table, replay: Replay, rounds: Rounds, entered: Entered) -> Replay:
        """Score one more round on `replay` (a copy, the game's to change), as `score` would
        score them all. By default it is that; a game whose matches run long scores only the
        new round, from what the replay carries."""
        return self.score(table, [*rounds, entered])

    def oddities_of(self, table: Table, entered: Entered, result: RoundResult) -> list[str]:
        """Return the questions a round raises, as read and scored in its match (none for an
        ordinary round)."""
        asked = (oddity.ask(table, entered, result) for oddity in self.oddities)
        return [question for question in asked if question]

    def outcome_of(self, result: RoundResult) -> str:
        """Say in a word how a round went, as the sheet writes it beside the round (a deal made
        or fallen); nothing for most games."""
        return ""

    def cell_mark(self, entered: Mapping[str, Any], player: str) -> str:
        """Say, in a word under a player's score on the sheet, what they did in the round
        ("out"); nothing for most games."""
        return ""

    @abstractmethod
    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say a round as the table told it, in the reader's words and the game's (the Why?
        page, the sheet's "Was:", the removed list): never the codes it is stored with."""

    def read_table(self, data: Mapping[str, Any]) -> Table:
        """Check the players (or teams) and options a match is started with."""
        problems = Problems()
        players: tuple[str, ...] = ()
        teams = None
        options = data.get("options") or {}
        if not isinstance(options, dict):
            problems.add("options", _("Options must be an object: option name → value."))
            options = {}
        in_teams = self.plays_in_teams(options, data)
        counts = self.counts_for(options, in_teams)
        with problems.collect():
            if in_teams:
                players, teams = read_teams(data.get("teams"), counts, self.name)
            else:
                players = read_players(data.get("players"), counts, self.name)
        if not players:
            # Who deals first can only be checked against names that stand.
            seated = {option.name for option in self.options if option.player}
            options = {name: value for name, value in options.items() if name not in seated}
        with problems.collect():
            options = self.resolve_options(options, players or seats(counts[0]))
        problems.raise_any()
        return Table(players=players, options=options, teams=teams)

    def plays_in_teams(self, options: Mapping[str, Any], data: Mapping[str, Any]) -> bool:
        """Say whether a new match seats teams; some games may be played either way."""
        return self.teams

    def counts_for(self, options: Mapping[str, Any], in_teams: bool) -> tuple[int, ...]:
        """Return how many may play a match seated this way with these options."""
        return self.player_counts

    def resolve_options(self, given: Mapping[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
        """Return every option's value in force, refusing unknown or impossible ones."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            if known:
                no_such = _("{game} has no option {option}; its options are: {options}.")
            else:
                no_such = _("{game} has no option {option}; its options are: none.")
            raise Refusal.at(
                f"options.{unknown[0]}",
                no_such.format(game=self.name, option=repr(unknown[0]), options=", ".join(known)),
            )
        problems = Problems()
        chosen: dict[str, Any] = {}
        for name, option in known.items():
            # A default may follow the options before it (a coinche target is 2000).
            chosen[name] = option.default_for(players, chosen)
            if given.get(name) is not None:
                with problems.collect():
                    chosen[name] = option.read(given[name], players)
        problems.raise_any()
        self.check_options(chosen)
        # An option left unset (a match of no fixed length) is not kept at all.
        return {name: value for name, value in chosen.items() if value is not None}

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse options that do not fit together; most games have none that clash."""
        return

    def variant_key(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return what keeps a match's statistics and ratings apart: the game's own variant,
        and a fixed length (an event's 12 deals) apart from a race to a target."""
        deals = options.get("match_deals")
        if deals is None:
            return self.kept_apart(options)
        # No target ends a match of fixed length: its deals say what its totals mean.
        own = dict(self.kept_apart(options))
        own.pop("target", None)
        return own | {"deals": deals}

    def kept_apart(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return the options that change what a match's scores mean in this game. A game
        played one way has none."""
        return {}

    def variant(self, key: Mapping[str, Any]) -> str:
        """Name a variant from its key, in the reader's language."""
        deals = key.get("deals")
        if deals is None:
            return self.name_kept_apart(key)
        said = ngettext("{game}, {n} {round}", "{game}, {n} {rounds}", deals)
        return said.format(
            game=self.title(key), n=deals, round=self.round_word, rounds=self.rounds_word
        )

    def name_kept_apart(self, key: Mapping[str, Any]) -> str:
        """Name this game's own variant from its key."""
        return self.name

    def title(self, options: Mapping[str, Any]) -> str:
        """Name the game as a table playing with these options calls it."""
        return self.name

    def standing_value(self, options: Mapping[str, Any], total: int) -> int:
        """Turn a side's final total into a value where higher is better: ratings place the
        sides of a finished match by it."""
        return -total if self.low_leads else total

    def replay(self, table: Table, rounds: Rounds) -> Replay:
        """Score the rounds in order, ending a match of fixed length after its last deal;
        raise RoundImpossible for one that cannot stand."""
        return self.played_out(table, self.score(table, rounds))

    def advance(self, table: Table, replay: Replay, rounds: Rounds, entered: Entered) -> Replay:
        """Score one more round after `rounds`, whose replay is `replay` (left unchanged).

        It gives what `replay(table, [*rounds, entered])` gives.
        """
        following = replay.continued(table)
        return self.played_out(table, self.score_on(table, following, rounds, entered))

    def replay_change(
        self, table: Table, rounds: Rounds, changed: int | None, after: Replay | None = None
    ) -> Replay:
        """Replay the rounds a change to a match leaves (an added, corrected, removed or
        restored round), so the server and the phone refuse the same changes the same way.

        `changed` is the round whose own refusal the change's is (None for a removal). `after`
        is the replay of every round but the last, when it is at hand: then only the last round
        is scored, on it.

        :raises Refusal: the changed round itself breaks a rule.
        :raises Unfit: a later round would break, or rounds would follow the end it makes.
        """
        try:
            if after is None:
                replay = self.replay(table, rounds)
            else:
                replay = self.advance(table, after, rounds[:-1], rounds[-1])
        except RoundImpossible as impossible:
            if impossible.n == changed and impossible.waiting:
                raise Unfit(impossible.refusal.message) from None
            if impossible.n == changed:
                raise impossible.refusal from None
            raise Unfit(
                _("With this change, {round} {n} could no longer be scored: {reason}").format(
                    round=self.round_word, n=impossible.n, reason=impossible.refusal.message
                )
            ) from None
        if replay.ended_after is not None and replay.ended_after < len(rounds):
            raise Unfit(
                _(
                    "With this change the match would end after {round} {n}, but {later} more "
                    "were played after it. Remove the later {rounds} first."
                ).format(
                    round=self.round_word,
                    n=replay.ended_after,
                    later=len(rounds) - replay.ended_after,
                    rounds=self.rounds_word,
                )
            )
        return replay

    def played_out(self, table: Table, replay: Replay) -> Replay:
        """End a match of fixed length (`match_deals`) once its last deal is scored, unless the
        game ended it sooner; refuse a deal beyond it."""
        deals = table.options.get("match_deals")
        if deals is None or len(replay.rounds) < deals or replay.ended_after is not None:
            return replay
        if len(replay.rounds) > deals:
            raise RoundImpossible(
                deals + 1,
                Refusal(
                    ngettext(
                        "The match ended after {n} {round}; nothing more can be recorded.",
                        "The match ended after {n} {rounds}; nothing more can be recorded.",
                        deals,
                    ).format(n=deals, round=self.round_word, rounds=self.rounds_word)
                ),
            )
        leaders = self.leaders(table, replay)
        replay.status, replay.ended_after = FINISHED, deals
        replay.winner = leaders[0] if len(leaders) == 1 else None
        if replay.winner is None:
            replay.state["shared_first"] = leaders
        return replay

    def leaders(self, table: Table, replay: Replay) -> list[str]:
        """Name the sides with the best total, who win a match stopped after its deals."""
        best = (min if self.low_leads else max)(replay.totals.values())
        return [side for side, total in replay.totals.items() if total == best]
