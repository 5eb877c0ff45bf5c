"""Over https and behind a proxy: every HTML form posts from a phone over https (CSRF checks
the Referer there, and the app lets the phone send it to this site alone), the forwarded
headers of exactly one proxy are trusted with TABLESCORE_BEHIND_PROXY and none without it,
whichever server bin/serve runs, and the session cookie is Secure over https."""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from app import create_app
from scorers import GAMES
from tests.html_reader import Node, parse
from tests.served import ask, serve, stop
from tests.test_pages import EXAMPLE_R1, hand, round_form

HOST = "scores.example.org"
SITE = f"https://{HOST}"
"""Where the phone believes it is: the site's https address."""
PHONE_ADDRESS = "203.0.113.9"
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0 Mobile Safari/537.36"
)
DUEL = {"game": "rami", "players": ["Ana", "Bo"]}


def app_over(tmp_path, name: str = "https", **config: Any) -> Flask:
    """Build an app over its own database with its CSRF checks on, as it is served."""
    return create_app(
        {
            "DATABASE": str(tmp_path / f"{name}.sqlite"),
            "SECRET_KEY": "test",
            "IMPORT_APART": False,
            **config,
        }
    )


# --- What a phone's browser sends: the Referer and Origin its page's policy allows ------------


def origin_of(url: str) -> str:
    """The scheme, host and port of an address."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def referer(policy: str, page: str, target: str) -> str | None:
    """The Referer a browser sends from `page` to `target` under a Referrer-Policy (the W3C
    Referrer Policy's algorithm for every value it defines)."""
    page = page.split("#")[0]
    same = origin_of(page) == origin_of(target)
    downgrade = page.startswith("https:") and not target.startswith("https:")
    origin = origin_of(page) + "/"
    chosen = {
        "no-referrer": None,
        "no-referrer-when-downgrade": None if downgrade else page,
        "same-origin": page if same else None,
        "origin": origin,
        "strict-origin": None if downgrade else origin,
        "origin-when-cross-origin": page if same else origin,
        "unsafe-url": page,
    }
    fallback = page if same else None if downgrade else origin  # strict-origin-when-cross-origin
    return chosen.get(policy, fallback)


def origin_header(policy: str, page: str, target: str) -> str:
    """The Origin a browser sends with a form it posts (Fetch: "null" where the policy hides
    where the phone came from)."""
    hidden = policy == "same-origin" and origin_of(page) != origin_of(target)
    if policy == "no-referrer" or hidden:
        return "null"
    return origin_of(page)


class Phone:
    """A phone's browser on SITE, in front of the test client: it fills in forms as a browser
    does (what the page put in them, what the test types, the button tapped) and sends the
    headers a phone sends, the Referer and Origin as its page's Referrer-Policy allows.

    Behind a proxy, each request reaches the app over http with the proxy's X-Forwarded-*.
    """

    def __init__(self, app: Flask, behind_proxy: bool):
        self.app = app
        self.client: FlaskClient = app.test_client()
        self.base = "http://127.0.0.1:8000" if behind_proxy else SITE
        if behind_proxy:
            self.client.environ_base.update(
                HTTP_X_FORWARDED_FOR=PHONE_ADDRESS,
                HTTP_X_FORWARDED_PROTO="https",
                HTTP_X_FORWARDED_HOST=HOST,
            )
        self.posted: dict[str, list[int]] = {}

    def get(self, path: str) -> Any:
        """Open a page as a phone does, typing its address."""
        headers = {"User-Agent": ANDROID, "Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"}
        return self.client.get(path, base_url=self.base, headers=headers, follow_redirects=True)

    def submit(self, shown: Any, form: Node, typed: dict[str, str] | None = None) -> Any:
        """Post a form of a page shown, as a phone does; return the page it leads to."""
        page = SITE + shown.request.full_path.rstrip("?")
        action = form.attrs.get("action") or shown.request.full_path.rstrip("?")
        target = SITE + action
        policy = shown.headers.get("Referrer-Policy", "")
        headers = {
            "User-Agent": ANDROID,
            "Origin": origin_header(policy, page, target),
            "Sec-Fetch-Site": "same-origin",
            "Sec-Fetch-Mode": "navigate",
        }
        if said := referer(policy, page, target):
            headers["Referer"] = said
        data = filled(form, typed or {})
        answer = self.client.post(
            action, base_url=self.base, headers=headers, data=data, follow_redirects=True
        )
        endpoint = self.app.url_map.bind(HOST).match(urlsplit(action).path, method="POST")[0]
        self.posted.setdefault(endpoint, []).append(answer.status_code)
        return answer


def filled(form: Node, typed: dict[str, str]) -> MultiDict:
    """What a browser sends for a form: its fields as the page set them, then as typed, and
    the button tapped: the form's primary one, or its first."""
    data: MultiDict = MultiDict()
    for node in form.walk():
        name, kind = node.attrs.get("name"), node.attrs.get("type", "text")
        if not name or name in typed:
            continue
        if node.tag == "input" and kind in ("checkbox", "radio"):
            if "checked" in node.attrs:
                data.add(name, node.attrs.get("value", "on"))
        elif node.tag == "input" and kind == "file":
            data.add(name, (io.BytesIO(b""), ""))
        elif node.tag == "input" and kind not in ("submit", "button", "image", "reset"):
            data.add(name, node.attrs.get("value", ""))
        elif node.tag == "select":
            options = node.find_all("option")
            chosen = [o for o in options if "selected" in o.attrs] or options[:1]
            data.add(name, chosen[0].attrs.get("value", chosen[0].text()) if chosen else "")
        elif node.tag == "textarea":
            data.add(name, node.text())
    for name, value in typed.items():
        data.add(name, value)
    buttons = [
        node
        for node in form.walk()
        if (node.tag == "button" and node.attrs.get("type", "submit") == "submit")
        or (node.tag == "input" and node.attrs.get("type") == "submit")
    ]
    buttons.sort(key=lambda node: "primary" not in (node.attrs.get("class") or "").split())
    if buttons and buttons[0].attrs.get("name"):
        data.add(buttons[0].attrs["name"], buttons[0].attrs.get("value", ""))
    return data


def posted_forms(page: Any) -> list[Node]:
    """The forms of an HTML page that post."""
    if page.mimetype != "text/html":
        return []
    return [f for f in parse(page).find_all("form") if f.attrs.get("method", "").lower() == "post"]


def started(
    phone: Phone, game: str, names: list[str], confirm: bool = False, **options: str
) -> int:
    """Start a match through its new-match form, names typed in seating order (every side
    confirming, with `confirm`); return its id."""
    shown = phone.get(f"/matches/new/{game}")
    (form,) = [f for f in posted_forms(shown) if "language-form" not in f.attrs.get("class", "")]
    boxes: dict[str, list[str]] = {}
    for node in form.find_all("input"):
        if "players-" in (box := node.attrs.get("name", "")):
            boxes.setdefault(box.split("-")[0], []).append(box)
    # One list of players, or teams of two: partners are each team's first two boxes.
    seats = [*boxes.values()][0] if len(boxes) == 1 else [b for t in boxes.values() for b in t[:2]]
    typed = dict(zip(seats, names, strict=False))
    typed |= {f"option_{name}": value for name, value in options.items()}
    if confirm:
        typed["confirm"] = "y"
    answer = phone.submit(shown, form, typed)
    assert answer.status_code == 200 and "/matches/" in answer.request.path, answer.status_code
    return int(answer.request.path.split("/")[2])


def round_recorded(phone: Phone, match_id: int, typed: dict[str, str]) -> Any:
    """Record a round through the match page's round form."""
    shown = phone.get(f"/matches/{match_id}")
    (form,) = [f for f in posted_forms(shown) if "round-form" in f.attrs.get("class", "")]
    answer = phone.submit(shown, form, typed)
    assert "recorded" in answer.request.query_string.decode(), answer.status_code
    return answer


def is_match(link: str) -> bool:
    """Say whether a link leads to a match (its page, or one of the match's own)."""
    return link.startswith("/matches/") and link.split("/")[2].split("?")[0].isdigit()


PLAYERS = {
    "rami": ["Ana", "Bo", "Cy"],
    "belote": ["Ana", "Cy", "Bo", "Di"],
    "barbu": ["Ana", "Bo", "Cy", "Di"],
    "gaigel": ["Ana", "Cy", "Bo", "Di"],
    "porrazo": ["Ana", "Bo"],
}
"""The names each game's new-match form is filled in with; any other game, four players."""


def every_form(phone: Phone) -> None:
    """Make something for every form to act on, through the forms themselves, then post
    every form of every page a phone reaches, each once, until no page shows a new one."""
    rami = started(phone, "rami", PLAYERS["rami"])
    round_recorded(phone, rami, EXAMPLE_R1)
    round_recorded(phone, rami, EXAMPLE_R1)
    duel = started(phone, "rami", ["Ana", "Bo"], target="100")
    over = round_form(players=("Ana", "Bo"), winner="Ana", Bo=hand(points="100", melded=True))
    round_recorded(phone, duel, over)
    others = [started(phone, game, PLAYERS.get(game, ["Ana", "Bo", "Cy", "Di"])) for game in GAMES]
    # Every side confirms: this phone scores for Ana, and opens Bo's link too, so it shows
    # the forms of both phones.
    agreed = started(phone, "rami", ["Ana", "Bo"], confirm=True)
    two = round_form(players=("Ana", "Bo"), winner="Ana", Bo=hand(points="10", melded=True))
    round_recorded(phone, agreed, two)
    round_recorded(phone, agreed, two)
    shown = phone.get(f"/matches/{agreed}/sides")
    (form,) = [f for f in posted_forms(shown) if f.attrs.get("action", "").endswith("/sides")]
    links = [a.attrs.get("href", "") for a in parse(phone.submit(shown, form)).find_all("a")]
    (side_link,) = [urlsplit(link).path for link in links if "/side/" in link]
    shown = phone.get("/events/new/rami")
    (form,) = [f for f in posted_forms(shown) if "language-form" not in f.attrs.get("class", "")]
    typed = {"name": "Club night", "entrants": "Ana\nBo\nCy\nDi", "deals": "1", "rounds": "2"}
    typed["confirm"] = "y"
    event = phone.submit(shown, form, typed)
    assert event.status_code == 200 and event.request.path.startswith("/events/")
    # Round 1 drawn and played (one table, one deal), so the event offers to close.
    (draw,) = [f for f in posted_forms(event) if f.attrs.get("action", "").endswith("/draw")]
    drawn = phone.submit(event, draw)
    links = [a.attrs.get("href") or "" for a in parse(drawn).find_all("a")]
    for table in {int(link.split("/")[2]) for link in links if is_match(link)}:
        seats = tuple(
            phone.client.get(f"/api/matches/{table}", base_url=phone.base).json["players"]
        )
        held = {name: hand(points="10", melded=True) for name in seats[1:]}
        round_recorded(phone, table, round_form(seats, winner=seats[0], **held))
    pages = [
        "/",
        *(f"/matches/new/{game}" for game in GAMES),
        *(f"/matches/{match_id}" for match_id in [rami, duel, *others]),
        f"/matches/{rami}/rounds/1/edit",
        f"/matches/{rami}/rounds/1/why",
        f"/matches/{rami}/sheet",
        "/join",
        "/join/ABCD2345",
        side_link,
        f"/matches/{agreed}",
        "/check",
        "/players/Ana",
        "/import",
        "/events/new/rami",
        event.request.path,
        # Last: their forms take back the other side's phone, and the right to score the duel
        # from this phone.
        f"/matches/{agreed}/sides",
        f"/matches/{duel}/handoff",
    ]
    seen: set[tuple[str, frozenset[str]]] = set()
    for _ in range(4):
        before = len(seen)
        for path in pages:
            waiting = [phone.get(path)]
            while waiting and len(seen) < 300:
                shown = waiting.pop(0)
                for form in posted_forms(shown):
                    action = form.attrs.get("action") or shown.request.path
                    key = (urlsplit(action).path, frozenset(filled(form, {}).keys()))
                    if key not in seen:
                        seen.add(key)
                        waiting.append(phone.submit(shown, form))
        if len(seen) == before:
            return


def page_forms(app: Flask, blueprint: str | None = None) -> set[str]:
    """Every page door that takes a form: the POST routes that are not the JSON API; those of
    one blueprint, or those of every other than the circles' (a server of one has none)."""
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ())
        and not rule.rule.startswith("/api/")
        and (rule.endpoint.split(".")[0] == "circle_pages") == (blueprint == "circle_pages")
    }


