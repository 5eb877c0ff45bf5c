"""Unusual rounds through the Flask test client: the phone's own Record asks once, nothing
recorded yet, and records when the table is sure; the outbox's resend and the JSON API are
never asked (docs/UNUSUAL_ROUNDS.md). The phone's journey is in test_browser_unusual.py."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api_helpers import api_match, rounds_url, send, start_match, unchanged
from tests.html_reader import Node, alerts, parse, values

TRIO = ["Ana", "Bo", "Cy"]
NAVIGATE = {"Sec-Fetch-Mode": "navigate"}
"""What a browser sends with a form it posts itself: the phone's own Record."""
EVERY_HAND = "Every hand left is worth over 100?"


def start_rami(client: FlaskClient) -> int:
    """Start a Rami match for Ana, Bo and Cy; return its id."""
    return start_match(client, {"game": "rami", "players": TRIO, "options": {}})["id"]


def rami_form(bo: str, cy: str) -> dict[str, str]:
    """Ana goes out; Bo and Cy had melded and hold hands of these values."""
    return {
        "outcome": "out",
        "winner": "Ana",
        "hands-1-points": bo,
        "hands-1-melded": "y",
        "hands-2-points": cy,
        "hands-2-melded": "y",
        "record": "1",
    }


def record(client: FlaskClient, match_id: int, data: dict[str, str], **headers: str) -> Any:
    """Post the round form of the match page."""
    return client.post(f"/matches/{match_id}/rounds", data=data, headers=headers)


def asking(doc: Node) -> Node | None:
    """Return the block that asks before Record, inside the round form, if the page has one."""
    form = doc.find("form", "round-form")
    return form.find("div", "oddities") if form else None


def played(client: FlaskClient, match_id: int) -> int:
    """Count the rounds the match holds."""
    return len(api_match(client, match_id)["rounds"])


def test_the_phone_asks_before_an_unusual_round_and_records_nothing(client: FlaskClient):
    match_id = start_rami(client)
    with unchanged(client, match_id):
        response = record(client, match_id, rami_form("110", "120"), **NAVIGATE)
    assert response.status_code == 200
    doc = parse(response)
    block = asking(doc)
    assert block is not None
    assert block.attrs["role"] == "alert"
    assert EVERY_HAND in alerts(doc)[0]
    assert block.find("input", type="hidden", name="sure").attrs["value"] == "1"
    yes = block.find("button", type="submit")
    assert (yes.text(), yes.attrs["name"], yes.attrs["class"]) == (
        "Yes, record it",
        "record",
        "primary",
    )
    # Every value typed is kept, still editable, to fix a slip instead.
    shown = values(doc)
    assert (shown["winner"], shown["hands-1-points"], shown["hands-2-points"]) == (
        "Ana",
        "110",
        "120",
    )
    assert (shown["hands-1-melded"], shown["hands-2-melded"]) == ("y", "y")


def test_the_answer_records_the_round_once(client: FlaskClient) -> None:
    match_id = start_rami(client)
    doc = parse(record(client, match_id, rami_form("110", "120"), **NAVIGATE))
    # The page's form, sent as it stands: sure, with the key the page gave it.
    form = doc.find("form", "round-form")
    key = form.find("input", name="idempotency_key").attrs["value"]
    again = {name: value for name, value in values(doc).items() if value is not None}
    again |= {"idempotency_key": key, "expected": "1", "record": "1"}
    assert again["sure"] == "1"
    first = record(client, match_id, again, **NAVIGATE)
    assert first.status_code == 302
    # A second tap on the answer (the same key) records nothing more.
    assert record(client, match_id, again, **NAVIGATE).status_code == 302
    match = api_match(client, match_id)
    assert len(match["rounds"]) == 1
    assert match["rounds"][0]["scores"] == {"Ana": 0, "Bo": 110, "Cy": 120}


def test_sure_records_at_once(client: FlaskClient) -> None:
    match_id = start_rami(client)
    response = record(client, match_id, rami_form("110", "120") | {"sure": "1"}, **NAVIGATE)
    assert response.status_code == 302
    assert played(client, match_id) == 1


