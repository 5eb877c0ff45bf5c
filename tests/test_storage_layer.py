"""Storage is the only code that speaks SQL: no module outside scorebook/storage/ imports the
database driver, hands SQL to a connection, opens sqlite-utils' tables or reaches under the
connection, read from the code itself.

Tests and the bench may speak SQL: they look under the interface on purpose.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DRIVERS = ("sqlite3", "sqlite_utils")
RUNS_SQL = ("execute", "executemany", "executescript", "query")
"""The connection methods that take SQL text."""
SQL = re.compile(
    r"\b(select|insert|update|delete|create|drop|alter|pragma|begin|commit|rollback|savepoint)\b",
    re.IGNORECASE,
)


def outside_storage() -> list[Path]:
    """Every module of the product but storage's own."""
    storage = ROOT / "scorebook" / "storage"
    found = [ROOT / "app.py"]
    for top in ("scorers", "scorebook", "web"):
        found += [path for path in (ROOT / top).rglob("*.py") if storage not in path.parents]
    return sorted(found)


def texts(node: ast.AST, named: dict[str, list[str]]) -> list[str]:
    """The strings an argument is built from: its own, and those given to the names it uses."""
    found = []
    for part in ast.walk(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            found.append(part.value)
        elif isinstance(part, ast.Name):
            found += named.get(part.id, [])
    return found


def strings_named(tree: ast.AST) -> dict[str, list[str]]:
    """The strings each name of a module is given anywhere in it: SQL is often named first."""
    named: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    named.setdefault(target.id, []).extend(texts(node.value, {}))
    return named


def speaks_sql(source: str) -> list[str]:
    """Say how a module's code speaks to the database itself, if it does."""
    tree = ast.parse(source)
    named = strings_named(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names if a.name.split(".")[0] in DRIVERS]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in DRIVERS:
            found.append(f"imports from {node.module}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in RUNS_SQL
        ):
            arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
            said = [text for arg in arguments for text in texts(arg, named) if SQL.search(text)]
            found += [f"line {node.lineno}: {node.func.attr}({text!r})" for text in said]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "table"
            and any(isinstance(arg, ast.Constant) for arg in node.args)
        ):
            found.append(f"line {node.lineno}: opens a table")
        elif isinstance(node, ast.Attribute) and node.attr == "conn":
            found.append(f"line {node.lineno}: reaches the driver's connection")
    return found


@pytest.mark.parametrize("path", outside_storage(), ids=lambda path: str(path.relative_to(ROOT)))
def test_only_storage_speaks_sql(path: Path) -> None:
    assert speaks_sql(path.read_text(encoding="utf-8")) == []


def test_the_product_is_read_whole() -> None:
    names = {str(path.relative_to(ROOT)) for path in outside_storage()}
    assert {"app.py", "scorebook/access.py", "scorebook/transfer.py", "web/db.py"} <= names
    assert not any(name.startswith("scorebook/storage/") for name in names)


@pytest.mark.parametrize(
    "source",
    [
        "import sqlite3",
        "from sqlite_utils import Database",
        "from sqlite_utils.db import Table",
        'rows = db.query("select id from scorers where match_id = ?", [match_id])',
        'db.execute(f"update {table} set revoked_utc = ? where id = ?", [at, row_id])',
        'query = (\n    "select m.id from matches m "\n    "where m.uid = ?"\n)\n'
        "row = db.execute(query, [uid]).fetchone()",
        'cursor.executemany(sql="INSERT INTO players (key) VALUES (?)", seq_of_parameters=[])',
        'db.table("handoffs").update(row_id, {"revoked_utc": at})',
        "if db.conn.in_transaction:\n    pass",
    ],
)
def test_the_check_sees_sql_spoken_outside(source: str) -> None:
    assert speaks_sql(source) != []


def test_the_check_lets_other_calls_be() -> None:
    source = 'storage.rows_of(db, match_id)\nrequest.args.get("select")\nsearch.query(page=2)'
    assert speaks_sql(source) == []
