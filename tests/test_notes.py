"""Notes, place and date: a match's and a round's, through the API and the pages, kept in the
change log, in exports and imports, and a history filtered by place."""

from __future__ import annotations

import copy
import csv
import io

import pytest
from api_helpers import (
    api_match,
    refused,
    rounds_url,
    snapshot,
    start_match,
    unchained,
    unchanged,
)
from flask.testing import FlaskClient
from html_reader import parse

from app import create_app

HAND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}}


def rami(client: FlaskClient, *rounds: dict) -> int:
    match = start_match(client, {"game": "rami", "players": ["Ana", "Bo"]})
    for entered in rounds:
        assert client.post(rounds_url(match["id"]), json=entered).status_code == 201
    return match["id"]


@pytest.mark.parametrize(
    ("given", "shown"),
    [("2026-12-05", "2026-12-05"), ("2026-12-05T20:30:00Z", "2026-12-05T20:30:00Z")],
)
def test_a_day_given_without_a_time_shows_as_the_day_alone(
    client: FlaskClient, given: str, shown: str
):
    """The phone writes a moment ending in Z in its own time ("Dec 5, 2026, 1:00 AM"): a day
    the table gave without a time keeps no Z on the page, so it stays the day."""
    match_id = rami(client)
    assert client.patch(f"/api/matches/{match_id}", json={"played_at": given}).status_code == 200
    moment = parse(client.get(f"/matches/{match_id}")).find("p", "match-details").find("time")
    assert (moment.attrs["datetime"], moment.text()) == (shown, "2026-12-05")


def test_a_match_has_a_note_a_place_and_a_day(client: FlaskClient, stranger: FlaskClient):
    match_id = rami(client)
    fresh = api_match(client, match_id)
    assert (fresh["note"], fresh["place"]) == (None, None)
    assert fresh["played_at"] == fresh["created_at"]
    refused(stranger.patch(f"/api/matches/{match_id}", json={"place": "Bar"}), 403)
    answer = client.patch(
        f"/api/matches/{match_id}",
        json={"note": " Cup final ", "place": "Café du Port", "played_at": "2026-12-05"},
    )
    assert answer.status_code == 200, answer.json
    assert (answer.json["note"], answer.json["place"]) == ("Cup final", "Café du Port")
    assert answer.json["played_at"] == "2026-12-05T00:00:00Z"
    assert answer.json["version"] == fresh["version"] + 1
    log = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert log[-1]["action"] == "details"
    assert log[-1]["input"] == {
        "note": "Cup final",
        "place": "Café du Port",
        "played_at": "2026-12-05T00:00:00Z",
    }
    assert log[-1]["replaced"]["place"] is None
    cleared = client.patch(f"/api/matches/{match_id}", json={"note": ""}).json
    assert cleared["note"] is None and cleared["place"] == "Café du Port"


def test_bad_details_are_refused_with_nothing_changed(client: FlaskClient):
    match_id = rami(client)
    with unchanged(client, match_id):
        refused(
            client.patch(f"/api/matches/{match_id}", json={"note": "x" * 501}), 422, "note", "500"
        )
        refused(client.patch(f"/api/matches/{match_id}", json={"place": "p" * 101}), 422, "place")
        refused(
            client.patch(f"/api/matches/{match_id}", json={"played_at": "soon"}), 422, "played_at"
        )
        refused(client.patch(f"/api/matches/{match_id}", json={"colour": "red"}), 422)
        refused(client.patch(f"/api/matches/{match_id}", json={}), 422)


def test_a_round_carries_a_note_on_the_sheet_and_in_why(client: FlaskClient):
    match_id = rami(client, HAND, HAND)
    url = f"{rounds_url(match_id, 2)}/note"
    answer = client.put(url, json={"note": "misdeal, dealt again"})
    assert answer.status_code == 200, answer.json
    assert answer.json["round"]["note"] == "misdeal, dealt again"
    assert [r["note"] for r in answer.json["match"]["rounds"]] == [None, "misdeal, dealt again"]
    assert "misdeal, dealt again" in parse(client.get(f"/matches/{match_id}")).text()
    assert "misdeal, dealt again" in parse(client.get(f"/matches/{match_id}/rounds/2/why")).text()
    log = client.get(f"/api/matches/{match_id}/log").json["changes"]
    assert (log[-1]["action"], log[-1]["n"], log[-1]["input"]) == (
        "note",
        2,
        {"note": "misdeal, dealt again"},
    )
    # A correction keeps the note; null takes it away.
    assert (
        client.put(rounds_url(match_id, 2), json=HAND).json["round"]["note"]
        == "misdeal, dealt again"
    )
    assert client.put(url, json={"note": None}).json["round"]["note"] is None


