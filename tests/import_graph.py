"""The import graph of a package of this repository, read from its source (imports inside
functions counted), for the tests that keep modules out of import circles."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` (a folder under the repository root), migrations left out."""
    return {
        module_name(p): p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts
    }


def imported(path: Path, modules: dict[str, Path]) -> set[str]:
    """The ``modules`` that ``path`` imports anywhere in it (a name imported from a package is
    its submodule when there is one)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else node.module)
    return {name for name in found if name in modules} - {module_name(path)}


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {name: imported(path, modules) for name, path in modules.items()}


def circle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A chain of imports from ``start`` back to itself, if there is one."""
    todo, came_from = [start], {}
    while todo:
        name = todo.pop()
        for nxt in graph[name]:
            if nxt == start:
                chain = [name]
                while chain[-1] != start:
                    chain.append(came_from[chain[-1]])
                return [start, *reversed(chain[:-1]), start] if name != start else [start, start]
            if nxt not in came_from:
                came_from[nxt] = name
                todo.append(nxt)
    return None
