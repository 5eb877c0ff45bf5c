"""The pages of events, as a browser sends them: create, draw, hand a table to a phone,
withdraw, join late, close, and the standings for the big screen."""

from __future__ import annotations

from urllib.parse import urlsplit

from api_helpers import api_match, draw_round, finish_round, start_event
from flask.testing import FlaskClient
from html_reader import parse

FORM = {
    "name": "Concours",
    "played_on": "2026-12-05",
    "place": "Café du Port",
    "rounds": "3",
    "deals": "12",
    "entrants": "Les As: Ana, Bo\nLes Rois: Cy, Di\n\nPique: Ed, Flo\nCoeur: Gus, Hana\n",
    "option_variant": "coinche",
    "option_rules": "maison",
    "option_litige": "reserve",
}


def created(client: FlaskClient, form: dict[str, str] | None = None) -> int:
    """Create an event through its form; return its id, the page having opened it."""
    response = client.post("/events/new/belote", data=form or FORM)
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(urlsplit(response.headers["Location"]).path.rsplit("/", 1)[1])


def text(response) -> str:
    return parse(response).text()


def test_the_events_page_offers_each_game_and_lists_events(client: FlaskClient):
    page = text(client.get("/events"))
    assert "No event yet" in page and "Coinche" in page
    event_id = created(client)
    listed = client.get("/events").get_data(as_text=True)
    assert "Concours" in listed and f"/events/{event_id}" in listed


def test_the_form_creates_the_event_and_this_phone_runs_it(client: FlaskClient):
    form = client.get("/events/new/belote?variant=coinche")
    assert form.status_code == 200
    page = parse(form)
    assert page.find("textarea", name="entrants") is not None
    assert "checked" in page.find("input", name="option_variant", value="coinche").attrs
    event_id = created(client)
    event = client.get(f"/api/events/{event_id}").json
    assert [e["name"] for e in event["entrants"]] == ["Les As", "Les Rois", "Pique", "Coeur"]
    assert (event["deals"], event["place"], event["options"]["variant"]) == (
        12,
        "Café du Port",
        "coinche",
    )
    shown = text(client.get(f"/events/{event_id}"))
    assert "Draw round 1" in shown and "Withdraw" in shown


def test_a_refused_form_comes_back_with_what_was_typed(client: FlaskClient):
    bad = FORM | {"entrants": "Les As: Ana, Bo\nLes Rois Cy Di"}
    response = client.post("/events/new/belote", data=bad)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Les Rois Cy Di" in page and "Team name: player, player" in page
    twice = FORM | {"entrants": "Les As: Ana, Bo\nLes Rois: Ana, Di"}
    response = client.post("/events/new/belote", data=twice)
    assert response.status_code == 422 and "Ana is entered twice" in text(response)
    assert client.get("/api/events").json["events"] == []


def test_another_phone_sees_the_event_but_cannot_run_it(client: FlaskClient, stranger):
    event_id = created(client)
    page = text(stranger.get(f"/events/{event_id}"))
    assert "Draw round 1" not in page and "Withdraw" not in page
    refused = stranger.post(f"/events/{event_id}/draw")
    assert refused.status_code == 403 and "organiser" in text(refused)
    assert client.get(f"/api/events/{event_id}").json["round"] == 0


def test_drawing_from_the_page_opens_each_table_to_the_organisers_phone(client: FlaskClient):
    event_id = created(client)
    drawn = client.post(f"/events/{event_id}/draw")
    assert drawn.status_code == 302
    page = text(client.get(f"/events/{event_id}"))
    assert "Round 1 is drawn" in page and "Table 1" in page and "Table 2" in page
    assert "Hand to a phone" in page and "being played at 2 tables" in page
    assert "Draw round 2" not in page
    event = client.get(f"/api/events/{event_id}").json
    table = event["tables"][0]["tables"][0]["match"]
    # The organiser's phone scores every table of the event: its match page and hand-off.
    assert "Record deal 1" in text(client.get(f"/matches/{table}"))
    handoff = client.post(f"/matches/{table}/handoff")
    assert handoff.status_code == 200 and "/join/" in handoff.get_data(as_text=True)
    early = client.post(f"/events/{event_id}/draw")
    assert early.status_code == 409 and "still being played" in text(early)


