"""What storage raises, named for the use-cases and the web: none of them names the driver.

The faults are SQLite's own classes under the names the callers need, so every `except`
catches exactly what it caught before.
"""

from __future__ import annotations

import sqlite3


class NotFound(Exception):
    """No row has the id asked for: the caller says in the reader's words what is missing."""


Fault = sqlite3.Error
"""Anything the database refused or failed at."""
Unavailable = sqlite3.OperationalError
"""The database could not do what was asked just now: full, read-only, busy, or gone."""
Duplicate = sqlite3.IntegrityError
"""A row broke a constraint: a uid or a key stored once is being stored again."""
