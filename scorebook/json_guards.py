"""Guard any JSON text before it is parsed and walked: a request's body, or an export file.

Shared by the web's bodies and the imports of export files, which must refuse the same
things the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import accumulate
from typing import Any

from scorers import Refusal
from scorers.words import _

MAX_DEPTH = 32
"""The deepest nesting a body may have: an import document needs under ten levels.

Python's parser recurses once per level and fails near a thousand, and so would any code that
walks the parsed body: refusing deeper bodies before they are parsed keeps both safe.
"""

STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def nesting_depth(data: bytes | str) -> int:
    """Return how deeply a JSON text nests its arrays and objects, without parsing it.

    Brackets inside strings do not count. Text that is not JSON may be miscounted, which is
    harmless: the parser refuses it next.
    """
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    steps = STRING.sub(b"", data).translate(None, NOT_BRACKETS).translate(STEPS)
    return max(accumulate(step - 1 for step in steps), default=0)


def lone_surrogate(parsed: Any) -> None:
    """Refuse a parsed body holding a lone surrogate ("\\ud800"), naming where it is.

    No database or answer can hold such text, so it is refused at the door, wherever it is.
    """
    waiting: list[tuple[str, Any]] = [("", parsed)]
    while waiting:
        path, value = waiting.pop()
        if isinstance(value, str) and not valid_text(value):
            refuse_surrogate(path)
        for key, item in children(value):
            if not valid_text(str(key)):
                refuse_surrogate(path)
            waiting.append((f"{path}.{key}" if path else str(key), item))


def children(value: Any) -> Iterable[tuple[Any, Any]]:
    """Return the keys (or places) and values inside an object or array; nothing otherwise."""
    if isinstance(value, dict):
        return value.items()
    if isinstance(value, list):
        return enumerate(value)
    return ()


def valid_text(text: str) -> bool:
    """Say whether text can be stored: no lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def refuse_surrogate(path: str) -> None:
    """Refuse text holding half of a character."""
    message = _(
        "This text holds a lone surrogate (like \\ud800), half of a character: send it again "
        "as plain text."
    )
    raise Refusal.at(path, message)
