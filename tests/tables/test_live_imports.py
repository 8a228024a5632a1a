"""The live path (``tables.live``) and the database layer (``tables.db``) sit in no import
circle, counting imports inside functions too; ``tables.db`` imports nothing of the site."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "tables"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in TABLES.rglob("*.py") if "migrations" not in p.parts}


def imported(path: Path) -> set[str]:
    """The ``tables`` modules ``path`` imports anywhere in it (a name imported from a package
    is its submodule when there is one)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in MODULES else node.module)
    return {name for name in found if name in MODULES} - {module_name(path)}


GRAPH = {name: imported(path) for name, path in MODULES.items()}


def circle_through(start: str) -> list[str] | None:
    """A chain of imports from ``start`` back to itself, if there is one."""
    todo, came_from = [start], {}
    while todo:
        name = todo.pop()
        for nxt in GRAPH[name]:
            if nxt == start:
                chain = [name]
                while chain[-1] != start:
                    chain.append(came_from[chain[-1]])
                return [start, *reversed(chain[:-1]), start] if name != start else [start, start]
            if nxt not in came_from:
                came_from[nxt] = name
                todo.append(nxt)
    return None


def test_no_live_or_db_module_is_in_an_import_circle():
    circles = {
        name: circle_through(name)
        for name in MODULES
        if name.startswith(("tables.live", "tables.db"))
    }
    assert {name: chain for name, chain in circles.items() if chain} == {}


def test_the_database_layer_imports_nothing_of_the_site():
    assert {name: GRAPH[name] for name in MODULES if name.startswith("tables.db")} == {
        name: set() for name in MODULES if name.startswith("tables.db")
    }
