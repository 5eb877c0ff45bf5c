"""Events as the JSON documents API.md promises: the event, its tables and its standings."""

from __future__ import annotations

from typing import Any

from flask import url_for

from scorebook import events
from scorebook.events import Event

from .present import pick


def event_json(event: Event) -> dict[str, Any]:
    """Return the whole event: entrants, every round's tables and byes, and the standings."""
    row = event.row
    byes = {drawn["round"]: drawn["byes"] for drawn in event.draws}
    return {
        "id": event.id,
        **pick(row, "uid", "name", "game"),
        "options": events.shown_options(row),
        **pick(row, "rounds", "deals", "table_size", "place", "played_on"),
        "created_at": row["created_utc"],
        "closed_at": row["closed_utc"],
        "round": event.drawn,
        "status": event.status,
        "entrants": event.entrant_list(),
        "tables": [
            {
                "round": n,
                "tables": [
                    table_json(table) | confirm_json(event, table)
                    for table in event.round_tables(n)
                ],
                "byes": byes[n],
            }
            for n in range(1, event.drawn + 1)
        ],
        "standings": standings_json(event),
        "ranking": str(event.scorer.event_rule),
        "winner": event.winner,
        "url": url_for("events_api.event", event_id=event.id, _external=True),
        "html_url": url_for("event_pages.event", event_id=event.id, _external=True),
        "standings_url": url_for("event_pages.standings", event_id=event.id, _external=True),
    }


def table_seats(row: dict[str, Any]) -> dict[str, Any]:
    """Return one table of a round as drawn: its match and who sits there."""
    return {
        "table": row["event_table"],
        "match": row["id"],
        "html_url": url_for("pages.match", match_id=row["id"], _external=True),
        "seats": list(row["teams"]) if row["teams"] is not None else list(row["players"]),
    }


def table_json(row: dict[str, Any]) -> dict[str, Any]:
    """Return one table of a round: its match, who sits there and how it stands."""
    return table_seats(row) | pick(row, "status", "totals", "winner", "rounds_played")


def confirm_json(event: Event, table: dict[str, Any]) -> dict[str, Any]:
    """Say, at an event whose sides confirm, whether a table's match is settled, and whether
    its result counts yet."""
    said = event.said.get(table["id"])
    if said is None:
        return {}
    return {"settled": said.settled, "accepted": said.accepted, "counts": event.counts(table)}


def disputes_json(event: Event) -> list[dict[str, Any]]:
    """Return the event's contested rounds, table by table."""
    return [
        {
            "round": table["event_round"],
            "table": table["event_table"],
            "match": table["id"],
            "n": n,
            **contest,
            "why_url": url_for("pages.why", match_id=table["id"], n=n, _external=True),
        }
        for table, n, contest in event.contested()
    ]


def standings_json(event: Event) -> list[dict[str, Any]]:
    """Return the standings, best first, with each entrant's record."""
    return [
        {
            "rank": rank,
            "entrant": record.entrant,
            "played": record.played,
            "won": record.won,
            "points": record.points,
            "points_against": record.against,
            "byes": record.byes,
            "withdrawn": record.withdrawn,
        }
        for rank, record in event.standings
    ]


def event_summary(row: dict[str, Any]) -> dict[str, Any]:
    """Return an event as the list of events shows it."""
    return {
        **pick(row, "id", "name", "game", "rounds"),
        "round": row["drawn"],
        **pick(row, "place", "played_on"),
        "created_at": row["created_utc"],
        "closed_at": row["closed_utc"],
        "url": url_for("events_api.event", event_id=row["id"], _external=True),
    }