@pytest.mark.parametrize("behind_proxy", [False, True], ids=["https", "https behind a proxy"])
def test_every_html_form_posts_over_https(tmp_path, behind_proxy: bool):
    app = app_over(tmp_path, BEHIND_PROXY=behind_proxy)
    phone = Phone(app, behind_proxy)
    every_form(phone)
    refused = {door: codes for door, codes in phone.posted.items() if 400 in codes}
    assert refused == {}
    assert page_forms(app) <= set(phone.posted), page_forms(app) - set(phone.posted)


def only_form(page: Any, action: str) -> Node:
    """The one form of a page that posts to `action`."""
    (form,) = [f for f in posted_forms(page) if f.attrs.get("action") == action]
    return form


@pytest.mark.parametrize("behind_proxy", [False, True], ids=["https", "https behind a proxy"])
def test_every_circle_form_posts_over_https(tmp_path, behind_proxy: bool):
    app = app_over(tmp_path, BEHIND_PROXY=behind_proxy, CIRCLES="many")
    phone = Phone(app, behind_proxy)
    welcome = phone.get("/")
    home = phone.submit(welcome, only_form(welcome, "/circles"), {"name": "Jeudi coinche"})
    assert home.request.path == "/circle" and "Jeudi coinche" in home.text
    other = app.test_client().post("/api/circles", json={"name": "Famille"}).json
    joined = phone.get(urlsplit(other["invite_url"]).path)
    assert "Famille" in joined.text
    page = phone.get("/circle")
    page = phone.submit(page, only_form(page, "/circles/switch"))
    assert "Jeudi coinche" in parse(page).find("a", "circle-name").text()
    page = phone.get("/circle")
    page = phone.submit(page, only_form(page, "/circle/key"))
    assert "new invite link" in page.text
    page = phone.submit(page, only_form(page, "/circle/leave"))
    assert "Famille" in parse(page).find("a", "circle-name").text()
    asked = phone.get("/circle/delete")
    gone = phone.submit(asked, only_form(asked, "/circle/delete"), {"name": "Famille"})
    assert "deleted" in gone.text and "/circles" in gone.text
    refused = {door: codes for door, codes in phone.posted.items() if 400 in codes}
    assert refused == {}
    assert page_forms(app, "circle_pages") <= set(phone.posted)


