"""Porrazo: events pegged as they happen, provisional porrazos, the dealer's turn, to 61."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import explain
from ..base import (
    FINISHED,
    Entered,
    Replay,
    RoundImpossible,
    RoundResult,
    Rounds,
    Rule,
    Scorer,
    Table,
)
from ..cards import read_rank
from ..options import FIRST_DEALER, Option, choice_option, target_option
from ..refusal import Problems, Refusal, read_one_of
from ..words import _, lazy
from .oddities import ODDITIES
from .rules import (
    EVENT_NAMES,
    EVENT_VALUES,
    best_ronda,
    best_tendido,
    card_count,
    follows,
    next_in_play,
    read_counts,
    read_declared,
    read_rank_for,
    read_tendido,
    ronda_value,
    side_named,
)

RANKED = ("porrazo", "counter_porrazo", "ronda", "rondin", "four_of_a_kind", "limpia", "in_place")
"""Events scored by the rank of their cards."""
PROVISIONAL = ("porrazo", "counter_porrazo")
BY_PLAYER = (*RANKED, "san_benito", "tendido")
FIELDS = {
    "porrazo": {"limpia"},
    "counter_porrazo": {"limpia"},
    "tendido": {"pairs", "table"},
    "rondas": {"declared"},
    "cards": {"counts"},
}
PENDING = {
    "porrazo": lazy("{player}'s porrazo of {rank}"),
    "counter_porrazo": lazy("{player}'s counter-porrazo of {rank}"),
}
"""How a provisional porrazo is named while it waits for the next card."""
ANSWERS = {"counter_porrazo": "porrazo", "san_benito": "counter_porrazo"}
"""What each matching card answers: a counter-porrazo a porrazo, a San Benito a counter."""
NOT_NEXT = {
    "counter_porrazo": lazy(
        "The counter-porrazo to {porrazo} is made by {next}, the next player, not {player}."
    ),
    "san_benito": lazy(
        "The San Benito to {porrazo} is made by {next}, the next player, not {player}."
    ),
}
OWN_SIDE = {
    "counter_porrazo": lazy(
        "A counter-porrazo can't go to {side}, the side of {porrazo}: it is made by {next}, "
        "the next player."
    ),
    "san_benito": lazy(
        "A San Benito can't go to {side}, the side of {porrazo}: it is made by {next}, "
        "the next player."
    ),
}
OWN_SIDE_UNNAMED = {
    "counter_porrazo": lazy(
        "A counter-porrazo can't go to {side}, the side of {porrazo}: it is made by the next "
        "player, for {next}."
    ),
    "san_benito": lazy(
        "A San Benito can't go to {side}, the side of {porrazo}: it is made by the next "
        "player, for {next}."
    ),
}
"""The same when the porrazo names a team: its next player is one of the other side."""


def read_event(table: Table, data: Any) -> dict[str, Any]:
    """Check one pegged event: who, what, and the cards it needs (and none it does not)."""
    if not isinstance(data, dict):
        raise Refusal(_("An event is an object with event, player and what it needs."))
    event = read_one_of(
        data.get("event"),
        "event",
        EVENT_NAMES,
        lambda events: _("The event is one of: {events}.").format(events=events),
    )
    problems = Problems()
    read: dict[str, Any] = {"event": event}
    if event in BY_PLAYER:
        with problems.collect():
            read["player"] = speaker(table, data.get("player"))
    elif data.get("player") is not None:
        problems.add(
            "player",
            _("{event} is nobody's own peg: leave out player.").format(event=EVENT_NAMES[event]),
        )
    if event in RANKED:
        with problems.collect():
            read["rank"] = read_rank_for(event, data.get("rank"))
    elif data.get("rank") is not None:
        problems.add("rank", _("{event} takes no rank.").format(event=EVENT_NAMES[event]))
    if event in PROVISIONAL and data.get("limpia") is not None:
        with problems.collect():
            read["limpia"] = read_rank(data["limpia"], "limpia")
            run_follows(table, read)
    with problems.collect():
        read |= read_extras(table, event, data)
    allowed = {"event", "player", "rank"} | FIELDS.get(event, set())
    problems.add_unknown(
        data, allowed, _("{event} has no field {field}."), event=EVENT_NAMES[event]
    )
    problems.raise_any()
    return read


def run_follows(table: Table, read: Mapping[str, Any]) -> None:
    """Refuse a limpia whose last card the played card's run can't reach (runs not wrapping)."""
    played, last = read.get("rank"), read["limpia"]
    if played is None or "player" not in read or follows(played, last, table.options["wrap"]):
        return
    raise Refusal.at(
        "limpia",
        _(
            "Runs stop at the king in this match: a limpia made by {player}'s {rank} ends on "
            "a card from {rank} to K, not on {limpia}."
        ).format(player=read["player"], rank=played, limpia=last),
    )


def speaker(table: Table, given: Any) -> str:
    """Return who pegs: a player, or with partnerships a player or a team."""
    if given is None:
        raise Refusal.at("player", _("Say who pegs."))
    if table.teams and isinstance(given, str):
        for team in table.teams:
            if team.casefold() == given.strip().casefold():
                return team
    return table.player(given, "player")


def read_extras(table: Table, event: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Check what the tendido, the rondas and the card count carry."""
    if event == "tendido":
        pairs, on_table = read_tendido(data)
        return {"pairs": pairs, "table": on_table}
    if event == "rondas":
        return {"declared": read_declared(table, data.get("declared"))}
    if event == "cards":
        return {"counts": read_counts(table, data.get("counts"), sides_of(table))}
    return {}


