"""Small helpers that write the numbers of an explanation sentence."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .words import _, pgettext


def names(people: Sequence[str], last: str | None = None) -> str:
    """Join names as a sentence does: "Ana", "Ana and Bo", "Ana, Bo and Cy" (or `last`, "or")."""
    if len(people) <= 1:
        return "".join(people)
    word = last or _("and")
    return f"{', '.join(people[:-1])} {word} {people[-1]}"


def either(choices: Iterable[object]) -> str:
    """Join what a player may choose from as a sentence offers it: "A, B or C"."""
    return names([str(choice) for choice in choices], _("or"))


def addition(values: Sequence[int]) -> str:
    """Show a sum with its parts: "11 + 20 + 5 = 36" (a single value stands alone)."""
    total = sum(values)
    if len(values) == 1:
        return str(total)
    return f"{' + '.join(str(value) for value in values)} = {total}"


def each(values: Mapping[str, object]) -> str:
    """Say a value per player or team, in seat order: "Ana 4, Bo 3, Cy 6"."""
    return ", ".join(f"{name} {value}" for name, value in values.items())


def clauses(parts: Sequence[str]) -> str:
    """Join the parts of a round said in words: "Ana went out; Bo held K, Q, 5 and had melded"
    (the separator is the reader's own: Persian and Arabic write "؛")."""
    return pgettext("between the parts of a round said in words", "; ").join(filter(None, parts))
