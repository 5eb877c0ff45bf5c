"""What storage raises, named for the use-cases and the web: none of them names the driver.

Each engine turns its driver's errors into these as they happen (`Database.execute`), so a
caller catches the same fault whichever engine stores the data.
"""

from __future__ import annotations


class NotFound(Exception):
    """No row has the id asked for: the caller says in the reader's words what is missing."""


class Fault(Exception):
    """Anything the database refused or failed at."""


class Unavailable(Fault):
    """The database could not do what was asked just now: full, read-only, busy, or gone.

    `reason` says which, for the reader: one of REASONS.
    """

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or reason_in(message)


class Duplicate(Fault):
    """A row broke a constraint: a uid or a key stored once is being stored again, or a log
    refused to be rewritten."""


REASONS = ("full", "read-only", "busy", "unreachable")
"""Why the database could not do it: out of space, not writable, held by a long change (an
import), or not answering at all."""


def reason_in(message: str) -> str:
    """Name the reason a driver's message gives, or "" for none the reader is told of."""
    said = message.lower()
    if "full" in said or "no space left" in said:
        return "full"
    if "readonly" in said or "read-only" in said:
        return "read-only"
    if "locked" in said or "busy" in said or "lock timeout" in said:
        return "busy"
    if "connection" in said or "could not connect" in said or "terminating" in said:
        return "unreachable"
    return ""
