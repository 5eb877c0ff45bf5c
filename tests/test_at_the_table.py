"""At the table: an installable app that copes offline, a live view for the other players, the
screen kept on, the patterns page, and the stylesheet's themes."""

from __future__ import annotations

import json
import re
import struct
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient

from tests.api_helpers import TABLES, send
from tests.html_reader import Node, parse, values
from web import runtime

STATIC = Path(__file__).parent.parent / "static"
CSS = (STATIC / "app.css").read_text()


def variables(block: str) -> dict[str, str]:
    """Read the custom properties a CSS block sets."""
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def theme(selector: str) -> dict[str, str]:
    """Read the colours app.css gives a theme: `:root, .theme-light`, `.theme-dark`, or the
    dark theme the phone's setting picks (`@media`)."""
    if selector == "@media":
        block = re.search(r"prefers-color-scheme: dark\) \{\s*:root \{([^}]*)\}", CSS)
    else:
        block = re.search(re.escape(selector) + r" \{([^}]*)\}", CSS)
    assert block is not None, f"no {selector} block in app.css"
    return variables(block.group(1))


LIGHT, DARK = theme(":root, .theme-light"), theme("@media")


def api_round(winner: str, **points: int) -> dict[str, Any]:
    """A Rami round given to the API by hand values, everyone melded."""
    hands = {name: {"points": value, "melded": True} for name, value in points.items()}
    return {"outcome": "out", "winner": winner, "hands": hands}


def png_size(data: bytes) -> tuple[int, int]:
    """Read a PNG's width and height from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


# --- installable ------------------------------------------------------------------------------


def test_the_manifest_describes_an_installable_app(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert (manifest["name"], manifest["short_name"]) == ("Tablescore", "Tablescore")
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert manifest["background_color"] == LIGHT["--bg"]
    assert manifest["theme_color"] == LIGHT["--accent"]
    assert manifest["description"]


def test_the_manifest_icons_are_served_at_their_sizes(client: FlaskClient) -> None:
    icons = client.get("/manifest.webmanifest").get_json(force=True)["icons"]
    assert {(icon["type"], icon["sizes"]) for icon in icons} == {
        ("image/svg+xml", "any"),
        ("image/png", "192x192"),
        ("image/png", "512x512"),
    }
    assert {icon.get("purpose", "any") for icon in icons} == {"any", "maskable"}
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200
        assert response.mimetype == icon["type"]
        if icon["type"] == "image/png":
            assert "{}x{}".format(*png_size(response.data)) == icon["sizes"]
        response.close()


def test_every_page_names_the_manifest_the_icon_and_the_bar_colours(client: FlaskClient) -> None:
    doc = parse(client.get("/"))
    assert doc.find("link", rel="manifest").attrs["href"] == "/manifest.webmanifest"
    icon = doc.find("link", rel="icon").attrs["href"]
    assert re.fullmatch(r"/assets/icon\.[0-9a-f]{10}\.svg", icon)
    response = client.get(icon)
    assert response.data == (STATIC / "icon.svg").read_bytes()
    response.close()
    colours = {
        meta.attrs["media"]: meta.attrs["content"]
        for meta in doc.find_all("meta", name="theme-color")
    }
    assert colours == {
        "(prefers-color-scheme: light)": LIGHT["--accent"],
        "(prefers-color-scheme: dark)": DARK["--accent"],
    }


# --- offline ----------------------------------------------------------------------------------


def worker(client: FlaskClient) -> tuple[str, list[str]]:
    """Return the service worker's cache name and the URLs it keeps on install."""
    script = client.get("/sw.js").get_data(as_text=True)
    name = re.search(r'const CACHE = "([^"]+)";', script).group(1)
    kept = re.search(r"const PRECACHED = (\[[^\]]*\]);", script).group(1)
    return name, re.findall(r'"([^"]+)"', kept)


def test_the_service_worker_answers_for_the_whole_site_and_is_never_kept(client: FlaskClient):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.cache_control.no_cache
    assert response.headers["Service-Worker-Allowed"] == "/"
    (script,) = [
        s for s in parse(client.get("/")).find_all("script") if "data-service-worker" in s.attrs
    ]
    assert script.attrs["data-service-worker"] == "/sw.js"


def test_the_service_worker_keeps_the_static_files_and_the_offline_page(client: FlaskClient):
    _name, kept = worker(client)
    html = client.get("/").get_data(as_text=True)
    for url in re.findall(r'(?:href|src)="(/assets/[^"]+)"', html):
        assert url in kept
    assert "/offline" in kept
    assert len(kept) == len(list(STATIC.iterdir())) + 1
    for url in kept:
        response = client.get(url)
        assert response.status_code == 200, url
        response.close()


