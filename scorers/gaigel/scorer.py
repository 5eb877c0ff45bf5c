"""Gaigel: the scorer (the stroke slate for two teams, the tournament for three)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import explain
from ..base import FINISHED, Entered, Replay, RoundResult, Rounds, Rule, Scorer, Standing, Table
from ..draw import Record
from ..options import FIRST_DEALER, MATCH_DEALS, Option, choice_option
from ..refusal import Refusal
from ..words import _, lazy, ngettext
from .oddities import ODDITIES
from .rules import (
    AUS,
    CALL_SAID,
    CALLER_LOSES,
    DEALS_PER_SESSION,
    OUTCOMES,
    SESSIONS,
    VARIANTS,
    counted,
    game_points,
    judge,
    read_deal,
    read_three,
)

GIVING, ERASING = "giving", "erasing"


@dataclass
class Slate:
    """The slate as the players draw it: strokes given in phase 1, crossed out in phase 2."""

    pool: int
    teams: Sequence[str]
    given: int = 0
    held: dict[str, int] = field(default_factory=dict)
    marks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.held = dict.fromkeys(self.teams, 0)
        self.marks = {team: [] for team in self.teams}

    @property
    def phase(self) -> str:
        """Say whether strokes are still being given, or already erased."""
        return GIVING if self.given < self.pool else ERASING

    def give(self, loser: str, strokes: int) -> list[str]:
        """Give the losers their strokes, never more than are left to give."""
        left = self.pool - self.given
        taken = min(strokes, left)
        self.given += taken
        self.held[loser] += taken
        self.marks[loser].append({"kind": "V" if taken == 2 else "I", "units": taken, "crossed": 0})
        if taken < strokes:
            sentence = ngettext(
                "{team} takes {strokes} stroke (only {left} was left to give): "
                "{given} of {pool} given.",
                "{team} takes {strokes} strokes (only {left} was left to give): "
                "{given} of {pool} given.",
                taken,
            )
        else:
            sentence = ngettext(
                "{team} takes {strokes} stroke: {given} of {pool} given.",
                "{team} takes {strokes} strokes: {given} of {pool} given.",
                taken,
            )
        sentences = [
            sentence.format(team=loser, strokes=taken, left=left, given=self.given, pool=self.pool)
        ]
        if self.phase == ERASING:
            sentences.append(_("Every stroke is given: from now on the winners erase their own."))
        return sentences

    def erase(self, winner: str, strokes: int) -> list[str]:
        """Cross out the winners' strokes; erasing past zero is lost."""
        erased = min(strokes, self.held[winner])
        self.held[winner] -= erased
        left = erased
        for mark in self.marks[winner]:
            crossing = min(left, mark["units"] - mark["crossed"])
            mark["crossed"] += crossing
            left -= crossing
        if erased < strokes:
            sentence = _("{team} erases {erased} (now {held}); the other {lost} is lost.")
        else:
            sentence = _("{team} erases {erased} (now {held}).")
        held = self.held[winner]
        return [sentence.format(team=winner, erased=erased, held=held, lost=strokes - erased)]

    def state(self) -> dict[str, Any]:
        """Describe the slate for the API and the board picture."""
        return {
            "phase": self.phase,
            "given": self.given,
            "pool": self.pool - self.given,
            "board": {team: [dict(mark) for mark in marks] for team, marks in self.marks.items()},
        }


def settle_slate(slate: Slate, replay: Replay, explanation: list[str], ended_giving: bool) -> None:
    """End the match: a team with no strokes when giving ends, or the first to erase them all."""
    if ended_giving:
        clean = [team for team, held in slate.held.items() if held == 0]
        if clean:
            replay.finish(clean[0])
            explanation.append(
                _("{team} took no stroke at all: it wins as the giving ends.").format(team=clean[0])
            )
        return
    if slate.phase == ERASING:
        clear = [team for team, held in slate.held.items() if held == 0]
        if clear:
            replay.finish(clear[0])
            explanation.append(
                _("{team} has erased every stroke: it wins the match.").format(team=clear[0])
            )


