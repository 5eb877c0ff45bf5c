"""The phone alone (phone/) scores as the server does: the same matches, rounds, forms, refusals,
questions and pages, answered through `phone.answer` and compared with the server's own API
and pages for the same match, in English, French and Persian."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient

import phone
from phone import marks
from tests import test_barbu_web as barbu
from tests import test_belote_web as belote
from tests import test_gaigel_web as gaigel
from tests import test_porrazo_web as porrazo
from tests.api_helpers import (
    TABLES,
    api_match,
    newest_match_id,
    play,
    refused,
    rounds_url,
    start_match,
    unchanged,
)
from tests.html_reader import Node, PageParser, alerts, field_errors, parse, values
from web.numerals import numerals

NAVIGATE = {"Sec-Fetch-Mode": "navigate"}
"""What a browser sends with a form it posts itself: the phone's own Record, which may ask."""

RAMI_ROUNDS = [
    {
        "outcome": "out",
        "winner": "Ana",
        "hands": {"Bo": {"points": 16, "melded": True}, "Cy": {"points": 18, "melded": True}},
    },
    {
        "outcome": "blocked",
        "hands": {
            "Ana": {"points": 12, "melded": True},
            "Bo": {"points": 30, "melded": False},
            "Cy": {"cards": ["A", "K"], "melded": True},
        },
    },
    {
        "outcome": "out",
        "winner": "Bo",
        "hands": {
            "Ana": {"cards": ["K", "K"], "melded": False},
            "Cy": {"points": 3, "melded": False},
        },
    },
    {"outcome": "rami_sec", "winner": "Cy", "hands": {}},
]
"""Ana goes out, a blocked round, Bo goes out, then Cy's rami sec ends the match."""

MATCHES: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    "rami": (TABLES["rami"] | {"options": {}}, RAMI_ROUNDS),
    "belote": (
        TABLES["belote"] | {"options": belote.CLASSIC},
        [
            belote.deal(82, 70, "Nous", belote="Nous"),
            belote.B3,
            belote.deal(90, 62, "Nous"),
            belote.deal(60, 92, "Eux", taker="Bo", trump="clubs"),
        ],
    ),
    "coinche": (
        TABLES["belote"] | {"options": belote.COINCHE},
        [
            belote.bid(100, 98, 54, "Nous"),
            belote.bid(100, 98, 54, "Nous", coinche="coinche"),
            belote.bid(80, 50, 102, "Eux", taker="Cy", trump="spades", announcements={"Eux": 20}),
        ],
    ),
    "barbu": (
        TABLES["barbu"] | {"options": {}},
        [barbu.D1, barbu.NO_TRICKS, barbu.NO_QUEENS, barbu.BARBU, barbu.DOMINOES],
    ),
    "gaigel": (TABLES["gaigel"] | {"options": {}}, gaigel.FULL),
    "porrazo": (
        TABLES["porrazo"] | {"options": {}},
        [
            porrazo.T1,
            porrazo.BO_PORRAZO,
            porrazo.CY_COUNTER,
            porrazo.ANA_RONDA_K,
            porrazo.COUNTS,
        ],
    ),
}
"""A match of each game (Coinche too), as the API starts it, and the rounds played in it."""

TITLES = {name: name.capitalize() for name in MATCHES}
"""How the pages head each match: Coinche is Belote's variant, named as the home page names it."""

LANGUAGES = ["en", "fr", "fa"]


# --- asking the phone -------------------------------------------------------------------------


def ask(**question: Any) -> dict[str, Any]:
    """Ask the phone's one door a question, as its page does (JSON in, JSON out)."""
    return json.loads(phone.answer(json.dumps(question)))


def kept(started: dict[str, Any], server: dict[str, Any]) -> dict[str, Any]:
    """The match as the phone keeps it: its data as sent to start it, and each round's input
    as the server stored it."""
    return {
        "uid": server["uid"],
        "data": started,
        "rounds": [{"key": str(r["id"]), "input": r["input"]} for r in server["rounds"]],
        "removed": [],
    }