def sides_of(table: Table) -> list[str]:
    """Return who scores: the teams with partnerships, else the players."""
    return list(table.teams) if table.teams else list(table.players)


@dataclass
class Pegging:
    """The pegs of a match as it is replayed: totals, the dealer, a provisional porrazo."""

    table: Table
    totals: dict[str, int]
    dealer: int
    pending: dict[str, Any] | None = None
    tendido_laid: bool = False
    """This turn's dealer has laid the tendido; the card count passes the deal (and the next
    tendido) on."""
    scores: dict[str, int] = field(default_factory=dict)
    sentences: list[str] = field(default_factory=list)
    known: dict[str, str] = field(default_factory=dict)
    """The side of each name met so far: a long match names the same few players each peg."""

    def side(self, who: str) -> str:
        """Return the side a player's or team's points go to."""
        if who not in self.known:
            self.known[who] = side_named(self.table, who, "player", sides_of(self.table))
        return self.known[who]

    def peg(self, who: str, points: int, sentence: str) -> None:
        """Give points to a side now."""
        side = self.side(who)
        self.scores[side] = self.scores.get(side, 0) + points
        self.totals[side] += points
        self.sentences.append(sentence)

    def stand(self) -> None:
        """Let a provisional porrazo stand: the next player did not match."""
        pending, self.pending = self.pending, None
        if pending:
            self.peg(
                pending["player"],
                pending["points"],
                _("{porrazo} stands: +{points}.").format(
                    porrazo=pending["says"], points=pending["points"]
                ),
            )


def ronda_said(player: str, cards: Sequence[str]) -> str:
    """Say a declared hand: "Ana: ronda of 5", "Bo: rondín of 7"."""
    if len(cards) == 3:
        return _("{player}: rondín of {rank}").format(player=player, rank=cards[0])
    return _("{player}: ronda of {rank}").format(player=player, rank=cards[0])


def tendido_said(event: Mapping[str, Any]) -> str:
    """Say a tendido: its two pairs, and the cards already on the table."""
    first, second = ("-".join(pair) for pair in event["pairs"])
    said = {"player": event["player"], "first": first, "second": second}
    if event["table"]:
        return _("Tendido by {player}: {first} and {second}, with {cards} on the table").format(
            **said, cards=", ".join(event["table"])
        )
    return _("Tendido by {player}: {first} and {second}").format(**said)


