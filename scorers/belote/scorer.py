"""Belote and Coinche: the scorer (options, replay with the litige reserve)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import explain
from ..base import FINISHED, RIGHT, Entered, Replay, RoundResult, Rounds, Rule, Scorer, Table
from ..draw import Record
from ..options import FIRST_DEALER, MATCH_DEALS, Option, choice_option, target_option
from ..refusal import Refusal
from ..words import _, lazy
from .oddities import ODDITIES
from .rules import (
    ALL_TRUMP,
    BELOTE,
    CAPOT,
    FALL,
    LITIGE,
    MADE,
    MULTIPLIERS,
    NO_TRUMP,
    NUMBERED_CONTRACTS,
    SUITS,
    TRUMP_LABELS,
    belotes_of,
    contract_name,
    doubling_name,
    half_up,
    read_deal,
    score_deal,
)

TRUMP_SAID = {suit: symbol for suit, symbol in SUITS.items()} | {
    NO_TRUMP: lazy("no trump"),
    ALL_TRUMP: lazy("all trump"),
}
"""The trump inside a sentence: "Ana took at no trump"."""
CONTRACT_LABELS = {str(v): str(v) for v in NUMBERED_CONTRACTS} | {
    "capot": lazy("Capot"),
    "generale": lazy("Générale"),
}


RESULT_WORDS = {
    MADE: lazy("made"),
    FALL: lazy("fall"),
    LITIGE: lazy("litige"),
    CAPOT: lazy("capot"),
}
"""A deal's result in the sheet's own words (litige and capot as players say them)."""


class Belote(Scorer):
    """Belote and Coinche for two teams of two: deals scored into a running total to a target."""

    id = "belote"
    name = "Belote"
    player_counts = (4,)
    teams = True
    team_names = ("Nous", "Eux")
    round_name = lazy("Deal")
    round_word = lazy("deal")
    rounds_word = lazy("deals")
    tie_message = lazy("Both teams are level past the target: deal again.")
    deal_step = RIGHT
    """French belote is played counter-clockwise: the deal passes to the right."""
    oddities = ODDITIES
    event_sizes = (2,)
    event_rule = lazy(
        "Points summed over the rounds first, as a concours counts them, then matches won, "
        "then the fewest points against."
    )

    def event_order(self, record: Record) -> tuple[int, ...]:
        """A concours ranks by points first."""
        return (-record.points, -record.won, record.against)

    def home_entries(self) -> list[tuple[str, dict[str, str]]]:
        """Offer Coinche beside Belote: the same game, started in its own variant."""
        return [(self.name, {}), (_("Coinche"), {"variant": "coinche"})]

    options = (
        choice_option(
            "variant",
            lazy("Variant"),
            {"classic": lazy("Classic belote"), "coinche": lazy("Coinche, with contracts")},
            lazy("Classic belote, or coinche with contracts, coinche and surcoinche."),
        ),
        choice_option(
            "rules",
            lazy("Rules"),
            {"maison": lazy("House rules"), "official": lazy("Official rules")},
            lazy("House rules, or the federation's official rules."),
        ),
        target_option(
            lambda _players, chosen: 2000 if chosen["variant"] == "coinche" else 1000,
            lazy("The match ends at the end of the deal where a team reaches it."),
            maximum=100_000,
            placeholder=lazy("1000 classic, 2000 coinche"),
        ),
        choice_option(
            "litige",
            lazy("Litige"),
            {"reserve": lazy("A tie waits in reserve"), "fall": lazy("A tie counts as a fall")},
            lazy("A tie puts the takers' points in reserve, or counts as a fall."),
        ),
        Option(
            "rounding",
            lazy("Round deal scores to tens"),
            default=lambda _players, chosen: (
                chosen["variant"] == "coinche" and chosen["rules"] == "official"
            ),
            help=lazy("Classic only: coinche rounds by its rules (official always, maison never)."),
        ),
        FIRST_DEALER,
        MATCH_DEALS,
    )

    def kept_apart(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Keep classic and coinche apart, and each target."""
        return {"variant": options["variant"], "target": options["target"]}

    def name_kept_apart(self, key: Mapping[str, Any]) -> str:
        """Name the variant: classic or coinche, and the target."""
        if key["variant"] == "coinche":
            return _("Coinche, to {target}").format(target=key["target"])
        return _("Belote classic, to {target}").format(target=key["target"])

    def progress(self, table: Table, replay: Replay) -> str:
        """Head the score bar with the deal, and the points a litige holds for the next one."""
        deal = super().progress(table, replay)
        reserve = replay.state.get("reserve") or 0
        if not reserve:
            return deal
        return _("{deal} · {points} in reserve").format(deal=deal, points=reserve)

    def title(self, options: Mapping[str, Any]) -> str:
        """A coinche table plays Coinche, not Belote."""
        return _("Coinche") if options.get("variant") == "coinche" else self.name

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse rounding that coinche's own rules decide otherwise."""
        official = options["rules"] == "official"
        if options["variant"] == "coinche" and options["rounding"] != official:
            raise Refusal.at(
                "options.rounding",
                _("Coinche rounds by its rules: official rules always round, maison never."),
            )

    def rules(self, options: Mapping[str, Any]) -> list[Rule]:
        """Write RULES.md §2 for this match's variant, rules, litige, rounding and target."""
        official = options["rules"] == "official"
        result_is = lambda *words: lambda _entered, result: result.extra["result"] in words  # noqa: E731
        if options["variant"] == "coinche":
            made = _(
                "The takers' total must be strictly above the defence's; then each team scores "
                "its total and the takers add the contract."
            )
        else:
            made = _(
                "The takers' total must be strictly above the defence's; then each team scores "
                "its total."
            )
        if options["litige"] == "reserve":
            litige = _(
                "Equal totals: the defence scores its total and the takers' total waits in "
                "reserve for the next deal's winner."
            )
        else:
            litige = _("Equal totals count as a fall.")
        rules = [
            Rule(
                _("Card points"),
                _(
                    "Trumps: J 20, 9 14, A 11, 10 10, K 4, Q 3. Other suits: A 11, 10 10, K 4, "
                    "Q 3, J 2. No trump: the ace is worth {ace} (a deal of {deal}). The last trick "
                    "adds 10, or 100 with a capot (252 in all); belote-rebelote 20; announcements "
                    "as announced."
                ).format(ace=19 if official else 11, deal=162 if official else 130),
            ),
            Rule(_("Made"), made, result_is("made", "capot")),
            Rule(
                _("Fall"),
                _(
                    "Otherwise the defence scores the whole deal with its belote and every "
                    "announcement, and the takers keep only their belote."
                ),
                result_is("fall"),
            ),
            Rule(
                _("Litige"),
                litige,
                lambda _entered, result: result.extra["tie"] or result.extra["reserve_won"] > 0,
            ),
        ]
        if options["variant"] == "coinche":
            if official:
                doubling = _(
                    "The takers must reach the contract (capot 250, générale 500 with the taker "
                    "alone). Coinche doubles and surcoinche quadruples: (160 + contract + "
                    "announcements + belote) × the multiplier."
                )
            else:
                doubling = _(
                    "The takers must reach the contract (capot 250, générale 500 with the taker "
                    "alone). Coinche doubles and surcoinche quadruples: (160 + contract + "
                    "announcements) × the multiplier, + belote."
                )
            rules.append(
                Rule(
                    _("Contract and coinche"),
                    doubling,
                    lambda entered, _result: entered.get("coinche", "none") != "none",
                )
            )
        if official:
            rules.extend(official_rules(options))
        if options["rounding"]:
            rules.append(
                Rule(
                    _("Rounding"),
                    _("Each team's deal score is rounded to the nearest ten, 5 going up."),
                    lambda _entered, result: result.extra["rounded"],
                )
            )
        rules.append(
            Rule(
                _("The end"),
                _(
                    "At the end of the deal where a team reaches {target}, the higher total wins; "
                    "equal totals deal again."
                ).format(target=options["target"]),
            )
        )
        rules.append(self.dealing_rule(options))
        return rules

    def read_round(self, table: Table, data: Any) -> dict[str, Any]:
        """Check one deal."""
        return read_deal(table, data)

    def result_word(self, result: str) -> str:
        """Say a deal's result as the sheet writes it beside the deal: made, fall, litige…"""
        return str(RESULT_WORDS[result])

    def outcome_of(self, result: RoundResult) -> str:
        """A deal goes as its result word says: made, fall, litige, capot."""
        return self.result_word(result.extra["result"])

    def summary(self, deal: Mapping[str, Any]) -> str:
        """Say who took what in a few words: "South · 100 ♥ · coinche"."""
        parts = [deal["taker"], str(TRUMP_LABELS[deal["trump"]])]
        if "contract" in deal:
            parts[1] = f"{CONTRACT_LABELS[str(deal['contract'])]} {parts[1]}"
            if deal["coinche"] != "none":
                parts.append(doubling_name(deal["coinche"]))
        return " · ".join(parts)

    def describe(self, table: Table, entered: Mapping[str, Any]) -> str:
        """Say a deal as the table told it: who took at what, then what each team won."""
        alone = entered.get("taker_alone") and _("{taker} took every trick alone")
        return explain.clauses(
            [
                taking_said(entered),
                (alone or "").format(taker=entered["taker"]),
                ", ".join(won_said(entered)),
            ]
        )

    def score(self, table: Table, rounds: Rounds) -> Replay:
        """Score deals in order, carrying the litige reserve, and end the match at the target."""
        teams = list(table.teams or {})
        replay = Replay(
            rounds=[], totals=dict.fromkeys(teams, 0), state={"reserve": 0, "extra_round": False}
        )
        # Official rules: teams past the target through a belote alone, not winners yet.
        replay.carry["waiting"] = set()
        for entered in rounds:
            deal_on(table, replay, entered)
        replay.name_dealers(table, self.deal_step)
        return replay

    def score_on(self, table: Table, replay: Replay, rounds: Rounds, entered: Entered) -> Replay:
        """Score one more deal from the reserve and the totals the replay holds."""
        deal_on(table, replay, entered)
        replay.name_dealers(table, self.deal_step)
        return replay


