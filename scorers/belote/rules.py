"""Belote and Coinche scoring (RULES.md §2): card values, one deal read and scored."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .. import explain
from ..base import Table
from ..refusal import Problems, Refusal
from ..words import _, lazy, ngettext

SUITS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
NO_TRUMP = "no_trump"
ALL_TRUMP = "all_trump"
TRUMPS = (*SUITS, NO_TRUMP, ALL_TRUMP)
TRUMP_LABELS = {suit: symbol for suit, symbol in SUITS.items()} | {
    NO_TRUMP: lazy("No trump"),
    ALL_TRUMP: lazy("All trump"),
}
"""Each trump as the form names it: the suit's sign, or in words."""
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")

TRUMP_VALUES = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_VALUES = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
ALL_TRUMP_VALUES = {"J": 13, "9": 9, "A": 6, "10": 5, "K": 3, "Q": 2, "8": 0, "7": 0}
NO_TRUMP_ACE = {"maison": 11, "official": 19}

LAST_TRICK = 10
CAPOT_LAST_TRICK = 100
BELOTE = 20
MAX_BELOTES = 4
"""All trump under official rules: a belote in each suit, held by either team."""
SEQUENCES = {lazy("tierce"): 20, lazy("cinquante"): 50, lazy("cent"): 100}
"""The runs of three, four and five cards: worth the same whatever the trump and the rules."""
ANNOUNCEMENTS = SEQUENCES | {
    lazy("carré"): 100,
    lazy("carré de 9"): 150,
    lazy("carré de valets"): 200,
}
"""Each announcement by the name it is called at the table, and what it is worth."""
MAX_ANNOUNCEMENTS = 550
"""Two carrés each at most: a team can hold the jacks and nines (350) and two others (200)."""

NUMBERED_CONTRACTS = tuple(range(80, 161, 10))
CONTRACT_VALUES = {"capot": 250, "generale": 500} | {str(v): v for v in NUMBERED_CONTRACTS}
MULTIPLIERS = {"none": 1, "coinche": 2, "surcoinche": 4}
BASE = 160
CAPOT_BASE = 250

NO_TRUMP_ANNOUNCEMENTS = SEQUENCES | {
    lazy("carré (K, Q, J, 9)"): 100,
    lazy("carré de 10"): 150,
    lazy("carré d'as"): 200,
}
"""Official no-trump announcements: aces and tens lead (FFB §11.2); 7s and 8s are worth nothing."""
OFFICIAL_ANNOUNCEMENTS = SEQUENCES | {
    lazy("carré (A, 10, K, Q)"): 100,
    lazy("carré de 9"): 150,
    lazy("carré de valets"): 200,
}
"""Official announcements at a suit or all trump: the carrés that count, and no 7s or 8s."""

MADE, FALL, LITIGE, CAPOT = "made", "fall", "litige", "capot"
DEAL_FIELDS = {"taker", "trump", "points", "last_trick", "belote", "announcements", "capot"}
DEAL_FIELDS |= {"belotes"}
DEAL_FIELDS |= {"contract", "coinche", "taker_alone"}


def card_value(rank: str, suit: str, trump: str, rules: str) -> int:
    """Return what one card is worth in tricks under this trump and these rules."""
    if trump == ALL_TRUMP:
        return ALL_TRUMP_VALUES[rank]
    if trump == NO_TRUMP and rank == "A":
        return NO_TRUMP_ACE[rules]
    return TRUMP_VALUES[rank] if suit == trump else PLAIN_VALUES[rank]


def card_total(trump: str, rules: str) -> int:
    """Return the card points in a deal's tricks, without the last-trick ten (152 or 120)."""
    return sum(card_value(rank, suit, trump, rules) for suit in SUITS for rank in RANKS)