def played(client: FlaskClient, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one of MATCHES on the server through the API: the match kept and the server's."""
    started, rounds = MATCHES[name]
    match_id = start_match(client, started)["id"]
    server = play(client, match_id, *rounds)
    assert server == api_match(client, match_id)
    return kept(started, server), server


def names_of(server: dict[str, Any]) -> list[str]:
    """Every name a sentence of the match may hold: its players, then its teams."""
    return [*server["players"], *(server["teams"] or {})]


def read(html: str) -> Node:
    """Parse a piece of HTML the phone drew."""
    parser = PageParser()
    parser.feed(html)
    parser.close()
    return parser.root


def as_page_writes(sentence: str, names: list[str], language: str) -> str:
    """A sentence as a page shows it to a phone: each name and number set apart, then the
    language's own digits and signs (web/numerals.py)."""
    return read(numerals(language).write_html(str(marks.isolated(sentence, names)))).text()


def steps(doc: Node) -> list[str]:
    """The sentences of a page's Why? (the first list of steps it shows)."""
    return [li.text() for li in doc.find("ol", "steps").find_all("li")]


def in_language(client: FlaskClient, language: str) -> None:
    """Pick the language of this phone's pages."""
    assert client.post("/language", data={"language": language}).status_code == 302


# --- scoring: the phone's answer is the API's ------------------------------------------------


@pytest.mark.parametrize("name", list(MATCHES))
def test_the_phone_scores_every_round_as_the_api_answers(client: FlaskClient, name: str) -> None:
    match, server = played(client, name)
    scored = ask(do="score", match=match)
    for key in ("totals", "status", "winner", "state"):
        assert scored[key] == server[key], key
    assert len(scored["rounds"]) == len(server["rounds"]) == len(MATCHES[name][1])
    for mine, theirs in zip(scored["rounds"], server["rounds"], strict=True):
        assert {"n", "input", "scores", "explanation", "totals"} <= set(mine)
        assert mine == {key: theirs[key] for key in mine}, mine["n"]
    assert scored["title"] == TITLES[name]
    assert (scored["banner"] is None) == (server["status"] != "finished")


def test_the_matches_played_are_real(client: FlaskClient) -> None:
    """The matches compared score something, and two of them run to their end."""
    ended = {}
    for name in MATCHES:
        _match, server = played(client, name)
        assert any(server["totals"].values()), name
        ended[name] = (server["status"], server["winner"])
    assert ended["rami"] == ("finished", "Cy")
    assert ended["gaigel"] == ("finished", "Unten")
    assert ended["belote"][0] == "playing"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(MATCHES))
def test_the_phone_explains_each_round_as_the_why_page_does(
    client: FlaskClient, name: str, language: str
) -> None:
    match, server = played(client, name)
    scored = ask(do="score", match=match, language=language)
    assert (scored["totals"], scored["status"], scored["winner"]) == (
        server["totals"],
        server["status"],
        server["winner"],
    )
    in_language(client, language)
    names = names_of(server)
    for mine, theirs in zip(scored["rounds"], server["rounds"], strict=True):
        assert (mine["n"], mine["input"], mine["scores"], mine["totals"]) == (
            theirs["n"],
            theirs["input"],
            theirs["scores"],
            theirs["totals"],
        )
        page = client.get(f"/matches/{server['id']}/rounds/{mine['n']}/why")
        assert page.status_code == 200
        assert steps(parse(page)) == [
            as_page_writes(s, names, language) for s in mine["explanation"]
        ]
        if language == "en":
            assert mine["explanation"] == theirs["explanation"]
        else:
            # Said in the language: the page compared is no English page.
            assert mine["explanation"] != theirs["explanation"]


def test_a_persian_explanation_is_in_persian_words(client: FlaskClient) -> None:
    match, server = played(client, "rami")
    first = ask(do="score", match=match, language="fa")["rounds"][0]["explanation"]
    assert server["rounds"][0]["explanation"][0] == "Ana went out: 0."
    assert any("\u0600" <= letter <= "\u06ff" for letter in first[0])
    assert "Ana" in first[0]
    assert ask(do="score", match=match, language="fr")["rounds"][0]["explanation"][0] == (
        "Ana est sorti\u00a0: 0."
    )