def test_an_over_long_round_note_is_refused_with_nothing_changed(client, stranger):
    match_id = rami(client, HAND)
    url = f"{rounds_url(match_id, 1)}/note"
    with unchanged(client, match_id):
        refused(client.put(url, json={"note": "n" * 201}), 422, "note", "200")
        refused(client.put(url, json={"text": "hi"}), 422)
        refused(client.put(f"{rounds_url(match_id, 5)}/note", json={"note": "x"}), 404)
        refused(stranger.put(url, json={"note": "x"}), 403)


def test_notes_travel_in_exports_and_imports(client: FlaskClient, tmp_path):
    match_id = rami(client, HAND, HAND)
    client.put(f"{rounds_url(match_id, 1)}/note", json={"note": "Cy left early"})
    client.patch(f"/api/matches/{match_id}", json={"place": "Club", "note": "Final"})
    document = client.get(f"/api/matches/{match_id}/export?format=json").json
    assert (document["note"], document["place"]) == ("Final", "Club")
    assert document["round_records"][0]["note"] == "Cy left early"
    assert "note" not in document["round_records"][1]
    sheet = list(
        csv.reader(
            io.StringIO(
                client.get(f"/api/matches/{match_id}/export?format=csv").get_data(as_text=True)
            )
        )
    )
    assert sheet[0][-1] == "note" and sheet[1][-1] == "Cy left early" and sheet[2][-1] == ""
    other = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "o.sqlite"), "SECRET_KEY": "t"}
    ).test_client()
    imported = other.post("/api/import", json=[document])
    assert imported.status_code == 200, imported.json
    there_id = int(next(iter(imported.json["scorer_tokens"])))
    there = api_match(other, there_id)
    assert (there["note"], there["place"]) == ("Final", "Club")
    assert there["rounds"][0]["note"] == "Cy left early"
    # A note edited in the file, not by its log, is refused.
    edited = dict(document, note="Not the final", uid="edited")
    body = refused(other.post("/api/import", json=[edited]), 422)
    assert "note" in body["error"]
    # Nor a log whose change of the place says it replaced something that was never there.
    plain = unchained(document)
    log = plain["log"]
    details = next(i for i, entry in enumerate(log) if entry["action"] == "details")
    log[details]["replaced"] = {"note": "Earlier", "place": "Elsewhere"}
    forged = dict(plain, log=log, uid="forged")
    refused(other.post("/api/import", json=[forged]), 422, f"0.log.{details}.replaced")


def test_history_filters_by_place(client: FlaskClient):
    at_club = rami(client)
    rami(client)
    client.patch(f"/api/matches/{at_club}", json={"place": "Club Pique"})
    listed = client.get("/api/matches?place=club pique").json
    assert [m["id"] for m in listed["matches"]] == [at_club]
    assert listed["matches"][0]["place"] == "Club Pique"
    page = parse(client.get("/history?place=Club+Pique"))
    assert page.find("input", name="place").attrs["value"] == "Club Pique"
    assert "1 match" in page.text()


def test_the_pages_write_a_matchs_details_and_a_rounds_note(client: FlaskClient):
    match_id = rami(client, HAND)
    saved = client.post(
        f"/matches/{match_id}/details",
        data={"note": "Friday", "place": "Chez Bo", "played_at": "2026-12-04"},
    )
    assert saved.status_code == 302
    page = parse(client.get(f"/matches/{match_id}")).text()
    assert "Chez Bo" in page and "Friday" in page and "2026-12-04" in page
    too_long = client.post(
        f"/matches/{match_id}/details", data={"note": "x" * 501, "place": "Y", "played_at": ""}
    )
    assert too_long.status_code == 422
    assert "at most 500 characters" in parse(too_long).text()
    assert api_match(client, match_id)["note"] == "Friday"
    noted = client.post(f"/matches/{match_id}/rounds/1/note", data={"note": "dealt twice"})
    assert noted.status_code == 302
    assert api_match(client, match_id)["rounds"][0]["note"] == "dealt twice"
    bad = client.post(f"/matches/{match_id}/rounds/1/note", data={"note": "y" * 201})
    assert bad.status_code == 422
    box = parse(bad).find("input", name="note")
    assert box.attrs["value"] == "y" * 201 and box.attrs["aria-invalid"] == "true"


def test_a_note_moves_the_matchs_version_for_its_watchers(client: FlaskClient):
    match_id = rami(client, HAND)
    before = snapshot(client, match_id)
    tag = client.get(f"/api/matches/{match_id}").headers["ETag"]
    client.put(f"{rounds_url(match_id, 1)}/note", json={"note": "late"})
    assert client.get(f"/api/matches/{match_id}", headers={"If-None-Match": tag}).status_code == 200
    assert snapshot(client, match_id) != before


