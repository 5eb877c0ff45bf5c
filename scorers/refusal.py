"""The one error a scorer raises: a refusal a player understands, field by field."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager

from .explain import either
from .words import ngettext


class Refusal(Exception):
    """Refuse an input with a sentence a player understands, field by field."""

    def __init__(self, message: str, fields: Mapping[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.fields: dict[str, list[str]] = dict(fields or {})

    @classmethod
    def at(cls, path: str, message: str) -> Refusal:
        """Refuse because of one field, using its message as the summary too."""
        return cls(message, {path: [message]})


class Problems:
    """Collect every mistake in one input so the player can fix them all at once."""

    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        """Note one field's mistake."""
        self.fields.setdefault(path, []).append(message)

    def add_unknown(
        self,
        given: Mapping[str, object],
        known: Collection[str],
        message: str,
        under: str = "",
        **said: object,
    ) -> None:
        """Note each field given that has no place here, so a typo is named rather than dropped.

        `message` says one field, its {field} filled in and its other words from `said`; the
        paths go `under` a part of the input ("evidence") when one is named.
        """
        for unknown in sorted(set(given) - set(known)):
            path = f"{under}.{unknown}" if under else unknown
            self.add(path, message.format(field=repr(unknown), **said))

    @contextmanager
    def collect(self) -> Iterator[None]:
        """Note a refusal raised inside the block, and carry on checking the rest."""
        try:
            yield
        except Refusal as refusal:
            for path, messages in (refusal.fields or {"": [refusal.message]}).items():
                for message in messages:
                    self.add(path, message)

    def raise_any(self) -> None:
        """Refuse the input if anything was noted: one mistake is the summary, or a count."""
        if not self.fields:
            return
        messages = [message for found in self.fields.values() for message in found]
        summary = messages[0]
        if len(messages) > 1:
            summary = ngettext(
                "{count} thing to fix: {first}", "{count} things to fix: {first}", len(messages)
            ).format(count=len(messages), first=messages[0])
        raise Refusal(summary, self.fields)


def read_one_of(
    given: object, path: str, choices: Mapping[str, object], refusal: Callable[[str], str]
) -> str:
    """Return a choice given by its code, or refuse it with `refusal`, which names every choice
    in the reader's words: a contract, an event, whatever a round is one of."""
    if not isinstance(given, str) or given not in choices:
        raise Refusal.at(path, refusal(either(choices.values())))
    return given
