"""Services write, selectors read, presenters are pure: what each layer of ``tables`` may
import (imports inside functions counted; under ``if TYPE_CHECKING:`` only for type hints)."""

import ast
from pathlib import Path

from tests.import_graph import circle_through, import_graph, package_modules

MODULES = package_modules("tables")
GRAPH = import_graph(MODULES)


def runtime_imports(path: Path) -> set[str]:
    """Every module ``path`` imports when it runs (absolute names; type-checking imports left
    out)."""
    tree = ast.parse(path.read_text())
    skipped = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If)
        and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for stmt in block.body
        for node in ast.walk(stmt)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def under(prefixes: tuple[str, ...], names: set[str]) -> set[str]:
    return {n for n in names if n in prefixes or n.startswith(tuple(p + "." for p in prefixes))}


def test_selectors_import_no_writer_and_nothing_above_them():
    above = ("tables.services", "tables.live", "tables.presenters", "tables.views")
    assert {
        name: under(above, deps)
        for name, deps in GRAPH.items()
        if name.startswith("tables.selectors") and under(above, deps)
    } == {}


def test_presenters_import_no_orm_no_reader_and_no_writer():
    forbidden = (
        "tables.models",
        "tables.selectors",
        "tables.services",
        "tables.db",
        "tables.live",
        "django.db",
        "django.contrib.auth",
    )
    found = {
        name: under(forbidden, runtime_imports(path))
        for name, path in MODULES.items()
        if name.startswith("tables.presenters")
    }
    assert len(found) >= 4  # the package and its modules were found
    assert {name: deps for name, deps in found.items() if deps} == {}


def test_no_read_module_is_in_an_import_circle():
    circles = {
        name: circle_through(GRAPH, name)
        for name in MODULES
        if name.startswith(("tables.selectors", "tables.presenters"))
    }
    assert {name: chain for name, chain in circles.items() if chain} == {}
