"""The engine's modules import each other without a circle, never Django, and NumPy only
where a batch needs it."""

import subprocess
import sys
from pathlib import Path

from tests.import_graph import circle_through, import_graph, package_modules

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_no_two_engine_modules_import_each_other_even_through_others():
    graph = import_graph(package_modules("engine"))
    circles = {name: circle_through(graph, name) for name in graph}
    assert {name: chain for name, chain in circles.items() if chain} == {}


def test_the_engine_never_imports_django_and_loads_numpy_only_for_batches():
    code = (
        "import sys, engine, engine.hand, engine.bots, engine.phh, engine.pkstate; "
        "assert 'django' not in sys.modules; assert 'numpy' not in sys.modules, 'numpy'; "
        "from engine.evaluate import evaluate_batch; assert 'numpy' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parent)
