"""The house: each layer imports only the layers below it, and no module imports itself back.

web → phone → scorebook → scorebook.storage → scorers (the phone, which runs in the browser
too, imports the scorers alone: tests/test_alone.py), read from the code's own import statements.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("app", "web", "phone", "scorebook", "scorebook.storage", "scorers")
"""From the top down: a module may import from its own layer and the ones after it."""


def module_name(path: Path) -> str:
    """Name a source file as Python imports it."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def product_modules() -> dict[str, Path]:
    """Every module of the product, by name."""
    files = [ROOT / "app.py", *[p for top in LAYERS[1:] for p in (ROOT / top).rglob("*.py")]]
    return {module_name(path): path for path in files}


def imported(name: str, path: Path) -> set[str]:
    """The product modules one module imports, at any depth of its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {target for target in found if target in MODULES}


def layer_of(module: str) -> int:
    """Return the index of the deepest layer a module belongs to."""
    return max(i for i, top in enumerate(LAYERS) if module == top or module.startswith(f"{top}."))


MODULES = product_modules()
ARROWS = {name: imported(name, path) for name, path in MODULES.items()}


def test_the_house_is_read_whole() -> None:
    for expected in ("app", "web.pages", "scorebook.matches", "scorebook.storage", "scorers.base"):
        assert expected in MODULES
    assert "scorebook.storage" in ARROWS["scorebook.matches"]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_arrow_runs_back_up(name: str) -> None:
    upward = sorted(target for target in ARROWS[name] if layer_of(target) < layer_of(name))
    assert upward == [], f"{name} imports from a layer above it"


def cycle_through(start: str) -> list[str] | None:
    """Return a path of imports that leads from a module back to itself, if there is one."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        module, path = stack.pop()
        for target in ARROWS[module]:
            if target == start:
                return [*path, start]
            if target not in seen:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None


def test_no_module_imports_itself_back() -> None:
    # A package's __init__ that gathers its own modules is no circle: it stands for them.
    cycles = [
        cycle
        for name in MODULES
        if (cycle := cycle_through(name))
        and not any(MODULES[step].name == "__init__.py" for step in cycle)
    ]
    assert cycles == []


def test_the_check_sees_an_arrow_back_up() -> None:
    assert layer_of("web.pages") < layer_of("scorebook.matches") < layer_of("scorers.base")
    assert layer_of("scorebook.storage.database") > layer_of("scorebook.transfer")