def test_an_ordinary_round_records_at_once(client: FlaskClient) -> None:
    match_id = start_rami(client)
    response = record(client, match_id, rami_form("36", "18"), **NAVIGATE)
    assert response.status_code == 302
    assert played(client, match_id) == 1
    assert asking(parse(client.get(response.headers["Location"]))) is None


def test_the_outbox_resend_is_never_asked(client: FlaskClient) -> None:
    """A round kept offline is sent again by a script (fetched, not navigated): asking would
    leave it waiting as refused, so it records as before."""
    match_id = start_rami(client)
    for n, headers in enumerate(({"Sec-Fetch-Mode": "cors"}, {}), start=1):
        response = record(
            client, match_id, rami_form("110", "120") | {"expected": str(n)}, **headers
        )
        assert response.status_code == 302
        assert played(client, match_id) == n


def test_a_refused_round_is_refused_as_before_not_asked(client: FlaskClient) -> None:
    match_id = start_rami(client)
    posted = rami_form("110", "120") | {"hands-2-melded": ""}
    with unchanged(client, match_id):
        response = record(client, match_id, posted, **NAVIGATE)
    assert response.status_code == 303
    assert asking(parse(client.get(response.headers["Location"]))) is None


def test_a_form_left_open_for_an_earlier_round_is_not_asked(client: FlaskClient) -> None:
    """Sent after the match moved on, the round is refused as before: asking about it first
    would only lead to that refusal."""
    match_id = start_rami(client)
    assert record(client, match_id, rami_form("36", "18"), **NAVIGATE).status_code == 302
    posted = rami_form("110", "120") | {"expected": "1"}
    with unchanged(client, match_id):
        response = record(client, match_id, posted, **NAVIGATE)
    assert response.status_code == 303
    assert asking(parse(client.get(response.headers["Location"]))) is None


def test_belote_asks_about_a_capot_against_the_takers(client: FlaskClient) -> None:
    teams = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
    match_id = start_match(client, {"game": "belote", "teams": teams, "options": {}})["id"]
    posted = {
        "taker": "Ana",
        "trump": "hearts",
        "teams-0-points": "",
        "teams-1-points": "",
        "capot": "Eux",
        "record": "1",
    }
    with unchanged(client, match_id):
        response = record(client, match_id, posted, **NAVIGATE)
    assert response.status_code == 200
    question = "Capot by Eux, with 0 card points for the takers, Nous?"
    assert question in asking(parse(response)).text()
    assert record(client, match_id, posted | {"sure": "1"}, **NAVIGATE).status_code == 302
    assert api_match(client, match_id)["rounds"][0]["scores"] == {"Nous": 0, "Eux": 252}


def test_the_api_records_without_asking_and_says_what_is_unusual(client: FlaskClient) -> None:
    match_id = start_rami(client)
    odd = {
        "outcome": "out",
        "winner": "Ana",
        "hands": {"Bo": {"points": 110, "melded": True}, "Cy": {"points": 120, "melded": True}},
    }
    response = send(client, "POST", rounds_url(match_id), odd)
    assert response.status_code == 201
    assert response.json["unusual"] == [EVERY_HAND]
    assert set(response.json) == {"round", "match", "unusual"}
    plain = odd | {
        "hands": {"Bo": {"points": 36, "melded": True}, "Cy": {"points": 18, "melded": True}}
    }
    answered = send(client, "POST", rounds_url(match_id), plain)
    assert answered.status_code == 201
    assert answered.json["unusual"] == []
    assert played(client, match_id) == 2


def test_the_rules_page_lists_the_rounds_that_ask(client: FlaskClient) -> None:
    match_id = start_rami(client)
    page = parse(client.get(f"/matches/{match_id}/rules"))
    section = page.find("section", "oddity-list")
    assert section is not None
    listed = [item.text() for item in section.find_all("li")]
    assert listed == [
        "Every hand left worth over 100, two hands or more.",
        "One player scoring over 150 for a hand.",
        "A blocked round where every hand is worth the same: nobody scores.",
    ]
