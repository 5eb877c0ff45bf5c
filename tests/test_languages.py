"""Eight languages: the catalogs are complete and in step with the code, every template text
is in them, pages follow the picker or the browser, right-to-left where it reads so, and
numbers typed in Persian or Arabic digits count."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from scorebook import matches
from scorers import GAMES, Refusal, words
from scorers.forms import LOCAL_DIGITS
from tests.html_reader import parse
from web.language import LANGUAGES, RIGHT_TO_LEFT

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = sorted(set(LANGUAGES) - {"en"})

# --- the catalogs -----------------------------------------------------------------------------


def catalog(language: str):
    """Read a language's .po catalog."""
    path = ROOT / "translations" / language / "LC_MESSAGES" / "messages.po"
    assert path.exists(), f"no catalog for {language}: see README, Adding a language"
    with path.open("rb") as po:
        return read_po(po, locale=language)


def extracted() -> set[str]:
    """Return every message the code and templates mark for translation, as pybabel finds them."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {**DEFAULT_KEYWORDS, "lazy": None}
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map, keywords=keywords
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    messages = [message for message in catalog(language) if message.id]
    untranslated = [
        message.id
        for message in messages
        if not message.string or (isinstance(message.string, tuple) and not all(message.string))
    ]
    fuzzy = [message.id for message in messages if message.fuzzy]
    assert not untranslated, f"{len(untranslated)} untranslated in {language}: {untranslated[:5]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {language}: {fuzzy[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalog_holds_every_message_of_the_code(language: str) -> None:
    held = {
        message.id if isinstance(message.id, str) else message.id[0]
        for message in catalog(language)
    }
    missing = sorted(extracted() - held)
    assert not missing, f"{len(missing)} messages not in {language}'s catalog: {missing[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language: str) -> None:
    """A translation that drops or renames a placeholder would break the sentence at runtime."""
    placeholder = re.compile(r"%\([a-z_]+\)s|\{[a-z_]+\}")
    broken = []
    for message in catalog(language):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(placeholder.findall(ids[-1]))
        for string in strings:
            if set(placeholder.findall(string)) - set(placeholder.findall(" ".join(ids))) or (
                len(ids) == 1 and set(placeholder.findall(string)) != wanted
            ):
                broken.append((message.id, string))
    assert not broken, f"{len(broken)} translations change placeholders: {broken[:3]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_template_translations_have_no_stray_percent_sign(language: str) -> None:
    """Templates fill every message with `%` (new-style gettext): a lone % would break the page."""
    stray = re.compile(r"%(?!\([a-z_]+\)s|%)")
    broken = []
    for message in catalog(language):
        if not message.id or not any(path.endswith(".html") for path, _ in message.locations):
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        broken += [string for string in strings if stray.search(string or "")]
    assert not broken, f"{len(broken)} template translations with a lone %: {broken[:3]}"


# --- no template text outside the catalog ------------------------------------------------------

UNTRANSLATED_WORDS = {"Tablescore", "Rami", "Belote", "Barbu", "Gaigel", "Porrazo"}
"""Names that are the same in every language."""
READ_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder"}
JINJA = re.compile(
    r"\{\{.*?\}\}|\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}|\{%.*?%\}|\{#.*?#\}", re.S
)


class Texts(HTMLParser):
    """Collect the text a person reads in a template with its Jinja parts taken out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        self.found += [value or "" for name, value in attrs if name in READ_ATTRIBUTES]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.found.append(data)


def literal_texts(source: str) -> list[str]:
    """Return the words a template shows that no `_()` or trans block produces."""
    parser = Texts()
    parser.feed(JINJA.sub(" ", source))
    words = []
    for text in parser.found:
        for word in re.findall(r"[^\W\d_]{2,}", text):
            if word not in UNTRANSLATED_WORDS:
                words.append(word)
    return words


@pytest.mark.parametrize(
    "template", sorted(str(path.relative_to(ROOT)) for path in (ROOT / "templates").rglob("*.html"))
)
def test_template_shows_no_text_outside_the_catalog(template: str) -> None:
    words = literal_texts((ROOT / template).read_text())
    assert not words, f"{template} shows text outside the catalog: {' '.join(words[:12])}"


def test_the_template_check_finds_literal_text() -> None:
    assert literal_texts('<p class="x">Hello {{ name }}</p>') == ["Hello"]
    assert literal_texts('<input placeholder="Type here">') == ["Type", "here"]
    assert literal_texts('<p>{{ _("Hello") }} <bdi>{{ name }}</bdi></p>') == []
    assert literal_texts("{% trans n=n %}Round {{ n }}{% endtrans %} · 12") == []
    assert literal_texts("<p>Tablescore: Belote</p>") == []


# --- choosing the language ---------------------------------------------------------------------