class Gaigel(Scorer):
    """Gaigel: two teams give and erase strokes; or three players share 9 points a deal."""

    id = "gaigel"
    name = "Gaigel"
    player_counts = (3, 4, 6)
    teams = True
    team_names = ("Oben", "Unten")
    round_name = lazy("Deal")
    round_word = lazy("deal")
    rounds_word = lazy("deals")
    pictured = True
    oddities = ODDITIES
    event_sizes = (2,)
    event_rule = lazy(
        "Matches won first, then the fewest strokes left on the slate, then the most strokes "
        "left to the other teams."
    )

    def event_order(self, record: Record) -> tuple[int, ...]:
        """A slate's strokes count against the team holding them."""
        return (-record.won, record.points, -record.against)

    def check_event_options(self, given: Mapping[str, Any]) -> None:
        """An event's tables are paired team against team: no three-player tournament."""
        if given.get("mode", "teams") != "teams":
            raise Refusal.at("options.mode", _("A Gaigel event is played in teams."))

    layouts = {"teams": lazy("Two teams (4 or 6)"), "three": lazy("Three players")}
    options = (
        choice_option(
            "mode",
            lazy("Mode"),
            layouts,
            lazy("Two teams on a slate, or three players in the tournament scoring."),
        ),
        Option(
            "strokes",
            lazy("Strokes"),
            default=10,
            help=lazy("How many strokes the slate gives out before they are erased."),
            minimum=1,
            maximum=40,
            layouts=("teams",),
        ),
        Option(
            "five_sevens",
            lazy("Five sevens win"),
            default=False,
            help=lazy("Five 7s win a single."),
            layouts=("teams",),
        ),
        Option(
            "auf_farbe",
            lazy("Auf Farbe wins"),
            default=False,
            help=lazy("Five of a suit win a single."),
            layouts=("teams",),
        ),
        FIRST_DEALER,
        MATCH_DEALS,
    )

    def kept_apart(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Keep the three-player tournament apart, and teams by the strokes they play to."""
        if options["mode"] == "three":
            return {"mode": "three"}
        return {"mode": options["mode"], "strokes": options["strokes"]}

    def name_kept_apart(self, key: Mapping[str, Any]) -> str:
        """Name the variant: the three-player tournament, or teams by their strokes."""
        if key["mode"] == "three":
            return _("Gaigel for three")
        return _("Gaigel teams, {strokes} strokes").format(strokes=key["strokes"])

    def banner(self, replay: Replay) -> str:
        """Say who won: on the slate, the team that erased its last stroke."""
        if replay.state.get("board") and replay.winner:
            return _("{team} wins: every stroke erased!").format(team=replay.winner)
        return super().banner(replay)

    def plays_in_teams(self, options: Mapping[str, Any], data: Mapping[str, Any]) -> bool:
        """Seat teams, unless three play each for themselves."""
        return options.get("mode") != "three"

    def counts_for(self, options: Mapping[str, Any], in_teams: bool) -> tuple[int, ...]:
        """Return 4 or 6 for teams, 3 for the three-player mode."""
        return (3,) if options.get("mode") == "three" else (4, 6)

    def layout_preset(self, layout: str | None) -> dict[str, Any]:
        """Fix the mode to the layout chosen: teams, or three players."""
        return {"mode": layout} if layout in self.layouts else {}

    def layout_teams(self, layout: str | None) -> bool:
        """Seat teams unless the table chose three players."""
        return layout != "three"

    def picture_kind(self, table: Table) -> str:
        """Draw the slate a team match is played on; three players keep the sheet."""
        return "slate" if table.options.get("mode") != "three" else "sheet"

    def standing_value(self, options: Mapping[str, Any], total: int) -> int:
        """On a slate the fewest strokes are best (three players: the most game points)."""
        return total if options["mode"] == "three" else -total

    def leaders(self, table: Table, replay: Replay) -> list[str]:
        """A slate stopped after its deals: the fewest strokes lead (three players: the most
        game points)."""
        if table.options["mode"] == "three":
            return super().leaders(table, replay)
        fewest = min(replay.totals.values())
        return [team for team, strokes in replay.totals.items() if strokes == fewest]

    def standings(self, table: Table, replay: Replay) -> list[Standing]:
        """Lead with the fewest strokes on the slate (three players: the most game points)."""
        if table.options["mode"] == "three":
            return super().standings(table, replay)
        held = replay.totals
        level = len(set(held.values())) <= 1
        erasing = replay.state.get("phase") == ERASING and replay.status != FINISHED
        return [
            Standing(
                team,
                strokes,
                not level and strokes == min(held.values()),
                ngettext("{count} stroke to erase", "{count} strokes to erase", strokes).format(
                    count=strokes
                )
                if erasing
                else None,
            )
            for team, strokes in held.items()
        ]

    def progress(self, table: Table, replay: Replay) -> str:
        """Name the deal being entered and where the match stands: strokes left to give, or
        the deal of its session of ten."""
        state, n = replay.state, len(replay.rounds) + 1
        if table.options["mode"] == "three":
            return _("Deal {n}: session {session}, deal {deal} of {deals}").format(
                n=n,
                session=state["session"],
                deal=state["deal_in_session"],
                deals=DEALS_PER_SESSION,
            )
        if state.get("phase") == GIVING:
            return ngettext(
                "Deal {n}: {count} stroke left to give",
                "Deal {n}: {count} strokes left to give",
                state["pool"],
            ).format(n=n, count=state["pool"])
        return _("Deal {n}: erasing").format(n=n)

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §4 for this match's mode, strokes and variants."""
        if options["mode"] == "three":
            return [
                Rule(
                    _("Game points"),
                    _(
                        "Each deal shares 9: 5, 3 and 1 by card points; a player with no trick "
                        "gets 0 and the others 6 and 3; one player alone with tricks gets 9. Ties "
                        "cut."
                    ),
                ),
                Rule(
                    _("Sessions"),
                    _("Ten deals a session, three sessions; most game points wins."),
                ),
                self.dealing_rule(options),
            ]
        outcome_is = lambda *names: lambda entered, _r: entered["outcome"] in names  # noqa: E731
        rules = [
            Rule(
                str(OUTCOMES["aus"][0]),
                _("101 or more, called correctly: a single."),
                outcome_is("aus"),
            ),
            Rule(
                str(OUTCOMES["gaigel"][0]),
                _("Aus while the losers took no trick: a double."),
                outcome_is("gaigel"),
            ),
            Rule(
                _("Untergaigeln and Übergaigeln"),
                _(
                    "Calling Aus under 101, or playing on past 101 and being caught: the other "
                    "team wins a double."
                ),
                outcome_is("untergaigeln", "uebergaigeln"),
            ),
            Rule(
                _("Checking the Aus"),
                _(
                    "Card points plus marriages (40 in trumps, 20 otherwise, once the team has a "
                    "trick) must reach 101."
                ),
                lambda entered, _r: bool(entered.get("evidence")),
            ),
            # A deal's scores are the strokes each team's slate gained: given, or erased.
            Rule(
                _("Giving strokes"),
                _(
                    "Until all {strokes} strokes are given, the losers take 1 (single) or 2 "
                    "(double), never more than are left."
                ).format(strokes=options["strokes"]),
                lambda _e, result: any(held > 0 for held in result.scores.values()),
            ),
            Rule(
                _("Erasing strokes"),
                _(
                    "Then the winners erase 1 or 2 of their own; the first team with none wins. "
                    "A team that took no stroke wins when the giving ends."
                ),
                lambda _e, result: any(held < 0 for held in result.scores.values()),
            ),
        ]
        for variant in VARIANTS:
            if options[variant]:
                rules.append(
                    Rule(str(OUTCOMES[variant][0]), _("Wins a single."), outcome_is(variant))
                )
        rules.append(self.dealing_rule(options))
        return rules

    def outcome_name(self, outcome: str) -> str:
        """Name an outcome as the table says it."""
        return str(OUTCOMES[outcome][0])

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check one deal of the match's mode."""
        return (
            read_three(table, data) if table.options["mode"] == "three" else read_deal(table, data)
        )

    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say a deal as the table told it: who won and how, with the Aus checked if it was;
        for three players, each one's card points."""
        if table.options["mode"] == "three":
            return explain.clauses(three_said(table, entered))
        won = _("{team} won: {outcome}").format(
            team=entered["winner"], outcome=OUTCOMES[entered["outcome"]][0]
        )
        return explain.clauses([won, *evidence_told(table, entered)])

    def score(self, table: Table, rounds: Rounds) -> Replay:
        """Replay the slate, or the three-player tournament; the deal passes to the left."""
        play = replay_three if table.options["mode"] == "three" else replay_slate
        replay = play(table, rounds)
        replay.name_dealers(table, self.deal_step)
        return replay

    def score_on(self, table: Table, replay: Replay, rounds: Rounds, entered: Entered) -> Replay:
        """Chalk one more deal on the slate the replay carries (three players, at most 30
        deals, replay them all)."""
        if table.options["mode"] == "three":
            return self.score(table, [*rounds, entered])
        slate_deal(table, replay, entered)
        slate = replay.carry["slate"]
        replay.totals, replay.state = dict(slate.held), slate.state()
        replay.name_dealers(table, self.deal_step)
        return replay


def replay_slate(table: Table, rounds: Rounds) -> Replay:
    """Give strokes to the losers, then erase the winners' strokes, until a team is clear."""
    slate = Slate(table.options["strokes"], list(table.teams or {}))
    replay = Replay(rounds=[], totals=dict(slate.held))
    replay.carry["slate"] = slate
    for deal in rounds:
        slate_deal(table, replay, deal)
    replay.totals = dict(slate.held)
    replay.state = slate.state()
    return replay


def slate_deal(table: Table, replay: Replay, deal: Mapping[str, Any]) -> None:
    """Chalk the next deal on the slate the replay carries."""
    slate = replay.carry["slate"]
    teams = list(table.teams or {})
    winner, outcome = deal["winner"], deal["outcome"]
    loser = next(team for team in teams if team != winner)
    name, strokes = OUTCOMES[outcome]
    before = dict(slate.held)
    won = (
        _("{team} wins {outcome}: a double.")
        if strokes == 2
        else _("{team} wins {outcome}: a single.")
    )
    explanation = [won.format(team=winner, outcome=name)]
    if deal.get("evidence"):
        explanation.insert(0, evidence_said(table, deal))
    was_giving = slate.phase == GIVING
    if was_giving:
        explanation += slate.give(loser, strokes)
    else:
        explanation += slate.erase(winner, strokes)
    if replay.status != FINISHED:
        settle_slate(slate, replay, explanation, was_giving and slate.phase == ERASING)
    scores = {team: slate.held[team] - before[team] for team in teams}
    replay.rounds.append(RoundResult(scores, explanation, dict(slate.held)))


def evidence_said(table: Table, deal: Mapping[str, Any]) -> str:
    """Say what the evidence showed about the call."""
    loser = next(team for team in table.teams or {} if team != deal["winner"])
    if deal["outcome"] == "uebergaigeln":
        total, way, count = counted(deal["evidence"])
        return CALL_SAID[way]["played_on"].format(caller=loser, count=count, total=total, aus=AUS)
    caller = loser if deal["outcome"] == "untergaigeln" else deal["winner"]
    return judge(table, caller, deal["evidence"])[2]


def evidence_told(table: Table, deal: Mapping[str, Any]) -> list[str]:
    """Say the evidence the table gave to check the Aus: the caller's cards, marriages, tricks."""
    evidence = deal.get("evidence")
    if not evidence:
        return []
    other = next(team for team in table.teams or {} if team != deal["winner"])
    caller, other = (
        (other, deal["winner"]) if deal["outcome"] in CALLER_LOSES else (deal["winner"], other)
    )
    told = [_("{team} had {points} in cards").format(team=caller, points=evidence["points"])]
    marriages = evidence.get("marriages", [])
    if marriages:
        told.append(
            ngettext(
                "{team} announced a marriage of {values}",
                "{team} announced marriages of {values}",
                len(marriages),
            ).format(team=caller, values=explain.names([str(m) for m in marriages]))
        )
    for team, key in ((caller, "caller_tricks"), (other, "loser_tricks")):
        if key in evidence:
            told.append(
                ngettext(
                    "{team} took {count} trick", "{team} took {count} tricks", evidence[key]
                ).format(team=team, count=evidence[key])
            )
    return told


def three_said(table: Table, deal: Mapping[str, Any]) -> list[str]:
    """Say a three-player deal: each one's card points, who took no trick, the cut."""
    said = [_("card points {points}").format(points=explain.each(deal["card_points"]))]
    trickless = [name for name in table.players if not deal["took_trick"][name]]
    if trickless:
        said.append(
            ngettext("{players} took no trick", "{players} took no trick", len(trickless)).format(
                players=explain.names(trickless)
            )
        )
    if deal["cut_order"]:
        said.append(_("cut in this order: {players}").format(players=", ".join(deal["cut_order"])))
    return said


def replay_three(table: Table, rounds: Rounds) -> Replay:
    """Share 9 game points a deal; after three sessions of ten deals, most points wins."""
    replay = Replay(rounds=[], totals=dict.fromkeys(table.players, 0))
    last = DEALS_PER_SESSION * SESSIONS
    for index, deal in enumerate(rounds):
        scores, explanation = game_points(table, deal)
        for name, score in scores.items():
            replay.totals[name] += score
        if index + 1 == last and replay.status != FINISHED:
            best = max(replay.totals.values())
            leaders = [name for name, total in replay.totals.items() if total == best]
            replay.finish(leaders[0] if len(leaders) == 1 else None)
            if len(leaders) > 1:
                replay.state["shared_first"] = leaders
            ended = (
                _("Three sessions played: {player} wins with {points}.")
                if len(leaders) == 1
                else _("Three sessions played: {players} share first place with {points}.")
            )
            explanation.append(
                ended.format(player=leaders[0], players=explain.names(leaders), points=best)
            )
        replay.rounds.append(RoundResult(scores, explanation, dict(replay.totals)))
    played = len(rounds)
    replay.state |= {
        "session": min(played // DEALS_PER_SESSION + 1, SESSIONS),
        "deal_in_session": played % DEALS_PER_SESSION + 1 if played < last else DEALS_PER_SESSION,
    }
    return replay