def test_the_cache_is_named_after_the_assets(app: Flask, client: FlaskClient) -> None:
    before, _kept = worker(client)
    assert worker(client)[0] == before
    css = app.extensions["assets"]["app.css"]
    app.extensions["assets"]["app.css"] = replace(css, name="app.0123456789.css")
    after, kept = worker(client)
    assert after != before
    assert after.startswith("tablescore-")
    assert "/assets/app.0123456789.css" in kept


def test_the_offline_page_says_what_still_works(client: FlaskClient) -> None:
    response = client.get("/offline")
    assert response.status_code == 200
    doc = parse(response)
    assert doc.find("h1").text() == "No connection"
    items = doc.find("ul", "offline-list").find_all("li")
    with client.application.app_context():
        alone = runtime.installed()
    # Where the phone's Python is installed, a fourth: a ready phone starts and scores alone.
    assert len(items) == 3 + alone
    if alone:
        assert items[3].find("a").attrs["href"] == "/alone"
    retry = doc.find("a", "button")
    assert retry.text() == "Try again"
    # An empty link reloads the page the service worker answered for.
    assert retry.attrs["href"] == ""


# --- the live view ----------------------------------------------------------------------------


def live_sheet(doc: Node) -> Node:
    """Return the part of the live view that follows the match."""
    sheet = doc.find("div", id="live-sheet")
    assert sheet is not None
    return sheet


def totals(sheet: Node) -> dict[str, int]:
    """Read the large totals of the live view."""
    return {
        li.find("bdi").text(): int(li.find("strong").text())
        for li in sheet.find("ul", "live-totals").find_all("li")
    }


def test_the_live_view_shows_the_score_and_never_a_control(
    client: FlaskClient, stranger: FlaskClient, new_match
) -> None:
    match = new_match()
    client.post(f"/api/matches/{match['id']}/rounds", json=api_round("Ana", Bo=30, Cy=12))
    for phone in (client, stranger):
        doc = parse(phone.get(f"/matches/{match['id']}/live"))
        sheet = live_sheet(doc)
        assert totals(sheet) == {"Ana": 0, "Bo": 30, "Cy": 12}
        assert sheet.find("tbody", id="round-1").find("tr", "why") is not None
        assert sheet.find("figure", "chart") is not None
        assert doc.find("form", "round-form") is None
        assert not [a for a in doc.find_all("a") if a.attrs["href"].endswith("/edit")]
        assert doc.find("a", href=f"/matches/{match['id']}/handoff") is None
        assert "reload" in doc.find("noscript").text()
        assert any("data-keep-awake" in node.attrs for node in doc.walk())


def test_the_live_view_of_a_fresh_match_waits_for_the_first_round(client: FlaskClient, new_match):
    match = new_match(players=("Ana", "Bo"))
    sheet = live_sheet(parse(client.get(f"/matches/{match['id']}/live")))
    assert totals(sheet) == {"Ana": 0, "Bo": 0}
    assert sheet.find("table", "sheet") is None
    assert sheet.find("p", "empty") is not None


def test_the_live_view_shows_the_winner(client: FlaskClient, new_match) -> None:
    match = new_match(players=("Ana", "Bo"), target=100)
    for _ in range(3):
        client.post(f"/api/matches/{match['id']}/rounds", json=api_round("Ana", Bo=40))
    sheet = live_sheet(parse(client.get(f"/matches/{match['id']}/live")))
    assert sheet.find("p", "banner").text() == "Ana wins with 0!"
    assert sheet.find("li", "winner").find("bdi").text() == "Ana"


def test_the_live_sheet_answers_nothing_while_the_match_is_unchanged(
    client: FlaskClient, stranger: FlaskClient, new_match
) -> None:
    match = new_match()
    rounds = f"/api/matches/{match['id']}/rounds"
    sheet = live_sheet(parse(stranger.get(f"/matches/{match['id']}/live")))
    url, seen = sheet.attrs["data-live-url"], sheet.attrs["data-version"]
    assert url == f"/matches/{match['id']}/live/sheet"

    unchanged = stranger.get(url, query_string={"since": seen})
    assert (unchanged.status_code, unchanged.data) == (204, b"")
    assert unchanged.cache_control.no_store

    # A round, a correction made the same second, a removal: each is news to the live view.
    changes = [
        lambda: client.post(rounds, json=api_round("Ana", Bo=30, Cy=12)),
        lambda: client.put(f"{rounds}/1", json=api_round("Ana", Bo=31, Cy=12)),
        lambda: client.delete(f"{rounds}/1"),
    ]
    expected = [{"Ana": 0, "Bo": 30, "Cy": 12}, {"Ana": 0, "Bo": 31, "Cy": 12}, None]
    for change, shown in zip(changes, expected, strict=True):
        assert change().status_code < 300
        answer = stranger.get(url, query_string={"since": seen})
        assert answer.status_code == 200
        # Kept by the browser only to ask again with its ETag: never shown without asking.
        assert answer.cache_control.no_cache and answer.headers["ETag"]
        fresh = live_sheet(parse(answer))
        assert fresh.attrs["data-version"] != seen
        assert "<html" not in answer.get_data(as_text=True)
        if shown:
            assert totals(fresh) == shown
        else:
            assert fresh.find("section", "removed") is not None
        seen = fresh.attrs["data-version"]
        assert stranger.get(url, query_string={"since": seen}).status_code == 204


