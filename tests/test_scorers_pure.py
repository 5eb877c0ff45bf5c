"""The rules run without the web stack: importing the registry, the shared scorer modules and
every game's rules and scorer loads no WTForms, Flask, Flask-Babel nor database library."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import scorers
from scorers import GAME_PACKAGES

ROOT = Path(__file__).resolve().parent.parent
WEB_STACK = ("wtforms", "flask", "flask_babel", "sqlite3", "sqlite_utils")
SHARED = [
    f"scorers.{module.name}"
    for module in pkgutil.iter_modules(scorers.__path__)
    if not module.ispkg and module.name != "forms"
]
"""The shared modules but the forms, which are the web's side of the games."""
RULES = [
    "scorers",
    *SHARED,
    *(f"{package}.{part}" for package in GAME_PACKAGES for part in ("rules", "scorer")),
]


def loaded_from_web_stack(modules: list[str]) -> list[str]:
    """Import `modules` in a fresh interpreter; name the web stack's libraries it then holds."""
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(set({WEB_STACK!r}) & set(sys.modules))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_the_rules_import_nothing_of_the_web_stack():
    assert loaded_from_web_stack(RULES) == []


def test_the_check_sees_a_form_imported_beside_the_rules():
    assert loaded_from_web_stack([*RULES, "scorers.rami.form"]) == ["wtforms"]
