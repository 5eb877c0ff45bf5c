"""Matches, rounds and games as the JSON documents API.md promises."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import url_for

from scorebook.matches import Match
from scorebook.round_json import round_json
from scorebook.transfer import logged
from scorebook.verdicts import Verdicts, shown_choice
from scorers import Scorer
from scorers.base import Option, seats


def game_json(scorer: Scorer) -> dict[str, Any]:
    """Describe a game: who can play it and its options with their defaults."""
    defaults = {n: scorer.resolve_options({}, seats(n)) for n in scorer.player_counts}
    return {
        "id": scorer.id,
        "name": scorer.name,
        "players": list(scorer.player_counts),
        "teams": scorer.teams,
        "options": [option_json(option, defaults) for option in scorer.options],
    }


def option_json(option: Option, defaults: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Describe one option; a default that depends on the player count is listed per count."""
    described: dict[str, Any] = {"name": option.name, "label": option.label, "help": option.help}
    by_players = {str(n): chosen.get(option.name) for n, chosen in defaults.items()}
    if option.player:
        described["player"] = True
        described["default_seat"] = seats(max(defaults)).index(by_players[str(max(defaults))])
    elif len(set(by_players.values())) > 1:
        described["default_by_players"] = by_players
    else:
        described["default"] = next(iter(by_players.values()))
    if option.choices:
        described["choices"] = list(option.choices)
    if option.minimum is not None:
        described["minimum"] = option.minimum
        described["maximum"] = option.maximum
    return described


def match_json(match: Match) -> dict[str, Any]:
    """Return the whole match with its replayed state."""
    replay = match.replay
    said = match.confirmations
    return {
        "id": match.id,
        "game": match.scorer.id,
        "options": dict(match.table.options) | shown_choice(match.scorer_side),
        "players": list(match.table.players),
        "teams": None if match.table.teams is None else dict(match.table.teams),
        "rounds": [
            round_json(stored, result) | verdict_json(said, stored.id)
            for stored, result in match.scored_rounds()
        ],
        "totals": replay.totals,
        "status": replay.status,
        "winner": replay.winner,
        "state": replay.state,
        "uid": match.uid,
        "created_at": match.created_utc,
        "url": url_for("api.match", match_id=match.id, _external=True),
        "html_url": url_for("pages.match", match_id=match.id, _external=True),
        "version": match.version,
        "removed": [
            {"id": gone.id, "input": gone.input, "removed_at": gone.removed_utc}
            for gone in match.removed
        ],
        "rematch_of": match.rematch_of,
        "rematched_by": match.rematched_by,
        "event": match.event,
        "note": match.details.get("note"),
        "place": match.details.get("place"),
        "played_at": match.details.get("played_at") or match.created_utc,
        "abandoned_at": match.abandoned_utc,
        "settled": said is None or said.settled,
    }


def round_answer(match: Match, n: int) -> dict[str, Any]:
    """Answer a change with the round it touched and the whole match after it."""
    shown = match_json(match)
    return {"round": shown["rounds"][n - 1], "match": shown}


def verdict_json(said: Verdicts | None, round_id: int) -> dict[str, Any]:
    """Return what the sides said of a round, in a match whose sides confirm its rounds."""
    if said is None:
        return {}
    verdict = said.by_round[round_id]
    return {"confirmed_by": verdict.confirmed_by, "contest": verdict.contest}


def pick(row: Mapping[str, Any], *names: str) -> dict[str, Any]:
    """Copy the named fields of a stored row, in that order: the answer calls them the same."""
    return {name: row[name] for name in names}


LISTED = ("id", "game", "players", "teams", "totals", "status", "winner", "rounds_played", "uid")
"""What history lists of a match as its row holds it."""


def summary_json(row: dict[str, Any]) -> dict[str, Any]:
    """Return a match as history lists it, from its cached result."""
    return {
        **pick(row, *LISTED),
        "created_at": row["created_utc"],
        "updated_at": row["updated_utc"],
        "url": url_for("api.match", match_id=row["id"], _external=True),
        "place": row.get("place"),
        "abandoned_at": row.get("abandoned_utc"),
        "event": None
        if row.get("event_id") is None
        else {"id": row["event_id"], "round": row["event_round"], "table": row["event_table"]},
    }


def change_json(change: dict[str, Any]) -> dict[str, Any]:
    """Return one entry of the change log, as the export lists it: with its round's place
    among the match's rounds and its hash in the chain."""
    return logged(change)
