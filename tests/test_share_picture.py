"""The result picture to share: a finished match's sheet and an event's standings, as SVG with
the players' names and as a real PNG, 360 points wide, drawn right to left in Persian."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree

import pytest
from api_helpers import draw_round, finish_round, play, start_event, start_match
from flask.testing import FlaskClient
from html_reader import parse
from PIL import Image

from scorebook import matches, storage
from web.numerals import numerals

SVG = "{http://www.w3.org/2000/svg}"
BELOTE = {
    "game": "belote",
    "options": {"target": 200},
    "teams": {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]},
}
DEAL = {"taker": "Ana", "trump": "hearts", "points": {"Nous": 100}, "last_trick": "Nous"}


def finished_belote(client: FlaskClient) -> int:
    match = start_match(client, BELOTE)
    played = play(client, match["id"], DEAL, DEAL)
    assert played["status"] == "finished"
    client.patch(f"/api/matches/{match['id']}", json={"place": "Café du Port"})
    return match["id"]


def texts(svg: bytes) -> list[ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.attrib["width"] == "360"
    return root.findall(f".//{SVG}text")


def test_a_finished_match_is_an_svg_with_its_players_date_and_place(client: FlaskClient):
    match_id = finished_belote(client)
    response = client.get(f"/matches/{match_id}/picture.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    said = [t.text for t in texts(response.data)]
    assert "Nous wins with 220!" in said
    assert {"Nous", "Eux", "Ana, Cy", "Bo, Di", "220", "104"} <= set(said)
    assert any("Café du Port" in text for text in said)
    assert said.count("+110") == 2


def test_the_picture_shows_each_deals_result_and_the_running_totals_as_the_sheet_does(
    client: FlaskClient,
):
    match_id = finished_belote(client)
    said = [t.text for t in texts(client.get(f"/matches/{match_id}/picture.svg").data)]
    assert said.count("made") == 2
    # Under deal 1, the totals after it; under deal 2 (and at the foot), the final ones.
    assert said.count("110") == 1 and said.count("52") == 1
    assert said.count("220") == 2 and said.count("104") == 2


def test_the_png_is_a_real_image_twice_as_wide(client: FlaskClient):
    match_id = finished_belote(client)
    response = client.get(f"/matches/{match_id}/picture.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    image.verify()
    image = Image.open(io.BytesIO(response.data))
    assert image.format == "PNG" and image.width == 720 and image.height > 300
    # Ink on paper: the picture is drawn, not blank.
    assert len(image.convert("L").getcolors(256) or []) > 10


def test_persian_draws_the_picture_right_to_left(client: FlaskClient):
    match_id = finished_belote(client)
    english = texts(client.get(f"/matches/{match_id}/picture.svg").data)
    with client.session_transaction() as session:
        session["language"] = "fa"
    response = client.get(f"/matches/{match_id}/picture.svg")
    root = ElementTree.fromstring(response.data)
    assert root.attrib["direction"] == "rtl"
    persian = root.findall(f".//{SVG}text")
    # The title starts at the right edge, mirrored from the left.
    assert float(english[0].attrib["x"]) == 16 and float(persian[0].attrib["x"]) == 344
    # Signed numbers stay +110, isolated left to right.
    assert "\u2066\u200e+۱۱۰\u2069" in [t.text for t in persian]
    png = Image.open(io.BytesIO(client.get(f"/matches/{match_id}/picture.png").data))
    assert png.width == 720


def test_a_match_still_playing_has_no_picture_yet(client: FlaskClient):
    match = start_match(client, BELOTE)
    response = client.get(f"/matches/{match['id']}/picture.svg")
    assert response.status_code == 409 and "not over yet" in parse(response).text()
    assert client.get("/matches/999/picture.png").status_code == 404


def test_the_gaigel_slate_is_chalked(client: FlaskClient):
    match = start_match(
        client,
        {
            "game": "gaigel",
            "options": {"strokes": 3},
            "teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]},
        },
    )
    for winner in ("Unten", "Oben", "Oben", "Unten", "Oben", "Oben"):
        answer = client.post(
            f"/api/matches/{match['id']}/rounds", json={"winner": winner, "outcome": "aus"}
        )
        if answer.json["match"]["status"] == "finished":
            break
    said = [t.text for t in texts(client.get(f"/matches/{match['id']}/picture.svg").data)]
    assert any("stroke" in text for text in said) and any("played" in text for text in said)


def test_the_finished_match_page_offers_to_share_its_picture(client: FlaskClient):
    match_id = finished_belote(client)
    share = parse(client.get(f"/matches/{match_id}")).find(
        "a", cls="button", href=f"/matches/{match_id}/picture.png"
    )
    assert share is not None and "data-share-picture" in share.attrs
    assert share.attrs["download"] == f"tablescore-match-{match_id}.png"


@pytest.mark.parametrize("kind", ["svg", "png"])
def test_an_events_standings_are_a_picture_too(client: FlaskClient, kind: str):
    event, organiser = start_event(client, rounds=1)
    finish_round(client, draw_round(client, event["id"], organiser), organiser)
    response = client.get(f"/events/{event['id']}/standings.{kind}")
    assert response.status_code == 200
    if kind == "svg":
        said = [t.text for t in texts(response.data)]
        assert "Concours du samedi" in said and "Les As" in said
    else:
        assert Image.open(io.BytesIO(response.data)).width == 720


WRITTEN = [
    ("Tom & Jerry <3", 'Chez "Bo" & l\'Ami > tout'),
    ("بازی خوب بود، فردا دوباره", "کافه‌ی پارس"),
    ("مباراة رائعة 🎉", "مقهى النجمة"),
    ("👨\u200d👩\u200d👧 en famille 🃏", "Café 😀"),
]
"""Notes and places as tables write them: markup signs, Persian and Arabic, emoji."""


@pytest.mark.parametrize(("note", "place"), WRITTEN)
def test_every_note_and_place_gives_a_well_formed_svg(client: FlaskClient, note, place):
    match_id = finished_belote(client)
    answer = client.patch(f"/api/matches/{match_id}", json={"note": note, "place": place})
    assert answer.status_code == 200, answer.json
    for language in ("en", "fa"):
        with client.session_transaction() as session:
            session["language"] = language
        said = [t.text for t in texts(client.get(f"/matches/{match_id}/picture.svg").data)]
        # In Persian, the digits of a note are Persian too, as on the page.
        written = numerals(language).write
        assert written(note) in said
        assert any(text.endswith(written(f" · {place}")) for text in said)
    assert Image.open(io.BytesIO(client.get(f"/matches/{match_id}/picture.png").data)).width == 720


@pytest.mark.sqlite_only
def test_control_characters_an_older_database_holds_are_left_out_of_the_picture(
    client: FlaskClient, app
):
    match_id = finished_belote(client)
    event, organiser = start_event(client, rounds=1)
    finish_round(client, draw_round(client, event["id"], organiser), organiser)
    db = storage.connect(app.config["DATABASE"])
    with storage.writing(db):
        db.execute(
            "update matches set note = ?, place = ? where id = ?",
            ["Cup\x00 fi\x1bnal\u202e", "\x07Bar\x0b", match_id],
        )
        db.execute(
            "update events set name = ?, place = ? where id = ?",
            ["Con\x00cours", "Ca\x1bfé", event["id"]],
        )
    db.close()
    # As a server started over that file reads it.
    matches.REPLAYED.kept.clear()
    said = [t.text for t in texts(client.get(f"/matches/{match_id}/picture.svg").data)]
    assert "Cup final" in said and any(text.endswith(" · Bar") for text in said)
    standings = [t.text for t in texts(client.get(f"/events/{event['id']}/standings.svg").data)]
    assert "Concours" in standings and any("Café" in text for text in standings)
    assert client.get(f"/matches/{match_id}/picture.png").status_code == 200