def test_the_live_sheet_without_a_version_answers_the_sheet(client: FlaskClient, new_match):
    match = new_match(players=("Ana", "Bo"))
    answer = client.get(f"/matches/{match['id']}/live/sheet")
    assert answer.status_code == 200
    assert totals(live_sheet(parse(answer))) == {"Ana": 0, "Bo": 0}


@pytest.mark.parametrize("path", ["/matches/999/live", "/matches/999/live/sheet?since=0"])
def test_the_live_view_of_an_unknown_match_is_404(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_match_page_shows_the_table_the_live_view(
    client: FlaskClient, stranger: FlaskClient, new_match
) -> None:
    match = new_match()
    link = f"http://localhost/matches/{match['id']}/live"
    for phone in (client, stranger):
        doc = parse(phone.get(f"/matches/{match['id']}"))
        section = doc.find("section", "show-table")
        assert section.find("h2").text() == "Show the table"
        assert "data-keep-awake" in section.attrs
        assert section.find("figcaption").find("a").attrs["href"] == link
        code = section.find("div", "qr-code")
        assert code.attrs["role"] == "img"
        assert code.attrs["aria-label"] == "QR code of the live view’s address"
        drawn = segno.make(link, micro=False)
        side = drawn.symbol_size(scale=4)[0]
        assert code.find("svg").attrs["viewbox"] == f"0 0 {side} {side}"
        shown = phone.get(f"/matches/{match['id']}").get_data(as_text=True)
        assert drawn.svg_inline(scale=4, dark="#1d1d1b", light="#ffffff", omitsize=True) in shown


# --- the patterns page ------------------------------------------------------------------------


def test_the_patterns_page_shows_every_component_three_times(client: FlaskClient) -> None:
    doc = parse(client.get("/patterns"))
    columns = doc.find_all("section", "patterns")
    assert [
        (c.attrs["class"].split()[1:], c.attrs.get("dir"), c.attrs.get("lang")) for c in columns
    ] == [
        (["theme-light"], None, None),
        (["theme-dark"], None, None),
        ([], "rtl", "fa"),
    ]
    for column in columns:
        assert column.find("button", "primary") is not None
        assert column.find("button", "danger") is not None
        assert column.find("div", "stepper") is not None
        assert column.find("label", "choice").find("input", type="radio") is not None
        assert column.find("input", **{"aria-invalid": "true"}) is not None
        assert column.find(role="alert") is not None
        assert column.find("p", "flash") is not None
        assert column.find("p", "banner") is not None
        assert column.find("table", "sheet").find("tr", "why") is not None
        assert column.find("span", "badge") is not None
        assert column.find("figure", "chart").find("svg") is not None
        assert column.find("text", "board-team").text() == "Oben"
        assert column.find("circle", "peg") is not None


def test_each_label_of_the_patterns_page_finds_its_own_input(client: FlaskClient) -> None:
    doc = parse(client.get("/patterns"))
    fields = [*doc.find_all("input"), *doc.find_all("select")]
    ids = [node.attrs["id"] for node in fields if "id" in node.attrs]
    assert len(ids) == len(set(ids))
    for label in doc.find_all("label"):
        if "for" in label.attrs:
            assert label.attrs["for"] in ids


# --- the stylesheet ---------------------------------------------------------------------------


def test_the_themes_can_be_forced_by_a_class() -> None:
    assert theme(".theme-dark") == DARK
    assert set(DARK) == set(LIGHT)
    assert DARK != LIGHT


def test_the_stylesheet_uses_logical_properties_only() -> None:
    physical = re.compile(
        r"(?:margin|padding|border)-(?:left|right|top|bottom)\b|[{;\s](?:left|right|top|bottom):"
        r"|text-align:\s*(?:left|right)|float:\s*(?:left|right)"
    )
    assert physical.findall(CSS) == []


@pytest.mark.parametrize("path", ["/offline", "/patterns", "/matches/{id}/live", "/matches/{id}"])
def test_the_new_pages_use_no_inline_script_or_style(client: FlaskClient, new_match, path: str):
    page = client.get(path.format(id=new_match()["id"])).get_data(as_text=True)
    assert "<script>" not in page and " style=" not in page and "<style" not in page


def worker_pattern(client: FlaskClient, name: str) -> re.Pattern[str]:
    """Read one of the path patterns the service worker is written with."""
    script = client.get("/sw.js").get_data(as_text=True)
    written = re.search(rf"const {name} = new RegExp\((.+)\);", script).group(1)
    return re.compile(json.loads(written))


def test_the_worker_keeps_a_match_its_sheet_and_its_live_view_for_reading_offline(
    client: FlaskClient,
):
    kept = worker_pattern(client, "KEPT_PAGES")
    for path in ("/matches/5", "/matches/5/sheet", "/matches/12/live"):
        assert kept.match(path), path
    for path in ("/history", "/matches/5/rounds/1/why", "/matches/5/handoff", "/matches/new/rami"):
        assert not kept.match(path), path


def test_the_worker_keeps_only_round_forms_in_its_outbox(client: FlaskClient):
    queued = worker_pattern(client, "QUEUED_FORMS")
    assert queued.match("/matches/5/rounds").group(1) == "/matches/5"
    assert queued.match("/matches/5/rounds/3/edit").group(1) == "/matches/5"
    for path in ("/matches/5/rounds/3/remove", "/matches/5/handoff", "/matches/5/rematch"):
        assert not queued.match(path), path
    script = client.get("/sw.js").get_data(as_text=True)
    outbox, phone_store = json.loads("[" + re.search(r"importScripts\((.+)\);", script)[1] + "]")
    assert "TablescorePhone" in client.get(phone_store).get_data(as_text=True)
    assert outbox in worker(client)[1]
    assert "TablescoreOutbox" in client.get(outbox).get_data(as_text=True)


@pytest.mark.parametrize("body", TABLES.values(), ids=TABLES.keys())
def test_every_round_form_records_with_a_button_the_outbox_knows(client: FlaskClient, body):
    match_id = send(client, "POST", "/api/matches", body).json["id"]
    page = parse(client.get(f"/matches/{match_id}"))
    form = page.find("form", cls="round-form")
    recording = [b for b in form.find_all("button") if b.attrs.get("name") == "record"]
    assert len(recording) == 2  # the one Enter presses, and the one tapped
    assert {b.attrs.get("value") for b in recording} == {"1"}
    assert "primary" in recording[-1].attrs["class"]
    # Kept on the phone, a round is shown under the form and counted in the score bar.
    assert page.find("section", id="outbox").attrs["data-match"] == f"/matches/{match_id}"
    assert page.find("p", id="bar-pending") is not None
    assert page.find("p", id="offline-banner") is not None


def test_a_correction_sent_again_with_its_key_is_made_once(client: FlaskClient):
    match_id = send(client, "POST", "/api/matches", TABLES["gaigel"]).json["id"]
    client.post(f"/api/matches/{match_id}/rounds", json={"winner": "Oben", "outcome": "aus"})
    page = parse(client.get(f"/matches/{match_id}/rounds/1/edit"))
    fields = values(page)
    made = ("idempotency_key", "round_id", "version", "csrf_token")
    fields |= {name: page.find("input", name=name).attrs["value"] for name in made}
    fields |= {"winner": "Unten", "outcome": "gaigel", "record": "1"}
    first = client.post(f"/matches/{match_id}/rounds/1/edit", data=fields)
    again = client.post(f"/matches/{match_id}/rounds/1/edit", data=fields)
    assert first.status_code == again.status_code == 302
    log = client.get(f"/api/matches/{match_id}/log").json
    assert [entry["action"] for entry in log["changes"]] == ["add", "correct"]


def test_the_offline_page_says_when_a_form_was_not_sent(client: FlaskClient):
    page = parse(client.get("/offline"))
    unsent = page.find("p", cls="unsent")
    assert "nothing was changed" in unsent.text()


def test_the_live_view_says_the_round_the_dealer_the_target_and_what_is_left(
    client: FlaskClient, stranger: FlaskClient, new_match
) -> None:
    match = new_match(target=100)
    client.post(f"/api/matches/{match['id']}/rounds", json=api_round("Ana", Bo=30, Cy=12))
    sheet = live_sheet(parse(stranger.get(f"/matches/{match['id']}/live")))
    assert sheet.find("p", "live-round").text() == "Round 2 · Bo deals · Target 100"
    left = [
        li.find("small", "bar-to-go").text()
        for li in sheet.find("ul", "live-totals").find_all("li")
    ]
    assert left == ["100 to go", "70 to go", "88 to go"]
