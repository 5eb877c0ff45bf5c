"""Circles on a server of many: each group's matches, players and events stay inside its circle,
whatever door a stranger, another circle or a guessed key knocks on, and the circle's own doors
(start, join, switch, new key, delete, export, import, live link) do what they say."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from api_helpers import CONCOURS
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.test_indexes import recorded

HEADER = "X-Tablescore-Circle"
ROUND = {"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 60, "melded": True}}}
"""Ana goes out, Bo holds 60: a rami round of a match of Ana and Bo."""
WRONG_KEY = "Zz" * 16
"""A key of the right length and alphabet that opens no circle."""
KEY = re.compile(r"[A-Za-z0-9_-]+")
OPEN_DOORS = {
    "pages.home",
    "api.games",
    "api.openapi_document",
    "static",
    "assets.fingerprinted",
    "language.pick",
    "pwa.manifest",
    "pwa.offline",
    "pwa.service_worker",
    "runtime.served",
    "alone.python",
    "patterns.patterns",
    "ratings.method",
    "circle_pages.start_page",
    "circle_pages.start_json",
    "circle_pages.join",
    "circle_pages.switch",
}
"""What a phone in no circle may open: what Tablescore is, how to start or join a circle."""
NAMING = {"match_id", "event_id", "name"}
"""Path arguments that name a thing of a circle: outside it, it is not there."""


def base_config(database: Path, **config: Any) -> dict[str, Any]:
    """The test app's settings over this file, on a server of many circles unless told."""
    return {
        "TESTING": True,
        "DATABASE": str(database),
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "CIRCLES": "many",
        **config,
    }


def served(tmp_path: Path, migrated: Path, **config: Any) -> Flask:
    """Serve a fresh copy of the migrated database, on a server of many circles unless told."""
    database = tmp_path / "circles.sqlite"
    shutil.copyfile(migrated, database)
    return create_app(base_config(database, **config))


def keyed(key: str) -> dict[str, str]:
    """The header a request acts inside a circle with."""
    return {HEADER: key}


def start_circle(client: FlaskClient, name: str, **headers: str) -> dict[str, Any]:
    """Start a circle through the API and return its answer, key included."""
    response = client.post("/api/circles", json={"name": name}, headers=headers)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.json


