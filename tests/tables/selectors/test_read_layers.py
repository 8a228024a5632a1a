"""Presenters are pure at run time: no ORM, no log-in machinery, and the selectors' objects
handed in, their types named only for type hints (under ``if TYPE_CHECKING:``). The rest of
the layers (selectors import no writer, presenters no model, writer or database layer, no
circles) are import contracts in pyproject.toml: tests/test_import_contracts.py."""

import ast
from pathlib import Path

PRESENTERS = Path(__file__).resolve().parents[3] / "tables" / "presenters"


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


def test_presenters_use_no_orm_no_auth_and_no_reader_at_run_time():
    # import-linter sees django only as a whole, and counts type-checking imports.
    forbidden = ("tables.selectors", "django.db", "django.contrib.auth")
    found = {path.name: under(forbidden, runtime_imports(path)) for path in PRESENTERS.glob("*.py")}
    assert len(found) >= 4  # the package and its modules were found
    assert {name: deps for name, deps in found.items() if deps} == {}
