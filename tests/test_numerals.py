"""Each page writes its numbers as its language does: Persian ۱۲, Arabic ١٢, each with its own
minus sign (CLDR), in the text a phone reads and nowhere else."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.html_reader import parse
from web.numerals import numerals

PERSIAN = ["آنا", "بهرام", "سارا", "داریوش"]
ARABIC = ["آنا", "باسل", "سلمى", "دانة"]


def test_each_language_has_its_numerals_from_cldr():
    persian, arabic, french = numerals("fa"), numerals("ar"), numerals("fr")
    assert (persian.system, arabic.system, french.system) == ("arabext", "arab", "latn")
    assert persian.write("−12 و -3، 2026-12-03") == "\u200e−۱۲ و \u200e−۳، ۲۰۲۶-۱۲-۰۳"
    assert arabic.write("−12 و 80-160 +5") == "\u061c-١٢ و ٨٠-١٦٠ \u061c+٥"
    assert french.write("−12") == "−12"
    # A middle dot beside a zero that is a dot reads as another zero: the comma sets items apart.
    assert (
        persian.write("آنا 0 · بهرام 35; سارا 7, داریوش 2") == "آنا ۰، بهرام ۳۵؛ سارا ۷، داریوش ۲"
    )
    assert french.write("Ana 0 · Bo 35") == "Ana 0 · Bo 35"


def start_barbu(client: FlaskClient, players: list[str], language: str) -> dict[str, Any]:
    """Start a Barbu match and play a hand of no tricks: every total below zero."""
    started = client.post("/api/matches", json={"game": "barbu", "players": players}).json
    taken = dict(zip(players, (3, 4, 0, 6), strict=True))
    posted = client.post(
        f"/api/matches/{started['id']}/rounds",
        json={"contract": "no_tricks", "taken": taken, "doubles": []},
        headers={"Authorization": f"Bearer {started['scorer_token']}"},
    )
    assert posted.status_code == 201, posted.json
    client.post("/language", data={"language": language, "next": "/"})
    return started


@pytest.mark.parametrize(
    ("language", "players", "six", "minus"),
    [("fa", PERSIAN, "۶", "\u200e−"), ("ar", ARABIC, "٦", "\u061c-")],
)
def test_a_right_to_left_page_writes_scores_in_its_own_digits(
    client: FlaskClient, language: str, players: list[str], six: str, minus: str
):
    match = start_barbu(client, players, language)
    answer = client.get(f"/matches/{match['id']}")
    page = answer.get_data(as_text=True)
    html = parse(answer)
    assert html.find("html").attrs["data-numerals"] == numerals(language).system
    totals = [total.text() for total in html.find_all("b", "bar-total")]
    assert f"{minus}{six}" in " ".join(totals), totals
    # Not one Latin digit is left in what the phone reads, but its links and forms keep them.
    assert not any(ch.isascii() and ch.isdigit() for ch in " ".join(totals))
    assert f'href="/matches/{match["id"]}/rules"' in page
    assert html.find("input", name="next").attrs["value"] == f"/matches/{match['id']}"
    live_link = html.find("a", translate="no")
    assert live_link.text() == f"http://localhost/matches/{match['id']}/live"
    # The API is data: Latin digits, whatever the phone reads.
    assert client.get(f"/api/matches/{match['id']}").json["totals"][players[3]] == -12


def test_a_name_with_an_apostrophe_keeps_its_entity(client: FlaskClient):
    players = ["O'Neil", "بهرام", "سارا", "داریوش"]
    match = start_barbu(client, players, "fa")
    page = client.get(f"/matches/{match['id']}").get_data(as_text=True)
    assert "O&#39;Neil" in page
    assert "&#۳۹;" not in page


def test_an_english_page_keeps_latin_digits(client: FlaskClient):
    match = start_barbu(client, ["Ana", "Bo", "Cy", "Di"], "en")
    html = parse(client.get(f"/matches/{match['id']}"))
    assert html.find("html").attrs["data-numerals"] == "latn"
    totals = " ".join(total.text() for total in html.find_all("b", "bar-total"))
    assert "−12" in totals


def test_a_code_to_type_keeps_its_latin_digits_on_a_persian_page(client: FlaskClient):
    match = start_barbu(client, PERSIAN, "fa")
    with client.session_transaction() as session:
        session["scorer_tokens"] = {str(match["id"]): match["scorer_token"]}
    page = parse(client.post(f"/matches/{match['id']}/handoff"))
    code = page.find("strong", "code").text()
    assert code.isascii() and len(code) == 8, code
    assert page.find("a", translate="no").text().isascii()