def deal_on(table: Table, replay: Replay, entered: Mapping[str, Any]) -> None:
    """Score the next deal of a replay: the reserve, the totals, the end at the target."""
    deal = score_deal(table, entered)
    won = 0
    reserve = replay.state["reserve"]
    if deal.result == LITIGE:
        reserve += deal.held
        if reserve != deal.held:
            deal.explanation.append(_("The reserve now holds {points}.").format(points=reserve))
    elif reserve:
        won, reserve = reserve, 0
        deal.scores[deal.winner] += won
        deal.explanation.append(
            _("{team} wins the deal and the {points} in reserve.").format(
                team=deal.winner, points=won
            )
        )
    rounded = table.options["rounding"] and round_scores(deal.scores, deal.explanation)
    for team, score in deal.scores.items():
        replay.totals[team] += score
    result = RoundResult(
        deal.scores,
        deal.explanation,
        dict(replay.totals),
        {
            "result": deal.result,
            "reserve": reserve,
            "tie": deal.tie,
            "reserve_won": won,
            "rounded": rounded,
        },
    )
    replay.state["reserve"] = reserve
    # A match of a fixed number of deals (a concours) sums its deals: no target ends it.
    if replay.status != FINISHED and table.options.get("match_deals") is None:
        waiting = replay.carry["waiting"]
        if table.options["rules"] == "official":
            belote_alone(table, entered, deal, replay.totals, waiting, result.explanation)
        settle(replay, table.options["target"], result.explanation, waiting)
    replay.rounds.append(result)