@pytest.mark.parametrize(
    "sent",
    [{}, {"Referer": "https://elsewhere.example/"}, {"Referer": f"http://{HOST}/"}],
    ids=["no Referer", "another site", "plain http"],
)
def test_over_https_a_form_from_elsewhere_is_still_refused(tmp_path, sent: dict[str, str]):
    app = app_over(tmp_path)
    client = app.test_client()
    shown = client.get("/matches/new/rami", base_url=SITE)
    token = parse(shown).find("input", name="csrf_token").attrs["value"]
    typed = {"players-0": "Ana", "players-1": "Bo", "csrf_token": token}
    answer = client.post("/matches/new/rami", base_url=SITE, data=typed, headers=sent)
    assert answer.status_code == 400
    assert "did not come from Tablescore" in answer.get_data(as_text=True)
    assert client.get("/api/matches", base_url=SITE).json["total"] == 0


def test_pages_let_the_referer_go_to_this_site_alone(tmp_path):
    answer = app_over(tmp_path).test_client().get("/join/ABCD2345", base_url=SITE)
    policy = answer.headers["Referrer-Policy"]
    assert policy == "same-origin"
    # A join link carries its code: another site never learns it.
    assert referer(policy, f"{SITE}/join/ABCD2345", "https://elsewhere.example/") is None


