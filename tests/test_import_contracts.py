"""The import contracts of pyproject.toml (``[tool.importlinter]``: the layers, the pure engine
and presenters, no package in a circle) hold, so ``make test`` fails on a broken one; and they
can break: a back-edge written into a copy of the code is caught and named."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "tables", "pokersite", "pokerclient")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    command = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_every_import_contract_is_kept():
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert " 0 broken." in run.stdout


def test_a_core_module_importing_a_feature_breaks_the_layers(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.pyc"))
    # The back-edge issue 29 found: the chip count asking the tournaments directly.
    chips = tmp_path / "tables" / "selectors" / "chips.py"
    chips.write_text(chips.read_text() + "\nfrom tables.tournaments import selectors  # noqa\n")

    run = lint_imports(tmp_path)

    assert run.returncode == 1, run.stdout + run.stderr
    assert "tables.selectors is not allowed to import tables.tournaments" in run.stdout
    assert "- tables.selectors.chips -> tables.tournaments.selectors" in run.stdout