def html_tag(client: FlaskClient, url: str = "/", **headers: str) -> dict[str, str]:
    """Return the attributes of a page's <html> element."""
    return parse(client.get(url, headers=headers)).find("html").attrs


def test_english_without_a_choice(client: FlaskClient) -> None:
    tag = html_tag(client)
    assert tag == {"lang": "en", "dir": "ltr", "data-numerals": "latn", "data-between": " · "}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_browser_language_is_followed(client: FlaskClient, language: str) -> None:
    direction = "rtl" if language in RIGHT_TO_LEFT else "ltr"
    digits = {"fa": "arabext", "ar": "arab"}.get(language, "latn")
    between = "، " if language in RIGHT_TO_LEFT else " · "
    tag = html_tag(client, **{"Accept-Language": f"{language},en;q=0.5"})
    assert tag == {
        "lang": language,
        "dir": direction,
        "data-numerals": digits,
        "data-between": between,
    }


def test_an_unknown_browser_language_falls_back_to_english(client: FlaskClient) -> None:
    assert html_tag(client, **{"Accept-Language": "ja, zh;q=0.8"})["lang"] == "en"


def test_the_picker_is_remembered_over_the_browser(client: FlaskClient) -> None:
    response = client.post("/language", data={"language": "fa", "next": "/history?game=rami"})
    assert (response.status_code, response.headers["Location"]) == (302, "/history?game=rami")
    tag = html_tag(client, "/history", **{"Accept-Language": "de"})
    assert (tag["lang"], tag["dir"]) == ("fa", "rtl")
    doc = parse(client.get("/history"))
    picked = doc.find("select", id="language-picker").find("option", value="fa")
    assert "selected" in picked.attrs


@pytest.mark.parametrize("elsewhere", ["https://example.com/", "//example.com/x", "history"])
def test_the_picker_only_goes_back_to_this_site(client: FlaskClient, elsewhere: str) -> None:
    response = client.post("/language", data={"language": "de", "next": elsewhere})
    assert response.headers["Location"] == "/"


def test_an_unknown_language_changes_nothing(client: FlaskClient) -> None:
    client.post("/language", data={"language": "xx", "next": "/"})
    assert html_tag(client)["lang"] == "en"


def test_every_page_offers_every_language(client: FlaskClient) -> None:
    doc = parse(client.get("/"))
    options = doc.find("select", id="language-picker").find_all("option")
    assert [option.attrs["value"] for option in options] == list(LANGUAGES)
    assert [option.text() for option in options][4:6] == ["فارسی", "العربية"]


def test_the_api_speaks_english_whatever_the_browser(client: FlaskClient, new_match) -> None:
    match = new_match("rami", ("Ana", "Bo"))
    response = client.post(
        f"/api/matches/{match['id']}/rounds",
        json={"outcome": "out", "winner": "Ana", "hands": {"Bo": {"points": 12, "melded": True}}},
        headers={"Accept-Language": "fa"},
    )
    assert response.json["round"]["explanation"][0] == "Ana went out: 0."
    refused = client.post("/api/matches", json={"game": "nope"}, headers={"Accept-Language": "fa"})
    assert refused.json["error"].startswith("Choose a game")


# --- Persian and Arabic digits -----------------------------------------------------------------


def test_local_digits_read_as_latin_ones() -> None:
    assert "۱۵۲".translate(LOCAL_DIGITS) == "152"
    assert "٣٠".translate(LOCAL_DIGITS) == "30"
    assert "1۲٣".translate(LOCAL_DIGITS) == "123"


@pytest.mark.parametrize("typed", ["۱۵۲", "١٥٢", "152"])
def test_a_round_typed_in_persian_or_arabic_digits_counts(
    client: FlaskClient, new_match, typed: str
) -> None:
    match = new_match("rami", ("Ana", "Bo"), target=500)
    page = parse(client.get(f"/matches/{match['id']}"))
    box = page.find("input", id="hands-1-points")
    assert box.attrs["type"] == "text" and box.attrs["inputmode"] == "numeric"
    response = client.post(
        f"/matches/{match['id']}/rounds",
        data={
            "outcome": "out",
            "winner": "Ana",
            "hands-1-points": typed,
            "hands-1-melded": "y",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    assert client.get(f"/api/matches/{match['id']}").json["totals"] == {"Ana": 0, "Bo": 152}


def test_a_refusal_about_a_round_names_it_as_its_game_does() -> None:
    """French says "donne" for a Belote deal and "manche" for a Rami round, in refusals too."""
    words.speak("fr")
    try:
        belote = str(matches.cannot_replay(GAMES["belote"], 3, Refusal("…")))
        rami = str(matches.cannot_replay(GAMES["rami"], 3, Refusal("…")))
    finally:
        words.speak(None)
    assert "la donne 3" in belote and "manche" not in belote
    assert "la manche 3" in rami