# --- the round forms: the phone reads a form as the server does ------------------------------


RAMI_OUT = {
    "outcome": "out",
    "winner": "Ana",
    "hands-0-cards": "",
    "hands-0-points": "",
    "hands-1-cards": "",
    "hands-1-points": "12",
    "hands-1-melded": "n",
    "hands-2-cards": "",
    "hands-2-points": "7",
    "hands-2-melded": "y",
}
"""Ana goes out; Bo had not melded, Cy had: the Rami round form as posted."""

RAMI_FORMS = [
    RAMI_OUT,
    # Typed on a Persian keypad: ۲۵ is 25.
    RAMI_OUT
    | {
        "winner": "Bo",
        "hands-0-points": "۲۵",
        "hands-0-melded": "y",
        "hands-1-points": "",
        "hands-1-melded": "",
        "hands-2-points": "30",
    },
    {
        "outcome": "blocked",
        "winner": "",
        "hands-0-points": "12",
        "hands-0-melded": "y",
        "hands-1-points": "30",
        "hands-1-melded": "n",
        "hands-2-points": "21",
        "hands-2-melded": "y",
    },
]
"""Rami rounds as the round form posts them."""

FORMS: dict[str, list[dict[str, str]]] = {
    "rami": RAMI_FORMS,
    "belote": [
        belote.deal_form(nous="82", belote="Nous"),
        belote.deal_form(nous="71"),
        belote.deal_form(taker="Bo", trump="clubs", eux="90", der="Eux", capot=""),
    ],
    "coinche": [
        belote.deal_form(
            eux="54", contract="100", coinche="coinche", **{"teams-0-announcements": "20"}
        ),
        belote.deal_form(
            taker="Bo", trump="spades", nous="50", der="Eux", contract="80", coinche="none"
        ),
    ],
}
"""Rounds as a phone posts the round form, in each match of MATCHES' start."""


@pytest.mark.parametrize("name", list(FORMS))
def test_the_phone_reads_a_round_form_as_the_server_stores_it(
    client: FlaskClient, name: str
) -> None:
    started = MATCHES[name][0]
    match_id = start_match(client, started)["id"]
    for typed in FORMS[name]:
        before = api_match(client, match_id)
        answer = ask(do="record", match=kept(started, before), body=urlencode(typed))
        assert set(answer) == {"entered"}, answer.get("html", "")[:300]
        response = client.post(f"/matches/{match_id}/rounds", data=typed)
        assert response.status_code == 302, response.get_data(as_text=True)[:300]
        stored = api_match(client, match_id)["rounds"][-1]
        assert answer["entered"] == stored["input"]
    after = api_match(client, match_id)
    assert len(after["rounds"]) == len(FORMS[name])
    assert ask(do="score", match=kept(started, after))["totals"] == after["totals"]


def test_the_phone_reads_a_correction_as_the_server_stores_it(client: FlaskClient) -> None:
    started = MATCHES["belote"][0]
    match_id = start_match(client, started)["id"]
    for typed in FORMS["belote"]:
        assert client.post(f"/matches/{match_id}/rounds", data=typed).status_code == 302
    fixed = belote.deal_form(nous="100", der="Nous", belote="Eux")
    before = api_match(client, match_id)
    answer = ask(do="correct", match=kept(started, before), body=urlencode(fixed), n=2)
    response = client.post(f"/matches/{match_id}/rounds/2/edit", data=fixed)
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    after = api_match(client, match_id)
    assert answer == {"entered": after["rounds"][1]["input"]}
    assert after["rounds"][1]["input"]["points"] == {"Nous": 100, "Eux": 52}
    assert ask(do="score", match=kept(started, after))["totals"] == after["totals"]


