"""The engine's modules import each other without a circle, never Django, and NumPy only
where a batch needs it."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in ENGINE.rglob("*.py")}


def imported(path: Path) -> set[str]:
    """The engine modules ``path`` imports anywhere in it (a name imported from a package is
    its submodule when there is one)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in MODULES else node.module)
    return {name for name in found if name in MODULES} - {module_name(path)}


def test_no_two_engine_modules_import_each_other_even_through_others():
    graph = {name: imported(path) for name, path in MODULES.items()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                if nxt == goal:
                    return True
                seen.add(nxt)
                todo.append(nxt)
        return False

    circles = sorted(f"{a} <-> {b}" for a in graph for b in graph[a] if reaches(b, a))
    assert circles == []


def test_the_engine_never_imports_django_and_loads_numpy_only_for_batches():
    code = (
        "import sys, engine, engine.hand, engine.bots, engine.phh, engine.pkstate; "
        "assert 'django' not in sys.modules; assert 'numpy' not in sys.modules, 'numpy'; "
        "from engine.evaluate import evaluate_batch; assert 'numpy' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parent)