# --- The proxy's headers: one hop trusted when told, none otherwise ----------------------------


FORGED = {"X-Forwarded-For": "198.51.100.1", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "x"}
"""What anyone may write in a request; only a proxy in front makes it true."""
PROXIED = {"X-Forwarded-For": PHONE_ADDRESS, "X-Forwarded-Proto": "https", "X-Forwarded-Host": HOST}
"""What the proxy in front (deploy/Caddyfile) writes for a phone asking for SITE."""


def test_without_a_proxy_forwarded_headers_are_ignored(tmp_path):
    client = app_over(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    started = client.post("/api/matches", json=DUEL, headers=FORGED)
    assert started.json["url"].startswith("http://localhost/api/matches/")
    page = client.post("/matches/new/rami", data={"players-0": "Ana", "players-1": "Bo"})
    assert "Secure" not in page.headers["Set-Cookie"]


@pytest.mark.parametrize("told", ["config", "1", "true", "yes"])
def test_behind_a_proxy_links_and_cookies_are_the_phones_own(tmp_path, monkeypatch, told: str):
    if told == "config":
        app = app_over(tmp_path, WTF_CSRF_ENABLED=False, BEHIND_PROXY=True)
    else:
        monkeypatch.setenv("TABLESCORE_BEHIND_PROXY", told)
        app = app_over(tmp_path, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    started = client.post("/api/matches", json=DUEL, headers=PROXIED)
    assert started.json["url"] == f"{SITE}/api/matches/{started.json['id']}"
    code = client.post(
        f"/api/matches/{started.json['id']}/handoff",
        json={},
        headers=PROXIED | {"Authorization": f"Bearer {started.json['scorer_token']}"},
    ).json
    assert code["url"].startswith(f"{SITE}/join/")
    page = client.post(
        "/matches/new/rami", data={"players-0": "Ana", "players-1": "Bo"}, headers=PROXIED
    )
    assert "Secure" in page.headers["Set-Cookie"]


@pytest.mark.parametrize("told", ["0", "false", "no", "off", ""])
def test_behind_proxy_is_off_unless_said_on(tmp_path, monkeypatch, told: str):
    monkeypatch.setenv("TABLESCORE_BEHIND_PROXY", told)
    app = app_over(tmp_path, WTF_CSRF_ENABLED=False)
    assert app.config["BEHIND_PROXY"] is False
    started = app.test_client().post("/api/matches", json=DUEL, headers=FORGED)
    assert started.json["url"].startswith("http://localhost/")


def test_behind_a_proxy_wrong_codes_are_counted_per_phone_by_the_last_hop(tmp_path):
    client = app_over(tmp_path, BEHIND_PROXY=True).test_client()
    # What a guesser writes itself stands left of the address the proxy appends.
    guesser = [f"10.0.0.{n}, {PHONE_ADDRESS}" for n in range(11)]
    said = [
        client.post("/api/join", json={"code": f"WRONG{n:03d}"}, headers={"X-Forwarded-For": f})
        for n, f in enumerate(guesser)
    ]
    assert [answer.status_code for answer in said] == [422] * 10 + [429]
    another = client.post("/api/join", json={"code": "WRONG999"}, headers=FORGED)
    assert another.status_code == 422


def test_without_a_proxy_a_forged_address_does_not_escape_the_count(tmp_path):
    client = app_over(tmp_path).test_client()
    said = [
        client.post(
            "/api/join", json={"code": f"WRONG{n:03d}"}, headers={"X-Forwarded-For": f"10.0.0.{n}"}
        ).status_code
        for n in range(11)
    ]
    assert said == [422] * 10 + [429]


@pytest.mark.parametrize("base", ["http://localhost", SITE])
def test_the_session_cookie_is_secure_exactly_over_https(tmp_path, base: str):
    client = app_over(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    page = client.post(
        "/matches/new/rami", base_url=base, data={"players-0": "Ana", "players-1": "Bo"}
    )
    assert page.status_code == 302
    assert ("; Secure" in page.headers["Set-Cookie"]) == base.startswith("https:")


# --- Whatever server bin/serve runs, only the app decides ---------------------------------------


@pytest.mark.parametrize("workers", ["1", "2"], ids=["waitress", "gunicorn"])
@pytest.mark.parametrize("behind_proxy", ["0", "1"], ids=["direct", "behind a proxy"])
def test_bin_serve_leaves_forwarded_headers_to_the_app(tmp_path, workers: str, behind_proxy: str):
    server, port = serve(tmp_path, WORKERS=workers, TABLESCORE_BEHIND_PROXY=behind_proxy)
    try:
        status, _headers, match = ask(port, "POST", "/api/matches", DUEL, **PROXIED)
    finally:
        stop(server)
    assert status == 201
    expected = f"{SITE}/" if behind_proxy == "1" else f"http://127.0.0.1:{port}/"
    assert match["url"].startswith(expected), match["url"]
