"""Gaigel scoring (RULES.md §4): outcomes, the Aus checker, strokes given then erased, and the
three-player tournament deal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import explain
from ..base import Table
from ..refusal import Problems, Refusal
from ..words import _, lazy, ngettext

PACK_POINTS = 240
AUS = 101
CARDS = 48
MARRIAGES = {40: 2, 20: 6}
"""Marriage values and how many a double pack holds: two in trumps, six in the other suits."""

OUTCOMES = {
    "aus": (lazy("Aus"), 1),
    "gaigel": (lazy("Gaigel"), 2),
    "untergaigeln": (lazy("Untergaigeln"), 2),
    "uebergaigeln": (lazy("Übergaigeln"), 2),
    "five_sevens": (lazy("Five sevens"), 1),
    "auf_farbe": (lazy("Auf Farbe"), 1),
}
"""Each outcome's name at the table and the strokes it is worth (single 1, double 2)."""
VARIANTS = ("five_sevens", "auf_farbe")
"""Outcomes that count only when the match's option of the same name is on."""
CALLER_LOSES = ("untergaigeln", "uebergaigeln")
"""Outcomes won by the team that did not call (or did not call in time)."""

CALL_SAID = {
    "cards": {
        "under": lazy("{caller} called Aus with {count} in cards: under {aus}."),
        "gaigel": lazy("{caller} has {count} in cards, and {other} took no trick."),
        "aus": lazy("{caller} has {count} in cards, and {other} took a trick."),
        "not_caught": lazy(
            "{caller} had {count} in cards: under {aus}, nobody can be caught playing on."
        ),
        "played_on": lazy(
            "{caller} had {count} in cards, {total} or more than {aus}, and played on."
        ),
    },
    "trickless": {
        "under": lazy(
            "{caller} called Aus with {count} in cards (the marriages count only once the "
            "team has a trick): under {aus}."
        ),
        "gaigel": lazy(
            "{caller} has {count} in cards (the marriages count only once the team has a "
            "trick), and {other} took no trick."
        ),
        "aus": lazy(
            "{caller} has {count} in cards (the marriages count only once the team has a "
            "trick), and {other} took a trick."
        ),
        "not_caught": lazy(
            "{caller} had {count} in cards (the marriages count only once the team has a "
            "trick): under {aus}, nobody can be caught playing on."
        ),
        "played_on": lazy(
            "{caller} had {count} in cards (the marriages count only once the team has a "
            "trick), {total} or more than {aus}, and played on."
        ),
    },
    "marriages": {
        "under": lazy("{caller} called Aus with {count} with marriages: under {aus}."),
        "gaigel": lazy("{caller} has {count} with marriages, and {other} took no trick."),
        "aus": lazy("{caller} has {count} with marriages, and {other} took a trick."),
        "not_caught": lazy(
            "{caller} had {count} with marriages: under {aus}, nobody can be caught playing on."
        ),
        "played_on": lazy(
            "{caller} had {count} with marriages, {total} or more than {aus}, and played on."
        ),
    },
}
"""What is said of a call, for each way the calling team's count is made (see `counted`): whole
sentences, as translators need them."""

GAME_POINTS = (5, 3, 1)
DEALS_PER_SESSION = 10
SESSIONS = 3


def read_evidence(table: Table, given: Any) -> dict[str, Any]:
    """Check the Aus checker's evidence: card points, marriages announced, the losers' tricks."""
    if not isinstance(given, dict):
        raise Refusal.at("evidence", _("Evidence is an object: points, marriages, loser_tricks."))
    tricks = CARDS // len(table.players)
    problems = Problems()
    evidence: dict[str, Any] = {}
    for key, top, bounds in (
        ("points", PACK_POINTS, _("Points is 0 to {top}.")),
        ("loser_tricks", tricks, _("Loser tricks is 0 to {top}.")),
        ("caller_tricks", tricks, _("Caller tricks is 0 to {top}.")),
    ):
        value = given.get(key)
        if value is None and key != "points":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            problems.add(f"evidence.{key}", bounds.format(top=top))
        else:
            evidence[key] = value
    marriages = given.get("marriages", [])
    if not isinstance(marriages, list) or any(
        isinstance(m, bool) or not isinstance(m, int) or m not in MARRIAGES for m in marriages
    ):
        problems.add("evidence.marriages", _("Marriages are a list of 20s and 40s (40 in trumps)."))
    else:
        for value, most in MARRIAGES.items():
            if marriages.count(value) > most:
                problems.add(
                    f"evidence.marriages.{value}",
                    _(
                        "The pack holds only {most} marriages of {value}; {given} were given."
                    ).format(most=most, value=value, given=marriages.count(value)),
                )
        evidence["marriages"] = sorted(marriages, reverse=True)
    evidence_fields = {"points", "marriages", "loser_tricks", "caller_tricks"}
    problems.add_unknown(given, evidence_fields, _("Evidence has no {field}."), "evidence")
    problems.raise_any()
    if evidence.get("caller_tricks") == 0 and evidence["points"]:
        problems.add("evidence.caller_tricks", _("A team with card points has taken a trick."))
    if evidence.get("caller_tricks", 0) + evidence.get("loser_tricks", 0) > tricks:
        problems.add(
            "evidence.loser_tricks", _("A deal has {tricks} tricks in all.").format(tricks=tricks)
        )
    problems.raise_any()
    return evidence