HIDDEN = ["\x00", "\x07", "\x1b", "\x0b", "\u202e"]
"""NUL, BEL, ESC, VT and the right-to-left override: no name holds them, nor a note or place."""


@pytest.mark.parametrize("hidden", HIDDEN)
def test_a_note_or_place_holding_a_control_character_is_refused(client: FlaskClient, hidden):
    match_id = rami(client, HAND)
    typed = f"Cup{hidden}final"
    with unchanged(client, match_id):
        for field in ("note", "place"):
            body = refused(
                client.patch(f"/api/matches/{match_id}", json={field: typed}), 422, field
            )
            assert "control or invisible formatting" in body["error"]
        refused(client.put(f"{rounds_url(match_id, 1)}/note", json={"note": typed}), 422, "note")
        page = client.post(
            f"/matches/{match_id}/details", data={"note": "", "place": typed, "played_at": ""}
        )
        assert page.status_code == 422
        assert "control or invisible formatting" in parse(page).text()
        noted = client.post(f"/matches/{match_id}/rounds/1/note", data={"note": typed})
        assert noted.status_code == 422
        assert parse(noted).find("input", name="note").attrs["aria-invalid"] == "true"


def test_a_note_keeps_joiners_between_letters(client: FlaskClient):
    match_id = rami(client, HAND)
    persian, family = "می\u200cخواهم", "👨\u200d👩\u200d👧"
    answer = client.patch(f"/api/matches/{match_id}", json={"note": f"{persian} {family}"})
    assert answer.status_code == 200 and answer.json["note"] == f"{persian} {family}"
    refused(client.patch(f"/api/matches/{match_id}", json={"place": "\u200cBar"}), 422, "place")


@pytest.mark.parametrize("hidden", HIDDEN)
def test_an_import_refuses_a_note_holding_a_control_character(
    client: FlaskClient, tmp_path, hidden
):
    match_id = rami(client, HAND)
    client.patch(f"/api/matches/{match_id}", json={"note": "Final"})
    client.put(f"{rounds_url(match_id, 1)}/note", json={"note": "late"})
    document = client.get(f"/api/matches/{match_id}/export?format=json").json
    other = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "o.sqlite"), "SECRET_KEY": "t"}
    ).test_client()
    document = unchained(document)
    details = next(i for i, entry in enumerate(document["log"]) if entry["action"] == "details")
    spoofed = copy.deepcopy(document)
    spoofed["log"][details]["input"]["note"] = spoofed["note"] = f"Fi{hidden}nal"
    refused(other.post("/api/import", json=[spoofed]), 422, f"0.log.{details}.note", "control")
    noted = next(i for i, entry in enumerate(document["log"]) if entry["action"] == "note")
    spoofed = copy.deepcopy(document)
    spoofed["log"][noted]["input"]["note"] = spoofed["round_records"][0]["note"] = f"la{hidden}te"
    refused(other.post("/api/import", json=[spoofed]), 422, f"0.log.{noted}.input.note", "control")
    assert other.get("/api/matches").json["total"] == 0


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00"])
def test_a_moment_beyond_the_calendar_in_utc_is_refused(client: FlaskClient, moment: str):
    match_id = rami(client, HAND)
    with unchanged(client, match_id):
        body = refused(
            client.patch(f"/api/matches/{match_id}", json={"played_at": moment}), 422, "played_at"
        )
        assert "outside the calendar" in body["error"]
        page = client.post(
            f"/matches/{match_id}/details", data={"note": "", "place": "", "played_at": moment}
        )
        assert page.status_code == 422 and "outside the calendar" in parse(page).text()


def test_the_first_and_last_days_of_the_calendar_are_kept_whole(client: FlaskClient, tmp_path):
    match_id = rami(client, HAND)
    first = client.patch(
        f"/api/matches/{match_id}", json={"played_at": "0001-01-01T10:00:00+09:00"}
    )
    assert first.json["played_at"] == "0001-01-01T01:00:00Z"
    last = client.patch(f"/api/matches/{match_id}", json={"played_at": "9999-12-31T23:59:59Z"})
    assert last.json["played_at"] == "9999-12-31T23:59:59Z"
    client.patch(f"/api/matches/{match_id}", json={"played_at": "0999-06-01"})
    document = client.get(f"/api/matches/{match_id}/export?format=json").json
    assert document["played_at"] == "0999-06-01T00:00:00Z"
    other = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "o.sqlite"), "SECRET_KEY": "t"}
    ).test_client()
    imported = other.post("/api/import", json=[document])
    assert imported.status_code == 200, imported.json
    [there] = imported.json["scorer_tokens"]
    assert api_match(other, int(there))["played_at"] == "0999-06-01T00:00:00Z"