def start_rami(client: FlaskClient, key: str, players: tuple[str, ...]) -> dict[str, Any]:
    """Start a rami match inside a circle and return it, its scorer token included."""
    response = client.post(
        "/api/matches", json={"game": "rami", "players": list(players)}, headers=keyed(key)
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.json


def scorer(key: str, token: str) -> dict[str, str]:
    """The headers of a match's scoring phone inside its circle."""
    return {HEADER: key, "Authorization": f"Bearer {token}"}


def rows_of_circle(database: str, circle_id: int) -> dict[str, int]:
    """Count, table by table, the rows a circle holds, straight from the file."""
    with closing(sqlite3.connect(database)) as conn:
        tables = [
            row[0]
            for row in conn.execute("select name from sqlite_master where type = 'table'")
            if "circle_id" in [col[1] for col in conn.execute(f"pragma table_info({row[0]})")]
        ]
        return {
            table: conn.execute(
                f"select count(*) from {table} where circle_id = ?", [circle_id]
            ).fetchone()[0]
            for table in tables
        }


@dataclass
class World:
    """Two circles of one server: A holds a played match, an event and players; B is empty."""

    app: Flask
    a: dict[str, Any]
    b: dict[str, Any]
    match: dict[str, Any]
    event: dict[str, Any]

    def client(self) -> FlaskClient:
        """A new phone, holding no cookie."""
        return self.app.test_client()

    def as_a(self, url: str) -> Any:
        """Read a door as a phone in circle A."""
        return self.client().get(url, headers=keyed(self.a["key"]))


def build_world(app: Flask) -> World:
    """Put in A a played rami match of Ana and Bo and an event with a round drawn; B stays empty."""
    client = app.test_client()
    a = start_circle(client, "Jeudi coinche")
    b = start_circle(client, "Les voisins")
    match = start_rami(client, a["key"], ("Ana", "Bo"))
    played = client.post(
        f"/api/matches/{match['id']}/rounds",
        json=ROUND,
        headers=scorer(a["key"], match["scorer_token"]),
    )
    assert played.status_code == 201, played.json
    made = client.post("/api/events", json=CONCOURS, headers=keyed(a["key"]))
    assert made.status_code == 201, made.json
    drawn = client.post(
        f"/api/events/{made.json['id']}/draw",
        json={},
        headers=scorer(a["key"], made.json["scorer_token"]),
    )
    assert drawn.status_code == 201, drawn.json
    return World(app, a, b, match, made.json)


@pytest.fixture
def world(tmp_path: Path, migrated: Path) -> World:
    """Two circles on a server of many whose key limit a walk of every door cannot reach."""
    return build_world(served(tmp_path, migrated, CIRCLE_KEY_LIMIT="1000 per minute"))


# Every door, knocked on from outside circle A.

ELSEWHERE_TEAMS = {"X1": ["Xu", "Yi"], "X2": ["Zu", "Wy"]}
"""Entrants of an event made from outside A: nobody of A among them."""


def json_body(world: World, endpoint: str) -> Any:
    """What a JSON door is sent: a body that would do something, were A's thing reachable."""
    return {
        "api.start_match": {"game": "rami", "players": ["Xu", "Yi"]},
        "api.add_round": ROUND,
        "api.correct_round": ROUND,
        "api.note_round": {"note": "taken over"},
        "api.edit_match": {"place": "Elsewhere"},
        "api.join": {"code": "ABCD2345"},
        "events_api.create": CONCOURS | {"name": "Autre concours", "teams": ELSEWHERE_TEAMS},
        "events_api.enter": {"name": "Late", "players": ["Ka", "Lu"]},
        "events_api.withdraw": {"name": "Les As"},
        "players.rename_json": {"to": "Zed"},
        "transfer.import_history": [],
        "circle_pages.start_json": {"name": ""},
        "circle_pages.delete_json": {"name": world.a["name"]},
    }.get(endpoint, {})


def form_body(world: World, endpoint: str) -> dict[str, Any]:
    """What a page's form is sent."""
    return {
        "pages.edit_details": {"place": "Elsewhere"},
        "pages.note_round": {"note": "taken over"},
        "pages.join": {"code": "ABCD2345"},
        "players.rename": {"to": "Zed"},
        "language.pick": {"language": "fr", "next": "/"},
        "circle_pages.start_page": {"name": ""},
        "circle_pages.switch": {"circle": str(world.a["id"])},
        "circle_pages.delete_page": {"name": world.a["name"]},
        "event_pages.withdraw": {"name": "Les As"},
    }.get(endpoint, {})


def path_values(world: World, endpoint: str, arguments: set[str]) -> dict[str, Any]:
    """Fill a door's path with A's real things."""
    values = {
        "match_id": world.match["id"],
        "event_id": world.event["id"],
        "circle_id": world.a["id"],
        "n": 1,
        "round_id": 1,
        "table": 1,
        "side": "Bo",
        "name": "Ana",
        "key": WRONG_KEY,
        "code": "ABCD2345",
        "game": "belote" if endpoint.startswith("event_pages") else "rami",
        "kind": "svg",
        "filename": "app.css",
        "language": "fr",
        "digest": "0" * 12,
    }
    if endpoint == "assets.fingerprinted":
        values["name"] = world.app.extensions["assets"]["app.css"].name
    return {argument: values[argument] for argument in arguments}


def doors(app: Flask) -> Iterator[tuple[Any, str]]:
    """Every rule of the app with every method it allows, but HEAD and OPTIONS."""
    for rule in sorted(app.url_map.iter_rules(), key=lambda rule: (rule.rule, rule.endpoint)):
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule, method


ANA = re.compile(r"(?<![A-Za-z0-9_.-])Ana(?![A-Za-z0-9_.-])")
"""A's player, as a word: help texts and samples name an Ana of their own, whatever the data."""


def a_match_ids(world: World) -> set[int]:
    """Every match A holds: the one played and the event's tables."""
    found = world.as_a("/api/matches").json["matches"]
    return {match["id"] for match in found}


def a_state(world: World) -> dict[str, Any]:
    """What a walk outside A must leave alone: A's match, log, event, lists and counts."""
    match_id, event_id = world.match["id"], world.event["id"]
    return {
        "match": world.as_a(f"/api/matches/{match_id}").json,
        "log": world.as_a(f"/api/matches/{match_id}/log").json,
        "event": world.as_a(f"/api/events/{event_id}").json,
        "matches": world.as_a("/api/matches").json,
        "players": world.as_a("/api/players").json,
        "circle": world.as_a("/api/circle").json,
    }


def knock_on(world: World, app: Flask, rule: Any, method: str, key: str | None) -> Any:
    """Send a door of `app` with A's ids and tokens, and `key` if any, from a new phone."""
    endpoint, arguments = rule.endpoint, set(rule.arguments)
    url = app.url_map.bind("localhost").build(
        endpoint, path_values(world, endpoint, arguments), method=method
    )
    headers = {}
    if "match_id" in arguments:
        headers["Authorization"] = f"Bearer {world.match['scorer_token']}"
    if "event_id" in arguments:
        headers["Authorization"] = f"Bearer {world.event['scorer_token']}"
    if key is not None:
        headers[HEADER] = key
    if method == "GET":
        sent = {}
    elif url.startswith("/api/"):
        sent = {"json": json_body(world, endpoint)}
    else:
        sent = {"data": form_body(world, endpoint)}
    phone = app.test_client()
    response = phone.open(url, method=method, headers=headers, **sent)
    response.get_data()  # read whole before the file a static door streams is closed
    response.close()
    response.url_sent = url
    response.phone = phone
    return response


@pytest.mark.parametrize("knock", ["no key", "key of B", "wrong key"])
def test_no_door_shows_or_changes_anything_of_another_circle(
    world: World, tmp_path: Path, migrated: Path, knock: str
):
    """Every door, knocked on with A's real ids and tokens, shows and changes nothing of A."""
    before = a_state(world)
    database = world.app.config["DATABASE"]
    a_rows = rows_of_circle(database, world.a["id"])
    ids = a_match_ids(world)
    assert len(ids) == 3 and world.match["id"] in ids
    assert len(before["match"]["rounds"]) == 1
    # A server holding no Ana at all: how many the same door's own words name.
    (tmp_path / "reference").mkdir()
    reference = served(tmp_path / "reference", migrated, CIRCLE_KEY_LIMIT="1000 per minute")
    reference_key = start_circle(reference.test_client(), "Les voisins")["key"]
    keys = {
        "no key": (None, None),
        "key of B": (world.b["key"], reference_key),
        "wrong key": (WRONG_KEY, WRONG_KEY),
    }
    key, reference_key = keys[knock]
    marks = [world.a["name"], world.event["name"], world.match["uid"], world.a["key"]]
    seen: dict[str, int] = {}
    problems: list[str] = []
    for rule, method in doors(world.app):
        endpoint, arguments = rule.endpoint, set(rule.arguments)
        where = f"{knock}: {method} {rule.rule}"
        try:
            response = knock_on(world, world.app, rule, method, key)
        except Exception as crash:  # noqa: BLE001 - a testing app raises what a server answers 500
            problems.append(f"{where} -> 500 ({crash!r})")
            continue
        status = response.status_code
        seen[f"{method} {rule.rule}"] = status
        body = response.get_data().decode("utf-8", "replace")
        where = f"{knock}: {method} {response.url_sent} -> {status}"
        if status == 500:
            problems.append(f"{where} (a crash)")
        if world.match["uid"] in body or world.a["key"] in body:
            problems.append(f"{where} shows A's match uid or key")
        if status == 200:
            shown = [mark for mark in marks if mark in body]
            linked = {int(n) for n in re.findall(r"/matches/(\d+)(?!\d)", body)} & ids
            shown += [f"/matches/{n}" for n in sorted(linked)]
            if ANA.search(body):
                elsewhere = knock_on(world, reference, rule, method, reference_key)
                if len(ANA.findall(body)) > len(ANA.findall(elsewhere.get_data(as_text=True))):
                    shown.append("Ana")
            if shown:
                problems.append(f"{where} shows {shown}")
        if endpoint in OPEN_DOORS:
            if status == 401:
                problems.append(f"{where}: an open door refused a phone in no circle")
            if endpoint == "circle_pages.join" and status != 404:
                problems.append(f"{where}: a wrong invite link must open nothing")
        elif knock == "key of B":
            if arguments & (NAMING | {"circle_id"}) and status != 404:
                problems.append(f"{where}: A's thing must not be there for B")
        else:
            wanted = 404 if arguments & NAMING else 401
            if status != wanted:
                problems.append(f"{where}: wanted {wanted}")
        if endpoint == "circle_pages.rekey_page" and status == 302:
            # B's own phone gave B a new key: carry on with it.
            with response.phone.session_transaction() as session:
                key = session["circles"][-1]
    assert len(seen) > 80, seen
    # B's phone was in B throughout, its new key too; the others were in no circle.
    inside = 200 if knock == "key of B" else 401
    for door in ("GET /api/matches", "GET /history", "GET /players", "GET /circle/delete"):
        assert seen.get(door) == inside, (door, seen.get(door))
    assert problems == [], "\n".join(problems)
    after = a_state(world)
    assert after == before
    assert len(after["match"]["rounds"]) == 1
    assert after["match"]["totals"] == {"Ana": 0, "Bo": 60}
    assert a_match_ids(world) == ids
    assert rows_of_circle(database, world.a["id"]) == a_rows
    # Nothing sent from outside every circle landed in the first one either.
    assert set(rows_of_circle(database, 1).values()) == {0}


# The circle's API.


def test_a_circle_starts_with_a_long_key_and_an_absolute_invite_link(world: World):
    """A key is a secret of at least 128 bits; the invite link a phone opens carries it."""
    for circle, name in ((world.a, "Jeudi coinche"), (world.b, "Les voisins")):
        assert set(circle) == {"id", "name", "key", "invite_url"}
        assert circle["name"] == name and isinstance(circle["id"], int)
        assert len(circle["key"]) >= 22 and KEY.fullmatch(circle["key"])
        assert circle["invite_url"] == f"http://localhost/circles/join/{circle['key']}"
    assert world.a["id"] != world.b["id"] and world.a["key"] != world.b["key"]
    described = world.as_a("/api/circle")
    assert described.status_code == 200
    assert described.json == {
        "id": world.a["id"],
        "name": "Jeudi coinche",
        "matches": 3,
        "players": 8,
        "events": 1,
    }
    empty = world.client().get("/api/circle", headers=keyed(world.b["key"])).json
    assert empty == {
        "id": world.b["id"],
        "name": "Les voisins",
        "matches": 0,
        "players": 0,
        "events": 0,
    }
    assert world.client().get("/api/circle").status_code == 401


def test_a_new_key_shuts_out_the_old_one_and_keeps_the_scorer_token(world: World):
    """A new key shuts the old one out at once; the match's scoring phone keeps its token."""
    phone = world.client()
    old = world.a["key"]
    changed = phone.post(f"/api/circles/{world.a['id']}/key", headers=keyed(old))
    assert changed.status_code == 200, changed.json
    new = changed.json["key"]
    assert set(changed.json) == {"key", "invite_url"}
    assert new != old and len(new) >= 22 and KEY.fullmatch(new)
    assert changed.json["invite_url"] == f"http://localhost/circles/join/{new}"
    assert phone.get("/api/circle", headers=keyed(old)).status_code == 401
    assert phone.get(f"/api/matches/{world.match['id']}", headers=keyed(old)).status_code == 404
    assert phone.get("/circles/join/" + old).status_code == 404
    assert phone.get("/api/circle", headers=keyed(new)).json["id"] == world.a["id"]
    played = phone.post(
        f"/api/matches/{world.match['id']}/rounds",
        json=ROUND,
        headers=scorer(new, world.match["scorer_token"]),
    )
    assert played.status_code == 201, played.json
    assert played.json["match"]["totals"] == {"Ana": 0, "Bo": 120}


def test_another_circle_cannot_rekey_or_delete_a_circle(world: World):
    """B's key names A's id: A is not there for it, and A's key goes on working."""
    phone = world.client()
    b = keyed(world.b["key"])
    assert phone.post(f"/api/circles/{world.a['id']}/key", headers=b).status_code == 404
    gone = phone.delete(f"/api/circles/{world.a['id']}", json={"name": world.a["name"]}, headers=b)
    assert gone.status_code == 404
    assert world.as_a("/api/circle").json["matches"] == 3
    assert phone.post(f"/api/circles/{world.a['id']}/key").status_code == 401


def test_deleting_a_circle_needs_its_exact_name_then_takes_everything(world: World):
    """A wrong or missing name deletes nothing; the exact name takes A away, and B stays."""
    phone = world.client()
    a, url = keyed(world.a["key"]), f"/api/circles/{world.a['id']}"
    b_match = start_rami(phone, world.b["key"], ("Cy", "Di"))
    for body in ({"name": "jeudi coinche"}, {"name": "Les voisins"}, {}):
        refused = phone.delete(url, json=body, headers=a)
        assert refused.status_code == 422, refused.json
        assert "name" in refused.json["fields"]
    assert world.as_a("/api/circle").json["matches"] == 3
    assert world.as_a(f"/api/matches/{world.match['id']}").status_code == 200
    deleted = phone.delete(url, json={"name": "Jeudi coinche"}, headers=a)
    assert deleted.status_code == 200, deleted.json
    assert deleted.json == {"deleted": {"matches": 3, "players": 8, "events": 1}}
    assert phone.get("/api/circle", headers=a).status_code == 401
    assert phone.get("/api/matches", headers=a).status_code == 401
    left = rows_of_circle(world.app.config["DATABASE"], world.a["id"])
    assert set(left.values()) == {0}, left
    b = keyed(world.b["key"])
    assert phone.get(f"/api/matches/{b_match['id']}", headers=b).json["players"] == ["Cy", "Di"]
    assert phone.get(f"/api/matches/{world.match['id']}", headers=b).status_code == 404
    assert phone.get("/api/circle", headers=b).json["matches"] == 1


@pytest.mark.parametrize("apart", [True, False])
def test_export_holds_its_circle_and_import_stores_into_the_key_circle(
    tmp_path: Path, migrated: Path, apart: bool
):
    """An export holds its circle only; an import stores copies into the key's circle alone."""
    world = build_world(served(tmp_path, migrated, IMPORT_APART=apart))
    phone = world.client()
    b_match = start_rami(phone, world.b["key"], ("Cy", "Di"))
    exported = world.as_a("/api/export")
    assert exported.status_code == 200
    document = exported.json
    a_uids = {match["uid"] for match in world.as_a("/api/matches").json["matches"]}
    assert {match["uid"] for match in document} == a_uids
    assert b_match["uid"] not in a_uids and len(document) == 3
    b_export = phone.get("/api/export", headers=keyed(world.b["key"])).json
    assert [match["uid"] for match in b_export] == [b_match["uid"]]
    before = world.as_a(f"/api/matches/{world.match['id']}").json

    into_b = phone.post("/api/import", json=document, headers=keyed(world.b["key"]))
    assert into_b.status_code == 200, into_b.json
    assert sorted(into_b.json["imported"]) == sorted(a_uids)
    assert into_b.json["skipped"] == [] and into_b.json["conflicts"] == []
    in_b = phone.get("/api/matches", headers=keyed(world.b["key"])).json["matches"]
    assert {match["uid"] for match in in_b} == a_uids | {b_match["uid"]}
    copy = next(match for match in in_b if match["uid"] == world.match["uid"])
    assert copy["id"] != world.match["id"]
    assert copy["players"] == ["Ana", "Bo"] and copy["totals"] == {"Ana": 0, "Bo": 60}
    assert world.as_a(f"/api/matches/{world.match['id']}").json == before
    assert world.as_a("/api/circle").json["matches"] == 3

    again = phone.post("/api/import", json=document, headers=keyed(world.a["key"]))
    assert again.status_code == 200, again.json
    assert again.json["imported"] == [] and sorted(again.json["skipped"]) == sorted(a_uids)
    assert world.as_a(f"/api/matches/{world.match['id']}").json == before
    assert {m["uid"] for m in world.as_a("/api/matches").json["matches"]} == a_uids
    assert phone.post("/api/import", json=document).status_code == 401


def test_players_belong_to_their_circle(world: World):
    """Ana of A and Ana of B are two players; renaming B's Ana leaves A's alone."""
    phone = world.client()
    b = keyed(world.b["key"])
    start_rami(phone, world.b["key"], ("Ana", "Cy"))
    start_rami(phone, world.b["key"], ("Ana", "Di"))
    a_ana = world.as_a("/api/players/Ana").json
    b_ana = phone.get("/api/players/Ana", headers=b).json
    assert a_ana["matches_total"] == 2  # the match with Bo, and the event's first table
    assert b_ana["matches_total"] == 2
    assert {m["id"] for m in a_ana["matches"]}.isdisjoint({m["id"] for m in b_ana["matches"]})
    assert {h["opponent"] for h in b_ana["head_to_head"]} == {"Cy", "Di"}
    assert "Bo" in {h["opponent"] for h in a_ana["head_to_head"]}
    listed = phone.get("/api/players", headers=b).json["players"]
    b_names = {player["name"]: player["matches"] for player in listed}
    assert b_names == {"Ana": 2, "Cy": 1, "Di": 1}

    renamed = phone.post("/api/players/Ana/rename", json={"to": "Anna"}, headers=b)
    assert renamed.status_code == 200, renamed.json
    assert phone.get("/api/players/Ana", headers=b).status_code == 404
    assert phone.get("/api/players/Anna", headers=b).json["matches_total"] == 2
    assert world.as_a("/api/players/Ana").json["matches_total"] == 2
    assert world.as_a("/api/players/Anna").status_code == 404
    assert world.as_a(f"/api/matches/{world.match['id']}").json["players"] == ["Ana", "Bo"]


# Pages, with the phone's session.


def invite_of(page: str) -> str:
    """The invite link a circle's page shows."""
    link = r'class="invite-link" translate="no">(http://localhost/circles/join/[\w-]+)<'
    found = re.search(link, page)
    assert found, page
    return found.group(1)


def session_key(phone: FlaskClient) -> str:
    """The key of the circle a phone's session uses."""
    with phone.session_transaction() as session:
        return session["circles"][-1]


@dataclass
class Phone:
    """A phone in A (started on the home page) and B (joined by its link), a match in each."""

    app: Flask
    phone: FlaskClient
    a: dict[str, Any]
    b: dict[str, Any]
    a_match: dict[str, Any]
    b_match: dict[str, Any]


@pytest.fixture
def phone_in_two(tmp_path: Path, migrated: Path) -> Phone:
    """Start A from the home page, play in it, join B by its link, play in it, switch to A."""
    app = served(tmp_path, migrated)
    phone = app.test_client()
    started = phone.post("/circles", data={"name": "Jeudi coinche"})
    assert started.status_code == 302
    assert urlsplit(started.headers["Location"]).path == "/circle"
    a = phone.get("/api/circle").json
    a_match = phone.post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo"]}).json
    b = start_circle(app.test_client(), "Les voisins")
    joined = phone.get(urlsplit(b["invite_url"]).path)
    assert joined.status_code == 302 and urlsplit(joined.headers["Location"]).path == "/"
    b_match = phone.post("/api/matches", json={"game": "rami", "players": ["Cy", "Di"]}).json
    assert phone.post("/circles/switch", data={"circle": str(a["id"])}).status_code == 302
    return Phone(app, phone, a, b, a_match, b_match)


def test_a_phone_in_no_circle_is_welcomed_and_starts_one(tmp_path: Path, migrated: Path):
    """A phone in no circle is told how to start or join one, and sees nobody's history."""
    app = served(tmp_path, migrated)
    phone = app.test_client()
    welcome = phone.get("/")
    assert welcome.status_code == 200
    shown = welcome.get_data(as_text=True)
    assert 'action="/circles"' in shown and 'name="name"' in shown and "Start a circle" in shown
    assert "circle" in shown and "Join your group" in shown
    assert 'href="/history"' not in shown and 'href="/players"' not in shown
    assert "has been changed" not in shown
    refused = phone.post("/circles", data={"name": ""})
    assert refused.status_code == 422 and 'action="/circles"' in refused.get_data(as_text=True)
    started = phone.post("/circles", data={"name": "Jeudi coinche"})
    assert started.status_code == 302
    home = phone.get("/").get_data(as_text=True)
    assert "Jeudi coinche" in home and 'href="/history"' in home and "Start a match" in home
    assert phone.get("/api/circle").json == {
        "id": 2,
        "name": "Jeudi coinche",
        "matches": 0,
        "players": 0,
        "events": 0,
    }
    assert phone.get("/api/circle", headers=keyed(session_key(phone))).json["id"] == 2


def test_a_phone_switches_between_the_circles_it_joined(phone_in_two: Phone):
    """The home page follows the circle switched to; a circle never joined is not switched to."""
    world, phone = phone_in_two, phone_in_two.phone
    a_link, b_link = f"/matches/{world.a_match['id']}", f"/matches/{world.b_match['id']}"
    home = phone.get("/").get_data(as_text=True)
    assert "Jeudi coinche" in home and a_link in home and b_link not in home
    assert phone.post("/circles/switch", data={"circle": str(world.b["id"])}).status_code == 302
    home = phone.get("/").get_data(as_text=True)
    assert "Les voisins" in home and b_link in home and a_link not in home
    assert phone.get(f"/api/matches/{world.a_match['id']}").status_code == 404
    third = start_circle(world.app.test_client(), "Ailleurs")
    for never in (third["id"], 1, 999):
        phone.post("/circles/switch", data={"circle": str(never)})
        assert phone.get("/api/circle").json["id"] == world.b["id"]


def test_the_circle_page_shows_its_invite_link_and_qr_code(phone_in_two: Phone):
    """The circle's page: its invite link, carrying its key, as text and as an inline QR."""
    page = phone_in_two.phone.get("/circle")
    assert page.status_code == 200
    shown = page.get_data(as_text=True)
    assert "<svg" in shown and "Jeudi coinche" in shown and "Les voisins" in shown
    assert invite_of(shown) == f"http://localhost/circles/join/{session_key(phone_in_two.phone)}"


def test_a_new_invite_link_shuts_out_the_phones_holding_the_old_one(phone_in_two: Phone):
    """A new invite link keeps this phone in and puts the phones holding the old one out."""
    world, phone = phone_in_two, phone_in_two.phone
    old = session_key(phone)
    friend = world.app.test_client()
    assert friend.get(f"/circles/join/{old}").status_code == 302
    assert "Jeudi coinche" in friend.get("/").get_data(as_text=True)
    rekeyed = phone.post("/circle/key")
    assert rekeyed.status_code == 302
    assert urlsplit(rekeyed.headers["Location"]).path == "/circle"
    new = session_key(phone)
    assert new != old and len(new) >= 22
    assert phone.get("/api/circle").json["id"] == world.a["id"]
    assert phone.get("/api/circle", headers=keyed(new)).json["id"] == world.a["id"]
    assert phone.get("/api/circle", headers=keyed(old)).status_code == 401
    out = friend.get("/").get_data(as_text=True)
    assert "has been changed" in out and 'action="/circles"' in out
    assert "Jeudi coinche" not in out
    assert friend.get(f"/matches/{world.a_match['id']}").status_code == 404
    assert friend.get("/circles/join/" + old).status_code == 404


def test_deleting_a_circle_from_its_page_asks_for_its_name(phone_in_two: Phone):
    """Deleting from the page takes the exact name; anything else deletes nothing."""
    world, phone = phone_in_two, phone_in_two.phone
    key = session_key(phone)
    asked = phone.get("/circle/delete")
    assert asked.status_code == 200
    shown = asked.get_data(as_text=True)
    assert "Jeudi coinche" in shown and "1 match" in shown and "2 players" in shown
    for wrong in ("Les voisins", "jeudi coinche", ""):
        refused = phone.post("/circle/delete", data={"name": wrong})
        assert refused.status_code == 422
        assert "nothing was deleted" in refused.get_data(as_text=True)
    assert phone.get("/api/circle").json == world.a | {"matches": 1, "players": 2}
    deleted = phone.post("/circle/delete", data={"name": "Jeudi coinche"})
    assert deleted.status_code == 302
    assert phone.get("/api/circle", headers=keyed(key)).status_code == 401
    assert set(rows_of_circle(world.app.config["DATABASE"], world.a["id"]).values()) == {0}
    assert phone.get("/api/circle").json["id"] == world.b["id"]
    home = phone.get("/").get_data(as_text=True)
    assert "Les voisins" in home and f"/matches/{world.b_match['id']}" in home
    b_match = phone.get(f"/api/matches/{world.b_match['id']}").json
    assert b_match["players"] == ["Cy", "Di"]


# The live link.


def watch_link(world: World) -> tuple[str, str]:
    """The live link A's match page gives, and the code it carries."""
    page = world.as_a(f"/matches/{world.match['id']}").get_data(as_text=True)
    found = re.search(rf"http://localhost/matches/{world.match['id']}/live\?watch=([\w-]+)", page)
    assert found, "the live link must carry its watch code on a server of many"
    return found.group(0), found.group(1)


def test_the_live_link_opens_its_match_alone_to_whoever_holds_it(world: World):
    """A phone in no circle follows A's match through its live link, and nothing else."""
    link, code = watch_link(world)
    match_id = world.match["id"]
    stranger = world.client()
    live = stranger.get(urlsplit(link).path + "?watch=" + code)
    assert live.status_code == 200
    shown = live.get_data(as_text=True)
    assert "Ana" in shown and "Bo" in shown and "60" in shown
    sheet = stranger.get(f"/matches/{match_id}/live/sheet?watch={code}")
    assert sheet.status_code == 200 and "60" in sheet.get_data(as_text=True)
    assert stranger.get(f"/matches/{match_id}/live").status_code == 404
    assert stranger.get(f"/matches/{match_id}/live?watch={code[:-1]}x").status_code == 404
    for other in a_match_ids(world) - {match_id}:
        assert stranger.get(f"/matches/{other}/live?watch={code}").status_code == 404
    b_match = start_rami(world.client(), world.b["key"], ("Cy", "Di"))
    assert stranger.get(f"/matches/{b_match['id']}/live?watch={code}").status_code == 404
    for door in (f"/matches/{match_id}", f"/matches/{match_id}/sheet", f"/api/matches/{match_id}"):
        assert stranger.get(f"{door}?watch={code}").status_code == 404, door


def test_the_live_link_works_on_a_phone_in_another_circle(world: World):
    """Whoever holds the link follows the match, a phone of another circle too."""
    link, code = watch_link(world)
    phone = world.client()
    assert phone.get(urlsplit(world.b["invite_url"]).path).status_code == 302
    live = phone.get(f"/matches/{world.match['id']}/live?watch={code}")
    assert live.status_code == 200, link
    assert "60" in live.get_data(as_text=True)


# Passcode and limits.


def test_the_passcode_guards_starting_a_circle_not_playing_inside_one(
    tmp_path: Path, migrated: Path
):
    """On a server of many the passcode is asked to start a circle; its key is enough inside."""
    app = served(tmp_path, migrated, PASSCODE="sesame")
    phone = app.test_client()
    assert phone.post("/api/circles", json={"name": "Jeudi"}).status_code == 403
    wrong = {"X-Tablescore-Passcode": "open"}
    assert phone.post("/api/circles", json={"name": "Jeudi"}, headers=wrong).status_code == 403
    assert phone.post("/circles", data={"name": "Jeudi"}).status_code == 403
    assert phone.get("/").status_code == 200
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        assert conn.execute("select count(*) from circles").fetchone()[0] == 1
    circle = start_circle(phone, "Jeudi", **{"X-Tablescore-Passcode": "sesame"})
    match = start_rami(phone, circle["key"], ("Ana", "Bo"))
    assert match["players"] == ["Ana", "Bo"]
    made = phone.post("/circles", data={"name": "Vendredi", "passcode": "sesame"})
    assert made.status_code == 302


def test_wrong_keys_are_limited_then_even_a_right_key_waits(tmp_path: Path, migrated: Path):
    """Three wrong keys a minute: the fourth request with a key, even a right one, waits."""
    app = served(tmp_path, migrated, CIRCLE_KEY_LIMIT="3 per minute")
    phone = app.test_client()
    circle = start_circle(phone, "Jeudi")
    for n in range(3):
        guess = phone.get("/api/circle", headers=keyed(f"{WRONG_KEY[:-1]}{n}"))
        assert guess.status_code == 401
    waited = phone.get("/api/circle", headers=keyed(circle["key"]))
    assert waited.status_code == 429
    assert waited.json["error"].startswith("Too many wrong circle keys")
    assert phone.get(urlsplit(circle["invite_url"]).path).status_code == 429
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.0.0.2"
    assert elsewhere.get("/api/circle", headers=keyed(circle["key"])).json["name"] == "Jeudi"


def test_wrong_invite_links_count_as_wrong_keys(tmp_path: Path, migrated: Path):
    """Guessing invite links is guessing keys: limited the same way."""
    app = served(tmp_path, migrated, CIRCLE_KEY_LIMIT="3 per minute")
    phone = app.test_client()
    circle = start_circle(phone, "Jeudi")
    for n in range(3):
        assert phone.get(f"/circles/join/{WRONG_KEY[:-1]}{n}").status_code == 404
    assert phone.get(urlsplit(circle["invite_url"]).path).status_code == 429
    assert phone.get("/api/circle", headers=keyed(circle["key"])).status_code == 429


def test_circles_started_are_limited_and_a_refused_name_costs_nothing(
    tmp_path: Path, migrated: Path
):
    """Circles started are limited per address, page and API alike; a refused name is free."""
    app = served(tmp_path, migrated, CIRCLE_LIMIT="2 per hour")
    phone = app.test_client()
    for _ in range(3):
        refused = phone.post("/api/circles", json={"name": ""})
        assert refused.status_code == 422 and "name" in refused.json["fields"]
    assert phone.post("/circles", data={"name": "  "}).status_code == 422
    start_circle(phone, "One")
    start_circle(phone, "Two")
    third = phone.post("/api/circles", json={"name": "Three"})
    assert third.status_code == 429
    assert "Too many circles started" in third.json["error"]
    assert phone.post("/circles", data={"name": "Three"}).status_code == 429
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.0.0.2"
    assert start_circle(elsewhere, "Three")["name"] == "Three"
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        names = [row[0] for row in conn.execute("select name from circles order by id")]
    assert names == ["Tablescore", "One", "Two", "Three"]


# One circle, and a database of one circle served to many.


def test_a_server_of_one_circle_works_as_before(client: FlaskClient, new_match):
    """The default: one circle, no key, every list open, the circle doors of many refused."""
    match = new_match("rami", ("Ana", "Bo"))
    assert client.get("/api/circle").json == {
        "id": 1,
        "name": "Tablescore",
        "matches": 1,
        "players": 2,
        "events": 0,
    }
    assert client.post("/api/circles", json={"name": "Jeudi"}).status_code == 409
    assert client.get("/circles/join/x").status_code == 409
    assert client.post("/api/circles/1/key").status_code == 409
    assert client.delete("/api/circles/1", json={"name": "Tablescore"}).status_code == 409
    assert client.get("/circle").status_code == 409
    listed = client.get("/api/matches").json["matches"]
    assert [m["id"] for m in listed] == [match["id"]]
    assert [p["name"] for p in client.get("/api/players").json["players"]] == ["Ana", "Bo"]
    for door in ("/api/events", "/api/ratings?game=rami", "/api/export", "/history", "/players"):
        assert client.get(door).status_code == 200, door
    page = client.get(f"/matches/{match['id']}").get_data(as_text=True)
    assert f'/matches/{match["id"]}/live"' in page or f"/matches/{match['id']}/live<" in page
    assert "watch=" not in page
    assert "Start a match" in client.get("/").get_data(as_text=True)


def test_a_database_of_one_circle_served_to_many_opens_with_the_owner_key(
    tmp_path: Path, migrated: Path
):
    """A database of one circle served to many is closed until the CLI gives its owner a key."""
    one = served(tmp_path, migrated, CIRCLES="one")
    old = one.test_client().post("/api/matches", json={"game": "rami", "players": ["Ana", "Bo"]})
    assert old.status_code == 201
    many = create_app(base_config(Path(one.config["DATABASE"])))
    phone = many.test_client()
    for door in ("/api/matches", "/api/players", "/api/events", "/api/ratings?game=rami"):
        assert phone.get(door).status_code == 401, door
    assert phone.get(f"/api/matches/{old.json['id']}").status_code == 404
    printed = many.test_cli_runner().invoke(args=["circle-key", "--site", "https://t.example"])
    assert printed.exit_code == 0, printed.output
    found = re.search(r"Circle 1 key: ([\w-]+)", printed.output)
    assert found, printed.output
    key = found.group(1)
    assert len(key) >= 22
    assert f"Invite link: https://t.example/circles/join/{key}" in printed.output
    listed = phone.get("/api/matches", headers=keyed(key)).json["matches"]
    assert [m["uid"] for m in listed] == [old.json["uid"]]
    assert phone.get("/api/circle", headers=keyed(key)).json["name"] == "Tablescore"
    assert phone.get(f"/circles/join/{key}").status_code == 302
    assert f"/matches/{old.json['id']}" in phone.get("/").get_data(as_text=True)


# A known key and an unknown one read the same way.


def test_a_known_and_an_unknown_key_run_the_same_statement(
    world: World, monkeypatch: pytest.MonkeyPatch
):
    """Not a timing: the statements that look a key up are the same, known key or not."""

    def lookups(key: str) -> list[str]:
        with recorded(monkeypatch) as statements:
            world.client().get("/api/circle", headers=keyed(key))
        return [
            re.sub(r"'[0-9a-f]{64}'", "?", " ".join(sql.split()))
            for sql in statements
            if re.search(r"\bfrom circles\b", sql, re.I)
        ]

    known, unknown = lookups(world.a["key"]), lookups(WRONG_KEY)
    assert len(known) == 1, known
    assert known == unknown
