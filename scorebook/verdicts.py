"""What each side of a match says of its rounds: confirmed, contested, or nothing yet.

A match started with `confirm` names the side its scoring phone plays for (`scorer_side`);
every round the scorer enters or corrects counts as confirmed by that side, and is settled
once every other side has confirmed it from its own phone. Nothing here is stored apart: the
sides' words are changes of the match's log, read back in order, so a correction or removal
clears what was said of that round simply by coming after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorers import Refusal, Table
from scorers.options import CONFIRM_CHOICE
from scorers.seating import check_plain
from scorers.words import _

SAYING = ("confirm", "contest")
"""The changes a side's phone may log."""
CLEARING = ("correct", "remove")
"""The changes that clear what the sides said of a round."""
ROUNDS_MOVING = ("add", "correct", "remove", "restore")
"""The changes after which an organiser's acceptance no longer holds."""
READ = (*SAYING, *CLEARING, "restore", "add", "accept")
"""The changes of a log the sides' verdicts are read from."""
MAX_REASON = 200


def take_choice(data: Any) -> tuple[Any, dict[str, Any]]:
    """Split a new match's data into what its game reads and the confirm choice (CONFIRM_CHOICE)."""
    if not isinstance(data, dict) or not isinstance(data.get("options"), dict):
        return data, {}
    options = data["options"]
    chosen = {name: options[name] for name in CONFIRM_CHOICE if name in options}
    game = {name: value for name, value in options.items() if name not in CONFIRM_CHOICE}
    return data | {"options": game}, chosen


def sides_of(table: Table) -> list[str]:
    """Return the sides of a table: its teams, or its players, in order."""
    return list(table.teams) if table.teams else list(table.players)


def read_choice(chosen: Mapping[str, Any], table: Table) -> str | None:
    """Check the confirm choice against the table; return the scorer's side when every side
    confirms, None when the scorer's word is enough."""
    confirm = chosen.get("confirm", False)
    if not isinstance(confirm, bool):
        raise Refusal.at("options.confirm", _("Confirm is true or false."))
    side = chosen.get("scorer_side")
    sides = sides_of(table)
    if not confirm:
        if side is not None:
            raise Refusal.at(
                "options.scorer_side",
                _("The scorer's side counts only when every side confirms: add confirm."),
            )
        return None
    if side is None:
        return sides[0]
    if side not in sides:
        raise Refusal.at(
            "options.scorer_side",
            _("The scorer plays for one side of this table: {sides}.").format(
                sides=", ".join(sides)
            ),
        )
    return side


def shown_choice(scorer_side: str | None) -> dict[str, Any]:
    """Return the confirm choice as a match's options show it: nothing when it is off."""
    return {} if scorer_side is None else {"confirm": True, "scorer_side": scorer_side}


@dataclass
class Verdict:
    """What the sides said of one round as it stands."""

    confirmed_by: list[str]
    contest: dict[str, Any] | None = None
    """The latest contest still standing: its side, its reason and when."""
    settled: bool = False


@dataclass
class Verdicts:
    """What the sides of a confirming match said of its rounds, and whether an organiser
    accepted its result as it stands."""

    scorer_side: str
    sides: list[str]
    by_round: dict[int, Verdict] = field(default_factory=dict)
    """By round id, for every round that counts."""
    accepted: bool = False

    @property
    def settled(self) -> bool:
        """Say whether every round is settled (a match with none is)."""
        return all(verdict.settled for verdict in self.by_round.values())

    @property
    def contested(self) -> list[int]:
        """The ids of the rounds a side contests."""
        return [round_id for round_id, verdict in self.by_round.items() if verdict.contest]

    def waiting_for(self, round_id: int) -> list[str]:
        """The sides that have not confirmed a round yet."""
        said = self.by_round[round_id].confirmed_by
        return [side for side in self.sides if side not in said]


def read_verdicts(
    scorer_side: str, sides: Sequence[str], round_ids: Iterable[int], changes: Iterable[Any]
) -> Verdicts:
    """Read the sides' verdicts on the rounds that count from the log's changes (READ), oldest
    first: each side's latest word on a round stands until that round is corrected or removed."""
    said: dict[int, dict[str, tuple[int, dict[str, Any]]]] = {}
    accepted = False
    for order, change in enumerate(changes):
        action, round_id = change["action"], change["round_id"]
        if action in SAYING:
            said.setdefault(round_id, {})[change["input"]["side"]] = (order, change)
        elif action in CLEARING:
            said.pop(round_id, None)
        if action == "accept":
            accepted = True
        elif action in ROUNDS_MOVING:
            accepted = False
    verdicts = Verdicts(scorer_side, list(sides), accepted=accepted)
    for round_id in round_ids:
        words = said.get(round_id, {})
        confirmed = {scorer_side} | {s for s, (_o, w) in words.items() if w["action"] == "confirm"}
        contests = sorted(word for word in words.values() if word[1]["action"] == "contest")
        verdicts.by_round[round_id] = Verdict(
            confirmed_by=[side for side in sides if side in confirmed],
            contest=contest_of(contests[-1][1]) if contests else None,
            settled=confirmed >= set(sides),
        )
    return verdicts


def contest_of(change: Mapping[str, Any]) -> dict[str, Any]:
    """Return a contest as a round shows it: the side, its reason and when."""
    said = change["input"]
    return {"side": said["side"], "reason": said["reason"], "at": change["at"]}


def read_reason(given: Any) -> str:
    """Check why a side contests a round: a short plain text, required."""
    reason = given.strip() if isinstance(given, str) else ""
    if not reason:
        raise Refusal.at("reason", _("Say in a few words what is wrong with this round."))
    if len(reason) > MAX_REASON:
        raise Refusal.at(
            "reason",
            _("This has at most {most} characters; it has {count}.").format(
                most=MAX_REASON, count=len(reason)
            ),
        )
    check_plain(reason, "reason")
    return reason
