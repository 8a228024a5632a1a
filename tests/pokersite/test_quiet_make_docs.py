"""``make docs`` is as quiet as ``make install`` (issue 49, item 13): pip is asked for errors
only (``-qq``), where ``--quiet`` printed its "Location ... is ignored" warnings, 32 lines."""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_make_docs_asks_pip_for_errors_only(tmp_path):
    """The venv is a stand-in whose python and mkdocs record how they were called."""
    calls = tmp_path / "calls"
    venv = tmp_path / "venv"
    for tool in ("python", "mkdocs"):
        script = venv / "bin" / tool
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text(f'#!/bin/sh\necho "{tool} $@" >> {calls}\n')
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
    done = subprocess.run(
        ["make", "--no-print-directory", "docs", f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert (done.stdout, done.stderr) == ("", "")
    lines = calls.read_text().splitlines()
    pip_calls = [line for line in lines if "pip install" in line]
    assert any("docs-requirements.txt" in line for line in pip_calls), pip_calls
    assert all(" -qq " in f" {line} " for line in pip_calls), pip_calls
    assert any(line.startswith("mkdocs build") for line in lines), lines
