"""The scoring phone's match page: the score in view, every round recorded exactly once, undo,
remove asked twice, restore, and play again — through the Flask test client."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api_helpers import api_match, send
from tests.html_reader import Node, alerts, number, parse

ANA_OUT = {"outcome": "out", "winner": "Ana", "hands-1-points": "12", "hands-1-melded": "y"}
BO_OUT = {"outcome": "out", "winner": "Bo", "hands-0-points": "30", "hands-0-melded": "n"}


def duel(client: FlaskClient, target: int = 500) -> int:
    """Start a two-player Rami through the API; this client scores it."""
    body = {"game": "rami", "players": ["Ana", "Bo"], "options": {"target": target}}
    return send(client, "POST", "/api/matches", body).json["id"]


def page(client: FlaskClient, url: str) -> Node:
    """Open a page and read it."""
    response = client.get(url)
    assert response.status_code == 200
    return parse(response)


def hidden(doc: Node, name: str, form: Node | None = None) -> str:
    """Return the value of a hidden field the page wrote."""
    return (form or doc).find("input", name=name).attrs["value"]


def record(client: FlaskClient, match_id: int, form: dict[str, str]) -> Any:
    """Fill in the round form the match page shows now, and send it."""
    doc = page(client, f"/matches/{match_id}")
    keys = {name: hidden(doc, name) for name in ("idempotency_key", "expected")}
    return client.post(f"/matches/{match_id}/rounds", data=form | keys)


def bar(doc: Node) -> dict[str, Any]:
    """Read the score bar: its line, and per side the total, whether it leads, what is left."""
    section = doc.find("section", "score-bar")
    sides = {
        li.find("bdi", "bar-side").text(): (
            number(li.find("b", "bar-total")),
            "leads" in (li.attrs.get("class") or ""),
            li.find("small", "bar-to-go").text() if li.find("small", "bar-to-go") else None,
        )
        for li in section.find_all("li")
    }
    return {"line": section.find("p", "bar-round").text(), "sides": sides}


def test_the_score_bar_comes_before_the_form_with_the_totals_and_the_dealer(client):
    match_id = duel(client, target=100)
    fresh = page(client, f"/matches/{match_id}")
    assert bar(fresh) == {
        "line": "Round 1 · Ana deals",
        "sides": {"Ana": (0, False, "100 to go"), "Bo": (0, False, "100 to go")},
    }
    record(client, match_id, ANA_OUT)
    after = page(client, f"/matches/{match_id}")
    # Rami: the lowest leads; Bo holds 12; Bo deals the second round.
    assert bar(after) == {
        "line": "Round 2 · Bo deals",
        "sides": {"Ana": (0, True, "100 to go"), "Bo": (12, False, "88 to go")},
    }
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert html.index('class="score-bar"') < html.index("round-form") < html.index('class="sheet')


def test_match_pages_are_never_kept_by_the_browser(client):
    match_id = duel(client)
    for url in (f"/matches/{match_id}", f"/matches/{match_id}/sheet", "/matches/new/rami"):
        assert client.get(url).headers["Cache-Control"] == "no-store", url


def test_recording_redirects_to_the_match_page_with_an_undo_in_view(client):
    match_id = duel(client)
    answer = record(client, match_id, ANA_OUT)
    assert answer.status_code == 302
    [stored] = api_match(client, match_id)["rounds"]
    assert answer.headers["Location"] == f"/matches/{match_id}?recorded={stored['id']}"
    doc = page(client, answer.headers["Location"])
    notice = doc.find("form", "notice")
    assert notice.find("span").text() == "Round 1 recorded."
    assert notice.attrs["action"] == f"/matches/{match_id}/rounds/1/remove"
    assert hidden(doc, "round_id", notice) == str(stored["id"])
    assert notice.find("button").text() == "Undo"


def test_the_undo_goes_once_the_next_round_is_recorded(client):
    match_id = duel(client)
    first = record(client, match_id, ANA_OUT).headers["Location"]
    record(client, match_id, BO_OUT)
    assert page(client, first).find("form", "notice") is None


def test_the_match_opened_again_still_offers_to_undo_its_latest_round(client, stranger):
    """From the history or a bookmark, the scoring phone can still undo the latest round,
    until the next one; a watching phone never can."""
    match_id = duel(client)
    assert page(client, f"/matches/{match_id}").find("form", "notice") is None
    record(client, match_id, ANA_OUT)
    record(client, match_id, BO_OUT)
    second = api_match(client, match_id)["rounds"][1]
    notice = page(client, f"/matches/{match_id}").find("form", "notice")
    assert notice.find("span").text() == "Round 2 recorded."
    assert notice.attrs["action"] == f"/matches/{match_id}/rounds/2/remove"
    assert hidden(page(client, f"/matches/{match_id}"), "round_id", notice) == str(second["id"])
    assert page(stranger, f"/matches/{match_id}").find("form", "notice") is None


def test_undo_takes_the_round_back_into_the_form(client):
    match_id = duel(client)
    record(client, match_id, ANA_OUT)
    record(client, match_id, BO_OUT)
    second = api_match(client, match_id)["rounds"][1]
    undo = {"round_id": str(second["id"]), "version": "1", "undo": "1"}
    answer = client.post(f"/matches/{match_id}/rounds/2/remove", data=undo)
    assert answer.headers["Location"] == f"/matches/{match_id}?undone={second['id']}"
    assert len(api_match(client, match_id)["rounds"]) == 1
    doc = page(client, answer.headers["Location"])
    form = doc.find("form", "round-form")
    assert "checked" in form.find("input", name="winner", value="Bo").attrs
    assert form.find("input", name="hands-0-points").attrs["value"] == "30"
    assert hidden(doc, "expected", form) == "2"
    assert doc.find("form", "notice").attrs["action"] == (
        f"/matches/{match_id}/removed/{second['id']}/restore"
    )


def test_reload_and_back_never_record_a_round_twice(client):
    match_id = duel(client)
    doc = page(client, f"/matches/{match_id}")
    form = ANA_OUT | {name: hidden(doc, name) for name in ("idempotency_key", "expected")}
    assert client.post(f"/matches/{match_id}/rounds", data=form).status_code == 302
    # The same form sent again (a resent POST, a page the browser kept): the same round.
    assert client.post(f"/matches/{match_id}/rounds", data=form).status_code == 302
    assert len(api_match(client, match_id)["rounds"]) == 1


def test_a_kept_form_changed_and_sent_again_is_refused_with_the_values_kept(client):
    match_id = duel(client)
    doc = page(client, f"/matches/{match_id}")
    keys = {name: hidden(doc, name) for name in ("idempotency_key", "expected")}
    client.post(f"/matches/{match_id}/rounds", data=ANA_OUT | keys)
    again = client.post(f"/matches/{match_id}/rounds", data=BO_OUT | keys)
    assert again.status_code == 409
    shown = parse(again)
    assert "already used for another change" in alerts(shown)[0]
    assert shown.find("input", name="hands-0-points").attrs["value"] == "30"
    assert len(api_match(client, match_id)["rounds"]) == 1


def test_a_form_left_open_while_the_match_moved_on_records_nothing(client):
    match_id = duel(client)
    stale = page(client, f"/matches/{match_id}")
    record(client, match_id, ANA_OUT)
    # Another tab (or phone) had the form for round 1 open; it sends it with its own key.
    form = BO_OUT | {"idempotency_key": "other-tab", "expected": hidden(stale, "expected")}
    answer = client.post(f"/matches/{match_id}/rounds", data=form)
    assert answer.status_code == 409
    shown = parse(answer)
    assert "This form was for round 1, but the match is at round 2 now" in alerts(shown)[0]
    # Sent again from the page it came back on, it records round 2.
    assert hidden(shown, "expected") == "2"
    assert len(api_match(client, match_id)["rounds"]) == 1


def test_remove_asks_once_before_removing(client):
    match_id = duel(client)
    record(client, match_id, ANA_OUT)
    stored = api_match(client, match_id)["rounds"][0]
    edit = page(client, f"/matches/{match_id}/rounds/1/edit")
    remove = edit.find("form", "remove")
    asked = client.post(
        remove.attrs["action"],
        data={"round_id": hidden(edit, "round_id", remove), "version": "1"},
    )
    assert asked.status_code == 200
    question = parse(asked)
    assert question.find("h1").text().startswith("Remove round 1?")
    assert len(api_match(client, match_id)["rounds"]) == 1
    confirm = question.find("form", "remove")
    answer = client.post(
        confirm.attrs["action"],
        data={"round_id": str(stored["id"]), "version": "1", "confirmed": "1"},
    )
    assert answer.status_code == 302
    assert api_match(client, match_id)["rounds"] == []


def test_a_second_tap_on_remove_removes_nothing_more(client):
    match_id = duel(client)
    record(client, match_id, ANA_OUT)
    record(client, match_id, BO_OUT)
    first = api_match(client, match_id)["rounds"][0]
    confirmed = {"round_id": str(first["id"]), "version": "1", "confirmed": "1"}
    client.post(f"/matches/{match_id}/rounds/1/remove", data=confirmed)
    again = client.post(f"/matches/{match_id}/rounds/1/remove", data=confirmed)
    assert again.status_code == 302
    assert [r["input"]["winner"] for r in api_match(client, match_id)["rounds"]] == ["Bo"]
    flashed = [p.text() for p in page(client, again.headers["Location"]).find_all("p", "flash")]
    assert flashed[-1] == "Round 1 was already removed."


def test_a_correction_of_a_version_corrected_since_is_refused(client):
    match_id = duel(client)
    record(client, match_id, ANA_OUT)
    edit = page(client, f"/matches/{match_id}/rounds/1/edit")
    form = edit.find("form", "round-form")
    seen = {name: hidden(edit, name, form) for name in ("round_id", "version")}
    assert client.post(f"/matches/{match_id}/rounds/1/edit", data=BO_OUT | seen).status_code == 302
    stale = client.post(f"/matches/{match_id}/rounds/1/edit", data=ANA_OUT | seen)
    assert stale.status_code == 412
    assert "changed since this phone read it" in stale.get_data(as_text=True)
    assert api_match(client, match_id)["rounds"][0]["input"]["winner"] == "Bo"


def test_a_removed_round_is_restored_from_the_sheet(client):
    match_id = duel(client)
    record(client, match_id, ANA_OUT)
    record(client, match_id, BO_OUT)
    first = api_match(client, match_id)["rounds"][0]
    client.post(
        f"/matches/{match_id}/rounds/1/remove",
        data={"round_id": str(first["id"]), "version": "1", "confirmed": "1"},
    )
    sheet = page(client, f"/matches/{match_id}/sheet")
    restore = sheet.find("form", "restore")
    assert restore.find("button").text() == "Restore round 1"
    answer = client.post(restore.attrs["action"])
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/matches/{match_id}#round-1"
    rounds = api_match(client, match_id)["rounds"]
    assert [r["id"] for r in rounds][0] == first["id"]
    # Ana never melded: 30 + 25.
    assert api_match(client, match_id)["totals"] == {"Ana": 55, "Bo": 12}
    assert page(client, f"/matches/{match_id}").find("p", "flash").text() == (
        "Round 1 restored; everything after it was scored again."
    )


def test_a_watching_phone_sees_the_bar_but_no_form_undo_or_restore(client, stranger):
    match_id = duel(client)
    answer = record(client, match_id, ANA_OUT)
    watched = parse(stranger.get(answer.headers["Location"]))
    assert watched.find("section", "score-bar") is not None
    assert watched.find("form", "round-form") is None
    assert watched.find("form", "notice") is None


def test_a_finished_match_offers_play_again(client):
    match_id = duel(client, target=100)
    record(client, match_id, {**ANA_OUT, "hands-1-points": "100"})
    doc = page(client, f"/matches/{match_id}")
    again = doc.find("form", "play-again")
    seatings = [button.attrs["value"] for button in again.find_all("button")]
    assert seatings == ["same", "rotate"]
    answer = client.post(again.attrs["action"], data={"seating": "rotate"})
    assert answer.status_code == 302
    new_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    rematch = api_match(client, new_id)
    assert rematch["players"] == ["Bo", "Ana"]
    assert rematch["rematch_of"] == match_id
    # This phone scores the new match, and the old one now points at it.
    assert page(client, f"/matches/{new_id}").find("form", "round-form") is not None
    link = page(client, f"/matches/{match_id}").find("form", "play-again").find("a")
    assert link.attrs["href"] == f"/matches/{new_id}"


def test_a_double_tap_on_start_the_match_starts_one(client):
    doc = page(client, "/matches/new/rami")
    form = {
        "players-0": "Ana",
        "players-1": "Bo",
        "idempotency_key": hidden(doc, "idempotency_key"),
    }
    first = client.post("/matches/new/rami", data=form)
    again = client.post("/matches/new/rami", data=form)
    assert first.headers["Location"] == again.headers["Location"]
    assert client.get("/api/matches").json["total"] == 1


def test_the_new_match_form_suggests_the_players_already_known(client):
    send(client, "POST", "/api/matches", {"game": "rami", "players": ["Ana", "Bo"]})
    send(client, "POST", "/api/matches", {"game": "rami", "players": ["Bo", "Cy"]})
    doc = page(client, "/matches/new/belote")
    known = doc.find("datalist", id="known-players")
    assert [option.attrs["value"] for option in known.find_all("option")] == ["Bo", "Ana", "Cy"]
    names = [node for node in doc.find_all("input") if node.attrs.get("list") == "known-players"]
    assert len(names) == 4


def test_the_first_dealer_is_whoever_sits_in_the_seat_chosen_empty_boxes_too(client):
    # Boxes 1, 3 and 4 filled: "Player 3" is the name in the third box, Bo.
    names = ["Ana", "", "Bo", "Cy", "", ""]
    form = {f"players-{seat}": name for seat, name in enumerate(names)}
    answer = client.post("/matches/new/rami", data=form | {"option_first_dealer": "Player 3"})
    match_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    match = api_match(client, match_id)
    assert match["players"] == ["Ana", "Bo", "Cy"]
    assert match["state"]["dealer"] == "Bo"


def test_names_refused_do_not_also_refuse_the_first_dealer(client):
    body = {"game": "rami", "players": ["Ana", "ana"], "options": {"first_dealer": "Ana"}}
    answer = send(client, "POST", "/api/matches", body)
    assert answer.status_code == 422
    assert list(answer.json["fields"]) == ["players.1"]


def test_home_offers_coinche_as_its_own_game_and_says_how_many_play(client):
    doc = page(client, "/")
    games = [a.text() for a in doc.find("ul", "games").find_all("a")]
    assert games[1:3] == ["Belote 4 players", "Coinche 4 players"]
    assert "Rami 2–6 players" in games
    coinche = doc.find("ul", "games").find_all("a")[2].attrs["href"]
    assert coinche == "/matches/new/belote?variant=coinche"
    chosen = page(client, coinche).find("input", name="option_variant", value="coinche")
    assert "checked" in chosen.attrs


def test_match_cards_name_the_variant_the_players_and_the_games_own_rounds(client):
    teams = {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]}
    body = {"game": "belote", "teams": teams, "options": {"variant": "coinche"}}
    match = send(client, "POST", "/api/matches", body).json
    deal = {
        "taker": "Ana",
        "trump": "hearts",
        "contract": 80,
        "coinche": "none",
        "points": {"Nous": 90},
        "last_trick": "Nous",
    }
    for _ in range(3):
        send(client, "POST", f"/api/matches/{match['id']}/rounds", deal)
    card = page(client, "/history").find("li", "match-card")
    assert card.find("span", "game").text() == "Coinche, to 2000"
    assert card.find("span", "players").text() == "Nous (Ana, Cy) 540 · Eux (Bo, Di) 186"
    assert card.find("span", "status").text() == "Playing · 3 deals"
    assert card.find("time").attrs["datetime"] == match["created_at"]