def possible_announcements() -> frozenset[int]:
    """Return every total a team's announcements can add up to."""
    totals = {0}
    for _step in range(MAX_ANNOUNCEMENTS // min(ANNOUNCEMENTS.values())):
        totals |= {t + v for t in totals for v in ANNOUNCEMENTS.values() if t + v <= 550}
    return frozenset(totals)


POSSIBLE_ANNOUNCEMENTS = possible_announcements()


def announcement_choices(trump: str | None, rules: str) -> dict[Any, int]:
    """Return the quick announcements the table may make under this trump and these rules."""
    if rules != "official":
        return ANNOUNCEMENTS
    return NO_TRUMP_ANNOUNCEMENTS if trump == NO_TRUMP else OFFICIAL_ANNOUNCEMENTS


@cache
def possible_points(trump: str, rules: str) -> frozenset[int]:
    """Return every card-point sum some of a deal's cards can make under this trump.

    Computed once per trump and rules: in a trump deal no card is worth 1, so 1 and the total
    less 1 are out of reach.
    """
    sums = {0}
    for suit in SUITS:
        for rank in RANKS:
            value = card_value(rank, suit, trump, rules)
            sums |= {made + value for made in sums}
    return frozenset(sums)


def belotes_of(deal: Mapping[str, Any], team: str) -> int:
    """Return how many belotes a team announced: several only at all trump under official rules.

    Deals stored before the count existed name one team in `belote`.
    """
    if "belotes" in deal:
        return deal["belotes"][team]
    return 1 if deal["belote"] == team else 0


def half_up(points: int) -> int:
    """Round to the nearest ten, 5 going up (85 → 90, 84 → 80)."""
    return (points + 5) // 10 * 10


def contract_value(contract: Any) -> int:
    """Return what a coinche contract is worth (capot 250, générale 500)."""
    return CONTRACT_VALUES[str(contract)]


def contract_name(contract: Any) -> str:
    """Name a contract as the table says it."""
    return {"capot": _("capot"), "generale": _("générale")}.get(str(contract), str(contract))


def doubling_name(level: str) -> str:
    """Name a doubling as the table says it: coinche or surcoinche."""
    return {"coinche": _("coinche"), "surcoinche": _("surcoinche")}[level]


# --- reading a deal ---------------------------------------------------------------------------


def read_team(table: Table, given: Any, path: str) -> str | None:
    """Return a team named in a deal, or None where the deal names no team."""
    return None if given is None else table.team(given, path)


def read_per_team(
    table: Table, given: Any, path: str, not_object: str, not_whole: str
) -> dict[str, Any]:
    """Return a {team: value} object with its team names checked.

    `not_object` refuses anything but an object; `not_whole` (with a {team}) a value that is
    not a whole number.
    """
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise Refusal.at(path, not_object)
    problems = Problems()

    def read_one(name: str, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refusal.at(where, not_whole.format(team=name))
        return value

    read = table.each(given, path, read_one, problems, by_team=True)
    problems.raise_any()
    return read


def read_points(table: Table, given: Any, trump: str, capot: str | None) -> dict[str, int]:
    """Check the card points: one side may be left out; both must add up to the deal's total,
    and each must be a sum the deal's cards can make."""
    rules = table.options["rules"]
    total = card_total(trump, rules)
    points = read_per_team(
        table,
        given,
        "points",
        _("Card points must be an object: team name → number."),
        _("Card points of {team} must be a whole number."),
    )
    teams = list(table.teams or {})
    if capot is not None:
        points = {team: points.get(team, total if team == capot else 0) for team in teams}
    problems = Problems()
    for team, value in points.items():
        if not 0 <= value <= total:
            problems.add(
                f"points.{team}",
                _("{team}'s card points are between 0 and {total}.").format(team=team, total=total),
            )
        elif capot is not None and team != capot and value:
            problems.add(
                f"points.{team}",
                _("{capot} made a capot, so {team} took no points.").format(capot=capot, team=team),
            )
        elif value not in possible_points(trump, rules):
            problems.add(
                f"points.{team}",
                _(
                    "No cards add up to {points} under this trump, so {team} cannot have "
                    "{points} card points: count them again."
                ).format(points=value, team=team),
            )
    problems.raise_any()
    if not points:
        raise Refusal.at("points", _("Type one team's card points (the other is the rest)."))
    if len(points) == 1:
        [(team, value)] = points.items()
        points = {name: value if name == team else total - value for name in teams}
    if sum(points.values()) != total:
        raise Refusal.at(
            "points",
            _("The card points must add up to {total}: {addition}.").format(
                total=total, addition=explain.addition([points[team] for team in teams])
            ),
        )
    return points


def read_announcements(table: Table, given: Any) -> dict[str, int]:
    """Check each team's announcements: a sum of real announcement values."""
    announced = read_per_team(
        table,
        given,
        "announcements",
        _("Announcements must be an object: team name → number."),
        _("Announcements of {team} must be a whole number."),
    )
    values = ", ".join(f"{name} {value}" for name, value in ANNOUNCEMENTS.items())
    problems = Problems()
    for team, value in announced.items():
        if value not in POSSIBLE_ANNOUNCEMENTS:
            problems.add(
                f"announcements.{team}",
                _("{value} is not a sum of announcements ({values}), up to {most}.").format(
                    value=value, values=values, most=MAX_ANNOUNCEMENTS
                ),
            )
    problems.raise_any()
    announced = {team: announced.get(team, 0) for team in table.teams or {}}
    if table.options["rules"] == "official" and all(announced.values()):
        raise Refusal.at(
            "announcements",
            _(
                "Under official rules only one team's announcements count: the team with the "
                "best announcement scores all of its own and the other team none (equal best: "
                "nobody scores). Enter the announcements of {teams} only, or of neither."
            ).format(teams=explain.either(announced)),
        )
    return announced


def read_belotes(
    table: Table, given: Any, belote: str | None, trump: Any
) -> tuple[str | None, dict[str, int] | None]:
    """Check the belotes: one team's at a suit trump, none at no trump, and at all trump under
    official rules up to four between the teams; return `belote` and the count per team.

    At all trump the count is kept for every team and `belote` names the team holding belotes
    when only one does (None when both do): clients that only know `belote` still read it.
    """
    teams = list(table.teams or {})
    belotes = read_per_team(
        table,
        given,
        "belotes",
        _("Belotes must be an object: team name → number of belotes."),
        _("Belotes of {team} must be a whole number."),
    )
    if trump != ALL_TRUMP:
        if any(belotes.values()):
            raise Refusal.at(
                "belotes",
                _("Only all trump has several belotes: name the team with belote in belote."),
            )
        if trump == NO_TRUMP and belote is not None:
            raise Refusal.at("belote", _("There is no belote without trumps."))
        return belote, None
    if not belotes:
        belotes = {belote: 1} if belote is not None else {}
    belotes = {team: belotes.get(team, 0) for team in teams}
    for team, count in belotes.items():
        if count < 0:
            raise Refusal.at(
                f"belotes.{team}", _("{team} cannot have fewer than 0 belotes.").format(team=team)
            )
    most = MAX_BELOTES if table.options["rules"] == "official" else 1
    if sum(belotes.values()) > most:
        if most == 1:
            said = _(
                "Under maison rules a deal has one belote: several at all trump count only "
                "under official rules."
            )
        else:
            said = _("All trump has at most four belotes between the teams, one per suit.")
        raise Refusal.at("belotes", said)
    if belote is not None and not belotes[belote]:
        raise Refusal.at(
            "belote",
            _("belote names {team}, but belotes gives {team} none: send one or the other.").format(
                team=belote
            ),
        )
    holding = [team for team, count in belotes.items() if count]
    return (holding[0] if len(holding) == 1 else None), belotes


def neutral_coinche(name: str, value: Any) -> bool:
    """Say whether a coinche field says nothing a classic deal could disagree with.

    A client that always sends every field sends "coinche": "none" and "taker_alone": false.
    """
    if name == "coinche":
        return value in (None, "none")
    if name == "taker_alone":
        return value is None or value is False
    return value is None


def read_contract(options: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """Check the coinche contract, its doubling and the générale's lone taker."""
    coinche_fields = ("contract", "coinche", "taker_alone")
    if options["variant"] == "classic":
        for name in coinche_fields:
            if not neutral_coinche(name, data.get(name)):
                raise Refusal.at(
                    name,
                    _("{field} is for coinche; this match plays classic belote.").format(
                        field=name
                    ),
                )
        return {}
    problems = Problems()
    contract = data.get("contract")
    if isinstance(contract, str) and contract in CONTRACT_VALUES and contract.isdigit():
        # A number sent as text is refused rather than guessed at: the API says it is a number.
        problems.add(
            "contract",
            _('The contract {contract} is a number: send {contract}, not "{contract}".').format(
                contract=contract
            ),
        )
    elif str(contract) not in CONTRACT_VALUES or isinstance(contract, bool):
        problems.add(
            "contract",
            _("Choose the contract: 80 to 160 by tens, {capot} or {generale}.").format(
                capot=contract_name("capot"), generale=contract_name("generale")
            ),
        )
    elif not isinstance(contract, str):
        contract = int(contract)
    level = data.get("coinche", "none")
    if not isinstance(level, str) or level not in MULTIPLIERS:
        problems.add("coinche", _("Choose the doubling: none, coinche or surcoinche."))
    alone = data.get("taker_alone", False)
    if not isinstance(alone, bool):
        problems.add(
            "taker_alone", _("Say whether the taker took every trick alone: true or false.")
        )
    elif alone and contract != "generale":
        problems.add("taker_alone", _("Taking every trick alone only counts for a générale."))
    problems.raise_any()
    return {"contract": contract, "coinche": level, "taker_alone": alone}


def read_deal(table: Table, data: Any) -> dict[str, Any]:
    """Check one deal as entered and return it complete: both teams' points and extras."""
    if not isinstance(data, dict):
        raise Refusal(_("A deal must be an object with taker, trump, points and last_trick."))
    options = table.options
    problems = Problems()
    deal: dict[str, Any] = {}
    if data.get("taker") in (None, ""):
        problems.add("taker", _("Say who took."))
    else:
        with problems.collect():
            deal["taker"] = table.player(data.get("taker"), "taker")
    trump = data.get("trump")
    allowed = TRUMPS if options["variant"] == "coinche" else TRUMPS[:-1]
    if trump not in allowed:
        trumps = explain.either(TRUMP_LABELS[t] for t in allowed)
        problems.add("trump", _("Choose the trump: {trumps}.").format(trumps=trumps))
    deal["trump"] = trump
    for name in ("capot", "belote"):
        with problems.collect():
            deal[name] = read_team(table, data.get(name), name)
    with problems.collect():
        deal["announcements"] = read_announcements(table, data.get("announcements"))
    with problems.collect():
        deal |= read_contract(options, data)
    problems.add_unknown(data, DEAL_FIELDS, _("A deal has no field {field}."))
    problems.raise_any()
    with problems.collect():
        belotes = read_belotes(table, data.get("belotes"), deal["belote"], trump)
        deal["belote"], counted = belotes
        if counted is not None:
            deal["belotes"] = counted
    with problems.collect():
        deal["last_trick"] = read_last_trick(table, data.get("last_trick"), deal["capot"])
    taker_team = table.team_of(deal["taker"])
    if deal.get("taker_alone") and deal["capot"] != taker_team:
        problems.add(
            "taker_alone",
            _("Taking every trick alone means {team} made capot.").format(team=taker_team),
        )
    with problems.collect():
        deal["points"] = read_points(table, data.get("points"), trump, deal["capot"])
    problems.raise_any()
    return deal


def read_last_trick(table: Table, given: Any, capot: str | None) -> str:
    """Check who took the last trick: with a capot it can only be the capot team."""
    if capot is None:
        if given is None:
            raise Refusal.at("last_trick", _("Say which team took the last trick."))
        return table.team(given, "last_trick")
    if given is not None and table.team(given, "last_trick") != capot:
        raise Refusal.at(
            "last_trick", _("{team} made a capot, so it took the last trick.").format(team=capot)
        )
    return capot


# --- scoring a deal ---------------------------------------------------------------------------


@dataclass
class Deal:
    """One deal's scores, the word for its result, and why."""

    scores: dict[str, int]
    result: str
    explanation: list[str]
    winner: str | None
    """The team that wins the deal and so takes a pending reserve; None after a litige."""
    held: int = 0
    """The takers' points put in reserve by a litige."""
    tie: bool = False
    """The two teams made the same total (a litige, or a fall when ties count as one)."""


def team_totals(table: Table, deal: Mapping[str, Any]) -> tuple[dict[str, int], list[str]]:
    """Add each team's card points, last trick, belote and announcements, with a sentence each."""
    totals: dict[str, int] = {}
    sentences = []
    for team in table.teams or {}:
        parts = [(deal["points"][team], _("{points} in cards"))]
        if deal["last_trick"] == team:
            ten = CAPOT_LAST_TRICK if deal["capot"] == team else LAST_TRICK
            if deal["capot"]:
                parts.append((ten, _("{points} for the last trick of a capot")))
            else:
                parts.append((ten, _("{points} for the last trick")))
        belotes = belotes_of(deal, team)
        if belotes > 1:
            parts.append(
                (
                    BELOTE * belotes,
                    ngettext(
                        "{points} for {count} belote", "{points} for {count} belotes", belotes
                    ),
                )
            )
        elif belotes:
            parts.append((BELOTE, _("{points} for belote")))
        if deal["announcements"][team]:
            parts.append((deal["announcements"][team], _("{points} in announcements")))
        totals[team] = sum(value for value, _what in parts)
        terms = " + ".join(what.format(points=value, count=belotes) for value, what in parts)
        if len(parts) > 1:
            sentence = _("{team}: {terms} = {total}.")
        else:
            sentence = _("{team}: {terms}.")
        sentences.append(sentence.format(team=team, terms=terms, total=totals[team]))
    return totals, sentences


def score_deal(table: Table, deal: Mapping[str, Any]) -> Deal:
    """Score one deal before any reserve and rounding, under the match's variant and rules."""
    takers = table.team_of(deal["taker"])
    defence = next(team for team in table.teams or {} if team != takers)
    totals, sentences = team_totals(table, deal)
    sides = Sides(table, deal, takers, defence, totals)
    scored = sides.coinche() if table.options["variant"] == "coinche" else sides.classic()
    scored.explanation[:0] = sentences
    scored.tie = sides.tied()
    return scored


@dataclass
class Sides:
    """The takers and the defence of one deal, with what each team made."""

    table: Table
    deal: Mapping[str, Any]
    takers: str
    defence: str
    totals: dict[str, int]

    def belote(self, team: str) -> int:
        """Return the team's belote, which it keeps whatever happens."""
        return BELOTE * belotes_of(self.deal, team)

    def all_announcements(self) -> int:
        """Return both teams' announcements together."""
        return sum(self.deal["announcements"].values())

    def scores(self, takers: int, defence: int) -> dict[str, int]:
        """Return the deal's scores in the teams' order."""
        by_team = {self.takers: takers, self.defence: defence}
        return {team: by_team[team] for team in self.table.teams or {}}

    def versus(self) -> dict[str, Any]:
        """Return each side and what it made, the placeholders of a result's sentences."""
        return {
            "takers": self.takers,
            "takers_made": self.totals[self.takers],
            "defence": self.defence,
            "defence_made": self.totals[self.defence],
        }

    def litige(self) -> Deal:
        """Hold the takers' total in reserve; the defence scores its own total now."""
        held, kept = self.totals[self.takers], self.totals[self.defence]
        sentence = _(
            "Litige: both teams made {held}; {defence} scores its {kept} and {takers}'s {held} go "
            "to the reserve for the next deal's winner."
        ).format(held=held, kept=kept, defence=self.defence, takers=self.takers)
        return Deal(self.scores(0, kept), LITIGE, [sentence], None, held)

    def tied(self) -> bool:
        """Say whether the two sides made the same total."""
        return self.totals[self.takers] == self.totals[self.defence]

    def classic(self) -> Deal:
        """Score classic belote: made, fall or litige."""
        takers, defence = self.totals[self.takers], self.totals[self.defence]
        if takers > defence:
            word = CAPOT if self.deal["capot"] == self.takers else MADE
            sentence = _(
                "Made: {takers} (takers) made {takers_made}, {defence} {defence_made}, so each "
                "team scores its total."
            ).format(**self.versus())
            return Deal(self.scores(takers, defence), word, [sentence], self.takers)
        if self.tied() and self.table.options["litige"] == "reserve":
            return self.litige()
        deal_value = self.deal_value()
        won = deal_value + self.belote(self.defence) + self.all_announcements()
        parts = [deal_value, self.belote(self.defence), self.all_announcements()]
        if won == deal_value:
            fall = _(
                "Fall: {takers} (takers) made {takers_made}, {defence} {defence_made}, so "
                "{defence} scores all {deal}, and {takers} keeps its belote ({belote})."
            )
        else:
            fall = _(
                "Fall: {takers} (takers) made {takers_made}, {defence} {defence_made}, so "
                "{defence} scores all {deal} with its belote and the announcements: {addition}, "
                "and {takers} keeps its belote ({belote})."
            )
        sentence = fall.format(
            **self.versus(),
            deal=deal_value,
            addition=explain.addition(parts),
            belote=self.belote(self.takers),
        )
        return Deal(self.scores(self.belote(self.takers), won), FALL, [sentence], self.defence)

    def deal_value(self) -> int:
        """Return the whole deal: the card total and last trick, 252 after a capot."""
        total = card_total(self.deal["trump"], self.table.options["rules"])
        return total + (CAPOT_LAST_TRICK if self.deal["capot"] else LAST_TRICK)

    def reached(self) -> bool:
        """Say whether the takers reached their coinche contract."""
        contract = self.deal["contract"]
        if contract == "capot":
            return self.deal["capot"] == self.takers
        if contract == "generale":
            return self.deal["capot"] == self.takers and self.deal["taker_alone"]
        return self.totals[self.takers] >= contract

    def coinche(self) -> Deal:
        """Score coinche: the contract made, held in a litige, or failed."""
        multiplier = MULTIPLIERS[self.deal["coinche"]]
        contract = contract_value(self.deal["contract"])
        named = contract_name(self.deal["contract"])
        reached = self.reached()
        ahead = self.totals[self.takers] > self.totals[self.defence]
        if reached:
            reach = _(
                "Contract {contract} reached: {takers} (takers) made {takers_made}, {defence} "
                "{defence_made}."
            )
        else:
            reach = _(
                "Contract {contract} not reached: {takers} (takers) made {takers_made}, {defence} "
                "{defence_made}."
            )
        reach = reach.format(contract=named, **self.versus())
        if reached and ahead:
            made = self.made_plain(contract) if multiplier == 1 else self.made_doubled(contract)
            made.explanation.insert(0, reach)
            return made
        if (
            reached
            and self.tied()
            and multiplier == 1
            and self.table.options["litige"] == "reserve"
        ):
            held = self.litige()
            held.explanation.insert(0, reach)
            return held
        failed = self.failed(contract, multiplier)
        failed.explanation.insert(0, reach)
        return failed

    def made_plain(self, contract: int) -> Deal:
        """Score a made contract nobody doubled: the takers add the contract to their total."""
        takers, defence = self.totals[self.takers], self.totals[self.defence]
        capot = self.deal["capot"] == self.takers
        sentences = [
            _("Made: {takers} scores {made} + {contract} = {total}.").format(
                takers=self.takers, made=takers, contract=contract, total=takers + contract
            )
        ]
        if capot and self.deal["announcements"][self.defence]:
            moved = self.deal["announcements"][self.defence]
            takers, defence = takers + moved, defence - moved
            sentences.append(
                _("After the capot, {defence}'s announcements ({points}) go to {takers}.").format(
                    defence=self.defence, points=moved, takers=self.takers
                )
            )
        sentences.append(
            _("{defence} scores its own {points}.").format(defence=self.defence, points=defence)
        )
        word = CAPOT if capot else MADE
        return Deal(self.scores(takers + contract, defence), word, sentences, self.takers)

    def made_doubled(self, contract: int) -> Deal:
        """Score a made contract under coinche or surcoinche: the defence keeps only its belote."""
        multiplier = MULTIPLIERS[self.deal["coinche"]]
        capot = self.deal["capot"] == self.takers
        won, formula = self.doubled(contract, multiplier, self.takers, capot)
        sentences = [
            _("Made, {doubling} (×{multiplier}): {takers} scores {formula}.").format(
                doubling=doubling_name(self.deal["coinche"]),
                multiplier=multiplier,
                takers=self.takers,
                formula=formula,
            ),
            _("{defence} keeps its belote ({belote}).").format(
                defence=self.defence, belote=self.belote(self.defence)
            ),
        ]
        word = CAPOT if capot else MADE
        return Deal(self.scores(won, self.belote(self.defence)), word, sentences, self.takers)

    def failed(self, contract: int, multiplier: int) -> Deal:
        """Score a failed contract: the defence wins the formula, the takers keep their belote."""
        won, formula = self.doubled(contract, multiplier, self.defence, capot=False)
        sentences = [
            _("Fall: {defence} scores {formula}, and {takers} keeps its belote ({belote}).").format(
                defence=self.defence,
                formula=formula,
                takers=self.takers,
                belote=self.belote(self.takers),
            )
        ]
        return Deal(self.scores(self.belote(self.takers), won), FALL, sentences, self.defence)

    def doubled(self, contract: int, multiplier: int, team: str, capot: bool) -> tuple[int, str]:
        """Apply the maison or official formula for the team that wins the contract's points."""
        official = self.table.options["rules"] == "official"
        base = CAPOT_BASE if capot and official else BASE
        inside = [base, contract, self.all_announcements()]
        belote = self.belote(team)
        if official:
            inside.append(belote)
            won = sum(inside) * multiplier
            return won, f"({' + '.join(map(str, inside))}) × {multiplier} = {won}"
        won = sum(inside) * multiplier + belote
        return won, f"({' + '.join(map(str, inside))}) × {multiplier} + {belote} = {won}"