# --- refusals and questions -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "typed", "errors"),
    [
        pytest.param(
            "rami",
            RAMI_FORMS[0] | {"hands-1-melded": ""},
            {"hands-1-melded": ["Say whether Bo had melded."]},
            id="rami-melded",
        ),
        pytest.param(
            "belote",
            belote.deal_form(taker="", nous="82"),
            {"taker": ["Say who took."]},
            id="belote-taker",
        ),
        pytest.param(
            "belote",
            belote.deal_form(nous="80", eux="80"),
            {"teams-0-points": ["The card points must add up to 152: 80 + 80 = 160."]},
            id="belote-sum",
        ),
    ],
)
def test_a_refused_round_is_shown_again_with_the_servers_field_errors(
    client: FlaskClient, name: str, typed: dict[str, str], errors: dict[str, list[str]]
) -> None:
    started = MATCHES[name][0]
    server = start_match(client, started)
    answer = ask(do="record", match=kept(started, server), body=urlencode(typed))
    assert set(answer) == {"html"}
    response = client.post(f"/matches/{server['id']}/rounds", data=typed)
    assert response.status_code == 422
    assert field_errors(read(answer["html"])) == field_errors(parse(response))
    assert field_errors(read(answer["html"])) == errors
    assert api_match(client, server["id"])["rounds"] == []
    # Every value typed is shown again, to fix, as the server's page shows it.
    shown = values(read(answer["html"]).find("form", "round-form"))
    assert shown == values(parse(response).find("form", "round-form"))
    assert {key: shown[key] for key in typed if typed[key]} == {
        key: value for key, value in typed.items() if value
    }


UNUSUAL = {
    "rami": (
        RAMI_FORMS[0] | {"hands-1-points": "110", "hands-1-melded": "y", "hands-2-points": "120"},
        "Every hand left is worth over 100?",
    ),
    "belote": (
        belote.deal_form(nous="0", eux="152", der="Eux"),
        "0 card points for Nous, and no capot?",
    ),
}
"""An unusual round of each of two games as the form posts it, and what is asked about it."""


@pytest.mark.parametrize("name", list(UNUSUAL))
def test_an_unusual_round_is_asked_about_once_then_recorded(client: FlaskClient, name: str) -> None:
    started = MATCHES[name][0]
    match_id = start_match(client, started)["id"]
    typed, question = UNUSUAL[name]
    match = kept(started, api_match(client, match_id))
    answer = ask(do="record", match=match, body=urlencode(typed))
    assert set(answer) == {"html"}
    doc = read(answer["html"])
    block = doc.find("form", "round-form").find("div", "oddities")
    assert block is not None and question in block.text()
    assert block.find("input", type="hidden", name="sure").attrs["value"] == "1"
    # The server's page asks the same, and records nothing either.
    response = client.post(f"/matches/{match_id}/rounds", data=typed, headers=NAVIGATE)
    assert response.status_code == 200
    assert alerts(parse(response)) == alerts(doc)
    assert api_match(client, match_id)["rounds"] == []
    # Sure: recorded, as the server records it.
    sure = ask(do="record", match=match, body=urlencode(typed | {"sure": "1"}))
    response = client.post(
        f"/matches/{match_id}/rounds", data=typed | {"sure": "1"}, headers=NAVIGATE
    )
    assert response.status_code == 302
    assert sure == {"entered": api_match(client, match_id)["rounds"][0]["input"]}


def test_a_correction_is_never_asked_about(client: FlaskClient) -> None:
    started = MATCHES["rami"][0]
    match_id = start_match(client, started)["id"]
    assert client.post(f"/matches/{match_id}/rounds", data=RAMI_FORMS[0]).status_code == 302
    typed, _question = UNUSUAL["rami"]
    match = kept(started, api_match(client, match_id))
    answer = ask(do="correct", match=match, body=urlencode(typed), n=1)
    assert answer["entered"]["hands"] == {
        "Bo": {"points": 110, "melded": True},
        "Cy": {"points": 120, "melded": True},
    }


def test_a_refusal_is_said_in_the_phones_language(client: FlaskClient) -> None:
    started = MATCHES["rami"][0]
    server = start_match(client, started)
    typed = RAMI_FORMS[0] | {"hands-1-melded": ""}
    answer = ask(do="record", match=kept(started, server), body=urlencode(typed), language="fr")
    in_language(client, "fr")
    response = client.post(f"/matches/{server['id']}/rounds", data=typed)
    said = field_errors(read(answer["html"]))
    assert said == field_errors(parse(response))
    assert said["hands-1-melded"] != ["Say whether Bo had melded."]
    assert "Bo" in said["hands-1-melded"][0]