def counted(evidence: Mapping[str, Any]) -> tuple[int, str, str]:
    """Return what the calling team counts toward 101, the way it is counted (a key of
    CALL_SAID) and the count as shown: marriages need a trick."""
    points = evidence["points"]
    has_trick = evidence.get("caller_tricks", 1 if points else 0) > 0
    marriages = evidence.get("marriages", [])
    if not marriages:
        return points, "cards", str(points)
    if not has_trick:
        return points, "trickless", str(points)
    return points + sum(marriages), "marriages", explain.addition([points, *marriages])


def judge(table: Table, caller: str, evidence: Mapping[str, Any]) -> tuple[str, str, str]:
    """Derive the outcome from the evidence: the winner, the outcome, and the reason."""
    total, way, count = counted(evidence)
    other = next(team for team in table.teams or {} if team != caller)
    said = CALL_SAID[way]
    if total < AUS:
        return other, "untergaigeln", said["under"].format(caller=caller, count=count, aus=AUS)
    judged = "gaigel" if evidence.get("loser_tricks", 1) == 0 else "aus"
    return caller, judged, said[judged].format(caller=caller, count=count, other=other)


def read_deal(table: Table, data: Any) -> dict[str, Any]:
    """Check one team deal: who won and how, with the evidence if the table gave it."""
    if not isinstance(data, dict):
        raise Refusal(_("A deal is an object with winner and outcome."))
    problems = Problems()
    winner = None
    with problems.collect():
        winner = table.team(data.get("winner"), "winner")
    outcome = data.get("outcome")
    enabled = [o for o in OUTCOMES if o not in VARIANTS or table.options[o]]
    choices = explain.either(OUTCOMES[o][0] for o in enabled)
    if outcome is None and data.get("evidence") is None:
        problems.add("outcome", _("Say how the deal was won: {choices}.").format(choices=choices))
    elif outcome is not None and outcome not in enabled:
        refused = (
            _("{outcome} is not played in this match; choose {choices}.")
            if outcome in VARIANTS
            else _("{outcome} is not an outcome; choose {choices}.")
        )
        problems.add("outcome", refused.format(outcome=repr(outcome), choices=choices))
    problems.add_unknown(
        data,
        {"winner", "outcome", "evidence"},
        _("A deal has winner, outcome and evidence, not {field}."),
    )
    problems.raise_any()
    deal = {"winner": winner, "outcome": outcome}
    if data.get("evidence") is not None:
        deal = check_call(table, deal, read_evidence(table, data["evidence"]))
    return deal


def check_call(table: Table, deal: dict[str, Any], evidence: dict[str, Any]) -> dict[str, Any]:
    """Check a claimed outcome against the evidence, or derive it when none was claimed."""
    winner, outcome = deal["winner"], deal["outcome"]
    other = next(team for team in table.teams or {} if team != winner)
    if outcome in VARIANTS:
        raise Refusal.at(
            "evidence",
            _("The evidence checks an Aus, not {outcome}.").format(outcome=OUTCOMES[outcome][0]),
        )
    if outcome == "uebergaigeln":
        total, way, count = counted(evidence)
        if total < AUS:
            raise Refusal.at(
                "outcome",
                CALL_SAID[way]["not_caught"].format(caller=other, count=count, aus=AUS),
            )
        return {**deal, "evidence": evidence}
    caller = other if outcome == "untergaigeln" else winner
    judged_winner, judged, reason = judge(table, caller, evidence)
    if (outcome, judged) == ("gaigel", "aus") and "loser_tricks" not in evidence:
        judged = "gaigel"  # nobody said the losers took a trick: the table's word stands
    if outcome is not None and (judged, judged_winner) != (outcome, winner):
        raise Refusal.at(
            "outcome",
            _(
                "The evidence says {judged} for {judged_winner}, not {claimed} for {winner}: "
                "{reason}"
            ).format(
                judged=OUTCOMES[judged][0],
                judged_winner=judged_winner,
                claimed=OUTCOMES[outcome][0],
                winner=winner,
                reason=reason,
            ),
        )
    return {"winner": judged_winner, "outcome": judged, "evidence": evidence}


