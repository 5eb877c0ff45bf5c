"""Reading the HTML pages in tests: a small element tree and the queries the page tests share."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

MADE_BY_THE_PAGE = {"csrf_token", "idempotency_key", "expected", "round_id", "version", "undo"}
"""Hidden inputs the page writes for each form (its keys, the round it was shown for)."""
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Node:
    """An element of a parsed page, with just enough to find things in it."""

    def __init__(self, tag: str, attrs: list[tuple[str, str | None]], parent: Node | None):
        self.tag = tag
        self.attrs = dict(attrs)
        self.parent = parent
        self.children: list[Node | str] = []

    def text(self) -> str:
        """Return the text inside, with runs of white space made single spaces."""
        parts = [child if isinstance(child, str) else child.text() for child in self.children]
        return " ".join("".join(parts).split())

    def walk(self) -> Iterator[Node]:
        """Yield every element inside, in document order."""
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.walk()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        """Return the elements with this tag, class and attribute values."""
        return [
            node
            for node in self.walk()
            if (tag is None or node.tag == tag)
            and (cls is None or cls in (node.attrs.get("class") or "").split())
            and all(node.attrs.get(name.rstrip("_")) == value for name, value in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node | None:
        """Return the first element found, or None."""
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None


class PageParser(HTMLParser):
    """Build a tree of Nodes from HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [], None)
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Node(tag, attrs, self.current))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(response: Any) -> Node:
    """Parse an HTML answer."""
    assert response.mimetype == "text/html"
    parser = PageParser()
    parser.feed(response.get_data(as_text=True))
    parser.close()
    return parser.root


def number(node: Node) -> int:
    """Read a number a page shows, its minus sign a real one (−143)."""
    return int(node.text().replace("\u2212", "-"))


def values(doc: Node) -> dict[str, Any]:
    """Return what the form inputs hold: text as typed, checkboxes as bools, radios' choice.

    The language picker at the foot of every page is not part of any form a test fills in.
    """
    found: dict[str, Any] = {}
    picker = doc.find("form", "language-form")
    skipped = {id(node) for node in picker.find_all("input")} if picker else set()
    for node in doc.find_all("input"):
        name, kind = node.attrs.get("name"), node.attrs.get("type", "text")
        if name is None or name in MADE_BY_THE_PAGE or id(node) in skipped:
            continue  # made by the page for each form, not typed by anyone
        if kind == "radio":
            if "checked" in node.attrs:
                found[name] = node.attrs["value"]
            else:
                found.setdefault(name, None)
        elif kind == "checkbox":
            found[name] = "checked" in node.attrs
        else:
            found[name] = node.attrs.get("value", "")
    return found


def field_errors(doc: Node) -> dict[str, list[str]]:
    """Return the messages shown by each field, by field id."""
    return {
        node.attrs["id"].removesuffix("-errors"): [li.text() for li in node.find_all("li")]
        for node in doc.find_all("ul", "field-errors")
    }


def alerts(doc: Node) -> list[str]:
    """Return the texts announced as alerts."""
    return [node.text() for node in doc.find_all(role="alert")]


def listed_rules(doc: Node) -> list[Node]:
    """Return the rules a match's rules page lists, each an item with its title and text."""
    rules = doc.find("ol", "rules")
    return rules.find_all("li") if rules is not None else []