def test_the_server_records_no_round_after_the_end(client: FlaskClient) -> None:
    _match, server = played(client, "rami")
    assert server["status"] == "finished"
    response = client.post(f"/matches/{server['id']}/rounds", data=RAMI_OUT)
    assert response.status_code == 409
    assert "The match is over: Cy wins with 67!" in " ".join(alerts(parse(response)))
    assert len(api_match(client, server["id"])["rounds"]) == len(RAMI_ROUNDS)


def test_the_phone_records_no_round_after_the_end(client: FlaskClient) -> None:
    match, server = played(client, "rami")
    assert ask(do="score", match=match)["status"] == "finished"
    answer = ask(do="record", match=match, body=urlencode(RAMI_OUT))
    assert "entered" not in answer, answer
    assert "The match is over" in answer["html"]


def test_a_correction_a_later_round_cannot_take_is_refused_as_the_server_refuses_it(
    client: FlaskClient,
) -> None:
    match, server = played(client, "barbu")
    typed = barbu.hand_form("no_queens", (1, 1, 1, 1))
    answer = ask(do="correct", match=match, body=urlencode(typed, doseq=True), n=1)
    response = client.post(f"/matches/{server['id']}/rounds/1/edit", data=typed)
    assert response.status_code == 409
    [said] = [alert for alert in alerts(read(answer["html"])) if "With this change" in alert]
    assert said in alerts(parse(response))
    assert said.startswith("With this change, hand 3 could no longer be scored:")
    assert "entered" not in answer


REMOVED_PORRAZO = "With this change, peg 2 could no longer be scored: "
"""Bo's porrazo (peg 2) taken out: Cy's counter to it, peg 2 then, answers nothing."""


def test_a_removal_a_later_round_cannot_take_is_refused_as_the_server_refuses_it(
    client: FlaskClient,
) -> None:
    match, server = played(client, "porrazo")
    with unchanged(client, server["id"]):
        body = refused(client.delete(rounds_url(server["id"], 2)), 409)
    without = match | {"rounds": [r for n, r in enumerate(match["rounds"], 1) if n != 2]}
    answer = ask(do="fits", match=without, n=None)
    assert answer == {"refused": body["error"]}
    assert body["error"].startswith(REMOVED_PORRAZO)


def test_a_removal_and_a_restore_that_fit_are_taken(client: FlaskClient) -> None:
    match, _server = played(client, "porrazo")
    last = match | {"rounds": match["rounds"][:-1]}
    assert ask(do="fits", match=last, n=None) == {}
    assert ask(do="fits", match=match, n=len(match["rounds"])) == {}


def test_a_restore_whose_own_round_no_longer_scores_is_refused_with_its_reason(
    client: FlaskClient,
) -> None:
    match, _server = played(client, "porrazo")
    # Cy's counter back at peg 2, with Bo's porrazo it answered still removed.
    back = match | {"rounds": [match["rounds"][0], match["rounds"][2]]}
    # Restored, the counter's refusal is its own; any other change is told the round it breaks.
    own = ask(do="fits", match=back, n=2)["refused"]
    assert own == "Counter-porrazo answers a pending porrazo, and none is waiting."
    assert ask(do="fits", match=back, n=None)["refused"] == REMOVED_PORRAZO + own


# --- starting a match from the new-match form -------------------------------------------------


def players_form(*names: str, **options: str) -> dict[str, str]:
    """The new-match form of a game played each for themselves, as typed."""
    typed = {f"players-{seat}": name for seat, name in enumerate(names)}
    return typed | {f"option_{name}": value for name, value in options.items()}


STARTS = [
    pytest.param("rami", None, players_form("Ana", "Bo", "Cy", target="300"), id="rami"),
    pytest.param("belote", None, belote.team_form(), id="belote"),
    pytest.param(
        "belote", None, belote.team_form(variant="coinche", rules="official"), id="coinche"
    ),
    pytest.param("barbu", None, players_form("Ana", "Bo", "Cy", "Di"), id="barbu"),
    pytest.param("gaigel", "three", players_form("Ana", "Bo", "Cy"), id="gaigel-three"),
    pytest.param(
        "porrazo",
        "partners",
        belote.team_form(("Us", "Ana", "Cy"), ("Them", "Bo", "Di")),
        id="porrazo-partners",
    ),
]


