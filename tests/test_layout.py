"""The package's rooms keep their shape: ``puzzles/`` holds puzzles only, no module
imports a private name of another, and no modules import each other in a cycle (at
import time: an import inside a function, or for type checking only, runs later)."""

from __future__ import annotations

import ast
from pathlib import Path

from aspuzzles.registry import module_puzzles

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "aspuzzles"


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports_at_load(
    name: str, path: Path, modules: dict[str, Path]
) -> list[tuple[str, list[str]]]:
    """The package's modules that ``name`` imports when it is loaded, each with the
    names it takes from it."""
    tree = ast.parse(path.read_text())
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in tree.body:  # top level only: not in functions, not under `if TYPE_CHECKING`
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = here[: len(here) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        names = [alias.name for alias in node.names]
        submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
        if submodules:
            found += [(module, []) for module in submodules]
        elif target in modules:
            found.append((target, names))
    return found


def test_puzzles_holds_puzzles_only():
    folder = PACKAGE / "puzzles"
    entries = {
        path.stem
        for path in folder.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
    }
    assert entries == set(module_puzzles())


def test_no_module_imports_a_private_name_of_another():
    modules = _modules()
    private = [
        f"{name} takes {taken} from {target}"
        for name, path in modules.items()
        for target, names in _imports_at_load(name, path, modules)
        for taken in names
        if taken.startswith("_") and target != name
    ]
    assert private == []


def test_no_modules_import_each_other_in_a_cycle():
    modules = _modules()
    graph = {
        name: {target for target, _ in _imports_at_load(name, path, modules)}
        for name, path in modules.items()
    }
    cycles = []

    def visit(name: str, trail: list[str]) -> None:
        for target in graph[name]:
            if target in trail:
                cycles.append([*trail[trail.index(target) :], target])
            elif target not in done:
                visit(target, [*trail, target])
        done.add(name)

    done: set[str] = set()
    for name in graph:
        if name not in done:
            visit(name, [name])
    assert cycles == []
