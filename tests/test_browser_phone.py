"""Every page at 360×740, light and dark and right to left: no sideways scrolling, no tap
target under 44×44 px, no layout shift, no script error (issue 8, phone-first)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser
from werkzeug.serving import make_server

from app import create_app
from tests.api_helpers import draw_round, start_event
from tests.test_browser import browser  # noqa: F401 - the shared Chromium
from web.language import LANGUAGES

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}

SMALL_TARGETS = """() => {
  const found = [];
  const tappable = 'button:not(.visually-hidden), .button, nav a, .actions a, .choice, .chip,'
    + ' input:not([type=hidden]), select, .match-links a, .round-meta a, summary';
  for (const element of document.querySelectorAll(tappable)) {
    let box = element;
    if (element.matches('input[type=checkbox], input[type=radio]')) {
      box = element.closest('label') || element;
    }
    const rect = box.getBoundingClientRect();
    if (!rect.width && !rect.height) continue;
    if (element.closest('[hidden], .visually-hidden')) continue;
    // What a closed section holds is not on the page until it is opened.
    if (element.closest('details:not([open]) > :not(summary)')) continue;
    if (getComputedStyle(element).visibility === 'hidden') continue;
    if (rect.width < 43.5 || rect.height < 43.5) {
      const text = (element.textContent || element.name || '').trim().slice(0, 20);
      found.push(`${element.tagName.toLowerCase()}.${element.className}[${text}] `
        + `${rect.width.toFixed(0)}x${rect.height.toFixed(0)}`);
    }
  }
  return found;
}"""

LAYOUT_SHIFT = """() => new Promise(done => {
  let shifted = 0;
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) shifted += entry.value;
  }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => done(shifted), 300);
})"""


def start(client: FlaskClient, body: dict[str, Any], *rounds: dict[str, Any]) -> dict[str, Any]:
    """Start a match through the API and record its rounds with its token."""
    match = client.post("/api/matches", json=body).json
    for entered in rounds:
        response = client.post(
            f"/api/matches/{match['id']}/rounds",
            json=entered,
            headers={"Authorization": f"Bearer {match['scorer_token']}"},
        )
        assert response.status_code == 201, response.json
    return match


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Serve an app holding a match of every game; return its address, pages and the session
    cookie of the phone that scores them."""
    database = tmp_path_factory.mktemp("phone") / "phone.sqlite"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "test"})
    client = app.test_client()
    six = ["Ana", "Bo", "Cy", "Dimitrios-Alexandros", "Eve", "Fay"]
    made = [
        start(
            client,
            {"game": "rami", "players": six},
            {
                "outcome": "out",
                "winner": "Ana",
                "hands": {name: {"points": 55, "melded": True} for name in six[1:]},
            },
        ),
        start(
            client,
            {
                "game": "belote",
                "teams": {"Nous": ["Ana", "Cy"], "Eux": ["Bo", "Di"]},
                "options": {"variant": "coinche"},
            },
        ),
        start(
            client,
            {"game": "barbu", "players": ["Ana", "Bo", "Cy", "Di"]},
            {"contract": "no_tricks", "taken": {"Ana": 4, "Bo": 3, "Cy": 3, "Di": 3}},
        ),
        start(
            client,
            {"game": "gaigel", "teams": {"Oben": ["Ana", "Cy"], "Unten": ["Bo", "Di"]}},
            {"winner": "Oben", "outcome": "aus"},
        ),
        start(
            client,
            {"game": "porrazo", "players": ["Ana", "Bo", "Cy"]},
            {"player": "Ana", "event": "ronda", "rank": "5"},
        ),
    ]
    event, organiser = start_event(client)
    draw_round(client, event["id"], organiser)
    tokens = {str(match["id"]): match["scorer_token"] for match in made}
    cookie = app.session_interface.get_signing_serializer(app).dumps({"scorer_tokens": tokens})
    pages = ["/", "/history", "/players", "/players/ana", "/join", "/offline", "/patterns"]
    pages += [f"/matches/new/{game}" for game in ("rami", "belote", "barbu", "gaigel", "porrazo")]
    for match in made:
        pages += [
            f"/matches/{match['id']}{tail}"
            for tail in ("", "/sheet", "/rules", "/whatif", "/handoff", "/live")
        ]
    pages += [f"/matches/{made[0]['id']}/rounds/1/why", f"/matches/{made[0]['id']}/rounds/1/edit"]
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    wide = ["/players", "/players/ana", "/ratings?game=rami", "/history", "/events"]
    wide += [f"/events/{event['id']}", f"/events/{event['id']}/standings"]
    wide += [f"/matches/{match['id']}/sheet" for match in made]
    yield {
        "base": f"http://127.0.0.1:{httpd.server_port}",
        "pages": pages,
        "wide": wide,
        "cookie": cookie,
    }
    httpd.shutdown()
    thread.join()


@pytest.mark.parametrize(("scheme", "language"), [("light", "en"), ("dark", "en"), ("light", "fa")])
def test_every_page_fits_the_phone(
    browser: Browser,  # noqa: F811
    table: dict[str, Any],
    scheme: str,
    language: str,
) -> None:
    context = browser.new_context(**PHONE, color_scheme=scheme, locale=language)
    context.add_cookies([{"name": "session", "value": table["cookie"], "url": table["base"]}])
    context.set_extra_http_headers({"Accept-Language": language})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    problems = []
    for path in table["pages"]:
        page.goto(table["base"] + path)
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == language
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > 360:
            problems.append(f"{path}: {wide} px wide")
        problems += [f"{path}: small target {small}" for small in page.evaluate(SMALL_TARGETS)]
        shifted = page.evaluate(LAYOUT_SHIFT)
        if shifted >= 0.1:
            problems.append(f"{path}: layout shift {shifted:.2f}")
    context.close()
    assert not problems, "\n".join(problems)
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_wide_pages_fit_360_pixels_in_every_language(
    browser: Browser,  # noqa: F811
    table: dict[str, Any],
    language: str,
) -> None:
    """Tables of standings, players and sheets never scroll sideways, whatever the language
    makes of their headings (French's were 402 px wide)."""
    context = browser.new_context(**PHONE, locale=language)
    context.add_cookies([{"name": "session", "value": table["cookie"], "url": table["base"]}])
    context.set_extra_http_headers({"Accept-Language": language})
    page = context.new_page()
    wide, broken = {}, {}
    for path in table["wide"]:
        page.goto(table["base"] + path)
        assert page.evaluate("document.documentElement.lang") == language
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["viewport"]["width"]:
            wide[path] = width
        broken |= {f"{path}: {word}": lines for word, lines in page.evaluate(ONE_WORD_LINES)}
    context.close()
    assert not wide, f"{language}: pages wider than the phone: {wide}"
    assert not broken, f"{language}: one word broken over lines: {broken}"


ONE_WORD_LINES = """() => [...document.querySelectorAll(
    ".sheet tfoot th, .chart-table.records tbody th, .standings thead th")]
  .filter((cell) => !cell.textContent.trim().includes(" "))
  .map((cell) => { const range = document.createRange(); range.selectNodeContents(cell);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return [cell.textContent.trim(), tops.size]; })
  .filter(([, lines]) => lines > 1)"""
"""Cells of one word (a sheet's "Total", a game's name, a standings heading) that the phone
draws over more than one line: a word broken inside ("المجم/وع", "Barb/u")."""
