"""Watching costs almost nothing: a phone that asks "anything new?" with the ETag it holds is
answered 304 while the match is unchanged, and every change (a round, a correction, a removal,
a restore) gives a new ETag, so no watcher keeps an old sheet."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api_helpers import TABLES, rounds_url, send, start_match

DEAL = {"winner": "Oben", "outcome": "aus"}
OTHER_DEAL = {"winner": "Unten", "outcome": "gaigel"}
PLACES = ("/api/matches/{id}", "/matches/{id}/live/sheet")


def asked(client: FlaskClient, url: str, tag: str | None = None, **headers: str) -> Any:
    """Ask for a match's state, sending back the ETag held, if any."""
    if tag:
        headers["If-None-Match"] = tag
    return client.get(url, headers=headers)


@pytest.fixture
def match(client: FlaskClient) -> dict[str, Any]:
    """A Gaigel match with one deal recorded."""
    started = start_match(client, TABLES["gaigel"])
    send(client, "POST", rounds_url(started["id"]), DEAL)
    return started


@pytest.mark.parametrize("place", PLACES)
def test_an_unchanged_match_is_answered_304_without_a_body(client, match, place):
    url = place.format(id=match["id"])
    first = asked(client, url)
    assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
    assert first.cache_control.no_cache
    again = asked(client, url, first.headers["ETag"])
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == first.headers["ETag"]


def changes(client: FlaskClient, match_id: int) -> list:
    """Every kind of change a match can have, each as a call that makes it."""
    url = rounds_url(match_id)
    return [
        lambda: send(client, "POST", url, OTHER_DEAL),
        lambda: send(client, "PUT", rounds_url(match_id, 2), DEAL),
        lambda: client.delete(rounds_url(match_id, 2)),
        lambda: client.post(
            f"/api/matches/{match_id}/removed/"
            f"{client.get(f'/api/matches/{match_id}').json['removed'][0]['id']}/restore"
        ),
    ]


@pytest.mark.parametrize("place", PLACES)
def test_every_change_gives_a_new_etag_and_the_new_state(client, match, place):
    url = place.format(id=match["id"])
    seen = [asked(client, url).headers["ETag"]]
    for change in changes(client, match["id"]):
        assert change().status_code in (200, 201)
        fresh = asked(client, url, seen[-1])
        assert fresh.status_code == 200, "a watcher kept an old sheet"
        assert fresh.headers["ETag"] not in seen
        seen.append(fresh.headers["ETag"])
    rounds = client.get(f"/api/matches/{match['id']}").json["rounds"]
    assert [r["input"]["outcome"] for r in rounds] == ["aus", "aus"]


def test_the_etag_follows_the_readers_language(client, match):
    url = f"/matches/{match['id']}/live/sheet"
    english = asked(client, url, **{"Accept-Language": "en"}).headers["ETag"]
    french = asked(client, url, english, **{"Accept-Language": "fr"})
    assert french.status_code == 200 and french.headers["ETag"] != english
    # The sheet in French names its deals ("donne"), which the English one does not.
    assert "donne" in french.get_data(as_text=True).casefold()


def test_the_live_view_still_answers_204_to_the_version_it_shows(client, match):
    sheet = f"/matches/{match['id']}/live/sheet"
    version = str(len(client.get(f"/api/matches/{match['id']}/log").json["changes"]))
    answer = client.get(f"{sheet}?since={version}")
    assert answer.status_code == 204


def test_an_etag_of_another_match_is_not_taken_for_this_one(client, match):
    other = start_match(client, TABLES["gaigel"])
    send(client, "POST", rounds_url(other["id"]), DEAL)
    tag = asked(client, f"/api/matches/{other['id']}").headers["ETag"]
    assert asked(client, f"/api/matches/{match['id']}", tag).status_code == 200