@pytest.mark.parametrize(("game", "layout", "typed"), STARTS)
def test_the_phone_starts_the_match_the_new_match_page_starts(
    client: FlaskClient, game: str, layout: str | None, typed: dict[str, str]
) -> None:
    answer = ask(do="start", game=game, body=urlencode(typed), layout=layout)
    assert set(answer) == {"data"}
    data = answer["data"]
    assert data["game"] == game
    page = f"/matches/new/{game}" + (f"?layout={layout}" if layout else "")
    response = client.post(page, data=typed)
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    by_page = api_match(client, newest_match_id(client))
    by_phone = start_match(client, data)
    for key in ("game", "players", "teams", "options"):
        assert by_phone[key] == by_page[key], key
    if game == "rami":
        assert by_page["options"]["target"] == 300
    if "coinche" in typed.values():
        assert by_page["options"]["variant"] == "coinche"


def test_a_team_without_a_name_is_refused_with_its_message() -> None:
    typed = belote.team_form(eux=("", "Bo", "Di"))
    assert ask(do="start", game="belote", body=urlencode(typed)) == {
        "refused": ["Team 2: Every team needs a name."]
    }
    said = ask(do="start", game="belote", body=urlencode(typed), language="fr")["refused"]
    assert len(said) == 1 and "Every team" not in said[0]


def test_a_bad_option_and_an_unknown_game_are_refused_with_their_messages() -> None:
    typed = players_form("Ana", "Bo", target="abc")
    assert ask(do="start", game="rami", body=urlencode(typed)) == {
        "refused": ["Target: Not a valid integer value."]
    }
    assert ask(do="start", game="whist", body="") == {
        "refused": ["Tablescore does not score 'whist'."]
    }


MISSING_PLAYER = [
    pytest.param(
        "rami", players_form("Ana", ""), "Rami is played by 2 to 6 players, not 1.", id="rami"
    ),
    pytest.param(
        "belote",
        belote.team_form(("Nous", "Ana", "")),
        'Belote needs two teams of 2: {"team name": [player names]}.',
        id="belote",
    ),
]
"""A new-match form short of a player, and what the server's page says by the empty box."""


@pytest.mark.parametrize(("game", "typed", "message"), MISSING_PLAYER)
def test_the_new_match_page_says_a_player_is_missing(
    client: FlaskClient, game: str, typed: dict[str, str], message: str
) -> None:
    response = client.post(f"/matches/new/{game}", data=typed)
    assert response.status_code == 422
    assert message in sum(field_errors(parse(response)).values(), [])
    assert client.get("/api/matches").json["total"] == 0


@pytest.mark.parametrize(("game", "typed", "message"), MISSING_PLAYER)
def test_the_phone_says_a_player_is_missing(game: str, typed: dict[str, str], message: str):
    said = ask(do="start", game=game, body=urlencode(typed))
    assert set(said) == {"refused"}
    assert any(message in line for line in said["refused"]), said


# --- the pages the phone draws ----------------------------------------------------------------


def score_bar(doc: Node) -> list[tuple[str, str]]:
    """Each side and its total, as a page's score bar shows them."""
    bar = doc.find("section", "score-bar")
    return [
        (li.find("bdi", "bar-side").text(), li.find("b", "bar-total").text())
        for li in bar.find_all("li")
    ]