def official_rules(options: Mapping[str, Any]) -> list[Rule]:
    """Write the federation's rules that maison leaves out (RULES.md §2, "Official rules")."""
    rules = [
        Rule(
            _("Announcements"),
            _(
                "Only one team's announcements count: the team with the best announcement "
                "scores all of its own, the other team none; when the best are equal, nobody "
                "scores announcements. Enter the announcements of that team only. Carrés of 7s "
                "and 8s are worth nothing; at no trump a carré of aces is worth 200, of tens "
                "150, of the other ranks 100."
            ),
            lambda entered, _result: any(entered["announcements"].values()),
        ),
    ]
    if options["variant"] == "coinche":
        rules.append(
            Rule(
                _("Belotes at all trump"),
                _("All trump allows up to four belotes, one per suit, for either team: 20 each."),
                lambda entered, _result: (
                    entered["trump"] == ALL_TRUMP and sum(entered.get("belotes", {}).values()) > 1
                ),
            )
        )
    rules.append(
        Rule(
            _("A belote alone does not win"),
            _(
                "A team that falls or suffers a capot and reaches {target} only through its "
                "belote has not won yet: the match ends at the end of the first later deal in "
                "which that team takes a trick."
            ).format(target=options["target"]),
        )
    )
    return rules


def taking_said(deal: Mapping[str, Any]) -> str:
    """Say who took and how: "Ana took at ♥", "Ana took 100 at ♥, coinche"."""
    trump = TRUMP_SAID[deal["trump"]]
    if "contract" not in deal:
        return _("{taker} took at {trump}").format(taker=deal["taker"], trump=trump)
    said = {"taker": deal["taker"], "trump": trump, "contract": contract_name(deal["contract"])}
    if MULTIPLIERS[deal["coinche"]] > 1:
        taking = _("{taker} took {contract} at {trump}, {doubling}")
        said["doubling"] = doubling_name(deal["coinche"])
    else:
        taking = _("{taker} took {contract} at {trump}")
    return taking.format(**said)


