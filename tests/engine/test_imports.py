"""The engine loads NumPy only where a batch needs it: importing the rest costs nothing more.
(That it never imports Django, and that no engine package runs in a circle, are import
contracts in pyproject.toml: tests/test_import_contracts.py.)"""

import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_the_engine_loads_numpy_only_for_batches():
    code = (
        "import sys, engine, engine.hand, engine.bots, engine.phh, engine.pkstate; "
        "assert 'numpy' not in sys.modules, 'numpy'; "
        "from engine.evaluate import evaluate_batch; assert 'numpy' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parent)