class Porrazo(Scorer):
    """Porrazo for 2–8 players or partnerships, pegged event by event to the target."""

    id = "porrazo"
    name = "Porrazo"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    round_name = lazy("Peg")
    round_word = lazy("peg")
    rounds_word = lazy("pegs")
    pictured = True
    oddities = ODDITIES
    recent = 20
    """A peg is one card's points: twenty are about the last two hands."""
    team_names = ("Us", "Them")
    layouts = {"alone": lazy("Each for themselves"), "partners": lazy("Partnerships")}
    options = (
        target_option(61, lazy("The first side to reach it wins at once."), maximum=1_000),
        choice_option(
            "card_count",
            lazy("Card count"),
            {
                "difference": lazy("The difference with the next"),
                "over_half": lazy("Cards over 26"),
            },
            lazy(
                "The most cards score the difference with the next; or, two sides, those over 26."
            ),
        ),
        Option(
            "wrap",
            lazy("Runs wrap K-A-2"),
            default=True,
            help=lazy("A run may go on from the king to the ace."),
        ),
        FIRST_DEALER,
    )

    def kept_apart(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Keep races to different targets apart."""
        return {"target": options["target"]}

    def name_kept_apart(self, key: Mapping[str, Any]) -> str:
        """Name the variant by its target."""
        return _("Porrazo, to {target}").format(target=key["target"])

    def plays_in_teams(self, options: Mapping[str, Any], data: Mapping[str, Any]) -> bool:
        """Seat partnerships when the match is started with teams."""
        return "teams" in data

    def counts_for(self, options: Mapping[str, Any], in_teams: bool) -> tuple[int, ...]:
        """Return an even number of players for partnerships, 2 to 8 otherwise."""
        return (4, 6, 8) if in_teams else self.player_counts

    def layout_teams(self, layout: str | None) -> bool:
        """Seat teams for partnerships."""
        return layout == "partners"

    def read_table(self, data: Mapping[str, Any]) -> Table:
        """Check the table; counting cards over half needs exactly two sides."""
        table = super().read_table(data)
        if table.options["card_count"] == "over_half" and len(sides_of(table)) != 2:
            raise Refusal.at(
                "options.card_count", _("Counting cards over 26 needs exactly two sides.")
            )
        return table

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check one event's shape; what is pending is checked on replay."""
        return read_event(table, data)

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §5 for this match's target, card count and runs."""
        kind_is = lambda *kinds: lambda entered, _r: entered["event"] in kinds  # noqa: E731
        count = (
            _("At the end of the hand the most cards score the difference with the next side.")
            if options["card_count"] == "difference"
            else _("At the end of the hand a side scores its cards over 26.")
        )
        limpia = (
            _(
                "Clearing the table scores by the last card of the run captured, runs going on "
                "from K to A."
            )
            if options["wrap"]
            else _("Clearing the table scores by the last card of the run captured.")
        )
        who_pegs = _(
            "The next player after a porrazo's maker makes the counter-porrazo; the next after "
            "the counter-porrazo's maker, the San Benito. The dealer lays the tendido, once a "
            "turn: the card count ends the turn. Rondas of one deal hold at most four cards of a "
            "rank."
        )
        if not options["wrap"]:
            who_pegs += " " + _(
                "A limpia's run stops at the king: it never ends below the card played."
            )
        return [
            Rule(
                _("Values by rank"),
                _(
                    "Ronda, porrazo, limpia: K 4, Q 3, J 2, A–10 1. Rondín and counter-porrazo: "
                    "12, 9, 6, 3. Four of a kind: 24, 18, 12, 6. A card in place: A 1 to 4 4."
                ),
                kind_is(*RANKED),
            ),
            Rule(
                _("Porrazo and its answers"),
                _(
                    "A porrazo waits for the next card: a third matching card is a "
                    "counter-porrazo that voids it; a fourth is a San Benito and wins the game."
                ),
                kind_is("porrazo", "counter_porrazo", "san_benito", "confirm"),
            ),
            Rule(
                _("Order of play"),
                _(
                    "Play goes clockwise, starting on the dealer's left: the next player is the "
                    "one on the left. In partnerships the next player is always an opponent."
                ),
                kind_is(*ANSWERS),
            ),
            Rule(_("Who pegs what"), who_pegs, kind_is(*ANSWERS, "tendido", "rondas")),
            Rule(
                _("Rondas"),
                _(
                    "Only the best declared hand scores: a rondín beats a ronda, then rank, then "
                    "the seat nearest the dealer's left."
                ),
                kind_is("rondas"),
            ),
            Rule(
                _("Limpia"),
                limpia,
                lambda entered, _r: entered["event"] == "limpia" or bool(entered.get("limpia")),
            ),
            Rule(
                _("Tendido"),
                _(
                    "The dealer's four extra cards in two pairs: cards in place, and sets with "
                    "the table's cards, in the best arrangement."
                ),
                kind_is("tendido"),
            ),
            Rule(_("Card count"), count, kind_is("cards")),
            Rule(
                _("The end"),
                _("The first side to reach {target} wins at once.").format(
                    target=options["target"]
                ),
            ),
            self.dealing_rule(options),
        ]

    def summary(self, event: Mapping[str, Any]) -> str:
        """Say a peg in a few words: "Bo · Porrazo 6"."""
        said = f"{EVENT_NAMES[event['event']]} {event.get('rank', '')}".strip()
        return f"{event['player']} · {said}" if event.get("player") else said

    def dealers_ahead(self, table: Table, replay: Replay, count: int = 12) -> list[str]:
        """The deal moves with the hands, not with each peg."""
        return []

    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say a peg as the table told it: "Ronda of 5 by Ana", "Card count: Ana 20, Bo 32"."""
        kind, who = entered["event"], entered.get("player")
        if kind in RANKED:
            said = {"event": EVENT_NAMES[kind], "rank": entered["rank"], "player": who}
            if entered.get("limpia"):
                return _("{event} of {rank} by {player}, with a limpia of {limpia}").format(
                    **said, limpia=entered["limpia"]
                )
            return _("{event} of {rank} by {player}").format(**said)
        if kind == "rondas":
            return explain.clauses(
                [ronda_said(n, cards) for n, cards in entered["declared"].items()]
            )
        if kind == "tendido":
            return tendido_said(entered)
        if kind == "cards":
            return _("Card count: {counts}").format(counts=explain.each(entered["counts"]))
        if who:
            return _("{event} by {player}").format(event=EVENT_NAMES[kind], player=who)
        return str(EVENT_NAMES[kind])

    def score(self, table: Table, rounds: Rounds) -> Replay:
        """Peg the events in order; provisional porrazos wait for the next card."""
        dealer = table.players.index(table.dealer(0))
        pegging = Pegging(table, dict.fromkeys(sides_of(table), 0), dealer)
        replay = Replay(rounds=[], totals=pegging.totals)
        replay.carry["pegging"] = pegging
        for event in rounds:
            self.peg_on(replay, event)
        return self.pegged(replay)

    def score_on(self, table: Table, replay: Replay, rounds: Rounds, entered: Entered) -> Replay:
        """Peg one more event from the pegs and what is pending, as the replay carries them."""
        self.peg_on(replay, entered)
        return self.pegged(replay)

    def peg_on(self, replay: Replay, event: Mapping[str, Any]) -> None:
        """Peg the next event of a replay, numbering a refusal with the event's place."""
        pegging, n = replay.carry["pegging"], len(replay.rounds) + 1
        pegging.scores, pegging.sentences = {}, []
        dealt_by = pegging.table.players[pegging.dealer]
        try:
            self.play(pegging, event)
        except RoundImpossible as impossible:
            raise RoundImpossible(n, impossible.refusal, impossible.waiting) from None
        except Refusal as refusal:
            raise RoundImpossible(n, refusal) from None
        if replay.status != FINISHED:
            self.settle(pegging, replay, event)
        scores = {side: pegging.scores.get(side, 0) for side in pegging.totals}
        extra = {"pending": dict(pegging.pending) if pegging.pending else None}
        replay.rounds.append(
            RoundResult(scores, pegging.sentences, dict(pegging.totals), extra, dealt_by)
        )

    def pegged(self, replay: Replay) -> Replay:
        """Say who deals next and what is pending, once the events are pegged."""
        pegging = replay.carry["pegging"]
        replay.state = {
            "dealer": pegging.table.players[pegging.dealer],
            "pending": dict(pegging.pending) if pegging.pending else None,
        }
        return replay

    def settle(self, pegging: Pegging, replay: Replay, event: Mapping[str, Any]) -> None:
        """End the match at the target, or at a San Benito."""
        target = pegging.table.options["target"]
        if event["event"] == "san_benito":
            replay.finish(pegging.side(event["player"]))
            pegging.sentences.append(
                _("San Benito: {side} wins the game.").format(side=replay.winner)
            )
            return
        reached = [side for side, total in pegging.totals.items() if total >= target]
        if reached:
            replay.finish(reached[0])
            pegging.sentences.append(
                _("{side} reaches {target} and wins at once.").format(
                    side=reached[0], target=target
                )
            )

    def play(self, pegging: Pegging, event: Mapping[str, Any]) -> None:
        """Score one event against what is pending."""
        kind = event["event"]
        if kind == "tendido":
            self.dealers_tendido(pegging, event["player"])
        if kind in ANSWERS:
            self.match_pending(pegging, event)
        elif kind == "confirm":
            if not pegging.pending:
                raise Refusal.at("event", _("Nothing is waiting: there is no porrazo to confirm."))
            pegging.stand()
            return
        elif pegging.pending:
            self.must_wait(pegging)
            pegging.stand()
        if kind in PROVISIONAL:
            self.provisional(pegging, event)
        elif kind in RANKED:
            rank = event["rank"]
            points = EVENT_VALUES[kind](rank)
            pegging.peg(
                event["player"],
                points,
                _("{event} of {rank} by {player}: {points}.").format(
                    event=EVENT_NAMES[kind], rank=rank, player=event["player"], points=points
                ),
            )
        elif kind == "rondas":
            self.rondas(pegging, event["declared"])
        elif kind == "tendido":
            pegging.tendido_laid = True
            count, row, sentences = best_tendido(event["pairs"], event["table"])
            pegging.peg(
                event["player"],
                count,
                _("Tendido by {player}: {points}.").format(player=event["player"], points=count),
            )
            pegging.sentences += sentences
        elif kind == "cards":
            side, points, sentence = card_count(
                event["counts"], pegging.table.options["card_count"]
            )
            if side:
                pegging.peg(side, points, sentence)
            else:
                pegging.sentences.append(sentence)
            pegging.dealer = (pegging.dealer + 1) % len(pegging.table.players)
            pegging.tendido_laid = False
            pegging.sentences.append(
                _("The hand is over: {dealer} deals next.").format(
                    dealer=pegging.table.players[pegging.dealer]
                )
            )

    def must_wait(self, pegging: Pegging) -> None:
        """Refuse other events while a provisional porrazo would reach the target."""
        pending = pegging.pending
        side = pegging.side(pending["player"])
        target = pegging.table.options["target"]
        if pegging.totals[side] + pending["points"] >= target:
            raise RoundImpossible(
                0,
                Refusal(
                    _(
                        "{porrazo} would reach {target}: record the next player's "
                        "counter-porrazo if they matched, or confirm that it stands."
                    ).format(porrazo=pending["says"], target=target)
                ),
                waiting=True,
            )

    def match_pending(self, pegging: Pegging, event: Mapping[str, Any]) -> None:
        """Void what the matching card beats: a counter voids a porrazo, a San Benito a counter."""
        pending = pegging.pending
        needs = ANSWERS[event["event"]]
        if not pending or pending["event"] != needs:
            unanswered = (
                _("Counter-porrazo answers a pending porrazo, and none is waiting.")
                if needs == "porrazo"
                else _("San Benito answers a pending counter-porrazo, and none is waiting.")
            )
            raise Refusal.at("event", unanswered)
        problems = Problems()
        with problems.collect():
            self.next_answers(pegging, event)
        if event["event"] == "counter_porrazo" and event["rank"] != pending["rank"]:
            problems.add(
                "rank",
                _("A counter-porrazo matches the porrazo's {rank}.").format(rank=pending["rank"]),
            )
        problems.raise_any()
        pegging.pending = None
        pegging.sentences.append(_("{porrazo} is void.").format(porrazo=pending["says"]))

    def next_answers(self, pegging: Pegging, event: Mapping[str, Any]) -> None:
        """Refuse an answer by anyone but the next player after the pending porrazo's maker.

        In partnerships the next player is an opponent, so an answer for the maker's own side is
        refused; a peg naming a team, not its player, is checked by side only.
        """
        kind, who, pending = event["event"], event["player"], pegging.pending or {}
        maker, table = pending["player"], pegging.table
        answerer = next_in_play(table, maker)
        said = {"porrazo": pending["says"], "next": answerer, "player": who}
        if table.teams and pegging.side(who) == pegging.side(maker):
            own = OWN_SIDE_UNNAMED if maker in table.teams else OWN_SIDE
            raise Refusal.at("player", own[kind].format(**said, side=pegging.side(who)))
        if table.teams and (who in table.teams or maker in table.teams):
            return
        if who != answerer:
            raise Refusal.at("player", NOT_NEXT[kind].format(**said))

    def dealers_tendido(self, pegging: Pegging, who: str) -> None:
        """Refuse a tendido by anyone but the dealer, or a second one in the dealer's turn."""
        table = pegging.table
        dealer = table.players[pegging.dealer]
        if who != dealer and not (table.teams and who == table.team_of(dealer)):
            raise Refusal.at(
                "player",
                _("The tendido is laid by the dealer, {dealer}, not {player}.").format(
                    dealer=dealer, player=who
                ),
            )
        if pegging.tendido_laid:
            after = table.players[(pegging.dealer + 1) % len(table.players)]
            raise Refusal.at(
                "event",
                _(
                    "{dealer} has laid this turn's tendido already: the next is {next}'s, once "
                    "the card count passes the deal on."
                ).format(dealer=dealer, next=after),
            )

    def provisional(self, pegging: Pegging, event: Mapping[str, Any]) -> None:
        """Hold a porrazo or counter-porrazo, with its limpia, until the next card."""
        rank, who = event["rank"], event["player"]
        points = EVENT_VALUES[event["event"]](rank)
        parts = [points]
        if event.get("limpia"):
            parts.append(EVENT_VALUES["limpia"](event["limpia"]))
        pegging.pending = {
            "event": event["event"],
            "player": who,
            "rank": rank,
            "points": sum(parts),
            "says": PENDING[event["event"]].format(player=who, rank=rank),
        }
        said = (
            _(
                "{event} of {rank} by {player} with a limpia ({limpia}, {limpia_points}): "
                "{points}, provisional until the next card."
            )
            if len(parts) > 1
            else _("{event} of {rank} by {player}: {points}, provisional until the next card.")
        )
        pegging.sentences.append(
            said.format(
                event=EVENT_NAMES[event["event"]],
                rank=rank,
                player=who,
                limpia=event.get("limpia"),
                limpia_points=parts[-1],
                points=explain.addition(parts),
            )
        )

    def rondas(self, pegging: Pegging, declared: Mapping[str, list[str]]) -> None:
        """Award the best declared ronda, and with partnerships the partner's own too."""
        table = pegging.table
        best = best_ronda(table, declared, table.players[pegging.dealer])
        value = ronda_value(declared[best])
        said = (
            _("Best declared: {player}'s rondín of {rank}: {points}.")
            if len(declared[best]) == 3
            else _("Best declared: {player}'s ronda of {rank}: {points}.")
        )
        pegging.peg(best, value, said.format(player=best, rank=declared[best][0], points=value))
        if table.teams:
            for partner in table.teams[table.team_of(best)]:
                if partner != best and partner in declared:
                    own = ronda_value(declared[partner])
                    pegging.peg(
                        partner,
                        own,
                        _("{player}, {partner}'s partner, scores their own: {points}.").format(
                            player=partner, partner=best, points=own
                        ),
                    )