def won_said(deal: Mapping[str, Any]) -> list[str]:
    """Say what each team won: card points, the last trick, belote, capot, announcements."""
    said = [_("card points {points}").format(points=explain.each(deal["points"]))]
    for key, words in (
        ("last_trick", _("last trick {team}")),
        ("belote", _("belote {team}")),
        ("capot", _("capot {team}")),
    ):
        if deal.get(key):
            said.append(words.format(team=deal[key]))
    announced = {team: value for team, value in deal["announcements"].items() if value}
    if announced:
        said.append(_("announcements {points}").format(points=explain.each(announced)))
    return said


def round_scores(scores: dict[str, int], explanation: list[str]) -> bool:
    """Round each team's deal score to the nearest ten, 5 going up, saying what changed; say
    whether anything did, for the rounding rule to point at the deal."""
    changes = []
    for team, score in scores.items():
        if half_up(score) != score:
            changes.append(f"{team} {score} → {half_up(score)}")
            scores[team] = half_up(score)
    if changes:
        explanation.append(
            _("Rounded to the nearest ten: {changes}.").format(changes=", ".join(changes))
        )
    return bool(changes)


def belote_alone(
    table: Table,
    entered: Mapping[str, Any],
    deal: Any,
    totals: Mapping[str, int],
    waiting: set[str],
    explanation: list[str],
) -> None:
    """Hold back a team that lost the deal and reached the target only through its belote, and
    let it win again once it takes a trick (RULES.md §2, official: a belote alone does not win).

    Each team takes a trick unless the other made capot, which takes all eight.
    """
    target = table.options["target"]
    for team in table.teams or {}:
        took_a_trick = entered["capot"] in (None, team)
        if team in waiting:
            if took_a_trick:
                waiting.discard(team)
            continue
        lost = entered["capot"] not in (None, team) or (deal.result == FALL and deal.winner != team)
        belote = BELOTE * belotes_of(entered, team)
        if lost and belote and totals[team] >= target > totals[team] - belote:
            waiting.add(team)
            explanation.append(
                _(
                    "{team} reaches the target of {target} only through its belote in a deal it "
                    "lost: a belote alone does not win, so the match goes on until {team} takes "
                    "a trick."
                ).format(team=team, target=target)
            )


def settle(
    replay: Replay, target: int, explanation: list[str], waiting: set[str] | None = None
) -> None:
    """End the match when a team reaches the target: the higher total wins, a tie deals again.

    A team in `waiting` reached it through a belote alone and does not end the match yet.
    """
    if not any(
        total >= target for team, total in replay.totals.items() if team not in (waiting or ())
    ):
        return
    (first, high), (second, low) = sorted(replay.totals.items(), key=lambda item: -item[1])
    if high == low:
        replay.state["extra_round"] = True
        explanation.append(
            _("Both teams have {points}, past the target of {target}: deal again.").format(
                points=high, target=target
            )
        )
        return
    replay.state["extra_round"] = False
    replay.finish(first)
    reached = explain.names([team for team, total in replay.totals.items() if total >= target])
    explanation.append(
        _("{teams} reached the target of {target}: {winner} wins, {high} to {low}.").format(
            teams=reached, target=target, winner=first, high=high, low=low
        )
    )