def read_three(table: Table, data: Any) -> dict[str, Any]:
    """Check a three-player deal: card points, who took a trick, and the cut for ties."""
    if not isinstance(data, dict):
        raise Refusal(_("A deal is an object with card_points, took_trick and cut_order."))
    problems = Problems()
    points = read_each(table, data.get("card_points"), "card_points", problems)
    took = read_each(table, data.get("took_trick", {}), "took_trick", problems, flags=True)
    problems.raise_any()
    took = {name: took.get(name, points[name] > 0) for name in table.players}
    for name in table.players:
        if points[name] and not took[name]:
            problems.add(
                f"took_trick.{name}",
                _("{player} has card points, so took a trick.").format(player=name),
            )
    if sum(points.values()) > PACK_POINTS:
        problems.add(
            "card_points",
            _("The card points add up to at most {most}.").format(most=PACK_POINTS),
        )
    if not any(took.values()):
        problems.add("took_trick", _("Somebody took the tricks."))
    problems.raise_any()
    cut = read_cut(table, data.get("cut_order") or [], points, took)
    return {"card_points": points, "took_trick": took, "cut_order": cut}


def read_each(
    table: Table, given: Any, path: str, problems: Problems, flags: bool = False
) -> dict[str, Any]:
    """Check a value per player: card points for all three, or optional yes/no flags."""
    if not isinstance(given, dict):
        problems.add(path, _("{field} is an object: player name → value.").format(field=path))
        return {}

    def read_one(name: str, value: Any, where: str) -> Any:
        if flags and not isinstance(value, bool):
            raise Refusal.at(where, _("Say true or false."))
        if not flags and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= PACK_POINTS
        ):
            raise Refusal.at(where, _("Card points are 0 to {most}.").format(most=PACK_POINTS))
        return value

    # An empty box is said once below, as a missing value.
    typed = {name: value for name, value in given.items() if value is not None}
    read = table.each(typed, path, read_one, problems)
    if not flags:
        for name in table.players:
            if name not in read:
                problems.add(
                    f"{path}.{name}", _("Give {player}'s card points.").format(player=name)
                )
    return read


def read_cut(
    table: Table, given: Any, points: Mapping[str, int], took: Mapping[str, bool]
) -> list[str]:
    """Check the cut: exactly the players tied on card points, best first."""
    if not isinstance(given, list):
        raise Refusal.at("cut_order", _("The cut order is a list of names, best first."))
    order = [table.player(name, f"cut_order.{i}") for i, name in enumerate(given)]
    ranked = [name for name in table.players if took[name]]
    tied = sorted(
        {a for a in ranked for b in ranked if a != b and points[a] == points[b]},
        key=table.players.index,
    )
    if sorted(order) != sorted(tied) or len(set(order)) != len(order):
        if tied:
            raise Refusal.at(
                "cut_order",
                _("{players} tie on card points: give the order they cut, best first.").format(
                    players=explain.names(tied)
                ),
            )
        raise Refusal.at("cut_order", _("Nobody ties on card points, so there is nothing to cut."))
    return order


def game_points(table: Table, deal: Mapping[str, Any]) -> tuple[dict[str, int], list[str]]:
    """Share a three-player deal's 9 game points: 5/3/1, 6/3 with a trickless player, 9 alone."""
    points, took, cut = deal["card_points"], deal["took_trick"], deal["cut_order"]
    ranked = sorted(
        (name for name in table.players if took[name]),
        key=lambda name: (-points[name], cut.index(name) if name in cut else 0),
    )
    shares = {1: (9,), 2: (6, 3), 3: GAME_POINTS}[len(ranked)]
    scores = dict.fromkeys(table.players, 0)
    for name, share in zip(ranked, shares, strict=True):
        scores[name] = share
    shown = ", ".join(f"{name} {points[name]} → {scores[name]}" for name in ranked)
    sentences = [_("By card points: {shares}.").format(shares=shown)]
    trickless = [name for name in table.players if not took[name]]
    if trickless:
        sentences.append(
            ngettext(
                "{players} took no trick: 0.", "{players} took no trick: 0.", len(trickless)
            ).format(players=explain.names(trickless))
        )
    if cut:
        sentences.append(
            _("{players} tied and cut in that order.").format(players=explain.names(cut))
        )
    return scores, sentences