def test_withdraw_and_late_entrant_from_the_page(client: FlaskClient):
    event_id = created(client)
    assert client.post(f"/events/{event_id}/withdraw", data={"name": "Pique"}).status_code == 302
    late = {"name": "Trefle", "players": "Ivo، Jo"}
    assert client.post(f"/events/{event_id}/entrants", data=late).status_code == 302
    page = text(client.get(f"/events/{event_id}"))
    assert "withdrawn before round 1" in page and "Trefle (Ivo, Jo)" in page
    again = client.post(f"/events/{event_id}/entrants", data=late)
    assert again.status_code == 422 and "Trefle is entered already" in text(again)


def test_the_standings_page_follows_the_tables(client: FlaskClient):
    event, organiser = start_event(client, rounds=1)
    page = client.get(f"/events/{event['id']}/standings")
    sheet = parse(page).find(id="live-sheet")
    since = sheet.attrs["data-version"]
    url = sheet.attrs["data-live-url"]
    assert url == f"/events/{event['id']}/standings/sheet"
    assert client.get(url, query_string={"since": since}).status_code == 204
    drawn = draw_round(client, event["id"], organiser)
    moved = client.get(url, query_string={"since": since})
    assert moved.status_code == 200 and "2 tables playing" in text(moved)
    since = parse(moved).find(id="live-sheet").attrs["data-version"]
    finish_round(client, drawn, organiser)
    done = client.get(url, query_string={"since": since})
    assert done.status_code == 200
    winners = [api_match(client, t["match"])["winner"] for t in drawn["tables"]]
    rows = parse(done).find_all("tr")[1:]
    assert {row.find("th").text().strip() for row in rows[:2]} == set(winners)
    assert "Points summed over the rounds first" in text(done)


def test_the_tables_page_lists_who_sits_where_for_the_wall(client: FlaskClient):
    event, organiser = start_event(client, rounds=1)
    drawn = draw_round(client, event["id"], organiser)
    page = text(client.get(f"/events/{event['id']}/tables"))
    for table in drawn["tables"]:
        assert all(side in page for side in table["seats"])
    assert client.get(f"/events/{event['id']}/tables?round=x").status_code == 200


def test_an_events_matches_show_in_history_and_on_players_pages(client: FlaskClient):
    event, organiser = start_event(client, rounds=1)
    draw_round(client, event["id"], organiser)
    assert "Event · round 1 · table 1" in text(client.get("/history"))
    player = text(client.get("/players/Ana"))
    assert "Concours du samedi" in player


def test_closing_from_the_page_makes_the_standings_final(client: FlaskClient):
    event, organiser = start_event(client, rounds=1)
    with client.session_transaction() as session:
        session["event_tokens"] = {str(event["id"]): event["scorer_token"]}
    finish_round(client, draw_round(client, event["id"], organiser), organiser)
    assert client.post(f"/events/{event['id']}/close").status_code == 302
    page = text(client.get(f"/events/{event['id']}"))
    assert "The event is closed" in page and "Finished" in page
    assert "Close the event" not in page and "Withdraw" not in page


def test_the_event_page_shows_the_latest_round_and_links_the_earlier_ones(client: FlaskClient):
    event, organiser = start_event(client)
    first = draw_round(client, event["id"], organiser)
    finish_round(client, first, organiser)
    second = draw_round(client, event["id"], organiser)
    page = parse(client.get(f"/events/{event['id']}"))
    assert page.find("h2").text().strip() == "Round 2"
    assert page.find("a", href=f"/events/{event['id']}?round=1") is not None
    earlier = parse(client.get(f"/events/{event['id']}?round=1"))
    assert earlier.find("h2").text().strip() == "Round 1"
    shown = [a.attrs["href"] for a in earlier.find_all("a") if "/matches/" in a.attrs["href"]]
    assert shown == [f"/matches/{t['match']}" for t in first["tables"]]
    assert second["round"] == 2
    # A round not drawn shows the latest.
    assert (
        parse(client.get(f"/events/{event['id']}?round=9")).find("h2").text().strip() == "Round 2"
    )


def test_a_tables_match_page_links_back_to_its_event(client: FlaskClient):
    event, organiser = start_event(client)
    table = draw_round(client, event["id"], organiser)["tables"][1]
    page = parse(client.get(f"/matches/{table['match']}"))
    link = page.find("a", href=f"/events/{event['id']}?round=1")
    assert link is not None and link.text().strip() == "Event · round 1 · table 2"
    assert "1 deal to go" in page.text()