@pytest.mark.parametrize("name", ["rami", "coinche", "porrazo"])
def test_the_match_view_shows_the_totals_and_every_rounds_why(
    client: FlaskClient, name: str
) -> None:
    match, server = played(client, name)
    answer = ask(do="show", match=match, view="match")
    assert (answer["totals"], answer["status"], answer["winner"]) == (
        server["totals"],
        server["status"],
        server["winner"],
    )
    assert "rounds" not in answer
    doc = read(answer["html"])
    assert score_bar(doc) == score_bar(parse(client.get(f"/matches/{server['id']}")))
    assert [value for _side, value in score_bar(doc)] == [
        marks.number_text(server["totals"][side]) for side, _value in score_bar(doc)
    ]
    # The server's own sheet, each round's scores, totals and Why? lines as its page shows them.
    assert sheet(doc) == sheet(parse(client.get(f"/matches/{server['id']}")))
    assert len(sheet(doc)) == len(server["rounds"])
    for stored in server["rounds"]:
        phone_why = read(ask(do="show", match=match, view="why", n=stored["n"])["html"])
        why = parse(client.get(f"/matches/{server['id']}/rounds/{stored['n']}/why"))
        assert steps(phone_why) == steps(why)
        assert steps(phone_why) == [
            as_page_writes(s, names_of(server), "en") for s in stored["explanation"]
        ]
        assert totals_table(phone_why) == totals_table(why)


def sheet(doc: Node) -> list[tuple[list[str], list[str]]]:
    """Each round of a page's sheet: its row's cells, and the sentences of its Why? row."""
    return [
        (
            [cell.text() for cell in body.find("tr").find_all("td")],
            [li.text() for li in body.find("tr", "why").find_all("li")],
        )
        for body in doc.find("table", "sheet").find_all("tbody", "round")
    ]


def totals_table(doc: Node) -> list[str]:
    """The cells of a Why? page's totals: before, this round, after, for each side."""
    return [cell.text() for cell in doc.find_all("table", "sheet")[-1].find_all("td")]


def test_the_match_view_speaks_persian_as_the_server_page(client: FlaskClient) -> None:
    match, server = played(client, "coinche")
    written = numerals("fa")
    persian = {"system": written.system, "minus": written.minus, "plus": written.plus}
    doc = read(ask(do="show", match=match, language="fa", numerals=persian)["html"])
    in_language(client, "fa")
    assert score_bar(doc) == score_bar(parse(client.get(f"/matches/{server['id']}")))
    assert sheet(doc) == sheet(parse(client.get(f"/matches/{server['id']}")))
    why = parse(client.get(f"/matches/{server['id']}/rounds/2/why"))
    phone_why = ask(do="show", match=match, view="why", n=2, language="fa", numerals=persian)
    assert steps(read(phone_why["html"])) == steps(why)
    assert "۵۲۰" in " ".join(steps(why))


def rules(doc: Node) -> list[tuple[str, str, str]]:
    """Each rule a rules page lists: its title, its text and the rounds it was applied in."""
    listed = [li for li in doc.find("ol", "rules").find_all("li") if li.find("h2")]
    return [
        (
            li.find("h2").text(),
            li.find("p").text(),
            applied.text() if (applied := li.find("p", "applied")) else "",
        )
        for li in listed
    ]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("name", list(MATCHES))
def test_the_rules_view_lists_the_rules_of_the_servers_rules_page(
    client: FlaskClient, name: str, language: str
) -> None:
    match, server = played(client, name)
    doc = read(ask(do="show", match=match, view="rules", language=language)["html"])
    in_language(client, language)
    mine = rules(doc)
    assert len(mine) >= 3
    assert any(applied for _title, _text, applied in mine)
    assert mine == rules(parse(client.get(f"/matches/{server['id']}/rules")))


@pytest.mark.parametrize(("name", "n"), [("rami", 2), ("belote", 1), ("coinche", 2), ("barbu", 1)])
def test_the_correct_view_holds_the_rounds_values(client: FlaskClient, name: str, n: int) -> None:
    match, server = played(client, name)
    answer = ask(do="show", match=match, view="edit", n=n)
    doc = read(answer["html"])
    mine = values(doc.find("form", "round-form"))
    edit = parse(client.get(f"/matches/{server['id']}/rounds/{n}/edit"))
    assert mine == values(edit.find("form", "round-form"))
    assert any(mine.values())
    if name == "rami":
        assert (mine["outcome"], mine["hands-0-points"], mine["hands-1-melded"]) == (
            "blocked",
            "12",
            "n",
        )
    if name == "coinche":
        assert (mine["contract"], mine["coinche"]) == ("100", "coinche")
